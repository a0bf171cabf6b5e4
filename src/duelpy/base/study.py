"""What every game's study spec shares: arms (the control and the treatments) played on the
same ``games`` seeds, laid out in chunks for the runner, and what a resume must match."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from duelpy.base.game import ChunkTask

__all__ = ["ArmsOnSameGames", "SeatRowsInCore", "SeatStudySpec", "SeatReport"]


class ArmsOnSameGames:
    """A mixin for a study spec with ``games`` (per arm), ``arms`` (names, control first)
    and ``to_dict()`` (with ``name`` and ``chunk_size``, which a resume may change)."""

    games: int

    @property
    def arms(self) -> list[str]:            # the spec's own
        raise AttributeError("a study spec names its arms")

    def to_dict(self) -> dict:              # the spec's own
        raise AttributeError("a study spec gives its data")

    @property
    def total_games(self) -> int:
        """Games in all arms: ``games`` x the arms."""
        return self.games * len(self.arms)

    def identity(self) -> dict:
        """What must match for ``resume``: everything that changes a game or the arms."""
        d = self.to_dict()
        del d["name"], d["chunk_size"]
        return d

    def jobs(self, chunk: int) -> list[tuple[int, int, int]]:
        """(arm, lo, hi) of every chunk, game-major so that every arm advances together."""
        return [(arm, lo, min(self.games, lo + chunk))
                for lo in range(0, self.games, chunk) for arm in range(len(self.arms))]


class SeatRowsInCore(ArmsOnSameGames):
    """:class:`ArmsOnSameGames` for a game whose agents all play inside its core (no worker
    processes, one CPU a chunk) and whose rows are one per game and seat: the spec gives
    ``task(job)`` (the chunk's ChunkTask) and ``chunk_rows`` (a staticmethod: the rows of a
    chunk's raw result), and has no plots."""

    chunk_rows: Any
    games_per_chunk: Any                    # a staticmethod: agents -> games a chunk
    agents: tuple

    game: ClassVar[str]                     # the registry's name of the game
    players: int
    seed: int

    def arm_setup(self, k: int) -> dict:    # the spec's own
        raise AttributeError("a study spec gives each arm's set-up")

    def task(self, job: tuple) -> ChunkTask:
        """The ChunkTask of ``job`` = (arm, lo, hi): the agents at fixed seats, the arm's
        set-up, the study's seed."""
        arm, lo, hi = job
        return ChunkTask(self.game, self.players, tuple(self.agents), "fixed",
                         self.arm_setup(arm), self.seed, lo, hi)

    @classmethod
    def make(cls, *args: Any, **kw: Any) -> Any:    # the spec's own
        raise AttributeError("a study spec makes itself")

    @classmethod
    def from_parts(cls, d: dict, players: int, seats: Any, name: str, control: Any,
                   arms: list) -> Any:
        """``make`` with the games, seed and chunk size of the study file's table ``d``."""
        return cls.make(players, seats, d.get("games", 1000), d.get("seed", 0), control,
                        arms, name, d.get("chunk_size"))

    def default_chunk_size(self) -> int:
        """The game's chunk for these agents, at most a sixteenth of an arm's games."""
        return max(1, min(type(self).games_per_chunk(self.agents), math.ceil(self.games / 16)))

    def processes(self) -> bool:
        return False

    def cpus_per_task(self) -> int:
        return 1

    def rows(self, job: tuple, raw: dict) -> pd.DataFrame:
        """The rows of chunk ``job`` = (arm, lo, hi), the arm's name in front."""
        df = type(self).chunk_rows(self.task(job), raw)
        df.insert(0, "arm", self.arms[job[0]])
        return df

    def finish_table(self, df: pd.DataFrame) -> pd.DataFrame:
        """The study's rows in arm order (control first), then by game and seat."""
        df = df.copy()
        df["arm"] = pd.Categorical(df["arm"].astype(str), categories=self.arms)
        df = df.sort_values(["arm", "game", "seat"], kind="stable").reset_index(drop=True)
        df["arm"] = df["arm"].astype(str)
        return df

    def write_plots(self, report: Any, df: pd.DataFrame, folder: Any) -> dict:
        return {}


@dataclass(frozen=True)
class SeatStudySpec(SeatRowsInCore):
    """The fields of a seat game's study spec (7 Wonders, Architects): ``players``, one
    canonical agent per seat (``agents``), ``games`` per arm on the same seeds, ``seed``,
    the ``control`` arm and the ``treatments`` (the game's Arm, which has a ``name``), the
    study's ``name`` and ``chunk_size`` (None: :meth:`default_chunk_size`).  The game's
    spec redeclares ``control`` with its own Arm() as default."""

    players: int = 4
    agents: tuple = ("greedy",) * 4
    games: int = 1000
    seed: int = 0
    control: Any = None
    treatments: tuple = ()
    name: str = ""
    chunk_size: int | None = None

    @property
    def rows_per_game(self) -> int:         # one row per player (not 7 Wonders' Free City)
        return self.players

    @property
    def arms(self) -> list[str]:
        return [self.control.name] + [t.name for t in self.treatments]

    def arm(self, k: int) -> Any:
        """Arm ``k``: 0 the control, then the treatments."""
        return self.control if k == 0 else self.treatments[k - 1]


class SeatReport:
    """The report of a seat game's study: the spec, the study's rows (``frame``) and the
    command that reproduces it; the game's report gives ``markdown()`` and ``print``."""

    def __init__(self, spec: Any, frame: pd.DataFrame, command: str | None = None):
        self.spec, self.frame, self.command = spec, frame, command
        self.plots: dict = {}

    def markdown(self) -> str:              # the game's own
        raise AttributeError("a study report writes its Markdown")

    def write(self, out: Any) -> None:
        """``report.md`` in the folder ``out``."""
        (Path(out) / "report.md").write_text(self.markdown(), encoding="utf-8")
