"""7 Wonders Duel as a real OpenSpiel game: ``import duelpy.duel.openspiel`` registers ``"duel"``.

After the import, ``pyspiel.load_game("duel")`` (or ``"duel(centred_pawn=begins)"``, or
``pyspiel.load_game("duel", {"start_coins_p2": 9})``) returns a :class:`DuelGame`, so OpenSpiel's
algorithms, bots and conformance tests run on it.  The game is declared as it is: sequential, two
players, explicit stochastic chance (every card turned face up, wonder revealed, token drawn and
guild back placed is a chance node with its exact probabilities, R-CHANCE-1), imperfect
information, zero-sum, terminal rewards (+1 win, -1 loss, 0 each for a shared victory).

Each state holds one 272-byte core state (:class:`duelcore.State`); the rules are the core's.

**Game parameters** (the rule options of :func:`duelcore.new_game`; pyspiel parameters are
bool, int or str):

============================  =========  ==================================================
parameter                     default    meaning
============================  =========  ==================================================
``centred_pawn``              "chooses"  R-AGE-3: the last player *chooses* who begins the next
                                         Age, or simply *begins* it ("begins")
``first_game_wonders``        False      skip the draft (R-SETUP-7)
``first_player``              0          0 (P1) or 1 (P2) begins; -1: drawn at random (a chance
                                         node, R-SETUP-4)
``start_coins_p1`` / ``_p2``  7 / 7      starting coins (R-SETUP-1)
``banned_tokens``             ""         progress tokens never laid on the board, names joined
                                         by ";" (e.g. "Law;Philosophy")
``forced_wonder_p1`` / ``_p2`` ""        a wonder forced into that player's draft ("" = none)
============================  =========  ==================================================

**Information** (R-CHANCE-1/2).  A player never sees the identity of a face-down card (it is not
in the state: it is drawn when the card is turned over), the cards removed from the Ages (never
in the state), the other player's Great Library draw, nor the state's own RNG.  Everything else
is public.  The observer (:meth:`DuelGame.make_py_observer`) writes:

- ``public``: :func:`duelpy.observation_tensor`'s vector, from the observer's seat ("mine" /
  "opponent's"), or from P1's seat when private information is left out (then both players get
  the same vector), with the Great Library draw taken out;
- ``private_library_offer`` (private information): the progress tokens of the Great Library draw
  the player is choosing from (all zeros otherwise);
- ``history`` (perfect recall): every action of the game so far as the core's action id,
  ``(id + 1) / duelcore.NUM_DISTINCT_ACTIONS`` (chance outcome k is id ``CHANCE_OFFSET + k``),
  ``-1`` for a chance outcome the player did not see, ``0`` after the last action.

The strings hold the same information: the public position as compact JSON
(:meth:`duelcore.State.to_dict` without ``rng``, ``library_offer`` and ``aside_tokens``, which
would tell which tokens the Great Library drew), the player's library offer, and the history
(``?`` for a hidden chance outcome).  Two histories that differ only in the tokens the other
player's Great Library drew and left give the same information state.

**Serialization** is OpenSpiel's for Python games (the history, the move number and the pickled
core state).  :meth:`DuelGame.deserialize_state` and :func:`deserialize_game_and_state` read it
without unpickling anything but a core state, replay the history and check it against the
position, and raise :class:`duelcore.StateFormatError` naming what is wrong.

**Bad input.** An unknown parameter raises ``pyspiel.SpielError`` from ``pyspiel.load_game``
and ``ValueError`` from :class:`DuelGame`; a bad value raises ``ValueError`` naming it; an
illegal action raises :class:`duelcore.IllegalActionError` and leaves the state (and its
history) unchanged.
"""
from __future__ import annotations

import base64
import binascii
import difflib
import io
import json
import pickle
import random
import re

try:
    import pyspiel
except ImportError as e:                            # pragma: no cover - depends on the install
    raise ImportError("duelpy.duel.openspiel needs OpenSpiel: pip install 'duel[interop]' "
                      "(or pip install open-spiel)") from e

import numpy as np

import duelcore
from duelcore import ACTION_LAYOUT, NUM_DISTINCT_ACTIONS, StateFormatError, data
from duelpy.base.spiel_state import CoreSpielState
from duelpy.duel import spiel as _spiel

