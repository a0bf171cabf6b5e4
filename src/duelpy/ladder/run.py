"""A rating ladder: a round robin between agents, rated by a Bradley–Terry fit (Elo).

Every pair of agents (a *pairing*) plays ``games`` games on the same seeds.  Game ``g`` of every
pairing has the seed ``match.game_seeds(seed, ...)[g // 2]`` and the pairing's first agent sits
in P1's seat (P1 begins) when ``g`` is even, so each seed is played twice with the seats
swapped (an odd ``games`` leaves the last seed played once).  With a budget (``seconds`` or
``iterations``) every search agent gets the same budget per decision; agents that search
nothing (``random``, ``greedy``) ignore it.

The games are played by the machinery of :mod:`duelpy.study.run`: the core's batch runner
(:func:`duelpy.duel.match.play_games_raw`) in chunks on local threads or processes or on Ray;
each finished chunk is written atomically as Parquet, so an interrupted ladder keeps its
finished games and ``resume=True`` plays only the missing chunks.  The games do not depend on
the backend, the number of workers or the chunk size.

Ratings (:func:`fit_ratings`) are the maximum-likelihood Bradley–Terry strengths on the Elo
scale, P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400)); a shared victory counts half a win
to each side, and every pairing gets one virtual shared game (a weak prior that keeps a
rating finite when one agent wins every game).  The 95% intervals are Wald intervals from the
observed Fisher information of that fit.  The scale is anchored at ``random = 0`` when
``random`` is on the ladder, otherwise at a mean of 1500.

Output folder::

    ladder.json         the validated ladder (and the chunk sizes): what resume completes
    chunks/             one Parquet file per finished chunk while the ladder runs
    games.parquet       one row per game
    ratings.csv         the ratings (see fit_ratings)
    head_to_head.csv    every agent's score against every other (see head_to_head)
    ladder.md           both tables in Markdown
    ladder.png          ratings with their intervals and the head-to-head matrix
"""
from __future__ import annotations

import json
import math
import os
import shutil
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import optimize, stats

from duelpy.study import run as _study
from duelpy.base.interrupt import clear_core, stop_core
from duelpy.duel.agents import AgentSpecError, parse_agent
from duelpy.duel.match import game_seeds, play_games_raw, results_table

__all__ = ["LadderError", "LadderInterrupted", "LadderResult", "LadderSpec", "run_ladder",
           "fit_ratings", "head_to_head", "head_to_head_matrix", "read_ladder", "write_plot"]

FORMAT_VERSION = 1
MANIFEST = "ladder.json"
CHUNKS = "chunks"
GAMES_FILE = "games.parquet"
RATINGS_FILE = "ratings.csv"
H2H_FILE = "head_to_head.csv"
TABLE_FILE = "ladder.md"
PLOT_FILE = "ladder.png"

#: Elo points per unit of natural log-odds.
ELO_PER_NAT = 400 / math.log(10)
_Z95 = float(stats.norm.ppf(0.975))
_MAX_SEED = 2**64 - 1
_BUDGET_KEYS = ("seconds", "iterations")


class LadderError(ValueError):
    """A ladder that cannot be run: bad agents, games, budget, seed, output folder, backend
    or Ray cluster.  The message is one line and names the culprit."""


class LadderInterrupted(RuntimeError):
    """The ladder stopped before its last game (Ctrl-C, a worker that died, ``max_chunks``).

    With an output folder every finished chunk is on disk, and ``run_ladder(..., resume=True)``
    (``duel ladder --resume``) completes the ladder without replaying them.

    Attributes: ``reason`` (str), ``done`` and ``total`` (games), ``out_dir`` (Path or None),
    ``games`` (DataFrame of the finished games, in the layout of :func:`run_ladder`).
    """

    def __init__(self, reason: str, done: int, total: int, out_dir, games: pd.DataFrame):
        self.reason, self.done, self.total = reason, done, total
        self.out_dir = None if out_dir is None else Path(out_dir)
        self.games = games
        kept = f"kept in {self.out_dir}; resume to complete it" if out_dir is not None \
            else "not saved (no output folder)"
        super().__init__(f"ladder interrupted ({reason}): {done:,} of {total:,} games {kept}")


class LadderResult(NamedTuple):
    """What :func:`run_ladder` returns: ``games`` (one row per game) and ``ratings``
    (one row per agent, best first; see :func:`fit_ratings`)."""

    games: pd.DataFrame
    ratings: pd.DataFrame


# --------------------------------------------------------------------------------------------
# The ladder description

def _spec_keys(text: str) -> list[str]:
    """The option keys written in an agent spec ``name:key=value,...`` (lower case)."""
    _, _, rest = text.partition(":")
    return [p.partition("=")[0].strip().lower() for p in rest.split(",") if p.strip()]


def _with_option(text: str, key: str, value) -> str:
    text = text.strip()
    name, colon, rest = text.partition(":")
    rest = rest.strip().strip(",")
    return f"{name}:{rest + ',' if rest else ''}{key}={value}"


def _check_budget(seconds, iterations):
    if seconds is not None and iterations is not None:
        raise LadderError("give either seconds or iterations per move, not both")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or not math.isfinite(seconds) or not 0 < seconds <= 3600:
            raise LadderError(f"seconds per move must be a number in (0, 3600], not {seconds!r}")
        return "seconds", float(seconds)
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) \
                or not 1 <= iterations <= 100_000_000:
            raise LadderError(f"iterations per move must be an integer from 1 to "
                              f"100,000,000, not {iterations!r}")
        return "iterations", int(iterations)
    return None, None


