"""7 Wonders studies and ladder in Python (duelpy.seven.agents, .study, .ladder): agent
descriptions, arms and their set-ups, paired arms on the same seeds, the tables and the
report; the ladder's rotated line-ups, pairwise results (VP, then coins: W-END-2) and ratings."""
import math

import pandas as pd
import pytest

from duelpy.seven.agents import SevenAgentError, lineup, parse_agent, split_agents
from duelpy.ladder import run_ladder
from duelpy.seven.ladder import agent_table, check_agents, pairwise, rotation
from duelpy.seven.study import (Arm, _wilson, display_rows, games_frame, paired_change,
                                report_markdown, resolve_board, resolve_card, run_study,
                                study_tables, summarise)


# ---------------------------------------------------------------- agents
@pytest.mark.parametrize("text, name", [
    ("random", "random"), ("Greedy", "greedy"), ("mcts", "mcts:1000"),
    ("mcts:250", "mcts:250"), ("mcts:250:0.7", "mcts:250:0.7"), ("mcts:250:0.4", "mcts:250"),
    ("mcts:iterations=300", "mcts:300"), ("mcts:iterations=300, c=1.5", "mcts:300:1.5"),
    ("mcts:c=2", "mcts:1000:2"),
])
def test_agent_descriptions(text, name):
    assert parse_agent(text) == name
    assert parse_agent(name) == name                          # canonical names are fixed points


@pytest.mark.parametrize("text, words", [
    ("plan", "7 Wonders Duel agent"), ("alpha", "unknown agent"),
    ("mcts:0", "an integer from 1 to 100,000,000"), ("mcts:100000001", "1 to 100,000,000"),
    ("mcts:x", "an integer from 1"), ("mcts:10:-1", r"a number in \(0, 100\]"),
    ("mcts:10:101", r"\(0, 100\]"),
    ("mcts:iterations=5,iterations=6", "twice"), ("mcts:seconds=1", "not available"),
    ("greedy:3", "takes no options"), ("mcts:1:2:3", "ITERATIONS:C"), ("", "description"),
    ("mcts:c=nan", r"a number in \(0, 100\]"),
])
def test_bad_agent_descriptions(text, words):
    with pytest.raises(SevenAgentError, match=words):
        parse_agent(text)


def test_agent_lists():
    assert split_agents("mcts:iterations=200,c=1,greedy, random") == [
        "mcts:iterations=200,c=1", "greedy", "random"]
    assert lineup("greedy", 3) == ["greedy"] * 3
    assert lineup("mcts:iterations=20,c=1,greedy,random", 3) == ["mcts:20:1", "greedy", "random"]
    with pytest.raises(SevenAgentError, match="1 agent or 4"):
        lineup("greedy,random", 4)


# ---------------------------------------------------------------- arms
def test_arms_names_and_checks():
    assert resolve_card(" scientists  GUILD ") == "Scientists Guild"
    assert resolve_board("rhodos b") == "Rhodos B" and resolve_board("GIZAH") == "Gizah"
    with pytest.raises(ValueError, match="did you mean"):
        resolve_card("Guild of scientists")
    with pytest.raises(ValueError, match="unknown wonder board"):
        resolve_board("Rhodes")
    arm = Arm.make(sides="B", boards={1: "olympia a"}, remove=["altar", "Altar", "Arena"])
    assert arm.name == "all side B; P2 Olympia A; without Altar, Arena"
    kw = arm.setup(4)
    assert kw == {"sides": "B", "boards": [None, "Olympia A", None, None],
                  "remove": ["Altar", "Arena"]}
    with pytest.raises(ValueError, match="seats P1..P3"):
        Arm.make(boards={3: "Gizah"}).setup(3)
    with pytest.raises(ValueError, match="too few spare copies"):
        Arm.make(remove=["Altar"]).setup(7)
    assert Arm.make().name == "Control"


