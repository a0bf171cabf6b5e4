"""The 7 Wonders Duel rules engine (typed stub of the compiled module)."""
from collections.abc import Iterable, Mapping
from typing import Any

from typing_extensions import disjoint_base

import numpy as np
import numpy.typing as npt

#: Action id layout: ``{"DRAFT_BASE": 0, "BUILD_BASE": 12, ...}``.
ACTION_LAYOUT: dict[str, int]
CHANCE_PLAYER: int
TERMINAL_PLAYER: int
DEBUG: bool
FORMAT_VERSION: int
RULES_VERSION: int
NUM_DISTINCT_ACTIONS: int
OBSERVATION_SIZE: int
PHASE_NAMES: tuple[str, ...]
SETUP_PHASES: tuple[str, ...]
PLAYER_NAMES: tuple[str, ...]
VICTORY_NAMES: tuple[str, ...]
VP_CATEGORIES: tuple[str, ...]
#: Every check of state_check: code -> (field, reason).
STATE_CHECKS: dict[int, tuple[str, str]]
STATE_CHECK_MESSAGES: dict[int, str]
PRECONDITION_MESSAGES: dict[int, str]

class IllegalActionError(ValueError):
    """An action that is not legal at the state it was applied to."""

    action: int
    reason: str
    def __init__(self, action: int, reason: str) -> None: ...

class StateFormatError(ValueError):
    """A position written as data that is not one: names the field and what is wrong."""

    field: str
    reason: str
    def __init__(self, field: str, reason: str) -> None: ...

@disjoint_base
class State:
    """A position of 7 Wonders Duel (one flat C struct), in OpenSpiel's vocabulary."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Refused (TypeError): make a State with new_game() or State.from_dict()."""

    @property
    def age(self) -> int:
        """Age 0 (set-up and draft), then 1..3."""
    @property
    def phase(self) -> str:
        """What the node waits for: one of PHASE_NAMES."""
    @property
    def first_player(self) -> int:
        """The player who began Age I (0 = P1, 1 = P2)."""
    @property
    def n_decisions(self) -> int:
        """Decisions applied so far (chance outcomes not counted)."""
    @property
    def pawn(self) -> int:
        """Conflict pawn, -9..9; positive toward P2's capital (P1 leads)."""
    @property
    def replay(self) -> bool:
        """True if the current turn earned Play Again."""
    def current_player(self) -> int:
        """0 or 1; CHANCE_PLAYER at a chance node; TERMINAL_PLAYER at the end."""
    def is_chance_node(self) -> bool:
        """True at a chance node (explicit-chance games only)."""
    def is_terminal(self) -> bool:
        """True once the game is over."""
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions, ascending (at a chance node: the chance outcomes)."""
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of shape (NUM_ACTIONS,), True at the legal actions."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability), ...]`` at a chance node, else []."""
    def apply_action(self, action: int) -> None:
        """Apply a decision or chance outcome; IllegalActionError leaves the state unchanged."""
    def why_illegal(self, action: int) -> str | None:
        """Why ``action`` is not legal here; None if it is legal."""
    def action_to_string(self, action: int) -> str:
        """Readable name of an action id."""
    def clone(self) -> State:
        """An independent copy (struct copy)."""
    def returns(self) -> list[float]:
        """``[r0, r1]``: +1 winner, -1 loser, 0 each if shared or not over."""
    def result(self) -> dict[str, Any]:
        """The outcome: winner, victory, vp by category, total (R-END)."""
    def vp(self) -> dict[str, list[int]]:
        """VP by category for both players: ``{category: [P1, P2]}``."""
    def coins(self, player: int) -> int:
        """A player's coins."""
    def city(self, player: int) -> list[int]:
        """Card ids in a player's city."""
    def wonders(self, player: int) -> list[tuple[int, bool]]:
        """``[(wonder id, built), ...]`` of a player's wonders still in the game."""
    def production(self, player: int) -> list[int]:
        """Fixed production per resource of brown/grey cards."""
    def progress_tokens(self, player: int) -> list[int]:
        """Progress token ids a player owns."""
    def science_symbols(self, player: int) -> list[int]:
        """Cards (or Law) per science symbol."""
    def available_cards(self) -> list[int]:
        """Card ids that can be taken from the layout now."""
    def board_tokens(self) -> list[int]:
        """Progress token ids on the board."""
    def discard_pile(self) -> list[int]:
        """Card ids in the discard pile."""
    def guild_slots(self) -> list[int]:
        """Slots of the Age III layout that hold a guild (public backs)."""
    def card_cost(self, player: int, card: int | str) -> tuple[int, int]:
        """Coins ``player`` would pay now to build ``card``: ``(total, traded)``."""
    def wonder_cost(self, player: int, wonder: int | str) -> tuple[int, int]:
        """Coins ``player`` would pay now to build ``wonder``: ``(total, traded)``."""
    def discard_value(self, player: int) -> int:
        """Coins ``player`` takes for discarding a card now."""
    def trade_breakdown(self, player: int, item: int | str, *,
                        wonder: bool = False) -> dict[str, Any]:
        """How ``player`` would pay now for ``item``, unit by unit."""
    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """What ``player`` can see, shape (OBSERVATION_SIZE,)."""
    def check(self) -> None:
        """Raise AssertionError naming the first broken check, if any."""
    def to_dict(self) -> dict[str, Any]:
        """The whole position in the game's words, JSON-safe."""
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> State:
        """Alias of :func:`state_from_dict`."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...

def new_game(seed: int = 0, *, first_player: int | None = 0, centred_pawn: str = "chooses",
             first_game_wonders: bool = False, start_coins: tuple[int, int] = (7, 7),
             explicit_chance: bool = False, banned_tokens: Iterable[str] = (),
             forced_wonders: tuple[str | None, str | None] | None = None) -> State:
    """A new game of 7 Wonders Duel, at its first decision (or first chance node)."""

def state_from_dict(d: Mapping[str, Any]) -> State:
    """Build a State from the description written by :meth:`State.to_dict`."""

def action_to_string(a: int) -> str:
    """Readable name of an action id, e.g. ``"build Lumber Yard"``."""

def state_size() -> int:
    """sizeof(GameState) in bytes."""

def check_message(state: State) -> str | None:
    """None if ``state`` passes state_check, else ``"field: reason"`` of the first failure."""

def _state_from_bytes(b: bytes) -> State:
    """The pickle reader (pickles name it ``duelcore.engine._state_from_bytes``)."""

def _treatments(banned_tokens: Iterable[str], forced_wonders: Any,
                first_game_wonders: bool) -> tuple[int, int, int]:
    """Validate the study treatments: (banned token mask, forced wonder id + 1 x2)."""

def _unchecked_copy(state: State, **fields: int) -> State:
    """For tests of defence in depth only: a copy with raw fields set, unchecked."""
