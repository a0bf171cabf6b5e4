"""One parser for ``name:key=value,key=value`` descriptions (agents, and the option tables
of treatments), driven by tables of options with their types, ranges and defaults.

A *kind* (an agent such as ``mcts``) is a :class:`Kind`: its name, a one-line description,
its :class:`Option` entries and the groups of options that exclude each other.  Adding a kind
is adding a table entry; the parser, the error messages and ``duel agents`` follow from it.

Every refusal is a one-line ``ValueError`` (of the class the caller passes) naming what is
wrong: an unknown kind or option (with close matches), an empty part
(``mcts:iterations=10,,``, ``mcts:``), an option given twice, conflicting options, a value
of the wrong type or out of range (``seconds=-1``, ``c=nan``).
"""
from __future__ import annotations

import decimal
import difflib
import math
import numbers
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

__all__ = ["Option", "Kind", "int_option", "float_option", "choice_option", "parse_spec",
           "parse_pairs", "check_options", "check_conflicts", "close_matches", "split_agents",
           "core_agent_kind", "core_mcts_options", "core_lineup", "core_with_iterations",
           "core_mcts_kind_options", "core_number"]


def close_matches(word: str, choices) -> str:
    """' (did you mean X?)' for the closest of ``choices`` to ``word``, or ''."""
    hits = difflib.get_close_matches(str(word).lower(), list(choices), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(h) for h in hits)}?)" if hits else ""


@dataclass(frozen=True)
class Option:
    """One option of a kind.

    Attributes
    ----------
    name : str
        The key, as written (``iterations``).
    default : Any
        The value when the option is not given (shown by ``duel agents``).
    help : str
        What it means, with its unit.
    domain : str
        The values allowed, in words ("an integer from 1 to 100,000,000").
    check : callable
        ``check(value) -> value``: the value if it is allowed (maybe normalised), else
        raises ValueError (the message is built from ``domain``).
    from_text : callable
        ``from_text(text) -> value`` for the command line; ValueError if not of the type.
    default_text : str
        How the default is shown, when it is not just ``default`` (e.g. "1000 unless seconds").
    """

    name: str
    default: Any
    help: str
    domain: str
    check: Callable[[Any], Any]
    from_text: Callable[[str], Any]
    default_text: str = ""

    def shown_default(self) -> str:
        if self.default_text:
            return self.default_text
        return "none" if self.default is None else f"{self.default:g}" \
            if isinstance(self.default, float) else str(self.default)


@dataclass(frozen=True)
class Kind:
    """A kind of thing described by a spec (an agent): its options and what makes one.

    ``make(**options)`` builds it from the options given (checked values; the others are
    left to ``make``'s own defaults, which must be the options' ``default``).
    ``conflicts`` lists groups of option names of which at most one may be given.
    """

    name: str
    help: str
    make: Callable[..., Any]
    options: tuple = ()
    conflicts: tuple = ()
    example: str = ""

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    @property
    def option_names(self) -> list[str]:
        return [o.name for o in self.options]


# ---------------------------------------------------------------- option constructors
def _is_int(v) -> bool:
    """Any integer type (numpy's included; numpy's bool is not one) but not a bool."""
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _shown(value, limit: int = 40, quote: bool = True) -> str:
    """``repr(value)`` (or, with ``quote=False``, the text itself) for an error message, cut
    to ``limit`` characters."""
    r = repr(value) if quote else str(value)
    return r if len(r) <= limit else f"{r[:limit - 3]}..."


# an integer as written on the command line: ASCII digits, _ only between digit groups
_INT_TEXT = re.compile(r"[+-]?\d(_?\d)*", re.ASCII)


def _int_text(text: str) -> int:
    t = text.strip().replace(",", "")
    if not _INT_TEXT.fullmatch(t):
        raise ValueError("expected int")
    return int(t)


# a number as written on the command line: ASCII digits (with _ between digit groups, as in
# integers), an optional exponent; nan and inf are read so that the range check names them
_FLOAT_TEXT = re.compile(r"[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d+)?"
                         r"|[+-]?(nan|inf|infinity)", re.ASCII | re.IGNORECASE)


def _float_text(text: str) -> float:
    t = text.strip()
    if not _FLOAT_TEXT.fullmatch(t):
        raise ValueError("expected float")
    return float(t)


