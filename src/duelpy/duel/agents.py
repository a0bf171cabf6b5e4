"""Agents: something that picks an action for the player to move.

Every agent has ``select_action(state) -> int`` and ``reset(seed)``; the match runners call
``reset`` at the start of each game with :func:`duelcore.search.agent_seed`, so a game played
through Python agents and the same game played by the batch runner in the core are identical.

Built-in agents (their decisions are made inside the core, without the GIL):

* :class:`RandomAgent` — uniform among the legal actions.
* :class:`GreedyAgent` — one ply: it applies each legal action to a copy of the state, with no
  chance sampled, and scores the result for itself in VP equivalents. That score is the
  VP difference (coins counted as coins/3, so cheap VP beats dear VP), plus 1.5 per distinct
  science symbol (plus 6 at five), the Conflict pawn's lead, production while Ages I-II last,
  3 for a pending progress-token choice (a science pair), tokens' passive worth, and 1.5 for
  Play Again. A win by supremacy beats everything. Chain builds score well because they are
  free. In the draft it prefers wonders by VP, coins, Play Again, shields and special
  effects. It always chooses to begin the next Age itself.
* :class:`MCTSAgent` — information-set (open-loop) UCT: chance is sampled afresh in every
  iteration from the searcher's own RNG, so it never sees face-down cards, removed cards or
  the Great Library draw.

Agents are written on the command line as ``random``, ``greedy``,
``mcts:iterations=2000,c=1.4`` (see :func:`parse_agent`).
"""
from __future__ import annotations

import abc
from typing import Any
from concurrent.futures import ThreadPoolExecutor

from duelcore import State
from duelcore import search as _search

from duelpy.base.specs import (Kind, Option, check_options, choice_option, float_option,
                               int_option, parse_spec)

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "MCTSAgent", "PlanAgent", "parse_agent",
           "AgentSpecError", "AGENT_KINDS"]

_MASK64 = (1 << 64) - 1


class AgentSpecError(ValueError):
    """A malformed agent description or option (unknown name, bad budget...)."""


def _check_state(state):
    if not isinstance(state, State):
        raise TypeError(f"select_action needs a duelcore State, not {type(state).__name__}")
    if state.is_terminal():
        raise ValueError("the game is over: there is no action to select")
    if state.is_chance_node():
        raise ValueError("this is a chance node: chance outcomes are not chosen by an agent")


class Agent(abc.ABC):
    """Base class: define :meth:`select_action` (and :meth:`reset` if the agent is random)."""

    name = "agent"
    #: A :class:`duelcore.search.SearchStop` whose ``set()`` ends the search under way
    #: (built-in searching agents); None for agents that do not search.
    stop: Any = None

    @property
    def batchable(self) -> bool:
        """True if the core's batch runner can play this agent (no Python per move)."""
        return False

    def reset(self, seed: int) -> None:
        """Start a new game; ``seed`` seeds the agent's own RNG (64-bit integer)."""

    @abc.abstractmethod
    def select_action(self, state: State) -> int:
        """The action (an int from ``state.legal_actions()``) for the player to move."""

    def __repr__(self):
        return self.name


