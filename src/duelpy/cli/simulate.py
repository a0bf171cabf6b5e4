"""``duel simulate``: many games of any game between agents, streamed to a table, summarised.

The games are played in chunks by worker threads through the one runner
(:func:`duelpy.run.runner.play_chunks`); each chunk's rows go to ``--out`` in game order and
into the game's running summary, so memory does not grow with ``--games``.  Ctrl-C keeps every
finished game (they are written as they finish), prints the summary of those games and exits
with 130.
"""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pandas as pd

import click

from duelpy.base.game import ChunkTask, SetupError
from duelpy.base.interrupt import exit_interrupted, sigint_stops, wrapping_up
from duelpy.base.output import TABLE_SUFFIXES, OutputError, TableWriter, check_new_file
from duelpy.base.specs import split_agents
from duelpy.cli.common import EXIT_INTERRUPTED, IntRange, console, one_line, resume_command
from duelpy.cli.options import (agents_option, game_options, resolve_game, setup_flags,
                                setup_values)
from duelpy.games import play_task
from duelpy.run.backends import FuturesBackend
from duelpy.run.progress import Progress
from duelpy.run.folder import RunFolder
from duelpy.run.runner import Gaps, RunOutcome, play_chunks


def _jsonable(x):
    """Set-up values as JSON data (tuples become lists) for the run's manifest."""
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def _prepare(out: Path, identity: dict, size: int, overwrite: bool, resume: bool, game
             ) -> RunFolder:
    """The folder where the run saves its finished chunks, beside ``out``: a new one, or the
    interrupted run of the same command (``resume``).  click errors name what is wrong."""
    run = RunFolder(out.with_name(f".{out.name}.run"), "simulate", "chunk", 1,
                    rows_per_game=identity["players"] if game.name != "duel" else 1)
    interrupted = (f"an interrupted run of {out} is kept in {run.path}: pass --resume to "
                   f"continue it, or --overwrite to start again")
    if run.has_manifest() and not (resume or overwrite):
        raise click.BadParameter(interrupted, param_hint="--out")    # before "out exists"
    try:
        check_new_file(out, overwrite or resume, TABLE_SUFFIXES)
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint="--out") from None
    if resume or overwrite:                 # the half-written table of a killed run
        for stale in out.parent.glob(f".{out.name}.*.part"):
            stale.unlink(missing_ok=True)
    if run.has_manifest():
        if overwrite and not resume:
            shutil.rmtree(run.path, ignore_errors=True)
        elif not resume:
            raise click.BadParameter(interrupted, param_hint="--out")
        else:
            try:
                saved = run.read_manifest()["run"]
            except (ValueError, KeyError, TypeError):
                saved = None
            if saved != identity:
                diff = sorted(k for k in identity if not isinstance(saved, dict)
                              or saved.get(k) != identity[k])
                raise click.BadParameter(f"{run.path} holds another run (it differs in: "
                                         f"{', '.join(diff)}); give the same flags to resume "
                                         f"it, or --overwrite", param_hint="--resume")
            return run
    elif resume:
        raise click.BadParameter(f"no interrupted run of {out} to resume (no {run.path})",
                                 param_hint="--resume")
    run.prepare()
    run.begin({"format": 1, "chunk_size": size, "run": identity}, overwrite=False)
    return run


def _or(a, b):
    return b if a is None else a


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
@click.option("--games", "-n", type=IntRange(1, 10**12), default=10000, show_default=True,
              help="Number of games.")
@click.option("--p1", "p1", default=None, metavar="AGENT",
              help="2-player games: the agent in P1's seat in even games: random, greedy, "
                   "mcts:iterations=N,c=C ... (see duel agents) [random].")
