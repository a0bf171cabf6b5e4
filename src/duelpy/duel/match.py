"""Matches between two agents: N games with seeds, seats alternated, one row per game.

``play_match`` plays in the core's batch runner (no Python per move) when both agents are
built-in and single-threaded, and otherwise move by move through ``select_action``; both
ways give the same games for the same seeds.
"""
from __future__ import annotations

import functools
import concurrent.futures as cf
import threading
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

import duelcore
from duelcore import data, search
from duelcore.engine import VP_CATEGORIES, VICTORY_NAMES, _treatments

from duelpy.duel.agents import Agent, _BuiltinAgent, parse_agent
from duelpy.duel.options import GAME_OPTIONS

__all__ = ["play_match", "MatchRun", "MatchStatus", "game_seeds", "game_cost", "results_table",
           "GAME_OPTIONS"]

_MASK64 = (1 << 64) - 1


def game_seeds(seed: int, games: int, start: int = 0) -> np.ndarray:
    """Seeds of games ``start .. start + games - 1`` of a run with base ``seed``: game i's seed
    depends only on (seed, i), so a run can be split over workers or resumed."""
    idx = np.arange(start, start + games, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed & _MASK64) + (idx + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _as_agent(a):
    if isinstance(a, Agent):
        return a
    if isinstance(a, str):
        return parse_agent(a)
    raise TypeError(f"an agent is an Agent or a description like 'mcts:iterations=500', "
                    f"not {type(a).__name__}")


def _check_options(options):
    unknown = set(options) - set(GAME_OPTIONS)
    if unknown:
        raise ValueError(f"unknown game option(s) {', '.join(sorted(unknown))}; "
                         f"options: {', '.join(GAME_OPTIONS)}")
    duelcore.new_game(0, **options)          # validates the values


def _core_options(options):
    first_game = bool(options.get("first_game_wonders", False))
    banned, f0, f1 = _treatments(options.get("banned_tokens", ()),
                                 options.get("forced_wonders", None), first_game)
    opts = 1 if options.get("centred_pawn", "chooses") == "begins" else 0
    coins = options.get("start_coins", (7, 7))
    return dict(options=opts, first_game=int(first_game), coins0=int(coins[0]),
                coins1=int(coins[1]), banned_tokens=banned, forced0=f0, forced1=f1)


class Stopped(Exception):
    """Raised inside a game played move by move when the run is asked to stop."""


def _play_python(agents, seed, options, on_decision=None, stop=None):
    """One game through Python agents; the same record as the core's batch runner.

    ``on_decision()`` is called after each decision; ``stop`` (a threading.Event) is checked
    before each one and ends the game with :class:`Stopped`."""
    state = duelcore.new_game(int(seed), **options)
    for seat in (0, 1):
        agents[seat].reset(search.agent_seed(int(seed), seat))
    starters, replays = [-1, -1, -1], [0, 0]
    last_p, last_age, drafted = -1, 0, None
    while not state.is_terminal():
        if stop is not None and stop.is_set():
            raise Stopped
        p = state.current_player()
        if state.phase == "play":
            if state.age != last_age:
                starters[state.age - 1] = p
                last_age = state.age
            elif p == last_p:
                replays[p] += 1
            last_p = p
        action = agents[p].select_action(state)
        if (stop is not None and stop.is_set()) or _core_interrupted():
            raise Stopped               # a search cut short by the stop flag: not a real move
        state.apply_action(action)
        if on_decision is not None:
            on_decision()
        if drafted is None and state.age >= 1:
            drafted = [sum(1 << w for w, _ in state.wonders(q)) for q in (0, 1)]
    res = state.result()
    d = state.to_dict()
    return {
        "winner": -1 if res["winner"] is None else res["winner"],
        "victory": VICTORY_NAMES.index(res["victory"]),
        "vp": [[res["vp"][c][p] for c in VP_CATEGORIES] for p in (0, 1)],
        "coins": [state.coins(0), state.coins(1)],
        "drafted": drafted,
        "built": [sum(1 << w for w, b in state.wonders(q) if b) for q in (0, 1)],
        "tokens": [sum(1 << t for t in state.progress_tokens(q)) for q in (0, 1)],
        "n_decisions": state.n_decisions,
        "starters": starters, "replays": replays,
        "colours": [[sum(1 for c in state.city(q) if data.CARDS[c].colour == col)
                     for col in data.COLOURS] for q in (0, 1)],
        "pawn": state.pawn, "age": d["age"],
    }


@functools.lru_cache(maxsize=1 << 16)
def _joined(names: tuple, mask: int) -> str:
    return ";".join(names[i] for i in range(len(names)) if (mask >> i) & 1)


def _names(masks, names):
    """Semicolon-joined names of each bitmask in ``masks`` (one string per game)."""
    uniq, inv = np.unique(np.asarray(masks), return_inverse=True)
    names = tuple(names)
    text = np.array([_joined(names, int(m)) for m in uniq], dtype=object)
    return text[inv.reshape(-1)]


def results_table(raw: dict, seeds, p1_names, p2_names) -> pd.DataFrame:
    """The per-game table (one row per game) from the core's arrays (see play_games)."""
    n = len(seeds)
    cols = {"seed": np.asarray(seeds, dtype=np.uint64), "p1": p1_names, "p2": p2_names}
    winner = raw["winner"].astype(np.int8)
    cols["winner"] = winner
    cols["winner_agent"] = np.where(winner == 0, p1_names, np.where(winner == 1, p2_names, None))
    cols["victory"] = pd.Categorical.from_codes(
        raw["victory"].astype(np.int8) - 1, categories=["civilian", "military", "scientific", "shared"])
    for k, cat in enumerate(VP_CATEGORIES):
        for p in (0, 1):
            cols[f"vp_{cat}_p{p + 1}"] = raw["vp"][:, p, k]
    for p in (0, 1):
        cols[f"vp_total_p{p + 1}"] = raw["vp"][:, p, :].sum(axis=1)
    for p in (0, 1):
        tag = f"p{p + 1}"
        cols[f"coins_{tag}"] = raw["coins"][:, p]
        cols[f"wonders_drafted_{tag}"] = _names(raw["drafted"][:, p], data.WONDER_NAMES)
        cols[f"wonders_built_{tag}"] = _names(raw["built"][:, p], data.WONDER_NAMES)
        cols[f"tokens_{tag}"] = _names(raw["tokens"][:, p], data.TOKEN_NAMES)
        cols[f"play_again_{tag}"] = raw["replays"][:, p]
        for k, col in enumerate(data.COLOURS):
            cols[f"cards_{col}_{tag}"] = raw["colours"][:, p, k]
        cols[f"wonders_drafted_mask_{tag}"] = raw["drafted"][:, p]
        cols[f"wonders_built_mask_{tag}"] = raw["built"][:, p]
        cols[f"tokens_mask_{tag}"] = raw["tokens"][:, p]
    for a in range(3):
        cols[f"starter_age{a + 1}"] = raw["starters"][:, a]
    cols["n_decisions"] = raw["n_decisions"]
    cols["pawn"] = raw["pawn"]
    cols["final_age"] = raw["age"]
    return pd.DataFrame(cols, index=pd.RangeIndex(n, name="game"))


def task_seats(task) -> tuple[np.ndarray, np.ndarray]:
    """Seeds and seat swaps of games ``task.lo .. task.hi - 1`` (uint64 seeds; True where the
    second agent sits in P1's seat) under the task's seating: ``"alternate"`` (one seed per
    game, swapped in odd games), ``"fixed"`` (never swapped) or ``"pairs"`` (one seed per
    two games, swapped in the second: a ladder's pairing)."""
    lo, hi = task.lo, task.hi
    g = np.arange(lo, hi)
    if task.seating == "pairs":
        k = g // 2
        base = game_seeds(task.seed, int(k[-1] - k[0] + 1), start=int(k[0])) if len(k) else \
            np.zeros(0, dtype=np.uint64)
        return (base[k - k[0]] if len(k) else base), g % 2 == 1
    seeds = game_seeds(task.seed, hi - lo, start=lo)
    return seeds, (g % 2 == 1) & (task.seating == "alternate")


def task_rows(task, raw: dict, names=None) -> pd.DataFrame:
    """The per-game rows of the games a task finished (``len(raw["winner"])`` of them, from
    ``task.lo``), with a ``game`` column (the game's index in the run) first; ``names``: the
    two agents' names (default: the task's descriptions as :func:`parse_agent` names them)."""
    n = len(raw["winner"])
    seeds, swap = task_seats(task)
    seeds, swap = seeds[:n], swap[:n]
    if names is None:
        names = [parse_agent(a).name for a in task.agents]
    a, b = names
    p1 = np.where(swap, b, a).astype(object)
    p2 = np.where(swap, a, b).astype(object)
    df = results_table(raw, seeds, p1, p2).reset_index(drop=True)
    df.insert(0, "game", np.arange(task.lo, task.lo + n, dtype=np.int64))
    return df


_DTYPES = {"winner": np.int8, "victory": np.uint8, "vp": np.int16, "coins": np.int32,
           "drafted": np.uint16, "built": np.uint16, "tokens": np.uint16,
           "n_decisions": np.uint16, "starters": np.int8, "replays": np.uint8,
           "colours": np.uint8, "pawn": np.int8, "age": np.uint8}
_SHAPES = {"vp": (2, len(VP_CATEGORIES)), "coins": (2,), "drafted": (2,), "built": (2,),
           "tokens": (2,), "starters": (3,), "replays": (2,), "colours": (2, len(data.COLOURS))}


def _stack(rows):
    """The core's arrays (as ``search.play_games`` returns them) from per-game dicts."""
    if not rows:
        return {k: np.zeros((0,) + _SHAPES.get(k, ()), dtype=t) for k, t in _DTYPES.items()}
    return {k: np.array([r[k] for r in rows], dtype=_DTYPES[k]) for k in rows[0]}


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def play_games_raw(agent_p1, agent_p2, seeds, swap, options, *, moves: bool | None = None,
                   stop=None, on_decision=None, partial: bool = False):
    """Play one game per seed; ``swap[i]`` seats agent_p2 as P1.  Returns the core's arrays.

    Both agents built-in (and single-threaded): the core's batch runner, unless ``moves``;
    otherwise move by move through ``select_action`` (the same games).  ``stop`` (a
    threading.Event) and ``on_decision`` apply to the move-by-move way.

    With ``partial``, a run stopped early (``stop``, or the core's stop flag set by Ctrl-C)
    returns the arrays of the games finished, in order (fewer rows than seeds); otherwise
    Ctrl-C raises KeyboardInterrupt.
    """
    seeds = np.asarray(seeds, dtype=np.uint64)
    swap = np.asarray(swap, dtype=np.uint8)
    if moves is None:
        moves = not (getattr(agent_p1, "batchable", False)
                     and getattr(agent_p2, "batchable", False))
    if not moves:
        raw = dict(search.play_games(seeds, agent_p1.spec, agent_p2.spec, swap,
                                     **_core_options(options)))
        n = raw.pop("completed", None)
        stopped = raw.pop("interrupted", False)
        if stopped and not partial:
            raise KeyboardInterrupt
        return raw if n is None else {k: v[:n] for k, v in raw.items()}
    rows = []
    for s, sw in zip(seeds, swap):
        try:
            rows.append(_play_python((agent_p2, agent_p1) if sw else (agent_p1, agent_p2),
                                     s, options, on_decision, stop))
        except Stopped:
            if not partial:
                raise KeyboardInterrupt from None
            break
        except KeyboardInterrupt:
            if not partial or (_in_main_thread() and not _core_interrupted()):
                raise
            break
    return _stack(rows)


def _core_interrupted() -> bool:
    """True if the core's stop flag is set (a core without one: False)."""
    f = getattr(search, "interrupted", None)
    return bool(f()) if f is not None else False


def game_cost(agent) -> float:
    """Rough seconds of one core per game if both seats played ``agent`` (an Agent or a
    description): for chunk sizes and for choosing to play move by move."""
    a = _as_agent(agent)
    kind = getattr(a, "kind", None)
    if kind == "random":
        return 3e-5
    if kind == "greedy":
        return 8e-5
    if getattr(a, "seconds", None) is not None:     # a search with a time budget
        return 35 * a.seconds
    if getattr(a, "iterations", None) is not None:  # a search with an iteration budget
        per = 6e-4 if kind == "mcts" and a.rollout == "random" else 1.8e-3  # slower playouts
        return per * a.iterations
    return 0.05                                     # a Python agent: unknown, assume slow


def _rebuildable(agent) -> bool:
    """True if ``parse_agent(agent.name)`` makes the same agent (so a worker may have its own)."""
    if not isinstance(agent, _BuiltinAgent):
        return False
    try:
        return parse_agent(agent.name).name == agent.name
    except ValueError:
        return False


@dataclass
class MatchStatus:
    """Where a :class:`MatchRun` stands.

    ``games`` finished of ``total``; ``seconds`` since the first game began (to the last game
    finished, once the run is over); ``in_play`` games under way move by move and the
    ``decisions`` made in them; ``interrupted`` once the run stopped early.
    """

    games: int = 0
    total: int = 0
    seconds: float = 0.0
    in_play: int = 0
    decisions: int = 0
    interrupted: bool = False

    @property
    def rate(self) -> float:
        """Games per second (finished games over ``seconds``)."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


class _Live:
    """Decisions made in the games under way (one entry per worker thread)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.per_thread: dict = {}

    def decision(self):
        k = threading.get_ident()
        with self.lock:
            self.per_thread[k] = self.per_thread.get(k, 0) + 1

    def game_over(self):
        with self.lock:
            self.per_thread.pop(threading.get_ident(), None)

    def snapshot(self) -> tuple[int, int]:
        with self.lock:
            return len(self.per_thread), sum(self.per_thread.values())


#: Seconds of work per chunk the runner aims for (Ctrl-C and the progress bar wait for
#: at most a chunk when the core has no stop flag), and the largest chunk in games.
CHUNK_SECONDS = 0.2
MAX_CHUNK = 20_000
#: Games longer than this (seconds of one core) are played move by move, so that progress
#: shows within a game and a stop takes effect between decisions.
LONG_GAME = 0.5


class MatchRun:
    """``games`` games between two agents, played in chunks by ``jobs`` worker threads and
    handed over in game order, one table per chunk: memory does not grow with ``games``.

    Game i has the seed ``game_seeds(seed, games)[i]`` and, with ``alternate``, ``agent_b``
    in P1's seat when i is odd; the games do not depend on ``jobs`` or the chunk sizes.
    Chunks last about :data:`CHUNK_SECONDS`; a game longer than :data:`LONG_GAME` is played
    move by move (the decisions under way show in :class:`MatchStatus`).

    Raises
    ------
    ValueError, TypeError
        For a bad agent, number of games, seed, jobs or game option.
    """

    def __init__(self, agent_a, agent_b, games: int, seed: int = 0, *, alternate: bool = True,
                 jobs: int = 1, chunk: int = 0, **options):
        self.a, self.b = _as_agent(agent_a), _as_agent(agent_b)
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be a positive integer, not {games!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 1024:
            raise ValueError(f"jobs must be an integer from 1 to 1024, not {jobs!r}")
        if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 0:
            raise ValueError(f"chunk must be a non-negative integer, not {chunk!r}")
        _check_options(options)
        self.games, self.seed, self.alternate, self.jobs = games, seed, alternate, jobs
        self.options = options
        batchable = getattr(self.a, "batchable", False) and getattr(self.b, "batchable", False)
        cost = (game_cost(self.a) + game_cost(self.b)) / 2
        self.moves = not batchable or cost > LONG_GAME
        if self.moves and jobs > 1 and not (_rebuildable(self.a) and _rebuildable(self.b)):
            raise ValueError("jobs > 1 with custom Python agents is not supported: pass agent "
                             "descriptions or built-in agents")
        self.fixed_chunk = chunk
        self.chunk = chunk or max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / cost)))
        if self.moves and not chunk:
            self.chunk = 1
        self.live = _Live()
        self.status = MatchStatus(total=games)

    def names(self, lo: int, hi: int):
        """Agent names in P1's and P2's seats for games lo .. hi - 1 (object arrays)."""
        swap = (np.arange(lo, hi) % 2 == 1) & self.alternate
        return (np.where(swap, self.b.name, self.a.name).astype(object),
                np.where(swap, self.a.name, self.b.name).astype(object))

    def table(self, lo: int, hi: int, raw: dict) -> pd.DataFrame:
        """The per-game rows of games lo .. hi - 1 (index ``game``) from the core's arrays."""
        p1, p2 = self.names(lo, hi)
        df = results_table(raw, game_seeds(self.seed, hi - lo, start=lo), p1, p2)
        df.index = pd.RangeIndex(lo, hi, name="game")
        return df

    def _agents(self):
        if self.moves and self.jobs > 1:
            return parse_agent(self.a.name), parse_agent(self.b.name)
        return self.a, self.b

    def _chunk(self, lo, hi, stop):
        t = time.perf_counter()
        seeds = game_seeds(self.seed, hi - lo, start=lo)
        swap = (np.arange(lo, hi) % 2 == 1) & self.alternate
        a, b = self._agents()
        live = self.live

        def on_decision():
            live.decision()
        try:
            raw = play_games_raw(a, b, seeds, swap, self.options, moves=self.moves, stop=stop,
                                 on_decision=on_decision if self.moves else None, partial=True)
        finally:
            live.game_over()
        return raw, time.perf_counter() - t

    def run(self, on_chunk, on_tick=None, stop=None, tick: float = 0.1) -> MatchStatus:
        """Play the games; call ``on_chunk(lo, hi, raw)`` for each chunk in game order (games
        lo .. hi - 1; ``raw``: the core's arrays, see :meth:`table` and :meth:`outcomes`) and
        ``on_tick(status)`` about every ``tick`` seconds (both in the calling thread).

        ``stop`` (a threading.Event; Ctrl-C handlers set it) ends the run early: no chunk is
        started, the ones under way stop (at once through the core's stop flag, else at
        their next decision or at their end), and every finished game is handed over before
        ``run`` returns a status with ``interrupted`` set.  A KeyboardInterrupt in the
        calling thread stops the workers the same way and is raised again.

        Returns the final :class:`MatchStatus`.
        """
        stop = stop if stop is not None else threading.Event()
        st = self.status
        pool = cf.ThreadPoolExecutor(self.jobs, thread_name_prefix="duel-match")
        inflight: dict = {}
        ready: dict = {}
        next_lo = emit_lo = 0
        t0 = time.perf_counter()
        if not stop.is_set():
            _core_clear()               # a stop flag left from an earlier Ctrl-C: a new run

        def emit_ready(all_left=False):
            nonlocal emit_lo
            while emit_lo in ready:
                hi, raw = ready.pop(emit_lo)
                n = len(raw["winner"])
                if n:
                    on_chunk(emit_lo, emit_lo + n, raw)
                emit_lo = hi
            if all_left:
                for lo in sorted(ready):
                    hi, raw = ready.pop(lo)
                    n = len(raw["winner"])
                    if n:
                        on_chunk(lo, lo + n, raw)

        def collect(futures):
            for f in futures:
                lo, hi = inflight.pop(f)
                raw, seconds = f.result()
                n = len(raw["winner"])
                ready[lo] = (hi, raw)
                st.games += n
                st.seconds = time.perf_counter() - t0
                if n and not self.fixed_chunk and not self.moves:
                    per_game = seconds / n
                    self.chunk = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(per_game, 1e-7))))

        def tick_status():
            st.in_play, st.decisions = self.live.snapshot()
            if on_tick is not None:
                on_tick(st)

        try:
            while True:
                while not stop.is_set() and next_lo < self.games \
                        and len(inflight) < 2 * self.jobs:
                    hi = min(self.games, next_lo + self.chunk)
                    inflight[pool.submit(self._chunk, next_lo, hi, stop)] = (next_lo, hi)
                    next_lo = hi
                if stop.is_set():
                    for f in [f for f in inflight if f.cancel()]:
                        inflight.pop(f)
                if not inflight:
                    break
                done, _ = cf.wait(list(inflight), timeout=tick, return_when=cf.FIRST_COMPLETED)
                collect(done)
                emit_ready()
                if on_tick is not None and not done:
                    st.seconds = time.perf_counter() - t0
                tick_status()
            st.interrupted = next_lo < self.games or st.games < self.games
            emit_ready(all_left=True)
        except BaseException:
            stop.set()
            _core_stop()
            for f in inflight:
                f.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            _core_clear()
            raise
        pool.shutdown(wait=True)
        st.in_play = st.decisions = 0
        if on_tick is not None:
            on_tick(st)
        return st


