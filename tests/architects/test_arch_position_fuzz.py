"""Positions as data are safe: a position that loads is playable; one that is not is refused
with a StateFormatError naming the field (and the rule).

* Hand-written refusals: each names its field.
* Fuzzing: real positions (every phase, explicit and sampled chance, every option, 2..7
  players) mutated in 1-3 fields -- a value seen at that place in another position (each is
  valid alone), a nudged number, a flipped boolean, a deleted or unknown key, an extra or a
  missing list entry, a value of the wrong type -- are refused with a StateFormatError or
  play to the end with every invariant after every action (and the agents return legal
  actions).  A quick campaign runs by default; a long one under ``-m slow``
  (``ARCH_FUZZ_MUTANTS``, default 100,000).
"""
from __future__ import annotations

import copy
import os
import random

import pytest

from duelcore.architects import engine as core

WEIRD = [None, True, False, -1, 0, 1, 2, 7, 255, 256, 10**20, 1.5, float("nan"), "x", "",
         "wood", "Giza", "Economy", [], [0], {}, {"wood": 1}]


def weird(rng: random.Random):
    """A fresh copy of a value of WEIRD (never the shared object: a mutant that appends to
    it would change every later mutant, and could end up containing itself)."""
    return copy.deepcopy(rng.choice(WEIRD))


def corpus(n_games: int = 24, seed: int = 0) -> list[dict]:
    """Positions of random games: every node, explicit chance in half of them, every rule
    option, 2..7 players."""
    rng = random.Random(seed)
    options = [{}, {"free_order": True}, {"economy_forces_build": False},
               {"engineering_once_per_turn": True}, {"coins_only_when_needed": True},
               {"wonder_power_optional": True}, {"removed_tokens": ["Culture"]}]
    out = []
    for g in range(n_games):
        players = 2 + g % 6
        opts = options[g % len(options)]
        s = core.new_state(players, g, explicit_chance=g % 2 == 0, **opts)
        k = 0
        while not s.is_terminal():
            if k % 3 == 0 or s.phase not in ("main", "chance"):
                out.append(s.to_dict())
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            k += 1
        out.append(s.to_dict())
    return out


def _paths(d, prefix=()):
    yield prefix, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, prefix + (i,))


def _get(d, path):
    for p in path:
        d = d[p]
    return d


def _set(d, path, value):
    for p in path[:-1]:
        d = d[p]
    d[path[-1]] = value


def mutate(pos: dict, pool: list[dict], rng: random.Random) -> dict:
    """A copy of ``pos`` changed in 1-3 places."""
    m = copy.deepcopy(pos)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p, _ in _paths(m) if p]
        path = rng.choice(paths)
        try:
            value = _get(m, path)
        except (KeyError, IndexError, TypeError):
            continue
        kind = rng.random()
        parent = _get(m, path[:-1])
        if kind < 0.35:                                  # a value from another position
            other = rng.choice(pool)
            try:
                _set(m, path, copy.deepcopy(_get(other, path)))
            except (KeyError, IndexError, TypeError):
                _set(m, path, weird(rng))
        elif kind < 0.6 and isinstance(value, int) and not isinstance(value, bool):
            _set(m, path, value + rng.choice([-2, -1, 1, 2, 3]))
        elif kind < 0.65 and isinstance(value, bool):
            _set(m, path, not value)
        elif kind < 0.75 and isinstance(parent, dict):
            if rng.random() < 0.5:
                del parent[path[-1]]
            else:
                parent[rng.choice(["extra", "wood", "Culture", "top", "Giza"])] = weird(rng)
        elif kind < 0.85 and isinstance(value, list):
            if value and rng.random() < 0.5:
                value.pop(rng.randrange(len(value)))
            else:
                value.append(copy.deepcopy(value[0]) if value else weird(rng))
        elif kind < 0.92 and isinstance(value, dict) and value:
            k = rng.choice(list(value))
            v = value.pop(k)
            value[rng.choice(core.KINDS + core.TOKENS)] = v
        else:
            _set(m, path, weird(rng))
    return m


