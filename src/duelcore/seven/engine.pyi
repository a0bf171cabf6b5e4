"""The 7 Wonders core: rules, Python face and agents (typed stub of the compiled module)."""
from collections.abc import Mapping, Sequence
from typing import Any, Literal, overload

from typing_extensions import disjoint_base

from duelcore.common.stop import SearchStop, _SigintHook as _SigintHook

DEBUG: bool
FORMAT_VERSION: int
NUM_ACTIONS: int
NUM_TURN_ACTIONS: int
HALI_BASE: int
HALI_NONE: int
CHANCE_BOARD_BASE: int
CHANCE_GUILD_BASE: int
CHANCE_CARD_BASE: int
CHANCE: int
USES: tuple[str, ...]
PHASES: tuple[str, ...]
#: VP categories of ``State.scores()`` and of ``play_games_detail``'s ``vp``, the total last.
VP_CATEGORIES: tuple[str, ...]
KEYS: tuple[str, ...]
OPTIONAL_KEYS: tuple[str, ...]
CITY_KEYS: tuple[str, ...]
_AGENT_KINDS: dict[str, int]

class IllegalActionError(ValueError):
    """An action that is not legal at this node (the message names the reason)."""

class StateFormatError(ValueError):
    """A position written as data that is malformed or that the rules cannot reach: names
    the field (``.field``, a key of ``to_dict``) and the reason with its rule id (W-...)."""

    field: str
    reason: str
    def __init__(self, field: str, reason: str | None = None) -> None: ...

#: Every check of the invariants (1..9) and of the position checks (10..): code -> (field,
#: reason with the rule id).
STATE_CHECKS: dict[int, tuple[str, str]]
STATE_CHECK_MESSAGES: dict[int, str]
#: Broken preconditions the debug build aborts on: code -> reason.
PRECONDITION_MESSAGES: dict[int, str]

@disjoint_base
class State:
    """A position of 7 Wonders (one flat C struct); turns are simultaneous."""

    @property
    def players(self) -> int:
        """Players, 2..7 (2: the Free City variant)."""
    @property
    def seats(self) -> int:
        """Cities: the players, or 3 with the Free City."""
    @property
    def phase(self) -> str:
        """What the node waits for: one of PHASES."""
    @property
    def age(self) -> int:
        """0 during set-up, then 1..3."""
    @property
    def turn(self) -> int:
        """1..6 within an Age."""
    @property
    def moves(self) -> int:
        """Decisions applied so far (commitments, picks, 7th cards)."""
    @property
    def explicit_chance(self) -> bool:
        """True if chance nodes are shown to the caller."""
    def is_chance_node(self) -> bool:
        """True at a chance node."""
    def is_simultaneous_node(self) -> bool:
        """True at a simultaneous turn node."""
    def is_terminal(self) -> bool:
        """True once the game is over."""
    def pending_seats(self) -> list[int]:
        """Seats that still have to decide at this node, ascending."""
    def decider(self, seat: int) -> int:
        """The player who decides for ``seat`` (the Free City: this turn's controller)."""
    def controller(self) -> int | None:
        """The Free City controller of the current turn, or None."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability), ...]`` at a chance node; [] elsewhere."""
    def legal_actions(self, seat: int) -> list[int]:
        """Legal actions of ``seat`` at this node, ascending."""
    def why_illegal(self, seat: int | None, a: int) -> str | None:
        """None if ``a`` is legal for ``seat`` here, else the reason."""
    def apply_action(self, a: int, seat: int | None = None) -> None:
        """Apply one action (a chance outcome with ``seat`` None); IllegalActionError else."""
    def apply_actions(self, actions: Sequence[int] | Mapping[int, int]) -> None:
        """A joint turn: ``actions[seat]`` for every pending seat."""
    def settle(self) -> None:
        """Sample pending chance nodes from the state's RNG."""
    def action_to_string(self, a: int) -> str:
        """Readable text of an action id."""
    def clone(self) -> State:
        """An independent copy (a struct assignment)."""
    def board(self, seat: int) -> tuple[str | None, str, int]:
        """``(board name, side, stages built)``."""
    def coins(self, seat: int) -> int:
        """A seat's coins."""
    def military(self, seat: int) -> tuple[int, int]:
        """``(military tokens in VP, defeat tokens)``."""
    def shields(self, seat: int) -> int:
        """A seat's shields."""
    def olympia_free(self, seat: int) -> bool:
        """True while Olympia A's free build can be used."""
    def city(self, seat: int) -> list[str]:
        """Names of the cards built in a city."""
    def city_info(self, seat: int) -> dict[str, Any]:
        """Derived fields of a city (production, trade, colours, science, shields)."""
    def hand(self, seat: int) -> list[str]:
        """Names of the cards in the hand ``seat`` plays from."""
    def payment_options(self, seat: int, card: str | None = None,
                        all_pairs: bool | None = None) -> list[tuple[int, int]]:
        """Payment pairs (coins left, coins right) for a card or the next stage."""
    def guilds(self) -> list[str]:
        """Guilds drawn into Age III."""
    def discard_pile(self) -> list[str]:
        """Names in the discard pile."""
    def seventh_card(self) -> str | None:
        """Babylon B's kept 7th card during its step, else None."""
    def removed(self) -> list[str]:
        """Names of the cards a study removed from this game."""
    def added_cards(self) -> list[str]:
        """Names of the spare copies dealt in place of the removed cards."""
    def seen_hands(self, player: int) -> list[list[str]]:
        """What ``player`` remembers of each hand of this Age."""
    def observation(self, player: int) -> dict[str, Any]:
        """Everything ``player`` may see, and nothing else, as a dict."""
    def scores(self) -> list[dict[str, int]]:
        """VP by category (VP_CATEGORIES) for every seat."""
    def winners(self) -> list[int]:
        """Winning players at the end; [] before."""
    def returns(self) -> list[float]:
        """Per player: 1/k for each of k tied winners, 0 for the others."""
    def state_check(self) -> int:
        """0 if every invariant holds, else the failing code."""
    def position_check(self) -> int:
        """0 if the invariants and the position checks hold, else the code (STATE_CHECKS)."""
    def check_message(self) -> str | None:
        """None, or ``"field: reason"`` of the first broken check."""
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the whole position."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...

