"""Rewrite tests/golden/golden.json: recorded games and perft counts.

Run only on purpose (after a rule change), and review the diff:

    python tests/golden/make_golden.py
"""
import json
import random
from pathlib import Path

import duelcore

HERE = Path(__file__).parent
GAMES = range(40)
PERFT = [(1, 3), (2, 3), (7, 2)]            # (seed, depth) from the first decision of Age I


def record(seed):
    """A random game (decisions drawn with random.Random(seed)) and its result."""
    rnd = random.Random(seed)
    s = duelcore.new_game(seed, first_player=None if seed % 4 == 3 else 0,
                          centred_pawn="begins" if seed % 5 == 4 else "chooses")
    decisions = []
    while not s.is_terminal():
        a = rnd.choice(s.legal_actions())
        decisions.append(a)
        s.apply_action(a)
    return {"seed": seed, "options": s.to_dict()["options"] | {"first_player": None if seed % 4 == 3 else 0},
            "decisions": decisions, "result": s.result()}


def age1_start(seed):
    s = duelcore.new_game(seed)
    rnd = random.Random(seed)
    while s.phase != "play":
        s.apply_action(rnd.choice(s.legal_actions()))
    return s


def perft(state, depth):
    """Number of decision sequences of length `depth` (chance sampled by the state's RNG)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def main():
    data = {"games": [record(seed) for seed in GAMES],
            "perft": [{"seed": seed, "depth": d, "count": perft(age1_start(seed), d)}
                      for seed, d in PERFT]}
    (HERE / "golden.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(data['games'])} games and {len(data['perft'])} perft counts")


if __name__ == "__main__":
    main()
