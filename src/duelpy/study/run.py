"""Monte Carlo balance studies: many games of two agents under a control rule set and under
treatments, played on the same seeds, saved in chunks, reported with 95% intervals.

A study is described by a :class:`StudySpec`, read from a TOML file (see :func:`load_spec`)
or built from a dict.  :func:`run_study` validates it, plays every game of every arm (the
control and each treatment) through :func:`duelpy.duel.match.play_games_raw`, writes the per-game
table chunk by chunk (so an interrupted study keeps its finished games and can be resumed),
combines the chunks, and writes the report and the plots.

Game ``i`` of every arm uses the seed ``match.game_seeds(seed, games)[i]`` and the same seats,
so the arms are paired game by game, and the results do not depend on the backend, the number
of workers or the chunking.

Output folder::

    study.json          the validated study (and the chunk size): what --resume completes
    chunks/             one Parquet file per finished chunk while the study runs
    games.parquet       the per-game table (one row per game and arm); games.csv on request
    report.md, report.html
    plots/*.png
"""
from __future__ import annotations

import difflib
import json
import math
import os
import re
import shutil
import signal
import socket
import threading
import time
import tomllib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

import duelcore
from duelcore import data

from duelpy.duel.agents import AgentSpecError, parse_agent
from duelpy.duel.match import (GAME_OPTIONS, LONG_GAME, game_cost, game_seeds, play_games_raw,
                          results_table)
from duelpy.base.interrupt import clear_core, stop_core
from duelpy.base.specs import check_conflicts

__all__ = ["StudySpec", "Treatment", "StudyError", "StudyInterrupted", "StudyResult",
           "load_spec", "run_study", "read_games", "CONTROL"]

#: Name of the arm played with the study's own rule options.
CONTROL = "control"
FORMAT_VERSION = 1
MANIFEST = "study.json"
CHUNKS = "chunks"
GAMES_FILE = "games.parquet"
#: Where --overwrite keeps the study it replaces until the new one has finished.
PREVIOUS = "previous-study"
_STUDY_FILES = (MANIFEST, GAMES_FILE, "games.csv", "report.md", "report.html", CHUNKS, "plots")

_TOP_KEYS = ("name", "games", "seed", "chunk_size", "agents", "options", "treatment")
_AGENT_KEYS = ("p1", "p2", "alternate")
_TREATMENT_KEYS = ("name",) + GAME_OPTIONS + ("p2_extra_coins",)
#: Treatment options of which at most one may be given (both set P2's coins).
_TREATMENT_CONFLICTS = (("p2_extra_coins", "start_coins"),)
_MAX_SEED = 2**64 - 1


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


class StudyResult(NamedTuple):
    """What :func:`run_study` returns: ``games`` (the per-game DataFrame, one row per game
    and arm) and ``report`` (a :class:`duelpy.study.report.StudyReport`)."""

    games: pd.DataFrame
    report: Any


# --------------------------------------------------------------------------------------------
# The study description

def _close(word, choices):
    """' (did you mean X?)' for the closest of ``choices`` to ``word``, or ''."""
    if not isinstance(word, str):
        return ""
    lowered = {c.casefold(): c for c in choices}
    hits = difflib.get_close_matches(word.casefold(), list(lowered), n=3, cutoff=0.5)
    if hits:        # only the best ones
        score = [difflib.SequenceMatcher(None, word.casefold(), h).ratio() for h in hits]
        hits = [h for h, r in zip(hits, score) if r >= max(score) - 0.1]
    if not hits:
        # "Pyramids" for "The Pyramids": a word of the name is enough to suggest it
        key = word.casefold().strip()
        hits = [k for k in lowered if key and key in k][:3]
    if not hits:
        return ""
    return " (did you mean " + " or ".join(repr(lowered[h]) for h in hits) + "?)"


def _canonical(value, names, what, where):
    """The official spelling of a wonder or progress token name (case and spaces ignored)."""
    if not isinstance(value, str):
        raise StudyError(f"{where}: a {what} is written by its name, not {value!r}")
    key = " ".join(value.split()).casefold()
    for n in names:
        if n.casefold() == key:
            return n
    raise StudyError(f"{where}: unknown {what} {value!r}{_close(value, names)}")


