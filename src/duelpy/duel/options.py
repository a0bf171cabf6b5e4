"""The rule options of 7 Wonders Duel as data: their canonical (JSON-safe) form, their
validation with one-line errors naming the key, the keywords of :func:`duelcore.new_game`
they stand for, and their description in words.  Read by studies, records and the command
line."""
from __future__ import annotations

import difflib
from typing import Any

import duelcore
from duelcore import data

from duelpy.base.errors import StudyError

__all__ = ["GAME_OPTIONS", "CONTROL", "DEFAULT_OPTIONS", "normalise_options", "game_options",
           "describe_options"]

#: The rule options of :func:`duelcore.new_game` (and of every study arm).
GAME_OPTIONS = ("first_game_wonders", "centred_pawn", "start_coins", "banned_tokens",
                "forced_wonders")
#: Name of the study arm played with the study's own rule options.
CONTROL = "control"
MAX_SEED = 2**64 - 1

def _close(word, choices):
    """' (did you mean X?)' for the closest of ``choices`` to ``word``, or ''."""
    if not isinstance(word, str):
        return ""
    lowered = {c.casefold(): c for c in choices}
    hits = difflib.get_close_matches(word.casefold(), list(lowered), n=3, cutoff=0.5)
    if hits:        # only the best ones
        score = [difflib.SequenceMatcher(None, word.casefold(), h).ratio() for h in hits]
        hits = [h for h, r in zip(hits, score) if r >= max(score) - 0.1]
    if not hits:
        # "Pyramids" for "The Pyramids": a word of the name is enough to suggest it
        key = word.casefold().strip()
        hits = [k for k in lowered if key and key in k][:3]
    if not hits:
        return ""
    return " (did you mean " + " or ".join(repr(lowered[h]) for h in hits) + "?)"


def _canonical(value, names, what, where):
    """The official spelling of a wonder or progress token name (case and spaces ignored)."""
    if not isinstance(value, str):
        raise StudyError(f"{where}: a {what} is written by its name, not {value!r}")
    key = " ".join(value.split()).casefold()
    for n in names:
        if n.casefold() == key:
            return n
    raise StudyError(f"{where}: unknown {what} {value!r}"
                     f"{_close(value, names) or '; choose from ' + ', '.join(names)}")


def _check_keys(table, allowed, where):
    if not isinstance(table, dict):
        raise StudyError(f"{where} must be a table of key = value, not {type(table).__name__}")
    where = where.rstrip(":")
    for key in table:
        if key not in allowed:
            raise StudyError(f"{where}: unknown key {key!r}{_close(key, allowed)}; "
                             f"keys: {', '.join(allowed)}")


def _at(where: str, key: str) -> str:
    """'study.games', or 'file.toml: games' for a file."""
    return f"{where} {key}" if where.endswith(":") else f"{where}.{key}"


def _int(value, where, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StudyError(f"{where} must be an integer from {lo:,} to {hi:,}, not {value!r}")
    return value


def _normalise_options(opts: dict, where: str, base: dict | None = None) -> dict:
    """Game options in canonical JSON-safe form, validated (overlaid on ``base`` if given)."""
    out: dict[str, Any] = dict(base) if base is not None else {
        "centred_pawn": "chooses", "first_game_wonders": False, "start_coins": [7, 7],
        "banned_tokens": [], "forced_wonders": [None, None]}
    for key, value in opts.items():
        if key == "name":
            continue
        w = _at(where, key)
        if key == "centred_pawn":
            if value not in ("chooses", "begins"):
                raise StudyError(f"{w} must be 'chooses' or 'begins', not {value!r}"
                                 f"{_close(value, ('chooses', 'begins'))}")
            out[key] = value
        elif key == "first_game_wonders":
            if not isinstance(value, bool):
                raise StudyError(f"{w} must be true or false, not {value!r}")
            out[key] = value
        elif key == "start_coins":
            if not isinstance(value, (list, tuple)) or len(value) != 2:
                raise StudyError(f"{w} must be two integers [P1's, P2's], not {value!r}")
            out[key] = [_int(value[0], w + "[0]", 0, 1000), _int(value[1], w + "[1]", 0, 1000)]
        elif key == "p2_extra_coins":
            extra = _int(value, w, -1000, 1000)
            c0, c1 = out["start_coins"]
            if not 0 <= c1 + extra <= 1000:
                raise StudyError(f"{w}: P2 would start with {c1 + extra} coins (0 to 1,000)")
            out["start_coins"] = [c0, c1 + extra]
        elif key == "banned_tokens":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, (list, tuple)):
                raise StudyError(f"{w} must be a list of progress token names, not {value!r}")
            names = [_canonical(t, data.TOKEN_NAMES, "progress token", w) for t in value]
            out[key] = sorted(set(names), key=data.TOKEN_NAMES.index)
        elif key == "forced_wonders":
            if isinstance(value, dict):
                _check_keys(value, ("p1", "p2"), w)
                value = [value.get("p1"), value.get("p2")]
            if not isinstance(value, (list, tuple)) or len(value) != 2:
                raise StudyError(f"{w} must be {{p1 = \"wonder\", p2 = \"wonder\"}} "
                                 f"(either may be left out), not {value!r}")
            out[key] = [None if v in (None, "") else
                        _canonical(v, data.WONDER_NAMES, "wonder", f"{w}.p{i + 1}")
                        for i, v in enumerate(value)]
        else:
            raise StudyError(f"{where}: unknown key {key!r}")
    try:
        duelcore.new_game(0, **game_options(out))     # the core's own validation
    except (ValueError, TypeError) as e:
        raise StudyError(f"{where}: {e}") from None
    return out


def game_options(opts: dict) -> dict:
    """Keyword arguments of :func:`duelcore.new_game` / ``play_games_raw`` for canonical
    options (lists become tuples, unset treatments are left out)."""
    out = {"centred_pawn": opts["centred_pawn"],
           "first_game_wonders": bool(opts["first_game_wonders"]),
           "start_coins": tuple(opts["start_coins"])}
    if opts["banned_tokens"]:
        out["banned_tokens"] = tuple(opts["banned_tokens"])
    if any(opts["forced_wonders"]):
        out["forced_wonders"] = tuple(opts["forced_wonders"])
    return out


def describe_options(changes: dict) -> str:
    """A short English description of option changes, e.g. 'P2 starts with 9 coins'."""
    parts = []
    for key, value in changes.items():
        if key == "centred_pawn":
            parts.append(f"centred pawn: the last player {value} who begins"
                         if value == "chooses" else "centred pawn: the last player begins")
        elif key == "first_game_wonders":
            parts.append("first-game wonders" if value else "wonder draft")
        elif key == "start_coins":
            parts.append(f"start coins {value[0]}/{value[1]}")
        elif key == "banned_tokens":
            parts.append("ban " + ", ".join(value) if value else "no token banned")
        elif key == "forced_wonders":
            parts += [f"{w} forced to P{i + 1}" for i, w in enumerate(value) if w]
    return "; ".join(parts) or "same rules as the control"




#: The rulebook's options in canonical form.
DEFAULT_OPTIONS = {"centred_pawn": "chooses", "first_game_wonders": False, "start_coins": [7, 7],
                   "banned_tokens": [], "forced_wonders": [None, None]}
normalise_options = _normalise_options