def _core_stop():
    f = getattr(search, "interrupt", None)
    if f is not None:
        f()


def _core_clear():
    f = getattr(search, "clear_interrupt", None)
    if f is not None:
        f()


def play_match(agent_a, agent_b, games: int = 100, seed: int = 0, *, alternate: bool = True,
               jobs: int = 1, progress=None, chunk: int = 0, **options) -> pd.DataFrame:
    """Play ``games`` games between two agents and return one row per game.

    Parameters
    ----------
    agent_a, agent_b : Agent or str
        Agents or descriptions (``"mcts:iterations=500"``).  ``agent_a`` sits in P1 (who
        begins) in even games and, when ``alternate``, ``agent_b`` sits in P1 in odd games.
    games : int
        Number of games (>= 1).
    seed : int
        Base seed; game i's seed is ``game_seeds(seed, games)[i]``.
    jobs : int
        Worker threads (the core releases the GIL).  The games and the table are the same
        for any number of jobs.
    progress : callable, optional
        Called with the number of games just finished.
    chunk : int, optional
        Games per chunk (default: about 0.2 s of work each).
    **options
        Game options of :func:`duelcore.new_game`: first_game_wonders, centred_pawn,
        start_coins, banned_tokens, forced_wonders.

    Returns
    -------
    pandas.DataFrame
        Index ``game``; columns: seed, p1, p2 (agent names by seat), winner (0 = P1, 1 = P2,
        -1 shared), winner_agent, victory, vp_<category>_p1/p2, vp_total_p1/p2, coins,
        wonders drafted and built, progress tokens, Play Again turns, cards per colour, who
        began each Age, n_decisions, pawn, final_age.  For more games than fit in memory,
        use :class:`MatchRun`, which hands the rows over chunk by chunk.

    Raises
    ------
    ValueError, TypeError
        For a bad agent, number of games, seed or game option.
    KeyboardInterrupt
        On Ctrl-C, once the workers have stopped.
    """
    run = MatchRun(agent_a, agent_b, games, seed, alternate=alternate, jobs=jobs, chunk=chunk,
                   **options)
    parts = []
    last = [0]

    def on_tick(st):
        if progress is not None and st.games > last[0]:
            progress(st.games - last[0])
            last[0] = st.games

    run.run(lambda lo, hi, raw: parts.append(run.table(lo, hi, raw)), on_tick)
    return pd.concat(parts)
