"""Files written by the commands: safe by default.

* :class:`TableWriter` streams a per-game table to ``.parquet`` or ``.csv`` chunk by chunk
  (constant memory), into a temporary file beside the target that replaces it only when
  :meth:`TableWriter.close` is called; a failed run leaves neither a partial target nor the
  temporary file.
* :func:`check_new_file` refuses, before any work, a target that exists (unless
  ``overwrite``), a missing folder, a folder in the file's place or an unwritable folder.
"""
from __future__ import annotations

import os
from typing import Any
import tempfile
from pathlib import Path

import pandas as pd

__all__ = ["TableWriter", "check_new_file", "OutputError", "TABLE_SUFFIXES"]

TABLE_SUFFIXES = (".parquet", ".csv")


class OutputError(ValueError):
    """An output file that must not or cannot be written (one line naming it)."""


def check_new_file(path: Path, overwrite: bool = False, suffixes=None) -> Path:
    """Check before any work that ``path`` may be written.

    Raises
    ------
    OutputError
        If the suffix is not one of ``suffixes``, the file exists and ``overwrite`` is
        false, the path is a folder, its folder does not exist or cannot be written.
    """
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise OutputError(f"{path}: the file must end in {' or '.join(suffixes)}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        raise OutputError(f"{folder}: no such folder")
    if path.is_dir():
        raise OutputError(f"{path}: is a folder")
    if path.exists() and not overwrite:
        raise OutputError(f"{path} already exists: pass --overwrite to replace it, or choose "
                          f"another name")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".duel-check-"):
            pass
    except OSError as e:
        raise OutputError(f"{folder}: cannot write there ({e.strerror})") from None
    return path


class TableWriter:
    """Write a table of result rows chunk by chunk to ``path`` (.parquet or .csv), columns
    only (no index: a ``game`` column is a column, as in every other table of the project).

    The rows go to a hidden temporary file in the same folder; :meth:`close` moves it onto
    ``path`` (atomically), :meth:`abort` removes it.  Nothing is written for no rows.
    """

    def __init__(self, path, overwrite: bool = False):
        self.path = check_new_file(Path(path), overwrite, TABLE_SUFFIXES)
        self.overwrite = overwrite
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
        self.rows = 0
        self._parquet: Any = None           # a pyarrow ParquetWriter once the first rows come
        self._schema: Any = None
        self._csv: Any = None

    def write(self, df: pd.DataFrame):
        """Append ``df``'s rows (the columns must be those of the first chunk).  Returns the
        Arrow table written (Parquet files), so a caller can save the same rows elsewhere
        without converting them again; None for CSV."""
        if not len(df):
            return None
        if self.path.suffix.lower() == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq
            if self._parquet is None:
                table = pa.Table.from_pandas(df, preserve_index=False)
                # a column that is all None in the first chunk (winner_agent) is text
                self._schema = pa.schema([f.with_type(pa.string()) if pa.types.is_null(f.type)
                                          else f for f in table.schema],
                                         metadata=table.schema.metadata)
                self._parquet = pq.ParquetWriter(self.tmp, self._schema)
            table = pa.Table.from_pandas(df, schema=self._schema, preserve_index=False)
            self._parquet.write_table(table)
            self.rows += len(df)
            return table
        else:
            if self._csv is None:
                self._csv = open(self.tmp, "w", encoding="utf-8", newline="")
                df.to_csv(self._csv, index=False)
            else:
                df.to_csv(self._csv, header=False, index=False)
        self.rows += len(df)
        return None

    def _close_handles(self):
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._csv is not None:
            self._csv.close()
            self._csv = None

    def close(self) -> int:
        """Finish the file and move it onto ``path``; returns the rows written (0: no file
        is written, and an existing ``path`` is left alone)."""
        self._close_handles()
        if self.rows:
            if self.path.exists() and not self.overwrite:      # appeared while we played
                raise OutputError(f"{self.path} appeared while the games were played; the "
                                  f"games are in {self.tmp}")
            os.replace(self.tmp, self.path)
        return self.rows

    def abort(self) -> None:
        """Remove the temporary file (nothing is written)."""
        try:
            self._close_handles()
        finally:
            self.tmp.unlink(missing_ok=True)