def int_option(name, lo, hi, default, help, *, also=(), default_text="",
               domain="") -> Option:
    """An integer option in ``lo .. hi`` (or one of the special values ``also``)."""
    extra = "".join(f"{a} or " for a in also)
    domain = domain or f"{extra}an integer from {lo:,} to {hi:,}"

    def check(v):
        if not _is_int(v) or not (lo <= v <= hi or v in also):
            raise ValueError(domain)
        return int(v)
    return Option(name, default, help, domain, check, _int_text, default_text)


def float_option(name, lo, hi, default, help, *, lo_open=False, default_text="") -> Option:
    """A finite number in ``[lo, hi]`` (``(lo, hi]`` with ``lo_open``); nan and inf refused."""
    domain = f"a number in {'(' if lo_open else '['}{lo:g}, {hi:g}]"

    def check(v):
        # any real number type (numpy's included) but not a bool; -0.0 is 0.0
        if isinstance(v, bool) or not isinstance(v, (numbers.Real, decimal.Decimal)):
            raise ValueError(domain)
        try:
            f = float(v)
        except (OverflowError, ValueError):     # a number beyond the float range
            raise ValueError(domain) from None
        if not math.isfinite(f) or f < lo or f > hi or (lo_open and f == lo):
            raise ValueError(domain)
        return f + 0.0
    return Option(name, default, help, domain, check, _float_text, default_text)


def choice_option(name, choices, default, help) -> Option:
    """One of the words ``choices`` (case ignored)."""
    domain = " or ".join(repr(c) for c in choices)

    def check(v):
        if not isinstance(v, str) or v.strip().lower() not in choices:
            raise ValueError(domain)
        return v.strip().lower()
    return Option(name, default, help, domain, check, lambda t: t.strip().lower())


# ---------------------------------------------------------------- checking and parsing
def check_conflicts(given, conflicts, where: str, error=ValueError) -> None:
    """Refuse two or more options of one group of ``conflicts`` given together."""
    for group in conflicts:
        both = [k for k in group if k in given]
        if len(both) > 1:
            raise error(f"{where}: {' and '.join(both)} cannot be given together "
                        f"(give either {' or '.join(group)})")


def check_options(kind: Kind, options: dict, error=ValueError, where: str | None = None) -> dict:
    """Check option values given from Python (types and ranges, conflicts); returns them
    normalised.  Raises ``error`` naming the option."""
    where = where or kind.name
    for key in options:
        if key not in kind.option_names:
            raise error(f"unknown option {key!r} for {kind.name}"
                        f"{close_matches(key, kind.option_names)}; options: "
                        f"{', '.join(kind.option_names) or 'none'}")
    check_conflicts(options, kind.conflicts, where, error)
    out = {}
    for key, value in options.items():
        try:
            out[key] = kind.option(key).check(value)
        except ValueError as e:
            raise error(f"{key} must be {e}, not {_shown(value)}") from None
    return out


def parse_pairs(text: str, keys, where: str, error=ValueError, what: str = "") -> dict:
    """Read ``key=value,key=value`` (keys among ``keys``, case-insensitive) into a dict of
    the value texts, refusing empty parts, a part without ``=``, a key without a value,
    unknown keys (with close matches) and a key given twice.  ``where`` is the whole text as
    the user wrote it (quoted in errors); ``what`` names its owner ("mcts")."""
    of = f" of {what}" if what else ""
    out: dict = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise error(f"{where!r}: an empty option (two commas in a row, or a comma at the "
                        f"start or the end)")
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq:
            raise error(f"option {part!r}{of} must be written key=value")
        if key not in keys:
            raise error(f"unknown option {key!r}{' for ' + what if what else ''}"
                        f"{close_matches(key, keys)}; options: {', '.join(keys) or 'none'}")
        if key in out:
            raise error(f"{where!r}: option {key} is given twice")
        value = value.strip()
        if not value:
            raise error(f"option {key}{of} has no value (write {key}=...)")
        out[key] = value
    return out


