"""7 Wonders agents: random, greedy and information-set MCTS (determinized, per-player rewards,
decoupled selection at simultaneous nodes).  Win = the game's winner (highest VP, then coins,
W-END-2); a shared win counts as a fraction.  The strength claims of the README are the slow
tests: MCTS at 1,000 iterations against three random players and against three greedy ones,
4 players, 100 games each.  The quick versions play a handful of games with fewer iterations."""
import pytest

from duelcore import seven as sv


def test_greedy_beats_random_quick():
    r = sv.play_games(4, ["greedy", "random", "random", "random"], 40, seed=1)
    assert r["wins"][0] >= 30                       # 10 would be chance


def test_mcts_beats_random_and_greedy_quick():
    r = sv.play_games(4, ["mcts:150", "random", "random", "random"], 4, seed=2)
    assert r["wins"][0] >= 3
    r = sv.play_games(4, ["mcts:300", "greedy", "greedy", "greedy"], 6, seed=3)
    assert r["wins"][0] >= 2                        # 1.5 would be chance


def test_play_games_free_city_and_seven_players():
    """Every player count, every agent kind, games end with a winner."""
    for n in (2, 7):
        r = sv.play_games(n, ["mcts:20"] + ["greedy"] * (n - 1), 2, seed=n)
        assert abs(sum(r["wins"]) - 2) < 1e-9


def test_bad_agent_specs():
    with pytest.raises(ValueError, match="unknown agent"):
        sv.play_games(3, ["random", "random", "minimax"], 1)
    with pytest.raises(ValueError, match="positive iteration count"):
        sv.play_games(3, ["random", "random", "mcts:0"], 1)
    with pytest.raises(ValueError, match="needs 3 agents"):
        sv.play_games(3, ["random"], 1)


@pytest.mark.slow
def test_mcts_1000_beats_random_95_percent():
    """README claim: MCTS (1,000 iterations) wins >= 95% of 4-player games against 3 random."""
    r = sv.play_games(4, ["mcts:1000", "random", "random", "random"], 100, seed=20261130)
    assert r["wins"][0] >= 95, r


@pytest.mark.slow
def test_mcts_1000_beats_greedy_80_percent():
    """README claim: MCTS (1,000 iterations) wins >= 80% of 4-player games against 3 greedy."""
    r = sv.play_games(4, ["mcts:1000", "greedy", "greedy", "greedy"], 100, seed=20261131)
    assert r["wins"][0] >= 80, r
