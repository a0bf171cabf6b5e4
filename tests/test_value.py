"""The planning search's learned evaluator (issue 10, item 2): features, data, weights file,
retraining, and its use in the search."""
import numpy as np
import pytest

import duelcore
from duelcore import search


def _mid_game(seed=4, decisions=30):
    s = duelcore.new_game(seed)
    rng = np.random.default_rng(seed)
    while s.n_decisions < decisions and not s.is_terminal():
        acts = s.legal_actions()
        s.apply_action(int(acts[rng.integers(len(acts))]))
    return s


def test_shipped_weights_load_and_match_the_features():
    w = search.load_value_weights()
    assert w.shape == (search.VALUE_FEATURES,) == (len(search.VALUE_FEATURE_NAMES),)
    assert np.all(np.isfinite(w))


def test_features_are_p1_minus_p2_in_the_block_of_the_age():
    s = _mid_game()
    x = search.value_features_of(s)
    n = search.VALUE_FEATURES // 3
    block = s.age - 1
    assert not np.any(x[:block * n]) and not np.any(x[(block + 1) * n:])
    names = search.VALUE_FEATURE_NAMES
    i = names.index(f"age{s.age}_coins")
    assert x[i] == pytest.approx((s.coins(0) - s.coins(1)) / 10)
    i = names.index(f"age{s.age}_to_move")
    assert x[i] == (1 if s.current_player() == 0 else -1)


def test_value_is_a_probability_and_exact_at_the_end():
    s = _mid_game()
    v = search.value_of(s)
    assert 0.0 < v < 1.0
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    r = s.returns()
    assert search.value_of(s) == (1.0 if r[0] > r[1] else 0.0 if r[0] < r[1] else 0.5)