def resolve_agents(agents, seconds=None, iterations=None) -> list[tuple[str, str, bool]]:
    """The ladder's agents with the budget applied: ``[(spec, name, budgeted), ...]``.

    ``spec`` is the description the games are played with, ``name`` the agent's own name
    (the key of every table) and ``budgeted`` whether the budget was given to it (False for
    agents that take none, such as ``random`` and ``greedy``).

    Raises
    ------
    LadderError
        Fewer than 2 agents, an unknown or malformed agent, an agent given twice (two specs
        with the same name), a spec that has its own budget when a ladder budget is given,
        or a bad budget.
    """
    key, value = _check_budget(seconds, iterations)
    if isinstance(agents, str) or not isinstance(agents, (list, tuple)):
        raise LadderError("agents must be a list of agent descriptions like "
                          "['random', 'greedy', 'mcts:iterations=200']")
    if len(agents) < 2:
        raise LadderError(f"a ladder needs at least 2 agents, got {len(agents)}")
    out, seen = [], {}
    for text in agents:
        if not isinstance(text, str):
            raise LadderError(f"an agent is a description like 'mcts:iterations=200', "
                              f"not {type(text).__name__}")
        text = " ".join(text.split())
        try:
            agent = parse_agent(text)
        except AgentSpecError as e:
            msg = str(e).removeprefix(f"{text!r}: ")    # some errors quote the text already
            raise LadderError(f"agent {text!r}: {msg}") from None
        spec, budgeted = text, False
        if key is not None:
            own = [k for k in _spec_keys(text) if k in _BUDGET_KEYS]
            if own:
                raise LadderError(f"agent {text!r} has its own budget ({own[0]}); with "
                                  f"--{key} every search agent gets the same one: drop it "
                                  f"from the agent or drop --{key}")
            try:
                agent = parse_agent(_with_option(text, key, value))
                spec, budgeted = _with_option(text, key, value), True
            except AgentSpecError:
                pass                    # the agent takes no budget (random, greedy)
        name = agent.name
        if name in seen:
            same = "" if seen[name] == text else f" (as {seen[name]!r} and {text!r})"
            raise LadderError(f"agent {name!r} is given twice{same}; each agent plays "
                              f"once on a ladder")
        seen[name] = text
        out.append((spec, name, budgeted))
    return out


