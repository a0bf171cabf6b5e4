"""The mutation machinery shared by the position fuzzers of Duel (:mod:`fuzz_helpers`) and
7 Wonders (:mod:`seven_fuzz_helpers`): the places of a position dict, the two choosers (a
seeded ``random.Random`` for the long campaigns, hypothesis draws for the quick, shrinkable
tests) and the type-level mutations of one value.  Each game keeps its own corpus, value
pool, odd values (``weird``) and game-specific mutations."""
from __future__ import annotations

import copy
import functools
import json
import random


@functools.lru_cache(maxsize=None)
def norm_path(path) -> tuple:
    """A place with its list indices as ``"*"``: ``("players", 0, "coins")`` ->
    ``("players", "*", "coins")``."""
    return tuple("*" if isinstance(k, int) else k for k in path)


def walk(node, path=()):
    """(path, value) of every node below the root."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path + (k,), v
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield path + (i,), v
            yield from walk(v, path + (i,))


class RandomChooser:
    """Choices from a seeded ``random.Random`` (the long campaign)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)

    def choice(self, seq):
        return seq[self.rng.randrange(len(seq))]


class DrawChooser:
    """Choices drawn by hypothesis (the quick tests: shrinkable)."""

    def __init__(self, data_, st):
        self.data = data_
        self.st = st

    def integer(self, lo, hi):
        return self.data.draw(self.st.integers(lo, hi))

    def choice(self, seq):
        return seq[self.data.draw(self.st.integers(0, len(seq) - 1))]


def nudged(v, c, steps: tuple, weird: tuple):
    """``v`` a little off: a flipped boolean, a number moved by one of ``steps``, a list one
    entry shorter or longer; any other value becomes one of ``weird``."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + c.choice(steps)
    if isinstance(v, float):
        return v + c.choice((-1.0, 1.0, 0.5))
    if isinstance(v, list) and v:
        return v[:-1] if c.integer(0, 1) else v + [v[0]]
    return copy.deepcopy(c.choice(weird))     # never hand out (and later edit) the constant


def retyped(v, c, weird: tuple):
    """``v`` in a wrong type that still looks like it (``7`` -> ``"7"``, ``7.0``, ``[7]`` ...);
    any other value becomes one of ``weird``."""
    if isinstance(v, bool):
        return c.choice((int(v), str(v).lower(), "yes" if v else "no", None))
    if isinstance(v, int):
        return c.choice((float(v), str(v), float(v) + 0.9, bool(v % 2), [v], {"v": v}))
    if isinstance(v, str):
        return c.choice(([v], {"name": v}, v.upper(), " " + v + " ", v.encode().hex(), 0))
    if isinstance(v, list):
        return c.choice(({str(i): x for i, x in enumerate(v)}, json.dumps(v), [v], len(v)))
    if isinstance(v, dict):
        return c.choice((list(v.values()), list(v), json.dumps(v)))
    return copy.deepcopy(c.choice(weird))
