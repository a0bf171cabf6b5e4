"""7 Wonders Duel as a PettingZoo AEC environment: ``duelpy.duel.pettingzoo.env()``.

Two agents, ``"player_0"`` (P1) and ``"player_1"`` (P2), take turns; a player with Play Again
(R-WONDER-2) is selected twice in a row, and so is a player who must choose a progress token,
a card to destroy or to revive after their own move.  Chance (cards turned face up, the draft's
wonders, tokens, guild backs, the Great Library draw) is sampled inside the environment from its
seeded RNG: ``reset(seed=s)`` then the same actions give the same game.

- **Actions**: ``Discrete(NUM_DECISION_ACTIONS)``, the core's decision ids (the README's action
  table; ``duelpy.action_name(a)`` names one).
- **Observations**: ``{"observation": float32 (OBSERVATION_SIZE,), "action_mask": int8
  (NUM_DECISION_ACTIONS,)}``.  The observation is :func:`duelpy.observation_tensor` for that
  player (public information, and The Great Library's draw for the player choosing from it,
  R-CHANCE-1/2); the mask is 1 at the legal actions of the agent to move, all zeros for the
  other agent.
- **Rewards**: at the end, +1 to the winner and -1 to the loser (0 each for a shared victory);
  0 before.  The game always ends (no truncation).
- **Rendering**: ``render_mode="ansi"`` returns :func:`duelpy.render_text` of the position.

Rule options are :func:`duelcore.new_game`'s keyword arguments (``centred_pawn``,
``first_game_wonders``, ``start_coins``, ``first_player``, ``banned_tokens``,
``forced_wonders``).  An illegal action raises :class:`duelcore.IllegalActionError` naming the
action and the reason, and leaves the game unchanged.
"""
from __future__ import annotations

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from duelpy.base.aec import CoreAECEnv
except ImportError as e:                            # pragma: no cover - depends on the install
    raise ImportError("duelpy.duel.pettingzoo needs PettingZoo: pip install 'duel[interop]' "
                      "(or pip install pettingzoo gymnasium)") from e

import numpy as np

import duelcore
from duelcore import ACTION_LAYOUT
from duelpy.duel import spiel as _spiel
from duelpy.duel.render import render_text

__all__ = ["env", "raw_env", "NUM_DECISION_ACTIONS", "RULE_OPTIONS"]

NUM_DECISION_ACTIONS = ACTION_LAYOUT["NUM_DECISION_ACTIONS"]
#: the keyword arguments of duelcore.new_game an environment accepts
RULE_OPTIONS = ("centred_pawn", "first_game_wonders", "start_coins", "first_player",
                "banned_tokens", "forced_wonders")
AGENTS = ("player_0", "player_1")


def _observation_bounds():
    """Bounds of each entry of the observation vector: 0..1 except the coins (coins / 10,
    bounded by 1e4), the Conflict pawn (-1..1) and the science symbols (count / 2, below 10)."""
    low = np.zeros(_spiel.OBSERVATION_SIZE, np.float32)
    high = np.ones(_spiel.OBSERVATION_SIZE, np.float32)
    start = 0
    for name, size in _spiel._BLOCKS:
        if name == "coins":
            high[start:start + size] = 1e4
        elif name == "pawn":
            low[start:start + size] = -1.0
        elif name == "symbols":
            high[start:start + size] = 10.0
        start += size
    return low, high


def env(render_mode: str | None = None, **rule_options) -> AECEnv:
    """The environment in PettingZoo's order-enforcing wrapper (``reset`` must come first).
    See :class:`raw_env`."""
    return wrappers.OrderEnforcingWrapper(raw_env(render_mode=render_mode, **rule_options))


class raw_env(CoreAECEnv):
    """7 Wonders Duel, AEC API (see the module docstring).

    Parameters
    ----------
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the position drawn as text.
    **rule_options
        Keyword arguments of :func:`duelcore.new_game` (:data:`RULE_OPTIONS`).

    Raises
    ------
    ValueError
        For an unknown render mode or rule option, or a bad option value (naming it).
    """

    metadata = {"render_modes": ["ansi"], "name": "duel_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **rule_options):
        for key in rule_options:
            if key not in RULE_OPTIONS:
                raise ValueError(f"unknown rule option {key!r}; options: "
                                 f"{', '.join(RULE_OPTIONS)}")
        try:
            duelcore.new_game(0, **rule_options)
        except TypeError as e:
            raise ValueError(str(e)) from None
        low, high = _observation_bounds()
        super().__init__(len(AGENTS), NUM_DECISION_ACTIONS,
                         spaces.Box(low, high, dtype=np.float32), render_mode)
        self.rule_options = dict(rule_options)

    def _new_state(self, seed: int) -> duelcore.State:
        return duelcore.new_game(seed, **self.rule_options)

    def _observation(self, seat: int) -> np.ndarray:
        return self._state.observation_tensor(seat)

    def _render(self) -> str:
        return render_text(self._state)

    def _out_of_range(self, action: int) -> Exception:
        return duelcore.IllegalActionError(action, f"out of range: actions are "
                                                   f"0..{NUM_DECISION_ACTIONS - 1}")
