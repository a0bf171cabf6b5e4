"""The rules suite covers every rule of RULES.md: each rule id and worked example is cited in
the docstring of at least one test of ``tests/test_rules_*.py``, and every wonder, progress
token and guild is named in one (the checks of rules_coverage_helpers, shared with the 7
Wonders and Architects suites)."""
import pathlib

from rules_coverage_helpers import check_cited, check_digest, check_each_cites, check_list, \
    check_named, docstrings
from rules_helpers import GUILDS, TOKENS, WONDERS

RULES = pathlib.Path("/work/shared/rules/RULES.md")
RULE_IDS = (
    [f"R-SETUP-{i}" for i in range(1, 8)] + [f"R-AGE-{i}" for i in range(1, 4)]
    + [f"R-TURN-{i}" for i in range(1, 4)] + [f"R-BUILD-{i}" for i in range(1, 5)]
    + [f"R-TRADE-{i}" for i in range(1, 6)] + ["R-DISCARD-1"]
    + [f"R-WONDER-{i}" for i in range(1, 7)] + [f"R-MIL-{i}" for i in range(1, 5)]
    + [f"R-SCI-{i}" for i in range(1, 5)] + [f"R-END-{i}" for i in range(1, 4)]
    + ["R-DEC-1", "R-CHANCE-1", "R-CHANCE-2", "R-LAYOUT-1"]
)
EXAMPLES = [f"E{i}" for i in range(1, 10)]
RULE = r"(?<![\w-])R-[A-Z]+-\d+(?!\w)"


def _test_docstrings():
    return docstrings(pathlib.Path(__file__).parent, "test_rules_*.py",
                      skip=(pathlib.Path(__file__).name,))


def test_the_list_of_rules_is_the_digests():
    """RULES.md: the 44 rule ids above and E1..E9 are the digest's (when it is at hand); the
    digest defines each in bold except R-DEC-1, named at the end of its paragraph."""
    check_list(RULE_IDS, 44)
    check_list(EXAMPLES, 9)
    check_digest(RULES, RULE_IDS, r"R-[A-Z]+-\d+", EXAMPLES, r"E\d+", bold_only=False)


def test_every_test_has_a_docstring_citing_a_rule():
    """Each rules test says which rule (R-...) or worked example (E...) it implements."""
    check_each_cites(_test_docstrings(), r"\bR-[A-Z]+-\d\b|\bE\d\b|RULES\.md")


def test_every_rule_and_example_is_cited():
    """Every rule id R-... of RULES.md and every worked example E1..E9 is cited by a test,
    and no test cites an R- id the list lacks."""
    check_cited(RULE_IDS + EXAMPLES, _test_docstrings(), RULE)
    assert len(RULE_IDS) == 44


def test_every_wonder_token_and_guild_is_named():
    """Every wonder, progress token and guild of RULES.md is named in a test docstring (each
    of the 73 cards is a case of the parametrised tests of test_rules_cards.py)."""
    check_named(list(WONDERS) + list(TOKENS) + GUILDS, _test_docstrings())
