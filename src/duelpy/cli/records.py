"""Game records on the command line: ``duel replay`` and ``duel show`` (any game's record:
the game is read from the file) and ``duel watch`` (agents play one game of any game,
optionally recorded).  ``duel seven watch|replay`` are the old spellings, kept for one
release."""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.text import Text

from duelpy.base.output import OutputError, check_new_file
from duelpy.base.specs import split_agents
from duelpy.cli.common import IntRange, board_width, console, one_line, plural, result_line, vp_table
from duelpy.cli.options import game_options, resolve_game
from duelpy.duel.notation import action_name
from duelpy.duel.records import (DEFAULT_OPTIONS, MAX_BYTES, RecordError, load,
                                 replay as replay_record)
from duelpy.duel.render import render, render_text
from duelpy.base.game import Game
from duelpy.games import GAMES, get_game


def game_of_record(path: Path) -> Game:
    """The game whose record ``path`` holds (Duel when the file says nothing clear: Duel's
    loader then names the problem)."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_BYTES + 1)          # /dev/zero is not read to the end
        if len(text) > MAX_BYTES:
            return get_game("duel")
        data = json.loads(text.decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return get_game("duel")
    if isinstance(data, dict):
        for g in GAMES.values():
            if g.is_record(data):
                return g
    return get_game("duel")


def _load_other(game, path: Path):
    try:
        return game.load_record(path)
    except ValueError as e:
        msg = one_line(e)
        raise click.ClickException(msg if str(path) in msg else f"{path}: {msg}") from None


def _replay_other(game, file: Path, step: bool) -> None:
    rec = _load_other(game, file)
    state = game.replay_record(rec)
    con = console()
    con.print(Text(f"{file}: {game.title}, {rec.get('players')} players, seed "
                   f"{rec.get('seed')}, {plural(len(rec['moves']), 'move')}", style="bold"))
    for k, (seat, action, text) in enumerate(rec["moves"], 1):
        con.print(f"{k:4}. P{seat + 1:<5} {text}", highlight=False)
    con.print(game.render_text(state), highlight=False)
    if state.is_terminal():
        res = game.result(state)
        con.print(Text("Result: " + ", ".join(f"P{i + 1} {v} VP" for i, v in
                                              enumerate(res["vp"]["total"]))
                       + "; winner " + ", ".join(f"P{w + 1}" for w in res["winners"]),
                       style="bold"))


def _show_other(game, file: Path, move) -> None:
    rec = _load_other(game, file)
    n = len(rec["moves"])
    move = n if move is None else move
    if not 0 <= move <= n:
        raise click.BadParameter(f"{move} is not a move of this game: it has moves 0 to {n}",
                                 param_hint="--move")
    state = game.replay_record(rec if move == n else
                               {**rec, "moves": rec["moves"][:move], "result": None})
    last = f": {rec['moves'][move - 1][2]}" if move else " (the start)"
    click.echo(f"{file}, after move {move} of {n}{last}")
    click.echo(game.render_text(state))


def _load_record(path: Path):
    """Load a record for a command; any failure is a one-line ClickException."""
    try:
        return load(path)
    except FileNotFoundError:
        raise click.ClickException(f"{path}: no such file") from None
    except IsADirectoryError:
        raise click.ClickException(f"{path}: is a folder, not a game record") from None
    except PermissionError:
        raise click.ClickException(f"{path}: permission denied") from None
    except RecordError as e:
        msg = one_line(e)
        raise click.ClickException(msg if msg.startswith(f"{path} ") else
                                   f"{path}: not a valid game record: {msg}") from None
    except OSError as e:
        raise click.ClickException(f"{path}: cannot read: {one_line(e)}") from None


# ---------------------------------------------------------------- duel replay / show
@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--step", is_flag=True,
              help="Show the board after each move and wait for Enter (q to stop).")
@click.option("--width", type=IntRange(60, 300), default=None,
              help="Board width in characters.")
def replay(file, step, width):
    """Print a recorded game move by move (checks that it replays to its result); any
    game's record (the game is read from the file).

    \b
    Examples:
      duel replay game.json
      duel replay game.json --step
    """
    game = game_of_record(file)
    if game.name != "duel":
        return _replay_other(game, file, step)
    rec = _load_record(file)
    states = replay_record(rec, states=True)
    con = console(width)
    bw = board_width(con, width)
    options = {k: v for k, v in rec.options.items() if v != DEFAULT_OPTIONS[k]}
    con.print(Text(f"{file}: seed {rec.seed}, P1 = {rec.players[0]}, P2 = "
                       f"{rec.players[1]}, {plural(len(rec.moves), 'move')}", style="bold"))
    if options:
        con.print("Rule options: " + ", ".join(f"{k}={v}" for k, v in options.items()))
    if step:
        con.print(render(states[0], width=bw))
    section = None
    for k, a in enumerate(rec.moves):
        before = states[k]
        age = before.age
        title = f"Age {'I' * age if age < 4 else age}" if age else "Wonder draft"
        if title != section:
            con.print(Text(title, style="bold underline"))
            section = title
        p = before.current_player()
        who = f"P{p + 1}" if p in (0, 1) else "chance"
        con.print(f"{k + 1:4}. {who:<6} {action_name(a)}")
        if step:
            con.print(render(states[k + 1], width=bw))
            try:
                key = click.prompt("Enter: next move, q: stop", default="",
                                   show_default=False, prompt_suffix=" ")
            except click.exceptions.Abort:
                click.echo(f"\nstopped after move {k + 1} of {len(rec.moves)}")
                return
            if key.strip().lower() in ("q", "quit"):
                click.echo(f"stopped after move {k + 1} of {len(rec.moves)}")
                return
    final = states[-1]
    if final.is_terminal():
        res = final.result()
        con.print(vp_table(res))
        con.print(Text(f"Result: {result_line(res)}", style="bold"))
    else:
        con.print(Text(f"The game is not over after {plural(len(rec.moves), 'move')}.", style="bold"))


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--move", "-k", "move", type=int, default=None,
              help="Show the position after move K (0: the start; default: the last move).")
@click.option("--width", type=IntRange(60, 300), default=None,
              help="Board width in characters.")
@click.option("--plain", is_flag=True, help="Plain text, no colours.")
def show(file, move, width, plain):
    """Draw the position of a recorded game after move K.

    \b
    Examples:
      duel show game.json --move 20
      duel show game.json            # the final position
    """
    game = game_of_record(file)
    if game.name != "duel":
        return _show_other(game, file, move)
    rec = _load_record(file)
    n = len(rec.moves)
    if move is None:
        move = n
    if not 0 <= move <= n:
        raise click.BadParameter(f"{move} is not a move of this game: it has moves 0 to {n}",
                                 param_hint="--move")
    state = replay_record(rec, upto=move)
    con = console(width)
    bw = board_width(con, width)
    last = f": {action_name(rec.moves[move - 1])}" if move else " (the start)"
    header = f"{file}, after move {move} of {n}{last}"
    if plain:
        click.echo(header)
        click.echo(render_text(state, width=bw), nl=False)
    else:
        con.print(header, style="bold")
        con.print(render(state, width=bw))


@click.command()
@click.option("--agents", "-a", default="greedy", show_default=True,
              help="One agent for every seat, or one per seat, comma-separated.")
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="The game's seed: the deal and the agents' choices.")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game record (JSON) here.")
@click.option("--overwrite", is_flag=True, help="Replace an existing --record file.")
@game_options
def watch(agents, seed, record, overwrite, game, players):
    """Agents play one game; print the final position and the scores (any game).

    \b
    Examples:
      duel watch --agents mcts:iterations=500,greedy --record game.json
      duel watch --game seven --players 4 --agents mcts:1000,greedy,greedy,greedy
    """
    ctx = click.get_current_context()
    g, n = resolve_game(ctx, game, players, "watch")
    try:
        lineup = g.lineup(split_agents(agents), n)
    except ValueError as e:
        raise click.BadParameter(one_line(e), param_hint="--agents") from None
    if record is not None:
        try:
            check_new_file(record, overwrite)
        except OutputError as e:
            raise click.BadParameter(str(e), param_hint="--record") from None
    state, rec = g.play_record(lineup, n, seed)
    click.echo(g.render_text(state))
    res = g.result(state)
    click.echo("Result: " + ", ".join(f"P{i + 1} ({a}) {v} VP" for i, (a, v) in
                                      enumerate(zip(lineup, res["vp"]["total"])))
               + "; winner " + ", ".join(f"P{w + 1}" for w in res["winners"]))
    if record is not None:
        try:
            g.save_record(rec, record)
        except OSError as e:
            raise click.ClickException(f"cannot write {record}: {e.strerror}") from None
        click.echo(f"Game record saved to {record} (duel replay {record}).")


@click.group(hidden=True, context_settings={"help_option_names": ["-h", "--help"]})
def seven():
    """The old spellings of 7 Wonders' commands: duel seven watch (now duel watch --game
    seven) and duel seven replay (now duel replay)."""


@seven.command("watch")
@click.option("--players", "-n", type=IntRange(2, 7), default=4, show_default=True)
@click.option("--agents", "-a", default="greedy", show_default=True)
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="The game's seed: the deal and the agents' choices.")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--overwrite", is_flag=True)
@click.pass_context
def seven_watch(ctx, players, agents, seed, record, overwrite):
    """Old spelling of duel watch --game seven."""
    ctx.invoke(watch, agents=agents, seed=seed, record=record, overwrite=overwrite,
               game="seven", players=players)


@seven.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def seven_replay(ctx, file):
    """Old spelling of duel replay."""
    ctx.invoke(replay, file=file, step=False, width=None)
