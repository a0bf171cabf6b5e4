"""The rating ladder (``duel ladder``, ``duelpy.ladder.run.run_ladder``): the round robin on shared
seeds with seats swapped, the budget given to search agents, the Bradley–Terry fit against
closed forms and known strengths, the head-to-head table, validation before any game, the
output folder, resume after an interruption (max_chunks, Ctrl-C) and the click command."""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import duelpy
from duelpy.cli.main import main
from duelpy.ladder.rating import wilson_interval
from duelpy.ladder.run import (LadderError, LadderInterrupted, fit_ratings, head_to_head,
                               read_ladder, resolve_agents, run_ladder)
from duelpy.duel.match import game_seeds
from duelpy.duel.summary import proportion_ci

SRC = Path(__file__).resolve().parents[1] / "src"
AGENTS = ["random", "greedy", "mcts:iterations=20"]
MCTS20 = "mcts:iterations=20,c=1.4"
GAMES, SEED = 10, 7
ELO = 400 / math.log(10)
Z = 1.959963984540054


@pytest.fixture(scope="module")
def reference():
    """AGENTS, GAMES games per pairing, played in memory on one worker."""
    return run_ladder(AGENTS, GAMES, seed=SEED, workers=1)


# ------------------------------------------------------------------------- the games

def test_round_robin_on_shared_seeds_with_seats_swapped(reference):
    games, ratings = reference
    assert len(games) == 3 * GAMES
    pairs = games.groupby("pairing")[["agent_a", "agent_b"]].first()
    assert [tuple(r) for r in pairs.itertuples(index=False)] == [
        ("random", "greedy"), ("random", MCTS20), ("greedy", MCTS20)]
    expected = np.repeat(game_seeds(SEED, GAMES // 2), 2)
    for _, g in games.groupby("pairing"):
        assert list(g["game"]) == list(range(GAMES))
        assert (g["seed"].to_numpy() == expected).all()          # the same seeds everywhere
        even, odd = g.iloc[::2], g.iloc[1::2]
        assert (even["p1"] == even["agent_a"]).all() and (even["p2"] == even["agent_b"]).all()
        assert (odd["p1"] == odd["agent_b"]).all() and (odd["p2"] == odd["agent_a"]).all()
    assert set(ratings["agent"]) == {"random", "greedy", MCTS20}


def test_games_are_the_games_of_the_python_agents(reference):
    """A few ladder games replayed move by move through the Python agents (records)."""
    games = reference.games
    for row in games.iloc[[0, 1, 2 * GAMES + 3, 2 * GAMES + 4]].itertuples():
        rec = duelpy.record_game(row.p1, row.p2, seed=int(row.seed))
        res = rec.result
        assert (res["winner"] if res["winner"] is not None else -1) == row.winner
        assert list(res["total"]) == [row.vp_total_p1, row.vp_total_p2]


def test_odd_games_leave_the_last_seed_once():
    games, _ = run_ladder(["random", "greedy"], 3, seed=1, workers=1)
    assert list(games["seed"]) == list(np.repeat(game_seeds(1, 2), 2)[:3])
    assert list(games["p1"]) == ["random", "greedy", "random"]


def test_same_games_whatever_the_workers_and_chunks(reference):
    games, ratings = run_ladder(AGENTS, GAMES, seed=SEED, workers=2, chunk_size=3)
    pd.testing.assert_frame_equal(games, reference.games)
    pd.testing.assert_frame_equal(ratings, reference.ratings)


def test_budget_is_given_to_every_search_agent():
    r = resolve_agents(["random", "mcts:c=0.7", "mcts"], seconds=0.05)
    assert [x[0] for x in r] == ["random", "mcts:c=0.7,seconds=0.05", "mcts:seconds=0.05"]
    assert [x[2] for x in r] == [False, True, True]
    assert r[1][1] == "mcts:seconds=0.05,c=0.7"
    games, ratings = run_ladder(["greedy", "mcts"], 2, iterations=10, workers=1)
    assert set(ratings["agent"]) == {"greedy", "mcts:iterations=10,c=1.4"}
    assert ratings.attrs["unbudgeted"] == ["greedy"]
    assert ratings.attrs["budget"] == "10 iterations per move"
    # a timed ladder plays (its games depend on the machine's speed)
    games, ratings = run_ladder(["random", "mcts"], 2, seconds=0.002, workers=1)
    assert len(games) == 2 and "mcts:seconds=0.002,c=1.4" in set(ratings["agent"])


# ------------------------------------------------------------------------- the ratings

def _table(results):
    """A games table from (p1, p2, winner) triples."""
    p1, p2, w = zip(*results)
    return pd.DataFrame({"p1": p1, "p2": p2, "winner": w})


def test_two_agents_match_the_closed_form():
    # A beats B 30 times, loses 8, shares 2: with one virtual shared game the log-odds are
    # log(31.5 / 9.5) and the Fisher information is T p (1 - p) with T = 41
    games = _table([("A", "B", 0)] * 20 + [("B", "A", 1)] * 10 + [("A", "B", 1)] * 8
                   + [("B", "A", -1)] * 2)
    d = math.log(31.5 / 9.5)
    p = 31.5 / 41
    se = 1 / math.sqrt(41 * p * (1 - p))
    r = fit_ratings(games, anchor="B").set_index("agent")
    assert r.loc["A", "elo"] == pytest.approx(d * ELO, abs=1e-6)
    assert r.loc["A", "se"] == pytest.approx(se * ELO, rel=1e-6)
    assert r.loc["A", "ci_low"] == pytest.approx((d - Z * se) * ELO, rel=1e-6)
    assert r.loc["B", ["elo", "se", "ci_low", "ci_high"]].tolist() == [0, 0, 0, 0]
    assert (r.loc["A", "wins"], r.loc["A", "shared"], r.loc["A", "losses"]) == (30, 2, 8)
    assert r.loc["A", "score"] == pytest.approx(31 / 40)
    m = fit_ratings(games, anchor="mean").set_index("agent")
    assert m.loc["A", "elo"] == pytest.approx(1500 + d * ELO / 2, abs=1e-6)
    assert m.loc["B", "se"] == pytest.approx(se * ELO / 2, rel=1e-6)
    assert m.attrs["anchor"] == "mean = 1500" and r.attrs["anchor"] == "B = 0"
    assert fit_ratings(games).attrs["anchor"] == "mean = 1500"    # no random on the ladder
    # no prior: the plain maximum-likelihood log-odds
    assert fit_ratings(games, anchor="B", prior=0).set_index("agent").loc["A", "elo"] == \
        pytest.approx(math.log(31 / 9) * ELO, abs=1e-6)


def test_known_strengths_are_recovered():
    rng = np.random.default_rng(5)
    true = {"w": 0.0, "x": 150.0, "y": 400.0, "z": 700.0}
    rows = []
    names = list(true)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = 1 / (1 + 10 ** ((true[b] - true[a]) / 400))
            wins = rng.random(1500) < p
            rows += [(a, b, 0 if w else 1) for w in wins]
    r = fit_ratings(_table(rows), anchor="w", prior=0).set_index("agent")
    for a, elo in true.items():
        assert abs(r.loc[a, "elo"] - elo) < 3 * max(r.loc[a, "se"], 1e-9) + 1e-6
        assert abs(r.loc[a, "elo"] - elo) < 40
    assert list(r.index) == ["z", "y", "x", "w"]
    assert list(r["rank"]) == [1, 2, 3, 4]


def test_a_clean_sweep_gets_a_finite_rating():
    games = _table([("A", "B", 0), ("B", "A", 1)] * 10)
    r = fit_ratings(games, anchor="B").set_index("agent")
    assert r.loc["A", "elo"] == pytest.approx(math.log(20.5 / 0.5) * ELO, abs=1e-6)
    assert math.isfinite(r.loc["A", "ci_high"])
    with pytest.raises(ValueError, match="prior"):
        fit_ratings(games, prior=0)


def test_ratings_cannot_compare_agents_that_never_met():
    games = _table([("A", "B", 0), ("C", "D", 1)])
    with pytest.raises(ValueError, match="never met"):
        fit_ratings(games)
    with pytest.raises(ValueError, match="without games: E"):
        fit_ratings(games, agents=["A", "B", "C", "D", "E"])


def test_head_to_head_and_ratings_agree_with_the_games(reference):
    games, ratings = reference
    h = head_to_head(games)
    assert len(h) == 6
    for r in h.itertuples():
        mine = games[((games.p1 == r.agent) & (games.p2 == r.opponent)) |
                     ((games.p2 == r.agent) & (games.p1 == r.opponent))]
        assert r.games == len(mine) == GAMES
        assert r.wins == (mine.winner_agent == r.agent).sum()
        assert r.losses == (mine.winner_agent == r.opponent).sum()
        back = h[(h.agent == r.opponent) & (h.opponent == r.agent)].iloc[0]
        assert r.score + back.score == pytest.approx(1)
        if r.shared == 0:
            assert (r.ci_low, r.ci_high) == pytest.approx(proportion_ci(r.wins, r.games))
    for r in ratings.itertuples():
        mine = games[(games.p1 == r.agent) | (games.p2 == r.agent)]
        assert r.games == len(mine) == 2 * GAMES
        assert r.wins == (mine.winner_agent == r.agent).sum()
    assert ratings.attrs["anchor"] == "random = 0"
    assert ratings.set_index("agent").loc["random", "elo"] == 0
    assert ratings["elo"].is_monotonic_decreasing


def test_wilson_interval():
    assert wilson_interval(7, 10) == pytest.approx(proportion_ci(7, 10))
    assert wilson_interval(0, 5)[0] == 0 and wilson_interval(5, 5)[1] == 1
    lo, hi = wilson_interval(7.5, 10)                 # a shared victory counts 1/2
    assert proportion_ci(7, 10)[0] < lo < proportion_ci(8, 10)[0]
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


# ------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("kwargs, message", [
    ({"agents": ["random"]}, "at least 2 agents, got 1"),
    ({"agents": []}, "at least 2 agents, got 0"),
    ({"agents": ["random", "bogus"]}, "unknown agent 'bogus'"),
    ({"agents": ["random", "mcts:iteratons=5"]}, "unknown option 'iteratons'"),
    ({"agents": ["greedy", "greedy:seed=4"]}, "'greedy' is given twice"),
    ({"agents": ["mcts", "mcts:iterations=1000"]}, "given twice"),
    ({"games": 0}, "games per pairing must be an integer from 1"),
    ({"games": 2.5}, "games per pairing"),
    ({"seconds": float("nan")}, "seconds per move must be a number in (0, 3600]"),
    ({"seconds": -1}, "seconds per move"),
    ({"seconds": 0}, "seconds per move"),
    ({"seconds": 5000}, "seconds per move"),
    ({"iterations": 0}, "iterations per move"),
    ({"seconds": 1, "iterations": 5}, "either seconds or iterations"),
    ({"agents": ["random", "mcts:iterations=5"], "seconds": 0.1}, "has its own budget"),
    ({"seed": -1}, "seed must be"),
    ({"anchor": "mcts"}, "anchor 'mcts' is not on the ladder"),
    ({"workers": 0}, "workers must be"),
    ({"backend": "slurm"}, "backend must be"),
    ({"address": "auto"}, "needs the Ray backend"),
])
def test_bad_input_is_refused_before_any_game(tmp_path, kwargs, message):
    kw = {"agents": ["random", "greedy"], "games": 2, "out_dir": tmp_path / "out", **kwargs}
    with pytest.raises(LadderError) as e:
        run_ladder(kw.pop("agents"), kw.pop("games"), **kw)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message, code", [
    (["random"], "at least 2 agents, got 1", 2),
    ([], "name at least 2 agents", 2),
    (["random", "bogus", "-n", "2"], "unknown agent 'bogus'", 2),
    (["random", "random", "-n", "2"], "'random' is given twice", 2),
    (["random", "plan:mast=1,mast=1", "-n", "2"],
     "agent 'plan:mast=1,mast=1': option mast is given twice", 2),
    (["random", "greedy", "-n", "0"], "'--games'", 2),
    (["random", "greedy"], "--games N", 2),
    (["random", "greedy", "-n", "2", "--seconds", "nan"], "'--seconds'", 2),
    (["random", "greedy", "-n", "2", "--seconds", "-1"], "'--seconds'", 2),
    (["random", "greedy", "-n", "2", "--seconds", "1", "--iterations", "5"], "not both", 2),
    (["random", "greedy", "-n", "2", "--backend", "slurm"], "'--backend'", 2),
    (["--resume"], "--out DIR", 2),
])
def test_cli_bad_input_is_one_line(tmp_path, args, message, code):
    res = CliRunner().invoke(main, ["ladder", *args], catch_exceptions=False)
    assert res.exit_code == code
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0], lines