# ---------------------------------------------------------------- games and tables
def test_games_frame_rows_and_free_city():
    f = games_frame(2, ["greedy", "random"], 12, seed=1)
    assert len(f) == 24 and set(f["seat"]) == {0, 1}             # the Free City is no player
    cats = ["military", "treasury", "wonder", "civilian", "commercial", "guilds", "science"]
    assert list(f.columns) == (["game", "seat", "agent", "board", "side", "vp"]
                               + [f"vp_{c}" for c in cats] + ["coins", "win"])
    assert (f[[f"vp_{c}" for c in cats]].sum(axis=1) == f["vp"]).all()   # VP by category
    assert (f.groupby("game")["win"].sum().round(9) == 1).all()
    assert games_frame(2, ["greedy", "random"], 12, seed=1, jobs=2).equals(f)


def test_study_arms_are_paired_and_tabled():
    arms = [Arm.make(sides="A"), Arm.make(remove=["Scientists Guild"])]
    frame = run_study(3, ["greedy"], 30, seed=5, arms=arms)
    assert list(dict.fromkeys(frame["arm"])) == ["Control", "all side A",
                                                 "without Scientists Guild"]
    c = frame[frame.arm == "Control"].reset_index(drop=True)
    r = frame[frame.arm == "without Scientists Guild"].reset_index(drop=True)
    assert (c["board"] == r["board"]).all()           # common random numbers
    assert (frame[frame.arm == "all side A"]["side"] == "A").all()
    tables = study_tables(frame)
    assert set(tables["Control"]) == {"board_side", "side", "seat"}
    assert set(tables["all side A"]) == {"board_side", "side", "seat", "change_seat",
                                         "change_board_side"}
    ch = tables["without Scientists Guild"]["change_board_side"]
    both = tables["Control"]["board_side"].merge(
        tables["without Scientists Guild"]["board_side"], left_index=True, right_index=True,
        suffixes=("", "_t"))
    assert ((ch["change"] - (both["win_rate_t"] - both["win_rate"])).abs() < 1e-12).all()
    defined = ch["ci_low"].notna()
    assert (ch["ci_low"][defined] >= -1).all() and (ch["ci_high"][defined] <= 1).all()
    assert (ch["ci_low"] <= ch["change"])[defined].all()
    assert (ch["change"] <= ch["ci_high"])[defined].all()
    # an interval is undefined exactly where the paired differences have no spread
    assert (ch["ci_low"].isna() == ch["ci_high"].isna()).all()
    _, rows = display_rows(ch, "change_board_side")
    for (_, r), row in zip(ch.iterrows(), rows):
        assert row[-1].startswith("n/a") == pd.isna(r.ci_low)
        if pd.isna(r.ci_low) and r.games >= 2 and r.change == 0:
            assert row[-1] == "n/a (no game changed)"
    assert any(row[-1] == "n/a (no game changed)" for row in rows)
    assert ch.attrs["paired"]                               # removing a card keeps the boards
    assert not tables["all side A"]["change_board_side"].attrs["paired"]
    seat = tables["Control"]["seat"]
    assert list(seat.index) == [0, 1, 2] and (seat["games"] == 30).all()
    assert math.isclose(seat["win_rate"].sum(), 1.0)
    md = report_markdown(frame, 3, ["greedy"] * 3, 5)
    assert "## without Scientists Guild" in md and "| P1 |" in md
    with pytest.raises(ValueError, match="same name"):
        run_study(3, ["greedy"], 2, arms=[Arm.make(sides="A"), Arm.make(sides="A")])


def test_paired_change_and_intervals_by_hand():
    rows = []
    for g, (wc, wt) in enumerate([(1, 1), (0, 1), (0, 1), (1, 0), (0, 0)]):
        rows.append({"arm": "C", "game": g, "seat": 0, "win": float(wc), "vp": 0})
        rows.append({"arm": "T", "game": g, "seat": 0, "win": float(wt), "vp": 0})
    t = paired_change(pd.DataFrame(rows), "T", "C").loc[0]
    d = [0, 1, 1, -1, 0]
    mean = sum(d) / 5
    sd = (sum((x - mean) ** 2 for x in d) / 4) ** 0.5
    assert math.isclose(t["change"], 0.2) and math.isclose(t["control"], 0.4)
    assert math.isclose(t["ci_high"] - t["change"], 1.959964 * sd / 5 ** 0.5, rel_tol=1e-5)
    lo, hi = _wilson(50, 100)
    assert round(lo, 4) == 0.4038 and round(hi, 4) == 0.5962
    s = summarise(pd.DataFrame({"side": ["A", "A", "B"], "win": [1.0, 0.0, 0.5],
                                "vp": [50, 40, 45]}), ["side"])
    assert list(s.columns) == ["games", "win_rate", "ci_low", "ci_high", "mean_vp"]
    assert s.loc["A", "win_rate"] == 0.5 and s.loc["B", "mean_vp"] == 45


