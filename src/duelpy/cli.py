"""The ``duel`` command line."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from duelpy.agents import AgentSpecError, parse_agent


class _AgentType(click.ParamType):
    name = "AGENT"

    def convert(self, value, param, ctx):
        try:
            return parse_agent(value)
        except AgentSpecError as e:
            self.fail(str(e), param, ctx)


AGENT = _AgentType()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duel")
def main():
    """duel: a fast 7 Wonders Duel simulator.

    \b
    Example:
      duel simulate --games 100000 --p1 random --p2 random
    """


def _write_table(df, out: Path):
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise click.BadParameter(f"{out}: the file must end in .parquet or .csv", param_hint="--out")
    tmp = out.with_name(out.name + ".part")
    if suffix == ".parquet":
        df.to_parquet(tmp)
    else:
        df.to_csv(tmp)
    tmp.replace(out)


@main.command()
@click.option("--games", "-n", type=click.IntRange(1, 10**9), default=10000, show_default=True,
              help="Number of games.")
@click.option("--p1", "agent_a", type=AGENT, default="random", show_default=True,
              help="Agent in P1's seat in even games: random, greedy, mcts:iterations=N,c=C ...")
@click.option("--p2", "agent_b", type=AGENT, default="random", show_default=True,
              help="The other agent.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Base seed (game i's seed is derived from it and i).")
@click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Parallel workers.")
@click.option("--alternate/--no-alternate", default=True, show_default=True,
              help="Swap seats every other game.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the per-game table (.parquet or .csv).")
def simulate(games, agent_a, agent_b, seed, jobs, alternate, out):
    """Play GAMES games between two agents and summarise the outcomes.

    \b
    Example:
      duel simulate --games 1000 --p1 mcts:iterations=200 --p2 greedy --out games.parquet
    """
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    from rich.table import Table

    from duelpy.match import play_match
    from duelpy.report import summary

    if out is not None:
        if out.suffix.lower() not in (".parquet", ".csv"):
            raise click.BadParameter(f"{out}: the file must end in .parquet or .csv",
                                     param_hint="--out")
        if not out.parent.exists():
            raise click.BadParameter(f"{out.parent}: no such folder", param_hint="--out")
    console = Console(stderr=True)
    t0 = time.perf_counter()
    with Progress(TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, transient=False) as bar:
        task = bar.add_task("games", total=games, rate="")

        def progress(k):
            bar.advance(task, k)
            done = bar.tasks[0].completed
            bar.update(task, rate=f"{done / max(time.perf_counter() - t0, 1e-9):,.0f} games/s")

        df = play_match(agent_a, agent_b, games=games, seed=seed, alternate=alternate,
                        jobs=jobs, progress=progress)
    elapsed = time.perf_counter() - t0
    table = Table(title=f"{games:,} games, {agent_a.name} vs {agent_b.name}, seed {seed} "
                        f"({elapsed:.2f} s, {games / elapsed:,.0f} games/s)")
    for col in ("outcome", "count", "rate", "95% CI"):
        table.add_column(col, justify="left" if col == "outcome" else "right")
    for label, row in summary(df).iterrows():
        is_vp = label.startswith("mean VP")
        rate = f"{row['rate']:.2f}" if is_vp else f"{100 * row['rate']:.1f}%"
        ci = (f"{row['ci_low']:.2f} – {row['ci_high']:.2f}" if is_vp else
              f"{100 * row['ci_low']:.1f} – {100 * row['ci_high']:.1f}%")
        table.add_row(label, f"{int(row['count']):,}", rate, ci)
    Console().print(table)
    if out is not None:
        _write_table(df, out)
        console.print(f"wrote {len(df):,} games to {out}")


from duelpy.cli_bench import bench  # noqa: E402

main.add_command(bench)

if __name__ == "__main__":
    sys.exit(main())
