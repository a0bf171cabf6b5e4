"""Engine benchmark: throughput figures and a behaviour signature (``duel bench``).

The signature is a hash of every game played from a fixed seed set (decisions, winner,
victory type, final VP and coins): speed work must leave it unchanged; a rule change changes
it on purpose.
"""
from __future__ import annotations

import hashlib
import statistics
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


def bench_table(players: int, games: int, iterations: int, repeat: int, jobs: int, measure,
                say=print) -> tuple[str, list[tuple[str, str]]]:
    """What ``duel bench`` measures for Duel: ``(title, rows)`` after ``say(intro line)``.  ``measure(fn,
    *args, **kw)`` runs each timed call (the command's Ctrl-C-aware runner)."""
    runs_text = f"{repeat} run{'s' if repeat != 1 else ''}"
    intro = (f"duel bench: {runs_text} of {games:,} random games and {iterations:,} MCTS "
             f"iterations (Ctrl-C stops)")
    say(intro)
    sig_games = 10_000
    sig = measure(random_games, sig_games)["signature"]
    runs = [measure(random_games, games) for _ in range(repeat)]
    searches = {"mcts": {"kind": "mcts"}, "plan": {"kind": "plan"},
                "hand": {"kind": "plan", "policy": "hand"}}
    rates: dict = {name: [] for name in searches}
    for _ in range(repeat):     # interleaved, so that the ratios compare the same moments
        for name, options in searches.items():
            rates[name].append(measure(mcts_rate, iterations, **options)["iterations_per_s"])
    med = statistics.median
    rows = [("random games / s (1 core)", f"{med([r['games_per_s'] for r in runs]):,.0f}"),
            ("decisions / s (1 core)", f"{med([r['decisions_per_s'] for r in runs]):,.0f}"),
            ("MCTS iterations / s, round-1 mcts (Age I opening)", f"{med(rates['mcts']):,.0f}")]
    for name, label in (("plan", "planning search plan"), ("hand", "plan:policy=hand")):
        ratio = med([x / m for x, m in zip(rates[name], rates["mcts"])])
        rows.append((f"MCTS iterations / s, {label} (Age I opening)",
                     f"{med(rates[name]):,.0f} ({ratio:.2f}x mcts)"))
    rows.append(("state size (bytes)", str(duelcore.state_size())))
    if jobs > 1:
        multi = [measure(random_games, games, jobs=jobs) for _ in range(repeat)]
        single = med([r["games_per_s"] for r in runs])
        rate = med([r["games_per_s"] for r in multi])
        rows.append((f"random games / s ({jobs} workers)", f"{rate:,.0f} ({rate / single:.2f}x)"))
    rows.append((f"signature ({sig_games:,} games, seed {SIGNATURE_SEED})", sig))
    return f"duel bench (median of {repeat})", rows
