"""7 Wonders as a PettingZoo AEC environment: ``duelpy.seven.pettingzoo.env(players=3)``.

Agents ``"player_0"`` .. ``"player_{N-1}"`` are the players (2 to 7; at 2 the Free City variant,
W-FREE, whose third city is decided by one of the two players each turn).  A turn is
simultaneous (W-TURN-1): the environment asks the players one after the other, each seat
that still has to commit in seat order, and the core reveals the turn when every seat has
committed; no player sees another's commitment before (W-INFO).  A player who also decides
for the Free City is selected twice in a row.  Halikarnassus' and Babylon's extra decisions
come as they arise.  Chance (boards, guilds, the deal) is sampled inside the environment from
its seeded RNG: ``reset(seed=s)`` then the same actions give the same game.

- **Actions**: ``Discrete(NUM_DECISION_ACTIONS)`` (76,876): the core's turn actions
  (``duelcore.seven.encode_turn_action``: a use, a card and the coins paid to each
  neighbour), Halikarnassus' picks and its "none"; ``duelcore.seven.action_to_string(a)``
  names one.
- **Observations**: ``{"observation": float32 (observation_size(N),), "action_mask": int8
  (NUM_DECISION_ACTIONS,)}``.  The observation encodes ``State.observation(player)`` (all the
  player may see, W-INFO: every city, its own hand, the hands it has seen, the face-down cards
  it knows, its own commitments this turn: use, card and coins to each neighbour), the cities in table order from the player's, and which
  seat it decides for now; the mask marks the legal actions of the agent to move, all zeros
  for the others.  :func:`observation_blocks` lists the blocks.
- **Rewards**: at the end, 1/k to each of k winners (W-END-2), 0 to the others; 0 before.
- **Rendering**: ``render_mode="ansi"`` returns the table drawn as text (every seat's
  information: a spectator's view).

Rule options: ``sides`` ("random", "A" or "B") and ``boards`` (one board name or None per
seat), as :func:`duelcore.seven.new_state`.  An illegal action raises
:class:`duelcore.seven.IllegalActionError` naming the reason, and leaves the game unchanged.
"""
from __future__ import annotations

import functools

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from duelpy.base.aec import CoreAECEnv, check_env_setup
except ImportError as e:                            # pragma: no cover - depends on the install
    raise ImportError("duelpy.seven.pettingzoo needs PettingZoo: pip install 'duel[interop]' "
                      "(or pip install pettingzoo gymnasium)") from e

import numpy as np

from duelcore import seven as _core
from duelcore import seven_data as _data
from duelpy.base.blocks import block_offsets
from duelpy.seven.render import render_text

__all__ = ["env", "raw_env", "NUM_DECISION_ACTIONS", "observation", "observation_size",
           "observation_blocks"]

#: decisions: the turn actions, Halikarnassus' picks and "none" (chance outcomes come after)
NUM_DECISION_ACTIONS = _core.CHANCE_BOARD_BASE
_NAMES = tuple(_data.NAMES)
_CARD = {n: i for i, n in enumerate(_NAMES)}
_BOARDS = tuple(_data.BOARD_NAMES)
_PHASES = tuple(_core.PHASES)
_USES = tuple(_core.USES)


def _seats(players: int) -> int:
    return 3 if players == 2 else players


def observation_blocks(players: int) -> list[tuple[str, int]]:
    """The blocks of :func:`observation`'s vector in order, ``(name, size)``, for ``players``
    players (cities in table order from the observer's; card blocks count cards by name, in
    ``duelcore.seven_data.NAMES`` order)."""
    n, c = _seats(players), len(_NAMES)
    return [
        ("city_board", n * len(_BOARDS)), ("city_side_b", n), ("city_stages", n),
        ("city_coins", n), ("city_military", 2 * n), ("city_cards", n * c),
        ("city_hand_size", n), ("city_committed", n), ("commitment_use", n * len(_USES)),
        ("commitment_card", n * c), ("commitment_coins", 2 * n), ("deciding_for", n),
        ("hand", c), ("seen_hands", players * c), ("facedown_known", c),
        ("seventh_card", c), ("removed", c), ("added", c),
        ("phase", len(_PHASES)), ("age_turn", 2), ("discard_size", 1),
    ]


@functools.lru_cache(maxsize=None)
def _offsets(players: int) -> tuple[dict[str, int], int]:
    return block_offsets(observation_blocks(players))


def observation_size(players: int) -> int:
    """The length of :func:`observation`'s vector for ``players`` players (2..7)."""
    return _offsets(players)[1]


