"""The 7 Wonders core honours the process-wide stop flag of every game's core
(``duelcore.common.stop``, also ``duelcore.search.interrupt``): its batch runners and its
IS-MCTS stop within a second, keep only the games they finished, and a Ctrl-C (SIGINT) in the
main thread stops a batch and raises KeyboardInterrupt once the core returns."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import duelcore.search
from duelcore import seven as sv
from duelcore.common import stop

#: seconds from the stop to the core's return that the tests accept
BOUND = 1.0


@pytest.fixture(autouse=True)
def _clear_flag():
    """Never leave the process-wide flag set for other tests."""
    stop.clear_interrupt()
    yield
    stop.clear_interrupt()


def _stopped(call, after: float, how=stop.interrupt):
    """Run ``call()`` in this (the main) thread; ``how()`` from another thread ``after``
    seconds in.  Returns (result, seconds from the stop to the return)."""
    when = []

    def fire():
        when.append(time.monotonic())
        how()

    timer = threading.Timer(after, fire)
    timer.start()
    try:
        result = call()
    finally:
        timer.cancel()
    done = time.monotonic()
    assert when, "the call returned before the stop"
    return result, done - when[0]


def test_one_flag_for_every_game():
    assert sv.interrupt is stop.interrupt is duelcore.search.interrupt
    assert sv.clear_interrupt is duelcore.search.clear_interrupt
    assert sv.SearchStop is duelcore.search.SearchStop is stop.SearchStop
    duelcore.search.interrupt()
    assert sv.interrupted() and stop.interrupted()
    sv.clear_interrupt()
    assert not duelcore.search.interrupted()


def test_play_games_detail_stops_and_keeps_the_finished_games():
    # about 30 ms a game: a few dozen finish, and the stop falls inside a search
    agents = ["mcts:30", "greedy", "greedy", "greedy"]
    rows, seconds = _stopped(lambda: sv.play_games_detail(4, agents, 20000, seed=5), 1.5,
                             how=duelcore.search.interrupt)
    assert seconds < BOUND, seconds
    assert rows["interrupted"] is True and sv.interrupted()
    n = rows["completed"]
    assert 0 < n < 20000, n
    for key in ("boards", "sides", "totals", "vp", "coins", "winners"):
        assert len(rows[key]) == n, key
    stop.clear_interrupt()
    # the finished games are whole games: the same as a batch of n games run to the end
    full = sv.play_games_detail(4, agents, n, seed=5)
    assert full["interrupted"] is False and full["completed"] == n
    for key in ("boards", "sides", "totals", "vp", "coins", "winners"):
        assert rows[key] == full[key], key


def test_a_flag_set_before_the_batch_plays_nothing():
    stop.interrupt()
    rows = sv.play_games_detail(3, ["random"] * 3, 50, seed=1)
    assert rows["completed"] == 0 and rows["interrupted"] is True and rows["winners"] == []
    r = sv.random_games(3, 50, seed=1)
    assert r["games"] == 0 and r["interrupted"] is True and r["signature"] == 0
    stop.clear_interrupt()
    assert sv.play_games_detail(3, ["random"] * 3, 50, seed=1)["completed"] == 50


def test_random_games_stops_and_counts_the_finished_games():
    r, seconds = _stopped(lambda: sv.random_games(7, 10**9, seed=3), 0.5)
    assert seconds < BOUND, seconds
    assert r["interrupted"] is True and 0 < r["games"] < 10**9
    stop.clear_interrupt()
    again = sv.random_games(7, r["games"], seed=3)
    assert again["interrupted"] is False
    for key in ("games", "moves", "wins", "signature"):
        assert r[key] == again[key], key


def test_play_games_stops():
    r, seconds = _stopped(lambda: sv.play_games(3, ["mcts:300"] * 3, 1000, seed=2), 1.0)
    assert seconds < BOUND, seconds
    assert r["interrupted"] is True and r["games"] < 1000
    assert abs(sum(r["wins"]) - r["games"]) < 1e-9


@pytest.mark.parametrize("how", ["flag", "token"])
def test_choose_action_stops_with_its_best_action_so_far(how):
    st = sv.new_state(4, 11)
    token = sv.SearchStop()
    call = (lambda: sv.choose_action(st, 1, "mcts:50000000", seed=1, return_stats=True,
                                     stop=token))
    (a, visits), seconds = _stopped(call, 0.5, how=stop.interrupt if how == "flag"
                                    else token.set)
    assert seconds < BOUND, seconds
    assert a in st.legal_actions(1)
    assert 0 < sum(visits.values()) < 50000000 and visits[a] == max(visits.values())
    assert sv.interrupted() == (how == "flag") and token.is_set == (how == "token")


def test_mcts_speed_stops():
    rate, seconds = _stopped(lambda: sv.mcts_speed(4, 50000000, 1), 0.5)
    assert seconds < BOUND, seconds
    assert rate > 0


def test_a_token_refused_unless_a_search_stop():
    with pytest.raises(TypeError, match="SearchStop"):
        sv.choose_action(sv.new_state(3, 1), 0, "mcts:10", stop=object())


# ---------------------------------------------------------------- Ctrl-C in the main thread
_CHILD = textwrap.dedent("""
    import sys, time
    from duelcore import seven as sv
    calls = {
        "detail": lambda: sv.play_games_detail(4, ["mcts:100000"] * 4, 10, seed=1),
        "random": lambda: sv.random_games(5, 10**9, seed=1),
        "choose": lambda: sv.choose_action(sv.new_state(4, 3), 0, "mcts:100000000"),
        "speed": lambda: sv.mcts_speed(4, 100000000, 1),
    }
    print("start", flush=True)
    try:
        calls[sys.argv[1]]()
    except KeyboardInterrupt:
        print("KeyboardInterrupt at", time.monotonic(), flush=True)
        sys.exit(130)
    print("returned without KeyboardInterrupt", flush=True)
""")


@pytest.mark.parametrize("call", ["detail", "random", "choose", "speed"])
def test_sigint_stops_a_batch_in_the_main_thread(call):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, call], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().strip() == "start"
        time.sleep(0.7)                         # well inside the nogil loop
        assert proc.poll() is None
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, (out, err)
    caught = float(out.split("KeyboardInterrupt at")[1])
    assert caught - sent < BOUND, caught - sent
