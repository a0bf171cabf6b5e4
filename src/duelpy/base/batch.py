"""Chunks of games played inside a game's core (7 Wonders, Architects): who sits where in each
game of a :class:`duelpy.base.game.ChunkTask`, and the core's batch call for a chunk."""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["lineups_of", "play_core_chunk"]


def lineups_of(task: Any) -> list[list[int]] | None:
    """Per game of ``task``, the index into ``task.agents`` of each seat's agent; None when
    agent i sits at seat i (seating ``"fixed"``).  ``"rotate"``: agent (g + s) mod K at seat
    s of game g; ``"lineups"``: ``task.extra["lineups"]`` from game ``task.lo`` to
    ``task.hi - 1``.  ValueError for another seating."""
    if task.seating == "fixed":
        return None
    if task.seating == "lineups":
        return [list(x) for x in task.extra["lineups"][task.lo:task.hi]]
    if task.seating == "rotate":
        k = len(task.agents)
        return [[(g + s) % k for s in range(task.players)] for g in range(task.lo, task.hi)]
    raise ValueError(f"a game played in its core seats agents 'fixed', 'rotate' or "
                     f"'lineups', not {task.seating!r}")


def play_core_chunk(play_games_detail: Callable[..., dict], task: Any) -> dict:
    """Games ``task.lo .. task.hi - 1`` through the core's ``play_games_detail(players,
    agents, games, seed, first_game=, lineups=, **setup)`` (nogil; the core's stop flag ends
    the batch early, with the games finished): its arrays without the timing.  Set-up values
    that are None are left out."""
    setup = {k: v for k, v in dict(task.setup).items() if v is not None}
    raw = play_games_detail(task.players, list(task.agents), task.hi - task.lo, task.seed,
                            first_game=task.lo, lineups=lineups_of(task), **setup)
    raw.pop("seconds", None)
    return raw
