"""Ctrl-C (issue 11): a real ``duel`` subprocess gets SIGINT while it works; it must exit
within a few seconds (the target is 0.5 s), keep every finished game, and exit with 130.

Budgets that make one decision last far longer than the bound are stopped inside the core
by its stop flag (``duelcore.search.interrupt``).
"""
from __future__ import annotations

import re

import pandas as pd
import pytest

from duelpy.interrupt import core_has_stop_flag
from sigint_helpers import EXIT_BOUND, Child


def test_the_core_has_its_stop_flag():
    assert core_has_stop_flag()


def _finished_games(stdout: str) -> int:
    m = re.search(r"^([\d,]+) games of ([\d,]+) \(interrupted\)", stdout, re.M)
    assert m, stdout
    return int(m.group(1).replace(",", ""))


def test_simulate_many_quick_games_keeps_them(tmp_path):
    out = tmp_path / "g.parquet"
    child = Child(["simulate", "--games", "1000000000", "--jobs", "2", "--out", str(out)],
                  tmp_path)
    child.wait_for("Ctrl-C")
    child.busy(2.0)
    seconds, code, stdout, stderr = child.interrupt()
    assert code == 130, (stdout, stderr)
    assert seconds < EXIT_BOUND, seconds
    assert "Traceback" not in stderr
    n = _finished_games(stdout)
    df = pd.read_parquet(out)
    assert len(df) == n > 0
    # every finished game, in order (with --jobs 2 two chunks were under way at the stop,
    # so the games need not be 0..n-1)
    assert df.index.is_monotonic_increasing and df.index.is_unique
    assert df.index[0] == 0 and df.index[-1] < 1_000_000_000
    assert f"wrote {n:,} games" in stderr
    assert [p.name for p in tmp_path.iterdir()] == ["g.parquet"]     # no temporary file


@pytest.mark.parametrize("args", [
    ["--p1", "mcts:iterations=100000000", "--p2", "greedy"],           # move by move
    ["--p1", "mcts:seconds=3000", "--p2", "random", "--jobs", "2"],
])
def test_simulate_inside_a_huge_search(tmp_path, args):
    child = Child(["simulate", "--games", "10"] + args, tmp_path)
    child.wait_for("Ctrl-C")
    child.busy(1.5)
    seconds, code, stdout, stderr = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (seconds, code, stderr)
    assert "Traceback" not in stderr


def test_bench_stops_at_once(tmp_path):
    child = Child(["bench", "--games", "100000000", "--repeat", "1"], tmp_path)
    child.wait_for("Ctrl-C")
    child.busy(1.5)
    seconds, code, stdout, stderr = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (code, seconds, stderr)
    assert "interrupted" in stderr and "Traceback" not in stderr