def _check_keys(table, allowed, where):
    if not isinstance(table, dict):
        raise StudyError(f"{where} must be a table of key = value, not {type(table).__name__}")
    where = where.rstrip(":")
    for key in table:
        if key not in allowed:
            raise StudyError(f"{where}: unknown key {key!r}{_close(key, allowed)}; "
                             f"keys: {', '.join(allowed)}")


def _at(where: str, key: str) -> str:
    """'study.games', or 'file.toml: games' for a file."""
    return f"{where} {key}" if where.endswith(":") else f"{where}.{key}"


def _int(value, where, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StudyError(f"{where} must be an integer from {lo:,} to {hi:,}, not {value!r}")
    return value


def _normalise_options(opts: dict, where: str, base: dict | None = None) -> dict:
    """Game options in canonical JSON-safe form, validated (overlaid on ``base`` if given)."""
    out = dict(base) if base is not None else {
        "centred_pawn": "chooses", "first_game_wonders": False, "start_coins": [7, 7],
        "banned_tokens": [], "forced_wonders": [None, None]}
    for key, value in opts.items():
        if key == "name":
            continue
        w = _at(where, key)
        if key == "centred_pawn":
            if value not in ("chooses", "begins"):
                raise StudyError(f"{w} must be 'chooses' or 'begins', not {value!r}"
                                 f"{_close(value, ('chooses', 'begins'))}")
            out[key] = value
        elif key == "first_game_wonders":
            if not isinstance(value, bool):
                raise StudyError(f"{w} must be true or false, not {value!r}")
            out[key] = value
        elif key == "start_coins":
            if not isinstance(value, (list, tuple)) or len(value) != 2:
                raise StudyError(f"{w} must be two integers [P1's, P2's], not {value!r}")
            out[key] = [_int(value[0], w + "[0]", 0, 1000), _int(value[1], w + "[1]", 0, 1000)]
        elif key == "p2_extra_coins":
            extra = _int(value, w, -1000, 1000)
            c0, c1 = out["start_coins"]
            if not 0 <= c1 + extra <= 1000:
                raise StudyError(f"{w}: P2 would start with {c1 + extra} coins (0 to 1,000)")
            out["start_coins"] = [c0, c1 + extra]
        elif key == "banned_tokens":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, (list, tuple)):
                raise StudyError(f"{w} must be a list of progress token names, not {value!r}")
            names = [_canonical(t, data.TOKEN_NAMES, "progress token", w) for t in value]
            out[key] = sorted(set(names), key=data.TOKEN_NAMES.index)
        elif key == "forced_wonders":
            if isinstance(value, dict):
                _check_keys(value, ("p1", "p2"), w)
                value = [value.get("p1"), value.get("p2")]
            if not isinstance(value, (list, tuple)) or len(value) != 2:
                raise StudyError(f"{w} must be {{p1 = \"wonder\", p2 = \"wonder\"}} "
                                 f"(either may be left out), not {value!r}")
            out[key] = [None if v in (None, "") else
                        _canonical(v, data.WONDER_NAMES, "wonder", f"{w}.p{i + 1}")
                        for i, v in enumerate(value)]
        else:
            raise StudyError(f"{where}: unknown key {key!r}")
    try:
        duelcore.new_game(0, **game_options(out))     # the core's own validation
    except (ValueError, TypeError) as e:
        raise StudyError(f"{where}: {e}") from None
    return out


def game_options(opts: dict) -> dict:
    """Keyword arguments of :func:`duelcore.new_game` / ``play_games_raw`` for canonical
    options (lists become tuples, unset treatments are left out)."""
    out = {"centred_pawn": opts["centred_pawn"],
           "first_game_wonders": bool(opts["first_game_wonders"]),
           "start_coins": tuple(opts["start_coins"])}
    if opts["banned_tokens"]:
        out["banned_tokens"] = tuple(opts["banned_tokens"])
    if any(opts["forced_wonders"]):
        out["forced_wonders"] = tuple(opts["forced_wonders"])
    return out


def describe_options(changes: dict) -> str:
    """A short English description of option changes, e.g. 'P2 starts with 9 coins'."""
    parts = []
    for key, value in changes.items():
        if key == "centred_pawn":
            parts.append(f"centred pawn: the last player {value} who begins"
                         if value == "chooses" else "centred pawn: the last player begins")
        elif key == "first_game_wonders":
            parts.append("first-game wonders" if value else "wonder draft")
        elif key == "start_coins":
            parts.append(f"start coins {value[0]}/{value[1]}")
        elif key == "banned_tokens":
            parts.append("ban " + ", ".join(value) if value else "no token banned")
        elif key == "forced_wonders":
            parts += [f"{w} forced to P{i + 1}" for i, w in enumerate(value) if w]
    return "; ".join(parts) or "same rules as the control"


