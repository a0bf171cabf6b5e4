"""Architects agents: descriptions (one grammar, canonical names), legal decisions from every
agent, the no-peeking guarantee of the searching agents (A-INFO: the central top is read only
by a seat that looked at it), and the stop flag."""
import threading
import time

import pytest

from duelcore.architects import engine as core
from duelpy.architects import new_game
from duelpy.architects.agents import (ArchitectsAgentError, lineup, parse_agent,
                                      with_iterations)
from arch_helpers import position


def test_agent_descriptions():
    """The short and the long form name one agent; bad descriptions are one-line errors."""
    assert parse_agent("mcts:iterations=500,c=1.2") == parse_agent("mcts:500:1.2") == \
        "mcts:500:1.2"
    assert parse_agent("MCTS") == "mcts:1000" and parse_agent(" greedy ") == "greedy"
    for bad in ("plan", "mcts:0", "mcts:x", "greedy:3", "mcts:iterations=5,depth=2", "",
                "mcts:1:2:3", "mcts:10:-1", None):
        with pytest.raises(ArchitectsAgentError):
            parse_agent(bad)
    assert lineup("greedy", 3) == ["greedy"] * 3
    with pytest.raises(ArchitectsAgentError):
        lineup("greedy,random", 3)
    assert with_iterations("mcts", 50) == "mcts:50"
    with pytest.raises(ArchitectsAgentError):
        with_iterations("mcts:20", 50)


def test_playout_policies():
    """The playout policy (sharp by default; lite, the first agent's; greedy; model, sharp
    with the other seats modelled by the greedy rule in the tree) in the long and the short
    form, each a name the core plays."""
    assert parse_agent("mcts:playout=lite") == parse_agent("mcts:lite") == "mcts:1000:lite"
    assert parse_agent("mcts:iterations=500,c=1.2,playout=GREEDY") == "mcts:500:1.2:greedy"
    assert parse_agent("mcts:500:sharp") == parse_agent("mcts:playout=sharp,iterations=500") \
        == "mcts:500"
    for bad in ("mcts:playout=x", "mcts:playout=lite,playout=lite", "mcts:1:2:lite:lite",
                "mcts:lite:5", "greedy:lite"):
        with pytest.raises(ArchitectsAgentError):
            parse_agent(bad)
    s = new_game(2, seed=3)
    assert parse_agent("mcts:playout=model,iterations=500") == "mcts:500:model"
    for agent in ("mcts:30:lite", "mcts:30:0.5:greedy", "mcts:30", "mcts:30:model"):
        assert core.choose_action(s, agent, 1) in s.legal_actions()
    with pytest.raises(ValueError):
        core.choose_action(s, "mcts:30:fast", 1)


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts:50"])
def test_agents_return_legal_decisions(agent):
    """Every agent returns a legal decision at every node of a game (A-DEC-1), and leaves
    the state unchanged."""
    for players in (2, 5):
        s = new_game(players, seed=4)
        k = 0
        while not s.is_terminal() and k < 60:
            before = s.clone()
            a = core.choose_action(s, agent, k)
            assert s == before and a in s.legal_actions()
            s.apply_action(a)
            k += 1


def _with_top(state, top):
    """The same position with another central top taken from C's make-up (the make-up,
    public, unchanged)."""
    d = state.to_dict()
    c = d["central"]
    under = dict(c["under"])
    under[c["top"]] = under.get(c["top"], 0) + 1
    under[top] -= 1
    c["under"] = {k: v for k, v in under.items() if v}
    c["top"] = top
    return core.state_from_dict(d)


