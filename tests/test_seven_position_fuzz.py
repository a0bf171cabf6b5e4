"""Fuzzing of 7 Wonders positions as data (issue 30): real positions, mutated in 1-3 places,
are refused with a ``StateFormatError`` naming a field and a rule, or fully playable (see
``seven_fuzz_helpers.evaluate``: the invariants, the position checks, a round trip, the agents
legal at the first decision, core playouts, and random play to the end with ``state_check``
after every action).

A quick version (hypothesis, and a fixed set of seeded mutants) runs by default, and in CI on
the debug build too (``.ci/run``), where a broken invariant or precondition aborts.  The long
campaign (``slow``; 100,000 mutants by default, ``SEVEN_FUZZ_MUTANTS``; workers
``SEVEN_FUZZ_WORKERS``, default 2) runs the mutants in forked worker processes with a timeout
per case, so that a crash, an abort or a hang is reported with its mutant instead of ending the
run.  Its figures are in docs/seven.md::

    PYTHONPATH=src python -m pytest -q -p no:cacheprovider -m slow -s \\
        tests/test_seven_position_fuzz.py
"""
from __future__ import annotations

import json
import os
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from duelcore import seven as sv

import seven_fuzz_helpers as fz


def test_corpus_covers_every_phase_at_every_player_count():
    phases = fz.corpus_phases()
    assert {p for _, p in phases} == set(sv.PHASES)
    for players in range(2, 8):
        have = {p for n, p in phases if n == players}
        assert have >= {"board", "guild", "deal", "turn", "over"}, (players, have)
        assert ("draw" in have) == (players == 2)
    assert {p for n, p in phases if p in ("halikarnassus", "seventh")} and \
        len({n for n, p in phases if p == "halikarnassus"}) >= 4
    # a position of the corpus loads and plays as it is
    for text in fz.corpus()[::25]:
        assert fz.evaluate(json.loads(text), mcts_iterations=5) == "accepted"


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fuzz_mutants_quick(data_):
    """Hypothesis mutants of real positions: refused with a field and a rule, or playable."""
    texts = fz.corpus()
    chooser = fz.DrawChooser(data_, st)
    d, changes = fz.mutate(json.loads(chooser.choice(texts)), chooser)
    note(f"changes: {changes}")
    fz.evaluate(d, seed=len(changes))


def test_fuzz_seeded_mutants_quick():
    """1,000 mutants of the long campaign (mutants 0..999): the same guarantee, and the mix
    holds both refused and playable mutants."""
    outcomes = Counter()
    for i in range(1000):
        d, changes = fz.mutant(i)
        try:
            outcomes[fz.evaluate(d, seed=i).split(":")[0]] += 1
        except AssertionError as e:
            raise AssertionError(f"mutant {i} ({changes}): {e}\n{json.dumps(d)}") from None
    assert outcomes["accepted"] >= 30 and outcomes["refused"] >= 500, outcomes


@pytest.mark.slow
def test_fuzz_campaign_forked(tmp_path):
    """The long campaign: SEVEN_FUZZ_MUTANTS mutants (default 100,000) in forked workers; no
    crash, hang, abort, stuck state or illegal agent action.  The summary and any failure are
    written with their mutants to SEVEN_FUZZ_OUT (default: the test's tmp dir)."""
    n = int(os.environ.get("SEVEN_FUZZ_MUTANTS", "100000"))
    workers = int(os.environ.get("SEVEN_FUZZ_WORKERS", "2"))
    first = int(os.environ.get("SEVEN_FUZZ_FIRST", "0"))
    t0 = time.monotonic()
    outcomes, failures = fz.run_campaign(n, workers=workers, first=first)
    out = os.environ.get("SEVEN_FUZZ_OUT") or str(tmp_path / "fuzz")
    os.makedirs(out, exist_ok=True)
    by_field = {k: v for k, v in outcomes.items() if ":" in k}
    summary = {"mutants": n, "first": first, "debug": sv.DEBUG,
               "seconds": round(time.monotonic() - t0), "accepted": outcomes["accepted"],
               "refused": outcomes["refused"], "failures": len(failures),
               "refused_by_field": dict(Counter(by_field).most_common())}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, "failures.json"), "w") as f:
        json.dump(failures, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "refused_by_field"}))
    assert not failures, (f"{len(failures)} of {n} mutants broke the guarantee (all in {out}); "
                          f"first: {json.dumps(failures[0])[:4000]}")
