"""``duel bench``: engine throughput and the behaviour signature of any game."""
from __future__ import annotations

import threading

import click
from rich.table import Table

from duelpy.base.interrupt import clear_core, exit_interrupted, stop_core
from duelpy.cli.common import IntRange, console
from duelpy.cli.options import game_options, given, resolve_game
from duelpy.games import GAMES


def measure(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a worker thread (the core releases the GIL, so the timing
    is the same), so that Ctrl-C stops the bench at once: the core's stop flag ends the
    loop, and the process exits with 130 whatever the loop does."""
    out: dict = {}

    def work():
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as e:      # noqa: BLE001 - raised again below
            out["error"] = e

    clear_core()
    t = threading.Thread(target=work, daemon=True, name="duel-bench")
    t.start()
    try:
        while t.is_alive():
            t.join(0.1)
    except KeyboardInterrupt:
        stop_core()
        click.echo("\nduel bench: interrupted", err=True)
        exit_interrupted()
    if "error" in out:
        raise out["error"]
    return out["value"]


def _defaults(k: int) -> str:
    """Each game's default of ``duel bench`` (0: random games, 1: MCTS iterations)."""
    return "; ".join(f"{g.name} {g.bench_defaults[k]:,}" for g in GAMES.values())


@click.command()
@click.option("--games", "-n", type=IntRange(100, 10**8), default=None,
              help="Random games to time (the signature always uses 10,000 games from a "
                   f"fixed seed) [{_defaults(0)}].")
@click.option("--iterations", type=IntRange(100, 10**8), default=None,
              help="MCTS iterations to time from the game's first decision (Duel: the "
                   f"opening of Age I) [{_defaults(1)}].")
@click.option("--jobs", "-j", type=IntRange(1, 1024), default=1, show_default=True,
              help="Also measure the throughput of this many workers (threads).")
@click.option("--repeat", type=IntRange(1, 100), default=3, show_default=True,
              help="Runs of each measurement; the median is reported.")
@game_options
def bench(games, iterations, jobs, repeat, game, players):
    """Measure the engine on one core: random games and decisions per second, MCTS
    iterations per second, the state size, and the signature of a fixed seed set.
    Ctrl-C stops at once (exit status 130).

    \b
    Example:
      duel bench --games 200000 --jobs 2
      duel bench --game seven --players 7 --games 20000
    """
    ctx = click.get_current_context()
    g, n = resolve_game(ctx, game, players, "bench")
    default_games, default_iterations = g.bench_defaults
    err = console(stderr=True)
    title, rows = g.bench(n, games if given(ctx, "games") else default_games,
                          iterations if given(ctx, "iterations") else default_iterations,
                          repeat, jobs, measure, lambda text: err.print(text, highlight=False))
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("value", justify="right")
    for measure_name, value in rows:
        table.add_row(measure_name, value)
    console().print(table)
