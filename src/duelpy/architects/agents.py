"""Agent descriptions for 7 Wonders Architects.

The core (:mod:`duelcore.architects.engine`) plays ``random``, ``greedy`` (one ply: the
decision whose immediate result has the best static evaluation, chance right after it
averaged) and ``mcts`` (MCTS with chance nodes and per-seat rewards; each iteration
determinizes what the seat cannot see, A-INFO).  An agent is written in the short form
``mcts:ITERATIONS`` or ``mcts:ITERATIONS:C``, or in the long form ``mcts:iterations=N,c=C``;
both name the same agent, whose canonical name is the short form (``mcts:1000`` for the
default 1,000 iterations and exploration constant).  The MCTS playout policy is ``sharp`` by
default (the best deck by the evaluation, other decisions one ply, never a random decision);
``playout=lite`` (short form: a trailing ``:lite``) is the first agent's (the same with 10%
random decisions), ``playout=greedy`` the one-ply choice of the full evaluation at every
decision (slower), ``playout=model`` the sharp playouts with, in the tree, the other seats'
decisions made by the greedy agent's rule instead of searched (an opponent model).

>>> parse_agent("mcts:iterations=500,c=1.2"), parse_agent("MCTS"), parse_agent("greedy")
('mcts:500:1.2', 'mcts:1000', 'greedy')
>>> parse_agent("mcts:playout=lite"), parse_agent("mcts:500:0.5:lite")
('mcts:1000:lite', 'mcts:500:0.5:lite')
>>> lineup("greedy,random", 2)
['greedy', 'random']
"""
from __future__ import annotations

from functools import partial

from duelpy.base.specs import (Kind, choice_option, core_agent_kind, core_lineup,
                               core_mcts_kind_options, core_mcts_options, core_number,
                               core_with_iterations)
from duelpy.base.specs import split_agents  # noqa: F401 - re-exported for callers

__all__ = ["AGENT_KINDS", "ArchitectsAgentError", "parse_agent", "lineup", "with_iterations",
           "DEFAULT_ITERATIONS", "DEFAULT_C"]

KINDS = ("random", "greedy", "mcts")
DEFAULT_ITERATIONS = 1000
DEFAULT_C = 0.7
PLAYOUTS = ("sharp", "lite", "greedy", "model")
DEFAULT_PLAYOUT = "sharp"
SYNTAX = ("random, greedy, mcts, mcts:ITERATIONS[:C][:PLAYOUT] or "
          "mcts:iterations=N,c=C,playout=sharp|lite|greedy|model")
#: agents of the other games that Architects does not have
OTHER_GAMES = ("plan",)


def _mcts_name(iterations: int = DEFAULT_ITERATIONS, c: float = DEFAULT_C,
               playout: str = DEFAULT_PLAYOUT) -> str:
    return (f"mcts:{iterations}" + ("" if c == DEFAULT_C else f":{c:g}")
            + ("" if playout == DEFAULT_PLAYOUT else f":{playout}"))


#: Every Architects agent kind with its options and defaults (``duel agents --game
#: architects``).  Each makes the agent's canonical name.
AGENT_KINDS = {
    "random": Kind("random", "uniform among the legal decisions", lambda: "random"),
    "greedy": Kind("greedy", "one ply: the decision whose immediate result has the best "
                   "static evaluation (VP now, resources toward the next stage, green cards, "
                   "shields; minus the best other seat's), draws from C averaged", lambda: "greedy"),
    "mcts": Kind("mcts", "MCTS with chance nodes and per-seat rewards; every iteration draws "
                 "afresh what the seat cannot see (the central top, A-INFO); playouts by the "
                 "lite policy without random decisions (playout=sharp; lite: the first "
                 "agent's, 10% random; greedy: one ply at every decision; model: sharp, "
                 "the other seats' decisions in the tree by the greedy rule); also written "
                 "mcts:ITERATIONS[:C][:PLAYOUT]", _mcts_name,
                 core_mcts_kind_options(DEFAULT_ITERATIONS, DEFAULT_C)
                 + (choice_option("playout", PLAYOUTS, DEFAULT_PLAYOUT,
                                  "playout policy: sharp (the best deck by the evaluation, other "
                                  "decisions one ply), lite (the same, 10% random: the first "
                                  "agent's), greedy (one ply at every decision) or model "
                                  "(sharp; in the tree the other seats decide by the greedy "
                                  "agent's rule)"),),
                 example="mcts:iterations=500,c=0.7"),
}


class ArchitectsAgentError(ValueError):
    """An agent description that Architects cannot play (one line naming it)."""


#: An option's value, ``(value, what, text, integer)``: iterations 1..100,000,000, c in
#: (0, 100] (ArchitectsAgentError otherwise).
_number = partial(core_number, error=ArchitectsAgentError, bounded=True)


def parse_agent(text) -> str:
    """The canonical name of an Architects agent description (see the module doc).

    Raises ArchitectsAgentError (a ValueError) naming the description: an unknown agent, an
    agent of another game (``plan``), an option Architects' MCTS does not take, a bad value.
    """
    raw, kind, rest = core_agent_kind(text, KINDS, OTHER_GAMES, ArchitectsAgentError,
                                      "7 Wonders Architects", SYNTAX)
    if kind != "mcts":
        return kind
    rest, playout = _playout(rest, raw)
    iterations, c = core_mcts_options(rest, raw, _number, ArchitectsAgentError, "Architects",
                                      DEFAULT_ITERATIONS, DEFAULT_C, tuple(PLAYOUTS))
    return _mcts_name(iterations, c, playout)


def _playout(rest: str, raw: str) -> tuple[str, str]:
    """The part after ``mcts:`` without its playout policy, and the policy: the long form's
    ``playout=P`` item, or the short form's trailing ``:P`` (a word of PLAYOUTS)."""
    if "=" in rest:
        items, given = [], []
        for item in rest.split(","):
            key, eq, value = (x.strip() for x in item.partition("="))
            if key == "playout" and eq:
                given.append(value.lower())
            else:
                items.append(item)
        if len(given) > 1 or (given and given[0] not in PLAYOUTS):
            raise ArchitectsAgentError(f"agent {raw!r}: playout is one of "
                                       f"{', '.join(PLAYOUTS)}, given once")
        return ",".join(items), given[0] if given else DEFAULT_PLAYOUT
    head, _, last = rest.rpartition(":")
    if last.strip().lower() in PLAYOUTS:
        return head, last.strip().lower()
    return rest, DEFAULT_PLAYOUT


def lineup(text_or_list, players: int) -> list[str]:
    """One canonical agent per seat from a description list (a comma-separated string or a
    list): one agent for every seat, or exactly ``players`` of them."""
    return core_lineup(text_or_list, players, parse_agent, ArchitectsAgentError)


def with_iterations(text: str, iterations: int | None) -> str:
    """The canonical agent of ``text``, an ``mcts`` without an iteration count getting
    ``iterations`` (None: unchanged).  ArchitectsAgentError if ``text`` names its own."""
    return core_with_iterations(text, iterations, parse_agent, ArchitectsAgentError)
