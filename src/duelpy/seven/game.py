"""New games, results, notation and agents of 7 Wonders (see :mod:`duelpy.seven`)."""
from __future__ import annotations

from duelcore import seven as _core
from duelcore import seven_data as _data

from duelpy.seven.names import resolve_card

AGENTS = ("random", "greedy", "mcts")


def new_game(players: int = 3, seed: int = 0, sides: str | None = "random",
             boards=None, explicit_chance: bool = False,
             all_pairs: bool = False, remove=None) -> _core.State:
    """A new 7 Wonders game at the start of Age I's first turn (W-SETUP).

    Parameters
    ----------
    players : 2..7; 2 is the Free City variant (W-FREE): seats 0 and 1 are the players and
        seat 2 the Free City.
    seed : non-negative int; with the actions it determines the whole game (W-CHANCE-1).
    sides : ``"random"`` (default, W-SETUP-4), ``"A"`` or ``"B"`` for every seat.
    boards : None, or one entry per seat: None, a board name (``"Rhodos"``) or a board and
        side (``"Gizah B"``).
    explicit_chance : show chance nodes (deals, guilds, boards) to the caller with their exact
        probabilities instead of sampling them.
    all_pairs : offer every payment pair instead of the non-dominated ones (W-TRADE-6).
    remove : a study treatment, not a rule: card names (any case) left out of the game; a
        removed guild is never drawn, each copy of a removed Age card is replaced by a spare
        copy of the same Age drawn from the seed (see :func:`duelcore.seven.new_state`).

    Raises
    ------
    ValueError naming the bad argument (player count, unknown board or side, seed, a card
    that cannot be removed).
    """
    if sides is None:
        sides = "random"
    if remove:
        remove = [resolve_card(c) for c in ([remove] if isinstance(remove, str) else remove)]
    return _core.new_state(players, seed=seed, boards=boards, sides=sides,
                           explicit_chance=explicit_chance, all_pairs=all_pairs,
                           remove=remove or None)


def result(state: _core.State) -> dict:
    """The result of a finished game: ``winners`` (players), ``returns``, ``scores`` (VP by
    category per seat, W-END-1), ``coins``, ``boards`` and ``free_city`` (its seat or None).

    Raises ValueError if the game is not over."""
    if not state.is_terminal():
        raise ValueError("the game is not over")
    return {
        "players": state.players,
        "winners": state.winners(),
        "returns": state.returns(),
        "scores": state.scores(),
        "coins": [state.coins(i) for i in range(state.seats)],
        "boards": [" ".join(map(str, state.board(i)[:2])) for i in range(state.seats)],
        "free_city": 2 if state.players == 2 else None,
    }


def parse_action(state: _core.State, seat: int, text: str) -> int:
    """The legal action of ``seat`` whose text (:func:`action_to_string`) is ``text``.

    Raises IllegalActionError listing nothing more than the reason."""
    legal = state.legal_actions(seat)
    for a in legal:
        if _core.action_to_string(a) == text.strip():
            return a
    raise _core.IllegalActionError(f"{text!r} is not a legal action of seat {seat} here")


def _check_agent(desc):
    kind = str(desc).partition(":")[0]
    if kind not in AGENTS:
        raise ValueError(f"unknown agent {desc!r} (one of {', '.join(AGENTS)}, mcts:ITERATIONS)")


def choose_action(state: _core.State, seat: int, agent: str = "random", seed: int = 0) -> int:
    """The action ``agent`` picks for ``seat`` (``"random"``, ``"greedy"``, ``"mcts"`` or
    ``"mcts:ITERATIONS"``).  The MCTS agent determinizes what the seat's decider cannot see."""
    _check_agent(agent)
    return _core.choose_action(state, seat, agent, seed)


def play_game(players: int, agents, seed: int = 0, sides="random", remove=None):
    """Play one game between ``agents`` (one description per player; the Free City is played by
    its controller's agent).  Returns ``(final state, moves)`` where moves is the list of
    ``(seat, action)`` decisions in order — a game record's body."""
    if len(agents) != players:
        raise ValueError(f"{players} players need {players} agents, got {len(agents)}")
    for a in agents:
        _check_agent(a)
    st = new_game(players, seed=seed, sides=sides, remove=remove)
    moves = []
    k = 0
    while not st.is_terminal():
        # seat by seat: the agents read nothing of another decider's commitment (MCTS forgets
        # them when it determinizes); the Free City's controller sees its own first card
        for seat in st.pending_seats():
            k += 1
            a = _core.choose_action(st, seat, agents[st.decider(seat)], seed * 1_000_003 + k)
            st.apply_action(a, seat)
            moves.append((seat, a))
    return st, moves


BOARD_NAMES = _data.BOARD_NAMES

