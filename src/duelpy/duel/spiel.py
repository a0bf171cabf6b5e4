"""An OpenSpiel-style game object over the core's State.

``load_game("duel", {...})`` mirrors ``pyspiel.load_game``: the game knows its sizes and
utilities and makes initial states.  It shows chance nodes by default
(``explicit_chance=True``), as OpenSpiel's algorithms expect. The states are
:class:`duelcore.State`: ``legal_actions``, ``apply_action``, ``chance_outcomes``,
``is_terminal``, ``returns``, ``current_player``, ``clone``, ``action_to_string``.

``observation_tensor(state, player)`` encodes what ``player`` can see (public information:
every player sees the same, except The Great Library's draw, which only its builder sees while
choosing), as a flat float32 vector of length ``OBSERVATION_SIZE``, for learners.
"""
from __future__ import annotations

import numpy as np

import duelcore
import duelcore.engine
from duelcore import ACTION_LAYOUT, data

__all__ = ["DuelGame", "load_game", "observation_tensor", "OBSERVATION_SIZE"]

_N_CARDS, _N_WONDERS, _N_TOKENS = len(data.CARDS), len(data.WONDERS), len(data.TOKENS)
_PHASES = duelcore.PHASE_NAMES

# (name, size) of each block of the observation, in order
_BLOCKS = (
    ("age", 4),                         # one-hot 0..3
    ("phase", len(_PHASES)),            # one-hot
    ("me_to_move", 1),
    ("replay", 1),
    ("slots", 20 * 4),                  # per slot: taken, face down (Age back), face down
                                        #   (guild back, Age III, R-CHANCE-2), face up
    ("cards", _N_CARDS * 6),            # per card: available, covered face up, my city,
                                        #   opponent's city, discard pile, under a wonder
    ("coins", 2),                       # mine, opponent's (coins / 10)
    ("pawn", 1),                        # toward the opponent's capital, / 9
    ("military_tokens", 4),             # opponent's side 2 and 5, my side 2 and 5
    ("wonders", _N_WONDERS * 5),        # mine unbuilt, mine built, opponent's unbuilt,
                                        #   opponent's built, on offer in the draft
    ("tokens", _N_TOKENS * 4),          # on the board, mine, opponent's, my Great Library draw
    ("symbols", 7 * 2),                 # mine, opponent's (count / 2)
)
OBSERVATION_SIZE = sum(n for _, n in _BLOCKS)
assert OBSERVATION_SIZE == duelcore.engine.OBSERVATION_SIZE, "observation layout"


def observation_tensor(state: duelcore.State, player: int) -> np.ndarray:
    """What ``player`` (0 or 1) can see, as a float32 vector of shape ``(OBSERVATION_SIZE,)``.

    The blocks are, in order (see ``_BLOCKS``):
    - Age and phase;
    - whether ``player`` is to move, and whether Play Again is pending;
    - each layout slot (taken / face down with an Age back / face down with a guild back /
      face up), and each card's visible place;
    - coins (/10), and the pawn toward the opponent (/9);
    - the military tokens, the wonders;
    - the progress tokens (the Great Library draw only for its builder);
    - the science symbols.

    Nobody knows the cards removed from the Ages or those still face down, so they are
    not in it.  Computed in the core (:meth:`duelcore.State.observation_tensor`), about a
    microsecond or two.

    Raises
    ------
    ValueError
        If ``player`` is not 0 or 1.
    """
    return state.observation_tensor(player)


class DuelGame:
    """7 Wonders Duel as an OpenSpiel-style game.

    Parameters are the keyword options of :func:`duelcore.new_game` (``centred_pawn``,
    ``first_game_wonders``, ``start_coins``, ``first_player``, ``banned_tokens``,
    ``forced_wonders``, ``explicit_chance``, default True here).
    """

    #: Decisions in a game at most: 6 draft picks, 60 turns each followed by at most two
    #: choices (a Mausoleum build and the pair it makes), 2 choices of who begins an Age.
    MAX_GAME_LENGTH = 6 + 60 * 3 + 2

    def __init__(self, params: dict | None = None):
        self.params = {"explicit_chance": True, **(params or {})}
        duelcore.new_game(0, **self.params)              # validates the parameters

    def new_initial_state(self, seed: int = 0) -> duelcore.State:
        """A new game; ``seed`` seeds the state's RNG (used for chance when not explicit)."""
        return duelcore.new_game(seed, **self.params)

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        """Size of the action space (decisions and chance outcomes share it)."""
        return ACTION_LAYOUT["NUM_ACTIONS"]

    def num_decision_actions(self) -> int:
        return ACTION_LAYOUT["NUM_DECISION_ACTIONS"]

    def max_chance_outcomes(self) -> int:
        """Most outcomes a chance node can have: an Age III card revealed can be any of the
        20 Age III cards or the 7 guilds."""
        return 27

    def max_game_length(self) -> int:
        return self.MAX_GAME_LENGTH

    def min_utility(self) -> float:
        return -1.0

    def max_utility(self) -> float:
        return 1.0

    def utility_sum(self) -> float:
        return 0.0

    def observation_tensor_shape(self) -> list[int]:
        return [OBSERVATION_SIZE]

    def get_parameters(self) -> dict:
        return dict(self.params)

    def __repr__(self):
        return f"DuelGame({self.params})"


def load_game(name: str = "duel", params: dict | None = None) -> DuelGame:
    """``pyspiel.load_game`` for this game: ``name`` must be ``"duel"`` (or
    ``"7_wonders_duel"``).  Raises ValueError for another name or a bad parameter."""
    if name not in ("duel", "7_wonders_duel"):
        raise ValueError(f"unknown game {name!r}: this package provides 'duel'")
    return DuelGame(params)
