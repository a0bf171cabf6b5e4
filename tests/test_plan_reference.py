"""The planning search keeps round 8's behaviour exactly (issue 33): the same root visits on
seeded positions and the same seeded games as the build before the speed work (commit 78a0df0),
recorded in tests/fixtures/plan_round8_reference.json.

A change of the search's speed that is meant to be exact (a cache, a table, a cheaper loop)
must leave these unchanged.  Regenerate the file only with the build it is meant to pin:

    PYTHONPATH=<that build's src> python tests/test_plan_reference.py --write
"""
import json
import sys
from pathlib import Path

import numpy as np

import duelcore
from duelcore import search

FIXTURE = Path(__file__).parent / "fixtures" / "plan_round8_reference.json"

#: Round 8's default planning search, every option written out, so that a later default
#: does not change what this test pins (the weights by name where the core knows them).
ROUND8 = {"kind": "plan", "c": 0.7, "noise": 1.5, "eps": 0.05, "widen": 1.0, "margin": 0.3,
          "bias": 0.5, "value": 0.0, "horizon": 0, "deny": 0.5, "rmix": 0.0,
          "policy": "fitted", "temp": 0.4, "mast": 3.0, "science": 0.7, "puct": 0.0}


def _round8():
    pinned = dict(ROUND8)
    if hasattr(search, "NAMED_POLICY_WEIGHTS"):
        pinned["weights"] = "round8"
    return pinned


def _positions():
    """Six turns of six seeded games played by greedy, from the opening of Age I to Age III."""
    out = []
    for seed, target in zip(range(1, 7), (0, 12, 24, 36, 48, 56)):
        s = duelcore.new_game(seed)
        rng = seed
        while not (s.phase == "play" and s.n_decisions >= target):
            a, rng = search.choose(s, {"kind": "greedy"}, rng)
            s.apply_action(a)
        out.append((seed, s))
    return out


def _reference():
    spec = _round8()
    res = {"positions": [], "games": {}}
    for seed, s in _positions():
        r = search.mcts_search(s, iterations=2000, seed=seed + 100, **spec)
        res["positions"].append({"seed": seed, "n_decisions": s.n_decisions,
                                 "actions": [int(a) for a in r["actions"]],
                                 "visits": [int(v) for v in r["visits"]]})
    g = search.play_games(np.array([11, 12], dtype=np.uint64), {**spec, "iterations": 200},
                          {**spec, "iterations": 300}, np.array([0, 1], dtype=np.uint8))
    for key in ("winner", "victory", "vp", "coins", "n_decisions", "pawn", "age"):
        res["games"][key] = np.asarray(g[key]).ravel().tolist()
    return res


def test_the_planning_search_plays_round_8_exactly():
    want = json.loads(FIXTURE.read_text())
    got = _reference()
    for w, g in zip(want["positions"], got["positions"]):
        assert (w["seed"], w["n_decisions"]) == (g["seed"], g["n_decisions"])
        assert g["actions"] == w["actions"] and g["visits"] == w["visits"], w["seed"]
    assert got["games"] == want["games"]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    FIXTURE.write_text(json.dumps(_reference()) + "\n")
    print(f"wrote {FIXTURE}")
