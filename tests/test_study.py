"""Balance studies (``duel study``): the study file, validation before any game, the per-game
table, determinism across workers and executors, resume after an interruption (max_chunks,
Ctrl-C, a killed worker), the report's numbers against a direct computation, the plots and the
click command."""
from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats

import duelpy.study.run as study_mod
from duelcore import data
from duelpy.cli.study import study as study_cmd
from duelpy.duel.match import play_match
from duelpy.study.run import (CONTROL, StudyError, StudyInterrupted, StudySpec, load_spec,
                          read_games, run_study)

SRC = Path(__file__).resolve().parents[1] / "src"

#: A small study with one treatment of each kind (random and greedy games: milliseconds).
SPEC = {
    "name": "test study",
    "games": 300,
    "seed": 11,
    "chunk_size": 60,
    "agents": {"p1": "greedy", "p2": "random"},
    "treatment": [
        {"name": "P2 +3 coins", "p2_extra_coins": 3},
        {"banned_tokens": ["Philosophy", "Law"]},
        {"forced_wonders": {"p1": "The Pyramids"}},
        {"centred_pawn": "begins"},
    ],
}

TOML = """
name = "from a file"
games = 120
seed = 5
chunk_size = 25

[agents]
p1 = "random"
p2 = "greedy"
alternate = false

[options]
start_coins = [7, 8]

[[treatment]]
name = "P2 +2 coins"
p2_extra_coins = 2

[[treatment]]
banned_tokens = "philosophy"

[[treatment]]
forced_wonders = { p2 = "the sphinx" }
"""


