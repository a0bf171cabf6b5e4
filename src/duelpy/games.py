"""The registry of games: one line per game.  Every tool (the runner, the commands, the
conformance tests) finds a game here by its name and speaks only its interface
(:class:`duelpy.base.game.Game`).

>>> from duelpy.games import GAMES, get_game
>>> sorted(GAMES), get_game("seven").title
(['architects', 'duel', 'seven'], '7 Wonders')
"""
from __future__ import annotations

from duelpy.architects.interface import GAME as _ARCHITECTS
from duelpy.base.game import ChunkTask, Game, UnknownGameError
from duelpy.base.specs import close_matches
from duelpy.duel.interface import GAME as _DUEL
from duelpy.seven.interface import GAME as _SEVEN

__all__ = ["GAMES", "get_game", "play_task"]

#: Every game, by name.
_ALL: tuple[Game, ...] = (_DUEL, _SEVEN, _ARCHITECTS)
GAMES: dict[str, Game] = {g.name: g for g in _ALL}


def get_game(name: str) -> Game:
    """The game called ``name`` (any case).  Raises UnknownGameError (a ValueError) naming
    the games there are."""
    key = str(name).strip().lower()
    if key not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}{close_matches(key, GAMES)}; the games: "
                               f"{', '.join(GAMES)}")
    return GAMES[key]


def play_task(task: ChunkTask) -> dict:
    """The runner's worker function: play ``task``'s games with its game (module-level, so
    worker processes and Ray can import it)."""
    return GAMES[task.game].play_chunk(task)
