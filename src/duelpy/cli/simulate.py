"""``duel simulate``: many games of any game between agents, streamed to a table, summarised.

The games are played in chunks by worker threads through the one runner
(:func:`duelpy.run.runner.play_chunks`); each chunk's rows go to ``--out`` in game order and
into the game's running summary, so memory does not grow with ``--games``.  Ctrl-C keeps every
finished game (they are written as they finish), prints the summary of those games and exits
with 130.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from duelpy.base.game import ChunkTask, SetupError
from duelpy.base.interrupt import exit_interrupted, sigint_stops
from duelpy.base.output import OutputError, TableWriter
from duelpy.base.specs import split_agents
from duelpy.cli.common import EXIT_INTERRUPTED, console, one_line
from duelpy.cli.options import (agents_option, game_options, resolve_game, setup_flags,
                                setup_values)
from duelpy.games import play_task
from duelpy.run.backends import FuturesBackend
from duelpy.run.progress import Progress
from duelpy.run.runner import Chunks, play_chunks


def lineup_from_flags(game, players: int, agents, p1, p2, default: str = "random"
                      ) -> list[str]:
    """One canonical agent per seat from ``--agents`` (or ``--p1`` / ``--p2``);
    click.BadParameter naming the flag otherwise."""
    if agents is not None and (p1 is not None or p2 is not None):
        raise click.UsageError("give the agents either with --agents or with --p1 and --p2")
    if agents is not None:
        texts, hint = split_agents(agents), "--agents"
    elif p1 is not None or p2 is not None:
        texts, hint = [p1 or default, p2 or default], "--p1" if p1 is not None else "--p2"
    else:
        texts, hint = [default], "--agents"
    try:
        return game.lineup(texts, players)
    except ValueError as e:
        if hint != "--agents" and p1 is not None and p2 is not None:
            try:
                game.lineup([p1], players)
            except ValueError:
                hint = "--p1"
            else:
                hint = "--p2"
        raise click.BadParameter(one_line(e), param_hint=hint) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--games", "-n", type=click.IntRange(1, 10**12), default=10000, show_default=True,
              help="Number of games.")
@click.option("--p1", "p1", default=None, metavar="AGENT",
              help="2-player games: the agent in P1's seat in even games: random, greedy, "
                   "mcts:iterations=N,c=C ... (see duel agents) [random].")
@click.option("--p2", "p2", default=None, metavar="AGENT", help="The other agent [random].")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Base seed (game i's seed is derived from it and i).")
@click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Worker threads.")
@click.option("--alternate/--no-alternate", default=True, show_default=True,
              help="Duel: swap seats every other game.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result rows (.parquet or .csv) as the games finish: one per "
                   "game (Duel) or per game and seat (7 Wonders), with VP by category.")
@click.option("--overwrite", is_flag=True, help="Replace an existing --out file.")
@click.option("--quiet", "-q", is_flag=True,
              help="Print nothing but errors (no progress bar, no summary).")
@agents_option("random")
@setup_flags("simulate")
@game_options
def simulate(games, p1, p2, seed, jobs, alternate, out, overwrite, quiet, agents, game,
             players, **flags):
    """Play GAMES games between agents and summarise the outcomes (95% confidence
    intervals).  Rows are written to --out as the games finish; Ctrl-C keeps every finished
    game, prints their summary and exits with 130.

    \b
    Examples:
      duel simulate --games 1000 --p1 mcts:iterations=200 --p2 greedy --out games.parquet
      duel simulate --games 100000 --start-coins 7,9 --ban-token Law --jobs 2
      duel simulate --game seven --players 4 --agents mcts:200,greedy,greedy,greedy --games 100
    """
    ctx = click.get_current_context()
    g, n = resolve_game(ctx, game, players, "simulate", two_player_flags=("p1", "p2"))
    if g.name != "duel" and ctx.get_parameter_source("alternate").name == "COMMANDLINE":
        raise click.UsageError(f"--alternate does not apply to --game {g.name} ({g.title})")
    lineup = lineup_from_flags(g, n, agents, p1, p2)
    try:
        setup = g.setup_from_flags("simulate", setup_values(ctx, g, "simulate"), n)
    except SetupError as e:
        raise click.BadParameter(one_line(e), param_hint=e.flag) from None
    seating = "alternate" if (g.name == "duel" and alternate) else "fixed"
    size, moves = g.simulate_plan(lineup, n)
    template = ChunkTask(g.name, n, tuple(lineup), seating, setup, seed, 0, 0, moves)
    writer = None
    if out is not None:
        try:
            writer = TableWriter(out, overwrite=overwrite)
        except OutputError as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
    acc = g.new_summary(lineup, n, seed, seating, setup)
    rows_written = [0]

    def save(job, raw) -> int:
        lo, hi = job
        task = replace(template, lo=lo, hi=hi)
        df = g.rows(task, raw)
        if len(df):
            if writer is not None:
                writer.write(df)
            acc.add(df)
            rows_written[0] += len(df)
        return len(raw["winner"] if "winner" in raw else raw["winners"])

    backend = FuturesBackend(play_task, jobs, processes=False)
    bar = Progress(games, enabled=not quiet, console=console(stderr=True))
    try:
        with sigint_stops() as stop, bar:
            bar.say(f"playing {games:,} games on {jobs} worker{'s' * (jobs > 1)}: Ctrl-C "
                    f"stops and keeps every finished game")
            outcome = play_chunks(backend, Chunks(games, size), save, stop=stop.event,
                                  ordered=True, on_progress=bar.advance, say=bar.say,
                                  task=lambda job: replace(template, lo=job[0], hi=job[1]))
            if outcome.interrupted:
                bar.say(f"[yellow]interrupted: {bar.done:,} of {games:,} games finished and "
                        f"kept")
    except (OSError, ValueError, ImportError) as e:
        if writer is not None:
            writer.abort()
        raise click.ClickException(f"cannot write {out}: {one_line(e)}") from None
    except BaseException:
        if writer is not None:          # keep every finished game, even now
            try:
                writer.close()
            except (OSError, ValueError):
                writer.abort()
        raise
    finally:
        backend.close()
    written = 0
    if writer is not None:
        try:
            written = writer.close()
        except (OSError, ValueError) as e:
            writer.abort()
            raise click.ClickException(f"cannot write {out}: {one_line(e)}") from None
    if not quiet and bar.done:
        acc.print(console(), bar.done, games, f"{bar.t_last - bar.t0:.2f} s, {bar.rate()}")
    if not quiet and writer is not None:
        what = "games" if g.name == "duel" else "rows (one per game and seat)"
        msg = (f"wrote {written:,} {what} to {out}" if written else
               f"no game finished: {out} not written")
        console(stderr=True).print(msg, highlight=False)
    if outcome.interrupted:
        exit_interrupted(EXIT_INTERRUPTED)
