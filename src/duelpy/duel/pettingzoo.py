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

from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
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


class raw_env(AECEnv):
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
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        for key in rule_options:
            if key not in RULE_OPTIONS:
                raise ValueError(f"unknown rule option {key!r}; options: "
                                 f"{', '.join(RULE_OPTIONS)}")
        try:
            duelcore.new_game(0, **rule_options)
        except TypeError as e:
            raise ValueError(str(e)) from None
        self.render_mode = render_mode
        self.rule_options = dict(rule_options)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        low, high = _observation_bounds()
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_DECISION_ACTIONS,), dtype=np.int8),
            }) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_DECISION_ACTIONS) for a in AGENTS}
        self._np_random: Any = None
        self._state: Any = None             # the duelcore.State of the game under way

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def game_state(self) -> duelcore.State:
        """A copy of the position (a :class:`duelcore.State`: for duelpy's agents, records,
        rendering).  It holds the game's own chance RNG: do not show it to a player."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state.clone()

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game.  ``seed`` seeds the environment's RNG (a new game seed is drawn
        from it at each reset); without it the RNG goes on (or is seeded from the OS the first
        time).  ``options`` is accepted for the API's sake and not used (rule options are
        given to :func:`env`)."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2 ** 63))
        self._state = duelcore.new_game(game_seed, **self.rule_options)
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self._state.current_player()]

    def observe(self, agent: str) -> dict:
        p = AGENTS.index(agent)
        mask = np.zeros(NUM_DECISION_ACTIONS, np.int8)
        if not self._state.is_terminal() and self._state.current_player() == p:
            mask[self._state.legal_actions()] = 1
        return {"observation": self._state.observation_tensor(p), "action_mask": mask}

    def step(self, action) -> None:
        """Play ``action`` for :attr:`agent_selection` (None once the agent's game is over).

        Raises
        ------
        TypeError
            If ``action`` is not an integer (None is only for an agent whose game is over).
        duelcore.IllegalActionError
            If the action is not legal now, naming the reason; the game is left unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"{agent} is to move: an action is an integer, not {action!r} "
                            f"(None is only for an agent whose game is over)")
        action = int(action)
        if not 0 <= action < NUM_DECISION_ACTIONS:
            raise duelcore.IllegalActionError(action, f"out of range: actions are "
                                                      f"0..{NUM_DECISION_ACTIONS - 1}")
        self._state.apply_action(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self._state.is_terminal():
            for a, r in zip(AGENTS, self._state.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            # the other agent sees the end first, then this one
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self._state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``); None (with a warning) without a
        render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        return render_text(self._state)

    def close(self) -> None:
        pass