# ------------------------------------------------------------------------- output and resume

def test_output_folder(tmp_path, reference):
    out = tmp_path / "out"
    games, ratings = run_ladder(AGENTS, GAMES, seed=SEED, out_dir=out, workers=1)
    pd.testing.assert_frame_equal(games, reference.games)
    names = sorted(p.name for p in out.iterdir())
    assert names == ["games.parquet", "head_to_head.csv", "ladder.json", "ladder.md",
                     "ladder.png", "ratings.csv"]
    pd.testing.assert_frame_equal(pd.read_parquet(out / "games.parquet"), games)
    csv = pd.read_csv(out / "ratings.csv")
    assert list(csv["agent"]) == list(ratings["agent"])
    assert np.allclose(csv["elo"], ratings["elo"]) and np.allclose(csv["ci_low"],
                                                                     ratings["ci_low"])
    h = pd.read_csv(out / "head_to_head.csv")
    assert len(h) == 6 and set(h.columns) >= {"agent", "opponent", "score", "ci_low"}
    md = (out / "ladder.md").read_text()
    assert "| 1 | " + ratings["agent"][0] in md and "random = 0" in md
    assert "duel ladder random greedy mcts:iterations=20 --games 10 --seed 7" in md
    png = (out / "ladder.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    again = read_ladder(out)
    pd.testing.assert_frame_equal(again.ratings, ratings)
    with pytest.raises(LadderError, match="already holds a ladder"):
        run_ladder(AGENTS, GAMES, seed=SEED, out_dir=out)
    # resuming a finished ladder plays nothing and gives the same tables
    pd.testing.assert_frame_equal(run_ladder(None, out_dir=out, resume=True).games, games)
    with pytest.raises(LadderError, match="differs in: games"):
        run_ladder(AGENTS, GAMES + 2, seed=SEED, out_dir=out, resume=True)
    small = run_ladder(["random", "greedy"], 2, out_dir=out, overwrite=True, plot=False)
    assert len(small.games) == 2 and not (out / "ladder.png").exists()


def test_resume_after_max_chunks(tmp_path, reference):
    out = tmp_path / "out"
    with pytest.raises(LadderInterrupted, match="max_chunks") as e:
        run_ladder(AGENTS, GAMES, seed=SEED, out_dir=out, chunk_size=2, workers=1,
                   max_chunks=4)
    chunks = sorted(p.name for p in (out / "chunks").glob("*.parquet"))
    assert len(chunks) == 4 and e.value.done == 8 == len(e.value.games)
    assert not (out / "games.parquet").exists()
    # a damaged chunk is played again
    (out / "chunks" / chunks[0]).write_bytes(b"not parquet")
    with pytest.raises(LadderInterrupted) as e:
        run_ladder(None, out_dir=out, resume=True, max_chunks=1, executor="processes",
                   workers=1)
    assert e.value.done == 8 and len(e.value.games) == 8
    games, ratings = run_ladder(None, out_dir=out, resume=True, workers=2, plot=False)
    pd.testing.assert_frame_equal(games, reference.games)
    pd.testing.assert_frame_equal(ratings, reference.ratings)
    assert not (out / "chunks").exists()


def test_interrupted_without_a_folder_keeps_the_games_in_memory():
    with pytest.raises(LadderInterrupted, match="not saved") as e:
        run_ladder(AGENTS, GAMES, seed=SEED, chunk_size=5, workers=1, max_chunks=2)
    assert len(e.value.games) == 10 and e.value.out_dir is None


def _cli(*args):
    # SIGINT may be ignored by the process that started the tests: restore Python's handler
    return [sys.executable, "-c", "import signal, sys; signal.signal(signal.SIGINT, "
            "signal.default_int_handler); from duelpy.cli.main import main; sys.exit(main())",
            "ladder", *args]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    return env


def test_ctrl_c_keeps_finished_games(tmp_path):
    """SIGINT to a running ``duel ladder``: exit 130, finished chunks kept, partial ratings
    printed; --resume completes it with the same games as an uninterrupted ladder."""
    agents = ["random", "greedy", "mcts:iterations=50"]
    out = tmp_path / "out"
    proc = subprocess.Popen(_cli(*agents, "--games", "30", "--seed", "2", "--chunk-size", "2",
                                 "--workers", "1", "--out", str(out)),
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 120
    while len(list(out.glob("chunks/*.parquet"))) < 4 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "ladder interrupted (Ctrl-C)" in stderr and "--resume --out" in stderr
    assert "partial" in stdout and "Traceback" not in stderr
    kept = list(out.glob("chunks/*.parquet"))
    assert 4 <= len(kept) < 45 and not (out / "games.parquet").exists()
    res = CliRunner().invoke(main, ["ladder", "--resume", "--out", str(out), "-q",
                                    "--no-plot"])
    assert res.exit_code == 0, res.output
    full = run_ladder(agents, 30, seed=2, workers=2)
    pd.testing.assert_frame_equal(read_ladder(out).games, full.games)


def test_cli_runs_a_ladder(tmp_path):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["ladder", "random", "greedy", "mcts:c=1", "-n", "4",
                                    "--iterations", "10", "--seed", "3", "--out", str(out),
                                    "--anchor", "mean", "--no-plot"])
    assert res.exit_code == 0, res.output
    assert "Ratings" in res.output and "Head to head" in res.output
    assert "mean = 1500" in res.output and "mcts:iterations=10,c=1" in res.output
    assert "without a budget (they search nothing): random, greedy" in res.output
    assert (out / "games.parquet").exists() and not (out / "ladder.png").exists()
    md = (out / "ladder.md").read_text()
    assert "duel ladder random greedy mcts:c=1 --games 4 --iterations 10 --seed 3" in md
    # --resume without the agents, or with them, or with flags that match (the budget and
    # the seed are the saved ones unless given)
    for args in ([], ["random", "greedy", "mcts:c=1"], ["--seed", "3", "-n", "4"]):
        res = CliRunner().invoke(main, ["ladder", *args, "--resume", "--out", str(out), "-q",
                                        "--no-plot"])
        assert res.exit_code == 0, res.output
    for args, differs in ((["-n", "6"], "games"), (["--iterations", "11"], "agents"),
                          (["random", "greedy"], "agents")):
        res = CliRunner().invoke(main, ["ladder", *args, "--resume", "--out", str(out)])
        assert res.exit_code == 1 and f"differs in: {differs}" in res.output, res.output
    res = CliRunner().invoke(main, ["ladder", "--help"])
    assert res.exit_code == 0 and "duel ladder random greedy" in res.output


@pytest.mark.slow
def test_ray_gives_the_same_games(tmp_path, reference):
    """The Ray backend (a local instance; slow to start) plays the same games."""
    pytest.importorskip("ray")
    games, ratings = run_ladder(AGENTS, GAMES, seed=SEED, backend="ray", workers=2,
                                out_dir=tmp_path / "out")
    pd.testing.assert_frame_equal(games, reference.games)