def evaluate(mutant: dict, seed: int = 0) -> str:
    """'refused' (a StateFormatError naming a field) or 'played' (loaded, then played to the
    end with every invariant after every action).  Anything else raises."""
    try:
        s = core.state_from_dict(mutant)
    except core.StateFormatError as e:
        assert e.field and "\n" not in str(e)
        return "refused"
    rng = random.Random(seed)
    assert s.state_check() == 0
    assert core.state_from_dict(s.to_dict()) == s
    first = True
    steps = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            assert outs and abs(sum(p for _, p in outs) - 1) < 1e-9
            s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            legal = s.legal_actions()
            assert len(legal) >= 2, (s.phase, legal)
            if first:
                for agent in ("greedy", "mcts:20"):
                    assert core.choose_action(s, agent, seed) in legal
                first = False
            s.apply_action(rng.choice(legal))
        code = s.state_check()
        assert code == 0, core.check_message(code)
        steps += 1
        assert steps < 5000, "the game does not end"
    return "played"


def refused(d, field):
    with pytest.raises(core.StateFormatError) as info:
        core.state_from_dict(d)
    assert info.value.field == field, (info.value.field, str(info.value))
    assert str(info.value).startswith(f"{field}: ")
    return info.value


def _position_with_task(task: str) -> dict:
    """The first position of seeded random 4-player games whose task is ``task``."""
    rng = random.Random(1)
    for g in range(200):
        s = core.new_state(4, g)
        while not s.is_terminal():
            d = s.to_dict()
            if d["task"] == task:
                return d
            s.apply_action(rng.choice(s.legal_actions()))
    raise AssertionError(f"no position with task {task}")


def test_refusals_name_the_field():
    """Hand-made bad positions are refused naming the field and, for a broken invariant,
    the rule (A-COMP-2, A-TOK-1, A-DEC-2, A-SETUP-1...)."""
    base = core.new_state(3, 5).to_dict()
    d = copy.deepcopy(base)
    d["players"] = 8
    refused(d, "players")
    d = copy.deepcopy(base)
    d["seats"][0]["tableau"]["wood"] = 3                 # 3 cards out of nowhere
    assert refused(d, "decks").rule == "A-COMP-2"
    d = copy.deepcopy(base)
    d["seats"][1]["tokens"]["Economy"] = 1               # a 16th token
    assert refused(d, "stack").rule == "A-TOK-1"
    d = copy.deepcopy(base)
    d["rng"] = 1.0
    refused(d, "rng")
    d = copy.deepcopy(base)
    d["active"] = True
    refused(d, "active")
    d = copy.deepcopy(base)
    d["options"]["free_order"] = "false"
    refused(d, "options.free_order")
    d = copy.deepcopy(base)
    del d["cat"]
    refused(d, "position.cat")
    d = copy.deepcopy(base)
    d["phase"] = "pay"
    assert refused(d, "phase").rule == "A-ORDER-1"
    d = copy.deepcopy(base)
    d["seats"][2]["wonder"] = d["seats"][0]["wonder"]
    refused(d, "seats")
    d = copy.deepcopy(base)
    d["seats"][0]["stages"] = ["S3"]
    assert refused(d, "seats").rule == "A-BUILD-2"
    d = copy.deepcopy(base)
    d["conflict"]["turned"] = 2
    assert refused(d, "conflict.turned").rule == "A-MIL-2"
    d = copy.deepcopy(base)
    d["game"] = "seven"
    refused(d, "game")
    # a wonder power in progress belongs to the active seat's wonder (check 26)
    d = _position_with_task("hali_deck")
    d["task"] = "alexandria"
    e = refused(d, "task")
    assert e.rule == "A-WON" and str(e).count("(A-WON)") == 1, str(e)
    with pytest.raises(core.StateFormatError):
        core.state_from_dict([1, 2])


def test_the_corpus_round_trips():
    """Every position of the corpus loads back equal to itself."""
    for d in corpus(12, 1):
        assert core.state_from_dict(d).to_dict() == d


def test_fuzz_quick():
    """2,500 seeded mutants of real positions: none is accepted and then broken."""
    pool = corpus()
    rng = random.Random(2026)
    seen = {"refused": 0, "played": 0}
    for i in range(2500):
        m = mutate(rng.choice(pool), pool, rng)
        seen[evaluate(m, i)] += 1
    assert seen["refused"] > 500 and seen["played"] > 100, seen


@pytest.mark.slow
def test_fuzz_long():
    """The long campaign (ARCH_FUZZ_MUTANTS mutants, default 100,000)."""
    pool = corpus(60, 7)
    n = int(os.environ.get("ARCH_FUZZ_MUTANTS", "100000"))
    rng = random.Random(7)
    for i in range(n):
        m = mutate(rng.choice(pool), pool, rng)
        evaluate(m, i)
