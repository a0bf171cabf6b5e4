"""``duel simulate``: many games between two agents, streamed to a table, summarised.

Registered in :mod:`duelpy.cli.main`.  The games are played in chunks by worker threads
(:class:`duelpy.duel.match.MatchRun`); each chunk's rows go straight to ``--out`` and into a
running summary, so memory does not grow with ``--games``.  Ctrl-C keeps every finished
game, prints the summary of those games and exits with 130.
"""
from __future__ import annotations

import importlib
import threading
from pathlib import Path

import click

from duelpy.cli.common import (AGENT, EXIT_INTERRUPTED, console, one_line,
                               options_from_flags, rule_options)
from duelpy.cli.seven import (agents_option, check_game, game_options, setup_options,
                              simulate_seven)


class _Bar:
    """The progress bar on stderr: games done, games/s (the rate the summary prints), the
    decisions of games under way when games are long, elapsed time and ETA."""

    def __init__(self, total: int, enabled: bool):
        self.bar = None
        if not enabled:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        self.bar = Progress(TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"),
                            TextColumn("{task.fields[live]}"), TimeElapsedColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(),
                            console=console(stderr=True), transient=False)
        self.task = self.bar.add_task("games", total=total, rate="", live="")

    def __enter__(self):
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()

    def update(self, st) -> None:
        if self.bar is None:
            return
        live = (f"{st.in_play} under way, {st.decisions:,} decisions" if st.in_play else "")
        self.bar.update(self.task, completed=st.games, rate=_rate(st), live=live)

    def say(self, text: str) -> None:
        if self.bar is not None:
            self.bar.console.print(text, highlight=False)


def _rate(st) -> str:
    """Games per second as both the bar and the summary show it."""
    r = st.rate
    return f"{r:,.0f} games/s" if r >= 100 else f"{r:,.2f} games/s"


def _summary_tables(con, acc, header: list[str]) -> None:
    from duelpy.base.tables import Column, print_table
    for line in header:
        con.print(line, highlight=False)
    t = acc.table()
    rates = t[t["rate"].notna()]
    print_table(con, [
        Column("outcome", list(rates.index), "left"),
        Column("games", [f"{int(c):,}" for c in rates["count"]]),
        Column("rate", [f"{100 * r:.1f}%" for r in rates["rate"]]),
        Column("95% CI", [f"{100 * a:.1f} – {100 * b:.1f}%"
                          for a, b in zip(rates["ci_low"], rates["ci_high"])])])
    vp = t[t["mean"].notna()]
    if len(vp):
        print_table(con, [
            Column("final VP", [f"P{k + 1}" for k in range(len(vp))], "left"),
            Column("mean", [f"{m:.2f}" for m in vp["mean"]]),
            Column("95% CI", [f"{a:.2f} – {b:.2f}" for a, b in zip(vp["ci_low"], vp["ci_high"])]),
            Column("sd", ["" if s != s else f"{s:.2f}" for s in vp["sd"]])])


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--games", "-n", type=click.IntRange(1, 10**12), default=10000, show_default=True,
              help="Number of games.")
@click.option("--p1", "agent_a", type=AGENT, default="random", show_default=True,
              help="Agent in P1's seat in even games: random, greedy, mcts:iterations=N,c=C "
                   "... (see duel agents).")
@click.option("--p2", "agent_b", type=AGENT, default="random", show_default=True,
              help="The other agent.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Base seed (game i's seed is derived from it and i).")
@click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Worker threads.")
@click.option("--alternate/--no-alternate", default=True, show_default=True,
              help="Swap seats every other game.")
@rule_options
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write one row per game (.parquet or .csv), as the games finish.")
@click.option("--overwrite", is_flag=True, help="Replace an existing --out file.")
@click.option("--quiet", "-q", is_flag=True,
              help="Print nothing but errors (no progress bar, no summary).")
