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

from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
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


class raw_env(AECEnv):
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
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
            raise ValueError(f"players must be 2 to 7, not {players!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        for key in rule_options:
            if key not in RULE_OPTIONS:
                raise ValueError(f"unknown rule option {key!r}; options: "
                                 f"{', '.join(RULE_OPTIONS)}")
        try:
            _core.new_state(players, 0, **rule_options)
        except TypeError as e:
            raise ValueError(str(e)) from None
        self.render_mode = render_mode
        self.players = players
        self.rule_options = dict(rule_options)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        size = _spiel.observation_size(players)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1e4, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_DECISION_ACTIONS,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_DECISION_ACTIONS)
                              for a in self.possible_agents}
        self._np_random: Any = None
        self._state: Any = None             # the core State of the game under way

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def game_state(self) -> _core.State:
        """A copy of the position (for duelpy's agents, records, rendering).  It holds the
        game's own chance RNG and the central top: do not show it to a player."""
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
        self._state = _core.new_state(self.players, game_seed, **self.rule_options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player()]

    def observe(self, agent: str) -> dict:
        p = self.possible_agents.index(agent)
        mask = np.zeros(NUM_DECISION_ACTIONS, np.int8)
        if not self._state.is_terminal() and self._state.current_player() == p:
            mask[self._state.legal_actions()] = 1
        return {"observation": _spiel.observation(self._state, p), "action_mask": mask}

    def step(self, action) -> None:
        """Play ``action`` for :attr:`agent_selection` (None once the agent's game is over).

        Raises
        ------
        TypeError
            If ``action`` is not an integer (None is only for an agent whose game is over).
        IllegalActionError
            If the action is not legal now, naming it; the game is left unchanged.
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
            raise _core.IllegalActionError(f"action {action} is out of range: actions are "
                                           f"0..{NUM_DECISION_ACTIONS - 1}")
        self._state.apply_action(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self._state.is_terminal():
            for a, r in zip(self.possible_agents, self._state.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            # the next seat sees the end first, then the others in table order
            i = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(i + 1) % self.players]
        else:
            self.agent_selection = self.possible_agents[self._state.current_player()]
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