def parse_spec(text, kinds: dict, what: str = "agent", error=ValueError) -> tuple[Kind, dict]:
    """Read ``name`` or ``name:key=value,key=value`` against the table ``kinds``.

    Returns ``(kind, options)`` with every option given, checked and converted.  Keys and
    the name are case-insensitive; spaces around parts are ignored.

    Raises
    ------
    error
        One line naming the problem: an unknown name or key (with close matches), an empty
        part, an option given twice, conflicting options, a value of the wrong type or out
        of range.
    """
    example = next((k.example for k in kinds.values() if k.example), "")
    written = "', '".join(list(kinds)[:-1])
    usage = f"an {what} is written like '{written}' or '{example}'" if example else \
        f"an {what} is one of: {', '.join(kinds)}"
    if not isinstance(text, str) or not text.strip():
        raise error(usage)
    name, colon, rest = text.strip().partition(":")
    name = name.strip().lower()
    if name not in kinds:
        raise error(f"unknown {what} {name!r}{close_matches(name, kinds)}; choose from "
                    f"{', '.join(kinds)}")
    kind = kinds[name]
    if colon and not rest.strip():
        raise error(f"{text.strip()!r}: nothing after ':' (write {name!r} alone, or "
                    f"{name}:key=value)")
    given: dict = {}
    if colon:
        raw = parse_pairs(rest, kind.option_names, text.strip(), error, what=name)
        for key, value in raw.items():
            opt = kind.option(key)
            try:
                converted = opt.from_text(value)
            except ValueError as e:
                raise error(f"option {key}={_shown(value)} of {name}: {e}, {opt.domain}") from None
            try:
                given[key] = opt.check(converted)
            except ValueError:
                raise error(f"{key} must be {opt.domain}, not {_shown(value, quote=False)}") from None
    check_conflicts(given, kind.conflicts, f"{text.strip()!r}", error)
    return kind, given


def split_agents(text: str) -> list[str]:
    """The agents of a comma-separated list; a ``key=value`` item belongs to the agent
    before it (``mcts:iterations=200,c=1,greedy`` is two agents)."""
    out: list[str] = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        if "=" in item and ":" not in item and out:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