@game_options
@agents_option("random")
@setup_options
def simulate(games, agent_a, agent_b, seed, jobs, alternate, centred_pawn, start_coins,
             first_game_wonders, ban_tokens, force_wonders, out, overwrite, quiet, game,
             players, seven_agents, sides, remove):
    """Play GAMES games between two agents and summarise the outcomes (95% confidence
    intervals).  Rows are written to --out as the games finish; Ctrl-C keeps every finished
    game, prints their summary and exits with 130.

    With --game seven: GAMES games of 7 Wonders between --agents (--players N), with win
    rates by seat and agent; --out gets one row per game and seat.

    \b
    Examples:
      duel simulate --games 1000 --p1 mcts:iterations=200 --p2 greedy --out games.parquet
      duel simulate --games 100000 --start-coins 7,9 --ban-token Law --jobs 2
      duel simulate --game seven --players 4 --agents mcts:200,greedy,greedy,greedy --games 100
    """
    n = check_game(click.get_current_context(), game, players,
                   seven_only=("seven_agents", "sides", "remove"),
                   duel_only=("agent_a", "agent_b", "alternate", "centred_pawn", "start_coins",
                              "first_game_wonders", "ban_tokens", "force_wonders"))
    if n is not None:
        return simulate_seven(n, seven_agents, games, seed, jobs, sides, remove, out,
                              overwrite, quiet)
    from duelpy.base.interrupt import exit_interrupted, sigint_stops
    from duelpy.duel.match import MatchRun
    from duelpy.base.output import OutputError, TableWriter
    from duelpy.duel.summary import Summary

    options = options_from_flags(centred_pawn, start_coins, first_game_wonders, ban_tokens,
                                 force_wonders)
    try:
        run = MatchRun(agent_a, agent_b, games, seed, alternate=alternate, jobs=jobs,
                       **options)
    except ValueError as e:
        raise click.UsageError(one_line(e)) from None
    writer = None
    if out is not None:
        try:
            writer = TableWriter(out, overwrite=overwrite)
        except OutputError as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
    acc = Summary()

    def on_chunk(lo, hi, raw):
        if writer is not None:
            writer.write(run.table(lo, hi, raw))
        acc.add_raw(raw, *run.names(lo, hi))

    if not quiet:          # the summary's intervals need scipy: import it while games run
        threading.Thread(target=importlib.import_module, args=("scipy.special",),
                         daemon=True).start()
    bar = _Bar(games, enabled=not quiet)
    try:
        with sigint_stops() as stop, bar:
            if not quiet:
                bar.say(f"playing {games:,} games on {jobs} worker{'s' * (jobs > 1)}: Ctrl-C "
                        f"stops and keeps every finished game")
            st = run.run(on_chunk, bar.update, stop=stop.event)
            if st.interrupted:
                bar.say(f"[yellow]interrupted: {st.games:,} of {games:,} games finished and "
                        f"kept")
    except (OSError, ValueError, ImportError) as e:
        if writer is not None:
            writer.abort()
        raise click.ClickException(f"cannot write {out}: {one_line(e)}") from None
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    written = 0
    if writer is not None:
        try:
            written = writer.close()
        except (OSError, ValueError) as e:
            writer.abort()
            raise click.ClickException(f"cannot write {out}: {one_line(e)}") from None
    if not quiet and st.games:
        title = (f"{st.games:,} games" + (f" of {games:,} (interrupted)" if st.interrupted
                                          else ""))
        rules = _rules_text(options)
        header = [f"{title}: {agent_a.name} vs {agent_b.name}",
                  f"seed {seed}, seats {'alternating' if alternate else 'fixed'}",
                  *([f"rules: {rules}"] if rules else []),
                  f"{st.seconds:.2f} s, {_rate(st)}"]
        _summary_tables(console(), acc, header)
    if not quiet and writer is not None:
        msg = (f"wrote {written:,} games to {out}" if written else
               f"no game finished: {out} not written")
        console(stderr=True).print(msg, highlight=False)
    if st.interrupted:
        exit_interrupted(EXIT_INTERRUPTED)


_DEFAULT_RULES = {"centred_pawn": "chooses", "first_game_wonders": False, "start_coins": [7, 7]}


def _rules_text(options: dict) -> str:
    """The rule options that differ from the rulebook's, in words ('' if none)."""
    from duelpy.study.run import describe_options
    changed = {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}
    changed = {k: v for k, v in changed.items() if _DEFAULT_RULES.get(k, None) != v}
    return describe_options(changed) if changed else ""

