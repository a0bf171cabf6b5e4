"""7 Wonders Architects as an OpenSpiel game: ``import duelpy.architects.openspiel`` registers
``"architects"``.

After the import, ``pyspiel.load_game("architects")`` (or ``"architects(players=4)"``, or
``pyspiel.load_game("architects", {"players": 7, "free_order": True})``) returns an
:class:`ArchitectsGame`, so OpenSpiel's algorithms, bots and tests run on it.  The game is
declared as it is: sequential, 2 to 7 players, explicit stochastic chance (every draw of
A-CHANCE-1 is a chance node with its exact probabilities: the wonders dealt, each deck's new
top, a card taken from the central deck, a cat holder's look, a token drawn, a Halicarnassus
window), imperfect information (A-INFO), constant-sum terminal rewards: 1/k to each of k
winners, 0 to the others (A-END-4).

Each state holds one 480-byte core state (:class:`duelcore.architects.engine.State`); the
rules are the core's.

**Game parameters** (pyspiel parameters are bool, int or str):

==============================  =======  ===================================================
parameter                       default  meaning
==============================  =======  ===================================================
``players``                     2        2 to 7
``wonders``                     ""       one wonder per seat, names joined by ";" (e.g.
                                         "Giza;Rhodes"; an empty entry, "Giza;", leaves
                                         that seat's at random); "" deals them all at
                                         random (a chance node, A-SETUP-2)
``removed_tokens``              ""       progress tokens left out of the game, joined by ";"
``free_order``, ...             (A-OPT)  the rule options of A-OPT, as booleans:
                                         ``free_order``, ``economy_forces_build``,
                                         ``engineering_once_per_turn``,
                                         ``coins_only_when_needed``, ``wonder_power_optional``
==============================  =======  ===================================================

**Actions.** Decisions are the core's action ids ``0 .. NUM_DECISION_ACTIONS - 1`` (see
``duelcore.architects.engine.ACTION_LAYOUT``); chance outcome k is the core's action
``NUM_DECISION_ACTIONS + k``.

**Information** (the rules digest's information model): the information state of a seat is
the public state plus the central top if that seat looked at it as cat holder (A-INFO-2), plus
its own Halicarnassus window while it keeps a card (A-INFO-3); deck orders are never in the
state, so perfect recall adds nothing and the observation and the information state are the
same (:mod:`duelpy.architects.spiel`).  Strings are that view as compact JSON, tensors its
:func:`~duelpy.architects.spiel.observation` vector.

**Bad input.** An unknown parameter raises ``pyspiel.SpielError`` from ``pyspiel.load_game``
and ``ValueError`` from :class:`ArchitectsGame`; a bad value raises ``ValueError`` naming it;
an illegal action raises :class:`~duelcore.architects.engine.IllegalActionError` and leaves the
state (and its history) unchanged.
"""
from __future__ import annotations

import difflib
import json
import re

try:
    import pyspiel
except ImportError as e:                            # pragma: no cover - depends on the install
    raise ImportError("duelpy.architects.openspiel needs OpenSpiel: pip install "
                      "'duel[interop]' (or pip install open-spiel)") from e

import numpy as np

from duelcore.architects import engine as _core
from duelpy.architects import spiel as _spiel
from duelpy.base.spiel_state import CoreSpielState

__all__ = ["ArchitectsGame", "ArchitectsState", "ArchitectsObserver", "GAME_TYPE",
           "DEFAULT_PARAMS", "game_info", "rule_options", "max_game_length",
           "max_chance_nodes"]

SHORT_NAME = "architects"
NUM_DECISIONS = _core.NUM_DECISION_ACTIONS
NUM_CHANCE_OUTCOMES = _core.NUM_ACTIONS - NUM_DECISIONS

#: pyspiel parameters and their defaults (see the module docstring)
DEFAULT_PARAMS: dict = {"players": 2, "wonders": "", "removed_tokens": "",
                        **{k: bool(v) for k, v in _core.RULE_DEFAULTS.items()}}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="7 Wonders Architects",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
    default_loadable=True,
    provides_factored_observation_string=False,
)


