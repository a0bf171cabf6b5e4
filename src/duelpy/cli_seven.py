"""``duel seven ...``: the 7 Wonders commands (simulate, study, bench, play, replay).

Kept in its own module so that the Duel commands are untouched; ``duel seven --help`` lists
them.  Every user error is one line on stderr and exit status 2 (click) or 1.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

PLAYERS = click.IntRange(2, 7)


def _fail(msg: str) -> None:
    click.echo(f"error: {msg}", err=True)
    sys.exit(1)


def _agents(spec: str, players: int):
    agents = [a.strip() for a in spec.split(",") if a.strip()]
    if len(agents) == 1:
        agents = agents * players
    if len(agents) != players:
        raise click.BadParameter(f"give 1 or {players} agents, got {len(agents)}",
                                 param_hint="--agents")
    from duelpy.seven.game import AGENTS
    for a in agents:
        kind, _, arg = a.partition(":")
        if kind not in AGENTS or (arg and (kind != "mcts" or not arg.isdigit() or int(arg) < 1)):
            raise click.BadParameter(f"unknown agent {a!r} (random, greedy, mcts[:ITERATIONS])",
                                     param_hint="--agents")
    return agents


@click.group()
def seven():
    """7 Wonders (base game): 3-7 players, or 2 with the Free City variant."""


@seven.command()
@click.option("--players", "-n", type=PLAYERS, default=3, show_default=True,
              help="Players (2 = Free City variant).")
@click.option("--games", "-g", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--agents", "-a", default="random", show_default=True,
              help="One agent for all, or one per player, comma-separated: random, greedy, "
                   "mcts[:ITERATIONS].")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--sides", type=click.Choice(["random", "A", "B"]), default="random",
              show_default=True, help="Wonder sides (W-SETUP-4).")
def simulate(players, games, agents, seed, sides):
    """Play GAMES games and print win rates and mean VP per seat."""
    from duelpy.seven.study import games_frame, summarise
    frame = games_frame(players, _agents(agents, players), games, seed, sides=sides)
    click.echo(summarise(frame, ["seat"]).to_string())


@seven.command()
@click.option("--players", "-n", type=PLAYERS, default=4, show_default=True)
@click.option("--games", "-g", type=click.IntRange(1), default=2000, show_default=True)
@click.option("--agents", "-a", default="greedy", show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--sides", type=click.Choice(["random", "A", "B"]), default="random",
              show_default=True, help="Treatment: force every side.")
@click.option("--by", type=click.Choice(["board-side", "board", "side", "seat"]),
              default="board-side", show_default=True)
def study(players, games, agents, seed, sides, by):
    """Win rate (95% interval) by wonder board and side, or by seat."""
    from duelpy.seven.study import games_frame, summarise
    frame = games_frame(players, _agents(agents, players), games, seed, sides=sides)
    keys = {"board-side": ["board", "side"], "board": ["board"], "side": ["side"],
            "seat": ["seat"]}[by]
    click.echo(summarise(frame, keys).to_string())


@seven.command()
@click.option("--players", "-n", type=PLAYERS, default=3, show_default=True)
@click.option("--games", "-g", type=click.IntRange(1), default=20000, show_default=True)
@click.option("--mcts-iterations", type=click.IntRange(1), default=2000, show_default=True)
def bench(players, games, mcts_iterations):
    """Random games/s (one core) and MCTS iterations/s."""
    from duelcore import seven as core
    r = core.random_games(players, games, seed=20261130)
    click.echo(f"{players} players: {r['games'] / r['seconds']:,.0f} random games/s "
               f"({r['games']} games, {r['moves']} decisions, signature {r['signature']})")
    click.echo(f"MCTS: {core.mcts_speed(players, mcts_iterations):,.0f} iterations/s")


@seven.command()
@click.option("--players", "-n", type=PLAYERS, default=3, show_default=True)
@click.option("--agents", "-a", default="greedy", show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game record (JSON) here.")
def play(players, agents, seed, record):
    """Play one game between agents, print the final position and scores."""
    from duelpy.seven import play_game, record_of, render_text, save_record
    st, moves = play_game(players, _agents(agents, players), seed=seed)
    click.echo(render_text(st))
    if record is not None:
        try:
            save_record(record, record_of(players, seed, moves, state=st))
        except OSError as e:
            _fail(f"cannot write {record}: {e.strerror}")


@seven.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay(file):
    """Replay a game record (checked move by move) and print the final position."""
    from duelpy.seven import RecordError, load_record, render_text, replay as replay_record
    try:
        st = replay_record(load_record(file))
    except RecordError as e:
        _fail(str(e))
    click.echo(render_text(st))