def new_state(players: int, seed: int = 0, boards: Sequence[str | None] | None = None,
              sides: str | None = None, explicit_chance: bool = False,
              all_pairs: bool = False, remove: Sequence[str] | None = None) -> State:
    """A new game (W-SETUP), optionally with boards, sides and cards removed."""

def state_from_dict(d: Mapping[str, Any]) -> State:
    """The State of a :meth:`State.to_dict` dict; StateFormatError names the problem."""

def check_message(state: State) -> str | None:
    """None if ``state`` passes the invariants and the position checks, else
    ``"field: reason"`` of the first broken check (STATE_CHECKS)."""

def state_size() -> int:
    """Bytes of one 7 Wonders state."""

def encode_turn_action(use: str | int, name: str | int, left: int = 0, right: int = 0) -> int:
    """Turn action id of a use, a card and the coins paid to each neighbour."""

def decode_turn_action(a: int) -> tuple[str, str, int, int]:
    """``(use, name, left coins, right coins)`` of a turn action id."""

def action_to_string(a: int) -> str:
    """Readable text of any action id."""

def science_points(compass: int, gear: int, tablet: int, wild: int = 0) -> int:
    """W-SCI-3 points with the wildcards placed best."""

def solve_cost(own_fixed: Sequence[int], own_choice: Sequence[int], left_fixed: Sequence[int],
               left_pairs: Sequence[int], right_fixed: Sequence[int],
               right_pairs: Sequence[int], left_price: Sequence[int],
               right_price: Sequence[int], cost: Sequence[int],
               all_pairs: bool = False) -> list[tuple[int, int]]:
    """The raw cost solver on explicit cities: the payment pairs."""

@overload
def choose_action(state: State, seat: int, agent: str = "random", seed: int = 0,
                  return_stats: Literal[False] = False, stop: SearchStop | None = None) -> int:
    """The action an agent picks for ``seat`` at ``state`` (the state is not changed)."""
@overload
def choose_action(state: State, seat: int, agent: str = "random", seed: int = 0, *,
                  return_stats: Literal[True],
                  stop: SearchStop | None = None) -> tuple[int, dict[int, int]]:
    """The action and ``{action: root visits}`` (MCTS; {} for the other agents)."""
@overload
def choose_action(state: State, seat: int, agent: str, seed: int, return_stats: bool,
                  stop: SearchStop | None = None) -> int | tuple[int, dict[int, int]]: ...

def determinize(state: State, player: int, seed: int = 0) -> State:
    """A full position consistent with what ``player`` has seen (for tests)."""

def random_games(players: int, games: int, seed: int = 0) -> dict[str, Any]:
    """Random games, nogil: games finished, moves, wins, signature, seconds, interrupted."""

def play_games(players: int, agents: Sequence[str], games: int,
               seed: int = 0) -> dict[str, Any]:
    """Games between agents, nogil: games finished, wins, mean vp, seconds, interrupted."""

def play_games_detail(players: int, agents: Sequence[str], games: int, seed: int = 0,
                      sides: str | None = None, boards: Sequence[str | None] | None = None,
                      remove: Sequence[str] | None = None,
                      lineups: Sequence[Sequence[int]] | None = None,
                      first_game: int = 0) -> dict[str, Any]:
    """One row per game (boards, sides, totals, vp, coins, winners) plus seconds, completed
    and interrupted; stoppable by the common stop flag."""

def mcts_speed(players: int, iterations: int, seed: int = 0) -> float:
    """Iterations per second of one IS-MCTS search from a game's first decision."""

def _playout(state: State, agent: str = "random", seed: int = 0) -> State:
    """For the tests: a copy of ``state`` played to the end inside the core."""

def _unchecked_copy(state: State, **fields: Any) -> State:
    """For the tests of defence in depth: a copy with raw fields set, unchecked."""

def _spec(desc: str) -> dict[str, Any]:
    """Agent spec from ``"random"``, ``"greedy"``, ``"mcts"`` or ``"mcts:N[:C]"``."""

def _removal(players: int, remove: Sequence[str] | None) -> list[int]:
    """The physical copies of the removed cards, checked."""

def _set_bias(w: float) -> None:
    """Tuning hook: the weight of the progressive bias."""

def _set_playout(k: int) -> None:
    """Tuning hook: the MCTS playout policy (0 build-first, 1 heuristic, 2 greedy)."""

def _set_reward(mode: int, scale: float = 10.0) -> None:
    """Tuning hook: the MCTS reward."""

def _set_win_weight(w: float) -> None:
    """Tuning hook: the weight of the win share in the MCTS reward."""
