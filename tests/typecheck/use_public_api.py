"""Uses the public API of the core the way the Python layer does; type-checked by mypy
against the stubs (tests/test_typing_stubs.py).  Not run by pytest."""
from __future__ import annotations

import numpy as np

import duelcore
import duelcore.common.stop as stop
import duelcore.engine
import duelcore.search
from duelcore import seven as sv
from duelcore.architects import engine as arch
from duelcore.duel import search
from duelcore.engine import VICTORY_NAMES, VP_CATEGORIES, _treatments


def duel_game(seed: int) -> tuple[int, str]:
    st: duelcore.State = duelcore.new_game(seed, explicit_chance=False)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    res = st.result()
    total: list[int] = st.vp()[VP_CATEGORIES[0]]
    again = duelcore.state_from_dict(st.to_dict())
    assert again == st.clone() and duelcore.state_size() > 0 and total
    banned, f0, f1 = _treatments((), None, False)
    return banned + f0 + f1 + len(VICTORY_NAMES), str(res["victory"])


def duel_search(st: duelcore.State) -> int:
    token = duelcore.search.SearchStop()
    out = search.mcts_search(st, iterations=100, seed=1, stop=token)
    action, rng = search.choose(st, {"kind": "greedy"}, 7)
    rows = search.play_games(np.arange(4, dtype=np.uint64), {"kind": "random"},
                             {"kind": "random"})
    done: int = rows["completed"]
    return int(out["iterations"]) + action + (rng & 1) + done


def seven_game(players: int) -> list[list[int]]:
    st: sv.State = sv.new_state(players, 3, sides="A")
    while not st.is_terminal():
        for seat in st.pending_seats():
            a: int = sv.choose_action(st, seat, "greedy", seed=seat)
            st.apply_action(a, seat)
    best, visits = sv.choose_action(sv.new_state(players, 4), 0, "mcts:50", return_stats=True)
    assert best in visits or not visits
    scores: list[dict[str, int]] = st.scores()
    rows = sv.play_games_detail(players, ["random"] * players, 3, seed=1)
    vp: list[list[int]] = rows["vp"][0]
    rate: float = sv.mcts_speed(players, 100)
    r = sv.random_games(players, 10)
    return [[s["total"] for s in scores], [int(rows["completed"]), int(r["games"])],
            [v[-1] for v in vp], [int(rate > 0)]]


def stopping() -> bool:
    stop.interrupt()
    sv.clear_interrupt()
    duelcore.search.interrupt()
    flag: bool = duelcore.search.interrupted()
    stop.clear_interrupt()
    t = sv.SearchStop()
    t.set()
    return flag and t.is_set


def architects_game(players: int) -> list[int]:
    st: arch.State = arch.new_state(players, 3, free_order=True)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    totals = [s["total"] for s in st.scores()]
    again = arch.state_from_dict(st.to_dict())
    assert again == st.clone() and arch.state_size() > 0
    token = arch.SearchStop()
    a: int = arch.choose_action(arch.new_state(players, 4), "mcts:20", 1, stop=token)
    best, visits = arch.choose_action(arch.new_state(players, 4), "mcts:20", 1, True)
    rows = arch.play_games_detail(players, ["random"] * players, 3, seed=1)
    return totals + [a, best, len(visits), int(rows["completed"]), st.winners()[0]]