@dataclass(frozen=True)
class Treatment:
    """One arm of a study besides the control: its ``name`` and its full game ``options``
    (canonical form, the control's options with the treatment's ``changes`` applied)."""

    name: str
    options: dict
    changes: dict


@dataclass(frozen=True)
class StudySpec:
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

    @property
    def total_games(self) -> int:
        """Games in all arms: ``games`` x (1 + number of treatments)."""
        return self.games * (1 + len(self.treatments))

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

    def identity(self) -> dict:
        """What must match for ``resume``: everything that changes a game or the arms."""
        d = self.to_dict()
        del d["name"], d["chunk_size"]
        return d

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
        seed = _int(d.get("seed", 0), _at(where, "seed"), 0, _MAX_SEED)
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


def load_spec(source) -> StudySpec:
    """A :class:`StudySpec` from a TOML file path, a dict, or a StudySpec (returned as is).

    The file::

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
        value (see :meth:`StudySpec.from_dict`).
    """
    if isinstance(source, StudySpec):
        return source
    if isinstance(source, dict):
        return StudySpec.from_dict(source)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            text = path.read_bytes().decode("utf-8")
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
        return StudySpec.from_dict(d, where=f"{path.name}:")
    raise StudyError(f"a study is a TOML file path, a dict or a StudySpec, "
                     f"not {type(source).__name__}")


# --------------------------------------------------------------------------------------------
# Chunks

def default_chunk_size(spec: StudySpec) -> int:
    """Games per chunk: about 5 s of one core, at most 5,000 games and at most 1/16 of the
    games of an arm (so small studies still spread over workers), at least 1."""
    cost = (game_cost(spec.p1) + game_cost(spec.p2)) / 2
    return max(1, min(5000, math.ceil(spec.games / 16), int(5.0 / cost)))


def _chunk_name(arm: int, lo: int, hi: int) -> str:
    return f"arm{arm:02d}-{lo:010d}-{hi:010d}.parquet"


_CHUNK_RE = re.compile(r"^arm(\d{2})-(\d{10})-(\d{10})\.parquet$")


def _jobs(spec: StudySpec, chunk: int) -> list[tuple[int, int, int]]:
    """(arm, lo, hi) of every chunk, game-major so that every arm advances together."""
    return [(arm, lo, min(spec.games, lo + chunk))
            for lo in range(0, spec.games, chunk) for arm in range(len(spec.arms))]


#: Set when the study is asked to stop (Ctrl-C): chunks under way return the games they
#: finished (in a worker process, by its own SIGINT handler).
_STOP = threading.Event()


def _play_chunk(job: tuple) -> dict:
    """Worker: play one chunk.  ``job`` = (p1, p2, base seed, lo, hi, alternate, options);
    returns the core's arrays (see ``match.play_games_raw``): every game of the chunk, or
    after a stop (Ctrl-C, the core's stop flag) the first games, those finished."""
    p1, p2, seed, lo, hi, alternate, options = job
    seeds = game_seeds(seed, hi - lo, start=lo)
    swap = (np.arange(lo, hi) % 2 == 1) & alternate
    a, b = parse_agent(p1), parse_agent(p2)
    long_games = (game_cost(a) + game_cost(b)) / 2 > LONG_GAME     # move by move: a stop
    return play_games_raw(a, b, seeds, swap, options, stop=_STOP,  # is seen between moves
                          partial=True, moves=True if long_games else None)


def chunk_table(spec: StudySpec, arm: int, lo: int, hi: int, raw: dict) -> pd.DataFrame:
    """The per-game rows of games ``lo .. hi - 1`` of arm ``arm`` from the core's arrays."""
    seeds = game_seeds(spec.seed, hi - lo, start=lo)
    swap = (np.arange(lo, hi) % 2 == 1) & spec.alternate
    n1, n2 = parse_agent(spec.p1).name, parse_agent(spec.p2).name
    p1 = np.where(swap, n2, n1).astype(object)
    p2 = np.where(swap, n1, n2).astype(object)
    df = results_table(raw, seeds, p1, p2).reset_index(drop=True)
    df.insert(0, "game", np.arange(lo, hi, dtype=np.int64))
    df.insert(0, "treatment", spec.arms[arm])
    return df


