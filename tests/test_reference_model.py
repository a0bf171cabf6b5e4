"""The engine against an independent one-step reference model (tests/reference_model.py).

At every step of random games (starting coins 0-40, both centred-pawn rules, P1 drawn at
random, wonders and builds favoured so that rare interactions come up), the reference
predicts the legal actions, the exact chance probabilities (the Age III guild backs and
every reveal, R-CHANCE-2) and the whole next position; the engine must agree.  A quick
run by default, a long one under the slow marker.
"""
import random

import pytest

import duelcore
from reference_model import L, NAMES, chance_probs, legal, step


def norm(d):
    """The parts of a position the reference predicts."""
    o = {k: d[k] for k in ('phase', 'age', 'to_move', 'layout', 'pawn', 'replay', 'winner',
                           'victory', 'last_taker')}
    o['reveal_queue'] = sorted(d['reveal_queue'])
    o['guild_slots'] = sorted(d['guild_slots'])
    o['mil'] = [sorted(x) for x in d['military_tokens']]
    for k in ('board_tokens', 'aside_tokens', 'library_offer', 'discard_pile'):
        o[k] = sorted(d[k])
    o['players'] = [{'coins': p['coins'], 'city': sorted(p['city']),
                     'tokens': sorted(p['progress_tokens']),
                     'wonders': sorted((w['name'], w['built'], w['card']) for w in p['wonders'])}
                    for p in d['players']]
    if d['phase'] == 'choose_start' or (d['phase'] == 'reveal' and d['dealing']):
        o['chooser'] = d['chooser']
    if d['phase'] == 'destroy':
        o['dc'] = d['destroy_colour']
    return o


def run(seed, games):
    rnd = random.Random(seed)
    steps = 0
    for g in range(games):
        coins = rnd.choice([(7, 7), (20, 20), (40, 40), (0, 3)])
        s = duelcore.new_game(rnd.randrange(2 ** 32), explicit_chance=True, first_player=None,
                              start_coins=coins, centred_pawn=rnd.choice(['chooses', 'begins']))
        while not s.is_terminal():
            d = s.to_dict()
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                if d['phase'] in ('reveal', 'guilds'):
                    expected = chance_probs(d)
                    got = {(NAMES[a - L['CHANCE_CARD_BASE']] if d['phase'] == 'reveal'
                            else a - L['CHANCE_SLOT_BASE']): p for a, p in outcomes}
                    assert set(expected) == set(got), f"game {g}: {d['phase']} outcomes"
                    assert all(abs(expected[k] - got[k]) < 1e-9 for k in expected)
                    assert abs(sum(got.values()) - 1) < 1e-9
                actions, probs = zip(*outcomes)
                a = rnd.choices(actions, probs)[0]
            else:
                actions = set(s.legal_actions())
                if d['phase'] != 'draft':
                    assert legal(d) == actions, f"game {g}, {d['phase']}: legal actions"
                actions = sorted(actions)
                weights = [6 if L['WONDER_BASE'] <= x < L['TOKEN_BASE'] else
                           3 if x < L['DISCARD_BASE'] else 1 for x in actions]
                a = rnd.choices(actions, weights)[0]
            s.apply_action(a)
            steps += 1
            if d['phase'] in ('setup_first_player', 'setup_tokens', 'draft_reveal', 'draft'):
                continue
            expected, got = norm(step(d, a)), norm(s.to_dict())
            assert expected == got, (f"game {g}, {duelcore.action_to_string(a)}: " + repr(
                {k: (expected[k], got[k]) for k in expected if expected[k] != got.get(k)}))
    return steps


def test_engine_agrees_with_the_reference_model():
    assert run(0, 200) > 16_000


@pytest.mark.slow
def test_engine_agrees_with_the_reference_model_long():
    assert run(1, 3000) > 300_000