class _BuiltinAgent(Agent):
    """An agent whose decisions are made in the core by :func:`duelcore.search.choose`."""

    kind = "random"
    #: A :class:`duelcore.search.SearchStop` or None.  ``stop.set()``, from any thread, ends
    #: the search this agent is running (it returns its best action so far); None: no token.

    def __init__(self, seed: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise AgentSpecError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        self.seed = seed
        self._rng = seed & _MASK64

    @property
    def spec(self) -> dict:
        """The agent as the core's batch runner knows it."""
        return {"kind": self.kind}

    @property
    def batchable(self) -> bool:
        """True if the core's batch runner can play this agent (no Python per move)."""
        return True

    def reset(self, seed: int) -> None:
        self._rng = seed & _MASK64

    def select_action(self, state: State) -> int:
        """The agent's action for the player to move.

        Raises
        ------
        TypeError
            If ``state`` is not a duelcore State.
        ValueError
            If the game is over or ``state`` is a chance node.
        """
        _check_state(state)
        action, self._rng = _search.choose(state, self.spec, self._rng, stop=self.stop)
        return action


class RandomAgent(_BuiltinAgent):
    """Uniform among the legal actions."""

    kind = "random"
    name = "random"


class GreedyAgent(_BuiltinAgent):
    """The one-ply heuristic player described in the module docstring."""

    kind = "greedy"
    name = "greedy"


class MCTSAgent(_BuiltinAgent):
    """Information-set Monte Carlo tree search (UCT) run in the core without the GIL.

    Parameters
    ----------
    iterations : int, optional
        Iterations per decision (1 .. 100,000,000).  Default 1000 unless ``seconds`` is given.
    seconds : float, optional
        Time per decision in seconds (0 < seconds <= 3600) instead of an iteration budget.
    c : float
        UCT exploration constant (>= 0).
    rollout : {"random", "greedy"}
        Rollout policy.
    threads : int
        Root parallelism: this many independent trees in threads (the budget is split for
        iterations, shared for seconds); their root visit counts are added up.
    max_nodes : int
        Tree capacity for a seconds budget (default 4,000,000 nodes, 32 bytes each).
    seed : int
        Seed of the agent's RNG (the match runners reseed it at each game).

    Raises
    ------
    AgentSpecError
        For a budget or option out of range.
    """

    kind = "mcts"
    # set from the checked options by _set_options
    iterations: int | None
    seconds: float | None
    threads: int
    max_nodes: int
    c: float
    rollout: str

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 c: float = 1.4, rollout: str = "random", threads: int = 1,
                 max_nodes: int = 0, seed: int = 0):
        super().__init__(seed)
        budget = self._set_options(iterations, seconds, threads, max_nodes,
                                   {"c": c, "rollout": rollout})
        extra = "" if self.rollout == "random" else f",rollout={self.rollout}"
        self.name = f"mcts:{budget},c={_fmt(self.c)}{extra}{self._parallel_text()}"

    def _set_options(self, iterations, seconds, threads, max_nodes, options) -> str:
        """Check the options against :data:`AGENT_KINDS` and set them as attributes; return
        the budget as written in the agent's name (``iterations=N`` or ``seconds=S``)."""
        given = {k: v for k, v in (("iterations", iterations), ("seconds", seconds))
                 if v is not None}
        given.update({k: v for k, v in options.items() if v is not None}, threads=threads,
                     max_nodes=max_nodes)
        checked = check_options(AGENT_KINDS[self.kind], given, AgentSpecError)
        iterations, seconds = checked.get("iterations"), checked.get("seconds")
        if seconds is None and iterations is None:
            iterations = 1000
        self.iterations = iterations
        self.seconds = seconds
        self.threads = threads
        self.max_nodes = max_nodes
        for key in options:
            value = checked.get(key)
            setattr(self, key, float(value) if isinstance(value, (int, float)) else value)
        return f"iterations={iterations}" if iterations is not None else f"seconds={_fmt(seconds)}"

    def _parallel_text(self) -> str:
        return (("" if self.threads == 1 else f",threads={self.threads}")
                + ("" if self.max_nodes == 0 else f",max_nodes={self.max_nodes}"))

    @property
    def spec(self) -> dict:
        return {"kind": "mcts", "iterations": self.iterations or 0,
                "seconds": float(self.seconds or 0.0), "c": self.c, "rollout": self.rollout,
                "max_nodes": self.max_nodes}

    @property
    def batchable(self) -> bool:
        return self.threads == 1

    def select_action(self, state: State) -> int:
        if self.threads == 1:
            return super().select_action(state)
        return self.search(state)["action"]

    def search(self, state: State) -> dict:
        """Run the search and return the decision with its reasons.

        Returns
        -------
        dict
            ``{"action": int, "actions": [...], "visits": [...], "values": [...],
            "iterations": int}``: the root actions, their visit counts and mean rewards for
            the player to move (1 win, 0.5 shared, 0 loss), summed over the threads.
        """
        _check_state(state)
        seeds = []
        for _ in range(self.threads):
            self._rng, seed = _next64(self._rng)
            seeds.append(seed)
        spec = self.spec
        iters = [0] * self.threads
        if self.iterations is not None:
            q, r = divmod(self.iterations, self.threads)
            iters = [max(1, q + (k < r)) for k in range(self.threads)]

        def run(k):
            return _search.mcts_search(state, iterations=iters[k], seconds=spec["seconds"],
                                       max_nodes=self.max_nodes, seed=seeds[k],
                                       stop=self.stop, **self._search_options())

        if self.threads == 1:
            results = [run(0)]
        else:
            with ThreadPoolExecutor(self.threads) as pool:
                results = list(pool.map(run, range(self.threads)))
        visits: dict[int, int] = {}
        values: dict[int, float] = {}
        for res in results:
            for a, n, v in zip(res["actions"], res["visits"], res["values"]):
                visits[a] = visits.get(a, 0) + n
                values[a] = values.get(a, 0.0) + v * n
        legal = state.legal_actions()
        if not visits:
            visits = {legal[0]: 0}
        actions = sorted(visits)
        best = max(actions, key=lambda a: (visits[a], values.get(a, 0.0) / max(visits[a], 1), -a))
        return {"action": best, "actions": actions, "visits": [visits[a] for a in actions],
                "values": [values.get(a, 0.0) / max(visits[a], 1) for a in actions],
                "iterations": sum(r["iterations"] for r in results)}


    def _search_options(self) -> dict:
        return {"c": self.c, "rollout": self.rollout}


