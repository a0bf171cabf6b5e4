"""The PettingZoo AEC environment of a game whose core state is sequential with chance sampled
inside (Duel: :mod:`duelpy.duel.pettingzoo`; Architects: :mod:`duelpy.architects.pettingzoo`).

:class:`CoreAECEnv` holds one core state and speaks PettingZoo's AEC API: agents
``"player_0"`` .. ``"player_{N-1}"`` (the core's seats), ``Discrete(num_actions)`` actions, a
``{"observation", "action_mask"}`` observation, the core's ``returns()`` as the terminal
rewards.  A game's subclass says how to make a state, observe it, render it and name an
illegal action; everything about the rules is the core's.  Needs the ``interop`` extra
(pettingzoo, gymnasium).
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

__all__ = ["CoreAECEnv", "check_env_setup"]


def check_env_setup(players: int, rule_options: dict, allowed, make) -> None:
    """Check an environment's ``players`` (2..7) and ``rule_options`` (names in ``allowed``;
    ``make(players, **rule_options)`` makes a state from them).

    Raises
    ------
    ValueError
        Naming the bad player count, the unknown option or the bad value.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
        raise ValueError(f"players must be 2 to 7, not {players!r}")
    for key in rule_options:
        if key not in allowed:
            raise ValueError(f"unknown rule option {key!r}; options: {', '.join(allowed)}")
    try:
        make(players, **rule_options)
    except TypeError as e:
        raise ValueError(str(e)) from None


class CoreAECEnv(AECEnv):
    """An AEC environment over a core state (see the module docstring).

    Subclasses set :attr:`metadata` and call ``super().__init__(players, num_actions,
    observation_space, render_mode)``, and define :meth:`_new_state`, :meth:`_observation`,
    :meth:`_render` and :meth:`_out_of_range`.
    """

    def __init__(self, players: int, num_actions: int, observation_box: spaces.Box,
                 render_mode: str | None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.num_actions = num_actions
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": observation_box,
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._np_random: Any = None
        self._state: Any = None             # the core state of the game under way

    # ---- what a game says
    def _new_state(self, seed: int) -> Any:
        """A new core state (chance sampled inside) from the game seed ``seed``."""
        raise TypeError(f"{type(self).__name__} must define _new_state (a hook of the base)")

    def _observation(self, seat: int) -> np.ndarray:
        """What ``seat`` observes of :attr:`_state`, as the observation box's vector."""
        raise TypeError(f"{type(self).__name__} must define _observation (a hook of the base)")

    def _render(self) -> str:
        """:attr:`_state` drawn as text."""
        raise TypeError(f"{type(self).__name__} must define _render (a hook of the base)")

    def _out_of_range(self, action: int) -> Exception:
        """The error for an action id outside ``0 .. num_actions - 1``."""
        raise TypeError(f"{type(self).__name__} must define _out_of_range (a hook of the base)")

    def _to_move(self) -> int:
        """The agent (player index) to decide now (the state is not over)."""
        return self._state.current_player()

    def _legal(self) -> list[int]:
        """The legal actions of the agent to decide now."""
        return self._state.legal_actions()

    def _apply(self, action: int) -> None:
        """Apply the decision ``action`` of the agent to decide now."""
        self._state.apply_action(action)

    # ---- PettingZoo's API
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def game_state(self) -> Any:
        """A copy of the position (for duelpy's agents, records, rendering).  It holds the
        game's own chance RNG and every seat's private information: do not show it to a
        player.

        Raises
        ------
        RuntimeError
            Before the first :meth:`reset`.
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state.clone()

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game.  ``seed`` seeds the environment's RNG (a new game seed is drawn
        from it at each reset); without it the RNG goes on (or is seeded from the OS the first
        time).  ``options`` is accepted for the API's sake and not used (rule options are
        given when the environment is made)."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2 ** 63))
        self._state = self._new_state(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._to_move()]

    def observe(self, agent: str) -> dict:
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.num_actions, np.int8)
        if not self._state.is_terminal() and self._to_move() == p:
            mask[self._legal()] = 1
        return {"observation": self._observation(p), "action_mask": mask}

    def step(self, action) -> None:
        """Play ``action`` for :attr:`agent_selection` (None once the agent's game is over).

        Raises
        ------
        TypeError
            If ``action`` is not an integer (None is only for an agent whose game is over).
        IllegalActionError
            The core's, if the action is not legal now (naming it); the game is left
            unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"{agent} is to move: an action is an integer, not {action!r} "
                            f"(None is only for an agent whose game is over)")
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise self._out_of_range(action)
        self._apply(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self._state.is_terminal():
            for a, r in zip(self.possible_agents, self._state.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            # the next seat sees the end first, then the others in table order
            i = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(i + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self._to_move()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``); None (with a warning) without a
        render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        return self._render()

    def close(self) -> None:
        pass
