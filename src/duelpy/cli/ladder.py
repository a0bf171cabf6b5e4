"""``duel ladder``: a round robin between agents, rated by a Bradley–Terry fit (Elo).

Registered in :mod:`duelpy.cli.main` with ``from duelpy.cli.ladder import ladder`` and
``main.add_command(ladder)``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from rich.console import Console

from duelpy.base.interrupt import wrapping_up
from duelpy.base.tables import Column, print_table
from duelpy.cli.common import FloatRange, IntRange
from duelpy.cli.options import cluster_options, game_options, resolve_game
from duelpy.games import get_game
from duelpy.ladder.rating import fit_ratings, head_to_head
from duelpy.ladder.report import print_ladder, strip_budget
from duelpy.ladder.run import MANIFEST, LadderError, LadderInterrupted, run_ladder
from duelpy.ladder.spec import resolve_agents


@click.command(context_settings={"help_option_names": ["-h", "--help"],
                                 "max_content_width": 100})
@click.argument("agents", nargs=-1, metavar="AGENT AGENT...")
@click.option("--games", "-n", type=IntRange(1, 10**9), default=None,
              help="Duel: games per pairing (every pair of agents); each seed is played "
                   "twice, seats swapped (with an odd N, the last seed once).  Games with "
                   "more players: games in all, the agents rotated through the seats.")
@click.option("--seconds", type=FloatRange(0, 3600, min_open=True), default=None,
              help="Time per move given to every search agent (random and greedy ignore it).")
@click.option("--iterations", type=IntRange(1, 100_000_000), default=None,
              help="Iterations per move given to every search agent, instead of --seconds.")
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=None,
              help="Base seed: every pairing plays the same seeds [0].")
@cluster_options
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None,
              help="Folder for games.parquet, ratings.csv, head_to_head.csv, ladder.md, "
                   "ladder.png and ladder.json (the ladder itself, which --resume reads); "
                   "finished games are saved as they come.")
@click.option("--anchor", default="auto", show_default=True,
              help="'auto' (random = 0 if on the ladder, else mean = 1500), 'mean', or an "
                   "agent whose rating is 0.")
@click.option("--chunk-size", type=IntRange(1, 10**7), default=None,
              help="Games per saved chunk (default: about 5 s of one core).")
@click.option("--resume", is_flag=True, help="Complete the ladder in --out, keeping its games.")
@click.option("--overwrite", is_flag=True,
              help="Replace a ladder already in --out (kept in --out/previous-ladder until "
                   "the new one has finished).")
@click.option("--no-plot", is_flag=True, help="Skip ladder.png.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, no tables on the terminal.")
@game_options
def ladder(agents, games, seconds, iterations, seed, workers, backend, address, out_dir,
           anchor, chunk_size, resume, overwrite, no_plot, quiet, game, players):
    """Play a round robin between AGENTs and print their Elo ratings (Bradley–Terry fit, 95%
    intervals), the head-to-head scores (95% Wilson intervals) and, with --out, write the games,
    the tables and a plot.

    Every pairing plays the same seeds, each seed twice with the seats swapped (an odd --games
    plays the last seed once).  With --seconds
    (or --iterations) every search agent gets the same budget per move.  Ctrl-C keeps every
    finished game in --out: --resume completes the ladder.

    With --game seven: GAMES games of 7 Wonders with --players N; seat s of game g holds
    agent (g + s) mod K, so the K agents rotate through the seats; the Elo ratings are a
    Bradley–Terry fit over every pair of seats with different agents (who finished ahead:
    VP, then coins), and a table gives each agent's game win rate and mean place.

    \b
    Examples:
      duel ladder random greedy mcts:iterations=200 --games 40 --out ladder
      duel ladder greedy mcts mcts:c=0.7 --games 200 --seconds 0.1 --out timed
      duel ladder --resume --out timed
      duel ladder --game seven --players 4 random greedy mcts:200 --games 120
    """
    ctx = click.get_current_context()
    g, n = resolve_game(ctx, game, players, "ladder")
    err = Console(stderr=True, highlight=False)
    if seconds is not None and iterations is not None:
        raise click.UsageError("give either --seconds or --iterations, not both")
    if resume and out_dir is None:
        raise click.UsageError("--resume needs the ladder's folder: --out DIR")
    manifest = None if out_dir is None else Path(out_dir) / MANIFEST
    if resume and manifest is not None and manifest.is_file():
        try:            # flags left out with --resume are the saved ladder's
            saved = json.loads(manifest.read_text())["spec"]
        except (OSError, ValueError, KeyError, TypeError):
            saved = {}  # run_ladder reports the unreadable record
        if isinstance(saved, dict) and saved.get("game", "duel") != g.name:
            if ctx.get_parameter_source("game").name == "COMMANDLINE":
                raise click.UsageError(f"{out_dir} holds a ladder of {saved.get('game')}, "
                                       f"not of {g.name}")
            g, n = get_game(saved.get("game", "duel")), saved.get("players", n)
        given = (games, seed, seconds, iterations)
        if isinstance(saved, dict) and (agents or any(x is not None for x in given)):
            # flags given with --resume must match the saved ladder: complete them from it
            saved_budget = saved.get("seconds") is not None or saved.get("iterations") is not None
            if not agents and isinstance(saved.get("agents"), list):
                agents = tuple(strip_budget(a) if saved_budget and isinstance(a, str) else a
                               for a in saved["agents"])
            games = saved.get("games") if games is None else games
            seed = saved.get("seed", 0) if seed is None else seed
            if seconds is None and iterations is None:
                seconds, iterations = saved.get("seconds"), saved.get("iterations")
    if not agents and not resume:
        raise click.UsageError("name at least 2 agents, e.g. 'duel ladder random greedy "
                               "mcts:iterations=200 --games 40'")
    if len(agents) == 1:
        raise click.UsageError(f"a ladder needs at least 2 agents, got 1 ({agents[0]})")
    if agents and games is None:
        raise click.UsageError("give the number of games per pairing: --games N"
                               if g.name == "duel" else "give the number of games: --games N")
    if agents:      # bad agents or budget are bad usage (exit 2), as for duel simulate
        try:
            resolve_agents(list(agents), seconds, iterations, game=g.name)
        except LadderError as e:
            raise click.UsageError(str(e)) from None
    try:
        result = run_ladder(list(agents) or None, games, seconds=seconds, iterations=iterations,
                            seed=0 if seed is None else seed, workers=workers, backend=backend,
                            address=address, out_dir=out_dir, resume=resume,
                            overwrite=overwrite, chunk_size=chunk_size, anchor=anchor,
                            plot=not no_plot, progress=not quiet, console=err, game=g.name,
                            players=n)
    except LadderError as e:
        raise click.ClickException(str(e)) from None
    except LadderInterrupted as e:
        with wrapping_up():             # a second Ctrl-C now: the partial table and hint first
            if not quiet and len(e.games):
                try:
                    pairs = g.comparisons(e.games)
                    names = sorted(set(pairs["p1"]) | set(pairs["p2"]))
                    ratings = fit_ratings(pairs, anchor=anchor, canonical=g.agent_name)
                    print_ladder(ratings, head_to_head(pairs, names), Console(),
                                 title=f"Rating ladder (partial: {e.done:,} of {e.total:,} "
                                       f"games)")
                except ValueError:
                    pass                # too few games to rate
            hint = f": duel ladder --resume --out {out_dir}" if out_dir is not None else ""
            err.print(f"[yellow]{e}[/]{hint}", soft_wrap=True)
        sys.exit(130 if e.reason == "Ctrl-C" else 1)
    except KeyboardInterrupt:           # e.g. while the tables are written
        with wrapping_up():
            hint = (f"; duel ladder --resume --out {out_dir} completes it"
                    if out_dir is not None else "")
            err.print(f"[yellow]interrupted[/]{hint}", soft_wrap=True)
        sys.exit(130)
    if not quiet:
        games_df, ratings = result
        con = Console()
        pairs = g.comparisons(games_df)
        print_ladder(ratings, head_to_head(pairs, list(ratings["agent"])), con)
        extra = g.ladder_table(games_df, list(ratings["agent"]))
        if extra is not None:
            title, columns = extra
            print_table(con, [Column(h, v, "left" if i == 0 else "right")
                              for i, (h, v) in enumerate(columns.items())], title=title)
            con.print("In the ratings and head to head, games and W-S-L count pairwise "
                      "comparisons (two seats of different agents in one game).",
                      highlight=False)
        if out_dir is not None:
            written = ["games.parquet", "ratings.csv", "head_to_head.csv", "ladder.md",
                       "ladder.json"]
            written += [] if no_plot else ["ladder.png"]
            n_games = games_df["game"].nunique() if "seat" in games_df else len(games_df)
            err.print(f"wrote {n_games:,} games to {out_dir}: {', '.join(written)}",
                      soft_wrap=True)


if __name__ == "__main__":
    ladder()
