"""The error types of the tools every game shares (studies, ladders), so that a game's own
modules can raise them without importing the tools."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["StudyError", "StudyInterrupted", "LadderError", "LadderInterrupted"]


class StudyError(ValueError):
    """A study that cannot be run: bad study file or option, unknown name, unusable output
    folder or Ray cluster.  The message is one line and names the culprit."""


class StudyInterrupted(RuntimeError):
    """The study stopped before its last game (Ctrl-C, a worker that died, ``max_chunks``).

    Every finished chunk is on disk; ``run_study(..., resume=True)`` (``duel study --resume``)
    completes the study without replaying them.  Attributes: ``done`` and ``total`` (games,
    all arms), ``out_dir`` (Path), ``reason`` (str).
    """

    def __init__(self, reason: str, done: int, total: int, out_dir: Path):
        self.reason, self.done, self.total, self.out_dir = reason, done, total, Path(out_dir)
        super().__init__(f"study interrupted ({reason}): {done:,} of {total:,} games kept in "
                         f"{self.out_dir}; resume to complete it")


class LadderError(ValueError):
    """A ladder that cannot be run: bad agents, games, budget, seed, anchor, output folder or
    Ray cluster (one line naming the culprit)."""


class LadderInterrupted(RuntimeError):
    """The ladder stopped before its last game (Ctrl-C, a worker that died, ``max_chunks``).

    With an output folder every finished chunk is on disk, and ``run_ladder(..., resume=True)``
    (``duel ladder --resume``) completes the ladder without replaying them.

    Attributes: ``reason`` (str), ``done`` and ``total`` (games), ``out_dir`` (Path or None),
    ``games`` (DataFrame of the finished games, in the layout of ``run_ladder``).
    """

    def __init__(self, reason: str, done: int, total: int, out_dir, games: pd.DataFrame):
        self.reason, self.done, self.total = reason, done, total
        self.out_dir = None if out_dir is None else Path(out_dir)
        self.games = games
        kept = f"kept in {self.out_dir}; resume to complete it" if out_dir is not None \
            else "not saved (no output folder)"
        super().__init__(f"ladder interrupted ({reason}): {done:,} of {total:,} games {kept}")
