"""7 Wonders Architects as a PettingZoo AEC environment: ``duelpy.architects.pettingzoo.env()``.

N agents, ``"player_0"`` .. ``"player_{N-1}"`` (seats in table order, 2 <= N <= 7), take turns
in the canonical order of the core (A-ORDER): a seat with extra picks, a science set, a token
or a wonder stage to settle is selected again.  Chance (the wonders dealt, each deck's new top,
a central draw, a cat holder's look, a token, a Halicarnassus window) is sampled inside the
environment from its seeded RNG: ``reset(seed=s)`` then the same actions give the same game.

- **Actions**: ``Discrete(NUM_DECISION_ACTIONS)``, the core's decision ids
  (``duelcore.architects.engine.action_to_string(a)`` names one).
- **Observations**: ``{"observation": float32 (observation_size(N),), "action_mask": int8
  (NUM_DECISION_ACTIONS,)}``.  The observation is
  :func:`duelpy.architects.spiel.observation` for that seat: the public state, the central top
  if the seat looked at it as cat holder (A-INFO-2), its own Halicarnassus window (A-INFO-3);
  the mask is 1 at the legal actions of the agent to move, all zeros for the others.
- **Rewards**: at the end, 1/k to each of k winners and 0 to the others (A-END-4); 0 before.
  The game always ends (no truncation).
- **Rendering**: ``render_mode="ansi"`` returns :func:`duelpy.architects.render.render_text`
  of the position (every seat's information: a spectator's view).

Rule options are ``new_state``'s keyword arguments (:data:`RULE_OPTIONS`: the A-OPT options,
``wonders``, ``removed_tokens``).  An illegal action raises
:class:`~duelcore.architects.engine.IllegalActionError` naming it, and leaves the game
unchanged.
"""
from __future__ import annotations

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from duelpy.base.aec import CoreAECEnv, check_env_setup
except ImportError as e:                            # pragma: no cover - depends on the install
    raise ImportError("duelpy.architects.pettingzoo needs PettingZoo: pip install "
                      "'duel[interop]' (or pip install pettingzoo gymnasium)") from e

import numpy as np

from duelcore.architects import engine as _core
from duelpy.architects import spiel as _spiel
from duelpy.architects.render import render_text

__all__ = ["env", "raw_env", "NUM_DECISION_ACTIONS", "RULE_OPTIONS"]

NUM_DECISION_ACTIONS = _core.NUM_DECISION_ACTIONS
#: the keyword arguments of new_state an environment accepts (besides ``players``)
RULE_OPTIONS = tuple(_core.RULE_DEFAULTS) + ("wonders", "removed_tokens")


def env(players: int = 2, render_mode: str | None = None, **rule_options) -> AECEnv:
    """The environment in PettingZoo's order-enforcing wrapper (``reset`` must come first).
    See :class:`raw_env`."""
    return wrappers.OrderEnforcingWrapper(raw_env(players, render_mode=render_mode,
                                                  **rule_options))


class raw_env(CoreAECEnv):
    """7 Wonders Architects, AEC API (see the module docstring).

    Parameters
    ----------
    players : int
        2 to 7.
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the position drawn as text.
    **rule_options
        Keyword arguments of ``new_state`` (:data:`RULE_OPTIONS`).

    Raises
    ------
    ValueError
        For players outside 2..7, an unknown render mode or rule option, or a bad option
        value (naming it).
    """

    metadata = {"render_modes": ["ansi"], "name": "architects_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, render_mode: str | None = None, **rule_options):
        check_env_setup(players, rule_options, RULE_OPTIONS, _core.new_state)
        box = spaces.Box(0.0, 1e4, (_spiel.observation_size(players),), dtype=np.float32)
        super().__init__(players, NUM_DECISION_ACTIONS, box, render_mode)
        self.players = players
        self.rule_options = dict(rule_options)

    def _new_state(self, seed: int) -> _core.State:
        return _core.new_state(self.players, seed, **self.rule_options)

    def _observation(self, seat: int) -> np.ndarray:
        return _spiel.observation(self._state, seat)

    def _render(self) -> str:
        return render_text(self._state)

    def _out_of_range(self, action: int) -> Exception:
        return _core.IllegalActionError(f"action {action} is out of range: actions are "
                                        f"0..{NUM_DECISION_ACTIONS - 1}")
