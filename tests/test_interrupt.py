"""Ctrl-C (issue 11): a real ``duel`` subprocess gets SIGINT while it works; it must exit
within a few seconds (the target is 0.5 s), keep every finished game, and exit with 130.

Budgets that make one decision last far longer than the bound are stopped inside the core
by its stop flag (``duelcore.search.interrupt``).
"""
from __future__ import annotations

import re
import signal
import time

import pandas as pd
import pytest

from duelpy.base.interrupt import core_has_stop_flag
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
    game = df["game"]
    assert game.is_monotonic_increasing and game.is_unique
    assert game.iloc[0] == 0 and game.iloc[-1] < 1_000_000_000
    assert f"wrote {n:,} games" in stderr and "--resume" in stderr
    # the line gives the command that continues the run, as typed, not "duel simulate ..."
    # on one line, never wrapped (COLUMNS is 100 and the line is longer): a command to copy
    again = f"duel simulate --games 1000000000 --jobs 2 --out {out} --resume continues"
    assert again in stderr, stderr
    # the finished games, and the run kept for --resume beside them (issue 29)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.parquet.run", "g.parquet"]


def test_simulate_a_double_ctrl_c_keeps_every_finished_game(tmp_path):
    """Issue 29: Ctrl-C twice, 50-250 ms apart, used to delete everything.  Now the second
    press stops faster but the finished games are written and summarised, and --resume
    continues the run."""
    out = tmp_path / "dd.csv"
    child = Child(["simulate", "--games", "1000000", "--jobs", "2", "--out", str(out)],
                  tmp_path)
    child.wait_for("Ctrl-C")
    child.busy(1.5)
    child.proc.send_signal(signal.SIGINT)
    time.sleep(0.1)
    seconds, code, stdout, stderr = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (code, seconds, stderr)
    n = _finished_games(stdout)
    assert len(pd.read_csv(out)) == n > 0
    assert (tmp_path / ".dd.csv.run" / "study.json").exists() is False
    assert (tmp_path / ".dd.csv.run" / "simulate.json").exists()


def test_simulate_killed_then_resumed_gives_the_whole_table(tmp_path):
    """A kill -9 mid-run leaves the finished games on disk; --resume plays the rest and the
    table is the one an uninterrupted run writes."""
    out = tmp_path / "k.parquet"
    args = ["simulate", "--games", "300000", "--out", str(out), "--seed", "5"]
    child = Child(args, tmp_path)
    child.wait_for("Ctrl-C")
    chunks = tmp_path / ".k.parquet.run" / "chunks"
    child.wait_until(lambda: any(chunks.glob("*.parquet")))   # a finished chunk on disk
    child.proc.kill()
    child.proc.wait()
    assert any(chunks.glob("*.parquet"))
    assert not out.exists()
    done = Child(args + ["--resume", "--quiet"], tmp_path)
    assert done.proc.wait(300) == 0, done.stderr
    df = pd.read_parquet(out)
    assert list(df["game"]) == list(range(300_000))
    import duelpy
    again = duelpy.play_match("random", "random", games=300_000, seed=5, jobs=2)
    assert (df["seed"].to_numpy() == again["seed"].to_numpy()).all()
    assert (df["winner"].to_numpy() == again["winner"].to_numpy()).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.parquet"]


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


def test_a_search_stop_token_stops_that_search_alone():
    """``SearchStop.set()`` from another thread ends one search (its best move so far) without
    touching the process-wide flag, so other searches keep their budget."""
    import threading
    import time

    from duelcore import new_game, search

    s = new_game(seed=1)
    while s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    token = search.SearchStop()
    threading.Timer(0.2, token.set).start()
    t0 = time.monotonic()
    r = search.mcts_search(s, iterations=0, seconds=60.0, kind="plan", stop=token)
    assert time.monotonic() - t0 < 10.0
    assert token.is_set and not search.interrupted()
    assert r["iterations"] > 0 and r["actions"]
    other = search.mcts_search(s, iterations=300, seed=2)     # no token: runs its budget
    assert other["iterations"] == 300
    a, _ = search.choose(s, {"kind": "plan", "iterations": 0, "seconds": 60.0}, 5, stop=token)
    assert a in s.legal_actions(), "a set token returns at once with a legal move"
    token.clear()
    assert not token.is_set
    with pytest.raises(TypeError, match="SearchStop"):
        search.mcts_search(s, iterations=10, stop=3)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ladder_inside_a_huge_search(tmp_path, workers):
    """Ctrl-C stops a ladder's games under way at once (the core's flag), like study."""
    child = Child(["ladder", "greedy", "mcts", "--iterations", "100000000", "--games", "2",
                   "--workers", workers, "--out", str(tmp_path / "L")], tmp_path)
    child.busy(4.0)                     # past the set-up, inside the first games
    seconds, code, stdout, stderr = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (seconds, code, stderr)
    assert "Traceback" not in stderr
    assert "--resume" in stdout + stderr


def test_presses_while_a_stopped_command_wraps_up_are_counted_not_obeyed():
    """After a Ctrl-C stopped a run, ``wrapping_up`` lets the command write what it kept and
    print how to resume: the next two presses do not raise, the third does, and Python's
    handler is back afterwards."""
    import os
    from duelpy.base.interrupt import wrapping_up
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with wrapping_up():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)                        # the handler runs between instructions
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):
            with wrapping_up():
                for _ in range(3):
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(0.01)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
