"""Random play of 7 Wonders with invariants after every step (W-SETUP, W-AGE, W-TURN, W-FREE):
every card of the game in exactly one place and the derived fields fresh (state_check), coins
never negative, 7 cards per hand at the start of each Age (8 for the Free City controller after
its draw, W-FREE-7), legal actions sorted, unique and never empty for a pending seat, exactly
3 x 6 turns per game, clones equal and independent, to_dict round trips.  50 seeded games per
player count by default, 2,000 under ``-m slow``.  The ``debug`` test is what CI runs on the
debug build (state_check inside the core after every action)."""
import random

import pytest

from duelcore import seven as sv

COUNTS = (2, 3, 4, 5, 6, 7)


def play_checked(players, seed, deep=False):
    rng = random.Random(seed)
    st = sv.new_state(players, seed=seed)
    turns = set()
    steps = 0
    while not st.is_terminal():
        assert st.state_check() == 0
        pend = st.pending_seats()
        assert pend, st.phase
        if st.phase == "turn":
            turns.add((st.age, st.turn))
            if st.turn == 1 and len(pend) == st.seats:
                sizes = [len(st.hand(i)) for i in range(players)]
                if players == 2:
                    want = [7, 7]
                    want[st.controller()] = 8
                    assert sizes == want
                else:
                    assert sizes == [7] * players
        for seat in pend:
            legal = st.legal_actions(seat)
            assert legal and legal == sorted(set(legal))
            a = rng.choice(legal)
            if deep and steps % 7 == 0:
                twin = st.clone()
                assert twin == st and hash(twin) == hash(st)
                assert sv.state_from_dict(st.to_dict()) == st
                twin.apply_action(a, seat)
                assert twin != st
            st.apply_action(a, seat)
            steps += 1
            assert all(st.coins(i) >= 0 for i in range(st.seats))
            if st.phase != "turn":
                break
    assert st.state_check() == 0
    assert turns == {(a, t) for a in (1, 2, 3) for t in range(1, 7)}     # W-TURN-5
    assert st.winners() and abs(sum(st.returns()) - 1.0) < 1e-9
    seats = 3 if players == 2 else players
    assert st.moves >= 18 * seats
    return st


@pytest.mark.parametrize("players", COUNTS)
def test_random_play_quick(players):
    for seed in range(50):
        play_checked(players, seed, deep=seed < 5)


@pytest.mark.slow
@pytest.mark.parametrize("players", COUNTS)
def test_random_play_full(players):
    for seed in range(2000):
        play_checked(players, 10_000 + seed, deep=seed % 50 == 0)


def test_random_play_debug():
    """Random games in compiled code and in Python.  On the debug build (DUEL_DEBUG=1, see
    .ci/run) the core checks every invariant after every action and aborts on a broken one."""
    for players in COUNTS:
        r = sv.random_games(players, 100 if sv.DEBUG else 20, seed=players)
        assert sum(r["wins"]) >= r["games"]
        play_checked(players, 99, deep=True)


def test_same_seed_same_game():
    """Seed + actions = the whole game (W-CHANCE): compiled random games are deterministic."""
    assert sv.random_games(4, 30, seed=5) ["signature"] == sv.random_games(4, 30, seed=5)["signature"]
    a = play_checked(5, 3)
    b = play_checked(5, 3)
    assert a == b and a.scores() == b.scores()
