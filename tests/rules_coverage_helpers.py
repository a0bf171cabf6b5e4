"""How a rules suite is checked against its digest (the Duel, 7 Wonders and Architects coverage
tests): every rule id and worked example of the digest is cited in the docstring of a test,
every test of the rules files cites one, every named thing (wonder, token, guild ...) is named
in a docstring, no docstring cites an id the list lacks, and the list of ids written out in
the coverage test is the digest's when the digest is at hand.

Only the docstrings of test functions count (not comments, not module docstrings), and an id
counts only when written out in full: "W-TRADE-2..6" or "W-TRADE-2, -3" cites W-TRADE-2 alone.
"""
from __future__ import annotations

import ast
import functools
import pathlib
import re


@functools.lru_cache(maxsize=None)
def docstrings(folder, pattern, skip=()):
    """(file name, test name, docstring) of every test function (``test_...``, methods and
    nested functions included) of the files of ``folder`` matching ``pattern``, files named
    in ``skip`` left out; "" for a test without a docstring.  Read once per session."""
    docs = []
    for path in sorted(pathlib.Path(folder).glob(pattern)):
        if path.name in skip:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.name.startswith("test_"):
                docs.append((path.name, node.name, ast.get_docstring(node) or ""))
    return tuple(docs)


def token(name):
    """A regex for ``name`` written as a whole: "W-FREE-1" is not found in "W-FREE-10", nor
    "E1" in "WE1" or "AE1"."""
    return re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w])")


def _text(docs):
    return "\n".join(doc for _, _, doc in docs)


def uncited(ids, docs):
    """The ids (rules and examples) that no docstring cites, in the order given."""
    text = _text(docs)
    return [i for i in ids if not token(i).search(text)]


def unknown(ids, docs, pattern):
    """"file::test id" for each id of the digest's shape (``pattern``) that a docstring cites
    but the list lacks: a typo, or a rule the digest has dropped."""
    known = set(ids)
    return [f"{file}::{name} {m}" for file, name, doc in docs
            for m in re.findall(pattern, doc) if m not in known]


def citing_nothing(docs, pattern, files=None):
    """"file::test" of each test (of ``files`` only, if given) whose docstring has no match
    of ``pattern``."""
    return [f"{file}::{name}" for file, name, doc in docs
            if (files is None or file in files) and not re.search(pattern, doc)]


def unnamed(names, docs):
    """The names that no docstring names (line breaks inside a name allowed)."""
    flat = " ".join(_text(docs).split())
    return [n for n in names if n not in flat]


def digest_ids(path, pattern):
    """The ids a digest defines (written in bold: ``**W-SETUP-1**`` or ``**WE1 title**``),
    matching ``pattern`` (the id); None when the digest is not at hand."""
    path = pathlib.Path(path)
    if not path.exists():
        return None
    return set(re.findall(r"\*\*(" + pattern + r")\b", path.read_text()))


def check_list(ids, count):
    """The written-out list: ``count`` ids, none twice."""
    assert len(ids) == count, len(ids)
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert not twice, twice


def check_digest(path, ids, pattern, examples, example_pattern, bold_only=True):
    """When the digest is at hand: the ids it defines in bold are ``ids`` (with
    ``bold_only=False``, a subset of them, the others named in its text) and its worked
    examples are ``examples``."""
    defined = digest_ids(path, pattern)
    if defined is None:
        return
    if bold_only:
        assert defined == set(ids), sorted(defined ^ set(ids))
    else:
        assert defined <= set(ids), sorted(defined - set(ids))
        text = pathlib.Path(path).read_text()
        absent = [i for i in ids if not token(i).search(text)]
        assert not absent, absent
    assert digest_ids(path, example_pattern) == set(examples)


def check_cited(ids, docs, pattern):
    """Every id of ``ids`` (rules and examples) is cited, and no id of the digest's shape
    outside the list."""
    missing = uncited(ids, docs)
    assert not missing, missing
    stray = unknown(ids, docs, pattern)
    assert not stray, stray


def check_each_cites(docs, pattern, files=None):
    """Every test (of ``files``, if given) cites a match of ``pattern``."""
    missing = citing_nothing(docs, pattern, files)
    assert not missing, missing


def check_named(names, docs):
    """Every name is named in a docstring."""
    missing = unnamed(names, docs)
    assert not missing, missing
