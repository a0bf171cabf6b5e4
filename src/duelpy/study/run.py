"""Monte Carlo balance studies of any game: many games under a control set-up and under
treatments, played on the same seeds, saved in chunks, reported with 95% intervals.

A study is described by its game's study spec (Duel: :class:`duelpy.duel.study.StudySpec`;
7 Wonders: :class:`duelpy.seven.study.SevenStudySpec`), read from a TOML file (see
:func:`load_spec`; the key ``game`` picks the game, Duel by default) or built from a dict.
:func:`run_study` validates it, plays every game of every arm (the control and each
treatment) with the one runner (:mod:`duelpy.run`), writes the per-game table chunk by chunk
(so an interrupted study keeps its finished games and can be resumed), combines the chunks,
and writes the report (and, for Duel, the plots).

Game ``i`` of every arm uses the same seed and the same seats, so the arms are paired game by
game, and the results do not depend on the backend, the number of workers or the chunking.

Output folder::

    study.json          the validated study (and the chunk size): what --resume completes
    chunks/             one Parquet file per finished chunk while the study runs
    games.parquet       the per-game table (one row per game and arm, or per game, arm and
                        seat); games.csv on request
    report.md, report.html
    plots/*.png
    previous-study/     with --overwrite: the study it replaces, until the new one finishes
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from duelpy.base.errors import StudyError, StudyInterrupted
from duelpy.duel.options import CONTROL
from duelpy.duel.study import StudySpec, Treatment
from duelpy.games import get_game, play_task
from duelpy.run.folder import GAMES_FILE, RunFolder, package_version, write_parquet
from duelpy.run.runner import check_run_options, run_spec

__all__ = ["StudySpec", "Treatment", "StudyError", "StudyInterrupted", "StudyResult",
           "load_spec", "run_study", "read_games", "CONTROL", "PREVIOUS", "MANIFEST"]

FORMAT_VERSION = 1
MANIFEST = "study.json"
#: Where --overwrite keeps the study it replaces until the new one has finished.
PREVIOUS = "previous-study"
_REPORT_FILES = ("games.csv", "report.md", "report.html", "plots")


class StudyResult(NamedTuple):
    """What :func:`run_study` returns: ``games`` (the per-game DataFrame, one row per game
    and arm) and ``report`` (the game's study report: ``write(folder)``, ``print(console)``,
    ``plots``)."""

    games: pd.DataFrame
    report: Any


def spec_from_dict(d: dict, where: str = "study"):
    """The study spec of the game named by ``d["game"]`` (Duel by default), validated."""
    if not isinstance(d, dict):
        raise StudyError(f"{where}: a study is a table of keys, not {type(d).__name__}")
    name = d.get("game", "duel")
    try:
        game = get_game(name)
    except ValueError as e:
        raise StudyError(f"{where} game: {e}") from None
    body = {k: v for k, v in d.items() if k != "game"}
    return game.study_spec(body, where)


def load_spec(source):
    """A study spec from a TOML file path, a dict, or a spec (returned as is).

    The file (Duel; ``game = "seven"`` with ``players`` and ``[agents] seats`` for 7 Wonders,
    see :mod:`duelpy.seven.study`)::

        name = "Does P2 need more coins?"
        games = 2400                 # games per arm
        seed = 1                     # base seed
        [agents]
        p1 = "mcts:iterations=200"
        p2 = "mcts:iterations=200"
        alternate = true             # swap seats every other game (default)
        [options]                    # the control's rules (all optional)
        centred_pawn = "chooses"
        [[treatment]]
        name = "P2 +2 coins"
        p2_extra_coins = 2           # or start_coins = [7, 9]
        [[treatment]]
        banned_tokens = ["Philosophy"]
        [[treatment]]
        forced_wonders = { p1 = "The Pyramids" }

    Raises
    ------
    StudyError
        A missing or unreadable file, invalid TOML (with line and column), or any invalid
        value (see the game's study spec).
    """
    if hasattr(source, "jobs") and hasattr(source, "task"):
        return source
    if isinstance(source, dict):
        return spec_from_dict(source)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            text = path.read_bytes().decode("utf-8-sig")     # a BOM is not TOML's business
        except FileNotFoundError:
            raise StudyError(f"{path}: no such study file") from None
        except (OSError, UnicodeDecodeError) as e:
            raise StudyError(f"{path}: cannot read the study file: {e}") from None
        try:
            d = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise StudyError(f"{path.name}: invalid TOML: {e}") from None
        except RecursionError:
            raise StudyError(f"{path.name}: invalid TOML: nested too deeply") from None
        return spec_from_dict(d, where=f"{path.name}:")
    raise StudyError(f"a study is a TOML file path, a dict or a study spec, "
                     f"not {type(source).__name__}")


def _manifest_spec(manifest: dict, where: str):
    try:
        return spec_from_dict({"game": manifest.get("game", "duel"), **manifest["spec"]}, where)
    except (KeyError, TypeError) as e:
        raise StudyError(f"{where}: unreadable study record ({e})") from None


def _folder(out, spec=None) -> RunFolder:
    return RunFolder(out, "study", "arm", 2, files=_REPORT_FILES, error=StudyError,
                     rows_per_game=getattr(spec, "rows_per_game", 1))


def read_games(out_dir) -> pd.DataFrame:
    """The per-game table of a finished study folder (``games.parquet``).

    Returns
    -------
    pandas.DataFrame
        One row per game and arm (Duel: treatment, game, seed, p1, p2, winner, winner_agent,
        victory, vp_<category>_p1/p2, vp_total_p1/p2, coins, wonders drafted and built,
        progress tokens, play_again_p1/p2, cards by colour, starter_age1..3, n_decisions,
        pawn, final_age), or per game, arm and seat (7 Wonders: see
        :meth:`duelpy.seven.game.Seven.rows`).

    Raises
    ------
    StudyError
        If the folder holds no finished study.
    """
    out = Path(out_dir)
    try:
        folder = _folder(out)
        spec = _manifest_spec(folder.read_manifest(), str(folder.manifest_path))
        df = pd.read_parquet(out / GAMES_FILE)
    except (OSError, ValueError, KeyError) as e:
        raise StudyError(f"{out}: no finished study here ({e.__class__.__name__}: {e})") from None
    return spec.finish_table(df)


def _inspect(folder: RunFolder, spec, resume: bool, overwrite: bool) -> tuple:
    """(spec, chunk size, manifest to write or None), nothing changed on disk."""
    if folder.has_manifest() and not overwrite:
        folder.check_new(overwrite, resume)
        manifest = folder.read_manifest()
        where = str(folder.manifest_path)
        saved = _manifest_spec(manifest, where)
        try:
            chunk = int(manifest["chunk_size"])
        except (KeyError, TypeError, ValueError) as e:
            raise StudyError(f"{where}: unreadable study record ({e})") from None
        if spec is not None and (spec.game != saved.game or spec.identity() != saved.identity()):
            a, b = spec.identity(), saved.identity()
            diff = ["game"] if spec.game != saved.game else [k for k in a if a[k] != b.get(k)]
            raise StudyError(f"{folder.path} holds a different study (it differs in: "
                             f"{', '.join(diff)}); resume it as it was, or use another folder")
        return saved, chunk, None
    if spec is None:
        raise StudyError(f"{folder.path}: no study to resume here (no {MANIFEST})")
    folder.check_new(overwrite, resume)
    chunk = spec.chunk_size or spec.default_chunk_size()
    manifest = {"format": FORMAT_VERSION, "duel_version": package_version(), "game": spec.game,
                "chunk_size": chunk, "spec": spec.to_dict()}
    return spec, chunk, manifest


def run_study(spec_or_path, out_dir, *, workers: int | None = None, backend: str = "local",
              address: str | None = None, resume: bool = False, overwrite: bool = False,
              csv: bool = False, plots: bool = True, progress: bool = False, console=None,
              executor: str = "auto", max_chunks: int | None = None) -> StudyResult:
    """Run (or resume) a study and write its data, report and plots in ``out_dir``.

    Parameters
    ----------
    spec_or_path : study spec, dict, str or Path, or None
        The study (see :func:`load_spec`).  None with ``resume=True`` resumes the study
        recorded in ``out_dir``.
    out_dir : str or Path
        Output folder (created if needed).
    workers : int, optional
        Local workers (default: every core this process may use); for ``backend="ray"``
        without an address, the CPUs of the local Ray instance.
    backend : {"local", "ray"}
        Local threads/processes (concurrent.futures) or a Ray cluster.
    address : str, optional
        Ray only: None starts a local Ray instance (or uses the one this process is connected
        to), ``"auto"`` joins a running cluster, ``"host:port"`` a given one.
    resume : bool
        Complete the study already in ``out_dir``, keeping its finished games.
    overwrite : bool
        Start again; the study already in ``out_dir`` is kept in ``previous-study/`` until
        the new one has finished.
    csv : bool
        Also write ``games.csv``.
    plots : bool
        Write the PNG plots (and link them from the report), for games that have them.
    progress : bool
        Show a rich progress bar (games done, games/s, ETA) on stderr.
    console : rich.console.Console, optional
        Where the progress bar goes.
    executor : {"auto", "threads", "processes"}
        Local backend: threads (the core's batch runner releases the GIL), processes, or
        threads exactly when every agent runs inside the core.
    max_chunks : int, optional
        Play at most this many chunks in this call, then stop as if interrupted.

    Returns
    -------
    StudyResult
        ``(games, report)``: the per-game DataFrame (see :func:`read_games`) and the report.

    Raises
    ------
    StudyError
        Before any game is played: a bad study, output folder, backend, worker count or Ray
        address, or a folder holding a different study.
    StudyInterrupted
        The study stopped early (Ctrl-C, a worker that died, ``max_chunks``); every finished
        game is kept.
    """
    spec = None if spec_or_path is None else load_spec(spec_or_path)
    how = check_run_options(backend=backend, executor=executor, workers=workers,
                            max_chunks=max_chunks, address=address, error=StudyError,
                            progress=progress, console=console)
    if spec is None and not resume:
        raise StudyError("no study given: pass a study file or options")
    out = Path(out_dir).expanduser()
    if spec is None and not (out / MANIFEST).exists():     # before creating anything
        raise StudyError(f"{out}: no study to resume here (no {MANIFEST})")
    folder = _folder(out, spec)
    created = folder.prepare()
    spec, chunk, manifest = _inspect(folder, spec, resume, overwrite)
    folder.rows_per_game = spec.rows_per_game
    jobs = spec.jobs(chunk)
    total = spec.total_games
    table = None if manifest is not None else folder.read_games(total * spec.rows_per_game)
    if table is None:
        parts, outcome, done = run_spec(spec, jobs, folder, manifest, work=play_task,
                                        overwrite=overwrite, created=created, **how)
        if outcome.interrupted:
            raise StudyInterrupted(str(outcome.reason), done + outcome.games, total, out)
        table = spec.finish_table(folder.combine(jobs))
        write_parquet(table, out / GAMES_FILE)
    df = spec.finish_table(table)
    if csv:
        tmp = out / ".games.csv.tmp"
        df.to_csv(tmp, index=False)
        os.replace(tmp, out / "games.csv")
    report = spec.report(df)
    if plots:
        report.plots = spec.write_plots(report, df, out / "plots")
    report.write(out)
    folder.finish()
    return StudyResult(df, report)
