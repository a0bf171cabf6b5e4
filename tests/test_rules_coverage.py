"""The rules suite covers every rule of RULES.md: each rule id and worked example is cited in
the docstring of at least one test of ``tests/test_rules_*.py``, and every wonder, progress
token and guild is named in one."""
import ast
import pathlib
import re

from rules_helpers import GUILDS, TOKENS, WONDERS

RULE_IDS = (
    [f"R-SETUP-{i}" for i in range(1, 8)] + [f"R-AGE-{i}" for i in range(1, 4)]
    + [f"R-TURN-{i}" for i in range(1, 4)] + [f"R-BUILD-{i}" for i in range(1, 5)]
    + [f"R-TRADE-{i}" for i in range(1, 6)] + ["R-DISCARD-1"]
    + [f"R-WONDER-{i}" for i in range(1, 7)] + [f"R-MIL-{i}" for i in range(1, 5)]
    + [f"R-SCI-{i}" for i in range(1, 5)] + [f"R-END-{i}" for i in range(1, 4)]
    + ["R-DEC-1", "R-CHANCE-1", "R-CHANCE-2", "R-LAYOUT-1"]
)
EXAMPLES = [f"E{i}" for i in range(1, 10)]


def _test_docstrings():
    here = pathlib.Path(__file__).parent
    docs = []
    for path in sorted(here.glob("test_rules_*.py")):
        if path.name == pathlib.Path(__file__).name:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                docs.append((path.name, node.name, ast.get_docstring(node) or ""))
    return docs


def test_every_test_has_a_docstring_citing_a_rule():
    """Each rules test says which rule (R-...) or worked example (E...) it implements."""
    for file, name, doc in _test_docstrings():
        assert re.search(r"\bR-[A-Z]+-\d\b|\bE\d\b|RULES\.md", doc), f"{file}::{name}"


def test_every_rule_and_example_is_cited():
    """Every rule id R-... of RULES.md and every worked example E1..E9 is cited by a test."""
    text = "\n".join(doc for _, _, doc in _test_docstrings())
    cited = set(re.findall(r"\bR-[A-Z]+-\d\b", text)) | set(re.findall(r"\bE\d\b", text))
    missing = [r for r in RULE_IDS + EXAMPLES if r not in cited]
    assert not missing, missing
    assert len(RULE_IDS) == 44


def test_every_wonder_token_and_guild_is_named():
    """Every wonder, progress token and guild of RULES.md is named in a test docstring (each
    of the 73 cards is a case of the parametrised tests of test_rules_cards.py)."""
    text = "\n".join(doc for _, _, doc in _test_docstrings())
    flat = " ".join(text.split())
    missing = [n for n in list(WONDERS) + list(TOKENS) + GUILDS if n not in flat]
    assert not missing, missing
