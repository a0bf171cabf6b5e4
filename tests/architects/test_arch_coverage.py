"""The Architects rules suite covers every rule of RULES-ARCH.md: each rule id (A-...) and
worked example (AE1..AE26) is cited in the docstring of at least one test of
``tests/architects/test_arch_*.py``, and every wonder, progress token and option is named
(the checks of tests/rules_coverage_helpers.py, shared with the Duel and 7 Wonders suites)."""
import pathlib
import sys

from duelcore.architects import data
from duelcore.architects import engine as core

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))     # tests/: the helpers
from rules_coverage_helpers import check_cited, check_digest, check_each_cites, \
    check_list, check_named, docstrings  # noqa: E402

RULES = pathlib.Path("/work/shared/rules/RULES-ARCH.md")
#: Every rule id of the digest (86), written out so that the list does not depend on the
#: digest being at hand.
RULE_IDS = (
    ["A-COMP-1", "A-COMP-2"] + [f"A-SETUP-{i}" for i in range(1, 12)]
    + [f"A-TURN-{i}" for i in range(1, 7)] + ["A-ARR-1", "A-ARR-2"]
    + [f"A-ORDER-{i}" for i in range(1, 5)] + [f"A-CARD-{i}" for i in range(1, 7)]
    + [f"A-BUILD-{i}" for i in range(1, 11)] + [f"A-WON-{i}" for i in range(1, 10)]
    + [f"A-SCI-{i}" for i in range(1, 5)] + [f"A-TOK-{i}" for i in range(1, 5)]
    + [f"A-MIL-{i}" for i in range(1, 8)] + [f"A-CAT-{i}" for i in range(1, 5)]
    + [f"A-END-{i}" for i in range(1, 6)] + [f"A-TWO-{i}" for i in range(1, 5)]
    + ["A-CHANCE-1", "A-CHANCE-2"] + [f"A-INFO-{i}" for i in range(1, 5)]
    + ["A-DEC-1", "A-DEC-2"]
)
EXAMPLES = [f"AE{i}" for i in range(1, 27)]
RULE = r"(?<![\w-])A-[A-Z]+-\d+(?!\w)"


def _docstrings():
    return docstrings(pathlib.Path(__file__).parent, "test_arch_*.py",
                      skip=(pathlib.Path(__file__).name,))


def test_the_list_of_rules_is_the_digests():
    """RULES-ARCH.md: the 86 rule ids and AE1..AE26 above are the digest's (when it is at
    hand)."""
    check_list(RULE_IDS, 86)
    check_list(EXAMPLES, 26)
    check_digest(RULES, RULE_IDS, r"A-[A-Z]+-\d+", EXAMPLES, r"AE\d+")


def test_every_rules_test_cites_a_rule():
    """Each test of the rules files says which rule (A-...) or example (AE...) it checks."""
    check_each_cites(_docstrings(), r"\bA-[A-Z]+-\d+\b|\bAE\d+\b",
                     files=("test_arch_examples.py", "test_arch_rules.py"))


def test_every_rule_and_example_is_cited():
    """Every rule id A-... and every worked example AE1..AE26 is cited by a test, and no
    test cites an A- id the list lacks."""
    check_cited(RULE_IDS + EXAMPLES, _docstrings(), RULE)


def test_every_wonder_token_and_option_is_named():
    """Every wonder, progress token and rule option (A-OPT) is named in a test docstring."""
    check_named(list(data.WONDERS) + list(data.TOKENS) + list(core.RULE_DEFAULTS),
                _docstrings())