_PLAN = _search.PLAN_DEFAULTS


class PlanAgent(MCTSAgent):
    """The planning search: information-set MCTS that sees plans coming (issue 10).

    The tree is the round-1 open-loop UCT (chance sampled afresh in every iteration from the
    searcher's own RNG, so it never reads face-down cards, removed cards or the Great Library
    draw; guild backs, being public, are used, R-CHANCE-2), with three changes:

    * **informed playouts** (``duelcore/policy.pxi``): each move is scored from the state
      (an immediate Scientific or Military Supremacy is always taken; the card that would give
      the opponent their 6th symbol or last military step is taken away; otherwise VP, science
      progress, shields by the pawn's position, production, coins / 3, minus the cost / 3), and
      the best score after ``noise`` (VP) of uniform noise is played, or with probability
      ``eps`` a uniformly random move;
    * **progressive widening**: a node tries its untried actions in the policy's order, at
      most ``2 + widen * sqrt(visits)`` of them, and **progressive bias**: a child's UCB
      value gets ``bias * score / 10 / (visits + 1)`` (the policy's score, clipped to ±10);
    * **a VP-margin reward**: ``(1 - margin) * win + margin * (1 + tanh(VP margin / 10)) / 2``
      for a civilian victory, so surer wins are preferred.

    With ``policy="fitted"`` the turns of the playouts are drawn instead from a softmax over
    the turn's actions (temperature ``temp``) whose weights were fitted to the search's own
    choices in self-play (``duelcore/fitpolicy.pxi``, ``duel train --model policy``); the
    widening then draws untried actions from it and the bias is the action's probability.
    Its playouts also use **move averages** (MAST): over one search, the mean reward (for the
    player who chose it) of each build, discard and wonder taken in the search's simulations
    adds ``mast * (mean - 0.5)`` to that action's logit, so the playouts adapt to what works
    in this game (``mast`` 3 by default, 0 for none).  And a build that gives the player a
    new science symbol gets ``science`` added to its logit in the playouts (0.7 by default):
    the weights come from self-play that rarely went for science, and without the bonus the
    playouts, and so the search, undervalue collecting symbols.  ``puct`` (0 by default, an
    option under test) adds a PUCT-style term to a child's UCB value in the tree,
    ``puct * prior * sqrt(times available) / (visits + 1)``, with the policy's prior above.

    Parameters are those of :class:`MCTSAgent` (``c`` defaults to 0.7) plus ``noise`` (VP),
    ``eps`` (probability), ``widen``, ``margin``, ``bias``, ``value``, ``horizon``, ``deny``,
    ``rmix``, ``policy`` (``"hand"`` or ``"fitted"``), ``temp``, ``mast``, ``science``,
    ``puct`` and ``weights`` (see ``duel agents``).  ``weights`` pins the fitted policy's
    weights: a name of ``duelcore.search.NAMED_POLICY_WEIGHTS`` (``round8``: round 8's
    weights, today's default, kept under that name) or the path of an ``.npz`` file; each
    agent plays with its own, so two planning searches with different weights can meet in
    one match.

    Raises
    ------
    AgentSpecError
        For a budget or option out of range, or a weights file that is missing, truncated,
        unreadable or does not match this core's feature names (the message names the
        file and what is wrong).
    """

    kind = "plan"
    noise: float
    eps: float
    widen: float
    margin: float
    bias: float
    value: float
    horizon: int
    deny: float
    rmix: float
    policy: str
    temp: float
    mast: float
    science: float
    puct: float
    weights: str | None

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 c: float = _PLAN["c"], noise: float = _PLAN["noise"], eps: float = _PLAN["eps"],
                 widen: float = _PLAN["widen"], margin: float = _PLAN["margin"],
                 bias: float = _PLAN["bias"], value: float = _PLAN["value"],
                 horizon: int = _PLAN["horizon"], deny: float = _PLAN["deny"],
                 rmix: float = _PLAN["rmix"], policy: str = _PLAN["policy"],
                 temp: float | None = None, mast: float | None = None,
                 science: float | None = None, puct: float = _PLAN["puct"],
                 weights: str | None = None, threads: int = 1, max_nodes: int = 0,
                 seed: int = 0):
        _BuiltinAgent.__init__(self, seed)
        fitted_only = [k for k, v in (("temp", temp), ("mast", mast), ("science", science),
                                      ("weights", weights)) if v is not None]
        if isinstance(policy, str) and policy.strip().lower() == "hand" and fitted_only:
            # given at all, whatever the value (and however the policy is spelt)
            raise AgentSpecError(f"option {fitted_only[0]} applies only with policy=fitted")
        temp = _PLAN["temp"] if temp is None else temp
        mast = _PLAN["mast"] if mast is None else mast
        science = _PLAN["science"] if science is None else science
        given = locals()
        budget = self._set_options(iterations, seconds, threads, max_nodes,
                                   {k: given[k] for k in _PLAN})
        self.rollout = "policy"
        self.horizon = int(self.horizon)
        try:                    # a missing or corrupt weights file is refused here, naming it
            if self.policy == "fitted" and self.weights is not None:
                _search.policy_weights_table(self.weights)      # read once, cached per file
            elif self.policy == "fitted" and not _search.policy_weights_loaded():
                _search.load_policy_weights()
            if self.value > 0 and not _search.value_weights_loaded():
                _search.load_value_weights()
        except ValueError as e:
            raise AgentSpecError(str(e)) from None
        extra = "".join(f",{k}={_fmt(getattr(self, k))}" for k in _PLAN
                        if getattr(self, k) != _PLAN[k])
        self.name = f"plan:{budget}{extra}{self._parallel_text()}"

    @property
    def spec(self) -> dict:
        return {"kind": "plan", "iterations": self.iterations or 0,
                "seconds": float(self.seconds or 0.0), **self._search_options(),
                "max_nodes": self.max_nodes}

    def _search_options(self) -> dict:
        return {"kind": "plan", **{k: getattr(self, k) for k in _PLAN}}


