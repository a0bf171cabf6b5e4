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

from duelpy.base.specs import (Kind, core_agent_kind, core_lineup, core_mcts_kind_options,
                               core_mcts_options, core_number, core_with_iterations)
from duelpy.base.specs import split_agents  # noqa: F401 - re-exported for callers

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
                 core_mcts_kind_options(DEFAULT_ITERATIONS, DEFAULT_C),
                 example="mcts:iterations=500,c=0.4"),
}


class SevenAgentError(ValueError):
    """An agent description that 7 Wonders cannot play (one line naming it)."""


def _number(value: str, what: str, text: str, integer: bool):
    """iterations 1..100,000,000, c in (0, 100], as for Architects (SevenAgentError)."""
    return core_number(value, what, text, integer, SevenAgentError, bounded=True)


def parse_agent(text) -> str:
    """The canonical name of a 7 Wonders agent description (see the module doc).

    Raises SevenAgentError naming the description: an unknown agent, a Duel agent that
    7 Wonders does not have (``plan``), an option 7 Wonders' MCTS does not take, or a bad
    value."""
    raw, kind, rest = core_agent_kind(text, KINDS, DUEL_ONLY, SevenAgentError, "7 Wonders",
                                      SYNTAX, " in 7 Wonders")
    if kind != "mcts":
        return kind
    iterations, c = core_mcts_options(rest, raw, _number, SevenAgentError, "7 Wonders",
                                      DEFAULT_ITERATIONS, DEFAULT_C)
    return f"mcts:{iterations}" + ("" if c == DEFAULT_C else f":{c:g}")


def lineup(text_or_list, players: int) -> list[str]:
    """One canonical agent per player from a description list (a comma-separated string or
    a list): one agent for every seat, or exactly ``players`` of them."""
    return core_lineup(text_or_list, players, parse_agent, SevenAgentError)


def with_iterations(text: str, iterations: int | None) -> str:
    """The canonical agent of ``text``, an ``mcts`` without an iteration count getting
    ``iterations`` (None: unchanged).  Raises SevenAgentError if ``text`` names its own
    count (the budget is given once)."""
    return core_with_iterations(text, iterations, parse_agent, SevenAgentError)
