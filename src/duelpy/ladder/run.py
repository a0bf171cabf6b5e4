"""A rating ladder of any game: agents play each other, rated by a Bradley–Terry fit (Elo).

How the games are laid out is in :mod:`duelpy.ladder.spec` (Duel: a round robin of pairings,
each seed played twice with the seats swapped; 7 Wonders: the agents rotated through the
seats).  With a budget (``seconds`` or ``iterations``) every search agent gets the same budget
per decision; agents that search nothing (``random``, ``greedy``) ignore it.

The games are played by the one runner (:mod:`duelpy.run`) in chunks on local threads or
processes or on Ray; each finished chunk is written atomically as Parquet, so an interrupted
ladder keeps its finished games and ``resume=True`` plays only what is missing.  The games do
not depend on the backend, the number of workers or the chunk size.

Ratings (:func:`duelpy.ladder.rating.fit_ratings`) are the maximum-likelihood Bradley–Terry
strengths on the Elo scale, P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400)); a shared
result counts half a win to each side, and every pair of agents gets one virtual shared game
(a weak prior that keeps a rating finite when one agent wins every game).  The 95% intervals
are Wald intervals from the observed Fisher information of that fit.  The scale is anchored
at ``random = 0`` when ``random`` is on the ladder, otherwise at a mean of 1500.

Output folder::

    ladder.json         the validated ladder (and the chunk sizes): what resume completes
    chunks/             one Parquet file per finished chunk while the ladder runs
    games.parquet       one row per game (7 Wonders: per game and seat)
    ratings.csv         the ratings (see fit_ratings)
    head_to_head.csv    every agent's score against every other (see head_to_head)
    ladder.md           both tables in Markdown
    ladder.png          ratings with their intervals and the head-to-head matrix
    previous-ladder/    with --overwrite: the ladder it replaces, until the new one finishes
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pandas as pd

from duelpy.base.errors import LadderError, LadderInterrupted
from duelpy.games import get_game, play_task
from duelpy.ladder.rating import anchor_index, fit_ratings, head_to_head, head_to_head_matrix
from duelpy.ladder.report import (H2H_FILE, PLOT_FILE, RATINGS_FILE, TABLE_FILE, write_plot,
                                  write_tables)
from duelpy.ladder.spec import LadderSpec, resolve_agents
from duelpy.run.folder import GAMES_FILE, RunFolder, package_version, write_parquet
from duelpy.run.runner import check_run_options, run_spec

__all__ = ["LadderError", "LadderInterrupted", "LadderResult", "LadderSpec", "run_ladder",
           "fit_ratings", "head_to_head", "head_to_head_matrix", "read_ladder", "write_plot",
           "resolve_agents", "MANIFEST"]

FORMAT_VERSION = 1
MANIFEST = "ladder.json"


class LadderResult(NamedTuple):
    """What :func:`run_ladder` returns: ``games`` (one row per game, or per game and seat)
    and ``ratings`` (see :func:`duelpy.ladder.rating.fit_ratings`)."""

    games: pd.DataFrame
    ratings: pd.DataFrame


def _folder(out, spec: LadderSpec | None = None) -> RunFolder:
    return RunFolder(out, "ladder", "pair", 3,
                     files=(RATINGS_FILE, H2H_FILE, TABLE_FILE, PLOT_FILE), error=LadderError,
                     rows_per_game=1 if spec is None else spec.rows_per_game)


def _read_manifest(folder: RunFolder) -> tuple[LadderSpec, list[int]]:
    m = folder.read_manifest()
    try:
        return LadderSpec.from_dict(m["spec"]), [int(c) for c in m["chunk_sizes"]]
    except (KeyError, TypeError, ValueError) as e:
        raise LadderError(f"{folder.manifest_path}: unreadable ladder record "
                          f"({e.__class__.__name__}: {e})") from None


def _inspect(folder: RunFolder, spec, resume: bool, overwrite: bool, chunk_size):
    """(spec, chunk sizes, manifest to write or None); nothing is changed on disk."""
    if folder.has_manifest() and not overwrite:
        folder.check_new(overwrite, resume)
        saved, chunks = _read_manifest(folder)
        if spec is not None and spec.to_dict() != saved.to_dict():
            a, b = spec.to_dict(), saved.to_dict()
            diff = [k for k in a if a[k] != b.get(k)]
            raise LadderError(f"{folder.path} holds a different ladder (it differs in: "
                              f"{', '.join(diff)}); resume it as it was, or use another "
                              f"folder")
        return saved, chunks, None
    if spec is None:
        raise LadderError(f"{folder.path}: no ladder to resume here (no {MANIFEST})")
    folder.check_new(overwrite, resume)
    chunks = [chunk_size] * len(spec.pairings) if chunk_size else spec.default_chunk_sizes()
    manifest = {"format": FORMAT_VERSION, "duel_version": package_version(),
                "chunk_sizes": chunks, "spec": spec.to_dict(), "names": list(spec.names)}
    return spec, chunks, manifest


def ladder_attrs(spec: LadderSpec) -> dict:
    """What the ratings' ``attrs`` say about the ladder (shown in the table headers)."""
    return {"games_per_pairing": spec.games, "seed": spec.seed, "budget": spec.budget,
            "unbudgeted": [n for n, b in zip(spec.names, spec.budgeted) if not b]
            if (spec.seconds or spec.iterations) else [],
            "game": spec.game, "players": spec.players, "title": get_game(spec.game).title}


