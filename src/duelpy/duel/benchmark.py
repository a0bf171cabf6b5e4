"""Engine benchmark: throughput figures and a behaviour signature (``duel bench``).

The signature is a hash of every game played from a fixed seed set (decisions, winner,
victory type, final VP and coins): speed work must leave it unchanged; a rule change changes
it on purpose.
"""
from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import duelcore
from duelcore import search

from duelpy.duel.match import game_seeds

SIGNATURE_SEED = 20261129


def signature(raw: dict) -> str:
    """16 hex digits summarising the games in the arrays of ``search.play_games``."""
    h = hashlib.blake2b(digest_size=8)
    for key in ("n_decisions", "winner", "victory", "vp", "coins", "built", "tokens"):
        h.update(np.ascontiguousarray(raw[key]).astype("<i8").tobytes())
    return h.hexdigest()


def random_games(games: int, seed: int = SIGNATURE_SEED, jobs: int = 1) -> dict:
    """Play ``games`` uniformly random games (fresh setup each, chance sampled) in the core.

    Returns ``{"games", "decisions", "seconds", "games_per_s", "decisions_per_s",
    "signature"}``; with ``jobs`` > 1 the games are split over threads (the core releases
    the GIL), and the signature is the same as with one job.
    """
    seeds = game_seeds(seed, games)
    spec = {"kind": "random"}
    parts = np.array_split(seeds, jobs)
    t0 = time.perf_counter()
    if jobs == 1:
        results = [search.play_games(seeds, spec, spec)]
    else:
        with ThreadPoolExecutor(jobs) as pool:
            results = list(pool.map(lambda s: search.play_games(s, spec, spec), parts))
    dt = time.perf_counter() - t0
    if any(r.get("interrupted") for r in results):       # the core's stop flag (Ctrl-C)
        raise KeyboardInterrupt
    raw = {k: np.concatenate([r[k] for r in results]) for k in results[0]
           if k not in ("completed", "interrupted")}
    decisions = int(raw["n_decisions"].astype(np.int64).sum())
    return {"games": games, "decisions": decisions, "seconds": dt,
            "games_per_s": games / dt, "decisions_per_s": decisions / dt,
            "signature": signature(raw)}


def age1_opening(seed: int = 1) -> duelcore.State:
    """The first decision of Age I (after a random draft) of game ``seed``."""
    state = duelcore.new_game(seed)
    agent_rng = seed
    while state.phase != "play":
        action, agent_rng = search.choose(state, {"kind": "random"}, agent_rng)
        state.apply_action(action)
    return state


def mcts_rate(iterations: int = 20000, seed: int = 1, kind: str = "mcts", **options) -> dict:
    """MCTS iterations per second from the opening of Age I, one thread: ``kind="mcts"`` the
    round-1 search (random rollouts), ``kind="plan"`` the planning search (policy playouts;
    ``options`` such as ``policy="hand"`` go to :func:`duelcore.search.mcts_search`)."""
    state = age1_opening(seed)
    t0 = time.perf_counter()
    res = search.mcts_search(state, iterations=iterations, seed=seed, kind=kind, **options)
    dt = time.perf_counter() - t0
    return {"iterations": res["iterations"], "seconds": dt,
            "iterations_per_s": res["iterations"] / dt, "nodes": res["nodes"]}