def observation(state: _core.State, player: int, deciding_for: int | None = None
                ) -> np.ndarray:
    """``state.observation(player)`` (W-INFO) as float32 counts and one-hots, shape
    ``(observation_size(players),)`` (:func:`observation_blocks`); ``deciding_for``: the
    seat the player decides for now, or None.  Coins and military are raw (coins, VP and
    defeat tokens), cards are counts.

    Raises
    ------
    ValueError
        If ``player`` is not a player of the game.
    """
    players = state.players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"player must be from 0 to {players - 1}, not {player!r}")
    o = state.observation(player)
    n = _seats(players)
    pos, size = _offsets(players)
    out = np.zeros(size, dtype=np.float32)

    def cards(block: str, base: int, names) -> None:
        at = pos[block] + base
        for name in names:
            out[at + _CARD[name]] += 1

    for seat, city in enumerate(o["seats"]):
        r = (seat - player) % n
        if city["board"] is not None:
            out[pos["city_board"] + r * len(_BOARDS) + _BOARDS.index(city["board"])] = 1
        out[pos["city_side_b"] + r] = city["side"] == "B"
        out[pos["city_stages"] + r] = city["stages"]
        out[pos["city_coins"] + r] = city["coins"]
        out[pos["city_military"] + 2 * r] = city["military"][0]
        out[pos["city_military"] + 2 * r + 1] = city["military"][1]
        cards("city_cards", r * len(_NAMES), city["city"])
        out[pos["city_hand_size"] + r] = city["hand_size"]
    for seat, action in o["committed"].items():      # the player's own, this turn
        r = (int(seat) - player) % n
        out[pos["city_committed"] + r] = 1
        if action < _core.NUM_TURN_ACTIONS:
            use, name, left, right = _core.decode_turn_action(action)
            out[pos["commitment_use"] + r * len(_USES) + _USES.index(use)] = 1
            out[pos["commitment_card"] + r * len(_NAMES) + _CARD[name]] = 1
            out[pos["commitment_coins"] + 2 * r] = left
            out[pos["commitment_coins"] + 2 * r + 1] = right
    if deciding_for is not None:
        out[pos["deciding_for"] + (deciding_for - player) % n] = 1
    cards("hand", 0, o["hand"])
    for k, hand in enumerate(o["seen_hands"]):
        cards("seen_hands", k * len(_NAMES), hand)
    cards("facedown_known", 0, o["facedown_known"])
    if o["seventh_card"] is not None:
        cards("seventh_card", 0, [o["seventh_card"]])
    cards("removed", 0, o["removed"])
    cards("added", 0, o["added"])
    out[pos["phase"] + _PHASES.index(o["phase"])] = 1
    out[pos["age_turn"]] = o["age"]
    out[pos["age_turn"] + 1] = o["turn"]
    out[pos["discard_size"]] = o["discard_size"]
    return out


def env(players: int = 3, render_mode: str | None = None, **rule_options) -> AECEnv:
    """The environment in PettingZoo's order-enforcing wrapper (``reset`` must come first).
    See :class:`raw_env`."""
    return wrappers.OrderEnforcingWrapper(raw_env(players, render_mode=render_mode,
                                                  **rule_options))


class raw_env(CoreAECEnv):
    """7 Wonders, AEC API (see the module docstring).

    Parameters
    ----------
    players : int
        2 to 7 (2: the Free City variant).
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the table drawn as text.
    **rule_options
        ``sides`` and ``boards``, as :func:`duelcore.seven.new_state`.

    Raises
    ------
    ValueError
        For players outside 2..7, an unknown render mode or rule option, or a bad option
        value (naming it).
    """

    metadata = {"render_modes": ["ansi"], "name": "seven_wonders_v0",
                "is_parallelizable": False}

    def __init__(self, players: int = 3, render_mode: str | None = None, **rule_options):
        check_env_setup(players, rule_options, ("sides", "boards"), _core.new_state)
        box = spaces.Box(-1e4, 1e4, (observation_size(players),), dtype=np.float32)
        super().__init__(players, NUM_DECISION_ACTIONS, box, render_mode)
        self.players = players
        self.rule_options = dict(rule_options)

    def _seat(self) -> int:
        """The seat whose decision comes next: the first that still has to decide."""
        return self._state.pending_seats()[0]

    def _to_move(self) -> int:
        return self._state.decider(self._seat())

    def _legal(self) -> list[int]:
        return self._state.legal_actions(self._seat())

    def _apply(self, action: int) -> None:
        self._state.apply_action(action, self._seat())

    def _new_state(self, seed: int) -> _core.State:
        return _core.new_state(self.players, seed, **self.rule_options)

    def _observation(self, seat: int) -> np.ndarray:
        st = self._state
        deciding = None if st.is_terminal() or self._to_move() != seat else self._seat()
        return observation(st, seat, deciding)

    def _render(self) -> str:
        return render_text(self._state)

    def _out_of_range(self, action: int) -> Exception:
        return _core.IllegalActionError(f"action {action} is out of range: decisions are "
                                        f"0..{NUM_DECISION_ACTIONS - 1}")
