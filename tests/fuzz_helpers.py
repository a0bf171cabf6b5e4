"""Fuzzing of positions as data (issue 14): real positions, mutated in 1-3 fields.

The corpus is made of real positions: every state of random games played with
``new_game(seed, explicit_chance=True)`` (every phase: the set-up, the draft, reveals, guild
backs, the Great Library, the choice of who begins ...) and in sampled mode (decisions only),
under several rule options, plus a few sparse hand-made positions (only the required keys).

A mutation picks a field anywhere in the position dict and changes it: a value seen at that
place in another position (the most telling kind: each is valid alone), a nudged number, a
flipped boolean, an extra or a missing list entry, a deleted key, a value of the wrong type
(floats, NaN, huge integers, "false", nested lists...).  The same code makes a mutant from
hypothesis draws (the quick tests, which shrink) and from a seeded ``random.Random`` (the long
campaign, where mutant number ``i`` is rebuilt from ``i`` alone).

:func:`evaluate` states the guarantee: ``state_from_dict`` either refuses the mutant with a
``StateFormatError`` naming a field, or returns a state that is fully playable.
"""
from __future__ import annotations

import copy
import functools
import json
import math
import random
import re

import duelcore
from duelcore import StateFormatError, data, new_game, search, state_from_dict

import duelpy

from mutation_helpers import (DrawChooser, RandomChooser, nudged, retyped,  # noqa: F401
                              norm_path as _norm, walk as _walk)

#: rule options of the corpus games: (options, number of games)
CORPUS_OPTIONS = (
    (dict(explicit_chance=True, first_player=None), 14),
    (dict(explicit_chance=True), 14),
    (dict(explicit_chance=True, first_game_wonders=True), 8),
    (dict(explicit_chance=True, centred_pawn="begins"), 8),
    (dict(explicit_chance=True, banned_tokens=("Law", "Economy"),
          forced_wonders=("The Great Library", "The Mausoleum")), 8),
    (dict(explicit_chance=True, forced_wonders=(None, "The Statue of Zeus"), first_player=1), 6),
    (dict(), 12),
    (dict(first_game_wonders=True), 6),
    (dict(centred_pawn="begins", forced_wonders=("Circus Maximus", None)), 6),
)
PER_PHASE = 10          # positions kept per (mode, phase)
MAX_STEPS = 2000        # actions in a playout: every game ends far sooner
WEIRD = (None, True, False, 0, -1, 1, 2, 3, 8, 19, 20, 255, 65536, 2 ** 31, 2 ** 63, 2 ** 64,
         -2 ** 63, 10 ** 30, 0.5, 17.9, 7.0, math.nan, math.inf, -math.inf, "false", "true", "",
         "0", "7", "x" * 60, "face_down", "over", [], {}, [[]], [None], {"name": None},
         [1, 2, 3], [[2, 5], [2, 5], [2, 5]])


# ---------------------------------------------------------------- the corpus
@functools.lru_cache(maxsize=None)
def corpus() -> tuple:
    """The real positions, as JSON text (a tuple, so it is shared and cannot be changed)."""
    kept: dict = {}
    rng = random.Random(14)
    seed = 0
    for options, n_games in CORPUS_OPTIONS:
        mode = "explicit" if options.get("explicit_chance") else "sampled"
        for _ in range(n_games):
            seed += 1
            state = new_game(seed, **options)
            while True:
                key = (mode, state.phase)
                bucket = kept.setdefault(key, [])
                d = state.to_dict()
                # a spread over games and moments: the first ones, then random replacements
                if len(bucket) < PER_PHASE:
                    bucket.append(d)
                elif rng.random() < 0.15:
                    bucket[rng.randrange(PER_PHASE)] = d
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
    positions = [d for key in sorted(kept) for d in kept[key]]
    # sparse hand-made positions: only the required keys of play-phase positions
    for d in [d for d in positions if d["phase"] == "play"][::4]:
        sparse = {k: d[k] for k in ("version", "age", "layout", "players")}
        try:
            state_from_dict(sparse)
        except StateFormatError:
            continue
        positions.append(sparse)
    return tuple(json.dumps(d) for d in positions)


