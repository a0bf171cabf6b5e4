"""An output folder that a run fills chunk by chunk: safe to interrupt, resume or replace.

Layout (``duel study`` and ``duel ladder`` of every game)::

    <manifest>.json     what was asked for (validated) and the chunk sizes: what resume completes
    chunks/             one Parquet file per finished chunk (or the finished start of a chunk)
    games.parquet       every game, once the run is complete (the chunks are then removed)
    ...                 the reports the command writes
    previous-<kind>/    with --overwrite: the run it replaces, removed when the new one ends

A chunk file is written under a hidden name and renamed, so a file in ``chunks/`` is always
whole; a ``kill -9`` leaves at most a hidden partial file, removed on resume.

``--overwrite`` means the same everywhere: the old run is moved aside into
``previous-<kind>/`` and deleted only when the new run has finished (an interrupted new run
leaves the old results there).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pandas as pd

from duelpy.base.records import json_problem

__all__ = ["RunFolder", "write_parquet", "package_version"]

CHUNKS = "chunks"
GAMES_FILE = "games.parquet"
#: The kinds of run folder: each names its manifest ``<kind>.json``.
RUN_KINDS = ("study", "ladder")


def package_version() -> str:
    """The installed version of ``duel`` ("source" when running from a source tree)."""
    try:
        return version("duel")
    except PackageNotFoundError:
        return "source"


def write_parquet(df, path: Path) -> None:
    """Write ``df`` (a DataFrame, no index, or an Arrow table) to ``path`` atomically: a
    hidden file renamed onto it."""
    tmp = path.with_name("." + path.name + ".tmp")
    if isinstance(df, pd.DataFrame):
        df.to_parquet(tmp, index=False)
    else:
        import pyarrow.parquet as pq            # heavy: imported when first needed
        pq.write_table(df, tmp)
    os.replace(tmp, path)


def _rows(path: Path) -> int:
    """The rows of a Parquet file (its footer); an unreadable file raises."""
    import pyarrow.parquet as pq                # heavy: imported when first needed
    return pq.read_metadata(path).num_rows


class RunFolder:
    """The output folder of a chunked run.

    Parameters
    ----------
    path : str or Path
        The folder.
    kind : str
        "study" or "ladder": names the manifest (``<kind>.json``) and ``previous-<kind>``.
    prefix, width : str, int
        Chunk files are ``<prefix><key:0width>-<lo:010>-<hi:010>.parquet`` (``key``: the arm
        or the pairing).
    files : tuple of str
        Everything the run writes in the folder (moved aside by ``--overwrite``).
    error : type
        The exception raised for an unusable folder (one line naming it).
    rows_per_game : int
        Rows a game has in a chunk file (1, or one per seat); a file with another count is
        not whole and is played again.
    """

    def __init__(self, path, kind: str, prefix: str, width: int, files: tuple = (),
                 error: type[Exception] = ValueError, rows_per_game: int = 1):
        self.rows_per_game = rows_per_game
        self.path = Path(path).expanduser()
        self.kind, self.prefix, self.width, self.error = kind, prefix, width, error
        self.manifest_name = f"{kind}.json"
        self.previous = f"previous-{kind}"
        self.files = tuple(dict.fromkeys((self.manifest_name, GAMES_FILE, CHUNKS) + tuple(files)))
        self._re = re.compile(rf"^{re.escape(prefix)}(\d{{{width}}})-(\d{{10}})-(\d{{10}})"
                              rf"\.parquet$")

    # ------------------------------------------------------------------ the folder itself
    @property
    def chunks(self) -> Path:
        return self.path / CHUNKS

    @property
    def manifest_path(self) -> Path:
        return self.path / self.manifest_name

    def has_manifest(self) -> bool:
        return self.manifest_path.exists()

    def prepare(self) -> bool:
        """Create the folder if needed and prove it writable; returns True if it was
        created.  Raises ``error`` otherwise."""
        out = self.path
        if out.exists() and not out.is_dir():
            raise self.error(f"output folder {out}: exists and is not a folder")
        created = not out.exists()
        try:
            out.mkdir(parents=True, exist_ok=True)
            probe = out / f".write-test-{os.getpid()}"
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as e:
            raise self.error(f"output folder {out} is not writable: "
                             f"{e.strerror or e.__class__.__name__}") from None
        return created

    def remove_if_created(self, created: bool) -> None:
        """Leave no trace of a run that never began (the folder was made for it)."""
        if created:
            shutil.rmtree(self.path, ignore_errors=True)

    def read_manifest(self) -> dict:
        """The manifest; raises ``error`` if it is missing or unreadable."""
        try:
            return json.loads(self.manifest_path.read_text())
        except json.JSONDecodeError as e:
            raise self.error(f"{self.manifest_path}: unreadable {self.kind} record: not valid "
                             f"JSON: {json_problem(e)}") from None
        except (OSError, ValueError) as e:
            raise self.error(f"{self.manifest_path}: unreadable {self.kind} record "
                             f"({e.__class__.__name__}: {e})") from None

    def check_new(self, overwrite: bool, resume: bool) -> None:
        """Before a new run: refuse a folder holding another run (unless ``overwrite``), a
        run of another kind (a study where a ladder would go, even with ``overwrite``: its
        files are not this kind's to move aside), a ``games.parquet`` of no known run, and
        ``resume`` where there is nothing to resume."""
        for other in RUN_KINDS:
            if other != self.kind and (self.path / f"{other}.json").exists():
                raise self.error(f"{self.path} holds a {other} ({other}.json), not a "
                                 f"{self.kind}: choose another folder")
        if resume and not self.has_manifest():
            raise self.error(f"{self.path}: no interrupted {self.kind} to resume here (no "
                             f"{self.manifest_name}); leave out --resume to start one")
        if not overwrite and not self.has_manifest() and (self.path / GAMES_FILE).exists():
            raise self.error(f"{self.path} holds a {GAMES_FILE} of no known {self.kind} (no "
                             f"{self.manifest_name}); pass --overwrite or choose another "
                             f"folder")
        if self.has_manifest() and not overwrite:
            if resume:
                return
            raise self.error(f"{self.path} already holds a {self.kind} ({self.manifest_name}): "
                             f"pass --resume to complete it, --overwrite to start again, or "
                             f"choose another folder")
        if not overwrite and self.chunks.is_dir() and any(
                self._re.match(p.name) for p in self.chunks.iterdir()):
            raise self.error(f"{self.chunks} holds chunks of an unknown {self.kind}; pass "
                             f"--overwrite or choose another folder")

    def begin(self, manifest: dict | None, overwrite: bool) -> None:
        """Move an old run aside (``overwrite``), record the new one (``manifest``; None
        when resuming), make sure the chunk folder exists."""
        if manifest is not None and overwrite:
            self._move_aside()
        self.chunks.mkdir(parents=True, exist_ok=True)
        if manifest is None:
            return
        tmp = self.path / (self.manifest_name + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=2) + "\n")
        os.replace(tmp, self.manifest_path)

    def _move_aside(self) -> None:
        """Move the run in the folder into ``previous-<kind>`` (deleted once the new run has
        finished).  If that folder is already there, an earlier --overwrite never finished:
        the old results are in it, and what is in the folder is that unfinished run, deleted."""
        out = self.path
        present = [n for n in self.files if (out / n).exists()]
        if not present:
            return
        old = out / self.previous
        if old.is_dir():
            for n in present:
                p = out / n
                shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
            return
        tmp = out / (self.previous + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for n in present:
            os.replace(out / n, tmp / n)
        os.replace(tmp, old)

    def finish(self) -> None:
        """The run is complete: remove the chunks and the run it replaced."""
        shutil.rmtree(self.chunks, ignore_errors=True)
        shutil.rmtree(self.path / self.previous, ignore_errors=True)

    # ------------------------------------------------------------------ chunk files
    def chunk_path(self, key: int, lo: int, hi: int) -> Path:
        return self.chunks / f"{self.prefix}{key:0{self.width}d}-{lo:010d}-{hi:010d}.parquet"

    def write_chunk(self, df, key: int, lo: int, hi: int) -> None:
        """Save the rows of games ``lo .. hi - 1`` of ``key`` (a DataFrame or Arrow table)."""
        write_parquet(df, self.chunk_path(key, lo, hi))

    def saved(self, jobs) -> dict:
        """The chunk files on disk that belong to ``jobs`` ((key, lo, hi) tuples): {job:
        [(lo, hi), ...]}, the game ranges each job has saved (all of it, or the first games
        of it and of what was left, when a stop cut it short).  Hidden files (a write cut
        short), overlapping, unknown-range and unreadable chunk files are removed."""
        by_key: dict = {}
        for job in jobs:
            by_key.setdefault(job[0], []).append(job)
        found: dict = {}
        if not self.chunks.is_dir():
            return found
        for p in sorted(self.chunks.iterdir()):
            if p.name.startswith("."):
                p.unlink(missing_ok=True)
                continue
            m = self._re.match(p.name)
            if not m:
                continue
            key, a, b = int(m[1]), int(m[2]), int(m[3])
            job = next((j for j in by_key.get(key, ()) if j[1] <= a < b <= j[2]), None)
            ok = job is not None and not any(a < y and x < b for x, y in found.get(job, ()))
            if ok:
                try:
                    ok = _rows(p) == (b - a) * self.rows_per_game
                except Exception:       # noqa: BLE001 - an unreadable chunk is played again
                    ok = False
            if ok:
                found.setdefault(job, []).append((a, b))
            else:
                p.unlink(missing_ok=True)
        return found

    def ranges(self, key: int = 0) -> list[tuple[int, int]]:
        """The game ranges saved for ``key``, sorted and disjoint (a run of one key, such as
        ``duel simulate``'s, that does not list its jobs); bad, overlapping and hidden files
        are removed."""
        found: list[tuple[int, int]] = []
        if not self.chunks.is_dir():
            return found
        for p in sorted(self.chunks.iterdir()):
            m = self._re.match(p.name)
            if p.name.startswith(".") or (m and int(m[1]) != key):
                if p.name.startswith("."):
                    p.unlink(missing_ok=True)
                continue
            if not m:
                continue
            a, b = int(m[2]), int(m[3])
            try:
                ok = a < b and _rows(p) == (b - a) * self.rows_per_game
            except Exception:       # noqa: BLE001 - an unreadable chunk is played again
                ok = False
            if ok and not any(a < y and x < b for x, y in found):
                found.append((a, b))
            else:
                p.unlink(missing_ok=True)
        return sorted(found)

    @staticmethod
    def missing(job, saved_ranges) -> list[tuple]:
        """The game ranges of ``job`` (key, lo, hi) not in ``saved_ranges``, as jobs."""
        key, lo, hi = job
        out, at = [], lo
        for a, b in sorted(saved_ranges):
            if a > at:
                out.append((key, at, a))
            at = max(at, b)
        if at < hi:
            out.append((key, at, hi))
        return out

    def todo(self, jobs, saved: dict) -> list[tuple]:
        """Every part of ``jobs`` not saved yet, in the order of ``jobs``."""
        return [part for j in jobs for part in self.missing(j, saved.get(j, ()))]

    def combine(self, jobs, what: str = "arm") -> pd.DataFrame:
        """Every chunk of ``jobs`` in order (every game must be there; ``error`` names the
        first missing range otherwise)."""
        saved = self.saved(jobs)
        parts = []
        for job in jobs:
            gap = self.missing(job, saved.get(job, ()))
            if gap:
                raise self.error(f"{self.chunks}: games {gap[0][1]}..{gap[0][2] - 1} of "
                                 f"{what} {job[0]} are missing; resume the {self.kind} to "
                                 f"play them")
            for a, b in sorted(saved[job]):
                parts.append(pd.read_parquet(self.chunk_path(job[0], a, b)))
        return pd.concat(parts, ignore_index=True)

    def saved_games(self, jobs) -> int:
        """Games already saved in chunk files of ``jobs``."""
        return sum(b - a for ranges in self.saved(jobs).values() for a, b in ranges)

    def read_games(self, rows: int) -> pd.DataFrame | None:
        """``games.parquet`` if it holds ``rows`` rows (a finished run), else None."""
        try:
            t = pd.read_parquet(self.path / GAMES_FILE)
        except Exception:       # noqa: BLE001 - rebuilt from the chunks
            return None
        return t if len(t) == rows else None
