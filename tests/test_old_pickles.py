"""States pickled by the flat core (before the one-package-per-game layout) still unpickle.

The fixture ``fixtures/old_pickles.json`` was written by the OLD code (commit a45d4d5), whose
``State.__reduce__`` names ``duelcore.engine._state_from_bytes`` (Duel) and
``duelcore.seven.state_from_dict`` (7 Wonders).  It holds, per state, the pickle and the
``to_dict()`` that code gave.  To make it again (with the old build first on the path):

    git worktree add /tmp/core-old a45d4d5 && cd /tmp/core-old \
        && python setup.py -q build_ext --inplace \
        && PYTHONPATH=/tmp/core-old/src python /work/wt-core/tests/fixtures/make_old_pickles.py
"""
from __future__ import annotations

import base64
import json
import pickle
from pathlib import Path

import pytest

import duelcore
from duelcore import seven as sv

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "old_pickles.json").read_text())


def _cases(game):
    return [pytest.param(e, id=e["label"]) for e in FIXTURE[game]]


@pytest.mark.parametrize("entry", _cases("duel"))
def test_old_duel_pickle_loads(entry):
    blob = base64.b64decode(entry["pickle"])
    assert b"duelcore.engine" in blob and b"_state_from_bytes" in blob
    st = pickle.loads(blob)
    assert isinstance(st, duelcore.State)
    assert st.to_dict() == entry["to_dict"]
    # a new pickle names the same stable path (OpenSpiel's reader accepts only that one)
    again = pickle.dumps(st, 2)
    assert b"cduelcore.engine\n_state_from_bytes\n" in again
    assert pickle.loads(again) == st


@pytest.mark.parametrize("entry", _cases("seven"))
def test_old_seven_pickle_loads(entry):
    blob = base64.b64decode(entry["pickle"])
    assert b"duelcore.seven" in blob and b"state_from_dict" in blob
    st = pickle.loads(blob)
    assert isinstance(st, sv.State)
    assert st.to_dict() == entry["to_dict"]
    again = pickle.dumps(st, 2)
    assert b"cduelcore.seven\nstate_from_dict\n" in again
    assert pickle.loads(again) == st


def test_fixture_covers_the_kinds_of_position():
    duel = {e["to_dict"]["phase"] for e in FIXTURE["duel"]}
    assert {"draft", "over"} <= duel and any(e["to_dict"]["options"]["explicit_chance"]
                                             for e in FIXTURE["duel"])
    assert {"turn", "over", "deal"} <= {e["to_dict"]["phase"] for e in FIXTURE["seven"]}
