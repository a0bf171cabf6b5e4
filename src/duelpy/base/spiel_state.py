"""What the OpenSpiel states of the games share (:mod:`duelpy.duel.openspiel`,
:mod:`duelpy.architects.openspiel`): a ``pyspiel.State`` holding one core state ``_s`` whose
``current_player``, ``is_chance_node``, ``is_terminal`` and ``returns`` are OpenSpiel's own
conventions, with the Python-side fast paths (no round trip through C++) and the checks of an
applied action.  Needs the ``interop`` extra (open-spiel)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

__all__ = ["CoreSpielState"]


class CoreSpielState(pyspiel.State):
    """A ``pyspiel.State`` over the core state ``_s`` (see the module docstring).

    OpenSpiel numbers decisions ``0 .. CHANCE_OFFSET - 1`` (the core's decision ids) and
    chance outcomes ``0 .. NUM_CHANCE_OUTCOMES - 1`` (outcome k is the core's action
    ``CHANCE_OFFSET + k``).  A game's subclass sets those two and defines :meth:`_illegal`
    (its core's error for an action id out of range) and :meth:`_action_text` (the core's
    name of an action id)."""

    _s: Any
    CHANCE_OFFSET: int = 0
    NUM_CHANCE_OUTCOMES: int = 0

    def _illegal(self, action: int, reason: str) -> Exception:
        raise TypeError(f"{type(self).__name__} must define _illegal (a hook of the base)")

    def _action_text(self, core_action: int) -> str:
        raise TypeError(f"{type(self).__name__} must define _action_text (a hook of the base)")

    # ---- the methods OpenSpiel's C++ side calls
    def current_player(self) -> int:
        return self._s.current_player()

    def _legal_actions(self, player):
        return self._s.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability), ...]`` at a chance node, else ``[]``; outcome k is the
        core's action ``CHANCE_OFFSET + k``."""
        off = self.CHANCE_OFFSET
        return [(a - off, p) for a, p in self._s.chance_outcomes()]

    def _apply_action(self, action):
        off, n = self.CHANCE_OFFSET, self.NUM_CHANCE_OUTCOMES
        if not self._s.is_chance_node():
            if action >= off:
                raise self._illegal(action, f"out of range: actions are 0..{off - 1}")
            self._s.apply_action(action)
            return
        if not 0 <= action < n:
            raise self._illegal(action, f"out of range: chance outcomes are 0..{n - 1}")
        self._apply_chance(action)

    def _apply_chance(self, outcome: int) -> None:
        """Apply the chance outcome ``outcome`` (in range) to the core state."""
        self._s.apply_action(outcome + self.CHANCE_OFFSET)

    def _action_to_string(self, player, action):
        off, n = self.CHANCE_OFFSET, self.NUM_CHANCE_OUTCOMES
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < n:
                raise ValueError(f"chance outcome {action} is out of range [0, {n})")
            return self._action_text(action + off)
        if not 0 <= action < off:
            raise ValueError(f"action {action} is out of range [0, {off})")
        return self._action_text(action)

    def is_terminal(self) -> bool:
        return self._s.is_terminal()

    def is_chance_node(self) -> bool:
        return self._s.is_chance_node()

    def is_player_node(self) -> bool:
        return self._s.current_player() >= 0

    def returns(self) -> list[float]:
        """The core's returns: 0 for everyone before the end."""
        return self._s.returns()

    def rewards(self) -> list[float]:
        """Terminal rewards: the returns, paid when the game ends."""
        return self._s.returns()

    def apply_action(self, action) -> None:
        """Apply a decision (or at a chance node a chance outcome) and add it to the history.

        Raises
        ------
        TypeError
            If ``action`` is not an integer.
        IllegalActionError
            The core's, if it is not legal here; the state and its history are left
            unchanged.
        """
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an integer, not {action!r}")
        if action < 0:
            raise self._illegal(int(action), "out of range: actions and chance outcomes are "
                                             "not negative")
        pyspiel.State.apply_action(self, int(action))

    def __deepcopy__(self, memo):
        return self.clone()

    def __copy__(self):
        return self.clone()

    def core(self) -> Any:
        """A copy of the core state (for duelpy's agents, rendering and records)."""
        return self._s.clone()