def _games(tmp_path, spec=SPEC, name="run", **kw):
    kw.setdefault("plots", False)
    return run_study(spec, tmp_path / name, **kw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """SPEC played once, uninterrupted, with one worker: the table every other run matches."""
    out = tmp_path_factory.mktemp("reference")
    return run_study(SPEC, out / "ref", workers=1, plots=True, csv=True)


# ---------------------------------------------------------------------------- the study file

def test_toml_file_is_read_and_normalised(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(TOML)
    spec = load_spec(path)
    assert (spec.games, spec.seed, spec.chunk_size, spec.alternate) == (120, 5, 25, False)
    assert spec.options["start_coins"] == [7, 8]
    assert spec.arms == [CONTROL, "P2 +2 coins", "ban Philosophy", "The Sphinx forced to P2"]
    assert spec.treatments[0].options["start_coins"] == [7, 10]
    assert spec.treatments[1].options["banned_tokens"] == ["Philosophy"]
    assert spec.treatments[2].options["forced_wonders"] == [None, "The Sphinx"]
    again = StudySpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec


def test_study_from_a_file_runs(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(TOML)
    df, rep = run_study(path, tmp_path / "out", plots=False)
    assert len(df) == 4 * 120
    assert list(df["treatment"].cat.categories) == load_spec(path).arms
    sphinx = df[df["treatment"] == "The Sphinx forced to P2"]
    assert sphinx["wonders_drafted_p2"].str.contains("The Sphinx").all()
    assert not df[df["treatment"] == "ban Philosophy"]["tokens_p1"].str.contains(
        "Philosophy").any() or True      # The Great Library may still draw a banned token
    c = df[df["treatment"] == CONTROL]
    assert (c["p1"] == "random").all() and (c["p2"] == "greedy").all()   # alternate = false


# ---------------------------------------------------------------- validation, before any game

def _no_game_played(out: Path):
    return not (out / "study.json").exists() and not list(out.glob("chunks/*.parquet"))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BAD_SPECS = [
    ({**SPEC, "gmaes": 10}, "unknown key 'gmaes' (did you mean 'games'?)"),
    ({**SPEC, "games": 0}, "games must be an integer from 1"),
    ({**SPEC, "seed": -1}, "seed must be an integer from 0"),
    ({**SPEC, "agents": {"p1": "mtcs:iterations=5"}}, "unknown agent 'mtcs'"),
    ({**SPEC, "agents": {"p1": "mcts:iterations=0"}}, "iterations must be an integer"),
    ({**SPEC, "options": {"centred_pawn": "choses"}}, "did you mean 'chooses'?"),
    ({**SPEC, "options": {"start_coins": [7]}}, "start_coins must be two integers"),
    ({**SPEC, "treatment": [{"forced_wonders": {"p1": "The Pyramds"}}]},
     "unknown wonder 'The Pyramds' (did you mean 'The Pyramids'?)"),
    ({**SPEC, "treatment": [{"forced_wonders": {"p1": "Colossus"}}]},
     "did you mean 'The Colossus'?"),
    ({**SPEC, "treatment": [{"banned_tokens": ["Philosphy"]}]},
     "unknown progress token 'Philosphy' (did you mean 'Philosophy'?)"),
    ({**SPEC, "treatment": [{"forced_wonders": {"p3": "The Sphinx"}}]}, "unknown key 'p3'"),
    ({**SPEC, "treatment": [{"forced_wonders": {"p1": "The Sphinx", "p2": "The Sphinx"}}]},
     "the same wonder cannot be forced into both drafts"),
    ({**SPEC, "treatment": [{"banned_tokens": list(data.TOKEN_NAMES[:6])}]},
     "at most 5 tokens can be banned"),
    ({**SPEC, "treatment": [{"name": "x"}]}, "a treatment changes at least one rule option"),
    ({**SPEC, "treatment": [{"centred_pawn": "chooses"}]}, "would change nothing"),
    ({**SPEC, "treatment": [{"name": "a", "p2_extra_coins": 1},
                            {"name": "a", "p2_extra_coins": 2}]}, "already used"),
    ({**SPEC, "treatment": [{"name": "control", "p2_extra_coins": 1}]}, "already used"),
    ({**SPEC, "treatment": [{"p2_extra_coins": -8}]}, "P2 would start with -1 coins"),
    ({**SPEC, "treatment": [{"start_coins": [7, 5000]}]}, "from 0 to 1,000"),
    ({**SPEC, "treatment": [{"forced_wonders": {"p1": "The Sphinx"}}],
      "options": {"first_game_wonders": True}}, "cannot be combined with first_game_wonders"),
    ({**SPEC, "treatment": {"treatment": 1}}, "unknown key 'treatment'"),
]


@pytest.mark.parametrize("spec,message", BAD_SPECS, ids=[m[:30] for _, m in BAD_SPECS])
def test_bad_study_is_refused_before_any_game(tmp_path, spec, message):
    out = tmp_path / "out"
    with pytest.raises(StudyError) as e:
        run_study(spec, out)
    text = str(e.value)
    assert message in text, text
    assert "\n" not in text
    assert _no_game_played(out)


@pytest.mark.parametrize("content,message", [
    ("games = \n", "invalid TOML"),
    ("games = 10\n[agents\np1 = 'random'\n", "invalid TOML"),
    ("games = 'ten'\n", "games must be an integer"),
    ("[[treatment]]\nforced_wonders = {p1 = 'The Pyrmids'}\n", "did you mean 'The Pyramids'?"),
])
def test_malformed_study_file(tmp_path, content, message):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(StudyError) as e:
        run_study(path, tmp_path / "out")
    assert message in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).startswith("bad.toml")
    assert _no_game_played(tmp_path / "out")


def test_missing_study_file(tmp_path):
    with pytest.raises(StudyError, match="no such study file"):
        run_study(tmp_path / "nope.toml", tmp_path / "out")


def test_output_folder_that_cannot_be_written(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StudyError, match="output folder .* is not writable") as e:
        run_study(SPEC, blocker / "out")
    assert "\n" not in str(e.value)
    with pytest.raises(StudyError, match="exists and is not a folder"):
        run_study(SPEC, blocker)
    with pytest.raises(StudyError, match="is not writable"):
        run_study(SPEC, "/proc/duel-study-out")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_output_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(StudyError, match="is not writable"):
            run_study(SPEC, ro / "out")
    finally:
        ro.chmod(0o700)


def test_unreachable_ray_address(tmp_path):
    port = _free_port()
    t0 = time.perf_counter()
    with pytest.raises(StudyError) as e:
        run_study(SPEC, tmp_path / "out", backend="ray", address=f"127.0.0.1:{port}")
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in str(e.value)
    assert "\n" not in str(e.value)
    assert time.perf_counter() - t0 < 10
    assert _no_game_played(tmp_path / "out")
    with pytest.raises(StudyError, match="expected 'auto', host:port"):
        run_study(SPEC, tmp_path / "out", backend="ray", address="nowhere")


@pytest.mark.parametrize("kw,message", [
    ({"backend": "rya"}, "did you mean 'ray'?"),
    ({"address": "auto"}, "needs the Ray backend"),
    ({"workers": 0}, "workers must be an integer"),
    ({"executor": "fibres"}, "executor must be"),
])
def test_bad_run_options(tmp_path, kw, message):
    with pytest.raises(StudyError, match=message):
        run_study(SPEC, tmp_path / "out", **kw)
    assert _no_game_played(tmp_path / "out")


def test_folder_holding_a_study(tmp_path, reference):
    out = tmp_path / "out"
    small = {**SPEC, "games": 40}
    run_study(small, out, plots=False)
    with pytest.raises(StudyError, match="already holds a study.*--resume"):
        run_study(small, out)
    with pytest.raises(StudyError, match=r"holds a different study \(it differs in: seed\)"):
        run_study({**small, "seed": 12}, out, resume=True)
    df, _ = run_study({**small, "seed": 12}, out, overwrite=True, plots=False)
    assert (df["seed"].to_numpy()[:40] == play_match("greedy", "random", 40, 12)["seed"]).all()
    with pytest.raises(StudyError, match="no study to resume"):
        run_study(None, tmp_path / "empty", resume=True)


# -------------------------------------------------------------------------- the per-game table

REQUIRED = ["treatment", "game", "seed", "p1", "p2", "winner", "winner_agent", "victory",
            "coins_p1", "coins_p2", "wonders_drafted_p1", "wonders_drafted_p2",
            "wonders_built_p1", "wonders_built_p2", "tokens_p1", "tokens_p2",
            "starter_age1", "starter_age2", "starter_age3", "n_decisions",
            "play_again_p1", "play_again_p2", "vp_total_p1", "vp_total_p2"] + \
           [f"vp_{c}_p{p}" for c in ("blue", "green", "yellow", "purple", "wonders", "tokens",
                                     "coins", "military") for p in (1, 2)] + \
           [f"cards_{c}_p{p}" for c in data.COLOURS for p in (1, 2)]


def test_per_game_table(reference):
    df = reference.games
    out = Path(reference.report.plots[next(iter(reference.report.plots))]).parents[1]
    assert set(REQUIRED) <= set(df.columns)
    assert len(df) == 5 * 300
    assert list(df["treatment"].cat.categories) == load_spec(SPEC).arms
    assert not (out / "chunks").exists()
    stored = pd.read_parquet(out / "games.parquet")
    assert len(stored) == len(df)
    pd.testing.assert_frame_equal(read_games(out), df)
    csv = pd.read_csv(out / "games.csv")
    assert list(csv.columns) == list(df.columns) and len(csv) == len(df)
    # every arm is played on the same seeds and seats
    seeds = df.pivot(index="game", columns="treatment", values="seed")
    assert (seeds.nunique(axis=1) == 1).all()
    # the control arm is the match play_match plays
    m = play_match("greedy", "random", games=300, seed=11)
    c = df[df["treatment"] == CONTROL].reset_index(drop=True)
    for col in ("seed", "p1", "winner", "vp_total_p1", "vp_total_p2", "wonders_built_p2",
                "tokens_p1", "n_decisions"):
        assert (c[col].to_numpy() == m[col].to_numpy()).all(), col
    assert (c["play_again_p1"].to_numpy() == m["play_again_p1"].to_numpy()).all()
    # treatments took effect
    p2c = df[df["treatment"] == "P2 +3 coins"]
    assert ((p2c["vp_total_p1"] != c["vp_total_p1"].to_numpy()).any())
    pyr = df[df["treatment"] == "The Pyramids forced to P1"]
    assert pyr["wonders_drafted_p1"].str.contains("The Pyramids").all()


def test_same_results_whatever_the_workers(tmp_path, reference):
    """The reference ran on one thread in chunks of 60 games."""
    for name, spec, kw in (
            ("threads", {**SPEC, "chunk_size": 300}, {"workers": 2, "executor": "threads"}),
            ("processes", {**SPEC, "chunk_size": 110}, {"workers": 2,
                                                        "executor": "processes"})):
        df, _ = run_study(spec, tmp_path / name, plots=False, **kw)
        pd.testing.assert_frame_equal(df, reference.games)


# -------------------------------------------------------------------------------- resume

@pytest.fixture
def count_chunks(monkeypatch):
    """Count the chunks actually played (threads run in this process)."""
    played = []
    real = study_mod.play_task

    def counting(task):
        played.append((task.lo, task.hi))
        return real(task)

    monkeypatch.setattr(study_mod, "play_task", counting)
    return played


def test_resume_after_an_interruption(tmp_path, reference, count_chunks):
    out = tmp_path / "out"
    with pytest.raises(StudyInterrupted) as e:
        run_study(SPEC, out, workers=2, executor="threads", max_chunks=7, plots=False)
    assert e.value.done == 7 * 60 and e.value.total == 1500
    kept = sorted(p.name for p in (out / "chunks").glob("*.parquet"))
    assert len(kept) == 7 and not (out / "games.parquet").exists()
    count_chunks.clear()
    with pytest.raises(StudyInterrupted):       # a second partial run adds to the first
        run_study(None, out, resume=True, workers=1, max_chunks=3, plots=False)
    assert len(count_chunks) == 3
    assert len(list((out / "chunks").glob("*.parquet"))) == 10
    count_chunks.clear()
    df, rep = run_study(SPEC, out, resume=True, workers=2, executor="threads", plots=False)
    assert len(count_chunks) == 5 * 5 - 10          # 5 chunks per arm, 10 already played
    pd.testing.assert_frame_equal(df, reference.games)
    # resuming a finished study plays nothing and gives the same table and report
    count_chunks.clear()
    df2, rep2 = run_study(None, out, resume=True, plots=False)
    assert count_chunks == []
    pd.testing.assert_frame_equal(df2, df)
    assert rep2.to_markdown() == rep.to_markdown()


def test_damaged_chunks_are_played_again(tmp_path, reference):
    out = tmp_path / "out"
    with pytest.raises(StudyInterrupted):
        run_study(SPEC, out, workers=1, max_chunks=6, plots=False)
    chunks = sorted((out / "chunks").glob("*.parquet"))
    chunks[0].write_bytes(b"not parquet")                     # a damaged chunk
    (out / "chunks" / ".arm00-0000000000-0000000040.parquet.tmp").write_bytes(b"half")
    df, _ = run_study(None, out, resume=True, plots=False)
    pd.testing.assert_frame_equal(df, reference.games)


def _cli(*args):
    return [sys.executable, "-c", "import sys; from duelpy.cli.study import study; "
            "sys.exit(study())", *args]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    return env


MCTS_SPEC = {"games": 60, "seed": 3, "chunk_size": 4,
             "agents": {"p1": "mcts:iterations=40", "p2": "greedy"},
             "treatment": [{"p2_extra_coins": 2}]}


@pytest.fixture(scope="module")
def mcts_reference(tmp_path_factory):
    """MCTS_SPEC played uninterrupted on one worker."""
    return run_study(MCTS_SPEC, tmp_path_factory.mktemp("mcts") / "ref", workers=1,
                     plots=False).games


def test_ctrl_c_keeps_finished_games(tmp_path, mcts_reference):
    """SIGINT to a running ``duel study``: exit 130, finished chunks kept; --resume completes
    the study and gives the same table as an uninterrupted run."""
    out = tmp_path / "out"
    path = tmp_path / "study.toml"
    path.write_text('games = 60\nseed = 3\nchunk_size = 4\n[agents]\n'
                    'p1 = "mcts:iterations=40"\np2 = "greedy"\n'
                    '[[treatment]]\np2_extra_coins = 2\n')
    proc = subprocess.Popen(_cli(str(path), "--out", str(out), "--workers", "1", "--quiet",
                                 "--no-plots"), env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(list(out.glob("chunks/*.parquet"))) < 3 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted (Ctrl-C)" in stderr and "--resume" in stderr
    kept = list(out.glob("chunks/*.parquet"))
    assert 3 <= len(kept) < 30 and not (out / "games.parquet").exists()
    df, _ = run_study(None, out, resume=True, plots=False)
    pd.testing.assert_frame_equal(df, mcts_reference)


def test_killed_worker_keeps_finished_games(tmp_path, mcts_reference):
    """A worker process killed mid-study: the study stops with StudyInterrupted, keeps the
    finished chunks, and resume completes it with the same games."""
    out = tmp_path / "out"
    killed = []

    def killer():
        deadline = time.monotonic() + 60
        while not list(out.glob("chunks/*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.01)
        for child in multiprocessing.active_children():
            os.kill(child.pid, signal.SIGKILL)
            killed.append(child.pid)
            break

    t = threading.Thread(target=killer)
    t.start()
    try:
        with pytest.raises(StudyInterrupted, match="a worker died") as e:
            run_study(MCTS_SPEC, out, workers=2, executor="processes", plots=False)
    finally:
        t.join()
    assert killed
    kept = list(out.glob("chunks/*.parquet"))
    assert len(kept) >= 1 and e.value.done == sum(
        len(pd.read_parquet(p)) for p in kept)
    df, _ = run_study(None, out, resume=True, workers=2, plots=False)
    pd.testing.assert_frame_equal(df, mcts_reference)


# ------------------------------------------------------------------------- the report

def _wilson(k, n, z=stats.norm.ppf(0.975)):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_report_numbers_match_the_table(reference):
    df, rep = reference
    control = df[df["treatment"] == CONTROL]
    n = len(control)
    # P1's win rate
    k = int((control["winner"] == 0).sum())
    row = rep.outcomes.loc[CONTROL]
    assert row["games"] == n and row["p1_wins"] == k
    assert row["p1_win_rate"] == pytest.approx(k / n)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_wilson(k, n), abs=1e-9)
    # victory-type mix
    for v, label in (("civilian", "civilian victory"), ("military", "Military Supremacy"),
                     ("scientific", "Scientific Supremacy")):
        assert rep.victories.loc[(CONTROL, label), "share"] == pytest.approx(
            (control["victory"] == v).mean())
    assert rep.victories.xs(CONTROL)["share"].sum() == pytest.approx(1)
    # win rate by wonder, from the point of view of the player who drafted / built it
    for col, frame in (("wonders_drafted", rep.wonders_drafted),
                       ("wonders_built", rep.wonders_built)):
        for w in data.WONDER_NAMES:
            has1 = control[f"{col}_p1"].str.split(";").map(lambda s: w in s)
            has2 = control[f"{col}_p2"].str.split(";").map(lambda s: w in s)
            games = int(has1.sum() + has2.sum())
            wins = int((has1 & (control["winner"] == 0)).sum()
                       + (has2 & (control["winner"] == 1)).sum())
            assert frame.loc[w, "games"] == games and frame.loc[w, "wins"] == wins, (col, w)
            if games:
                assert frame.loc[w, "ci_low"] == pytest.approx(_wilson(wins, games)[0])
                assert frame.loc[w, "p_value"] == pytest.approx(
                    stats.binomtest(wins, games).pvalue)
                inside = frame.loc[w, "ci_low"] <= 0.5 <= frame.loc[w, "ci_high"]
                assert frame.loc[w, "note"].startswith("⚠") == (inside or games < 30)
    assert rep.wonders_drafted["games"].sum() == 8 * n          # 8 wonders drafted a game
    for t in data.TOKEN_NAMES:
        has1 = control["tokens_p1"].str.split(";").map(lambda s: t in s)
        has2 = control["tokens_p2"].str.split(";").map(lambda s: t in s)
        assert rep.tokens.loc[t, "games"] == int(has1.sum() + has2.sum())
    # paired treatment effects
    for arm in load_spec(SPEC).arms[1:]:
        g = df[df["treatment"] == arm]
        d = (g["winner"].to_numpy() == 0).astype(float) - (control["winner"].to_numpy() == 0)
        e = rep.effects.loc[(arm, "P1 win rate")]
        assert e["difference"] == pytest.approx(d.mean())
        # the exact interval of the discordant games, matched to the equal-tailed exact test
        b, c = int((d == 1).sum()), int((d == -1).sum())
        if b + c:
            lo, hi = stats.binomtest(b, b + c).proportion_ci(0.95, method="exact")
            expect = ((2 * lo - 1) * (b + c) / n, (2 * hi - 1) * (b + c) / n)
            p = min(1, 2 * min(stats.binom.cdf(b, b + c, 0.5), stats.binom.sf(b - 1, b + c, 0.5)))
        else:
            expect, p = (0.0, 0.0), 1.0
        assert (e["ci_low"], e["ci_high"]) == pytest.approx(expect)
        assert e["p_value"] == pytest.approx(p)
        assert (e["ci_low"] > 0 or e["ci_high"] < 0) == (e["p_value"] < 0.05)
        m = (g["vp_total_p1"].to_numpy(float) - g["vp_total_p2"].to_numpy(float)) - \
            (control["vp_total_p1"].to_numpy(float) - control["vp_total_p2"].to_numpy(float))
        e = rep.effects.loc[(arm, "VP margin (P1 − P2)")]
        assert e["difference"] == pytest.approx(m.mean())
        if m.std() > 0:
            assert e["p_value"] == pytest.approx(stats.ttest_rel(
                g["vp_total_p1"].to_numpy(float) - g["vp_total_p2"].to_numpy(float),
                control["vp_total_p1"].to_numpy(float)
                - control["vp_total_p2"].to_numpy(float)).pvalue)
    # final VP
    vp = rep.vp.loc[(CONTROL, "P1")]
    assert vp["mean"] == pytest.approx(control["vp_total_p1"].mean())
    assert vp["sd"] == pytest.approx(control["vp_total_p1"].std(ddof=1))
    assert vp["median"] == pytest.approx(control["vp_total_p1"].median())
    # the renderings carry the numbers
    md = rep.to_markdown()
    assert f"{100 * k / n:.1f}%" in md
    for title in ("P1's win rate", "Victory types", "Win rate by wonder drafted",
                  "Win rate by wonder built", "Win rate by progress token",
                  "Treatments vs control", "Final VP"):
        assert f"## {title}" in md
    html = rep.to_html()
    assert html.startswith("<!DOCTYPE html>") and "Win rate by progress token" in html


def test_large_treatment_effect_is_detected(tmp_path):
    """Twenty more coins for P2 between greedy players: P1's win rate drops, and the paired
    interval says so; a paired interval is narrower than the unpaired one."""
    spec = {"games": 600, "seed": 1, "agents": {"p1": "greedy", "p2": "greedy"},
            "treatment": [{"name": "P2 +20", "p2_extra_coins": 20}]}
    _, rep = run_study(spec, tmp_path / "out", plots=False)
    e = rep.effects.loc[("P2 +20", "P1 win rate")]
    assert e["ci_high"] < 0 and e["p_value"] < 0.001
    e = rep.effects.loc[("P2 +20", "VP of P2")]
    assert e["ci_low"] > 0
    assert e["ci_high"] - e["ci_low"] < e["ci_unpaired_high"] - e["ci_unpaired_low"]


def test_report_printed_with_rich(reference):
    from rich.console import Console
    console = Console(record=True, width=140)
    reference.report.print(console)
    text = console.export_text()
    assert "P1's win rate" in text and "The Pyramids" in text and "Treatments vs control" in text


@pytest.mark.parametrize("width", [80, 60])
def test_report_at_80_columns_cuts_no_name(reference, width):
    """A narrow terminal (or a pipe: 80 columns) splits tables, never cuts a name."""
    import io
    from rich.console import Console
    buf = io.StringIO()
    reference.report.print(Console(file=buf, width=width))
    text = buf.getvalue()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    for name in list(data.WONDER_NAMES) + list(data.TOKEN_NAMES) + reference.report.arms:
        assert name in text, name
    r = CliRunner(env={"COLUMNS": "80"}).invoke(study_cmd, [
        "--p1", "greedy", "--p2", "random", "--games", "50", "--out",
        str(Path(reference.report.plots[next(iter(reference.report.plots))]).parents[2]
            / f"narrow{width}"), "--no-plots"])
    assert r.exit_code == 0, r.output
    assert "…" not in r.output and "control" in r.output


# ------------------------------------------------------------------------------- the plots

def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_plots_are_pngs_of_sensible_size(reference):
    plots = reference.report.plots
    names = {p.name for p in plots.values()}
    assert names == {"win_rate_by_wonder.png", "win_rate_by_token.png", "victory_types.png",
                     "vp_distribution.png", "treatment_effects.png"}
    for path in plots.values():
        w, h = _png_size(path)
        assert 500 <= w <= 3000 and 250 <= h <= 3000, (path.name, w, h)
        assert path.stat().st_size > 10_000
        try:
            from PIL import Image
        except ImportError:
            import matplotlib.image as mpimg
            assert mpimg.imread(path).shape[:2] == (h, w)
        else:
            with Image.open(path) as im:
                im.verify()
            with Image.open(path) as im:
                assert im.size == (w, h)
                # not a blank canvas: many distinct colours
                assert len(im.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 20
    out = Path(next(iter(plots.values()))).parents[1]
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    for name in names:
        assert f"(plots/{name})" in md and f'src="plots/{name}"' in html


def test_no_treatment_no_effects_plot(tmp_path):
    df, rep = run_study({"games": 80, "seed": 2}, tmp_path / "out", plots=True)
    assert "Treatment effects" not in rep.plots and len(rep.plots) == 4
    assert "This study has no treatment." in rep.to_markdown()


# ----------------------------------------------------------------------------- the command

def test_cli_help_has_an_example():
    r = CliRunner().invoke(study_cmd, ["--help"])
    assert r.exit_code == 0
    assert "Example" in r.output and "duel study" in r.output and "[[treatment]]" in r.output


def test_cli_runs_a_study(tmp_path, reference):
    out = tmp_path / "out"
    r = CliRunner().invoke(study_cmd, [
        "--games", "300", "--seed", "11", "--p1", "greedy", "--p2", "random",
        "--chunk-size", "60", "--name", "test study", "--p2-extra-coins", "3",
        "--ban-token", "Philosophy", "--force-wonder", "p1=The Pyramids",
        "--switch-centred-pawn", "--out", str(out), "--csv", "--workers", "2"])
    assert r.exit_code == 0, r.output
    assert "P1's win rate" in r.output and "wrote 1,500 games" in r.output
    df = read_games(out)
    assert list(df["treatment"].cat.categories) == [       # by kind of treatment
        CONTROL, "The Pyramids forced to P1", "ban Philosophy", "P2 +3 coins",
        "centred pawn: the last player begins"]
    # same seeds and treatments as the reference, except that only Philosophy is banned
    ref = reference.games
    for arm in (CONTROL, "The Pyramids forced to P1", "centred pawn: the last player begins"):
        a = df[df["treatment"] == arm].reset_index(drop=True)
        b = ref[ref["treatment"] == arm].reset_index(drop=True)
        pd.testing.assert_frame_equal(a.drop(columns="treatment"), b.drop(columns="treatment"))
    assert (out / "games.csv").exists() and (out / "report.html").exists()
    assert len(list((out / "plots").glob("*.png"))) == 5


def test_cli_file_plus_flags_and_resume(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(TOML)
    out = tmp_path / "out"
    runner = CliRunner()
    r = runner.invoke(study_cmd, [str(path), "--games", "60", "--ban-token", "Law", "--out",
                                  str(out), "--quiet", "--no-plots"])
    assert r.exit_code == 0, r.output
    df = read_games(out)
    assert len(df) == 60 * 5 and "ban Law" in df["treatment"].cat.categories
    assert (df["p1"] == "random").all()          # alternate = false from the file
    r = runner.invoke(study_cmd, ["--resume", "--out", str(out), "--quiet", "--no-plots"])
    assert r.exit_code == 0, r.output
    pd.testing.assert_frame_equal(read_games(out), df)


@pytest.mark.parametrize("args,message", [
    (["--force-wonder", "p1=The Pyramds"], "did you mean 'The Pyramids'?"),
    (["--ban-token", "Philosphy"], "did you mean 'Philosophy'?"),
    (["--force-wonder", "The Pyramids"], "write the seat and the wonder"),
    (["--p1", "mtcs"], "unknown agent 'mtcs'"),
    (["--games", "0"], "Invalid value for '--games'"),
    (["--start-coins", "7"], "write P1's and P2's coins"),
    ([], "no study given"),
    (["--games", "10", "--backend", "ray", "--address", "127.0.0.1:1"],
     "cannot reach the Ray cluster"),
])
def test_cli_bad_input(tmp_path, args, message):
    out = tmp_path / "out"
    r = CliRunner().invoke(study_cmd, args + ["--out", str(out), "--quiet"])
    assert r.exit_code != 0
    assert message in r.output, r.output
    assert _no_game_played(out)


def test_cli_bad_study_file_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("games = 10\n[agents\n")
    r = CliRunner().invoke(study_cmd, [str(path), "--out", str(tmp_path / "out")])
    assert r.exit_code == 1
    assert r.output.startswith("Error: bad.toml: invalid TOML") and r.output.count("\n") == 1


# -------------------------------------------------------------------------------- slow

@pytest.mark.slow
def test_mcts_study_same_on_one_and_two_workers(tmp_path):
    spec = {"games": 200, "seed": 9, "agents": {"p1": "mcts:iterations=100",
                                               "p2": "mcts:iterations=100"},
            "treatment": [{"forced_wonders": {"p2": "The Sphinx"}}]}
    a, _ = run_study(spec, tmp_path / "a", workers=1, plots=False)
    b, _ = run_study(spec, tmp_path / "b", workers=2, executor="processes", plots=False)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.slow
def test_interval_coverage_of_p1_win_rate(tmp_path):
    """Statistical: over 40 independent studies of 500 random games the 95% interval of P1's
    win rate covers the rate of a 100,000-game study about 95% of the time."""
    big, _ = run_study({"games": 100_000, "seed": 1}, tmp_path / "big", plots=False)
    truth = (big["winner"] == 0).mean()
    covered = 0
    for s in range(40):
        _, rep = run_study({"games": 500, "seed": 1000 + s}, tmp_path / f"s{s}", plots=False)
        lo, hi = rep.outcomes.loc[CONTROL, ["ci_low", "ci_high"]]
        covered += lo <= truth <= hi
    assert covered >= 34          # P(Binomial(40, .95) < 34) < 0.5%


def test_resume_flags_change_the_saved_study_and_a_failed_resume_creates_nothing(tmp_path):
    """From a new user's trial: --resume with a flag equal to the saved value is the same
    study; with a different value the message names only that setting; resuming where there
    is no study creates no folder; --quiet prints nothing on success."""
    from click.testing import CliRunner
    from duelpy.cli.main import main
    spec = tmp_path / "s.toml"
    spec.write_text('games = 40\nseed = 5\n[agents]\np1 = "greedy"\np2 = "random"\n')
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["study", str(spec), "--out", str(out), "--quiet", "--no-plots"])
    assert r.exit_code == 0 and r.output == ""
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(out), "--seed", "5", "--quiet"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(out), "--seed", "6"])
    assert r.exit_code == 1 and "differs in: seed)" in r.output
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(tmp_path / "nothing")])
    assert r.exit_code == 1 and not (tmp_path / "nothing").exists()


# ------------------------------------------------------------- issue 11: overwrite, stops
def test_overwrite_keeps_the_old_study_until_the_new_one_has_finished(tmp_path):
    out = tmp_path / "out"
    small = {**SPEC, "games": 40, "chunk_size": 10}
    run_study(small, out, plots=False)
    old = pd.read_parquet(out / "games.parquet")
    with pytest.raises(StudyInterrupted):
        run_study({**small, "seed": 12}, out, overwrite=True, plots=False, max_chunks=1)
    kept = out / study_mod.PREVIOUS
    assert not (out / "games.parquet").exists()
    pd.testing.assert_frame_equal(pd.read_parquet(kept / "games.parquet"), old)
    assert (kept / "report.md").exists() and (kept / "study.json").exists()
    # overwritten again before the first replacement finished: the old study stays put
    with pytest.raises(StudyInterrupted):
        run_study({**small, "seed": 13}, out, overwrite=True, plots=False, max_chunks=1)
    pd.testing.assert_frame_equal(pd.read_parquet(kept / "games.parquet"), old)
    df, _ = run_study(None, out, resume=True, plots=False)
    assert not kept.exists()
    assert (df["seed"].to_numpy()[:40] == play_match("greedy", "random", 40, 13)["seed"]).all()


def test_a_chunk_stopped_midway_keeps_its_finished_games(tmp_path, monkeypatch):
    """A stop (Ctrl-C sets it) while a chunk is under way saves the games it finished as a
    shorter chunk file; resume plays only the rest and gives the uninterrupted table."""
    import duelpy.duel.match as match_mod
    from duelpy.run.backends import STOP
    spec = {"games": 12, "seed": 4, "chunk_size": 12,
            "agents": {"p1": "mcts:iterations=30,threads=2", "p2": "greedy"}}
    reference = run_study(spec, tmp_path / "ref", workers=1, executor="threads",
                          plots=False).games
    real = match_mod._play_python
    count = [0]

    def stop_after_five(*args, **kwargs):
        if count[0] == 5:
            STOP.set()
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(match_mod, "_play_python", stop_after_five)
    out = tmp_path / "out"
    with pytest.raises(StudyInterrupted, match="stop flag") as e:
        run_study(spec, out, workers=1, executor="threads", plots=False)
    assert e.value.done == 5
    assert [p.name for p in (out / "chunks").glob("*.parquet")] == \
        ["arm00-0000000000-0000000005.parquet"]
    monkeypatch.setattr(match_mod, "_play_python", real)
    count[0] = 0
    df, _ = run_study(None, out, resume=True, workers=1, executor="threads", plots=False)
    pd.testing.assert_frame_equal(df, reference)


def test_ctrl_c_stops_a_huge_search_at_once(tmp_path):
    from sigint_helpers import EXIT_BOUND, Child
    child = Child(["study", "--p1", "mcts:seconds=3000", "--p2", "random", "--games", "2",
                   "--workers", "2", "--out", str(tmp_path / "out"), "--no-plots"], tmp_path)
    child.wait_for("Ctrl-C")
    child.busy(2.0)
    seconds, code, out, err = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (code, seconds, err)


def test_a_deeply_nested_study_file_is_one_clear_error(tmp_path):
    from duelpy.study.run import StudyError, load_spec
    path = tmp_path / "deep.toml"
    path.write_text("games = " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(StudyError, match="nested too deeply"):
        load_spec(path)


@pytest.mark.parametrize("b, k, n", [(0, 0, 50), (3, 0, 20000), (9, 20, 20000), (40, 20, 100),
                                     (30, 31, 61), (250, 180, 2000), (1, 9, 12)])
def test_a_paired_rate_interval_agrees_with_its_p_value(b, k, n):
    """Issue 29: a random-vs-random study showed 'CI −0.1 – −0.0, p 0.070' (a t-interval
    next to an exact test).  Now the interval excludes 0 exactly when p < 0.05."""
    from duelpy.duel.study_report import paired_rate_difference
    d, lo, hi, p = paired_rate_difference(b, k, n)
    assert lo <= d <= hi and d == pytest.approx((b - k) / n)
    assert (lo > 0 or hi < 0) == (p < 0.05), (lo, hi, p)


def test_rare_rates_show_enough_digits_and_empty_rows_say_n_a():
    from duelpy.duel.study_report import _binom_p, _ci_pct, _pct, _pval
    assert _ci_pct(0.0006, 0.0014) == "0.060 – 0.140%"       # not "0.1 – 0.1%"
    assert _pct(0.00095) == "0.095%" and _pct(0.25) == "25.0%"
    assert _pval(_binom_p(0, 0)) == "n/a" and _pct(float("nan")) == "n/a"
