"""Game records of 7 Wonders Architects: a JSON document with the set-up and every decision.

Seed + set-up + decisions are the whole game (chance is sampled from the seed, A-CHANCE).
Format (version 1)::

    {"game": "architects", "format": 1, "players": 4, "seed": 7,
     "setup": {"wonders": [...], "free_order": true, ...},     # new_game keywords, optional
     "agents": ["mcts:1000", "greedy", ...],                    # optional
     "moves": [[seat, action, "text"], ...],
     "result": {"winners": [...], "totals": [...]}}             # optional

``text`` is the action's name (:func:`duelpy.architects.notation.action_name`), checked on
replay; ``seat`` must be the seat whose decision it is.
"""
from __future__ import annotations

from duelcore.architects import engine as _core

from duelpy.base.records import (check_keys, check_result, is_int as _is_int, load_checked,
                                  write_record)
from duelpy.architects.game import new_game
from duelpy.architects.notation import action_name

__all__ = ["FORMAT", "RecordError", "record_of", "replay", "save_record", "load_record"]

FORMAT = 1
KEYS = {"game", "format", "players", "seed", "setup", "agents", "moves", "result"}
#: Largest record file read (bytes).
MAX_BYTES = 16 * 1024 * 1024


class RecordError(ValueError):
    """A malformed or inconsistent Architects game record (one line naming the problem)."""


def record_of(players: int, seed: int, moves, setup=None, agents=None, state=None) -> dict:
    """A record of the decisions ``moves`` (``(seat, action)`` pairs) from the start of the
    game ``new_game(players, seed, **setup)``."""
    st = new_game(players, seed, **(setup or {}))
    out = []
    for seat, a in moves:
        out.append([int(seat), int(a), action_name(st, a)])
        st.apply_action(a)
    rec = {"game": "architects", "format": FORMAT, "players": players, "seed": seed}
    if setup:
        rec["setup"] = dict(setup)
    if agents:
        rec["agents"] = list(agents)
    rec["moves"] = out
    if st.is_terminal():
        rec["result"] = {"winners": st.winners(), "totals": [s["total"] for s in st.scores()]}
    return rec


def load_record(path) -> dict:
    """Read and check a record (RecordError, also for an unreadable file or bad JSON); the
    errors of its replay name the file."""
    return load_checked(path, RecordError, replay, MAX_BYTES)


def save_record(path, rec: dict) -> None:
    """Write a record as JSON (checked by a replay first)."""
    write_record(path, rec, replay)


def replay(rec) -> _core.State:
    """The final state of a record, every move checked.  Raises RecordError."""
    check_keys(rec, KEYS, ("game", "format", "players", "seed", "moves"), RecordError)
    if rec["game"] != "architects":
        raise RecordError(f"not a 7 Wonders Architects record: its game is "
                          f"{str(rec['game'])[:30]!r}")
    if rec["format"] != FORMAT:
        raise RecordError(f"reads 7 Wonders Architects record format {FORMAT}, not "
                          f"{str(rec['format'])[:30]}")
    setup = rec.get("setup", {})
    if not isinstance(setup, dict):
        raise RecordError("setup must be a table of new_game keywords")
    if not _is_int(rec["players"]) or not _is_int(rec["seed"]):
        raise RecordError("players and seed must be integers")
    agents = rec.get("agents")
    if agents is not None and not (isinstance(agents, list) and all(isinstance(a, str)
                                                                    for a in agents)):
        raise RecordError("agents must be a list of agent descriptions")
    try:
        st = new_game(rec["players"], rec["seed"], **setup)
    except (ValueError, TypeError) as e:
        raise RecordError(f"bad set-up: {e}") from None
    moves = rec["moves"]
    if not isinstance(moves, list):
        raise RecordError("moves must be a list")
    for i, m in enumerate(moves):
        if not (isinstance(m, list) and len(m) == 3 and _is_int(m[0]) and _is_int(m[1])
                and isinstance(m[2], str)):
            raise RecordError(f"move {i + 1}: expected [seat, action, text], got "
                              f"{str(m)[:60]}")
        seat, a, text = m
        if st.is_terminal():
            raise RecordError(f"move {i + 1} ({text}): the game is already over")
        if seat != st.active:
            raise RecordError(f"move {i + 1} ({text}): it is P{st.active + 1}'s decision, "
                              f"not P{seat + 1}'s")
        try:
            name = action_name(st, a)
        except ValueError as e:
            raise RecordError(f"move {i + 1}: {e}") from None
        if name != text:
            raise RecordError(f"move {i + 1}: action {a} is {name!r}, not {text!r}")
        try:
            st.apply_action(a)
        except ValueError as e:
            raise RecordError(f"move {i + 1} ({text}): {e}") from None
    check_result(st, rec.get("result"), RecordError)
    return st
