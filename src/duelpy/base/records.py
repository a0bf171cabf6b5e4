"""What the record modules of 7 Wonders and Architects share: reading a record file's JSON
with one-line errors, and checking a record's result against its replayed final state."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

__all__ = ["is_int", "read_record_json", "load_checked", "write_record", "check_keys", "check_result",
           "json_problem"]


def is_int(v: Any) -> bool:
    """True for an int that is not a bool (JSON's true/false are no seat, action or seed)."""
    return isinstance(v, int) and not isinstance(v, bool)


def json_problem(e: json.JSONDecodeError) -> str:
    """What is wrong with a JSON text, as a complete phrase with its place: "unexpected end
    after line 8, column 2 (cut short?)", "expecting ',' delimiter at line 3, column 7".
    (json's own ``msg`` may be cut short: "Unterminated string starting at".)"""
    doc = e.doc or ""
    end = len(doc.rstrip())
    msg = e.msg[:-3] if e.msg.endswith(" at") else e.msg
    msg = msg[:1].lower() + msg[1:]
    if e.pos >= end or msg.startswith("unterminated string"):
        last = max(end - 1, 0)
        line = doc.count("\n", 0, last) + 1
        column = last - doc.rfind("\n", 0, last)
        inside = f", inside a string opened at line {e.lineno}, column {e.colno}" \
            if msg.startswith("unterminated string") else ""
        return f"unexpected end after line {line}, column {column}{inside} (cut short?)"
    if msg == "extra data":
        msg = "more text after the JSON value"
    return f"{msg} at line {e.lineno}, column {e.colno}"


def read_record_json(path: Any, error: type[Exception], max_bytes: int | None = None) -> Any:
    """The JSON document in the file ``path`` (a UTF-8 BOM allowed).  Raises ``error`` (the
    game's RecordError) as "cannot read record PATH: why" for a file that cannot be read,
    one over ``max_bytes`` (None: no limit), text that is not UTF-8, an empty file, invalid
    JSON (line and column) or JSON nested too deeply."""
    try:
        with open(path, "rb") as f:
            raw = f.read() if max_bytes is None else f.read(max_bytes + 1)
    except OSError as e:
        raise error(f"cannot read record {path}: {e.strerror or e}") from None
    if max_bytes is not None and len(raw) > max_bytes:
        raise error(f"cannot read record {path}: larger than {max_bytes:,} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"cannot read record {path}: not UTF-8 text ({e.reason} at byte "
                    f"{e.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        if not text.strip():
            raise error(f"cannot read record {path}: empty file") from None
        raise error(f"{path} is not valid JSON: {json_problem(e)}") from None
    except RecursionError:
        raise error(f"cannot read record {path}: JSON nested too deeply") from None


def check_result(state: Any, result: Any, error: type[Exception]) -> None:
    """A record's ``result`` against the final ``state`` of its replay (``winners()`` and the
    ``total`` of each seat's ``scores()``): ``error`` if the game is over without a result
    (a record keeps the result of a finished game), has a result before its end, or a
    result other than the replayed one."""
    if result is None and state.is_terminal():
        raise error("the game is over but the record has no result (a record keeps the "
                    "result of a finished game)")
    if result is not None:
        if not state.is_terminal():
            raise error("the record has a result but the game is not over")
        got = {"winners": state.winners(), "totals": [s["total"] for s in state.scores()]}
        if result != got:
            raise error(f"the recorded result {result} differs from the replayed one {got}")


def load_checked(path: Any, error: type[Exception], replay: Callable[[Any], Any],
                 max_bytes: int | None = None) -> Any:
    """The record in the file ``path`` (:func:`read_record_json`), checked by ``replay``
    (the game's, raising ``error``): its errors name the file."""
    rec = read_record_json(path, error, max_bytes)
    try:
        replay(rec)
    except error as e:
        raise error(f"{path}: {e}") from None
    return rec


def write_record(path: Any, rec: Any, replay: Callable[[Any], Any]) -> None:
    """Write the record ``rec`` to ``path`` as JSON (UTF-8), checked by ``replay`` first."""
    replay(rec)
    Path(path).write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")


def check_keys(rec: Any, keys: set[str], required: Any, error: type[Exception]) -> None:
    """``error`` unless ``rec`` is a JSON object with only ``keys`` and every key of
    ``required``; a 7 Wonders Duel record (``format`` ``duel-record``) is sent to
    ``duel replay``."""
    if not isinstance(rec, dict):
        raise error("a record is a JSON object")
    if rec.get("format") == "duel-record":
        raise error("this is a 7 Wonders Duel record: replay it with duel replay")
    extra = set(rec) - keys
    if extra:
        raise error(f"unknown record key(s) {sorted(extra)}")
    for key in required:
        if key not in rec:
            raise error(f"record without {key!r}")