def test_search_does_not_peek_at_the_central_top():
    """A-INFO-2, engine notes: seat 0 (who did not look) decides the same whatever C's top
    that seat 1 looked at (C's public make-up the same), and whatever the state's RNG; the
    greedy agent too."""
    base = position(central_top="blue3", knowers=[1], tops={0: "tablet", 1: "clay"}, cat=1)
    decisions = {}
    for top in ("blue3", "coin", "red2", "wood"):
        s = _with_top(base, top)
        assert s.deck_cards(core.CENTRAL) == base.deck_cards(core.CENTRAL)
        assert s.central_top(1) == top and s.central_top(0) is None
        for agent in ("mcts:300", "mcts:300:lite", "mcts:300:greedy", "mcts:300:model",
                      "greedy"):
            decisions.setdefault(agent, set()).add(core.choose_action(s, agent, 7))
        v = core.hidden_variant(s, 0, 3)
        assert v.rng != s.rng
        for agent in ("mcts:300", "mcts:300:lite", "mcts:300:greedy", "mcts:300:model",
                      "greedy"):
            assert core.choose_action(v, agent, 7) == core.choose_action(s, agent, 7)
    assert all(len(d) == 1 for d in decisions.values()), decisions


def test_a_seat_that_looked_may_use_it():
    """A-CAT-4: hidden_variant keeps the central top for a seat that knows it."""
    s = position(central_top="blue3", knowers=[0], cat=0)
    v = core.hidden_variant(s, 0, 9)
    assert v.central_top(0) == "blue3" and v.rng != s.rng


def test_mcts_visits_and_the_stop_flag():
    """The MCTS spends its iterations on the root's legal actions; interrupt() ends a long
    search at once with its best action so far (the process-wide stop flag)."""
    s = new_game(2, seed=1)
    a, visits = core.choose_action(s, "mcts:400", 1, return_stats=True)
    assert a in s.legal_actions() and set(visits) == set(s.legal_actions())
    assert sum(visits.values()) <= 400 and max(visits, key=visits.get) == a
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("a", core.choose_action(
        s, "mcts:100000000", 1)))
    core.clear_interrupt()
    t0 = time.monotonic()
    t.start()
    time.sleep(0.3)
    core.interrupt()
    t.join(10)
    core.clear_interrupt()
    assert not t.is_alive() and out["a"] in s.legal_actions()
    assert time.monotonic() - t0 < 5


def test_batch_runs_stop_with_the_games_finished():
    """play_games_detail honours the stop flag: it returns the games finished, in order."""
    core.interrupt()
    try:
        raw = core.play_games_detail(3, ["random"] * 3, 100, seed=1)
    finally:
        core.clear_interrupt()
    assert raw["completed"] == 0 and raw["winners"] == []
    raw = core.play_games_detail(3, ["random"] * 3, 10, seed=1)
    again = core.play_games_detail(3, ["random"] * 3, 5, seed=1, first_game=5)
    assert raw["totals"][5:] == again["totals"]                # chunks give the same games


def test_pimc_hook_sums_the_trees():
    """The PIMC tuning hook (a trial, not a default, docs/architects.md#strength): one tree per
    determinized future, the root visits summed over the trees; off again, the search is the
    default one (the same choice and visits as before the hook was set)."""
    s = new_game(2, seed=3)
    before = core.choose_action(s, "mcts:400", 5, return_stats=True)
    core._set_params(PIMC=8)
    try:
        a, visits = core.choose_action(s, "mcts:400", 5, return_stats=True)
    finally:
        core._set_params(PIMC=0)
    assert a in s.legal_actions() and max(visits, key=visits.get) == a
    assert sum(visits.values()) <= 400 and sum(visits.values()) > 400 - 8 * len(visits)
    assert core.choose_action(s, "mcts:400", 5, return_stats=True) == before


def test_greedy_agent_playout_hook():
    """The GREEDY_AGENT_PLAYOUT trial (docs/architects.md#strength): greedy playouts by the
    greedy agent's rule; off again, the greedy playouts are greedy_lite's as before."""
    s = new_game(2, seed=4)
    before = core.choose_action(s, "mcts:200:greedy", 3, return_stats=True)
    core._set_params(GREEDY_AGENT_PLAYOUT=1)
    try:
        a, visits = core.choose_action(s, "mcts:200:greedy", 3, return_stats=True)
    finally:
        core._set_params(GREEDY_AGENT_PLAYOUT=0)
    assert a in s.legal_actions() and 0 < sum(visits.values()) <= 200
    assert core.choose_action(s, "mcts:200:greedy", 3, return_stats=True) == before
