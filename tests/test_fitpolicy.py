"""The planning search's fitted playout policy (issue 10): turn features, the weights file,
the fit, its use in the search, and `duel train --model policy`."""
import numpy as np
import pytest

import duelcore
from duelcore import search


def _turns(seeds=range(60)):
    """Every turn (PH_PLAY) of random games."""
    for seed in seeds:
        s = duelcore.new_game(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.phase == "play":
                yield s
            acts = s.legal_actions()
            s.apply_action(int(acts[rng.integers(len(acts))]))


def test_turn_features_list_exactly_the_legal_actions():
    n = 0
    for s in _turns():
        acts, x, win = search.turn_features_of(s)
        assert sorted(acts.tolist()) == s.legal_actions()
        assert x.shape == (len(acts), search.POLICY_FEATURES) and np.all(np.isfinite(x))
        kinds = x[:, :3]                    # build / discard / wonder indicators
        assert np.array_equal(kinds.sum(axis=1), np.ones(len(acts)))
        n += 1
    assert n > 1000


def test_a_winning_turn_is_flagged_and_wins():
    found = 0
    for s in _turns(range(400)):
        _, _, win = search.turn_features_of(s)
        if win >= 0:
            t = s.clone()
            t.apply_action(int(win))
            assert t.is_terminal() and t.result()["victory"] in ("scientific", "military")
            found += 1
    assert found > 5


def test_features_name_what_a_card_does():
    s = next(iter(_turns([3])))            # Age I's first turn
    acts, x, _ = search.turn_features_of(s)
    names = search.POLICY_FEATURE_NAMES
    for a, row in zip(acts, x):
        text = s.action_to_string(int(a))
        if text.startswith("build "):
            card = text[len("build "):]
            cost = s.card_cost(s.current_player(), card)[0]
            assert row[names.index("build_cost")] == pytest.approx(cost / 3)
        if text.startswith("discard "):
            assert row[names.index("discard_coins")] == pytest.approx(2 / 3)


def _worth_now(d, p, name):
    """VP + coins / 3 that card `name`'s guild or coins per item give player p if built now
    (R-BUILD-3, R-END-3), from the independent reference model."""
    import reference_model as ref
    card = ref.CARD[name]
    me = d["players"][p]
    if card.coins_per:
        what, k = card.coins_per
        n = (sum(w["built"] for w in me["wonders"]) if what == "wonder"
             else ref.colour_count(me, what) + (what == card.colour))   # counts itself
        return k * n / 3
    if card.guild:
        units = ref.guild_units(d, card.guild)
        vp = 2 * units if card.guild == "wonder" else units
        return vp + (0 if card.guild in ("wonder", "coins") else units / 3)
    return 0.0


def test_the_worth_now_of_guilds_and_coins_per_item():
    """build_value_now and opponent_value_now: a guild's VP if the game ended now plus its
    coins, and a yellow card's coins per item (counting itself), for the player and for the
    opponent; every other card 0.  deny_pair: the card gives the opponent a pair."""
    import reference_model as ref
    names = search.POLICY_FEATURE_NAMES
    now, opp, pair = (names.index(k) for k in
                      ("build_value_now", "opponent_value_now", "deny_pair"))
    seen = {"guild": 0, "per": 0, "pair": 0}
    for s in _turns(range(80)):
        if s.age != 3 and s.n_decisions % 3:
            continue
        d = s.to_dict()
        p = s.current_player()
        acts, x, _ = search.turn_features_of(s)
        for a, row in zip(acts, x):
            kind, _, name = s.action_to_string(int(a)).partition(" ")
            if kind == "wonder":
                name = name.split(" with ", 1)[1]
            card = ref.CARD[name]
            assert row[opp] == pytest.approx(_worth_now(d, 1 - p, name)), name
            built = row[now] if kind == "build" else 0.0
            assert built == pytest.approx(_worth_now(d, p, name) if kind == "build" else 0.0)
            held = ref.symbols(d["players"][1 - p]).get(card.symbol, 0)
            expect = bool(card.symbol) and held == 1 and bool(d["board_tokens"])
            assert row[pair] == expect, (name, held)
            seen["guild"] += bool(card.guild)
            seen["per"] += bool(card.coins_per)
            seen["pair"] += expect
    assert min(seen.values()) > 20, seen


def test_turn_features_refuse_a_position_that_is_not_a_turn():
    with pytest.raises(ValueError, match="PH_PLAY"):
        search.turn_features_of(duelcore.new_game(1))       # the wonder draft
    with pytest.raises(TypeError):
        search.turn_features_of(None)


def test_shipped_policy_weights_load():
    w = search.load_policy_weights()
    assert w.shape == (search.POLICY_WEIGHTS,) and np.all(np.isfinite(w))
    assert search.POLICY_WEIGHT_NAMES[search.POLICY_FEATURES:] == search.POLICY_BIAS_NAMES
    assert np.any(w[search.POLICY_FEATURES:] != 0)      # the biases are fitted


def test_a_weights_file_without_the_biases_loads_with_zero_biases(tmp_path):
    """A file of the features' weights alone (before the per-card biases) still loads: the
    biases are 0, so its draws follow the features alone."""
    path = tmp_path / "old.npz"
    old = np.linspace(-0.5, 0.5, search.POLICY_FEATURES)
    np.savez(path, weights=old, features=np.array(search.POLICY_FEATURE_NAMES))
    try:
        w = search.load_policy_weights(path)
        assert w.shape == (search.POLICY_WEIGHTS,)
        assert np.array_equal(w[:search.POLICY_FEATURES], old)
        assert not w[search.POLICY_FEATURES:].any()
        s, acts, x = next(_plain_turns([21], 5))
        draws = search._fitted_draws(s, 30_000, seed=1, temp=1.0)
        _assert_drawn_by_softmax(draws, acts, x @ w, 0.015, "old file")
    finally:
        search.load_policy_weights()


def test_weights_are_read_by_name_and_a_missing_one_weighs_zero(tmp_path):
    """Round 4's file predates build_value_now, opponent_value_now and deny_pair: it loads
    with those at 0 and every other weight in its place.  Names out of the core's order, or
    repeated, are refused naming the file."""
    from pathlib import Path
    path = Path(__file__).parents[1] / "docs" / "weights" / "policy_weights_round4.npz"
    with np.load(path) as f:
        old, names = f["weights"], [str(n) for n in f["features"]]
    new = ["build_value_now", "opponent_value_now", "deny_pair"]
    assert not set(new) & set(names)
    try:
        w = search.load_policy_weights(path)
        cols = [search.POLICY_WEIGHT_NAMES.index(n) for n in names]
        assert np.array_equal(w[cols], old)
        assert not w[[search.POLICY_WEIGHT_NAMES.index(n) for n in new]].any()
        for bad, what in ((names[1::-1] + names[2:], "order"), (names[:1] + names[:-1], "order")):
            np.savez(tmp_path / "bad.npz", weights=old, features=np.array(bad))
            with pytest.raises(ValueError, match=what) as e:
                search.load_policy_weights(tmp_path / "bad.npz")
            assert str(tmp_path / "bad.npz") in str(e.value)
        np.savez(tmp_path / "bad.npz", weights=old, features=np.array(names[:-1] + ["magic"]))
        with pytest.raises(ValueError, match="unknown name 'magic'"):
            search.load_policy_weights(tmp_path / "bad.npz")
    finally:
        search.load_policy_weights()


def test_action_biases_are_one_hot_by_built_card_wonder_and_age():
    from duelcore import data
    names = search.POLICY_BIAS_NAMES
    n = len(data.CARDS)                 # actions: build 12 + c, discard 85 + c, wonder 158 + w*73 + c
    b = search.action_biases([12 + 5, 85 + 5, 158 + 3 * n + 7], 2)
    assert b.shape == (3, len(names))
    assert [names[k] for k in np.flatnonzero(b[0])] == [f"build_card_{data.CARDS[5].name}"]
    assert [names[k] for k in np.flatnonzero(b[1])] == ["discard_age2"]
    assert [names[k] for k in np.flatnonzero(b[2])] == [
        f"wonder_is_{data.WONDERS[3].name}", f"wonder_is_{data.WONDERS[3].name}_age2"]
    assert b.sum() == 4
    with pytest.raises(ValueError, match="age must be 1, 2 or 3"):
        search.action_biases([12], 0)


def test_a_weights_file_without_the_per_age_biases_loads_with_them_at_zero(tmp_path):
    """A file of the features and the per-card and per-wonder biases (before the per-Age
    ones) loads with the per-Age biases at 0: its draws follow its own weights in every Age."""
    from duelcore import data
    k = search.POLICY_FEATURES + len(data.CARDS) + len(data.WONDERS)
    path = tmp_path / "round3.npz"
    old = np.random.default_rng(3).normal(0, 0.5, k)
    np.savez(path, weights=old, features=np.array(search.POLICY_WEIGHT_NAMES[:k]))
    try:
        w = search.load_policy_weights(path)
        assert w.shape == (search.POLICY_WEIGHTS,)
        assert np.array_equal(w[:k], old) and not w[k:].any()
        ages = set()
        for s, acts, x in _plain_turns([22, 23], 7):
            draws = search._fitted_draws(s, 30_000, seed=2, temp=1.0)
            _assert_drawn_by_softmax(draws, acts, x[:, :k] @ old, 0.015, f"age {s.age}")
            ages.add(s.age)
        assert ages == {1, 2, 3}
    finally:
        search.load_policy_weights()


def test_per_age_biases_steer_the_draws_in_their_age_only(tmp_path):
    """A large bias for discarding in Age II makes the playouts discard in Age II, and only
    there."""
    w = search.load_policy_weights()
    w2 = w.copy()
    w2[search.POLICY_WEIGHT_NAMES.index("discard_age2")] = 50.0
    path = tmp_path / "discard2.npz"
    np.savez(path, weights=w2, features=np.array(search.POLICY_WEIGHT_NAMES))
    try:
        search.load_policy_weights(path)
        seen = set()
        for s, acts, x in _plain_turns([24, 25, 26], 3):
            draws = search._fitted_draws(s, 2_000, seed=3, temp=1.0)
            discard = np.mean([85 <= a < 158 for a in draws])
            if s.age == 2:
                assert discard > 0.99
            else:
                _assert_drawn_by_softmax(draws, acts, x @ w2, 0.05, f"age {s.age}")
            seen.add(s.age)
        assert seen == {1, 2, 3}
    finally:
        search.load_policy_weights()


# A missing or corrupt policy weights file: tests/test_value.py (both weights files).


def test_fit_policy_recovers_known_weights():
    """Visit shares drawn from a known softmax are fitted back to its weights."""
    from duelpy.duel.train import fit_policy
    rng = np.random.default_rng(0)
    k = search.POLICY_FEATURES
    w_true = rng.normal(0, 1, k)
    Xs, Ts, Gs = [], [], []
    for g in range(3000):
        n = rng.integers(2, 12)
        x = rng.normal(0, 1, (n, k))
        z = x @ w_true
        p = np.exp(z - z.max())
        Xs.append(x)
        Ts.append(p / p.sum())
        Gs.append(np.full(n, g))
    rep = fit_policy(np.concatenate(Xs), np.concatenate(Ts), np.concatenate(Gs), l2=0.0)
    assert np.allclose(rep.weights, w_true, atol=0.05)
    assert rep.cross_entropy < rep.base_cross_entropy and rep.agreement > 0.95
    with pytest.raises(ValueError, match="100 turns"):
        fit_policy(Xs[0], Ts[0], Gs[0])


def test_policy_data_is_deterministic_and_well_formed():
    from duelpy.duel.train import policy_data
    X1, t1, g1 = policy_data(1, seed=4, iterations=100, jobs=1)
    X2, t2, g2 = policy_data(1, seed=4, iterations=100, jobs=2)
    assert np.array_equal(X1, X2) and np.array_equal(t1, t2) and np.array_equal(g1, g2)
    assert X1.shape == (len(t1), search.POLICY_WEIGHTS) and g1[-1] > 20
    sums = np.bincount(g1, weights=t1)
    assert np.allclose(sums, 1.0)


def test_the_fitted_search_plays_legal_moves_and_does_not_peek():
    s1 = next(s for s in _turns([3]) if s.n_decisions >= 20).clone()
    d = s1.to_dict()
    d["rng"] = (d["rng"] * 6364136223846793005 + 1442695040888963407) % 2 ** 64
    s2 = duelcore.state_from_dict(d)
    for opts in ({"policy": "fitted"}, {"policy": "fitted", "temp": 0.5}, {"mast": 0.0}):
        r1 = search.mcts_search(s1, iterations=2000, seed=42, kind="plan", **opts)
        r2 = search.mcts_search(s2, iterations=2000, seed=42, kind="plan", **opts)
        assert r1 == r2, opts
        assert set(r1["actions"]) <= set(s1.legal_actions())


def test_fitted_agent_specs_and_their_errors():
    from duelpy.duel.agents import AgentSpecError, parse_agent
    a = parse_agent("plan:iterations=200,policy=fitted,temp=0.5")
    assert a.name == "plan:iterations=200,temp=0.5"         # fitted is the default
    assert parse_agent("plan:policy=hand").name == "plan:iterations=1000,policy=hand"
    assert parse_agent("plan:policy=hand").spec["policy"] == "hand"
    s = duelcore.new_game(2)
    assert a.select_action(s) in s.legal_actions()
    for bad, key in (("plan:policy=learned", "policy"), ("plan:temp=0", "temp"),
                     ("plan:temp=1e-310", "temp"), ("plan:temp=nan", "temp"),
                     ("plan:policy=fitted,policy=hand", "policy"),
                     ("plan:policy=hand,temp=0.5", "temp"), ("plan:mast=-1", "mast"),
                     ("plan:mast=nan", "mast"), ("plan:policy=hand,mast=1", "mast"),
                     ("plan:policy=hand,mast=0", "mast"), ("plan:policy=hand,mast=3", "mast"),
                     ("plan:policy=hand,temp=0.4", "temp"), ("plan:science=11", "science"),
                     ("plan:science=-10.5", "science"), ("plan:science=nan", "science"),
                     ("plan:policy=hand,science=0.7", "science"),
                     ("plan:science=1,science=1", "science")):
        with pytest.raises(AgentSpecError, match=key):
            parse_agent(bad)
    from duelpy.duel.agents import PlanAgent
    for policy in ("HAND", " hand", "Hand "):       # the Python API, however it is spelt
        with pytest.raises(AgentSpecError, match="science"):
            PlanAgent(iterations=5, policy=policy, science=2.0)


def test_a_fitted_game_against_greedy_is_won():
    r = search.play_games(np.array([5, 6], dtype=np.uint64),
                          {"kind": "plan", "iterations": 300, "policy": "fitted"},
                          {"kind": "greedy"}, np.array([0, 1], dtype=np.uint8))
    assert list(r["winner"]) == [0, 1]


def test_duel_train_policy_writes_weights(tmp_path):
    from click.testing import CliRunner
    from duelpy.cli.main import main

    out = tmp_path / "p.npz"
    r = CliRunner().invoke(main, ["train", "--model", "policy", "--games", "3",
                                  "--iterations", "100", "--rounds", "2", "--seed", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "top action agrees with the search" in r.output
    assert all(line.strip() for line in r.stderr.splitlines()), repr(r.stderr)  # no bar lines
    assert search.load_policy_weights(out).shape == (search.POLICY_WEIGHTS,)
    search.load_policy_weights()
    r = CliRunner().invoke(main, ["train", "--model", "policy", "--games", "1",
                                  "--iterations", "100", "--out", str(tmp_path / "q.npz")])
    assert r.exit_code != 0 and "at least 100" in r.output
    r = CliRunner().invoke(main, ["train", "--model", "tree", "--out", str(out)])
    assert r.exit_code == 2 and "--model" in r.output
    r = CliRunner().invoke(main, ["train", "--model", "policy", "--c", "0.5", "--out",
                                  str(tmp_path / "r.npz")])
    assert r.exit_code == 2 and "--c" in r.output and "only to --model value" in r.output
    r = CliRunner().invoke(main, ["train", "--rounds", "3", "--out", str(tmp_path / "r.npz")])
    assert r.exit_code == 2 and "--rounds" in r.output and "only to --model policy" in r.output


def test_duel_train_policy_from_a_start_file(tmp_path):
    """--start: the rounds search with the fitted policy of that file and the search's
    defaults; the same seed gives the same weights; a missing start file is refused."""
    from pathlib import Path

    from click.testing import CliRunner
    from duelpy.cli.main import main

    start = Path(__file__).resolve().parents[1] / "docs" / "weights" / "policy_weights_round2.npz"
    outs = []
    for name in ("a.npz", "b.npz"):
        out = tmp_path / name
        r = CliRunner().invoke(main, ["train", "--model", "policy", "--games", "2",
                                      "--iterations", "100", "--rounds", "1", "--seed", "3",
                                      "--start", str(start), "--out", str(out)])
        assert r.exit_code == 0, r.output
        outs.append(np.load(out)["weights"])
    assert outs[0].shape == (search.POLICY_WEIGHTS,) and np.array_equal(outs[0], outs[1])
    out = tmp_path / "hand.npz"         # without --start round 1 searches with the hand policy
    r = CliRunner().invoke(main, ["train", "--model", "policy", "--games", "2",
                                  "--iterations", "100", "--rounds", "1", "--seed", "3",
                                  "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert not np.array_equal(np.load(out)["weights"], outs[0])
    with np.load(search.policy_weights_path()) as f:     # the shipped weights restored
        shipped, names = f["weights"], list(f["features"])
    cols = [search.POLICY_WEIGHT_NAMES.index(n) for n in names]
    assert np.array_equal(search.load_policy_weights()[cols], shipped)
    r = CliRunner().invoke(main, ["train", "--model", "policy", "--start",
                                  str(tmp_path / "none.npz"), "--out", str(tmp_path / "c.npz")])
    assert r.exit_code == 2 and "--start" in r.output
    r = CliRunner().invoke(main, ["train", "--start", str(start), "--out",
                                  str(tmp_path / "c.npz")])
    assert r.exit_code == 2 and "only to --model policy" in r.output


def _plain_turns(seeds, every):
    """(state, actions, features and bias columns) of every `every`-th turn of random games
    with no win on offer (a win is always taken, outside the softmax)."""
    for s in _turns(seeds):
        if s.n_decisions % every == 0:
            acts, x, win = search.turn_features_of(s)
            if win < 0:
                yield s, acts, np.hstack([x, search.action_biases(acts, s.age)])


def _assert_drawn_by_softmax(draws, acts, z, tol, what):
    """The draws' frequencies match softmax(z) over `acts` within `tol`."""
    p = np.exp(z - z.max())
    p /= p.sum()
    freq = np.array([(draws == a).mean() for a in acts])
    assert set(draws) <= set(acts.tolist())
    assert np.abs(freq - p).max() < tol, what


def test_playout_turns_are_drawn_from_the_softmax_of_the_features():
    """The playout's fast path computes the same logits as the feature rows."""
    w = search.load_policy_weights()
    checked = 0
    for s, acts, x in _plain_turns([7, 8], 7):
        for temp in (1.0, 0.5):
            draws = search._fitted_draws(s, 40_000, seed=checked, temp=temp)
            _assert_drawn_by_softmax(draws, acts, x @ w / temp, 0.012, (s.n_decisions, temp))
        checked += 1
    assert checked >= 8


def test_move_averages_shift_the_playout_logits():
    """MAST: each action's logit gains mast * (mean - 0.5) of its key (build c, discard c,
    wonder w) for the player to move; the search runs with it."""
    w = search.load_policy_weights()
    rng = np.random.default_rng(3)
    q = rng.uniform(0.2, 0.8, size=(2, search.MAST_KEY_COUNT))
    checked = 0
    for s, acts, x in _plain_turns([12, 13], 9):
        keys = np.array([search.mast_key_of(int(a)) for a in acts])
        assert (keys >= 0).all()
        z = (x @ w + 1.5 * (q[s.current_player(), keys] - 0.5)) / 0.5
        draws = search._fitted_draws(s, 30_000, seed=checked, temp=0.5, mast=1.5, mast_q=q)
        _assert_drawn_by_softmax(draws, acts, z, 0.013, s.n_decisions)
        checked += 1
    assert checked >= 4
    assert search.mast_key_of(0) == -1                  # a draft pick has no key
    s = duelcore.new_game(4)
    res = search.mcts_search(s, kind="plan", iterations=300, mast=1.0, seed=1)
    assert res["iterations"] == 300 and set(res["actions"]) <= set(s.legal_actions())
    # the search feeds the averages to its playouts: the same seed searches differently
    _assert_the_search_uses("mast", 3.0, 14, (-1.0, float("nan"), 101.0))


def _assert_the_search_uses(key, value, game_seed, bad_values):
    """Option `key` at `value` and at 0 makes the same seeded search differ (and each is
    deterministic); `bad_values` are refused naming the key."""
    turn = next(s for s in _turns([game_seed]) if s.n_decisions >= 12).clone()
    on, off = (search.mcts_search(turn, kind="plan", iterations=3000, seed=2, **{key: v})
               for v in (value, 0.0))
    assert on["visits"] != off["visits"]
    assert search.mcts_search(turn, kind="plan", iterations=3000, seed=2, **{key: value}) == on
    for bad in bad_values:
        with pytest.raises(ValueError, match=key):
            search.mcts_search(turn, kind="plan", iterations=10, **{key: bad})


def test_the_science_bonus_shifts_the_playout_logits():
    """plan's `science`: a build that gives the player a new science symbol gains `science`
    in its playout logit (other actions unchanged); the search uses it, and bad values are
    refused naming the key."""
    w = search.load_policy_weights()
    new_symbol = search.POLICY_FEATURE_NAMES.index("build_new_symbol")
    checked = 0
    for s, acts, x in _plain_turns([15, 16, 17], 5):
        bonus = x[:, new_symbol]
        if not bonus.any():
            continue
        z = (x @ w + 1.5 * bonus) / 0.5
        draws = search._fitted_draws(s, 30_000, seed=checked, temp=0.5, science=1.5)
        _assert_drawn_by_softmax(draws, acts, z, 0.013, s.n_decisions)
        checked += 1
    assert checked >= 4
    assert search.PLAN_DEFAULTS["science"] == 0.7
    _assert_the_search_uses("science", 2.0, 18, (-10.5, float("nan"), 11.0))
    with pytest.raises(ValueError, match="science must be a number"):
        search.mcts_search(duelcore.new_game(4), kind="plan", iterations=10, science="abc")


def test_the_puct_term_changes_the_search():
    """plan's `puct`: the search uses it (same seed, other visits; deterministic), bad values
    are refused naming the key, and the agent names it."""
    _assert_the_search_uses("puct", 1.0, 21, (-1.0, float("nan"), 1e7))
    from duelpy.duel.agents import parse_agent
    a = parse_agent("plan:iterations=50,puct=1,c=0.4")
    assert a.spec["puct"] == 1.0 and a.name == "plan:iterations=50,c=0.4,puct=1"


def test_mcts_search_refuses_what_its_kind_would_ignore():
    """mcts_search: a number given as a string or a bool is refused naming the key, and a
    planning option with kind="mcts" is refused rather than silently ignored."""
    turn = next(s for s in _turns([3]) if s.n_decisions >= 12).clone()
    for key, bad in (("c", "1"), ("c", True), ("science", "0.5"), ("horizon", 2.5)):
        with pytest.raises(ValueError, match=key):
            search.mcts_search(turn, kind="plan", iterations=10, **{key: bad})
    for key, v in (("science", 1.0), ("mast", 2.0), ("policy", "hand"), ("horizon", 3)):
        with pytest.raises(ValueError, match=f"{key} applies only to kind='plan'"):
            search.mcts_search(turn, kind="mcts", iterations=10, **{key: v})
    for kw in (dict(c=float("nan")), dict(iterations=0, seconds=float("inf")),
               dict(kind="plan", eps=2.0), dict(max_nodes=-5), dict(kind="plan", horizon=500),
               dict(kind="plan", value=-1.0), dict(kind="plan", noise=float("nan"))):
        key = next(k for k in kw if k not in ("kind", "iterations"))
        with pytest.raises(ValueError, match=f"{key} must be in"):    # never a hang at inf
            search.mcts_search(turn, **{"iterations": 10, **kw})
    assert search.mcts_search(turn, kind="mcts", iterations=10, c=1)["iterations"] == 10
    assert search.mcts_search(turn, kind="plan", iterations=10, horizon=2.0,
                              value=0.5)["iterations"] == 10


def test_the_weights_option_pins_a_shipped_set_or_a_file(tmp_path):
    """plan's `weights` (issue 33): `round8` (still the default) is a shipped set by
    name; a path plays its own weights, as if that file were the loaded default, while the
    default of every other search stays as it was; the agent names it."""
    from duelpy.duel.agents import parse_agent
    turn = next(s for s in _turns([19]) if s.n_decisions >= 12).clone()
    base = search.mcts_search(turn, kind="plan", iterations=1500, seed=3)
    named = search.mcts_search(turn, kind="plan", iterations=1500, seed=3, weights="round8")
    w = search.read_policy_weights(search.policy_weights_file("round8"))
    assert named == base            # round8 is still the shipped default
    w2 = w.copy()
    w2[search.POLICY_WEIGHT_NAMES.index("discard")] += 3.0
    path = tmp_path / "other.npz"
    np.savez(path, weights=w2, features=np.array(search.POLICY_WEIGHT_NAMES))
    other = search.mcts_search(turn, kind="plan", iterations=1500, seed=3, weights=str(path))
    assert other["visits"] != base["visits"]
    assert search.mcts_search(turn, kind="plan", iterations=1500, seed=3) == base
    try:
        search.load_policy_weights(path)
        assert search.mcts_search(turn, kind="plan", iterations=1500, seed=3) == other
        assert search.mcts_search(turn, kind="plan", iterations=1500, seed=3,
                                  weights="round8") == base
    finally:
        search.load_policy_weights()
    a = parse_agent("plan:iterations=50,weights=round8")
    assert a.name == "plan:iterations=50,weights=round8" and a.spec["weights"] == "round8"
    assert parse_agent("plan:iterations=50").spec["weights"] is None


@pytest.mark.parametrize("names", [("opponent_value", "opponent_value_now"),
                                   ("expose_value",),
                                   ("opponent_value", "opponent_value_now", "expose_value",
                                    "expose_face_down")])
def test_features_weighing_zero_are_left_out_of_the_playouts_exactly(tmp_path, names):
    """The playouts skip the costlier features of taking a card (the opponent's worth, the
    uncovered cards) when their weights are 0 (issue 33): the same search as when they are
    computed and weigh next to nothing (1e-300 adds nothing to a logit of order 1)."""
    turn = next(s for s in _turns([23]) if s.n_decisions >= 10).clone()
    w = search.read_policy_weights(search.policy_weights_file("round8"))
    runs = []
    for eps in (0.0, 1e-300):
        w2 = w.copy()
        for name in names:
            w2[search.POLICY_WEIGHT_NAMES.index(name)] = eps
        path = tmp_path / f"w{len(runs)}.npz"
        np.savez(path, weights=w2, features=np.array(search.POLICY_WEIGHT_NAMES))
        runs.append(search.mcts_search(turn, kind="plan", iterations=1500, seed=5,
                                       weights=str(path)))
    assert runs[0] == runs[1]
    base = search.mcts_search(turn, kind="plan", iterations=1500, seed=5, weights="round8")
    assert runs[0]["visits"] != base["visits"]      # the features did matter


def test_two_plans_with_their_own_weights_meet_in_one_match(tmp_path):
    """Each agent of a match plays with its own weights: a game between a default plan and
    one with other weights is the same whichever set is the loaded default."""
    w = search.load_policy_weights()
    w2 = w.copy()
    w2[search.POLICY_WEIGHT_NAMES.index("discard")] += 3.0
    path = tmp_path / "other.npz"
    np.savez(path, weights=w2, features=np.array(search.POLICY_WEIGHT_NAMES))
    rnd8 = {"kind": "plan", "iterations": 150, "weights": "round8"}
    mine = {"kind": "plan", "iterations": 150, "weights": str(path)}
    seeds, swap = np.array([8, 9], dtype=np.uint64), np.array([0, 1], dtype=np.uint8)
    r1 = search.play_games(seeds, rnd8, mine, swap)
    try:
        search.load_policy_weights(path)
        r2 = search.play_games(seeds, rnd8, mine, swap)
    finally:
        search.load_policy_weights()
    for key in r1:
        assert np.array_equal(np.asarray(r1[key]), np.asarray(r2[key])), key
    r3 = search.play_games(seeds, {**rnd8, "weights": None}, {**mine, "weights": None}, swap)
    assert any(not np.array_equal(np.asarray(r1[k]), np.asarray(r3[k])) for k in r1)


@pytest.mark.parametrize("damage, what", [
    ("missing", "cannot be read"),
    ("truncated", "cannot be read"),
    ("not npz", "cannot be read"),
    ("unknown name", "feature names do not match"),
    ("out of order", "feature names do not match"),
    ("one weight short", "not one weight per name"),
    ("not finite", "not all finite"),
])
def test_a_bad_weights_file_is_refused_naming_it(tmp_path, damage, what):
    """A missing, truncated or mismatched weights file is refused when the agent is made, with
    the file's name and what is wrong: never a silent fallback to other weights."""
    from duelpy.duel.agents import AgentSpecError, PlanAgent, parse_agent
    names = list(search.POLICY_WEIGHT_NAMES)
    w = search.read_policy_weights(search.policy_weights_file("round8"))
    path = tmp_path / "bad_weights.npz"
    if damage == "truncated":
        np.savez(path, weights=w, features=np.array(names))
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2])
    elif damage == "not npz":
        path.write_text("weights\n")
    elif damage == "unknown name":
        np.savez(path, weights=w, features=np.array(names[:-1] + ["magic"]))
    elif damage == "out of order":
        np.savez(path, weights=w, features=np.array([names[1], names[0]] + names[2:]))
    elif damage == "one weight short":
        np.savez(path, weights=w[:-1], features=np.array(names))
    elif damage == "not finite":
        w2 = w.copy()
        w2[3] = np.nan
        np.savez(path, weights=w2, features=np.array(names))
    for make in (lambda: parse_agent(f"plan:iterations=20,weights={path}"),
                 lambda: PlanAgent(iterations=20, weights=str(path))):
        with pytest.raises(AgentSpecError, match=what) as e:
            make()
        assert str(path) in str(e.value)
    with pytest.raises(ValueError, match=what) as e:
        search.mcts_search(duelcore.new_game(1), kind="plan", iterations=10, weights=str(path))
    assert str(path) in str(e.value)
    with pytest.raises(ValueError, match=what):
        search.play_games(np.array([1], dtype=np.uint64),
                          {"kind": "plan", "iterations": 10, "weights": str(path)},
                          {"kind": "random"})


def test_the_weights_option_is_refused_where_it_would_be_ignored():
    from duelpy.duel.agents import AgentSpecError, parse_agent
    for bad in ("plan:policy=hand,weights=round8", "mcts:weights=round8", "plan:weights="):
        with pytest.raises(AgentSpecError, match="weights"):
            parse_agent(bad)
    with pytest.raises(ValueError, match="weights applies only to kind='plan'"):
        search.mcts_search(duelcore.new_game(1), kind="mcts", iterations=10, weights="round8")
    with pytest.raises(ValueError, match="weights"):
        search.mcts_search(duelcore.new_game(1), kind="plan", iterations=10, policy="hand",
                           weights="round8")