__all__ = ["DuelGame", "DuelState", "DuelObserver", "GAME_TYPE", "GAME_INFO", "DEFAULT_PARAMS",
           "MAX_CHANCE_NODES", "rule_options", "deserialize_game_and_state"]

SHORT_NAME = "duel"

#: pyspiel parameters and their defaults (see the module docstring)
DEFAULT_PARAMS = {
    "centred_pawn": "chooses",
    "first_game_wonders": False,
    "first_player": 0,
    "start_coins_p1": 7,
    "start_coins_p2": 7,
    "banned_tokens": "",
    "forced_wonder_p1": "",
    "forced_wonder_p2": "",
}

_N_TOKENS = len(data.TOKENS)
_TOKEN_NAMES = data.TOKEN_NAMES
#: OpenSpiel numbers decisions 0..num_distinct_actions-1 and chance outcomes
#: 0..max_chance_outcomes-1: decisions keep the core's action ids, and chance outcome k is the
#: core's action ``CHANCE_OFFSET + k``.
CHANCE_OFFSET = ACTION_LAYOUT["NUM_DECISION_ACTIONS"]
NUM_CHANCE_OUTCOMES = NUM_DISTINCT_ACTIONS - CHANCE_OFFSET
_TOKEN_CHANCE = range(ACTION_LAYOUT["CHANCE_TOKEN_BASE"] - CHANCE_OFFSET,
                      ACTION_LAYOUT["CHANCE_TOKEN_BASE"] - CHANCE_OFFSET + len(data.TOKENS))
_GREAT_LIBRARY = data.WONDER_NAMES.index("The Great Library")
_HAS_GUILD_BACKS = "guilds" in duelcore.PHASE_NAMES

#: Chance nodes in a game at most: who begins (when drawn), the 5 board tokens, the 8 wonders
#: revealed in the draft, the 20 cards turned face up in each Age, the 3 guild backs placed in
#: Age III, and the Great Library's 3 tokens.
MAX_CHANCE_NODES = 1 + 5 + 8 + 3 * 20 + (3 if _HAS_GUILD_BACKS else 0) + 3
#: Decisions in a game at most: 6 wonder picks, 60 turns (one per card of the three Ages),
#: 6 progress-token choices (the 5 tokens on the board and one from The Great Library), 2
#: cards destroyed (The Statue of Zeus, Circus Maximus), 1 card revived (The Mausoleum) and
#: 2 choices of who begins an Age.
MAX_GAME_LENGTH = 6 + 60 + 6 + 2 + 1 + 2
MAX_HISTORY_LENGTH = MAX_GAME_LENGTH + MAX_CHANCE_NODES

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="7 Wonders Duel",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
    default_loadable=True,
    provides_factored_observation_string=True,
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=CHANCE_OFFSET,
    max_chance_outcomes=NUM_CHANCE_OUTCOMES,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)

# where the observation tensor holds "my Great Library draw" (per token: board, mine,
# opponent's, my draw; see duelpy.duel.spiel._BLOCKS)
_offset = 0
for _name, _size in _spiel._BLOCKS:
    if _name == "tokens":
        break
    _offset += _size
_LIBRARY_IDX = [_offset + 4 * t + 3 for t in range(_N_TOKENS)]
del _offset, _name, _size


