"""``duel play --game seven``: you hold one seat of a 7 Wonders game, agents the others;
the game record is saved at the end (or at Ctrl-C, with the moves played)."""
from __future__ import annotations

from pathlib import Path

import click
from rich.columns import Columns
from rich.text import Text

from duelcore import seven as core
from duelpy.cli.common import console, seed_and_record
from duelpy.cli.options import given
from duelpy.cli.info import explain
from duelpy.cli.prompt import announce, end_of_game, read_move, saved_game, seat_agents
from duelpy.seven import (RecordError, load_record, new_game, record_of, render_text, result,
                          save_record)
from duelpy.seven.agents import SevenAgentError, lineup, with_iterations

_PLAY_HELP = """\
Type a move by its number or its name ('build lumber yard', 'stage altar', 'discard baths';
a part of the name is enough when it names one legal move). Commands:
  moves      list your legal moves
  board      show the position (your hand only)
  info NAME  what a card or a wonder board does
  quit       stop; the record is saved (also with no move played)
  help       this text"""


def _match_action(state, seat: int, line: str):
    """The legal action of ``seat`` that ``line`` names (a number from the list, the whole
    text, or a part naming one action); raises ValueError with the reason."""
    legal = state.legal_actions(seat)
    if line.isdigit():
        k = int(line)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise ValueError(f"{k} is not a move number: your moves are 1 to {len(legal)}")
    text = " ".join(line.lower().split())
    names = [core.action_to_string(a).lower() for a in legal]
    exact = [a for a, n in zip(legal, names) if n == text]
    if exact:
        return exact[0]
    words = text.split()
    hits = [a for a, n in zip(legal, names) if all(w in n for w in words)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = ", ".join(core.action_to_string(a) for a in hits[:4])
        raise ValueError(f"{line!r} names {len(hits)} moves ({shown}{', ...' * (len(hits) > 4)})"
                         f": say which")
    raise ValueError(f"{line!r} is not one of your legal moves")


def _print_moves(con, state, seat):
    legal = state.legal_actions(seat)
    who = "the Free City's" if state.players == 2 and seat == 2 else "your"
    con.print(Text(f"Choose {who} move (a number or a name):", style="bold"))
    con.print(Columns([Text(f"{k:>3}  {core.action_to_string(a)}")
                       for k, a in enumerate(legal, 1)], padding=(0, 3), column_first=True))


def _public_changes(before, after, seats, skip) -> list[str]:
    """What everyone saw a seat do in the last turn (W-INFO-1): the card it built, a stage,
    or a discard; with coins."""
    lines = []
    for i in range(seats):
        if i in skip:
            continue
        new = [c for c in after.city(i) if c not in before.city(i)]
        st0, st1 = before.board(i)[2], after.board(i)[2]
        parts = [f"built {', '.join(new)}"] if new else []
        if st1 > st0:
            parts.append(f"built stage {st1}")
        if not parts:
            parts.append("discarded a card")
        name = "Free City" if after.players == 2 and i == 2 else f"P{i + 1}"
        lines.append(f"{name}: {'; '.join(parts)} (coins {before.coins(i)} -> "
                     f"{after.coins(i)})")
    return lines


def _saved_game(path: Path, move: int | None) -> tuple[dict, int]:
    """A 7 Wonders record to continue and the moves kept (its last by default); click
    errors name a bad file or move."""
    return saved_game(path, move, load_record, RecordError)


def play_seven(players, opponent, iterations, seat, seed, record_path, overwrite, ctx,
               from_path=None, from_move=None):
    """``duel play --game seven``: you hold one seat, agents the others (``--opponent``:
    one agent for all, or one per other player; default mcts, 1,000 iterations)."""
    saved = None if from_path is None else _saved_game(from_path, from_move)
    if saved is not None:
        players, seed = saved[0]["players"], saved[0]["seed"]
    agents = seat_agents(players, seat, opponent, given(ctx, "opponent"), iterations, lineup,
                         with_iterations, SevenAgentError)
    human = seat - 1
    seed, record_path = seed_and_record(seed, record_path, overwrite, "seven-game")
    con = console()
    setup: dict = {"sides": "random", "boards": None, "remove": None}
    moves: list = []
    if saved is not None:
        rec, kept = saved
        setup = {"sides": rec["sides"], "boards": rec.get("boards"), "remove": rec.get("remove")}
        moves = [(s, a) for s, a, _ in rec["moves"][:kept]]
    state = new_game(players, seed=seed, **setup)
    for s, a in moves:
        state.apply_action(a, s)
    variant = " (Free City variant: you also play the Free City on the turns you control it)" \
        if players == 2 else ""
    announce(con, f"7 Wonders, {players} players{variant} — you are P{seat}", agents, seed,
             record_path)
    stopped = None
    k = 0
    try:
        while not state.is_terminal():
            start = state.clone()
            for s in state.pending_seats():
                if state.decider(s) != human:
                    k += 1
                    a = core.choose_action(state, s, agents[state.decider(s)],
                                           seed * 1_000_003 + k)
                    state.apply_action(a, s)
                    moves.append((s, a))
                    continue
                con.print(render_text(state, seat=human), highlight=False)
                _print_moves(con, state, s)
                what, value = read_move(
                    f"P{seat}", _PLAY_HELP,
                    lambda: con.print(render_text(state, seat=human), highlight=False),
                    lambda s=s: _print_moves(con, state, s),
                    lambda line, s=s: _match_action(state, s, line),
                    {"info": lambda name: con.print(explain("seven", name), highlight=False)})
                if what == "stop":
                    stopped = value
                else:
                    state.apply_action(value, s)
                    moves.append((s, value))
                    click.echo(f"you play: {core.action_to_string(value)}")
                if stopped:
                    break
            if stopped:
                break
            if state.phase != start.phase or state.turn != start.turn or state.age != start.age:
                for line in _public_changes(start, state, state.seats, skip={human}):
                    con.print(f"  {line}", highlight=False)
    except KeyboardInterrupt:
        stopped = "Ctrl-C"
        click.echo()
    over = state.is_terminal()
    res = result(state) if over else {"scores": [], "winners": []}
    end_of_game(con, over, render_text(state), [s["total"] for s in res["scores"][:players]],
                res["winners"], human, stopped, moves, record_path,
                lambda: save_record(record_path, record_of(players, seed, moves, state=state,
                                                           **setup)))
