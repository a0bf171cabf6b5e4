"""7 Wonders core benchmarks (issue 13).  Run: python -m pytest bench/test_bench_seven.py

Targets on one core: >= 30,000 random games/s at 3 players, >= 10,000 at 7 players; greedy
games/s and MCTS iterations/s reported.  Every benchmark checks its result (a signature of the games played, or a
legal action); speed is reported in extra_info (``games_per_s``, ``iterations_per_s``), never
asserted.
"""
import pytest

from duelcore import seven as sv

from conftest import rate

GAMES = 5000
#: (total VP of all seats, decisions) of the first 5,000 random games from seed 20261130.
#: Speed work must leave them unchanged; a rule change updates them on purpose.
SIGNATURES = {3: (400828, 272104), 7: (914034, 634116)}


@pytest.mark.parametrize("players", [3, 7])
def test_seven_random_games(benchmark, players):
    r = benchmark.pedantic(sv.random_games, (players, GAMES, 20261130), rounds=3)
    assert (r["signature"], r["moves"]) == SIGNATURES[players]
    rate(benchmark, "games_per_s", GAMES)


def test_seven_greedy_games(benchmark):
    """Four greedy players (the agent whose moves also make the MCTS playouts)."""
    r = benchmark.pedantic(sv.play_games_detail, (4, ["greedy"] * 4, 1000, 20261130), rounds=3)
    assert sum(map(sum, r["totals"])) == 202023     # total VP of the 1,000 games
    rate(benchmark, "games_per_s", 1000)


@pytest.mark.parametrize("players", [4, 7])
def test_seven_mcts_iterations(benchmark, players):
    iterations = 2000
    st = sv.new_state(players, seed=7)
    a = benchmark.pedantic(sv.choose_action, (st, 0, f"mcts:{iterations}", 1), rounds=3)
    assert a in st.legal_actions(0)
    rate(benchmark, "iterations_per_s", iterations)


def test_seven_python_step(benchmark):
    """legal_actions + apply_action through the Python API for a whole 4-player game."""
    def game():
        st = sv.new_state(4, seed=3)
        n = 0
        while not st.is_terminal():
            for seat in st.pending_seats():
                st.apply_action(st.legal_actions(seat)[0], seat)
                n += 1
        return n
    n = benchmark.pedantic(game, rounds=3)
    assert n >= 72
    rate(benchmark, "decisions_per_s", n)