@dataclass(frozen=True)
class LadderSpec:
    """A validated ladder.

    Attributes
    ----------
    agents : tuple of str
        The agents' descriptions as played (the budget applied).
    names : tuple of str
        The agents' names (the key of every table).
    games : int
        Games per pairing (every pair of agents), >= 1.
    seed : int
        Base seed, 0 .. 2**64 - 1.
    seconds, iterations : float or int or None
        The budget per decision given to every search agent (at most one of them).
    budgeted : tuple of bool
        Whether each agent took the budget.
    """

    agents: tuple
    names: tuple
    games: int
    seed: int = 0
    seconds: float | None = None
    iterations: int | None = None
    budgeted: tuple = ()

    @classmethod
    def build(cls, agents, games, seed=0, seconds=None, iterations=None) -> "LadderSpec":
        """Validate the arguments of :func:`run_ladder`; LadderError (one line) otherwise."""
        resolved = resolve_agents(agents, seconds, iterations)
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 10**9:
            raise LadderError(f"games per pairing must be an integer from 1 to "
                              f"1,000,000,000, not {games!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED:
            raise LadderError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        key, value = _check_budget(seconds, iterations)
        return cls(agents=tuple(r[0] for r in resolved), names=tuple(r[1] for r in resolved),
                   games=games, seed=seed,
                   seconds=value if key == "seconds" else None,
                   iterations=value if key == "iterations" else None,
                   budgeted=tuple(r[2] for r in resolved))

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """(i, j) with i < j for every pair of agents, in order."""
        k = len(self.agents)
        return [(i, j) for i in range(k) for j in range(i + 1, k)]

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    @property
    def budget(self) -> str:
        """'0.1 s per move', '200 iterations per move' or 'as given per agent'."""
        if self.seconds is not None:
            return f"{self.seconds:g} s per move"
        if self.iterations is not None:
            return f"{self.iterations:,} iterations per move"
        return "as given per agent"

    def to_dict(self) -> dict:
        return {"agents": list(self.agents), "games": self.games, "seed": self.seed,
                "seconds": self.seconds, "iterations": self.iterations}

    @classmethod
    def from_dict(cls, d: dict) -> "LadderSpec":
        # the agents were saved with the budget applied: rebuild from the saved specs as they
        # are, then restore the budget fields
        base = cls.build(list(d["agents"]), d["games"], d.get("seed", 0))
        key, value = _check_budget(d.get("seconds"), d.get("iterations"))
        return cls(agents=base.agents, names=base.names, games=base.games, seed=base.seed,
                   seconds=value if key == "seconds" else None,
                   iterations=value if key == "iterations" else None,
                   budgeted=tuple(key is not None and key in _spec_keys(a)
                                  for a in base.agents))


# --------------------------------------------------------------------------------------------
# Seeds, chunks and workers

def ladder_seeds(seed: int, lo: int, hi: int) -> np.ndarray:
    """Seeds of games ``lo .. hi - 1`` of every pairing: game g has
    ``game_seeds(seed, ...)[g // 2]`` (uint64 array of hi - lo)."""
    k = np.arange(lo, hi) // 2
    base = game_seeds(seed, int(k[-1] - k[0] + 1), start=int(k[0]))
    return base[k - k[0]]


def _swap(lo: int, hi: int) -> np.ndarray:
    """True where the pairing's second agent sits in P1's seat (odd games)."""
    return np.arange(lo, hi) % 2 == 1


def _play_ladder_chunk(job: tuple) -> dict:
    """Worker: games ``lo .. hi - 1`` of the pairing (a, b).  ``job`` = (a, b, seed, lo, hi);
    returns the core's arrays (see :func:`duelpy.duel.match.play_games_raw`)."""
    a, b, seed, lo, hi = job
    return play_games_raw(parse_agent(a), parse_agent(b), ladder_seeds(seed, lo, hi),
                          _swap(lo, hi), {})


def _decision_cost(agent) -> float:
    """Rough seconds of one core per decision (for the default chunk sizes)."""
    seconds = getattr(agent, "seconds", None)
    if isinstance(seconds, (int, float)) and seconds > 0:
        return float(seconds)
    iterations = getattr(agent, "iterations", None)
    if isinstance(iterations, int) and iterations > 0:
        return iterations / 100_000 * (3 if getattr(agent, "rollout", "") == "greedy" else 1)
    if getattr(agent, "kind", None) in ("random", "greedy"):
        return 3e-6
    return 0.01


def default_chunk_sizes(spec: LadderSpec) -> list[int]:
    """Games per chunk of each pairing: about 5 s of one core, at most 5,000 and at most 1/8
    of the pairing's games, at least 1."""
    agents = [parse_agent(a) for a in spec.agents]
    out = []
    for i, j in spec.pairings:
        cost = 35 * (_decision_cost(agents[i]) + _decision_cost(agents[j])) + 1e-4
        out.append(max(1, min(5000, math.ceil(spec.games / 8), int(5.0 / cost))))
    return out


def _jobs(spec: LadderSpec, chunks: list[int]) -> list[tuple[int, int, int]]:
    """(pairing, lo, hi) of every chunk, ordered by first game so that every pairing
    advances together."""
    jobs = [(p, lo, min(spec.games, lo + chunks[p]))
            for p in range(len(spec.pairings)) for lo in range(0, spec.games, chunks[p])]
    return sorted(jobs, key=lambda j: (j[1], j[0]))


def _chunk_name(pairing: int, lo: int, hi: int) -> str:
    return f"pair{pairing:03d}-{lo:010d}-{hi:010d}.parquet"


def chunk_table(spec: LadderSpec, pairing: int, lo: int, hi: int, raw: dict) -> pd.DataFrame:
    """The rows of games ``lo .. hi - 1`` of one pairing from the core's arrays."""
    i, j = spec.pairings[pairing]
    a, b = spec.names[i], spec.names[j]
    swap = _swap(lo, hi)
    p1 = np.where(swap, b, a).astype(object)
    p2 = np.where(swap, a, b).astype(object)
    df = results_table(raw, ladder_seeds(spec.seed, lo, hi), p1, p2).reset_index(drop=True)
    df.insert(0, "game", np.arange(lo, hi, dtype=np.int64))
    df.insert(0, "agent_b", b)
    df.insert(0, "agent_a", a)
    df.insert(0, "pairing", np.int16(pairing))
    return df


def _finish_table(df: pd.DataFrame) -> pd.DataFrame:
    df = df.sort_values(["pairing", "game"], kind="stable").reset_index(drop=True)
    df["victory"] = pd.Categorical(df["victory"].astype(str),
                                   categories=["civilian", "military", "scientific", "shared"])
    return df


class _FuturesBackend(_study._FuturesBackend):
    """duel study's local threads/processes, playing ladder chunks."""

    def submit(self, job):
        return self.pool.submit(_play_ladder_chunk, job)


class _RayBackend(_study._RayBackend):
    """duel study's Ray backend, playing ladder chunks."""

    def __init__(self, workers, address, cpus_per_task):
        super().__init__(workers, address, cpus_per_task)
        self.remote = self.ray.remote(num_cpus=cpus_per_task, max_retries=3)(_play_ladder_chunk)


def _make_backend(spec, backend, workers, address, executor, n_chunks):
    agents = [parse_agent(a) for a in spec.agents]
    try:
        if backend == "ray":
            cpus = max(int(getattr(a, "threads", 1) or 1) for a in agents)
            return _RayBackend(workers, address, cpus)
    except _study.StudyError as e:
        raise LadderError(str(e)) from None
    n = workers or _study._cpu_count()
    procs = executor == "processes" or (
        executor == "auto" and not all(getattr(a, "batchable", False) for a in agents))
    return _FuturesBackend(max(1, min(n, n_chunks)), procs)


# --------------------------------------------------------------------------------------------
# Output folder

def _read_manifest(out: Path):
    try:
        m = json.loads((out / MANIFEST).read_text())
        return LadderSpec.from_dict(m["spec"]), [int(c) for c in m["chunk_sizes"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise LadderError(f"{out / MANIFEST}: unreadable ladder record "
                          f"({e.__class__.__name__}: {e})") from None


def _inspect_folder(out: Path, spec, resume: bool, overwrite: bool, chunk_size):
    """(spec, chunk sizes, manifest to write or None); nothing is changed on disk."""
    if (out / MANIFEST).exists() and not overwrite:
        if not resume:
            raise LadderError(f"{out} already holds a ladder ({MANIFEST}): pass --resume to "
                              f"complete it, --overwrite to start again, or choose another "
                              f"folder")
        saved, chunks = _read_manifest(out)
        if spec is not None and spec.to_dict() != saved.to_dict():
            a, b = spec.to_dict(), saved.to_dict()
            diff = [k for k in a if a[k] != b[k]]
            raise LadderError(f"{out} holds a different ladder (it differs in: "
                              f"{', '.join(diff)}); resume it as it was, or use another "
                              f"folder")
        return saved, chunks, None
    if spec is None:
        raise LadderError(f"{out}: no ladder to resume here (no {MANIFEST})")
    if not overwrite and any((out / CHUNKS).glob("pair*.parquet")):
        raise LadderError(f"{out / CHUNKS} holds chunks of an unknown ladder; pass "
                          f"--overwrite or choose another folder")
    chunks = [chunk_size] * len(spec.pairings) if chunk_size else default_chunk_sizes(spec)
    manifest = {"format": FORMAT_VERSION, "duel_version": _study._version(),
                "chunk_sizes": chunks, "spec": spec.to_dict(), "names": list(spec.names)}
    return spec, chunks, manifest


def _commit_folder(out: Path, manifest, overwrite: bool) -> None:
    if manifest is not None and overwrite:
        for name in (MANIFEST, GAMES_FILE, RATINGS_FILE, H2H_FILE, TABLE_FILE, PLOT_FILE):
            (out / name).unlink(missing_ok=True)
        shutil.rmtree(out / CHUNKS, ignore_errors=True)
    (out / CHUNKS).mkdir(parents=True, exist_ok=True)
    if manifest is not None:
        tmp = out / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=2) + "\n")
        os.replace(tmp, out / MANIFEST)


def _existing_chunks(out: Path, jobs) -> set:
    """The chunks on disk that belong to this ladder and are whole (others are removed)."""
    import pyarrow.parquet as pq
    valid = {_chunk_name(*j): j for j in jobs}
    found = set()
    if not (out / CHUNKS).is_dir():
        return found
    for p in (out / CHUNKS).iterdir():
        job = valid.get(p.name)
        ok = job is not None
        if ok:
            try:
                ok = pq.read_metadata(p).num_rows == job[2] - job[1]
            except Exception:       # noqa: BLE001 - an unreadable chunk is played again
                ok = False
        if ok:
            found.add(job)
        elif p.name.startswith(".") or p.name.startswith("pair"):
            p.unlink(missing_ok=True)
    return found


# --------------------------------------------------------------------------------------------
# Running

def run_ladder(agents=None, games: int | None = None, *, seconds: float | None = None,
               iterations: int | None = None, seed: int = 0, workers: int | None = None,
               backend: str = "local", address: str | None = None, out_dir=None,
               resume: bool = False, overwrite: bool = False, chunk_size: int | None = None,
               anchor: str = "auto", plot: bool = True, progress: bool = False,
               console=None, executor: str = "auto",
               max_chunks: int | None = None) -> LadderResult:
    """Play a round robin between ``agents`` and rate them (Bradley–Terry, Elo scale).

    Parameters
    ----------
    agents : list of str
        Agent descriptions (``"random"``, ``"greedy"``, ``"mcts:iterations=200"``), at least
        2, no two with the same name.  None with ``resume=True``: the ladder in ``out_dir``.
    games : int
        Games per pairing (>= 1); every pairing plays the same seeds, each twice with the
        seats swapped.
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
        Complete the ladder already in ``out_dir`` / delete it and start again.
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

    Returns
    -------
    LadderResult
        ``(games, ratings)``.  ``games``: one row per game, sorted by pairing and game, with
        ``pairing`` (index), ``agent_a``, ``agent_b`` (the pairing's agents; ``agent_a`` sits
        in P1's seat in even games), ``game`` (index in the pairing) and the columns of
        :func:`duelpy.duel.match.play_match` (seed, p1, p2, winner, winner_agent, victory, VP...).
        ``ratings``: see :func:`fit_ratings`.

    Raises
    ------
    LadderError
        Before any game: bad agents, games, budget, seed, workers, backend, anchor, output
        folder or Ray address; a folder holding another ladder.
    LadderInterrupted
        The ladder stopped early (Ctrl-C, a worker that died, ``max_chunks``); finished chunks
        are kept on disk (with ``out_dir``) and in the exception's ``games``.
    """
    # ---- validate everything before any game
    if backend not in ("local", "ray"):
        raise LadderError(f"backend must be 'local' or 'ray', not {backend!r}")
    if executor not in ("auto", "threads", "processes"):
        raise LadderError(f"executor must be 'auto', 'threads' or 'processes', "
                          f"not {executor!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= 4096):
        raise LadderError(f"workers must be an integer from 1 to 4,096, not {workers!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or
                                   not isinstance(chunk_size, int) or chunk_size < 1):
        raise LadderError(f"chunk_size must be a positive integer, not {chunk_size!r}")
    if max_chunks is not None and (isinstance(max_chunks, bool) or
                                   not isinstance(max_chunks, int) or max_chunks < 0):
        raise LadderError(f"max_chunks must be a non-negative integer, not {max_chunks!r}")
    if address is not None:
        if backend != "ray":
            raise LadderError("a Ray address needs the Ray backend (--backend ray)")
        if not isinstance(address, str) or not address.strip():
            raise LadderError(f"Ray address must be 'auto' or host:port, not {address!r}")
        address = address.strip()
        if address != "auto":
            try:
                _study._probe(address)
            except _study.StudyError as e:
                raise LadderError(str(e)) from None
    if resume and out_dir is None:
        raise LadderError("resume needs the output folder of the ladder (--out)")
    spec = None
    if agents is not None or not resume:
        if games is None:
            raise LadderError("give the number of games per pairing (--games)")
        spec = LadderSpec.build(agents, games, seed, seconds, iterations)
        _anchor_index(anchor, spec.names)
    out = None if out_dir is None else Path(out_dir).expanduser()
    if out is not None:
        if spec is None and not (out / MANIFEST).exists():
            raise LadderError(f"{out}: no ladder to resume here (no {MANIFEST})")
        created = not out.exists()
        try:
            _study._check_out_dir(out)
        except _study.StudyError as e:
            raise LadderError(str(e)) from None
        try:
            spec, chunks, manifest = _inspect_folder(out, spec, resume, overwrite, chunk_size)
        except LadderError:
            if created:
                shutil.rmtree(out, ignore_errors=True)
            raise
        _anchor_index(anchor, spec.names)
    else:
        created = False
        chunks = [chunk_size] * len(spec.pairings) if chunk_size else default_chunk_sizes(spec)
        manifest = None

    jobs = _jobs(spec, chunks)
    table = None
    if out is not None and manifest is None and (out / GAMES_FILE).exists():
        try:                                    # resuming a finished ladder
            t = pd.read_parquet(out / GAMES_FILE)
            table = t if len(t) == spec.total_games else None
        except Exception:       # noqa: BLE001 - rebuilt from the chunks
            table = None
    if table is None:
        done = set() if out is None or manifest is not None else _existing_chunks(out, jobs)
        todo = deque(j for j in jobs if j not in done)
        try:
            runner = _make_backend(spec, backend, workers, address, executor, len(todo)) \
                if todo else None
        except LadderError:
            if created:
                shutil.rmtree(out, ignore_errors=True)
            raise
        parts: dict = {}
        try:
            if out is not None:
                _commit_folder(out, manifest, overwrite)
            if todo:
                _play(spec, out, runner, todo, done, parts, max_chunks, progress, console)
        finally:
            if runner is not None:
                runner.close()
        if out is not None:
            table = pd.concat([pd.read_parquet(out / CHUNKS / _chunk_name(*j)) for j in jobs],
                              ignore_index=True)
        else:
            table = pd.concat([parts[j] for j in jobs], ignore_index=True)
        table = _finish_table(table)
        if out is not None:
            _study._write_parquet(table, out / GAMES_FILE)
    if out is not None:
        shutil.rmtree(out / CHUNKS, ignore_errors=True)
    games_df = _finish_table(table)
    ratings = fit_ratings(games_df, anchor=anchor, agents=list(spec.names))
    ratings.attrs.update(ladder_attrs(spec))
    if out is not None:
        write_tables(games_df, ratings, out, spec, plot=plot)
    return LadderResult(games_df, ratings)


def ladder_attrs(spec: LadderSpec) -> dict:
    """What the ratings' ``attrs`` say about the ladder (shown in the table headers)."""
    return {"games_per_pairing": spec.games, "seed": spec.seed, "budget": spec.budget,
            "unbudgeted": [n for n, b in zip(spec.names, spec.budgeted) if not b]
            if (spec.seconds or spec.iterations) else []}


def _play(spec, out, runner, todo, done, parts, max_chunks, progress, console):
    """Play the chunks in ``todo`` on ``runner``; write each finished one (``out``) or keep
    it in ``parts``.  Raises LadderInterrupted after saving every finished chunk."""
    total = spec.total_games
    games_done = sum(hi - lo for _, lo, hi in done)
    bar = _study._Progress(progress, total, games_done, console)
    inflight: dict = {}
    played = submitted = 0
    limit = math.inf if max_chunks is None else max_chunks
    cap = 2 * runner.capacity
    reason = None

    def save(handle):
        nonlocal games_done, played
        pairing, lo, hi = job = inflight.pop(handle)
        df = chunk_table(spec, pairing, lo, hi, runner.result(handle))
        if out is not None:
            _study._write_parquet(df, out / CHUNKS / _chunk_name(*job))
        parts[job] = df
        games_done += hi - lo
        played += 1
        bar.advance(hi - lo, games_done)

    def harvest():
        for h in [h for h in inflight if runner.ready(h)]:
            try:
                save(h)
            except BaseException:   # noqa: BLE001 - a stopped chunk: played again on resume
                inflight.pop(h, None)

    try:
        while todo or inflight:
            while todo and len(inflight) < cap and submitted < limit:
                pairing, lo, hi = job = todo.popleft()
                i, j = spec.pairings[pairing]
                inflight[runner.submit((spec.agents[i], spec.agents[j], spec.seed,
                                        lo, hi))] = job
                submitted += 1
            if not inflight:
                break
            for h in runner.wait(list(inflight), timeout=0.2):
                save(h)
        if todo:
            reason = f"stopped after {played} chunks (max_chunks)"
    except KeyboardInterrupt:
        reason = "Ctrl-C"
        stop_core()                 # the chunks under way stop at once (the core's flag;
        runner.stop_workers()       # worker processes get SIGINT): played again on --resume
        runner.cancel_queued(list(inflight))
        bar.say("[yellow]stopping: keeping the finished games; the chunks under way are "
                "played again by --resume")
        try:
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
        clear_core()
    if reason is not None:
        kept = _finish_table(pd.concat(list(parts.values()), ignore_index=True)) if parts \
            else pd.DataFrame()
        if out is not None and done:        # chunks of earlier runs count too
            earlier = [pd.read_parquet(out / CHUNKS / _chunk_name(*j)) for j in done]
            kept = _finish_table(pd.concat([*earlier, kept], ignore_index=True))
        raise LadderInterrupted(reason, games_done, total, out, kept)


def read_ladder(out_dir, anchor: str = "auto") -> LadderResult:
    """The games and ratings of a finished ladder folder.

    Raises
    ------
    LadderError
        If the folder holds no finished ladder.
    """
    out = Path(out_dir)
    spec, _ = _read_manifest(out)
    try:
        df = pd.read_parquet(out / GAMES_FILE)
    except (OSError, ValueError) as e:
        raise LadderError(f"{out}: no finished ladder here ({e.__class__.__name__}: {e})") \
            from None
    df = _finish_table(df)
    ratings = fit_ratings(df, anchor=anchor, agents=list(spec.names))
    ratings.attrs.update(ladder_attrs(spec))
    return LadderResult(df, ratings)


# --------------------------------------------------------------------------------------------
# Ratings

def _agents_of(games: pd.DataFrame, agents) -> list[str]:
    if agents is not None:
        return list(agents)
    seen = []
    for a in pd.concat([games["p1"], games["p2"]], ignore_index=True):
        if a not in seen:
            seen.append(a)
    return seen


def _points(games: pd.DataFrame, names: list[str]):
    """W[i, j]: wins of i against j (a shared victory counts 1/2 to each), and the counts of
    wins, shared victories and games of each ordered pair."""
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    try:
        a = games["p1"].map(idx).to_numpy(dtype=int)
        b = games["p2"].map(idx).to_numpy(dtype=int)
    except (ValueError, TypeError):
        unknown = sorted((set(games["p1"]) | set(games["p2"])) - set(names))
        raise ValueError(f"games of agents not on the ladder: {', '.join(unknown)}") from None
    w = games["winner"].to_numpy()
    wins = np.zeros((k, k))
    shared = np.zeros((k, k))
    n = np.zeros((k, k))
    np.add.at(n, (a, b), 1)
    np.add.at(n, (b, a), 1)
    np.add.at(wins, (a[w == 0], b[w == 0]), 1)
    np.add.at(wins, (b[w == 1], a[w == 1]), 1)
    np.add.at(shared, (a[w == -1], b[w == -1]), 1)
    np.add.at(shared, (b[w == -1], a[w == -1]), 1)
    return wins + shared / 2, wins, shared, n


def _anchor_index(anchor, names) -> int | None:
    """None for the mean; the index of the anchored agent otherwise."""
    if anchor == "mean":
        return None
    if anchor in (None, "auto"):
        return names.index("random") if "random" in names else None
    if not isinstance(anchor, str):
        raise LadderError(f"anchor must be 'auto', 'mean' or an agent, not {anchor!r}")
    if anchor in names:
        return list(names).index(anchor)
    try:
        name = parse_agent(anchor).name
    except AgentSpecError:
        name = None
    if name in names:
        return list(names).index(name)
    raise LadderError(f"anchor {anchor!r} is not on the ladder; anchor at 'mean' or one of: "
                      f"{', '.join(names)}")


def fit_ratings(games: pd.DataFrame, anchor: str = "auto", agents=None,
                prior: float = 1.0) -> pd.DataFrame:
    """Bradley–Terry ratings on the Elo scale from a table of games, with 95% intervals.

    The model: P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400)).  The ratings maximise the
    likelihood of the results, where a shared victory counts half a win to each side and
    every pair of agents that met gets ``prior`` virtual shared games (this keeps a rating
    finite when one agent wins every game; its pull is that of ``prior`` games out of the
    pairing's).  The intervals are R ± 1.96 standard errors from the observed Fisher
    information (the inverse Hessian of the negative log-likelihood), under the anchor's
    constraint.

    Parameters
    ----------
    games : DataFrame
        Columns ``p1``, ``p2`` (agent names) and ``winner`` (0 = P1, 1 = P2, -1 shared), as
        written by ``duel ladder``, ``duel simulate`` or ``duel study``.
    anchor : str
        ``"auto"``: ``random`` = 0 when on the ladder, otherwise ``"mean"`` (the mean rating
        is 1500); or an agent's name, whose rating is 0 (its interval then has width 0).
    agents : list of str, optional
        The agents and their order (default: in order of appearance).
    prior : float
        Virtual shared games per pairing (>= 0).

    Returns
    -------
    DataFrame
        One row per agent, best first: ``rank``, ``agent``, ``elo``, ``ci_low``, ``ci_high``,
        ``se`` (Elo), ``games``, ``wins``, ``shared``, ``losses``, ``score`` (points per game,
        a shared victory 1/2).  ``attrs["anchor"]`` says how the scale is anchored
        (``"random = 0"`` or ``"mean = 1500"``) and ``attrs["method"]`` how it was fitted.

    Raises
    ------
    ValueError
        No games, games of agents not in ``agents``, an agent without games, agents that
        never met (directly or through others), or a bad anchor or prior.
    """
    names = _agents_of(games, agents)
    k = len(names)
    if len(games) == 0 or k < 2:
        raise ValueError("no games to rate (at least 2 agents and 1 game)")
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) \
            or not math.isfinite(prior) or prior < 0:
        raise ValueError(f"prior must be a number >= 0, not {prior!r}")
    a_idx = _anchor_index(anchor, names)
    pts, wins, shared, n = _points(games, names)
    played = n.sum(axis=1)
    if (played == 0).any():
        raise ValueError(f"agent(s) without games: "
                         f"{', '.join(n_ for n_, g in zip(names, played) if g == 0)}")
    from scipy.sparse.csgraph import connected_components
    if connected_components(n > 0, directed=False)[0] > 1:
        raise ValueError("the agents fall into groups that never met: their ratings cannot "
                         "be compared")
    W = pts + (n > 0) * prior / 2               # points incl. the virtual shared games
    T = W + W.T                                 # games of each pair incl. the virtual ones
    if connected_components(W > 0, directed=True, connection="strong")[0] > 1:
        # a group of agents that never lost a point to the others: infinitely far ahead
        raise ValueError("some agents scored every point against the others, so their "
                         "ratings are infinite; use prior > 0")

    def full(x):
        return np.concatenate([[0.0], x])

    def nll(x):
        t = full(x)
        d = t[:, None] - t[None, :]
        return float(np.sum(W * np.logaddexp(0, -d)))

    def grad(x):
        t = full(x)
        p = 1 / (1 + np.exp(-(t[:, None] - t[None, :])))
        return -(W - T * p).sum(axis=1)[1:]

    def hess_full(t):
        p = 1 / (1 + np.exp(-(t[:, None] - t[None, :])))
        h = -T * p * (1 - p)
        np.fill_diagonal(h, 0)
        np.fill_diagonal(h, -h.sum(axis=1))
        return h

    def hess(x):
        return hess_full(full(x))[1:, 1:]

    res = optimize.minimize(nll, np.zeros(k - 1), jac=grad, hess=hess, method="trust-exact",
                            options={"gtol": 1e-10})
    theta = full(res.x)
    h = hess_full(theta)[1:, 1:]
    if not res.success and np.abs(grad(res.x)).max() > 1e-6:
        raise ValueError(f"the Bradley–Terry fit did not converge: {res.message}")
    cov0 = np.zeros((k, k))
    cov0[1:, 1:] = np.linalg.inv(h)
    if a_idx is None:
        c = np.eye(k) - 1.0 / k
        offset, label = 1500.0, "mean = 1500"
    else:
        c = np.eye(k)
        c[:, a_idx] -= 1
        offset, label = 0.0, f"{names[a_idx]} = 0"
    elo = c @ theta * ELO_PER_NAT + offset
    se = np.sqrt(np.clip(np.diag(c @ cov0 @ c.T), 0, None)) * ELO_PER_NAT
    if a_idx is not None:
        elo[a_idx], se[a_idx] = 0.0, 0.0
    df = pd.DataFrame({"agent": names, "elo": elo, "ci_low": elo - _Z95 * se,
                       "ci_high": elo + _Z95 * se, "se": se, "games": played.astype(int),
                       "wins": wins.sum(axis=1).astype(int),
                       "shared": shared.sum(axis=1).astype(int)})
    df["losses"] = df["games"] - df["wins"] - df["shared"]
    df["score"] = pts.sum(axis=1) / played
    df = df.sort_values(["elo", "agent"], ascending=[False, True], kind="stable")
    df.insert(0, "rank", np.arange(1, k + 1))
    df = df.reset_index(drop=True)
    df.attrs["anchor"] = label
    df.attrs["method"] = (f"Bradley–Terry maximum likelihood, {prior:g} virtual shared "
                          f"game(s) per pairing; 95% intervals from the Fisher information")
    return df


def wilson_interval(points, n, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval of a rate points/n (points may count a shared victory as 1/2);
    (nan, nan) when n == 0."""
    if n == 0:
        return float("nan"), float("nan")
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def head_to_head(games: pd.DataFrame, agents=None) -> pd.DataFrame:
    """Every agent's score against every other, with a 95% Wilson interval.

    Returns
    -------
    DataFrame
        One row per ordered pair of agents that met: ``agent``, ``opponent``, ``games``,
        ``wins``, ``shared``, ``losses`` (of ``agent``), ``score`` (wins + shared / 2, per
        game), ``ci_low``, ``ci_high``.
    """
    names = _agents_of(games, agents)
    pts, wins, shared, n = _points(games, names)
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j or n[i, j] == 0:
                continue
            lo, hi = wilson_interval(pts[i, j], n[i, j])
            rows.append({"agent": a, "opponent": b, "games": int(n[i, j]),
                         "wins": int(wins[i, j]), "shared": int(shared[i, j]),
                         "losses": int(n[i, j] - wins[i, j] - shared[i, j]),
                         "score": pts[i, j] / n[i, j], "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["agent", "opponent", "games", "wins", "shared",
                                       "losses", "score", "ci_low", "ci_high"])


def head_to_head_matrix(h2h: pd.DataFrame, order) -> pd.DataFrame:
    """The head-to-head scores as display strings: row agent's score against the column
    agent, ``'71.2% (60.1–80.3)'``; '—' on the diagonal, '' where they did not meet."""
    cell = {(r.agent, r.opponent): f"{100 * r.score:.1f}% ({100 * r.ci_low:.1f}–"
                                   f"{100 * r.ci_high:.1f})" for r in h2h.itertuples()}
    m = pd.DataFrame([[("—" if a == b else cell.get((a, b), "")) for b in order]
                      for a in order], index=pd.Index(list(order), name="agent"),
                     columns=list(order))
    return m


# --------------------------------------------------------------------------------------------
# Output

def _fmt_elo(x):
    return f"{x:.0f}".replace("-", "−")


def ratings_display(ratings: pd.DataFrame) -> pd.DataFrame:
    """The ratings as display strings (rank, agent, Elo, 95% CI, games, W-S-L, score)."""
    rows = []
    for r in ratings.itertuples():
        ci = "anchor" if r.se == 0 else f"{_fmt_elo(r.ci_low)} – {_fmt_elo(r.ci_high)}"
        rows.append({"rank": r.rank, "agent": r.agent, "Elo": _fmt_elo(r.elo), "95% CI": ci,
                     "games": f"{r.games:,}", "W-S-L": f"{r.wins}-{r.shared}-{r.losses}",
                     "score": f"{100 * r.score:.1f}%"})
    return pd.DataFrame(rows)


def header_lines(ratings: pd.DataFrame) -> list[str]:
    a = ratings.attrs
    lines = []
    if "games_per_pairing" in a:
        k = len(ratings)
        lines.append(f"{k} agents, {a['games_per_pairing']:,} games per pairing "
                     f"({a['games_per_pairing'] * k * (k - 1) // 2:,} games), seed {a['seed']}, "
                     f"budget {a['budget']}")
        if a.get("unbudgeted"):
            lines.append(f"without a budget (they search nothing): {', '.join(a['unbudgeted'])}")
    lines.append(f"Elo: {a.get('method', 'Bradley–Terry')}; anchored at "
                 f"{a.get('anchor', '?')}")
    return lines


def _md_table(df: pd.DataFrame, index: bool = False) -> str:
    t = df.reset_index() if index else df
    cols = [str(c) for c in t.columns]
    left = {"agent"}
    lines = ["| " + " | ".join(cols) + " |",
             "|" + "|".join(" --- " if c in left else " ---: " for c in cols) + "|"]
    for row in t.itertuples(index=False):
        lines.append("| " + " | ".join(str(x).replace("|", "\\|") for x in row) + " |")
    return "\n".join(lines)


def to_markdown(ratings: pd.DataFrame, h2h: pd.DataFrame, command: str | None = None) -> str:
    """The ladder's Markdown: header, ratings table, head-to-head matrix."""
    parts = ["# Rating ladder", ""]
    parts += [f"- {line}" for line in header_lines(ratings)]
    if command:
        parts += [f"- reproduce: `{command}`"]
    parts += ["", "## Ratings", "", _md_table(ratings_display(ratings)), "",
              "## Head to head", "",
              "The row agent's score against the column agent (a shared victory counts "
              "1/2), with its 95% Wilson interval.", "",
              _md_table(head_to_head_matrix(h2h, list(ratings["agent"])), index=True), ""]
    return "\n".join(parts)


def print_ladder(ratings: pd.DataFrame, h2h: pd.DataFrame, console=None, title=None) -> None:
    """Print the ratings and the head-to-head matrix with rich tables."""
    from rich.console import Console

    from duelpy.base.tables import Column, print_table
    console = console or Console()
    console.rule(f"[bold]{title or 'Rating ladder'}")
    for line in header_lines(ratings):
        console.print(line, highlight=False)
    d = ratings_display(ratings)
    print_table(console, [Column(str(col), [str(x) for x in d[col]],
                                 "left" if col == "agent" else "right") for col in d.columns],
                title="Ratings")
    m = head_to_head_matrix(h2h, list(ratings["agent"]))
    columns = [Column("agent", [str(i) for i in m.index], "left")]
    columns += [Column(str(col), [str(x) for x in m[col]], "right") for col in m.columns]
    print_table(console, columns, title="Head to head",
                caption="the row agent's score against the column agent (shared = 1/2), "
                        "95% Wilson interval")


def write_plot(ratings: pd.DataFrame, h2h: pd.DataFrame, path) -> Path:
    """A PNG: the ratings with their 95% intervals, and the head-to-head scores as a heat
    map.  Written through a temporary file; returns the path."""
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    path = Path(path)
    order = list(ratings["agent"])
    k = len(order)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6 + 1.6 * k, 1.5 + 0.55 * k + 1.5),
                                   gridspec_kw={"width_ratios": [1, 1.2]})
    try:
        y = np.arange(k)[::-1]
        elo = ratings["elo"].to_numpy(float)
        err = [elo - ratings["ci_low"].to_numpy(float), ratings["ci_high"].to_numpy(float) - elo]
        ax1.errorbar(elo, y, xerr=err, fmt="o", color="#4c72b0", capsize=4)
        ax1.set_yticks(y)
        ax1.set_yticklabels(order)
        ax1.set_xlabel(f"Elo ({ratings.attrs.get('anchor', '')}), 95% interval")
        ax1.set_title("Ratings")
        ax1.grid(axis="x", alpha=0.3)
        mat = np.full((k, k), np.nan)
        pos = {a: i for i, a in enumerate(order)}
        for r in h2h.itertuples():
            if r.agent in pos and r.opponent in pos:
                mat[pos[r.agent], pos[r.opponent]] = 100 * r.score
        im = ax2.imshow(mat, cmap="RdBu", vmin=0, vmax=100)
        for i in range(k):
            for j in range(k):
                if not np.isnan(mat[i, j]):
                    ax2.text(j, i, f"{mat[i, j]:.0f}%", ha="center", va="center", fontsize=9,
                             color="white" if abs(mat[i, j] - 50) > 35 else "black")
        ax2.set_xticks(range(k))
        ax2.set_xticklabels(order, rotation=30, ha="right")
        ax2.set_yticks(range(k))
        ax2.set_yticklabels(order)
        ax2.set_title("Score of the row agent against the column agent")
        fig.colorbar(im, ax=ax2, fraction=0.046, pad=0.04, label="score (%)")
        fig.tight_layout()
        tmp = path.with_name("." + path.name + ".tmp.png")
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
    return path