def max_game_length(players: int) -> int:
    """An upper bound on the decisions of a game of ``players`` seats: 100 per seat, a wide
    margin over the longest of 300 uniformly random games (92 decisions at 2 players, 219 at
    7; random play is the slowest to finish a wonder)."""
    return 100 * players


def max_chance_nodes(players: int) -> int:
    """An upper bound on the chance nodes of a game (100 per seat; the longest of 300 random
    games had 99 at 2 players and 238 at 7)."""
    return 100 * players


def game_info(players: int) -> "pyspiel.GameInfo":
    """OpenSpiel's GameInfo of a game of ``players`` seats."""
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_DECISIONS,
        max_chance_outcomes=NUM_CHANCE_OUTCOMES,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=max_game_length(players),
    )


def _close(word: str, names) -> str:
    close = difflib.get_close_matches(word, list(names), n=3, cutoff=0.5)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _names(text: str) -> list[str]:
    return [t.strip() for t in re.split(r"[;,]", text) if t.strip()]


def rule_options(params: dict | None) -> tuple[int, dict]:
    """``(players, keyword options of new_state)`` for pyspiel ``params`` (missing ones take
    :data:`DEFAULT_PARAMS`).

    Raises
    ------
    ValueError
        For an unknown parameter (with the close names), a value of the wrong type, players
        outside 2..7, an unknown wonder or token name, or a wonder list of the wrong length,
        naming the parameter.
    """
    params = {**DEFAULT_PARAMS, **(params or {})}
    for key in params:
        if key not in DEFAULT_PARAMS:
            raise ValueError(f"unknown architects game parameter {key!r}"
                             f"{_close(key, DEFAULT_PARAMS)}; parameters: "
                             f"{', '.join(DEFAULT_PARAMS)}")
    for key, default in DEFAULT_PARAMS.items():
        if type(params[key]) is not type(default):
            raise ValueError(f"architects game parameter {key} must be a "
                             f"{type(default).__name__}, not {params[key]!r}")
    players = params["players"]
    if not 2 <= players <= 7:
        raise ValueError(f"architects game parameter players must be 2 to 7, not {players}")
    options: dict = {k: params[k] for k in _core.RULE_DEFAULTS}
    if params["wonders"].strip():
        wonders = [w.strip() or None for w in params["wonders"].split(";")]
        if len(wonders) != players:
            raise ValueError(f"architects game parameter wonders has {len(wonders)} "
                             f"entries for {players} players (one per seat, joined by ';'; "
                             f"an empty entry: that seat's wonder at random)")
        for w in wonders:
            if w is not None and w not in _core.WONDERS:
                raise ValueError(f"architects game parameter wonders: unknown wonder {w!r}"
                                 f"{_close(w, _core.WONDERS)}; the wonders: "
                                 f"{', '.join(_core.WONDERS)}")
        options["wonders"] = wonders
    removed = _names(params["removed_tokens"])
    for t in removed:
        if t not in _core.TOKENS:
            raise ValueError(f"architects game parameter removed_tokens: unknown progress "
                             f"token {t!r}"
                             f"{_close(t, _core.TOKENS) or '; the tokens: ' + ', '.join(_core.TOKENS)}")
    if removed:
        options["removed_tokens"] = removed
    try:
        _core.new_state(players, 0, explicit_chance=True, **options)
    except (TypeError, ValueError) as e:
        raise ValueError(f"architects game parameters: {e}") from None
    return players, options