def _fmt(value) -> str:
    """An option's value as written in an agent's name: the shortest text that reads back as
    the same float (so two different values never share a name), without a trailing .0."""
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def _next64(x):
    """One splitmix64 step on a Python int: (new state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x, z ^ (z >> 31)


#: The spec of the strongest built-in agent (the default opponent of ``duel play`` and
#: ``duel serve``, and the source of hints).  Add a budget: ``f"{STRONGEST}:seconds=1"``.
STRONGEST = "plan"

def _plan(name: str, help: str, make=float_option):
    """The option ``name`` of the planning search: its range and default are the core's
    (``duelcore.search.PLAN_RANGES`` / ``PLAN_DEFAULTS``)."""
    return make(name, *_search.PLAN_RANGES[name], _PLAN[name], help)


def _text_option(name: str, help: str, domain: str) -> Option:
    """An option whose value is a non-empty text (kept as written, spaces stripped), None by
    default."""
    def check(v):
        if not isinstance(v, str) or not v.strip():
            raise ValueError(domain)
        return v.strip()
    return Option(name, None, help, domain, check, lambda t: t.strip(), "the shipped default")


_SEED = int_option("seed", 0, 2**64 - 1, 0, "seed of the agent's RNG (the match runners "
                   "reseed it at each game)", domain="an integer from 0 to 2**64 - 1")

#: The budget of a search (one of them per decision) and how its trees run.
_BUDGET = (int_option("iterations", 1, 100_000_000, 1000, "iterations per decision",
                      default_text="1000 unless seconds"),
           float_option("seconds", 0, 3600, None, "thinking time per decision, in seconds, "
                        "instead of iterations", lo_open=True))
_TREES = (int_option("threads", 1, 256, 1, "independent trees searched in threads (root "
                     "parallelism; iterations are split, seconds shared)"),
          int_option("max_nodes", 2, 200_000_000, 0, "tree capacity in nodes of 32 bytes; 0: "
                     "iterations + 2, or 4,000,000 with seconds", also=(0,)),
          _SEED)

#: Every agent kind with its options and defaults: ``parse_agent``, ``duel agents`` and
#: :class:`MCTSAgent`'s checks read this table.  A new kind is a new entry.
AGENT_KINDS = {
    "random": Kind("random", "uniform among the legal actions", RandomAgent, (_SEED,)),
    "greedy": Kind("greedy", "one ply: the legal action whose result scores best for itself "
                   "(VP, coins, science, military, Play Again)", GreedyAgent, (_SEED,)),
    "mcts": Kind(
        "mcts", "information-set Monte Carlo tree search (UCT); chance sampled afresh in "
        "every iteration, never the hidden cards", MCTSAgent,
        (*_BUDGET,
         float_option("c", *_search.PLAN_RANGES["c"], 1.4, "UCT exploration constant"),
         choice_option("rollout", ("random", "greedy"), "random",
                       "policy of the playouts after the tree"),
         *_TREES),
        conflicts=(("iterations", "seconds"),),
        example="mcts:iterations=2000,c=1.4"),
    "plan": Kind(
        "plan", "the planning search (the strongest): information-set MCTS with informed "
        "playouts that pursue and block science and military plans, progressive widening and "
        "a VP-margin reward", PlanAgent,
        (*_BUDGET,
         _plan("c", "UCT exploration constant"),
         _plan("noise", "uniform noise added to the playout policy's scores, in VP"),
         _plan("eps", "probability of a uniformly random playout move"),
         _plan("widen", "progressive widening: a node tries at most 2 + widen * "
               "sqrt(visits) actions"),
         _plan("margin", "weight of the VP margin in the reward of a civilian victory"),
         _plan("bias", "progressive bias: weight of the policy's score in the tree, fading "
               "as 1 / (visits + 1)"),
         _plan("value", "weight of the learned evaluator at a leaf (0: playouts only, 1: the "
               "evaluator alone)"),
         _plan("horizon", "playout moves before the learned evaluator (when value > 0)",
               make=int_option),
         _plan("deny", "weight of taking a card the opponent needs, in the playout policy"),
         _plan("rmix", "share of playouts played uniformly at random instead of by the "
               "policy"),
         choice_option("policy", _search.PLAYOUT_POLICIES, _PLAN["policy"],
                       "playout policy of turns: hand-set scores, or the softmax fitted to "
                       "the search's choices (duelcore/duel/policy_weights.npz)"),
         _plan("temp", "temperature of the fitted playout policy (policy=fitted only)"),
         _plan("mast", "weight of the move averages (MAST): the playouts favour the builds, "
               "discards and wonders that have done well in this search (policy=fitted "
               "only)"),
         _plan("science", "logit added in the playouts to a build that gives a new science "
               "symbol (policy=fitted only)"),
         _plan("puct", "PUCT-style prior term in the tree's selection: puct * the policy's "
               "prior * sqrt(times available) / (visits + 1)"),
         _text_option("weights", "the fitted policy's weights: a shipped set by name ("
                      + ", ".join(_search.NAMED_POLICY_WEIGHTS) + ") or the path of an .npz "
                      "file (policy=fitted only; default: the shipped default)",
                      "a name or the path of an .npz file"),
         *_TREES),
        conflicts=(("iterations", "seconds"),),
        example="plan:seconds=0.5"),
}


def spec_keys(text: str) -> list[str]:
    """The option keys written in an agent description ``name:key=value,...`` (lower case)."""
    _, _, rest = text.partition(":")
    return [p.partition("=")[0].strip().lower() for p in rest.split(",") if p.strip()]


def with_option(text: str, key: str, value) -> str:
    """The description ``text`` with ``key=value`` added."""
    text = text.strip()
    name, colon, rest = text.partition(":")
    rest = rest.strip().strip(",")
    return f"{name}:{rest + ',' if rest else ''}{key}={value}"


def decision_cost(agent) -> float:
    """Rough seconds of one core per decision of ``agent`` (for chunk sizes)."""
    seconds = getattr(agent, "seconds", None)
    if isinstance(seconds, (int, float)) and seconds > 0:
        return float(seconds)
    iterations = getattr(agent, "iterations", None)
    if isinstance(iterations, int) and iterations > 0:
        return iterations / 100_000 * (3 if getattr(agent, "rollout", "") == "greedy" else 1)
    if getattr(agent, "kind", None) in ("random", "greedy"):
        return 3e-6
    return 0.01


def parse_agent(text: str) -> Agent:
    """Make an agent from its description: ``random``, ``greedy``,
    ``mcts:iterations=2000,c=1.4`` (the kinds and their options are in :data:`AGENT_KINDS`;
    ``duel agents`` lists them with their defaults).

    Raises
    ------
    AgentSpecError
        One line naming the problem: an unknown agent or option (with close matches), an
        empty part (``mcts:``, ``mcts:iterations=10,,``), an option given twice, options
        that exclude each other (iterations and seconds), a value of the wrong type or out
        of range (``seconds=-1``, ``c=nan``).
    """
    kind, options = parse_spec(text, AGENT_KINDS, "agent", AgentSpecError)
    return kind.make(**options)