def write_tables(games: pd.DataFrame, ratings: pd.DataFrame, out, spec: LadderSpec | None = None,
                 plot: bool = True) -> dict:
    """Write ratings.csv, head_to_head.csv, ladder.md (and ladder.png) in ``out``; returns
    {name: Path}."""
    out = Path(out)
    h2h = head_to_head(games, list(ratings["agent"]))
    paths = {}
    command = None
    if spec is not None:
        budget = (f" --seconds {spec.seconds:g}" if spec.seconds is not None else
                  f" --iterations {spec.iterations}" if spec.iterations is not None else "")
        shown = [a if not b else strip_budget(a) for a, b in zip(spec.agents, spec.budgeted)]
        command = (f"duel ladder {' '.join(_quote(a) for a in shown)} --games {spec.games}"
                   f"{budget} --seed {spec.seed}")
    for name, write in ((RATINGS_FILE, lambda p: ratings.to_csv(p, index=False)),
                        (H2H_FILE, lambda p: h2h.to_csv(p, index=False)),
                        (TABLE_FILE, lambda p: p.write_text(to_markdown(ratings, h2h, command),
                                                            encoding="utf-8"))):
        tmp = out / f".{name}.tmp"
        write(tmp)
        os.replace(tmp, out / name)
        paths[name] = out / name
    if plot:
        paths[PLOT_FILE] = write_plot(ratings, h2h, out / PLOT_FILE)
    return paths


def strip_budget(spec: str) -> str:
    """An agent description without its ``seconds`` / ``iterations`` option."""
    name, _, rest = spec.partition(":")
    kept = [p for p in rest.split(",") if p.strip() and
            p.partition("=")[0].strip().lower() not in _BUDGET_KEYS]
    return name + (":" + ",".join(kept) if kept else "")


def _quote(text: str) -> str:
    import shlex
    return shlex.quote(text)
