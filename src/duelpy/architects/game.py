"""New games, results and agents' games of 7 Wonders Architects (see :mod:`duelpy.architects`).

The rules are the core's (:mod:`duelcore.architects.engine`); this module checks the set-up
keywords, names the results and plays agents against each other move by move.
"""
from __future__ import annotations

import difflib
from typing import Any, Mapping, Sequence

from duelcore.architects import engine as _core

from duelpy.architects.agents import parse_agent

__all__ = ["SETUP_KEYS", "ArchitectsSetupError", "new_game", "check_setup", "result",
           "choose_action", "play_game", "resolve_wonder"]

#: The set-up keywords of a game (A-SETUP-2, A-OPT; ``removed_tokens`` is a study treatment).
SETUP_KEYS = ("wonders", "free_order", "economy_forces_build", "engineering_once_per_turn",
              "coins_only_when_needed", "wonder_power_optional", "removed_tokens")


class ArchitectsSetupError(ValueError):
    """A set-up keyword or value that Architects does not take (one line naming it)."""


def check_setup(players: int, setup: Mapping[str, Any]) -> dict:
    """The set-up keywords checked and normalised: wonder and token names canonical, options
    at their default left out.  Raises ArchitectsSetupError (a ValueError) naming the
    problem: an unknown keyword (an option of another game), a bad value, a wonder given
    twice, a player count outside 2..7."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
        raise ArchitectsSetupError(f"7 Wonders Architects is played by 2 to 7 players, not "
                                   f"{players!r} (A-SETUP-1)")
    if not isinstance(setup, Mapping):
        raise ArchitectsSetupError(f"the set-up is a table of keywords, not {setup!r}")
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise ArchitectsSetupError(f"{unknown[0]!r} is not an option of 7 Wonders Architects "
                                   f"(options: {', '.join(SETUP_KEYS)})")
    out: dict = {}
    for key, value in setup.items():
        if value is None:
            continue
        if key == "wonders":
            if isinstance(value, Mapping):          # {seat: wonder}: the others at random
                seats = [None] * players
                for seat, w in value.items():
                    if isinstance(seat, bool) or not isinstance(seat, int) \
                            or not 0 <= seat < players:
                        raise ArchitectsSetupError(f"wonders: {seat!r} is not a seat of a "
                                                   f"{players}-player game (0..{players - 1})")
                    seats[seat] = w
                value = seats
            if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                raise ArchitectsSetupError(f"wonders: one wonder (or None) per seat, not "
                                           f"{value!r}")
            if len(value) != players:
                raise ArchitectsSetupError(f"wonders: give one entry per seat ({players}), "
                                           f"not {len(value)}")
            try:
                names = [None if w is None else resolve_wonder(w) for w in value]
            except ValueError as e:
                raise ArchitectsSetupError(f"wonders: {e}") from None
            given = [w for w in names if w]
            if len(set(given)) != len(given):
                twice = next(w for w in given if given.count(w) > 1)
                raise ArchitectsSetupError(f"wonders: {twice} is given to two seats "
                                           f"(A-SETUP-2)")
            if any(names):
                out["wonders"] = names
        elif key == "removed_tokens":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, (list, tuple)):
                raise ArchitectsSetupError(f"removed_tokens: a list of token names, not "
                                           f"{value!r}")
            try:
                names = [_core.TOKENS[_core.resolve_token(t)] for t in items]
            except ValueError as e:
                raise ArchitectsSetupError(f"removed_tokens: {e}") from None
            names = list(dict.fromkeys(names))
            if names:
                out["removed_tokens"] = names
        else:
            if not isinstance(value, bool):
                raise ArchitectsSetupError(f"{key} must be true or false, not {value!r}")
            if value != _core.RULE_DEFAULTS[key]:
                out[key] = value
    return out


def resolve_wonder(name) -> str:
    """The wonder named ``name``: one of the seven (``WONDERS``), regardless of case and
    spacing, with or without "The" ("Colossus of Rhodes" names Rhodes); a wonder id 0..6 too.

    Stricter than the core's ``resolve_wonder``, which also takes any text that starts with a
    wonder's name ("Gizah" for Giza): a misspelling is refused.  Raises ValueError naming the
    text, the closest names and the wonders."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(_core.WONDERS):
        return _core.WONDERS[name]
    if not isinstance(name, str):
        raise ValueError(f"a wonder is a name such as 'Giza', not {name!r}")
    names = {w.lower(): w for w in _core.WONDERS}
    key = " ".join(name.lower().split())
    key = key[4:] if key.startswith("the ") else key
    last = key.rsplit(" ", 1)[-1]
    if key in names or " of " in key and last in names:
        return names[key if key in names else last]
    close = difflib.get_close_matches(key, list(names), n=2, cutoff=0.6) or \
        difflib.get_close_matches(last, list(names), n=2, cutoff=0.6)
    hint = f" (did you mean {' or '.join(repr(names[c]) for c in close)}?)" if close else ""
    raise ValueError(f"unknown wonder {name!r}{hint}; the wonders of 7 Wonders Architects: "
                     f"{', '.join(_core.WONDERS)}")


def new_game(players: int = 4, seed: int = 0, explicit_chance: bool = False,
             **setup: Any) -> _core.State:
    """A new game at seat 0's first decision (A-SETUP; chance sampled from ``seed`` unless
    ``explicit_chance``).  ``setup``: the keywords of :data:`SETUP_KEYS` (``wonders``: one
    name or None per seat, or ``{seat: name}``; the rule options of A-OPT;
    ``removed_tokens``).  Raises ValueError naming a bad argument."""
    kw = check_setup(players, setup)
    return _core.new_state(players, seed, explicit_chance=explicit_chance, **kw)


def result(state: _core.State) -> dict:
    """A finished game's result: ``winners`` (seats, A-END-4), ``vp`` ({category: [VP per
    seat]}, total included, A-END-3), ``stages`` (built per seat), ``ranking`` (places,
    A-END-5), ``wonders``.  ValueError before the end."""
    if not state.is_terminal():
        raise ValueError("the game is not over")
    scores = state.scores()
    n = state.players
    return {"winners": state.winners(),
            "vp": {c: [scores[i][c] for i in range(n)] for c in _core.VP_CATEGORIES},
            "stages": [len(state.stages(i)) for i in range(n)],
            "ranking": state.ranking(), "wonders": [state.wonder(i) for i in range(n)]}


def choose_action(state: _core.State, agent: str = "random", seed: int = 0) -> int:
    """The decision ``agent`` (a description) makes for the active seat; it reads only what
    that seat may see (A-INFO)."""
    return _core.choose_action(state, parse_agent(agent), seed)


def play_game(players: int, agents: Sequence[str], seed: int = 0, **setup: Any):
    """Agents play one game (one description per seat).  Returns ``(final state, moves)``,
    ``moves`` being the ``(seat, action)`` decisions in order: a game record's body."""
    if len(agents) != players:
        raise ValueError(f"{players} players need {players} agents, got {len(agents)}")
    names = [parse_agent(a) for a in agents]
    st = new_game(players, seed, **setup)
    moves = []
    k = 0
    while not st.is_terminal():
        k += 1
        seat = st.active
        a = _core.choose_action(st, names[seat], (seed * 1_000_003 + k) % 2**64)
        st.apply_action(a)
        moves.append((seat, a))
    return st, moves
