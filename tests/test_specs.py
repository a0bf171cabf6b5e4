"""One spec parser for agents and treatments (issue 11): duplicates, empty parts, conflicting
options and out-of-range values are refused with one line naming them; ``duel agents`` lists
every agent and option with its default."""
from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from duelpy.duel.agents import AGENT_KINDS, AgentSpecError, MCTSAgent, PlanAgent, parse_agent
from duelpy.cli.main import main
from duelpy.base.specs import Kind, int_option, parse_pairs, parse_spec
from duelpy.study.run import StudyError, load_spec


@pytest.mark.parametrize("text, words", [
    ("mcts:iterations=10,iterations=20", ["iterations", "twice"]),
    ("mcts:iterations=10,,", ["empty option"]),
    ("mcts:,iterations=10", ["empty option"]),
    ("mcts:", ["nothing after ':'"]),
    ("mcts:  ", ["nothing after ':'"]),
    ("mcts:iterations=", ["iterations", "no value"]),
    ("mcts:=5", ["unknown option ''"]),
    ("mcts:iterations=5,seconds=1", ["iterations and seconds", "together"]),
    ("mcts:seconds=-1", ["seconds", "-1"]),
    ("mcts:seconds=0", ["seconds"]),
    ("mcts:c=nan", ["c must be", "nan"]),
    ("mcts:c=inf", ["c must be", "inf"]),
    ("mcts:iterations=1.5", ["iterations", "expected int"]),
    ("mcts:threads=2.0", ["threads", "expected int"]),
    ("mcts:rollout=smart", ["rollout", "'random' or 'greedy'"]),
    ("mcts:iteratons=5", ["unknown option 'iteratons'", "did you mean 'iterations'"]),
    ("mtcs", ["unknown agent 'mtcs'", "did you mean 'mcts'"]),
    ("random:seed=-1", ["seed", "-1"]),
    ("random:seed=18446744073709551616", ["seed"]),
    ("greedy:iterations=5", ["unknown option 'iterations' for greedy"]),
])
def test_bad_specs_are_one_line_naming_the_culprit(text, words):
    with pytest.raises(AgentSpecError) as info:
        parse_agent(text)
    msg = str(info.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, (w, msg)


def test_good_specs():
    a = parse_agent(" MCTS : Iterations = 2_000 , c=0.7 , rollout=Greedy ")
    assert (a.iterations, a.c, a.rollout) == (2000, 0.7, "greedy")
    assert parse_agent("random:seed=5").seed == 5
    assert parse_agent("mcts:seconds=0.5").seconds == 0.5
    assert parse_agent("mcts:max_nodes=0").max_nodes == 0
    assert parse_agent("mcts:max_nodes=1000").name.endswith("max_nodes=1000")


def test_the_python_constructor_checks_like_the_parser():
    for kwargs, key in ((dict(seconds=-1), "seconds"), (dict(c=math.nan), "c"),
                        (dict(iterations=0), "iterations"), (dict(threads=True), "threads"),
                        (dict(iterations=5, seconds=1.0), "iterations and seconds")):
        with pytest.raises(AgentSpecError, match=key):
            MCTSAgent(**kwargs)


@pytest.mark.parametrize("text", ["plan:science=１", "plan:mast=1e", "plan:c=0x1",
                                  "plan:c=1__0", "plan:c=_1", "plan:iterations=１０"])
def test_number_text_is_ascii_digits(text):
    """Full-width digits, hex and stray underscores are not numbers on the command line."""
    with pytest.raises(AgentSpecError, match="expected (float|int)"):
        parse_agent(text)


def test_float_options_take_any_real_number_type():
    np = pytest.importorskip("numpy")
    assert PlanAgent(science=np.float32(0.5)).science == 0.5
    assert PlanAgent(mast=np.int64(2)).mast == 2.0
    assert parse_agent("plan:c=1_0").c == 10.0         # digit groups, as in integers
    assert parse_agent("plan:c=.5e1").c == 5.0
    from decimal import Decimal
    from fractions import Fraction
    assert PlanAgent(c=Decimal("0.5")).c == 0.5 and PlanAgent(c=Fraction(1, 2)).c == 0.5
    for bad, key in ((10 ** 400, "science"), (True, "mast"), (np.bool_(True), "c"),
                     ("1", "c")):
        with pytest.raises(AgentSpecError, match=f"{key} must be a number"):
            PlanAgent(**{key: bad})


def test_names_keep_every_digit_of_a_value():
    """Two different values never share a name (a ladder would refuse them as one agent)."""
    a, b = parse_agent("plan:c=0.1234567"), parse_agent("plan:c=0.1234568")
    assert a.name != b.name and a.name.endswith("c=0.1234567")
    assert parse_agent("plan:c=0.70000001").name.endswith("c=0.70000001")
    assert parse_agent("plan:seconds=1").name == "plan:seconds=1"
    assert parse_agent("mcts:c=2").name == "mcts:iterations=1000,c=2"


def test_integer_options():
    np = pytest.importorskip("numpy")
    assert PlanAgent(iterations=np.int64(20)).iterations == 20
    assert type(PlanAgent(iterations=np.int64(20)).iterations) is int
    assert parse_agent("plan:iterations=2_000").iterations == 2000
    for text in ("plan:iterations=_20", "plan:seed=1__0", "plan:seed=1_", "plan:horizon=__2"):
        with pytest.raises(AgentSpecError, match="expected int"):
            parse_agent(text)
    with pytest.raises(AgentSpecError, match="threads"):
        PlanAgent(threads=np.bool_(True))


def test_long_values_are_cut_in_messages():
    with pytest.raises(AgentSpecError) as info:
        parse_agent("plan:science=" + "9" * 5000)
    assert len(str(info.value)) < 200 and str(info.value).endswith("999...")
    with pytest.raises(AgentSpecError) as info:
        PlanAgent(c=10 ** 400)
    assert len(str(info.value)) < 200


def test_minus_zero_is_zero():
    """science=-0 and science=0 are one agent (one name, one ladder entry)."""
    assert parse_agent("plan:science=-0").name == parse_agent("plan:science=0").name
    assert str(PlanAgent(science=-0.0).science) == "0.0"


def test_a_new_kind_is_a_table_entry():
    """The parser knows nothing but the table: a kind added to it parses, with its options
    and defaults, and its conflicts are refused."""
    made = []
    kinds = dict(AGENT_KINDS)
    kinds["toy"] = Kind("toy", "a test kind", lambda **kw: made.append(kw) or kw,
                        (int_option("depth", 1, 9, 3, "plies"),
                         int_option("width", 1, 9, 2, "moves per ply")),
                        conflicts=(("depth", "width"),))
    _, opts = parse_spec("toy:depth=4", kinds)
    assert opts == {"depth": 4}
    with pytest.raises(ValueError, match="depth and width"):
        parse_spec("toy:depth=4,width=2", kinds)
    with pytest.raises(ValueError, match="depth must be an integer from 1 to 9"):
        parse_spec("toy:depth=10", kinds)


def test_parse_pairs():
    assert parse_pairs("p1=The Pyramids, p2 = Zeus", ("p1", "p2"), "x") == \
        {"p1": "The Pyramids", "p2": "Zeus"}
    with pytest.raises(ValueError, match="twice"):
        parse_pairs("p1=A,P1=B", ("p1", "p2"), "x")
    with pytest.raises(ValueError, match="empty option"):
        parse_pairs("p1=A,", ("p1", "p2"), "x")


def test_treatment_with_two_ways_of_setting_p2s_coins_is_refused():
    with pytest.raises(StudyError) as info:
        load_spec({"treatment": [{"p2_extra_coins": 2, "start_coins": [7, 9]}]})
    msg = str(info.value)
    assert "treatment[0]" in msg and "p2_extra_coins and start_coins" in msg


@pytest.mark.parametrize("args, words", [
    (["--opponent", "mcts:iterations=50", "--iterations", "100"],
     ["--iterations 100", "iterations=50"]),
    (["--opponent", "mcts:seconds=2", "--iterations", "100"], ["--iterations", "seconds=2"]),
    (["--opponent", "mcts:iterations=50", "--seconds", "1"], ["--seconds", "iterations=50"]),
    (["--opponent", "mcts:iterations=10,,"], ["empty option"]),
    (["--opponent", "mcts:"], ["nothing after"]),
])
def test_play_refuses_conflicting_budgets(args, words):
    r = CliRunner().invoke(main, ["play"] + args, input="quit\n")
    assert r.exit_code == 2, r.output
    err = [line for line in r.stderr.splitlines() if line.startswith("Error:")]
    assert len(err) == 1
    for w in words:
        assert w in err[0], (w, err[0])
    assert "7 Wonders Duel" not in r.output


def test_duel_agents_lists_every_kind_option_and_default():
    r = CliRunner(env={"COLUMNS": "80"}).invoke(main, ["agents"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    for kind in AGENT_KINDS.values():
        assert f"{kind.name}:" in r.output
        for opt in kind.options:
            assert opt.name in text and opt.shown_default() in text, opt.name
    assert "give iterations or seconds, not both" in text
    assert max(len(line) for line in r.output.splitlines()) <= 80
    assert "…" not in r.output
