"""The study of 7 Wonders Duel: the study file's rule options and treatments, validated
(:class:`StudySpec`), and how its games are played and tabled by the study runner
(:mod:`duelpy.study.run`).

A study plays two agents (``p1``, ``p2``, seats alternated unless ``alternate = false``)
under the control's rule options and under each treatment, on the same seeds: game ``i`` of
every arm uses the seed ``game_seeds(seed, games)[i]`` and the same seats, so the arms are
paired game by game.  The report is :mod:`duelpy.duel.study_report`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import pandas as pd


from duelpy.base.errors import StudyError
from duelpy.base.game import ChunkTask
from duelpy.base.study import ArmsOnSameGames
from duelpy.base.specs import check_conflicts
from duelpy.duel.agents import AgentSpecError, parse_agent
from duelpy.duel.match import LONG_GAME, game_cost, task_rows
from duelpy.duel.options import (CONTROL, GAME_OPTIONS, MAX_SEED, _at, _check_keys, _int,
                                 _normalise_options, describe_options, game_options)
from duelpy.duel.study_plots import write_plots
from duelpy.duel.study_report import build_report

__all__ = ["StudySpec", "Treatment", "CONTROL", "describe_options", "game_options"]

_TOP_KEYS = ("name", "games", "seed", "chunk_size", "agents", "options", "treatment")
_AGENT_KEYS = ("p1", "p2", "alternate")
_TREATMENT_KEYS = ("name",) + GAME_OPTIONS + ("p2_extra_coins",)
#: Treatment options of which at most one may be given (both set P2's coins).
_TREATMENT_CONFLICTS = (("p2_extra_coins", "start_coins"),)

@dataclass(frozen=True)
class Treatment:
    """One arm of a study besides the control: its ``name`` and its full game ``options``
    (canonical form, the control's options with the treatment's ``changes`` applied)."""

    name: str
    options: dict
    changes: dict


@dataclass(frozen=True)
class StudySpec(ArmsOnSameGames):
    """A validated study.

    Attributes
    ----------
    p1, p2 : str
        Agent descriptions (``"mcts:iterations=200"``): ``p1`` sits in P1's seat in even games
        and, when ``alternate``, ``p2`` sits in P1's seat in odd games (as ``duel simulate``).
    games : int
        Games per arm (the control and each treatment play the same ``games`` seeds).
    seed : int
        Base seed, 0 .. 2**64 - 1; game i's seed is ``match.game_seeds(seed, games)[i]``.
    options : dict
        The control's rule options, canonical (centred_pawn, first_game_wonders, start_coins,
        banned_tokens, forced_wonders).
    treatments : tuple of Treatment
    chunk_size : int or None
        Games per chunk (the unit of work and of saving); None chooses from the agents' cost.
    """

    p1: str = "random"
    p2: str = "random"
    games: int = 1000
    seed: int = 0
    alternate: bool = True
    options: dict = field(default_factory=lambda: _normalise_options({}, "options"))
    treatments: tuple = ()
    name: str = ""
    chunk_size: int | None = None

    @property
    def arms(self) -> list[str]:
        """Arm names: ``'control'`` then each treatment."""
        return [CONTROL] + [t.name for t in self.treatments]

    def arm_options(self, arm: int) -> dict:
        """Canonical options of arm ``arm`` (0 = control)."""
        return self.options if arm == 0 else self.treatments[arm - 1].options


    def to_dict(self) -> dict:
        """The study as data (the TOML structure; JSON-safe)."""
        def opt_table(o):
            t = dict(o)
            t["forced_wonders"] = {f"p{i + 1}": w for i, w in enumerate(o["forced_wonders"]) if w}
            return t
        return {"name": self.name, "games": self.games, "seed": self.seed,
                "chunk_size": self.chunk_size,
                "agents": {"p1": self.p1, "p2": self.p2, "alternate": self.alternate},
                "options": opt_table(self.options),
                "treatment": [{"name": t.name, **{k: v for k, v in opt_table(
                    {**self.options, **t.changes}).items() if k in t.changes}}
                    for t in self.treatments]}


    @classmethod
    def from_dict(cls, d: dict, where: str = "study") -> "StudySpec":
        """Validate a study given as data (the structure of the TOML file).

        Raises
        ------
        StudyError
            For an unknown key, a value of the wrong type or out of range, an unknown agent,
            wonder or progress token (with close matches), or options the core rejects.
        """
        _check_keys(d, _TOP_KEYS, where)
        name = d.get("name", "")
        if not isinstance(name, str):
            raise StudyError(f"{_at(where, 'name')} must be a string, not {name!r}")
        games = _int(d.get("games", 1000), _at(where, "games"), 1, 10**9)
        seed = _int(d.get("seed", 0), _at(where, "seed"), 0, MAX_SEED)
        chunk = d.get("chunk_size")
        if chunk is not None:
            chunk = _int(chunk, _at(where, "chunk_size"), 1, 10**7)
        agents = d.get("agents", {})
        _check_keys(agents, _AGENT_KEYS, _at(where, "agents"))
        descs = []
        for seat in ("p1", "p2"):
            text = agents.get(seat, "random")
            try:
                parse_agent(text)
            except AgentSpecError as e:
                raise StudyError(f"{_at(where, 'agents.' + seat)}: {e}") from None
            descs.append(" ".join(text.split()))
        alternate = agents.get("alternate", True)
        if not isinstance(alternate, bool):
            raise StudyError(f"{_at(where, 'agents.alternate')} must be true or false, not {alternate!r}")
        opts = d.get("options", {})
        _check_keys(opts, GAME_OPTIONS, _at(where, "options"))
        control = _normalise_options(opts, _at(where, "options"))
        treats = d.get("treatment", [])
        if isinstance(treats, dict):
            treats = [treats]
        if not isinstance(treats, list):
            raise StudyError(f"{_at(where, 'treatment')} must be an array of tables ([[treatment]])")
        out, seen = [], {CONTROL}
        for k, t in enumerate(treats):
            w = _at(where, f"treatment[{k}]")
            _check_keys(t, _TREATMENT_KEYS, w)
            check_conflicts(t, _TREATMENT_CONFLICTS, w, StudyError)
            changes = {key: v for key, v in t.items() if key != "name"}
            if not changes:
                raise StudyError(f"{w}: a treatment changes at least one rule option "
                                 f"({', '.join(_TREATMENT_KEYS[1:])})")
            opts_t = _normalise_options(changes, w, base=control)
            canon = {key: opts_t[key] for key in GAME_OPTIONS if opts_t[key] != control[key]}
            if not canon:
                raise StudyError(f"{w}: these options are the control's own; the treatment "
                                 f"would change nothing")
            tname = t.get("name") or describe_options(canon)
            if not isinstance(tname, str):
                raise StudyError(f"{w}.name must be a string, not {tname!r}")
            if tname in seen:
                raise StudyError(f"{w}: the name {tname!r} is already used; give each "
                                 f"treatment its own name")
            seen.add(tname)
            out.append(Treatment(tname, opts_t, canon))
        return cls(p1=descs[0], p2=descs[1], games=games, seed=seed, alternate=alternate,
                   options=control, treatments=tuple(out), name=name, chunk_size=chunk)

    # ---------------------------------------------------------------- for the study runner
    game: ClassVar[str] = "duel"
    #: Rows of a game in the per-game table (one row per game).
    rows_per_game: ClassVar[int] = 1

    def default_chunk_size(self) -> int:
        """Games per chunk: about 5 s of one core, at most 5,000 games and at most 1/16 of
        the games of an arm (so small studies still spread over workers), at least 1."""
        cost = (game_cost(self.p1) + game_cost(self.p2)) / 2
        return max(1, min(5000, math.ceil(self.games / 16), int(5.0 / cost)))


    def task(self, job: tuple) -> ChunkTask:
        """What a worker needs to play the chunk ``job`` = (arm, lo, hi)."""
        arm, lo, hi = job
        a, b = parse_agent(self.p1), parse_agent(self.p2)
        moves = (game_cost(a) + game_cost(b)) / 2 > LONG_GAME      # a stop is seen between moves
        return ChunkTask("duel", 2, (self.p1, self.p2),
                         "alternate" if self.alternate else "fixed",
                         game_options(self.arm_options(arm)), self.seed, lo, hi, moves)

    def processes(self) -> bool:
        """True if the agents need worker processes (Python agents hold the GIL)."""
        return not (parse_agent(self.p1).batchable and parse_agent(self.p2).batchable)

    def cpus_per_task(self) -> int:
        return max(getattr(parse_agent(d), "threads", 1) for d in (self.p1, self.p2))

    def rows(self, job: tuple, raw: dict) -> pd.DataFrame:
        """The per-game rows of the finished games of chunk ``job`` = (arm, lo, hi)."""
        arm = job[0]
        df = task_rows(self.task(job), raw)
        df.insert(0, "treatment", self.arms[arm])
        return df

    def finish_table(self, df: pd.DataFrame) -> pd.DataFrame:
        """The whole study's table: the arms in order (categorical), then the games."""
        df = df.copy()
        df["victory"] = pd.Categorical(df["victory"].astype(str),
                                       categories=["civilian", "military", "scientific",
                                                   "shared"])
        df["treatment"] = pd.Categorical(df["treatment"].astype(str), categories=self.arms)
        return df.sort_values(["treatment", "game"], kind="stable").reset_index(drop=True)

    def report(self, df: pd.DataFrame):
        """The study's report (:class:`duelpy.duel.study_report.StudyReport`)."""
        return build_report(df, self)

    def write_plots(self, report, df: pd.DataFrame, folder) -> dict:
        return write_plots(report, df, folder)