# ---------------------------------------------------------------- ladder
def test_rotation_and_agent_checks():
    assert rotation(3, 4, 4) == [[0, 1, 2, 0], [1, 2, 0, 1], [2, 0, 1, 2], [0, 1, 2, 0]]
    lu = rotation(4, 4, 4)
    assert all(sorted(col) == [0, 1, 2, 3] for col in zip(*lu))   # every agent in every seat
    assert check_agents(["random", "mcts", "mcts:c=0.7"], 200) == [
        "random", "mcts:200", "mcts:200:0.7"]
    with pytest.raises(SevenAgentError, match="named twice"):
        check_agents(["mcts", "mcts:1000"])
    with pytest.raises(SevenAgentError, match="at least 2"):
        check_agents(["greedy"])


def test_pairwise_results_vp_then_coins():
    f = pd.DataFrame([
        {"game": 0, "seat": 0, "agent": "a", "vp": 50, "coins": 3, "win": 0.0},
        {"game": 0, "seat": 1, "agent": "b", "vp": 50, "coins": 5, "win": 1.0},
        {"game": 0, "seat": 2, "agent": "c", "vp": 40, "coins": 9, "win": 0.0},
        {"game": 0, "seat": 3, "agent": "a", "vp": 50, "coins": 5, "win": 0.0},
    ])
    pw = pairwise(f)
    got = {(r.p1, r.p2, r.winner) for r in pw.itertuples() if r.p1 != r.p2}
    # seats 0 and 3 are both agent a: no comparison between them
    assert len(pw) == 5
    assert got == {("a", "b", 1), ("a", "c", 0), ("b", "c", 0), ("b", "a", -1), ("c", "a", 1)}
    places = agent_table(f, ["a", "b", "c"]).set_index("agent")["mean_place"]
    assert places["b"] == 1 and places["a"] == 2 and places["c"] == 4


def test_ladder_games_and_ratings():
    names = ["random", "greedy", "mcts:30"]
    frame, ratings = run_ladder(names, 12, seed=3, game="seven", players=4)
    assert frame["game"].nunique() == 12
    pw = pairwise(frame)
    assert ratings.set_index("agent").loc["random", "elo"] == 0
    assert "who finished ahead" in ratings.attrs["method"]
    assert set(ratings["agent"]) == set(names)
    assert len(pw) == sum(
        sum(1 for i in range(4) for j in range(i + 1, 4) if line[i] != line[j])
        for line in rotation(3, 4, 12))


# ---------------------------------------------------------------- the docs stay true
def _readme_section():
    """The study section of docs/seven.md (its commands are parsed by tests/test_docs.py)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "seven.md").read_text(encoding="utf-8")
    start = text.index("## Studies")
    return text[start:text.index("\n## ", start + 10)]


@pytest.mark.slow
def test_readme_study_tables_are_the_real_output():
    """The README's study (4 players, greedy, 4,000 games per arm, seed 1, the Scientists
    Guild removed) gives the tables printed there."""
    frame = run_study(4, ["greedy"], 4000, seed=1, arms=[Arm.make(remove=["Scientists Guild"])])
    md = report_markdown(frame, 4, ["greedy"] * 4, 1)
    section = _readme_section()
    rows = [x for x in md.splitlines() if x.startswith("| ") and "---" not in x
            and not x.startswith("| board") and not x.startswith("| seat")
            and not x.startswith("| side")]
    in_readme = [x for x in rows if x in section]
    # the control's board/side, side and seat tables and the treatment's paired changes
    assert len(in_readme) >= 14 + 2 + 4 + 14
