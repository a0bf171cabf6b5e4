"""Matches between two agents: N games with seeds, seats alternated, one row per game.

``play_match`` plays in the core's batch runner (no Python per move) when both agents are
built-in and single-threaded, and otherwise move by move through ``select_action``; both
ways give the same games for the same seeds.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import duelcore
from duelcore import data, search
from duelcore.engine import VP_CATEGORIES, VICTORY_NAMES

from duelpy.agents import Agent, parse_agent

__all__ = ["play_match", "game_seeds", "results_table", "GAME_OPTIONS"]

GAME_OPTIONS = ("first_game_wonders", "centred_pawn", "start_coins", "banned_tokens",
                "forced_wonders")
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
    from duelcore.engine import _treatments
    first_game = bool(options.get("first_game_wonders", False))
    banned, f0, f1 = _treatments(options.get("banned_tokens", ()),
                                 options.get("forced_wonders", None), first_game)
    opts = 1 if options.get("centred_pawn", "chooses") == "begins" else 0
    coins = options.get("start_coins", (7, 7))
    return dict(options=opts, first_game=int(first_game), coins0=int(coins[0]),
                coins1=int(coins[1]), banned_tokens=banned, forced0=f0, forced1=f1)


def _play_python(agents, seed, options):
    """One game through Python agents; the same record as the core's batch runner."""
    state = duelcore.new_game(int(seed), **options)
    for seat in (0, 1):
        agents[seat].reset(search.agent_seed(int(seed), seat))
    starters, replays = [-1, -1, -1], [0, 0]
    last_p, last_age, drafted = -1, 0, None
    while not state.is_terminal():
        p = state.current_player()
        if state.phase == "play":
            if state.age != last_age:
                starters[state.age - 1] = p
                last_age = state.age
            elif p == last_p:
                replays[p] += 1
            last_p = p
        state.apply_action(agents[p].select_action(state))
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


def _names(masks, names):
    """Semicolon-joined names of each bitmask in ``masks`` (one string per game)."""
    uniq, inv = np.unique(np.asarray(masks), return_inverse=True)
    text = np.array([";".join(names[i] for i in range(len(names)) if (int(m) >> i) & 1)
                     for m in uniq], dtype=object)
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


def _stack(rows):
    keys = rows[0].keys()
    dtypes = {"winner": np.int8, "victory": np.uint8, "vp": np.int16, "coins": np.int32,
              "drafted": np.uint16, "built": np.uint16, "tokens": np.uint16,
              "n_decisions": np.uint16, "starters": np.int8, "replays": np.uint8,
              "colours": np.uint8, "pawn": np.int8, "age": np.uint8}
    return {k: np.array([r[k] for r in rows], dtype=dtypes[k]) for k in keys}


def play_games_raw(agent_p1, agent_p2, seeds, swap, options):
    """Play one game per seed; ``swap[i]`` seats agent_p2 as P1.  Returns the core's arrays."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    swap = np.asarray(swap, dtype=np.uint8)
    if getattr(agent_p1, "batchable", False) and getattr(agent_p2, "batchable", False):
        return search.play_games(seeds, agent_p1.spec, agent_p2.spec, swap,
                                 **_core_options(options))
    rows = []
    for s, sw in zip(seeds, swap):
        rows.append(_play_python((agent_p2, agent_p1) if sw else (agent_p1, agent_p2),
                                 s, options))
    return _stack(rows)


def _play_chunk(args):
    a, b, seeds, swap, options = args
    return play_games_raw(_as_agent(a), _as_agent(b), seeds, swap, options)


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
        Worker count: threads for built-in agents (the core releases the GIL), processes
        otherwise.  The games and the table are the same for any number of jobs.
    progress : callable, optional
        Called with the number of games finished after each chunk.
    **options
        Game options of :func:`duelcore.new_game`: first_game_wonders, centred_pawn,
        start_coins, banned_tokens, forced_wonders.

    Returns
    -------
    pandas.DataFrame
        Columns: seed, p1, p2 (agent names by seat), winner (0 = P1, 1 = P2, -1 shared),
        winner_agent, victory, vp_<category>_p1/p2, vp_total_p1/p2, coins, wonders drafted
        and built, progress tokens, Play Again turns, cards per colour, who began each Age,
        n_decisions, pawn, final_age.

    Raises
    ------
    ValueError, TypeError
        For a bad agent, number of games, seed or game option.
    """
    a, b = _as_agent(agent_a), _as_agent(agent_b)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    _check_options(options)
    seeds = game_seeds(seed, games)
    swap = (np.arange(games) % 2 == 1) & alternate
    fast = getattr(a, "batchable", False) and getattr(b, "batchable", False)
    searching = any(getattr(x, "kind", "") == "mcts" for x in (a, b))
    # chunks short enough for the progress bar and Ctrl-C to answer (both wait for a chunk)
    chunk = chunk or max(1, min(games, 1000 if fast and not searching else 10))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 1024:
        raise ValueError(f"jobs must be an integer from 1 to 1024, not {jobs!r}")
    bounds = [(lo, min(games, lo + chunk)) for lo in range(0, games, chunk)]
    if jobs == 1:
        parts = []
        for lo, hi in bounds:
            parts.append(play_games_raw(a, b, seeds[lo:hi], swap[lo:hi], options))
            if progress is not None:
                progress(hi - lo)
    else:
        from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
        pool_type = ThreadPoolExecutor if fast else ProcessPoolExecutor
        jobs_args = [(a if fast else a.name, b if fast else b.name, seeds[lo:hi], swap[lo:hi],
                      options) for lo, hi in bounds]
        if not fast and not (isinstance(agent_a, str) or a.name == parse_agent(a.name).name) :
            raise ValueError("jobs > 1 with custom Python agents is not supported: pass agent "
                             "descriptions or built-in agents")
        with pool_type(jobs) as pool:
            parts = []
            for (lo, hi), part in zip(bounds, pool.map(_play_chunk, jobs_args)):
                parts.append(part)
                if progress is not None:
                    progress(hi - lo)
    raw = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    p1 = np.where(swap, b.name, a.name).astype(object)
    p2 = np.where(swap, a.name, b.name).astype(object)
    return results_table(raw, seeds, p1, p2)
