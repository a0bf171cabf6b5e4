"""Balance studies on a Ray cluster (a local Ray instance started here): the same games as the
local backend, resumable across backends, and a clear error when there is no cluster."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install '.[ray]' in the "
                                        "checkout (or the test extra) to run the Ray tests")

from duelpy.cli.study import study as study_cmd  # noqa: E402
from duelpy.study.run import StudyError, StudyInterrupted, read_games, run_study  # noqa: E402

SPEC = {"name": "ray study", "games": 200, "seed": 21, "chunk_size": 25,
        "agents": {"p1": "greedy", "p2": "mcts:iterations=5"},
        "treatment": [{"name": "P2 +2 coins", "p2_extra_coins": 2},
                      {"forced_wonders": {"p2": "The Great Library"}}]}


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """SPEC on the local backend, one worker."""
    return run_study(SPEC, tmp_path_factory.mktemp("local") / "out", workers=1,
                     plots=False).games


def test_auto_address_without_a_cluster(tmp_path):
    if ray.is_initialized() or os.environ.get("RAY_ADDRESS") or \
            Path("/tmp/ray/ray_current_cluster").exists():
        pytest.skip("a Ray cluster may be running on this machine")
    with pytest.raises(StudyError, match="cannot reach the Ray cluster at auto") as e:
        run_study(SPEC, tmp_path / "out", backend="ray", address="auto")
    assert "\n" not in str(e.value)
    assert not (tmp_path / "out" / "study.json").exists()


@pytest.fixture(scope="module")
def ray_instance():
    """A local Ray instance with two CPUs for this module."""
    if ray.is_initialized():
        yield
        return
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_same_games(tmp_path, ray_instance, local):
    df, rep = run_study(SPEC, tmp_path / "out", backend="ray", plots=False)
    pd.testing.assert_frame_equal(df, local)
    assert rep.outcomes.loc["control", "games"] == 200
    assert ray.is_initialized()          # the instance this process started is left alone


def test_resume_across_backends(tmp_path, ray_instance, local):
    out = tmp_path / "out"
    with pytest.raises(StudyInterrupted):
        run_study(SPEC, out, backend="ray", max_chunks=5, plots=False)
    assert len(list(out.glob("chunks/*.parquet"))) == 5
    with pytest.raises(StudyInterrupted):
        run_study(None, out, resume=True, workers=2, max_chunks=4, plots=False)
    df, _ = run_study(None, out, resume=True, backend="ray", plots=False)
    pd.testing.assert_frame_equal(df, local)


def test_cli_ray_backend(tmp_path, ray_instance, local):
    out = tmp_path / "out"
    r = CliRunner().invoke(study_cmd, [
        "--games", "200", "--seed", "21", "--p1", "greedy", "--p2", "mcts:iterations=5",
        "--p2-extra-coins", "2", "--force-wonder", "p2=The Great Library",
        "--name", "ray study", "--backend", "ray", "--out", str(out), "--quiet",
        "--no-plots"])
    assert r.exit_code == 0, r.output
    df = read_games(out)
    assert set(df["treatment"].cat.categories) == set(local["treatment"].cat.categories)
    for arm in local["treatment"].cat.categories:
        a = df[df["treatment"] == arm].drop(columns="treatment").reset_index(drop=True)
        b = local[local["treatment"] == arm].drop(columns="treatment").reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)


@pytest.mark.slow
def test_study_starts_its_own_ray_instance(tmp_path, local):
    """Without a connection, --backend ray starts a local instance and shuts it down."""
    if ray.is_initialized():
        ray.shutdown()
    df, _ = run_study(SPEC, tmp_path / "out", backend="ray", workers=2, plots=False)
    pd.testing.assert_frame_equal(df, local)
    assert not ray.is_initialized()
