"""Random play of Architects with every invariant checked after every step (A-COMP-2,
A-TOK-1, A-BUILD-2, A-MIL-2, A-TOK-2, A-END...: the core's state_check), legal actions
sorted, unique and at least two (A-DEC-2), chance outcomes summing to 1 (A-CHANCE-1), clones
equal and independent, to_dict round trips, every game ending within 25N + 60 card-taking
turns and a few more.  30 seeded games per player count and option by default, 2,000 per
player count under ``-m slow``.  The ``debug`` test is what CI runs on the debug build
(DUEL_DEBUG=1: state_check inside the core after every action, abort on a broken one)."""
import random

import pytest

from duelcore.architects import engine as core

COUNTS = range(2, 8)
OPTIONS = [{}, {"free_order": True}, {"economy_forces_build": False},
           {"engineering_once_per_turn": True}, {"coins_only_when_needed": True},
           {"wonder_power_optional": True}, {"removed_tokens": ["Culture", "Economy"]}]


def play_checked(players, seed, explicit=False, deep=False, **options):
    rng = random.Random(seed)
    s = core.new_state(players, seed, explicit_chance=explicit, **options)
    steps = 0
    while not s.is_terminal():
        code = s.state_check()
        assert code == 0, core.check_message(code)
        if s.is_chance_node():
            outs = s.chance_outcomes()
            assert outs and abs(sum(p for _, p in outs) - 1) < 1e-9
            a = rng.choices([a for a, _ in outs], [p for _, p in outs])[0]
        else:
            legal = s.legal_actions()
            assert len(legal) >= 2 and legal == sorted(set(legal)), (s.phase, legal)
            a = rng.choice(legal)
        if deep and steps % 7 == 0:
            twin = s.clone()
            assert twin == s and hash(twin) == hash(s)
            assert core.state_from_dict(s.to_dict()) == s
            twin.apply_action(a)
            assert twin != s
        s.apply_action(a)
        steps += 1
        assert s.turns <= 25 * players + 60 + 4 * players + 10
    assert s.state_check() == 0
    assert s.winners() and abs(sum(s.returns()) - 1) < 1e-9
    return s


@pytest.mark.parametrize("players", COUNTS)
def test_random_play_quick(players):
    for k, options in enumerate(OPTIONS):
        for seed in range(30 if not options else 8):
            play_checked(players, 1000 * k + seed, explicit=seed % 2 == 1, deep=seed < 3,
                         **options)


@pytest.mark.slow
@pytest.mark.parametrize("players", COUNTS)
def test_random_play_full(players):
    for seed in range(2000):
        play_checked(players, 10_000 + seed, explicit=seed % 2 == 1, deep=seed % 50 == 0,
                     **OPTIONS[seed % len(OPTIONS)])


def test_random_play_debug():
    """Random games in compiled code (every option) and in Python.  On the debug build the
    core checks every invariant after every action and aborts on a broken one: 2,000 games
    per player count there, 50 elsewhere."""
    n = 2000 if core.DEBUG else 50
    for players in COUNTS:
        r = core.random_games(players, n, seed=players)
        assert r["games"] == n and sum(r["wins"]) >= n
        for options in OPTIONS[1:]:
            raw = core.play_games_detail(players, ["random"] * players, n // 10, seed=players,
                                         **options)
            assert raw["completed"] == n // 10
        play_checked(players, 99, explicit=True, deep=True)