class ArchitectsGame(pyspiel.Game):
    """7 Wonders Architects for OpenSpiel.  Made by ``pyspiel.load_game("architects",
    params)`` (after ``import duelpy.architects.openspiel``) or ``ArchitectsGame(params)``.

    Raises
    ------
    ValueError
        For an unknown parameter or a bad value (see :func:`rule_options`).
    """

    def __init__(self, params: dict | None = None):
        players, options = rule_options(params)
        super().__init__(GAME_TYPE, game_info(players), {**DEFAULT_PARAMS, **(params or {})})
        self._players = players
        self._options = options
        self._initial = _core.new_state(players, 0, explicit_chance=True, **options)

    @property
    def rule_options(self) -> dict:
        """The keyword options of ``new_state`` this game uses (a copy)."""
        return dict(self._options)

    def new_initial_state(self) -> "ArchitectsState":
        """The start of a game: a chance node (the wonders dealt, or the first tops)."""
        state = ArchitectsState(self)
        state._s = self._initial.clone()
        return state

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ArchitectsObserver":
        """An observer (OpenSpiel's PyObserver) for ``iig_obs_type`` (default: public and
        the seat's private information).

        Raises
        ------
        ValueError
            If ``params`` is not empty (the observer has no parameters).
        """
        return ArchitectsObserver(iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params, self._players)

    def max_chance_nodes_in_history(self) -> int:
        return max_chance_nodes(self._players)

    def __repr__(self) -> str:
        return f"ArchitectsGame({self.get_parameters()})"


class ArchitectsState(CoreSpielState):
    """A position of 7 Wonders Architects in OpenSpiel (one core state and the history).

    Seats are 0..N-1; at a chance node ``current_player()`` is ``pyspiel.PlayerId.CHANCE``
    (-1), at the end ``pyspiel.PlayerId.TERMINAL`` (-4).  ``apply_action`` raises
    :class:`~duelcore.architects.engine.IllegalActionError` for an illegal action or chance
    outcome and leaves the state unchanged.
    """

    CHANCE_OFFSET = NUM_DECISIONS
    NUM_CHANCE_OUTCOMES = NUM_CHANCE_OUTCOMES

    def _illegal(self, action: int, reason: str) -> Exception:
        return _core.IllegalActionError(f"action {action}: {reason}")

    def _action_text(self, core_action: int) -> str:
        return _core.action_to_string(core_action)

    def returns(self) -> list[float]:
        """1/k to each of k winners, 0 to the others (A-END-4); all 0 before the end."""
        return self._s.returns()

    def __str__(self) -> str:
        """The whole position (every seat's private information and the RNG) as JSON."""
        return json.dumps(self._s.to_dict(), separators=(",", ":"))

    def legal_actions(self, player=None) -> list[int]:
        """Legal actions ascending (chance outcomes at a chance node); ``[]`` for a seat that
        is not to move, and at the end."""
        if self._s.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        if player is not None and player != self._s.current_player():
            return []
        return self._s.legal_actions()


class ArchitectsObserver:
    """OpenSpiel's PyObserver for 7 Wonders Architects: :attr:`tensor` is
    :func:`duelpy.architects.spiel.observation` of the seat (``dict["observation"]`` views
    it); the string is :func:`~duelpy.architects.spiel.public_view` as compact JSON.  The
    observation type's ``private_info`` picks whose private information is in: the seat's
    (SINGLE_PLAYER), nobody's (NONE: the public information) or everybody's (ALL_PLAYERS);
    ``perfect_recall`` changes nothing (module docstring)."""

    def __init__(self, iig_obs_type, params, players: int):
        if params:
            raise ValueError(f"the architects observer has no parameters, got {sorted(params)}")
        self._private = {pyspiel.PrivateInfoType.SINGLE_PLAYER: "seat",
                         pyspiel.PrivateInfoType.NONE: "none",
                         pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}[iig_obs_type.private_info]
        self.tensor = np.zeros(_spiel.observation_size(players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ArchitectsState, player: int) -> None:
        """Write what ``player`` observes of ``state`` into :attr:`tensor`."""
        self.tensor[:] = _spiel.observation(state._s, player, self._private)

    def string_from(self, state: ArchitectsState, player: int) -> str:
        """What ``player`` observes of ``state``, as compact JSON."""
        view = _spiel.public_view(state._s, player, self._private)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, ArchitectsGame)
