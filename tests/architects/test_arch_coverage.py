"""The Architects rules suite covers every rule of RULES-ARCH.md: each rule id (A-...) and
worked example (AE1..AE26) is cited in the docstring of at least one test of
``tests/architects/test_arch_*.py``, and every wonder, progress token and option is named."""
import ast
import pathlib
import re

from duelcore.architects import data
from duelcore.architects import engine as core

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


def _docstrings():
    here = pathlib.Path(__file__).parent
    docs = []
    for path in sorted(here.glob("test_arch_*.py")):
        if path.name == pathlib.Path(__file__).name:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                docs.append((path.name, node.name, ast.get_docstring(node) or ""))
    return docs


def test_the_list_of_rules_is_the_digests():
    """RULES-ARCH.md: the 86 rule ids above are the digest's (when it is at hand)."""
    assert len(RULE_IDS) == 86 == len(set(RULE_IDS))
    if RULES.exists():
        found = set(re.findall(r"\*\*(A-[A-Z]+-\d+)\*\*", RULES.read_text()))
        assert found == set(RULE_IDS)


def test_every_rules_test_cites_a_rule():
    """Each test of the rules files says which rule (A-...) or example (AE...) it checks."""
    for file, name, doc in _docstrings():
        if file in ("test_arch_examples.py", "test_arch_rules.py"):
            assert re.search(r"\bA-[A-Z]+-\d+\b|\bAE\d+\b", doc), f"{file}::{name}"


def test_every_rule_and_example_is_cited():
    """Every rule id A-... and every worked example AE1..AE26 is cited by a test."""
    text = "\n".join(doc for _, _, doc in _docstrings())
    cited = set(re.findall(r"\bA-[A-Z]+-\d+\b", text)) | set(re.findall(r"\bAE\d+\b", text))
    missing = [r for r in RULE_IDS + EXAMPLES if r not in cited]
    assert not missing, missing


def test_every_wonder_token_and_option_is_named():
    """Every wonder, progress token and rule option (A-OPT) is named in a test docstring."""
    flat = " ".join(" ".join(d for _, _, d in _docstrings()).split())
    missing = [n for n in list(data.WONDERS) + list(data.TOKENS) + list(core.RULE_DEFAULTS)
               if n not in flat]
    assert not missing, missing