def _write_parquet(df: pd.DataFrame, path: Path) -> None:
    tmp = path.with_name("." + path.name + ".tmp")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def _finish_table(df: pd.DataFrame, spec: StudySpec) -> pd.DataFrame:
    df = df.copy()
    df["treatment"] = pd.Categorical(df["treatment"].astype(str), categories=spec.arms)
    df = df.sort_values(["treatment", "game"], kind="stable").reset_index(drop=True)
    return df


def read_games(out_dir) -> pd.DataFrame:
    """The per-game table of a finished study folder (``games.parquet``).

    Returns
    -------
    pandas.DataFrame
        One row per game and arm: treatment (categorical, control first), game (index in the
        arm), seed, p1, p2 (agents by seat), winner (0 = P1, 1 = P2, -1 shared), winner_agent,
        victory, vp_<category>_p1/p2, vp_total_p1/p2, coins, wonders drafted and built,
        progress tokens, play_again_p1/p2 (Play Again turns), cards by colour, who began each
        Age (starter_age1..3), n_decisions (actions), pawn, final_age.

    Raises
    ------
    StudyError
        If the folder holds no finished study.
    """
    out = Path(out_dir)
    try:
        manifest = json.loads((out / MANIFEST).read_text())
        spec = StudySpec.from_dict(manifest["spec"])
        df = pd.read_parquet(out / GAMES_FILE)
    except (OSError, ValueError, KeyError) as e:
        raise StudyError(f"{out}: no finished study here ({e.__class__.__name__}: {e})") from None
    return _finish_table(df, spec)


# --------------------------------------------------------------------------------------------
# Output folder

