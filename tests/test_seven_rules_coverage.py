"""The 7 Wonders suite covers every rule of RULES-7W.md: each rule id (W-...) and worked
example (WE1..WE15) is cited in the docstring of at least one test of
``tests/test_seven_*.py``, every test of the rules files cites one, and every wonder board and
guild is named (the checks of rules_coverage_helpers, shared with the Duel and Architects
suites)."""
import pathlib

from duelcore import seven_data as D
from rules_coverage_helpers import check_cited, check_digest, check_each_cites, check_list, \
    check_named, docstrings

RULES = pathlib.Path("/work/shared/rules/RULES-7W.md")
#: Every rule id of the digest (71), written out so that the list does not depend on the
#: digest being at hand.
RULE_IDS = (
    [f"W-SETUP-{i}" for i in range(1, 6)] + [f"W-AGE-{i}" for i in range(1, 4)]
    + [f"W-TURN-{i}" for i in range(1, 7)] + [f"W-BUILD-{i}" for i in range(1, 6)]
    + ["W-PROD-1"] + [f"W-TRADE-{i}" for i in range(1, 8)]
    + [f"W-CARD-{i}" for i in range(1, 10)] + [f"W-WON-{i}" for i in range(1, 9)]
    + ["W-MIL-1", "W-MIL-2"] + [f"W-SCI-{i}" for i in range(1, 4)]
    + [f"W-END-{i}" for i in range(1, 4)] + [f"W-FREE-{i}" for i in range(1, 12)]
    + ["W-CHANCE-1", "W-CHANCE-2"] + [f"W-INFO-{i}" for i in range(1, 6)] + ["W-DEC-1"]
)
EXAMPLES = [f"WE{i}" for i in range(1, 16)]
RULE = r"(?<![\w-])W-[A-Z]+-\d+(?!\w)"
#: the files of rules tests: each of their tests cites a rule or an example
RULES_FILES = ("test_seven_examples.py", "test_seven_cards.py", "test_seven_rules.py")
#: the 7 boards and the 10 guilds, as the digest writes them
BOARDS = ["Rhodos", "Alexandria", "Ephesos", "Babylon", "Olympia", "Halikarnassus", "Gizah"]
GUILDS = ["Builders Guild", "Craftsmens Guild", "Magistrates Guild", "Philosophers Guild",
          "Scientists Guild", "Shipowners Guild", "Spies Guild", "Strategists Guild",
          "Traders Guild", "Workers Guild"]


def _docstrings():
    return docstrings(pathlib.Path(__file__).parent, "test_seven_*.py",
                      skip=(pathlib.Path(__file__).name,))


def test_the_list_of_rules_is_the_digests():
    """RULES-7W.md: the 71 rule ids and WE1..WE15 above are the digest's (when it is at
    hand); the boards and guilds are the data's."""
    check_list(RULE_IDS, 71)
    check_list(EXAMPLES, 15)
    check_digest(RULES, RULE_IDS, r"W-[A-Z]+-\d+", EXAMPLES, r"WE\d+")
    assert sorted(BOARDS) == sorted(D.BOARD_NAMES)
    assert GUILDS == sorted(g.name for g in D.GUILDS)


def test_every_rules_test_cites_a_rule():
    """Each test of the rules files says which rule (W-...) or example (WE...) it checks."""
    check_each_cites(_docstrings(), r"\bW-[A-Z]+-\d+\b|\bWE\d+\b", files=RULES_FILES)


def test_every_rule_and_example_is_cited():
    """Every rule id W-... and every worked example WE1..WE15 is cited by a test, and no
    test cites a W- id the list lacks."""
    check_cited(RULE_IDS + EXAMPLES, _docstrings(), RULE)


def test_every_board_and_guild_is_named():
    """Every wonder board (Rhodos ... Gizah) and every guild is named in a test docstring."""
    check_named(BOARDS + GUILDS, _docstrings())
