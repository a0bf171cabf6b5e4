"""Golden data: recorded games replay to the same result; perft counts of legal decision
sequences are unchanged.  The file is rewritten only by tests/golden/make_golden.py, on
purpose, after a rule change whose diff is reviewed."""
import json
import sys
from pathlib import Path

import pytest

import duelcore

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from make_golden import age1_start, perft  # noqa: E402

GOLDEN = json.loads((Path(__file__).parent / "golden" / "golden.json").read_text())


@pytest.mark.parametrize("game", GOLDEN["games"], ids=lambda g: f"seed{g['seed']}")
def test_recorded_game_replays(game):
    opts = game["options"]
    s = duelcore.new_game(game["seed"], first_player=opts["first_player"],
                          centred_pawn=opts["centred_pawn"])
    for i, a in enumerate(game["decisions"]):
        assert a in s.legal_actions(), f"decision {i} ({a}) is no longer legal"
        s.apply_action(a)
    assert s.is_terminal()
    assert s.result() == game["result"]


@pytest.mark.parametrize("case", GOLDEN["perft"], ids=lambda c: f"seed{c['seed']}-d{c['depth']}")
def test_perft(case):
    assert perft(age1_start(case["seed"]), case["depth"]) == case["count"]