def _close(word, names):
    close = difflib.get_close_matches(word, names, n=3, cutoff=0.5)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def rule_options(params: dict | None) -> dict:
    """The keyword options of :func:`duelcore.new_game` for pyspiel ``params``.

    Missing parameters take their defaults (:data:`DEFAULT_PARAMS`).

    Raises
    ------
    ValueError
        For an unknown parameter (with the close names) or a value of the wrong type or out
        of range, naming the parameter.
    """
    params = {**DEFAULT_PARAMS, **(params or {})}
    for key in params:
        if key not in DEFAULT_PARAMS:
            raise ValueError(f"unknown duel game parameter {key!r}{_close(key, DEFAULT_PARAMS)}; "
                             f"parameters: {', '.join(DEFAULT_PARAMS)}")
    for key, default in DEFAULT_PARAMS.items():
        value = params[key]
        if type(value) is not type(default):
            raise ValueError(f"duel game parameter {key} must be a {type(default).__name__}, "
                             f"not {value!r}")
    if params["first_player"] not in (-1, 0, 1):
        raise ValueError(f"duel game parameter first_player must be 0 (P1), 1 (P2) or -1 "
                         f"(drawn at random), not {params['first_player']}")
    banned = [t.strip() for t in re.split(r"[;,]", params["banned_tokens"]) if t.strip()]
    forced = tuple(params[f"forced_wonder_p{k}"].strip() or None for k in (1, 2))
    options = {
        "centred_pawn": params["centred_pawn"],
        "first_game_wonders": params["first_game_wonders"],
        "first_player": None if params["first_player"] == -1 else params["first_player"],
        "start_coins": (params["start_coins_p1"], params["start_coins_p2"]),
        "banned_tokens": tuple(banned),
        "forced_wonders": forced if any(forced) else None,
    }
    try:
        duelcore.new_game(0, explicit_chance=True, **options)
    except (TypeError, ValueError) as e:
        raise ValueError(f"duel game parameters: {e}") from None
    return options


class DuelGame(pyspiel.Game):
    """7 Wonders Duel for OpenSpiel.  Made by ``pyspiel.load_game("duel", params)`` (after
    ``import duelpy.duel.openspiel``) or directly as ``DuelGame(params)``.

    Parameters
    ----------
    params : dict, optional
        Game parameters (module docstring); missing ones take their defaults.

    Raises
    ------
    ValueError
        For an unknown parameter or a bad value (see :func:`rule_options`).
    """

    def __init__(self, params: dict | None = None):
        options = rule_options(params)
        full = {**DEFAULT_PARAMS, **(params or {})}
        super().__init__(GAME_TYPE, GAME_INFO, full)
        self._options = options
        self._initial = duelcore.new_game(0, explicit_chance=True, **options)

    @property
    def rule_options(self) -> dict:
        """The keyword options of :func:`duelcore.new_game` this game uses (a copy)."""
        return dict(self._options)

    def new_initial_state(self) -> "DuelState":
        """The start of a game: a chance node (board tokens; who begins if drawn)."""
        state = DuelState(self)
        state._s = self._initial.clone()
        return state

    def state_from_core(self, core: duelcore.State) -> "DuelState":
        """A state of this game at ``core`` (a :class:`duelcore.State` made with
        ``explicit_chance=True``), with an empty history: for positions built with
        :func:`duelcore.state_from_dict`.

        Raises
        ------
        TypeError
            If ``core`` is not a duelcore State.
        ValueError
            If ``core`` does not show chance nodes (made without ``explicit_chance``).
        """
        if not isinstance(core, duelcore.State):
            raise TypeError(f"core must be a duelcore.State, not {type(core).__name__}")
        if not core.to_dict()["options"]["explicit_chance"]:
            raise ValueError("core must show chance nodes: make it with explicit_chance=True")
        state = DuelState(self)
        state._s = core.clone()
        return state

    def make_py_observer(self, iig_obs_type=None, params=None) -> "DuelObserver":
        """An observer (OpenSpiel's PyObserver interface) for ``iig_obs_type`` (default:
        public and the player's private information, without perfect recall).

        Raises
        ------
        ValueError
            If ``params`` is not empty (the observer has no parameters).
        """
        return DuelObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            params)

    def max_chance_nodes_in_history(self) -> int:
        return MAX_CHANCE_NODES

    def deserialize_state(self, text: str) -> "DuelState":
        """The state that ``state.serialize()`` wrote, checked.

        The history is replayed from the initial state and must reach the serialized
        position; nothing but a core state is unpickled.

        Raises
        ------
        duelcore.StateFormatError
            Naming the part that is malformed (``history[k]``, ``move_number``,
            ``__dict__``) and why; e.g. an action that is not legal at its point of the
            history, or a position that the history does not reach.
        """
        return _deserialize(self, text)

    def __repr__(self):
        return f"DuelGame({self.get_parameters()})"


