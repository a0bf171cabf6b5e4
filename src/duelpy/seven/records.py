"""7 Wonders game records: a JSON document holding the set-up and every decision.

Seed + set-up + decisions are the whole game (W-CHANCE-1; chance nodes are sampled from the
seed).  Format::

    {"game": "seven", "format": 1, "players": 4, "seed": 7, "sides": "random",
     "boards": null, "moves": [[seat, action, "text"], ...],
     "result": {"winners": [...], "totals": [...]},          # null while not over
     "remove": ["Scientists Guild"]}                         # a study's treatment, optional

``text`` is :func:`duelcore.seven.action_to_string` of the action, checked on replay.
"""
from __future__ import annotations

from duelcore import seven as _core

from duelpy.base.records import (check_keys, check_result, is_int as _is_int, load_checked,
                                  write_record)
from duelpy.seven.game import new_game

KEYS = {"game", "format", "players", "seed", "sides", "boards", "moves", "result", "remove"}


class RecordError(ValueError):
    """A malformed or inconsistent 7 Wonders game record (the message names the problem)."""


def record_of(players, seed, moves, sides="random", boards=None, state=None,
              remove=None) -> dict:
    """A record dict for the decisions ``moves`` (``(seat, action)`` pairs); ``remove``:
    the cards a study left out of the game (key present only then)."""
    rec = {"game": "seven", "format": 1, "players": players, "seed": seed, "sides": sides,
           "boards": boards,
           "moves": [[int(s), int(a), _core.action_to_string(a)] for s, a in moves]}
    if remove:
        rec["remove"] = list(remove)
    if state is not None and state.is_terminal():
        rec["result"] = {"winners": state.winners(),
                         "totals": [s["total"] for s in state.scores()]}
    return rec


def replay(rec: dict) -> _core.State:
    """The final State of a record, every move checked.  Raises RecordError."""
    check_keys(rec, KEYS, KEYS - {"result", "boards", "remove"}, RecordError)
    if rec["game"] != "seven":
        raise RecordError(f"not a 7 Wonders record: its game is {str(rec['game'])[:30]!r}")
    if rec["format"] != 1:
        raise RecordError(f"reads 7 Wonders record format 1, not {str(rec['format'])[:30]}")
    if not (_is_int(rec["players"]) and _is_int(rec["seed"]) and 0 <= rec["seed"] < 2**64):
        raise RecordError(f"players must be an integer and seed an integer from 0 to "
                          f"2**64 - 1, not {str(rec['players'])[:30]} and "
                          f"{str(rec['seed'])[:30]}")
    try:
        st = new_game(rec["players"], seed=rec["seed"], sides=rec["sides"],
                      boards=rec.get("boards"), remove=rec.get("remove"))
    except (ValueError, TypeError) as e:
        raise RecordError(f"bad set-up: {e}") from None
    if not isinstance(rec["moves"], list):
        raise RecordError("moves must be a list")
    for i, m in enumerate(rec["moves"]):
        if not (isinstance(m, list) and len(m) == 3 and _is_int(m[0]) and _is_int(m[1])
                and isinstance(m[2], str)):
            raise RecordError(f"move {i + 1}: expected [seat, action, text], got {m!r}")
        seat, a, text = m
        try:
            name = _core.action_to_string(a)
        except ValueError as e:
            raise RecordError(f"move {i + 1}: {e}") from None
        if name != text:
            raise RecordError(f"move {i + 1}: action {a} is {name!r}, not {text!r}")
        try:
            st.apply_action(a, seat)
        except _core.IllegalActionError as e:
            raise RecordError(f"move {i + 1} ({text}): {e}") from None
        except ValueError as e:
            raise RecordError(f"move {i + 1}: {e}") from None
    check_result(st, rec.get("result"), RecordError)
    return st


def save_record(path, rec: dict) -> None:
    """Write a record as JSON (checked by a replay first)."""
    write_record(path, rec, replay)


def load_record(path) -> dict:
    """Read and check a record.  Raises RecordError (also for unreadable JSON); the errors
    of its replay name the file."""
    return load_checked(path, RecordError, replay)
