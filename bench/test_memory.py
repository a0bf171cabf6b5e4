"""Memory of ``duel simulate`` (issue 11): rows are streamed to the output chunk by chunk, so
the peak resident memory does not grow with ``--games``.

Run: ``python -m pytest bench/test_memory.py -s`` (about a minute on 2 cores).  Not a CI test:
it plays 2,000,000 games.  The peak RSS of the child process (``ru_maxrss``) is printed and
kept in the benchmark's ``extra_info``; the target is under 300 MB.
"""
import subprocess
import sys
import time

import pandas as pd
import pytest

TARGET_MB = 300


def peak_rss_mb(args, cwd) -> tuple[float, float]:
    """(peak resident MB, seconds) of ``python -m duelpy.cli.main ARGS`` run to the end."""
    t0 = time.perf_counter()
    # a fresh interpreter per measurement: RUSAGE_CHILDREN is the largest child's peak so far
    code = ("import resource, subprocess, sys; "
            "r = subprocess.run([sys.executable, '-m', 'duelpy.cli.main', *sys.argv[1:]]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
            "sys.exit(r.returncode)")
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, check=True,
                         capture_output=True, text=True).stdout
    kb = int(out.strip().splitlines()[-1])
    return kb / 1024, time.perf_counter() - t0


@pytest.mark.parametrize("games, out", [(2_000_000, "games.parquet"),
                                        (2_000_000, None),
                                        (20_000, "games.parquet")])
def test_simulate_memory_does_not_grow_with_games(benchmark, tmp_path, games, out):
    args = ["simulate", "--games", str(games), "--jobs", "2", "--quiet"]
    if out:
        args += ["--out", str(tmp_path / out)]
    mb, seconds = benchmark.pedantic(peak_rss_mb, (args, tmp_path), rounds=1, iterations=1)
    benchmark.extra_info["peak_rss_mb"] = round(mb, 1)
    benchmark.extra_info["seconds"] = round(seconds, 1)
    print(f"\nduel simulate --games {games:,} {'--out ' + out if out else ''}: "
          f"peak {mb:.0f} MB in {seconds:.0f} s")
    if out:
        meta = pd.read_parquet(tmp_path / out, columns=["winner"])
        assert len(meta) == games
    assert mb < TARGET_MB