def corpus_phases() -> set:
    """(mode, phase) pairs the corpus covers."""
    out = set()
    for text in corpus():
        d = json.loads(text)
        mode = "explicit" if d.get("options", {}).get("explicit_chance") else "sampled"
        out.add((mode, d.get("phase", "play")))
    return out


@functools.lru_cache(maxsize=None)
def value_pool() -> dict:
    """Values seen at each (normalised) place of the corpus positions, plus every name the
    place can hold: {path: [values]}."""
    pool: dict = {}
    for text in corpus():
        for path, v in _walk(json.loads(text)):
            pool.setdefault(_norm(path), {}).setdefault(json.dumps(v, sort_keys=True), v)
    extra = {
        ("phase",): list(duelcore.PHASE_NAMES),
        ("victory",): list(duelcore.VICTORY_NAMES),
        ("layout", "*"): list(data.CARD_NAMES) + ["face_down", "face_down_guild", None],
        ("players", "*", "city", "*"): list(data.CARD_NAMES),
        ("discard_pile", "*"): list(data.CARD_NAMES),
        ("players", "*", "wonders", "*", "name"): list(data.WONDER_NAMES),
        ("players", "*", "wonders", "*", "card"): list(data.CARD_NAMES),
        ("players", "*", "progress_tokens", "*"): list(data.TOKEN_NAMES),
        ("board_tokens", "*"): list(data.TOKEN_NAMES),
        ("aside_tokens", "*"): list(data.TOKEN_NAMES),
        ("library_offer", "*"): list(data.TOKEN_NAMES),
        ("draft", "offer", "*"): list(data.WONDER_NAMES),
        ("draft", "revealed", "*"): list(data.WONDER_NAMES),
        ("draft", "picks"): list(range(9)),
        ("reveal_queue", "*"): list(range(20)),
        ("guild_slots", "*"): list(range(20)),
        ("pending", "*"): ["token", "destroy_brown", "destroy_grey", "revive", "library"],
        ("dealing",): [0, 1, 2],
        ("pawn",): list(range(-9, 10)),
        ("options", "banned_tokens", "*"): list(data.TOKEN_NAMES),
        ("options", "forced_wonders", "*"): list(data.WONDER_NAMES) + [None],
    }
    for path, values in extra.items():
        for v in values:
            pool.setdefault(path, {}).setdefault(json.dumps(v, sort_keys=True), v)
    return {path: list(vals.values()) for path, vals in pool.items()}


# ---------------------------------------------------------------- mutations
OPERATIONS = ("plausible", "plausible", "plausible", "plausible", "nudge", "nudge", "insert",
              "insert", "delete", "weird", "retype")


def _nudged(v, c):
    return nudged(v, c, (-1, 1, -2, 2, -4, 4, 8, -8, 16), WEIRD)


def _retyped(v, c):
    return retyped(v, c, WEIRD)


def mutate(d: dict, c, n_max: int = 3) -> tuple[dict, list]:
    """A copy of ``d`` with 1..n_max changes chosen by ``c``; returns (mutant, what changed)."""
    d = copy.deepcopy(d)
    pool = value_pool()
    changes = []
    for _ in range(c.integer(1, n_max)):
        if c.integer(0, 1):     # any node: a layout slot, a card of a city, a wonder's card ...
            paths = [p for p, _ in _walk(d)] or [("phase",)]
        else:                   # a field of the position, of the draft, the options or a player
            paths = [p for p, _ in _walk(d) if len(p) == 1 or (len(p) == 2 and p[0] in (
                "draft", "options")) or (len(p) == 3 and p[0] == "players")]
            # including those a position may carry but this one leaves out
            paths += [(k,) for k in ("phase", "to_move", "dealing", "replay", "pending",
                                      "guild_slots", "library_offer", "winner") if k not in d]
        path = c.choice(paths)
        op = c.choice(OPERATIONS)
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        old = parent[key] if (isinstance(parent, dict) and key in parent) or \
            (isinstance(parent, list) and isinstance(key, int) and key < len(parent)) else None
        norm = _norm(path)
        if op == "delete":
            if isinstance(parent, dict):
                parent.pop(key, None)
            else:
                del parent[key]
            changes.append(f"delete {path}")
            continue
        if op == "insert":
            target = old if isinstance(old, list) else parent if isinstance(parent, list) else None
            elems = pool.get(norm + ("*",)) if isinstance(old, list) else pool.get(norm)
            if target is not None:
                x = c.choice(elems) if elems and c.integer(0, 3) else (
                    c.choice(target) if target else copy.deepcopy(c.choice(WEIRD)))
                target.insert(c.integer(0, len(target)), copy.deepcopy(x))
                changes.append(f"insert {x!r} into {path}")
                continue
            op = "plausible"
        if op == "plausible" and pool.get(norm):
            new = copy.deepcopy(c.choice(pool[norm]))
        elif op == "nudge":
            new = _nudged(old, c)
        elif op == "retype":
            new = _retyped(old, c)
        else:
            new = copy.deepcopy(c.choice(WEIRD))
        parent[key] = new
        changes.append(f"{path} = {new!r}")
    return d, changes


