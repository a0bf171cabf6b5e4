"""``duel play --game architects``: you hold one seat of an Architects game, agents the
others; the game record is saved at the end (or at Ctrl-C / end of input / quit, with the
moves played).  What the table shows you is your seat's view (A-INFO): the central top only
if you looked at it as the cat's holder."""
from __future__ import annotations

from pathlib import Path

import click
from rich.columns import Columns
from rich.text import Text

from duelpy.architects.agents import ArchitectsAgentError, lineup, with_iterations
from duelpy.architects.game import choose_action, new_game, result
from duelpy.architects.notation import action_name, parse_action
from duelpy.architects.records import RecordError, load_record, record_of, save_record
from duelpy.architects.render import render_text
from duelpy.cli.common import console, seed_and_record
from duelpy.cli.options import given
from duelpy.cli.prompt import announce, end_of_game, read_move, saved_game, seat_agents

__all__ = ["play_architects", "match_action"]

_HELP = """\
Type a move by its number or its name: 'take left', 'take central', 'pay wood, coin',
'token Economy', 'build S2', 'decline' (a part of the name is enough when it names one legal
move). Commands:
  moves      list your legal moves
  board      show the table (your view)
  quit       stop; the record is saved (also with no move played)
  help       this text"""


def match_action(state, line: str) -> int:
    """The legal decision ``line`` names: a number from the list, a name (see
    :func:`duelpy.architects.notation.parse_action`) or a part naming one move; ValueError
    with the reason otherwise."""
    legal = state.legal_actions()
    if line.isdigit():
        k = int(line)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise ValueError(f"{k} is not a move number: your moves are 1 to {len(legal)}")
    try:
        return parse_action(state, line)
    except ValueError:
        pass
    words = line.lower().split()
    hits = [a for a in legal if all(w in action_name(state, a).lower() for w in words)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = ", ".join(action_name(state, a) for a in hits[:4])
        raise ValueError(f"{line!r} names {len(hits)} moves ({shown}): say which")
    raise ValueError(f"{line!r} is not one of your legal moves")


def _print_moves(con, state) -> None:
    legal = state.legal_actions()
    con.print(Text("Your moves (a number or a name):", style="bold"))
    con.print(Columns([Text(f"{k:>3}  {action_name(state, a)}") for k, a in enumerate(legal, 1)],
                      padding=(0, 3), column_first=True))


def play_architects(players: int, opponent: str, iterations, seat: int, seed, record_path,
                    overwrite: bool, ctx, setup: dict | None, from_path: Path | None = None,
                    from_move: int | None = None) -> None:
    """``duel play --game architects``: you hold ``seat`` (1-based), ``opponent`` the others
    (one agent for all, or one per other seat; default mcts with 1,000 iterations).
    ``setup`` is ``new_game``'s keywords; with ``from_path`` (a record) the players, seed and
    set-up are the record's and the game continues after its move ``from_move`` (its last by
    default).  Bad input raises click errors (one line)."""
    moves: list = []
    if from_path is not None:
        rec, kept = saved_game(from_path, from_move, load_record, RecordError)
        players, seed, setup = rec["players"], rec["seed"], dict(rec.get("setup", {}))
        moves = [(s, a) for s, a, _ in rec["moves"][:kept]]
    setup = setup or {}
    agents = seat_agents(players, seat, opponent, given(ctx, "opponent"), iterations, lineup,
                         with_iterations, ArchitectsAgentError)
    human = seat - 1
    seed, record_path = seed_and_record(seed, record_path, overwrite, "architects-game")
    con = console()
    state = new_game(players, seed, **setup)
    for _, a in moves:
        state.apply_action(a)
    announce(con, f"7 Wonders Architects, {players} players — you are P{seat} "
                  f"({state.wonder(human)})", agents, seed, record_path)
    stopped = None
    k = 0
    try:
        while not state.is_terminal():
            s = state.active
            if s != human:
                k += 1
                a = choose_action(state, agents[s], (seed * 1_000_003 + k) % 2**64)
                con.print(f"  P{s + 1} ({state.wonder(s)}): {action_name(state, a)}",
                          highlight=False)
                state.apply_action(a)
                moves.append((s, a))
                continue
            con.print(render_text(state, seat=human), highlight=False)
            _print_moves(con, state)
            what, value = read_move(
                f"P{seat}", _HELP, lambda: con.print(render_text(state, seat=human),
                                                     highlight=False),
                lambda: _print_moves(con, state), lambda line: match_action(state, line))
            if what == "stop":
                stopped = value
            else:
                click.echo(f"you play: {action_name(state, value)}")
                state.apply_action(value)
                moves.append((human, value))
            if stopped:
                break
    except KeyboardInterrupt:
        stopped = "Ctrl-C"
        click.echo()
    over = state.is_terminal()
    res: dict = result(state) if over else {"vp": {"total": []}, "winners": []}
    end_of_game(con, over, render_text(state), res["vp"]["total"], res["winners"], human,
                stopped, moves, record_path,
                lambda: save_record(record_path, record_of(players, seed, moves, setup=setup,
                                                           agents=agents)))