# ---- the agents of a game's core (7 Wonders, Architects): random, greedy, mcts[:N[:C]]
def core_mcts_options(rest: str, raw: str, number: Callable[[str, str, str, bool], Any],
                      error: type[Exception], label: str, iterations: int, c: float,
                      playouts: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """The (iterations, c) of a core's ``mcts`` description ``raw`` whose part after
    ``mcts:`` is ``rest``: the long form ``iterations=N,c=C`` (each key once) or the short
    ``N[:C]``; ``iterations`` and ``c`` are the defaults.  ``number(value, what, raw,
    integer)`` reads and checks a value (raising ``error``); ``error`` names ``raw`` for a
    malformed description or an option ``label``'s mcts does not take.  ``playouts``: the
    playout policies the game's mcts also takes (as ``playout=P`` or a trailing ``:P``,
    removed from ``rest`` by the caller), named in the messages."""
    keys = ("iterations", "c") + (("playout",) if playouts else ())
    form = "mcts:ITERATIONS[:C]" + (f"[:PLAYOUT] (PLAYOUT: {', '.join(playouts)})"
                                    if playouts else "")
    if rest and "=" in rest:
        seen = set()
        for item in rest.split(","):
            key, eq, value = (s.strip() for s in item.partition("="))
            if not eq:
                raise error(f"agent {raw!r}: write options as key=value")
            if key in seen:
                raise error(f"agent {raw!r}: option {key} given twice")
            seen.add(key)
            if key == "iterations":
                iterations = number(value, "iterations", raw, True)
            elif key == "c":
                c = number(value, "c", raw, False)
            else:
                raise error(f"agent {raw!r}: option {key!r} is not available for {label}' "
                            f"mcts{close_matches(key, keys)} ({', '.join(keys)})")
    elif rest:
        parts = rest.split(":")
        if len(parts) > 2:
            extra = ":".join(parts[2:])
            what = "a playout policy" if playouts else "allowed"
            raise error(f"agent {raw!r}: {extra!r} after ITERATIONS:C is not {what}; "
                        f"write {form}")
        iterations = number(parts[0], "iterations", raw, True)
        if len(parts) == 2:
            try:
                c = number(parts[1], "c", raw, False)
            except error as e:
                if not playouts or _is_number(parts[1]):
                    raise
                raise error(f"agent {raw!r}: {parts[1].strip()!r} is neither C (a number) nor "
                            f"a playout policy{close_matches(parts[1].strip(), playouts)}; "
                            f"write {form}") from e
    return iterations, c


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def core_lineup(text_or_list: Any, players: int, parse: Callable[[str], str],
                error: type[Exception]) -> list[str]:
    """One canonical agent (``parse``) per seat from a description list (a comma-separated
    string or a list): one agent for every seat, or exactly ``players`` of them (``error``
    otherwise)."""
    items = split_agents(text_or_list) if isinstance(text_or_list, str) else list(text_or_list)
    agents = [parse(a) for a in items]
    if len(agents) == 1:
        agents = agents * players
    if len(agents) != players:
        raise error(f"give 1 agent or {players} (one per player), got {len(agents)}")
    return agents


def core_with_iterations(text: str, iterations: int | None, parse: Callable[[str], str],
                         error: type[Exception]) -> str:
    """The canonical agent (``parse``) of ``text``, an ``mcts`` without an iteration count
    getting ``iterations`` (None: unchanged).  ``error`` if ``text`` names its own count
    (the budget is given once)."""
    name = parse(text)
    if iterations is None or not name.startswith("mcts"):
        return name
    t = str(text).replace(" ", "").lower()
    if re.match(r"mcts:\d", t) or "iterations=" in t:
        raise error(f"--iterations {iterations} conflicts with the iteration count of "
                    f"{text!r}: give the budget once")
    c = name.split(":")[2:]
    return parse(f"mcts:{iterations}" + (f":{c[0]}" if c else ""))


def core_agent_kind(text: Any, kinds: Sequence[str], duel_only: Sequence[str],
                    error: type[Exception], title: str, syntax: str, where: str = ""
                    ) -> tuple[str, str, str]:
    """``(raw, kind, rest)`` of a core's agent description ``text``: ``raw`` stripped,
    ``kind`` (one of ``kinds``, lower case) and ``rest`` (after the first ``:``, stripped;
    only ``mcts`` takes options).  ``error`` for a description that is not a non-empty
    string, a 7 Wonders Duel agent (``duel_only``), an unknown agent of the game ``title``
    (``syntax`` lists them) or options of another kind (the message ends with ``where``)."""
    if not isinstance(text, str) or not text.strip():
        raise error(f"an agent is a description such as greedy or mcts:1000, not {text!r}")
    raw = text.strip()
    kind, _, rest = raw.partition(":")
    kind = kind.strip().lower()
    if kind in duel_only:
        raise error(f"agent {raw!r} is a 7 Wonders Duel agent, not available for {title} "
                    f"({syntax})")
    if kind not in kinds:
        raise error(f"unknown agent {raw!r}{close_matches(kind, kinds)} for {title} "
                    f"({syntax})")
    rest = rest.strip()
    if kind != "mcts" and rest:
        raise error(f"agent {raw!r}: {kind} takes no options{where}")
    return raw, kind, rest


def core_mcts_kind_options(iterations: int, c: float) -> tuple[Option, Option]:
    """The option table of a core's ``mcts`` (``duel agents``): ``iterations`` (1 to
    100,000,000) and ``c`` (the UCT exploration constant, in (0, 100]) with these defaults."""
    return (int_option("iterations", 1, 100_000_000, iterations, "iterations per decision"),
            float_option("c", 0, 100, c, "UCT exploration constant", lo_open=True))


def core_number(value: str, what: str, text: str, integer: bool, error: type[Exception],
                bounded: bool = True) -> Any:
    """The integer (``integer``) or float ``value`` of option ``what`` of the agent
    description ``text``: with ``bounded`` an integer from 1 to 100,000,000 or a number in
    (0, 100], else a positive integer or a positive finite number; ``error`` naming the
    description otherwise."""
    try:
        x: Any = int(value) if integer else float(value)
    except ValueError:
        x = None
    if bounded:
        ok = x is not None and (1 <= x <= 100_000_000 if integer
                                else math.isfinite(x) and 0 < x <= 100)
        kind = "an integer from 1 to 100,000,000" if integer else "a number in (0, 100]"
    else:
        ok = x is not None and (x >= 1 if integer else math.isfinite(x) and x > 0)
        kind = "a positive integer" if integer else "a positive number"
    if not ok:
        raise error(f"agent {text!r}: {what} must be {kind}, not {value!r}")
    return x