def mutant(i: int) -> tuple[dict, list]:
    """Mutant number ``i`` of the long campaign (a function of ``i`` alone)."""
    c = RandomChooser(0x5EED0000 + i)
    texts = corpus()
    return mutate(json.loads(c.choice(texts)), c)


# ---------------------------------------------------------------- the guarantee
FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])*(\.[^.\s]+(\[\d+\])*)*$")


def field_kind(field: str) -> str:
    """``players[1].city[3]`` -> ``players[*].city[*]`` (for counting refusals by field)."""
    return re.sub(r"\[\d+\]", "[*]", field)


def evaluate(d, seed: int = 0, mcts_iterations: int = 50) -> str:
    """``"refused:<field>"`` or ``"accepted"``; raises AssertionError if the guarantee breaks.

    Refused: ``state_from_dict`` raised ``StateFormatError`` whose ``.field`` names a field
    and whose message is one line.  Accepted: ``state.check()`` holds; the position round-trips
    through ``to_dict``; at the first decision node the built-in agents (random, greedy, MCTS
    with ``mcts_iterations``, through ``duelcore.search.choose`` and ``mcts_search``) return
    legal actions; a playout in the core (``random_playout_from``) ends in a sound final
    state; and random play to the end from Python keeps ``state.check()`` after every action,
    with random and greedy choosing legal actions at every decision.
    """
    try:
        state = state_from_dict(d)
    except StateFormatError as e:
        assert isinstance(e.field, str) and FIELD.match(e.field), f"bad field {e.field!r}: {e}"
        msg = str(e)
        assert msg.startswith(e.field + ": ") and "\n" not in msg and len(msg) < 600, repr(msg)
        return "refused:" + field_kind(e.field)
    state.check()
    back = state_from_dict(state.to_dict())
    assert back == state, "the accepted position does not round-trip through to_dict"
    rng = random.Random(seed)
    end = search.random_playout_from(state, seed)
    assert end.is_terminal(), "random_playout_from did not end the game"
    end.check()
    agents = [duelpy.RandomAgent(seed), duelpy.GreedyAgent(seed)]
    mcts = duelpy.MCTSAgent(iterations=mcts_iterations, seed=seed)
    first_decision = True
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps <= MAX_STEPS, f"no end after {MAX_STEPS} actions"
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase!r}"
        if not state.is_chance_node():
            for agent in agents:
                a = agent.select_action(state)
                assert a in legal, f"{agent.name} chose {a}, not legal in {state.phase!r}"
            if first_decision:
                first_decision = False
                a = mcts.select_action(state)
                assert a in legal, f"MCTS chose {a}, not legal in {state.phase!r}"
                res = search.mcts_search(state, iterations=mcts_iterations, seed=seed)
                assert set(res["actions"]) <= set(legal), "mcts_search explored illegal actions"
        state.apply_action(rng.choice(legal))
        state.check()
    assert state.legal_actions() == [] and state.returns() in ([0.0, 0.0], [1.0, -1.0],
                                                               [-1.0, 1.0])
    return "accepted"