def test_value_data_is_deterministic_and_well_formed():
    X1, a1, y1 = search.value_data(50, seed=3, per_game=4)
    X2, a2, y2 = search.value_data(50, seed=3, per_game=4)
    assert X1.shape == (200, search.VALUE_FEATURES // 3)
    assert np.array_equal(X1, X2) and np.array_equal(a1, a2) and np.array_equal(y1, y2)
    assert set(np.unique(a1)) <= {0, 1, 2} and set(np.unique(y1)) <= {0.0, 0.5, 1.0}
    X3, _, _ = search.value_data(50, seed=4, per_game=4)
    assert not np.array_equal(X1, X3)
    with pytest.raises(ValueError):
        search.value_data(0)


_WEIGHT_FILES = {       # loader, feature names, weights: the evaluator's and the policy's
    "value": (search.load_value_weights, search.VALUE_FEATURE_NAMES, search.VALUE_FEATURES),
    "policy": (search.load_policy_weights, search.POLICY_WEIGHT_NAMES,
               search.POLICY_WEIGHTS),
}


@pytest.mark.parametrize("which", sorted(_WEIGHT_FILES))
@pytest.mark.parametrize("content, match", [
    (None, "cannot be read"),
    (b"not an npz file at all", "cannot be read"),
    ("shape", "shape"),
    ("names", "feature names"),
    ("nan", "finite"),
])
def test_a_missing_or_corrupt_weights_file_is_an_error_naming_it(tmp_path, which, content,
                                                                 match):
    load, feature_names, n = _WEIGHT_FILES[which]
    path = tmp_path / "w.npz"
    names = np.array(feature_names)
    w = np.zeros(n)
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "shape":
        np.savez(path, weights=np.zeros(5), features=names)
    elif content == "names":
        np.savez(path, weights=w, features=names[::-1])
    elif content == "nan":
        w[3] = np.nan
        np.savez(path, weights=w, features=names)
    with pytest.raises(ValueError, match=match) as e:
        load(path)
    assert str(path) in str(e.value) and "allow_pickle" not in str(e.value)
    load()                              # the shipped weights again


def test_retraining_is_deterministic_from_a_seed(tmp_path):
    from duelpy.duel.train import fit_value, save_value_weights
    r1 = fit_value(400, seed=5)
    r2 = fit_value(400, seed=5)
    assert np.array_equal(r1.weights, r2.weights)
    assert all(loss < r1.base_log_loss for loss in r1.log_loss[1:])
    path = save_value_weights(r1.weights, tmp_path / "w.npz")
    assert np.array_equal(search.load_value_weights(path), r1.weights)
    search.load_value_weights()
    with pytest.raises(ValueError):
        fit_value(10)


def test_the_search_with_the_evaluator_plays_legal_moves_and_does_not_peek():
    s1 = _mid_game(seed=3, decisions=20)
    d = s1.to_dict()
    d["rng"] = (d["rng"] * 6364136223846793005 + 1442695040888963407) % 2 ** 64
    s2 = duelcore.state_from_dict(d)
    for opts in ({"value": 1.0}, {"value": 0.5, "horizon": 4}):
        r1 = search.mcts_search(s1, iterations=2000, seed=42, kind="plan", **opts)
        r2 = search.mcts_search(s2, iterations=2000, seed=42, kind="plan", **opts)
        assert r1 == r2, opts
        assert set(r1["actions"]) <= set(s1.legal_actions())


def test_duel_train_writes_weights_and_refuses_bad_input(tmp_path):
    from click.testing import CliRunner
    from duelpy.cli.main import main

    out = tmp_path / "w.npz"
    r = CliRunner().invoke(main, ["train", "--games", "300", "--seed", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Age 3: held-out log-loss" in r.output
    assert search.load_value_weights(out).shape == (search.VALUE_FEATURES,)
    search.load_value_weights()
    r = CliRunner().invoke(main, ["train", "--games", "300", "--out", str(out)])
    assert r.exit_code != 0 and "exists" in r.output
    r = CliRunner().invoke(main, ["train", "--games", "5", "--out", str(out)])
    assert r.exit_code != 0 and "--games" in r.output
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "w.txt")])
    assert r.exit_code != 0 and ".npz" in r.output
    r = CliRunner().invoke(main, ["train", "--c", "nan", "--out", str(tmp_path / "v.npz")])
    assert r.exit_code == 2 and "not a number" in r.output
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "no" / "v.npz")])
    assert r.exit_code == 2 and "is not a folder" in r.output


def test_plan_options_of_the_evaluator_are_checked():
    from duelpy import parse_agent
    from duelpy.duel.agents import AgentSpecError

    a = parse_agent("plan:iterations=50,value=0.5,horizon=4,deny=0.5,rmix=0.25")
    assert a.spec["value"] == 0.5 and a.spec["horizon"] == 4 and a.spec["rmix"] == 0.25
    for bad in ("plan:value=2", "plan:horizon=-1", "plan:rmix=nan", "plan:deny=-1",
                "plan:value=0.5,value=0.5"):
        with pytest.raises(AgentSpecError):
            parse_agent(bad)


@pytest.mark.parametrize("which", ["value", "policy"])
@pytest.mark.parametrize("argv", [
    ["ladder", "{agent}", "random", "--games", "1"],
    ["simulate", "--games", "2", "--p1", "{agent}"],
    ["study", "--games", "2", "--p1", "{agent}", "--p2", "random", "--out", "{out}"],
])
def test_the_cli_names_a_missing_weights_file_in_one_line(tmp_path, which, argv):
    """A fresh interpreter whose weights file is missing: the agent is refused when it is
    read, one line naming the file, no traceback (issue 10's bad input)."""
    import subprocess
    import sys
    agent = "plan:iterations=10,value=0.5" if which == "value" else "plan:iterations=10"
    code = (f"from duelcore import search\n"
            f"search.{which}_weights_path = lambda: '/no/such/{which}.npz'\n"
            f"from duelpy.cli.main import main\n"
            f"main({[a.format(agent=agent, out=tmp_path / 'o') for a in argv]!r})\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and f"/no/such/{which}.npz" in lines[0], r.stderr
