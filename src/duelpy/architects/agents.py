"""Agent descriptions for 7 Wonders Architects.

The core (:mod:`duelcore.architects.engine`) plays ``random``, ``greedy`` (one ply: the
decision whose immediate result has the best static evaluation, chance right after it
averaged) and ``mcts`` (MCTS with chance nodes and per-seat rewards; each iteration
determinizes what the seat cannot see, A-INFO).  An agent is written in the short form
``mcts:ITERATIONS`` or ``mcts:ITERATIONS:C``, or in the long form ``mcts:iterations=N,c=C``;
both name the same agent, whose canonical name is the short form (``mcts:1000`` for the
default 1,000 iterations and exploration constant).

>>> parse_agent("mcts:iterations=500,c=1.2"), parse_agent("MCTS"), parse_agent("greedy")
('mcts:500:1.2', 'mcts:1000', 'greedy')
>>> lineup("greedy,random", 2)
['greedy', 'random']
"""
from __future__ import annotations

import math
import re

from duelpy.base.specs import Kind, float_option, int_option, split_agents

__all__ = ["AGENT_KINDS", "ArchitectsAgentError", "parse_agent", "lineup", "with_iterations",
           "DEFAULT_ITERATIONS", "DEFAULT_C"]

KINDS = ("random", "greedy", "mcts")
DEFAULT_ITERATIONS = 1000
DEFAULT_C = 0.7
SYNTAX = "random, greedy, mcts, mcts:ITERATIONS[:C] or mcts:iterations=N,c=C"
#: agents of the other games that Architects does not have
OTHER_GAMES = ("plan",)


def _mcts_name(iterations: int = DEFAULT_ITERATIONS, c: float = DEFAULT_C) -> str:
    return f"mcts:{iterations}" + ("" if c == DEFAULT_C else f":{c:g}")


#: Every Architects agent kind with its options and defaults (``duel agents --game
#: architects``).  Each makes the agent's canonical name.
AGENT_KINDS = {
    "random": Kind("random", "uniform among the legal decisions", lambda: "random"),
    "greedy": Kind("greedy", "one ply: the decision whose immediate result has the best "
                   "static evaluation (VP now, resources toward the next stage, green cards, "
                   "shields; minus the best other seat's), draws from C averaged", lambda: "greedy"),
    "mcts": Kind("mcts", "MCTS with chance nodes and per-seat rewards; every iteration draws "
                 "afresh what the seat cannot see (the central top, A-INFO); also written "
                 "mcts:ITERATIONS[:C]", _mcts_name,
                 (int_option("iterations", 1, 100_000_000, DEFAULT_ITERATIONS,
                             "iterations per decision"),
                  float_option("c", 0, 100, DEFAULT_C, "UCT exploration constant",
                               lo_open=True)),
                 example="mcts:iterations=500,c=0.7"),
}


class ArchitectsAgentError(ValueError):
    """An agent description that Architects cannot play (one line naming it)."""


def _number(value: str, what: str, text: str, integer: bool):
    try:
        x = int(value) if integer else float(value)
    except ValueError:
        x = None
    if x is None or (integer and not 1 <= x <= 100_000_000) or \
            (not integer and not (math.isfinite(x) and 0 < x <= 100)):
        kind = "an integer from 1 to 100,000,000" if integer else "a number in (0, 100]"
        raise ArchitectsAgentError(f"agent {text!r}: {what} must be {kind}, not {value!r}")
    return x


def parse_agent(text) -> str:
    """The canonical name of an Architects agent description (see the module doc).

    Raises ArchitectsAgentError (a ValueError) naming the description: an unknown agent, an
    agent of another game (``plan``), an option Architects' MCTS does not take, a bad value.
    """
    if not isinstance(text, str) or not text.strip():
        raise ArchitectsAgentError(f"an agent is a description such as greedy or mcts:1000, "
                                   f"not {text!r}")
    raw = text.strip()
    kind, _, rest = raw.partition(":")
    kind = kind.strip().lower()
    if kind in OTHER_GAMES:
        raise ArchitectsAgentError(f"agent {raw!r} is a 7 Wonders Duel agent, not available "
                                   f"for 7 Wonders Architects ({SYNTAX})")
    if kind not in KINDS:
        raise ArchitectsAgentError(f"unknown agent {raw!r} for 7 Wonders Architects ({SYNTAX})")
    rest = rest.strip()
    if kind != "mcts":
        if rest:
            raise ArchitectsAgentError(f"agent {raw!r}: {kind} takes no options")
        return kind
    iterations, c = DEFAULT_ITERATIONS, DEFAULT_C
    if rest and "=" in rest:
        seen = set()
        for item in rest.split(","):
            key, eq, value = (s.strip() for s in item.partition("="))
            if not eq:
                raise ArchitectsAgentError(f"agent {raw!r}: write options as key=value")
            if key in seen:
                raise ArchitectsAgentError(f"agent {raw!r}: option {key} given twice")
            seen.add(key)
            if key == "iterations":
                iterations = _number(value, "iterations", raw, True)
            elif key == "c":
                c = _number(value, "c", raw, False)
            else:
                raise ArchitectsAgentError(f"agent {raw!r}: option {key!r} is not available "
                                           f"for Architects' mcts (iterations, c)")
    elif rest:
        parts = rest.split(":")
        if len(parts) > 2:
            raise ArchitectsAgentError(f"agent {raw!r}: write mcts:ITERATIONS or "
                                       f"mcts:ITERATIONS:C")
        iterations = _number(parts[0], "iterations", raw, True)
        if len(parts) == 2:
            c = _number(parts[1], "c", raw, False)
    return _mcts_name(iterations, c)


def lineup(text_or_list, players: int) -> list[str]:
    """One canonical agent per seat from a description list (a comma-separated string or a
    list): one agent for every seat, or exactly ``players`` of them."""
    items = split_agents(text_or_list) if isinstance(text_or_list, str) else list(text_or_list)
    agents = [parse_agent(a) for a in items]
    if len(agents) == 1:
        agents = agents * players
    if len(agents) != players:
        raise ArchitectsAgentError(f"give 1 agent or {players} (one per player), got "
                                   f"{len(agents)}")
    return agents


def with_iterations(text: str, iterations: int | None) -> str:
    """The canonical agent of ``text``, an ``mcts`` without an iteration count getting
    ``iterations`` (None: unchanged).  ArchitectsAgentError if ``text`` names its own."""
    name = parse_agent(text)
    if iterations is None or not name.startswith("mcts"):
        return name
    t = str(text).replace(" ", "").lower()
    if re.match(r"mcts:\d", t) or "iterations=" in t:
        raise ArchitectsAgentError(f"--iterations {iterations} conflicts with the iteration "
                                   f"count of {text!r}: give the budget once")
    c = name.split(":")[2:]
    return parse_agent(f"mcts:{iterations}" + (f":{c[0]}" if c else ""))
