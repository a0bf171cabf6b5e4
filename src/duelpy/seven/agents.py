"""Agent descriptions for 7 Wonders: the core's short form and the Duel CLI's long form.

The core (:mod:`duelcore.seven`) plays ``random``, ``greedy`` and ``mcts`` (information-set
MCTS).  An agent is written in the core's short form, ``mcts:ITERATIONS`` or
``mcts:ITERATIONS:C``, or in the Duel commands' form, ``mcts:iterations=N,c=C``; both name
the same agent, whose canonical name is the short form (``mcts:1000`` for the default
1,000 iterations, ``mcts:1000:0.7`` with another exploration constant ``c``; default 0.4).

>>> parse_agent("mcts:iterations=500,c=0.7"), parse_agent("MCTS"), parse_agent("greedy")
('mcts:500:0.7', 'mcts:1000', 'greedy')
>>> split_agents("mcts:iterations=200,c=1,greedy")
['mcts:iterations=200,c=1', 'greedy']
"""
from __future__ import annotations

import math
import re

from duelpy.base.specs import Kind, float_option, int_option, split_agents

KINDS = ("random", "greedy", "mcts")
DEFAULT_ITERATIONS = 1000
DEFAULT_C = 0.4
SYNTAX = "random, greedy, mcts, mcts:ITERATIONS[:C] or mcts:iterations=N,c=C"
#: agents of 7 Wonders Duel that 7 Wonders does not have
DUEL_ONLY = ("plan",)


def _mcts_name(iterations: int = 1000, c: float = 0.4) -> str:
    return f"mcts:{iterations}" + ("" if c == DEFAULT_C else f":{c:g}")


#: Every 7 Wonders agent kind with its options and defaults (``duel agents --game seven``,
#: :func:`parse_agent`'s ranges).  Each makes the agent's canonical name.
AGENT_KINDS = {
    "random": Kind("random", "uniform among the legal actions", lambda: "random"),
    "greedy": Kind("greedy", "one ply: the action whose result scores best for the seat "
                   "(VP now, then coins)", lambda: "greedy"),
    "mcts": Kind("mcts", "information-set MCTS: the cards the seat cannot see are dealt "
                 "afresh in every iteration (W-INFO); also written mcts:ITERATIONS[:C]",
                 _mcts_name,
                 (int_option("iterations", 1, 100_000_000, DEFAULT_ITERATIONS,
                             "iterations per decision"),
                  float_option("c", 0, 100, DEFAULT_C, "UCT exploration constant",
                               lo_open=True)),
                 example="mcts:iterations=500,c=0.4"),
}


class SevenAgentError(ValueError):
    """An agent description that 7 Wonders cannot play (one line naming it)."""


def _number(value: str, what: str, text: str, integer: bool):
    try:
        x = int(value) if integer else float(value)
    except ValueError:
        x = None
    if x is None or (integer and x < 1) or (not integer and not (math.isfinite(x) and x > 0)):
        kind = "a positive integer" if integer else "a positive number"
        raise SevenAgentError(f"agent {text!r}: {what} must be {kind}, not {value!r}")
    return x


def parse_agent(text) -> str:
    """The canonical name of a 7 Wonders agent description (see the module doc).

    Raises SevenAgentError naming the description: an unknown agent, a Duel agent that
    7 Wonders does not have (``plan``), an option 7 Wonders' MCTS does not take, or a bad
    value."""
    if not isinstance(text, str) or not text.strip():
        raise SevenAgentError(f"an agent is a description such as greedy or mcts:1000, "
                              f"not {text!r}")
    raw = text.strip()
    kind, _, rest = raw.partition(":")
    kind = kind.strip().lower()
    if kind in DUEL_ONLY:
        raise SevenAgentError(f"agent {raw!r} is a 7 Wonders Duel agent, not available for "
                              f"7 Wonders ({SYNTAX})")
    if kind not in KINDS:
        raise SevenAgentError(f"unknown agent {raw!r} for 7 Wonders ({SYNTAX})")
    rest = rest.strip()
    if kind != "mcts":
        if rest:
            raise SevenAgentError(f"agent {raw!r}: {kind} takes no options in 7 Wonders")
        return kind
    iterations, c = DEFAULT_ITERATIONS, DEFAULT_C
    if rest and "=" in rest:
        seen = set()
        for item in rest.split(","):
            key, eq, value = (s.strip() for s in item.partition("="))
            if not eq:
                raise SevenAgentError(f"agent {raw!r}: write options as key=value")
            if key in seen:
                raise SevenAgentError(f"agent {raw!r}: option {key} given twice")
            seen.add(key)
            if key == "iterations":
                iterations = _number(value, "iterations", raw, True)
            elif key == "c":
                c = _number(value, "c", raw, False)
            else:
                raise SevenAgentError(f"agent {raw!r}: option {key!r} is not available for "
                                      f"7 Wonders' mcts (iterations, c)")
    elif rest:
        parts = rest.split(":")
        if len(parts) > 2:
            raise SevenAgentError(f"agent {raw!r}: write mcts:ITERATIONS or mcts:ITERATIONS:C")
        iterations = _number(parts[0], "iterations", raw, True)
        if len(parts) == 2:
            c = _number(parts[1], "c", raw, False)
    if iterations > 10**8:
        raise SevenAgentError(f"agent {raw!r}: at most 100,000,000 iterations")
    return f"mcts:{iterations}" + ("" if c == DEFAULT_C else f":{c:g}")


def lineup(text_or_list, players: int) -> list[str]:
    """One canonical agent per player from a description list (a comma-separated string or
    a list): one agent for every seat, or exactly ``players`` of them."""
    items = split_agents(text_or_list) if isinstance(text_or_list, str) else list(text_or_list)
    agents = [parse_agent(a) for a in items]
    if len(agents) == 1:
        agents = agents * players
    if len(agents) != players:
        raise SevenAgentError(f"give 1 agent or {players} (one per player), got {len(agents)}")
    return agents


def with_iterations(text: str, iterations: int | None) -> str:
    """The canonical agent of ``text``, an ``mcts`` without an iteration count getting
    ``iterations`` (None: unchanged).  Raises SevenAgentError if ``text`` names its own
    count (the budget is given once)."""
    name = parse_agent(text)
    if iterations is None or not name.startswith("mcts"):
        return name
    t = str(text).replace(" ", "").lower()
    if re.match(r"mcts:\d", t) or "iterations=" in t:
        raise SevenAgentError(f"--iterations {iterations} conflicts with the iteration count "
                              f"of {text!r}: give the budget once")
    c = name.split(":")[2:]
    return parse_agent(f"mcts:{iterations}" + (f":{c[0]}" if c else ""))
