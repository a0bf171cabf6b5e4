"""An agent's decision made in a worker thread, with a live view of an MCTS search.

``duel play`` shows "thinking…" with the iterations so far and the move the search prefers
while the opponent searches.  The decision itself is exactly the agent's normal one
(``agent.select_action(state)``, run in a worker thread, so Ctrl-C is seen at once by the
main thread).  The live view comes from a second thread that runs the *same* search (the
same seed, so the same samples and the same tree) for its first k iterations, k = 2,000,
4,000, 8,000 … below the budget: MCTS with a given seed is deterministic and iteration k does
not depend on the budget, so that view is the real search's state after k iterations.  The
view costs a second core while the agent thinks and never changes the decision.

:meth:`Thinking.stop` sets the core's stop flag (``duelcore.search.interrupt``), so both
threads end within milliseconds; a core without the flag lets the worker finish in the
background (it is a daemon thread).
"""
from __future__ import annotations

import os
import threading
import time

from duelcore import search

from duelpy.duel.agents import MCTSAgent, _next64
from duelpy.base.interrupt import clear_core, stop_core

__all__ = ["Thinking"]

#: First sample of the live view (iterations); it doubles after each.
FIRST_SAMPLE = 2000


class Thinking:
    """``agent.select_action(state)`` in a daemon thread, with :meth:`progress`.

    Parameters
    ----------
    agent : duelpy.Agent
        The player to move's agent (its RNG advances exactly as if called directly).
    state : duelcore.State
        A decision node (copied).
    view : bool
        Run the live view's second search (MCTS agents only, and only with more than one
        CPU).
    call : callable, optional
        What the worker runs instead of ``agent.select_action`` (e.g. ``agent.search``);
        :meth:`result` returns what it returns.
    """

    def __init__(self, agent, state, view: bool = True, call=None):
        self.agent = agent
        self.call = call or agent.select_action
        self.state = state.clone()
        self.t0: float | None = None
        self._action = None
        self._error = None
        self._done = threading.Event()
        self._stop = threading.Event()
        self.sample = None          # (iterations, search result) of the live view
        self.rate = None            # iterations / s of one tree, measured by the view
        self.budget = None          # total iterations of the decision, if fixed
        self.threads = 1
        self._shown = 0             # the iterations last reported (never shown going back)
        self._view = None
        if isinstance(agent, MCTSAgent) and len(self.state.legal_actions()) > 1:
            self.threads = agent.threads
            if agent.iterations is not None:
                self.budget = agent.iterations
            per_tree = None if self.budget is None else -(-self.budget // self.threads)
            if view and (os.cpu_count() or 1) > 1 and (per_tree is None
                                                      or per_tree > FIRST_SAMPLE):
                _, seed = _next64(agent._rng)           # the first tree's seed
                self._view = threading.Thread(target=self._run_view, args=(seed, per_tree),
                                              daemon=True, name="duel-thinking-view")
        self._worker = threading.Thread(target=self._run, daemon=True, name="duel-thinking")

    def start(self) -> "Thinking":
        clear_core()
        self.t0 = time.perf_counter()
        self._worker.start()
        if self._view is not None:
            self._view.start()
        return self

    def _run(self):
        try:
            self._action = self.call(self.state)
        except BaseException as e:          # noqa: BLE001 - handed to the caller
            self._error = e
        finally:
            self._done.set()

    def _run_view(self, seed, per_tree):
        a = self.agent
        options = a._search_options() if hasattr(a, "_search_options") else \
            {"c": a.c, "rollout": a.rollout}              # the agent's own kind of search
        k = FIRST_SAMPLE
        run, spent = 0, 0.0
        while not (self._done.is_set() or self._stop.is_set()):
            if per_tree is not None and k >= per_tree:
                return
            t = time.perf_counter()
            try:
                res = search.mcts_search(self.state, iterations=k, max_nodes=0, seed=seed,
                                         **options)
            except BaseException:           # noqa: BLE001 - stopped, or the view is moot
                return
            dt = time.perf_counter() - t
            if self._done.is_set() or self._stop.is_set():
                return
            self.sample = (k, res)
            run, spent = run + k, spent + dt
            self.rate = run / max(spent, 1e-9)          # iterations / s of one tree so far
            k *= 2

    # ---- the caller's side
    @property
    def seconds(self) -> float:
        return 0.0 if self.t0 is None else time.perf_counter() - self.t0

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds; True once the decision is made."""
        return self._done.wait(timeout)

    def done(self) -> bool:
        return self._done.is_set()

    def result(self):
        """The action, or what ``call`` returned (after :meth:`wait` returned True); raises
        the agent's error."""
        if self._error is not None:
            raise self._error
        return self._action

    def progress(self) -> dict:
        """What the search has done so far.

        Returns ``{"seconds": float, "iterations": int or None (an estimate from the view's
        rate, capped at the budget and never going back), "budget": int or None, "best":
        the most visited root action after ``sample`` iterations (exact: the real search's
        choice at that point) or None, "share": its fraction of the visits, "sample"}``.
        """
        out = {"seconds": self.seconds, "iterations": None, "budget": self.budget,
               "best": None, "share": None, "sample": None}
        if self.rate:
            est = max(int(self.rate * self.seconds * self.threads), self._shown)
            self._shown = est = min(est, self.budget) if self.budget else est
            out["iterations"] = est
        if self.sample is not None:
            k, res = self.sample
            if res["actions"]:
                i = max(range(len(res["actions"])),
                        key=lambda j: (res["visits"][j], res["values"][j], -res["actions"][j]))
                out["best"] = res["actions"][i]
                out["share"] = res["visits"][i] / max(1, sum(res["visits"]))
                out["sample"] = k
        return out

    def stop(self, wait: float = 1.0) -> None:
        """Stop the search (the core's stop flag) and wait up to ``wait`` seconds for it."""
        self._stop.set()
        stop_core()
        self._done.wait(wait)
        if self._view is not None:
            self._view.join(max(0.0, wait))
        clear_core()