def rate(spec: LadderSpec, games: pd.DataFrame, anchor: str = "auto") -> pd.DataFrame:
    """The ratings of a ladder's games (fitted to the game's pairwise comparisons)."""
    g = get_game(spec.game)
    ratings = fit_ratings(spec.comparisons(games), anchor=anchor, agents=list(spec.names),
                          canonical=g.agent_name)
    ratings.attrs.update(ladder_attrs(spec))
    if spec.game != "duel":
        ratings.attrs["method"] = g.ladder_method
    return ratings


def run_ladder(agents=None, games: int | None = None, *, seconds: float | None = None,
               iterations: int | None = None, seed: int = 0, workers: int | None = None,
               backend: str = "local", address: str | None = None, out_dir=None,
               resume: bool = False, overwrite: bool = False, chunk_size: int | None = None,
               anchor: str = "auto", plot: bool = True, progress: bool = False,
               console=None, executor: str = "auto", max_chunks: int | None = None,
               game: str = "duel", players: int | None = None) -> LadderResult:
    """Play a ladder between ``agents`` and rate them (Bradley–Terry, Elo scale).

    Parameters
    ----------
    agents : list of str
        Agent descriptions (``"random"``, ``"greedy"``, ``"mcts:iterations=200"``), at least
        2, no two with the same name.  None with ``resume=True``: the ladder in ``out_dir``.
    games : int
        Duel: games per pairing (>= 1; every pairing plays the same seeds, each twice with
        the seats swapped).  7 Wonders: games in all (the agents rotate through the seats).
    seconds : float, optional
        Time per decision (seconds, 0 < s <= 3600) given to every search agent.
    iterations : int, optional
        Iterations per decision given to every search agent (instead of ``seconds``).
    seed : int
        Base seed (0 .. 2**64 - 1).
    workers : int, optional
        Local workers (default: every core this process may use); for ``backend="ray"``
        without an address, the CPUs of the local Ray instance.
    backend : {"local", "ray"}
        Local threads/processes or a Ray cluster (as ``duel study``).
    address : str, optional
        Ray only: None starts a local instance, ``"auto"`` joins the running cluster,
        ``"host:port"`` a given one.
    out_dir : str or Path, optional
        Where to write the games, the tables and the plot (see the module docstring); without
        it nothing is written and an interrupted ladder cannot be resumed.
    resume, overwrite : bool
        Complete the ladder already in ``out_dir`` / start again (the old ladder is kept in
        ``previous-ladder/`` until the new one has finished).
    chunk_size : int, optional
        Games per chunk (the unit of work and of saving); default about 5 s of one core.
    anchor : str
        ``"auto"`` (``random`` = 0 if on the ladder, else the mean = 1500), ``"mean"`` or
        an agent's name or description (that agent = 0).
    plot : bool
        Write ``ladder.png`` (with ``out_dir``).
    progress : bool
        Show a progress bar on stderr (``console``: a rich Console for it).
    executor : {"auto", "threads", "processes"}
        Local backend: threads when every agent runs in the core (default), or processes.
    max_chunks : int, optional
        Play at most this many chunks, then stop as if interrupted.
    game : str
        The game ("duel" or "seven").
    players : int, optional
        Players per game (7 Wonders: 2..7, default 4).

    Returns
    -------
    LadderResult
        ``(games, ratings)``.  Duel's ``games``: one row per game, sorted by pairing and
        game, with ``pairing``, ``agent_a``, ``agent_b`` (``agent_a`` sits in P1's seat in
        even games), ``game`` and the columns of :func:`duelpy.duel.match.play_match`.
        7 Wonders': one row per game and seat (:func:`duelpy.seven.batch.chunk_rows`).

    Raises
    ------
    LadderError
        Before any game: bad agents, games, budget, seed, workers, backend, anchor, output
        folder or Ray address; a folder holding another ladder.
    LadderInterrupted
        The ladder stopped early (Ctrl-C, a worker that died, ``max_chunks``); finished games
        are kept on disk (with ``out_dir``) and in the exception's ``games``.
    """
    how = check_run_options(backend=backend, executor=executor, workers=workers,
                            max_chunks=max_chunks, address=address, error=LadderError,
                            progress=progress, console=console)
    if chunk_size is not None and (isinstance(chunk_size, bool) or
                                   not isinstance(chunk_size, int) or chunk_size < 1):
        raise LadderError(f"chunk_size must be a positive integer, not {chunk_size!r}")
    if resume and out_dir is None:
        raise LadderError("resume needs the output folder of the ladder (--out)")
    spec = None
    if agents is not None or not resume:
        if games is None:
            raise LadderError("give the number of games per pairing (--games)")
        spec = LadderSpec.build(agents, games, seed, seconds, iterations, game, players)
        anchor_index(anchor, spec.names, get_game(spec.game).agent_name)
    folder = None
    created = False
    if out_dir is not None:
        folder = _folder(out_dir, spec)
        if spec is None and not folder.has_manifest():
            raise LadderError(f"{folder.path}: no ladder to resume here (no {MANIFEST})")
        created = folder.prepare()
        try:
            spec, chunks, manifest = _inspect(folder, spec, resume, overwrite, chunk_size)
        except LadderError:
            folder.remove_if_created(created)
            raise
        folder.rows_per_game = spec.rows_per_game
        anchor_index(anchor, spec.names, get_game(spec.game).agent_name)
    else:
        assert spec is not None                 # no folder: the agents were given
        chunks = [chunk_size] * len(spec.pairings) if chunk_size else spec.default_chunk_sizes()
        manifest = None
    jobs = spec.jobs(chunks)
    table = None
    if folder is not None and manifest is None:
        table = folder.read_games(spec.total_games * spec.rows_per_game)
    if table is None:
        parts, outcome, done = run_spec(spec, jobs, folder, manifest, work=play_task,
                                        overwrite=overwrite, created=created, **how)
        if outcome.interrupted:
            if folder is not None:
                saved = folder.saved(jobs)
                kept = [pd.read_parquet(folder.chunk_path(j[0], a, b))
                        for j in jobs for a, b in sorted(saved.get(j, ()))]
            else:
                kept = list(parts.values())
            games_df = spec.finish_table(pd.concat(kept, ignore_index=True)) if kept \
                else pd.DataFrame()
            raise LadderInterrupted(str(outcome.reason), done + outcome.games, spec.total_games,
                                    None if folder is None else folder.path, games_df)
        if folder is not None:
            table = spec.finish_table(folder.combine(jobs, what="pairing"))
            write_parquet(table, folder.path / GAMES_FILE)
        else:
            table = pd.concat([parts[p] for p in sorted(parts)], ignore_index=True)
    games_df = spec.finish_table(table)
    ratings = rate(spec, games_df, anchor)
    if folder is not None:
        write_tables(spec.comparisons(games_df), ratings, folder.path, spec, plot=plot,
                     extra=get_game(spec.game).ladder_table(games_df, list(spec.names)))
        folder.finish()
    return LadderResult(games_df, ratings)


def read_ladder(out_dir, anchor: str = "auto") -> LadderResult:
    """The games and ratings of a finished ladder folder.

    Raises
    ------
    LadderError
        If the folder holds no finished ladder.
    """
    folder = _folder(out_dir)
    spec, _ = _read_manifest(folder)
    try:
        df = pd.read_parquet(Path(out_dir) / GAMES_FILE)
    except (OSError, ValueError) as e:
        raise LadderError(f"{out_dir}: no finished ladder here ({e.__class__.__name__}: {e})") \
            from None
    games_df = spec.finish_table(df)
    return LadderResult(games_df, rate(spec, games_df, anchor))