def _check_out_dir(out: Path) -> None:
    """Create ``out`` if needed and prove it writable; StudyError otherwise."""
    if out.exists() and not out.is_dir():
        raise StudyError(f"output folder {out}: exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".write-test-{os.getpid()}"
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as e:
        raise StudyError(f"output folder {out} is not writable: "
                         f"{e.strerror or e.__class__.__name__}") from None


def _chunk_files(out: Path, spec: StudySpec, chunk: int) -> dict:
    """The chunk files on disk that belong to this study: {job: [(lo, hi), ...]} with the
    game ranges each job has saved (a whole job, or the first games of it and of what was
    left, when Ctrl-C stopped it); other files and unreadable ones are removed."""
    import pyarrow.parquet as pq
    jobs = _jobs(spec, chunk)
    by_arm: dict = {}
    for job in jobs:
        by_arm.setdefault(job[0], []).append(job)
    found: dict = {}
    if not (out / CHUNKS).is_dir():
        return found
    for p in sorted((out / CHUNKS).iterdir()):
        m = _CHUNK_RE.match(p.name)
        if p.name.startswith("."):              # a write cut short
            p.unlink(missing_ok=True)
            continue
        if not m:
            continue
        arm, a, b = int(m[1]), int(m[2]), int(m[3])
        job = next((j for j in by_arm.get(arm, ()) if j[1] <= a < b <= j[2]), None)
        ok = job is not None and not any(a < y and x < b for x, y in found.get(job, ()))
        if ok:
            try:
                ok = pq.read_metadata(p).num_rows == b - a
            except Exception:       # noqa: BLE001 - an unreadable chunk is played again
                ok = False
        if ok:
            found.setdefault(job, []).append((a, b))
        else:
            p.unlink(missing_ok=True)
    return found


def _missing(job, saved) -> list[tuple[int, int, int]]:
    """The game ranges of ``job`` not in ``saved`` (sorted, disjoint), as jobs."""
    arm, lo, hi = job
    out, at = [], lo
    for a, b in sorted(saved):
        if a > at:
            out.append((arm, at, a))
        at = max(at, b)
    if at < hi:
        out.append((arm, at, hi))
    return out


def _inspect_folder(out: Path, spec, resume: bool, overwrite: bool) -> tuple:
    """Check the folder against the study without changing it.

    Returns (spec, chunk size, manifest to write or None).  With ``resume`` and no spec given,
    the folder's own study is used; with ``overwrite`` a study already there is ignored (it is
    deleted later by :func:`_commit_folder`).
    """
    manifest_path = out / MANIFEST
    if manifest_path.exists() and not overwrite:
        if not resume:
            raise StudyError(f"{out} already holds a study ({MANIFEST}): pass --resume to "
                             f"complete it, --overwrite to start again, or choose another folder")
        try:
            manifest = json.loads(manifest_path.read_text())
            saved = StudySpec.from_dict(manifest["spec"], where=f"{out}/{MANIFEST}")
            chunk = int(manifest["chunk_size"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise StudyError(f"{manifest_path}: unreadable study record ({e})") from None
        if spec is not None and spec.identity() != saved.identity():
            a, b = spec.identity(), saved.identity()
            diff = [k for k in a if a[k] != b[k]]
            raise StudyError(f"{out} holds a different study (it differs in: "
                             f"{', '.join(diff)}); resume it as it was, or use another folder")
        return saved, chunk, None
    if spec is None:
        raise StudyError(f"{out}: no study to resume here (no {MANIFEST})")
    if not overwrite and any(_CHUNK_RE.match(p.name) for p in (out / CHUNKS).glob("*")):
        raise StudyError(f"{out / CHUNKS} holds chunks of an unknown study; "
                         f"pass --overwrite or choose another folder")
    chunk = spec.chunk_size or default_chunk_size(spec)
    manifest = {"format": FORMAT_VERSION, "duel_version": _version(), "chunk_size": chunk,
                "spec": spec.to_dict()}
    return spec, chunk, manifest


def _move_aside(out: Path) -> None:
    """Move the study in ``out`` into ``out/previous-study`` (deleted once the new study has
    finished).  If that folder is already there, an earlier --overwrite never finished: the
    old results are in it, and what is in ``out`` is that unfinished study, deleted."""
    present = [n for n in _STUDY_FILES if (out / n).exists()]
    if not present:
        return
    old = out / PREVIOUS
    if old.is_dir():
        for n in present:
            p = out / n
            shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
        return
    tmp = out / (PREVIOUS + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    for n in present:
        os.replace(out / n, tmp / n)
    os.replace(tmp, old)


def _commit_folder(out: Path, manifest: dict | None, overwrite: bool) -> None:
    """Move an old study aside (``overwrite``), record the new one (``manifest``), make sure
    the chunk folder exists."""
    if manifest is not None and overwrite:
        _move_aside(out)
    (out / CHUNKS).mkdir(parents=True, exist_ok=True)
    if manifest is None:
        return
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2) + "\n")
    os.replace(tmp, out / MANIFEST)


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("duel")
    except Exception:       # noqa: BLE001 - running from a source tree
        return "source"


# --------------------------------------------------------------------------------------------
# Backends: submit(job) -> handle; wait(handles, timeout) -> done handles; result(handle)

def _worker_sigint(signum, frame):
    """Ctrl-C in a worker process (the terminal sends it to the whole process group): stop
    the chunk under way, which returns the games it finished."""
    _STOP.set()
    stop_core()


def _worker_init():
    signal.signal(signal.SIGINT, _worker_sigint)


class _FuturesBackend:
    """Local workers: threads when both agents run inside the core (it releases the GIL),
    processes otherwise (Python agents hold the GIL)."""

    def __init__(self, workers: int, processes: bool):
        import concurrent.futures as cf
        import multiprocessing as mp
        self._cf = cf
        self.capacity = workers
        self.kind = "processes" if processes else "threads"
        if processes:
            self.pool = cf.ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn"),
                                               initializer=_worker_init)
        else:
            self.pool = cf.ThreadPoolExecutor(workers, thread_name_prefix="duel-study")

    def submit(self, job):
        return self.pool.submit(_play_chunk, job)

    def wait(self, handles, timeout):
        done, _ = self._cf.wait(handles, timeout=timeout,
                                return_when=self._cf.FIRST_COMPLETED)
        return list(done)

    @staticmethod
    def ready(handle):
        return handle.done()

    @staticmethod
    def result(handle):
        return handle.result()

    def cancel_queued(self, handles):
        for h in handles:
            h.cancel()              # a chunk under way is stopped by stop_workers

    def stop_workers(self):
        """Ask the chunks under way to stop (threads share the stop flags; processes get
        SIGINT, which their handler turns into the same flags)."""
        processes = getattr(self.pool, "_processes", None) or {}
        for proc in list(processes.values()):
            try:
                os.kill(proc.pid, signal.SIGINT)
            except (OSError, AttributeError):
                pass

    def abandon(self, handles):
        self.cancel_queued(handles)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def close(self):
        self.pool.shutdown(wait=False, cancel_futures=True)

    @property
    def lost_worker_errors(self):
        from concurrent.futures.process import BrokenProcessPool
        return (BrokenProcessPool,)


def _probe(address: str) -> None:
    """Fail fast (one line) if nothing answers at a Ray address host:port."""
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise StudyError(f"Ray address {address!r}: expected 'auto', host:port or "
                         f"ray://host:port")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=5):
            pass
    except OSError as e:
        raise StudyError(f"cannot reach the Ray cluster at {address}: "
                         f"{e.strerror or e.__class__.__name__}") from None