def _hidden_steps(state, viewer, full_history=None):
    """Indices of ``state``'s history that ``viewer`` (0, 1; -1 for the public) did not see: the
    tokens the Great Library drew, when the other player built it.  They are the only hidden
    chance outcomes in a history (face-down cards are drawn when turned over, removed cards
    never)."""
    builder = _library_builder(state._s)
    if builder is None or builder == viewer:
        return []
    hidden = []
    decided = False
    if full_history is None:
        full_history = state.full_history()
    for k, item in enumerate(full_history):
        if item.player >= 0:
            decided = True
        elif decided and item.action in _TOKEN_CHANCE:
            hidden.append(k)                 # a token drawn after the set-up: the Great Library's
    return hidden


def _library_builder(core):
    """The player who built The Great Library (it is built before its draw), or None."""
    for p in (0, 1):
        if (_GREAT_LIBRARY, True) in core.wonders(p):
            return p
    return None


class DuelState(CoreSpielState):
    """A position of 7 Wonders Duel in OpenSpiel.  Made by :meth:`DuelGame.new_initial_state`.

    It holds one :class:`duelcore.State` (272 bytes); ``clone()`` and ``copy.deepcopy`` copy
    that and the history (OpenSpiel's ``Clone``).  Players are 0 (P1) and 1 (P2); at a chance
    node ``current_player()`` is ``pyspiel.PlayerId.CHANCE`` (-1), at the end
    ``pyspiel.PlayerId.TERMINAL`` (-4).

    ``apply_action`` raises :class:`duelcore.IllegalActionError` (naming the action and the
    reason) for an illegal action or chance outcome, and leaves the state unchanged.
    """

    CHANCE_OFFSET = CHANCE_OFFSET
    NUM_CHANCE_OUTCOMES = NUM_CHANCE_OUTCOMES

    def _illegal(self, action: int, reason: str) -> Exception:
        return duelcore.IllegalActionError(action, reason)

    def _action_text(self, core_action: int) -> str:
        return duelcore.action_to_string(core_action)

    def _apply_chance(self, outcome: int) -> None:
        try:
            self._s.apply_action(outcome + CHANCE_OFFSET)
        except duelcore.IllegalActionError as e:      # named by its OpenSpiel outcome id
            raise duelcore.IllegalActionError(outcome, e.reason) from None

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a shared victory or before the end."""
        return self._s.returns()

    def __str__(self):
        """The whole position (god's view, RNG included) as compact JSON."""
        return json.dumps(self._s.to_dict(), separators=(",", ":"))

    # ---- Python-side fast paths: the same results as OpenSpiel's C++ State methods, without
    # the round trips between Python and C++
    def legal_actions(self, player=None) -> list[int]:
        """Legal actions ascending (the chance outcomes at a chance node); ``[]`` for a player
        who is not to move, and at the end."""
        if self._s.is_chance_node():
            return [a - CHANCE_OFFSET for a in self._s.legal_actions()]
        if player is None:
            return self._s.legal_actions()
        if player < 0:
            raise ValueError(f"legal_actions: player must be 0 or 1, not {player}")
        return self._s.legal_actions(player)

    # ---- extras
    def resample_from_infostate(self, player: int, probability_sampler=None) -> "DuelState":
        """A state with the same information state for ``player``, drawn from the chance
        distribution given what ``player`` saw (for ISMCTS).

        The only hidden chance outcomes in a history are the tokens the other player's Great
        Library drew: they are drawn again, uniformly among the draws that contain the token
        that player then chose (the chooser's policy is not modelled).  Without such a draw the
        state is its own only sample and a clone is returned.

        ``probability_sampler`` is a callable returning floats in [0, 1) (such as
        ``pyspiel.UniformProbabilitySampler(0., 1.)``), or None for Python's ``random``.
        """
        hidden = _hidden_steps(self, player)
        if not hidden:
            return self.clone()
        uniform = probability_sampler if probability_sampler is not None else random.random
        history = self.history()
        replay = self.get_game().new_initial_state()
        for a in history[:hidden[0]]:
            replay.apply_action(a)
        # the token the builder then chose, if they have (public: it is in their city)
        after = history[hidden[-1] + 1:]
        pool = [a for a, _ in replay.chance_outcomes()]      # the tokens set aside
        n = len(hidden)
        if after:
            chosen = after[0] - ACTION_LAYOUT["TOKEN_BASE"] + _TOKEN_CHANCE.start
            pool.remove(chosen)
            draw = _sample(pool, n - 1, uniform)
            draw.insert(min(int(uniform() * n), n - 1), chosen)
        else:
            draw = _sample(pool, n, uniform)
        for a in draw + after:
            replay.apply_action(a)
        return replay


def _sample(pool, n, uniform):
    pool = list(pool)
    out = []
    for _ in range(n):
        out.append(pool.pop(min(int(uniform() * len(pool)), len(pool) - 1)))
    return out


class DuelObserver:
    """OpenSpiel's PyObserver for 7 Wonders Duel (see the module docstring for the pieces).

    Attributes
    ----------
    tensor : numpy.ndarray
        float32, the pieces one after the other.
    dict : dict of str to numpy.ndarray
        Views of ``tensor``: ``"public"`` (``OBSERVATION_SIZE``),
        ``"private_library_offer"`` (10, one per progress token), ``"history"``
        (``MAX_HISTORY_LENGTH``), as the observation type asks.
    """

    def __init__(self, iig_obs_type, params=None):
        if params:
            raise ValueError(f"the duel observer has no parameters, got {sorted(params)}")
        self._public = bool(iig_obs_type.public_info)
        self._private = iig_obs_type.private_info
        self._recall = bool(iig_obs_type.perfect_recall)
        pieces = []
        if self._public:
            pieces.append(("public", _spiel.OBSERVATION_SIZE))
        if self._private != pyspiel.PrivateInfoType.NONE:
            pieces.append(("private_library_offer", _N_TOKENS))
        if self._recall:
            pieces.append(("history", MAX_HISTORY_LENGTH))
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict = {}
        start = 0
        for name, n in pieces:
            self.dict[name] = self.tensor[start:start + n]
            start += n

    def _offer(self, core, player):
        """The library offer ``player`` may see (a list of token ids), or None."""
        if self._private == pyspiel.PrivateInfoType.NONE or core.phase != "library":
            return None
        d = core.to_dict()
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER and d["to_move"] != player:
            return None
        return [_TOKEN_NAMES.index(t) for t in d["library_offer"]]

    def _history(self, state, player):
        """The history as core action ids, None for the chance outcomes ``player`` did not
        see."""
        full = state.full_history()
        history = [item.action + (CHANCE_OFFSET if item.player < 0 else 0) for item in full]
        if self._private != pyspiel.PrivateInfoType.ALL_PLAYERS:
            viewer = player if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER else -1
            for k in _hidden_steps(state, viewer, full):
                history[k] = None
        return history

    def set_from(self, state: DuelState, player: int) -> None:
        """Write what ``player`` observes of ``state`` into :attr:`tensor`."""
        core = state._s
        self.tensor.fill(0)
        if "public" in self.dict:
            seat = player if self._private != pyspiel.PrivateInfoType.NONE else 0
            obs = core.observation_tensor(seat)
            obs[_LIBRARY_IDX] = 0
            self.dict["public"][:] = obs
        if "private_library_offer" in self.dict:
            offer = self._offer(core, player)
            if offer:
                self.dict["private_library_offer"][offer] = 1
        if "history" in self.dict:
            out = self.dict["history"]
            for k, a in enumerate(self._history(state, player)):
                out[k] = -1.0 if a is None else (a + 1) / NUM_DISTINCT_ACTIONS

    def string_from(self, state: DuelState, player: int) -> str:
        """What ``player`` observes of ``state``, as text (one part per line)."""
        core = state._s
        parts = []
        if self._private != pyspiel.PrivateInfoType.NONE:
            parts.append(f"observer: {duelcore.PLAYER_NAMES[player]}")
        if self._public:
            d = core.to_dict()
            for key in ("version", "options", "rng", "library_offer", "aside_tokens"):
                d.pop(key, None)
            if "guild_slots" not in d and hasattr(core, "guild_slots"):
                d["guild_slots"] = core.guild_slots()
            parts.append("public: " + json.dumps(d, separators=(",", ":")))
        offer = self._offer(core, player)
        if offer is not None:
            parts.append("library offer: " + ", ".join(_TOKEN_NAMES[t] for t in offer))
        if self._recall:
            parts.append("history: " + ",".join(
                "?" if a is None else str(a) if a < CHANCE_OFFSET else f"c{a - CHANCE_OFFSET}"
                for a in self._history(state, player)))
        return "\n".join(parts)


# ---------------------------------------------------------------- serialization
class _CoreOnly(pickle.Unpickler):
    """Unpickles a core state and plain data only."""

    def find_class(self, module, name):
        if (module, name) == ("duelcore.engine", "_state_from_bytes"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}")


def _deserialize(game: DuelGame, text) -> DuelState:
    if not isinstance(text, str):
        raise StateFormatError("state", f"a serialized state is a str, not {type(text).__name__}")
    lines = text.rstrip("\n").split("\n", 2)
    tags = ("history=", "move_number=", "__dict__=")
    if len(lines) != 3 or not all(line.startswith(t) for line, t in zip(lines, tags)):
        raise StateFormatError("state", "expected three lines: history=..., move_number=..., "
                                        "__dict__=... (as state.serialize() writes)")
    history = []
    body = lines[0][len("history="):]
    for k, item in enumerate(filter(None, body.split(","))):
        who, sep, what = item.partition(":")
        try:
            if not sep:
                raise ValueError
            history.append((int(who), int(what)))
        except ValueError:
            raise StateFormatError(f"history[{k}]", f"{item!r} is not player:action") from None
    try:
        move_number = int(lines[1][len("move_number="):])
    except ValueError:
        raise StateFormatError("move_number", f"{lines[1][len('move_number='):]!r} is not an "
                                              f"integer") from None
    if move_number != len(history):
        raise StateFormatError("move_number", f"{move_number} but the history has "
                                              f"{len(history)} actions")
    try:
        raw = base64.b64decode(lines[2][len("__dict__="):], validate=True)
        attrs = _CoreOnly(io.BytesIO(raw)).load()
    except (binascii.Error, pickle.UnpicklingError, EOFError, ValueError, TypeError,
            AttributeError, IndexError) as e:
        raise StateFormatError("__dict__", f"not a pickled core state ({e})") from None
    if not (isinstance(attrs, dict) and set(attrs) == {"_s"}
            and isinstance(attrs["_s"], duelcore.State)):
        raise StateFormatError("__dict__", "expected exactly one core state, '_s'")
    state = game.new_initial_state()
    for k, (player, action) in enumerate(history):
        if player != state.current_player():
            raise StateFormatError(f"history[{k}]", f"player {player} but "
                                                    f"{state.current_player()} is to move")
        try:
            state.apply_action(action)
        except duelcore.IllegalActionError as e:
            raise StateFormatError(f"history[{k}]", f"action {action} is illegal: "
                                                    f"{e.reason}") from None
    if state._s != attrs["_s"]:
        raise StateFormatError("__dict__", "the position is not the one the history reaches "
                                           "(serialized with other game parameters?)")
    return state


def deserialize_game_and_state(text: str) -> tuple[DuelGame, DuelState]:
    """``pyspiel.deserialize_game_and_state`` for this game, checked (see
    :meth:`DuelGame.deserialize_state`).

    Raises
    ------
    duelcore.StateFormatError
        If the text is not OpenSpiel's game-and-state format, names another game, or the state
        is malformed.
    ValueError
        For bad game parameters.
    """
    if not isinstance(text, str):
        raise StateFormatError("text", f"expected a str, not {type(text).__name__}")
    m = re.search(r"^\[Game\]\n(.*?)\n\[State\]\n(.*)\Z", text, re.S | re.M)
    if not m:
        raise StateFormatError("text", "expected OpenSpiel's [Game] and [State] sections "
                                       "(as pyspiel.serialize_game_and_state writes)")
    game_string, state_text = m.group(1).strip(), m.group(2)
    if not re.fullmatch(rf"{SHORT_NAME}(\(.*\))?", game_string):
        raise StateFormatError("[Game]", f"{game_string!r} is not a {SHORT_NAME} game")
    game = pyspiel.load_game(game_string)
    return game, game.deserialize_state(state_text)


pyspiel.register_game(GAME_TYPE, DuelGame)