@click.option("--p2", "p2", default=None, metavar="AGENT", help="The other agent [random].")
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Base seed (game i's seed is derived from it and i).")
@click.option("--jobs", "-j", type=IntRange(1, 1024), default=1, show_default=True,
              help="Worker threads.")
@click.option("--alternate/--no-alternate", default=True, show_default=True,
              help="Duel: swap seats every other game.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result rows (.parquet or .csv): one per game (Duel) or per game "
                   "and seat (7 Wonders), with VP by category.  Finished games are saved as "
                   "they come (in a hidden .NAME.run folder beside it until the run ends), "
                   "so Ctrl-C, a kill or a full disk lose none: --resume continues.")
@click.option("--overwrite", is_flag=True, help="Replace an existing --out file.")
@click.option("--resume", is_flag=True,
              help="Continue the interrupted run of --out (the same command and flags).")
@click.option("--quiet", "-q", is_flag=True,
              help="Print nothing but errors (no progress bar, no summary).")
@agents_option("random")
@setup_flags("simulate")
@game_options
def simulate(games, p1, p2, seed, jobs, alternate, out, overwrite, resume, quiet, agents,
             game, players, **flags):
    """Play GAMES games between agents and summarise the outcomes (95% confidence
    intervals).  Finished games are saved as they come; Ctrl-C (once or twice) keeps every
    finished game, writes them to --out, prints their summary and exits with 130, and
    --resume continues the run.

    \b
    Examples:
      duel simulate --games 1000 --p1 mcts:iterations=200 --p2 greedy --out games.parquet
      duel simulate --games 100000 --start-coins 7,9 --ban-token Law --jobs 2
      duel simulate --game seven --players 4 --agents mcts:200,greedy,greedy,greedy --games 100
    """
    ctx = click.get_current_context()
    g, n = resolve_game(ctx, game, players, "simulate", two_player_flags=("p1", "p2"))
    if resume and out is None:
        raise click.UsageError("--resume needs --out: the table of the run to continue")
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
    identity = {"game": g.name, "players": n, "agents": list(lineup), "seating": seating,
                "setup": _jsonable(setup), "seed": seed, "games": games}
    run = None if out is None else _prepare(out, identity, size, overwrite, resume, g)
    acc = g.new_summary(lineup, n, seed, seating, setup)
    saved = [] if run is None else run.ranges()
    done = sum(b - a for a, b in saved)
    # the rows go to --out as they finish (in game order, so a stop writes nothing more),
    # and to the run folder, from which --resume rebuilds the table after a crash
    writer = None if out is None else TableWriter(out, overwrite=True)
    for a, b in saved:
        part = pd.read_parquet(run.chunk_path(0, a, b))
        writer.write(part)
        if not quiet:
            acc.add(part)

    def save(job, raw) -> int:
        lo, hi = job[-2], job[-1]
        df = g.rows(replace(template, lo=lo, hi=hi), raw)
        k = len(raw["winner"] if "winner" in raw else raw["winners"])
        if k:
            if writer is not None:
                run.write_chunk(_or(writer.write(df), df), 0, lo, lo + k)
            acc.add(df)
        return k

    backend = FuturesBackend(play_task, jobs, processes=False)
    bar = Progress(games, enabled=not quiet, console=console(stderr=True), done=done)
    todo = Gaps(games, size, saved, key=(0,))
    failure = None
    try:
        with sigint_stops(hard_after=3) as stop, bar:
            if todo:
                bar.say(f"playing {games - done:,} games on {jobs} worker{'s' * (jobs > 1)}: "
                        f"Ctrl-C stops and keeps every finished game")
            outcome = play_chunks(backend, todo, save, stop=stop.event, ordered=True,
                                  on_progress=bar.advance, say=bar.say, hurry=stop.hurry,
                                  task=lambda job: replace(template, lo=job[-2], hi=job[-1]))
            if outcome.interrupted:
                bar.say(f"[yellow]interrupted: {bar.done:,} of {games:,} games finished and "
                        f"kept")
    except (OSError, ValueError) as e:          # rows could not be written (disk full...)
        failure = e
        outcome = RunOutcome(reason=f"cannot write: {one_line(e)}")
    finally:
        with wrapping_up():
            backend.close()
    # a second Ctrl-C may come now: the rows kept, the summary and the --resume line first
    with wrapping_up():
        failure = failure or outcome.error
        written = 0
        if writer is not None:
            try:
                written = writer.close() if failure is None else 0
            except (OSError, ValueError) as e:
                failure = e
            if failure is not None:
                writer.abort()
            elif not outcome.interrupted:
                shutil.rmtree(run.path, ignore_errors=True)
        if not quiet and bar.done:
            acc.print(console(), bar.done, games, f"{bar.t_last - bar.t0:.2f} s, {bar.rate()}")
        if failure is not None:
            kept = f"; every finished game is kept in {run.path}: --resume continues" \
                if run is not None else ""
            raise click.ClickException(f"cannot write {out}: {one_line(failure)}{kept}")
        if not quiet and run is not None:
            what = "games" if g.name == "duel" else "rows (one per game and seat)"
            msg = (f"wrote {written:,} {what} to {out}" if written else
                   f"no game finished: {out} not written")
            if outcome.interrupted:
                again = resume_command(f"duel simulate (the same flags) --out {out} --resume")
                msg += f"; {again} continues the run"
            console(stderr=True).print(msg, highlight=False, soft_wrap=True)   # a command: unbroken
        if outcome.interrupted:
            exit_interrupted(EXIT_INTERRUPTED)