class _RayBackend:
    """A Ray cluster: ``address`` None starts a local Ray instance (unless this process is
    already connected to one), 'auto' joins the running cluster, host:port that one."""

    def __init__(self, workers: int | None, address: str | None, cpus_per_task: int):
        try:
            import ray
        except ImportError:
            raise StudyError("the Ray backend needs Ray: pip install ray (or, in the duel "
                             "checkout, pip install '.[ray]')") from None
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address not in (None, "auto"):
                _probe(address)
            kwargs = dict(include_dashboard=False, log_to_driver=False,
                          logging_level="ERROR")
            if address is None:
                kwargs["num_cpus"] = workers or _cpu_count()
            else:
                kwargs["address"] = address
            try:
                ray.init(**kwargs)
            except Exception as e:      # noqa: BLE001 - ConnectionError, RuntimeError...
                msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise StudyError(f"cannot reach the Ray cluster at {address or 'local'}: "
                                 f"{msg}") from None
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.capacity = max(1, cpus // cpus_per_task)
        self.kind = f"ray ({cpus} CPUs)"
        self.remote = ray.remote(num_cpus=cpus_per_task, max_retries=3)(_play_chunk)

    def submit(self, job):
        return self.remote.remote(job)

    def wait(self, handles, timeout):
        done, _ = self.ray.wait(handles, num_returns=1, timeout=timeout)
        if done:    # take every other finished one too
            more, _ = self.ray.wait(handles, num_returns=len(handles), timeout=0)
            done = list({*done, *more})
        return done

    def ready(self, handle):
        done, _ = self.ray.wait([handle], timeout=0)
        return bool(done)

    def result(self, handle):
        return self.ray.get(handle)

    def cancel_queued(self, handles):
        """Ray does not tell queued tasks from running ones: let them all finish."""

    def stop_workers(self):
        """Ray tasks run elsewhere: the chunks under way finish (Ctrl-C again abandons)."""

    def abandon(self, handles):
        for h in handles:
            try:
                self.ray.cancel(h, force=True)
            except Exception:       # noqa: BLE001 - already finished
                pass

    def close(self):
        if self.started:
            self.ray.shutdown()

    @property
    def lost_worker_errors(self):
        from ray.exceptions import RayError
        return (RayError,)


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# --------------------------------------------------------------------------------------------
# Running

class _Progress:
    """A rich progress bar on stderr: games done, games per second, ETA."""

    def __init__(self, enabled: bool, total: int, done: int, console=None):
        self.bar = None
        self.t0 = time.perf_counter()
        self.done0 = done
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        self.bar = Progress(TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(),
                            console=console or Console(stderr=True))
        self.task = self.bar.add_task("games", total=total, completed=done, rate="")
        self.bar.start()

    def advance(self, k: int, done: int) -> None:
        if self.bar is None:
            return
        rate = (done - self.done0) / max(time.perf_counter() - self.t0, 1e-9)
        self.bar.update(self.task, advance=k, rate=f"{rate:,.1f} games/s")

    def say(self, text: str) -> None:
        if self.bar is not None:
            self.bar.console.print(text, highlight=False)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _needs_processes(spec: StudySpec) -> bool:
    return not (parse_agent(spec.p1).batchable and parse_agent(spec.p2).batchable)


def _cpus_per_task(spec: StudySpec) -> int:
    return max(getattr(parse_agent(d), "threads", 1) for d in (spec.p1, spec.p2))


def run_study(spec_or_path, out_dir, *, workers: int | None = None, backend: str = "local",
              address: str | None = None, resume: bool = False, overwrite: bool = False,
              csv: bool = False, plots: bool = True, progress: bool = False, console=None,
              executor: str = "auto", max_chunks: int | None = None) -> StudyResult:
    """Run (or resume) a study and write its data, report and plots in ``out_dir``.

    Parameters
    ----------
    spec_or_path : StudySpec, dict, str or Path, or None
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
        Delete a study already in ``out_dir`` and start again.
    csv : bool
        Also write ``games.csv``.
    plots : bool
        Write the PNG plots (and link them from the report).
    progress : bool
        Show a rich progress bar (games done, games/s, ETA) on stderr.
    console : rich.console.Console, optional
        Where the progress bar goes.
    executor : {"auto", "threads", "processes"}
        Local backend: threads (the core's batch runner releases the GIL), processes, or
        threads exactly when both agents run inside the core.
    max_chunks : int, optional
        Play at most this many chunks in this call, then stop as if interrupted.

    Returns
    -------
    StudyResult
        ``(games, report)``: the per-game DataFrame (see :func:`read_games`; rows = games per
        arm x arms) and the :class:`duelpy.study.report.StudyReport`.

    Raises
    ------
    StudyError
        Before any game is played: a bad study, output folder, backend, worker count or Ray
        address, or a folder holding a different study.
    StudyInterrupted
        The study stopped early (Ctrl-C, a worker that died, ``max_chunks``); every finished
        chunk is kept.
    """
    from duelpy.study import report as study_report

    # ---- validate everything before any game
    spec = None if spec_or_path is None else load_spec(spec_or_path)
    if backend not in ("local", "ray"):
        raise StudyError(f"backend must be 'local' or 'ray', not {backend!r}"
                         f"{_close(backend, ('local', 'ray'))}")
    if executor not in ("auto", "threads", "processes"):
        raise StudyError(f"executor must be 'auto', 'threads' or 'processes', not {executor!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= 4096):
        raise StudyError(f"workers must be an integer from 1 to 4,096, not {workers!r}")
    if max_chunks is not None:
        _int(max_chunks, "max_chunks", 0, 10**9)
    if address is not None:
        if backend != "ray":
            raise StudyError("a Ray address needs the Ray backend (--backend ray)")
        if not isinstance(address, str) or not address.strip():
            raise StudyError(f"Ray address must be 'auto' or host:port, not {address!r}")
        address = address.strip()
        if address != "auto":
            _probe(address)
    if spec is None and not resume:
        raise StudyError("no study given: pass a study file or options")
    out = Path(out_dir).expanduser()
    created = not out.exists()
    if spec is None and not (out / MANIFEST).exists():     # before creating anything
        raise StudyError(f"{out}: no study to resume here (no {MANIFEST})")
    _check_out_dir(out)
    spec, chunk, manifest = _inspect_folder(out, spec, resume, overwrite)

    jobs = _jobs(spec, chunk)
    total = spec.total_games
    games_path = out / GAMES_FILE
    table = None
    if manifest is None and games_path.exists():       # resuming a finished study
        try:
            t = pd.read_parquet(games_path)
            table = t if len(t) == total else None
        except Exception:       # noqa: BLE001 - rebuilt from the chunks
            table = None
    if table is None:
        saved = {} if manifest is not None else _chunk_files(out, spec, chunk)
        todo = deque(part for j in jobs for part in _missing(j, saved.get(j, ())))
        done = sum(b - a for ranges in saved.values() for a, b in ranges)
        try:                                      # the Ray connection is checked here
            runner = _make_backend(spec, backend, workers, address, executor, len(todo)) \
                if todo else None
        except StudyError:
            if created:                           # leave no trace of a study never begun
                shutil.rmtree(out, ignore_errors=True)
            raise
        try:
            _commit_folder(out, manifest, overwrite)
            if todo:
                _play(spec, out, runner, todo, done, total, max_chunks, progress, console)
        finally:
            if runner is not None:
                runner.close()
        table = _combine(out, spec, chunk)
        _write_parquet(table, games_path)
    shutil.rmtree(out / CHUNKS, ignore_errors=True)
    df = _finish_table(table, spec)
    if csv:
        tmp = out / ".games.csv.tmp"
        df.to_csv(tmp, index=False)
        os.replace(tmp, out / "games.csv")
    report = study_report.build_report(df, spec)
    if plots:
        from duelpy.study import plots as study_plots
        report.plots = study_plots.write_plots(report, df, out / "plots")
    report.write(out)
    shutil.rmtree(out / PREVIOUS, ignore_errors=True)     # the study this one replaced
    return StudyResult(df, report)


def _make_backend(spec, backend, workers, address, executor, n_chunks):
    if backend == "ray":
        return _RayBackend(workers, address, _cpus_per_task(spec))
    n = workers or _cpu_count()
    procs = executor == "processes" or (executor == "auto" and _needs_processes(spec))
    return _FuturesBackend(max(1, min(n, n_chunks)), procs)


def _play(spec, out, runner, todo, done, total, max_chunks, progress, console):
    """Play the chunks in ``todo`` on ``runner`` and write each one as it finishes.

    Raises StudyInterrupted (after saving every finished chunk) on Ctrl-C, a lost worker or
    when ``max_chunks`` chunks have been played.
    """
    games_done = done
    bar = _Progress(progress, total, games_done, console)
    where = runner.kind if runner.kind.startswith("ray") else f"{runner.capacity} {runner.kind}"
    bar.say(f"playing {total - done:,} games in {len(todo):,} chunks on {where}: Ctrl-C stops "
            f"and keeps every finished game")
    _STOP.clear()
    clear_core()
    inflight: dict = {}
    played = submitted = 0
    limit = math.inf if max_chunks is None else max_chunks
    cap = 2 * runner.capacity
    reason = None

    def save(handle):
        nonlocal games_done, played
        arm, lo, hi = inflight.pop(handle)
        raw = runner.result(handle)
        n = len(raw["winner"])              # fewer than hi - lo after a stop
        if n < hi - lo:
            stopped.append((arm, lo + n, hi))
        if n:
            df = chunk_table(spec, arm, lo, lo + n, raw)
            _write_parquet(df, out / CHUNKS / _chunk_name(arm, lo, lo + n))
        games_done += n
        played += n == hi - lo
        bar.advance(n, games_done)

    def harvest():
        """Save whatever has finished; drop chunks that failed (played again on resume)."""
        for h in [h for h in inflight if runner.ready(h)]:
            try:
                save(h)
            except Exception:       # noqa: BLE001
                inflight.pop(h, None)

    stopped: list = []              # chunks that returned early (the stop flags were set)
    try:
        while todo or inflight:
            while todo and len(inflight) < cap and submitted < limit and not stopped:
                arm, lo, hi = job = todo.popleft()
                inflight[runner.submit((spec.p1, spec.p2, spec.seed, lo, hi, spec.alternate,
                                        game_options(spec.arm_options(arm))))] = job
                submitted += 1
            if not inflight:
                break
            for h in runner.wait(list(inflight), timeout=0.2):
                save(h)
        if stopped:
            reason = "stopped by the search stop flag"
        elif todo:
            reason = f"stopped after {played} chunks (max_chunks)"
    except KeyboardInterrupt:
        reason = "Ctrl-C"
        _STOP.set()                 # chunks under way stop: at once with the core's stop
        stop_core()                 # flag, else at their next decision or their end
        runner.stop_workers()
        runner.cancel_queued(list(inflight))
        bar.say("[yellow]stopping: saving the games finished (Ctrl-C again abandons them)")
        try:        # the chunks under way finish and are saved; Ctrl-C again abandons them
            deadline = time.monotonic() + 120
            while inflight and time.monotonic() < deadline:
                harvest()
                if inflight:
                    time.sleep(0.05)
        except KeyboardInterrupt:
            harvest()
    except runner.lost_worker_errors as e:
        reason = f"a worker died ({type(e).__name__})"
        harvest()
    finally:
        bar.stop()
        if reason is not None:
            runner.abandon(list(inflight))
        _STOP.clear()
        clear_core()
    if reason is not None:
        raise StudyInterrupted(reason, games_done, total, out)


def _combine(out: Path, spec: StudySpec, chunk: int) -> pd.DataFrame:
    """Concatenate every chunk file of the study (every game must be there)."""
    saved = _chunk_files(out, spec, chunk)
    parts = []
    for job in _jobs(spec, chunk):
        if _missing(job, saved.get(job, ())):
            raise StudyError(f"{out / CHUNKS}: games {job[1]}..{job[2] - 1} of arm {job[0]} "
                             f"are missing; resume the study to play them")
        for a, b in sorted(saved[job]):
            parts.append(pd.read_parquet(out / CHUNKS / _chunk_name(job[0], a, b)))
    df = pd.concat(parts, ignore_index=True)
    df["victory"] = pd.Categorical(df["victory"].astype(str),
                                   categories=["civilian", "military", "scientific", "shared"])
    return _finish_table(df, spec)
