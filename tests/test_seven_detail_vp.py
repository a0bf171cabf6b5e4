"""``play_games_detail`` rows carry the VP of each seat by category (``vp``): the numbers of
``State.scores()`` for the same game, the total last and equal to ``totals``.

The games of a batch of random agents are replayed move by move through the Python ``State``
with the batch's own random streams (splitmix64 and the exact draw below n of the core,
``duelcore/common/rng.pxd``), which also checks that the batch plays the rules' games."""
from __future__ import annotations

import pytest

from duelcore import seven as sv
from duelcore.seven import data as D

M64 = (1 << 64) - 1
AGENT_SALT = 0xA6E27A6E27A6E27A


class Rng:
    """The core's splitmix64 and rng_below (Lemire's multiply-shift with rejection)."""

    def __init__(self, state: int):
        self.x = state & M64

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        m = (self.next() >> 32) * n
        if (m & 0xFFFFFFFF) < n:
            thresh = ((1 << 32) - n) % n
            while (m & 0xFFFFFFFF) < thresh:
                m = (self.next() >> 32) * n
        return m >> 32


def game_stream(seed: int, g: int, salt: int) -> int:
    """The RNG state of game ``g`` of a batch (play_games_detail's game_stream)."""
    x = Rng(((seed ^ salt) + (g + 1) * 0xD1B54A32D192ED03) & M64)
    return x.next()


def replay(players: int, seed: int, g: int) -> sv.State:
    """Game ``g`` of ``play_games_detail(players, ["random"] * players, ..., seed)``."""
    st = sv.new_state(players, 0, explicit_chance=True)
    rng = Rng(game_stream(seed, g, AGENT_SALT))
    while not st.is_terminal():
        if st.is_chance_node():
            if st.phase in ("deal", "draw"):       # a physical card of the deck, uniformly
                deck = st.to_dict()["deck"]
                name = D.PHYSICAL[deck[rng.below(len(deck))]][0]
                st.apply_action(sv.CHANCE_CARD_BASE + name)
            else:
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.below(len(outcomes))][0])
            continue
        for seat in st.pending_seats():
            legal = st.legal_actions(seat)
            st.apply_action(legal[rng.below(len(legal))], seat)
    return st


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7])
def test_vp_by_category_is_state_scores_of_the_same_game(players):
    seed, first, games = 1000 + players, 7, 4
    rows = sv.play_games_detail(players, ["random"] * players, games, seed=seed,
                                first_game=first)
    assert rows["completed"] == games and rows["interrupted"] is False
    for k in range(games):
        vp, totals = rows["vp"][k], rows["totals"][k]
        seats = 3 if players == 2 else players
        assert len(vp) == seats and all(len(v) == len(sv.VP_CATEGORIES) for v in vp)
        assert sv.VP_CATEGORIES[-1] == "total"
        for v, t in zip(vp, totals):
            assert sum(v[:-1]) == v[-1] == t
        st = replay(players, seed, first + k)
        assert [[s[c] for c in sv.VP_CATEGORIES] for s in st.scores()] == vp
        assert [st.coins(i) for i in range(seats)] == rows["coins"][k]
        assert sorted(st.winners()) == [i for i in range(players) if rows["winners"][k] >> i & 1]


def test_vp_rows_with_a_study_set_up():
    rows = sv.play_games_detail(4, ["greedy", "mcts:30"], 3, seed=9, sides="B",
                                remove=["Altar"], lineups=[[0, 1, 0, 1]] * 3)
    for vp, totals in zip(rows["vp"], rows["totals"]):
        assert [v[-1] for v in vp] == totals
        assert all(sum(v[:-1]) == v[-1] for v in vp)
