"""Move notation: a readable name for every action, and a parser that reads it back.

The names are the core's (:func:`duelcore.action_to_string`)::

    pick The Sphinx                     draft (R-SETUP-5)
    build Lumber Yard                   take a card and build it (R-BUILD)
    discard Altar                       take a card and discard it for coins (R-DISCARD)
    wonder The Pyramids with Altar      take Altar and build The Pyramids with it (R-WONDER)
    token Law                           choose a progress token (R-SCI-2, The Great Library)
    destroy Glassworks                  The Statue of Zeus / Circus Maximus (R-WONDER-4)
    revive Baths                        The Mausoleum (R-WONDER-5)
    start P2                            who begins the next Age (R-AGE-3)
    chance: reveal Altar                a chance outcome (only with ``explicit_chance``)

:func:`parse_action` reads them back.  It ignores case, spacing, punctuation and a missing
"The", and accepts an action number.  Given a state, it also accepts any shorter form that
names exactly one legal action: ``Sphinx`` in the draft, ``Law`` after a science pair,
``lumber`` when Lumber Yard can only be built, ``wonder Pyramids`` when one card can go under
it. Legality is always the state's (``legal_actions``); nothing here knows a rule.
"""
from __future__ import annotations

import difflib
import operator
import re

import duelcore
from duelcore import IllegalActionError, State

__all__ = [
    "action_name", "parse_action", "legal_moves", "NotationError", "UnknownActionError",
    "AmbiguousActionError", "IllegalMoveError", "NUM_ACTIONS", "NUM_DECISION_ACTIONS",
]

NUM_ACTIONS = duelcore.ACTION_LAYOUT["NUM_ACTIONS"]
NUM_DECISION_ACTIONS = duelcore.ACTION_LAYOUT["NUM_DECISION_ACTIONS"]
_VERBS = ("pick", "build", "discard", "wonder", "token", "destroy", "revive", "start", "chance")
_MIN_PREFIX = 3          # characters (after normalisation) for a prefix to count as a name


class NotationError(ValueError):
    """A move that cannot be read: unknown, ambiguous or not legal here.

    Attributes
    ----------
    text : str
        What was typed.
    matches : list of str
        The names of the closest actions (legal ones first), best first; may be empty.
    """

    def __init__(self, message: str, text: str, matches=()):
        ValueError.__init__(self, message)
        self.text = text
        self.matches = list(matches)


class UnknownActionError(NotationError):
    """No action (no legal action, when a state is given) has this name."""


class AmbiguousActionError(NotationError):
    """The text names several legal actions; ``matches`` lists all of them."""


class IllegalMoveError(NotationError, IllegalActionError):
    """The text names exactly one action, but it is not legal in the state.

    Also an :class:`duelcore.IllegalActionError`: ``action`` is the action id and ``reason``
    the core's explanation (e.g. "P1 cannot afford Palace: it costs 9 coins and P1 has 4").
    """

    def __init__(self, action: int, reason: str, text: str, matches=()):
        self.action = action
        self.reason = reason
        NotationError.__init__(
            self, f"{action_name(action)!r} is not legal here: {reason}", text, matches)


def _key(text: str) -> str:
    """Normal form of a name: lower case, no "the", no spaces or punctuation."""
    text = re.sub(r"\bthe\b", " ", text.casefold())
    return re.sub(r"[^0-9a-z]", "", text)


_NAMES = tuple(duelcore.action_to_string(a) for a in range(NUM_ACTIONS))
_KEYS = {}
for _a, _n in enumerate(_NAMES):
    assert _key(_n) not in _KEYS, f"two actions share the normal form of {_n!r}"
    _KEYS[_key(_n)] = _a
# the name without its verb: "Lumber Yard", "The Sphinx", "The Pyramids with Altar", "P2"
_KEYS_OF = tuple(_key(n) for n in _NAMES)
_OBJECTS = tuple(_key(n.split(" ", 1)[1]) if not n.startswith("chance:") else _key(n[7:])
                 for n in _NAMES)


def action_name(action: int) -> str:
    """The readable name of an action id, e.g. ``"wonder The Pyramids with Altar"``.

    Parameters
    ----------
    action : int
        An action id in ``[0, NUM_ACTIONS)`` (1309); decisions are below 1192.

    Raises
    ------
    ValueError
        If ``action`` is out of range; TypeError if it is not an integer.
    """
    a = operator.index(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} is out of range [0, {NUM_ACTIONS})")
    return _NAMES[a]


def legal_moves(state: State) -> list[tuple[int, str]]:
    """``[(action id, name), ...]`` of the actions legal in ``state``, ascending by id."""
    return [(a, _NAMES[a]) for a in state.legal_actions()]


MAX_MOVE_TEXT = 2 * max(len(n) for n in _NAMES)    # longer text is refused before any
                                                    # fuzzy matching (it costs O(length))


def _close(text: str, names, n: int = 6) -> list[str]:
    """Up to ``n`` names of ``names`` closest to ``text`` (difflib ratio >= 0.6), best first.

    When ``text`` starts with a verb ("build ..."), names with that verb are compared on what
    follows the verb, so that "build Lumbr Yard" finds "build Lumber Yard", not "build Altar".
    """
    def plain(s):
        return " ".join(w for w in s.casefold().replace(":", " ").split() if w != "the")

    query = plain(text)
    verb, _, rest = query.partition(" ")
    scored = []
    for name in dict.fromkeys(names):
        full = plain(name)
        nverb, _, obj = full.partition(" ")
        if verb in _VERBS and rest:
            score = (difflib.SequenceMatcher(None, rest, obj).ratio() if nverb == verb
                     else 0.9 * difflib.SequenceMatcher(None, query, full).ratio())
        else:
            score = max(difflib.SequenceMatcher(None, query, full).ratio(),
                        difflib.SequenceMatcher(None, query, obj).ratio())
        if score >= 0.6:
            scored.append((-score, name))
    if verb in _VERBS and rest:             # the verb typed wins when it has matches
        same = [(sc, name) for sc, name in scored if plain(name).split(" ", 1)[0] == verb]
        scored = same or scored
    scored.sort()
    return [name for _, name in scored[:n]]


def _check_legal(state: State | None, action: int, text: str) -> int:
    if state is None or action in state.legal_actions():
        return action
    reason = state.why_illegal(action)      # the core says why
    if reason is None:
        return action                       # pragma: no cover - legal after all
    raise IllegalMoveError(action, reason, text, _close(text, [n for _, n in legal_moves(state)]))


def parse_action(state: State | None, text) -> int:
    """Read a move: its name, a shorter form naming one legal action, or its number.

    Parameters
    ----------
    state : duelcore.State or None
        The position the move is made in.  With a state, the result is legal in it, and short
        forms are resolved among its legal actions.  With None, only complete names and
        numbers are read (any action of ``[0, 1289)``).
    text : str or int
        ``"build Lumber Yard"``, ``"WONDER pyramids with altar"``, ``"Sphinx"``, ``"12"``,
        ``12``.  Case, spacing, punctuation and the article "The" do not matter.

    Returns
    -------
    int
        The action id.

    Raises
    ------
    UnknownActionError
        Nothing (nothing legal, with a state) has this name; ``matches`` lists close names.
    AmbiguousActionError
        A short form names several legal actions; ``matches`` lists them.
    IllegalMoveError
        A complete name or a number of an action that is not legal here; ``reason`` says why.
        All three are :class:`NotationError`, a ``ValueError``.
    TypeError
        If ``text`` is neither a string nor an integer, or ``state`` is not a State.
    """
    if state is not None and not isinstance(state, State):
        raise TypeError(f"state must be a duelcore State or None, not {type(state).__name__}")
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise TypeError(f"a move is a name or an action number, not {type(text).__name__}")
    if isinstance(text, str) and len(text.strip()) > MAX_MOVE_TEXT:
        raise UnknownActionError(f"a move of {len(text.strip()):,} characters is not a move "
                                 f"(the longest move name has {MAX_MOVE_TEXT // 2})",
                                 text[:MAX_MOVE_TEXT])
    if isinstance(text, int) or text.strip().lstrip("#").isdigit():
        a = int(text) if isinstance(text, int) else int(text.strip().lstrip("#"))
        if not 0 <= a < NUM_ACTIONS:
            raise UnknownActionError(
                f"action {a} is out of range: actions are 0..{NUM_ACTIONS - 1}", str(text))
        return _check_legal(state, a, str(text))
    key = _key(text)
    if not key:
        what = f"{text.strip()!r} is not a move" if text.strip() else "empty move"
        raise UnknownActionError(f"{what}: type an action name or number", text)
    if key in _KEYS:
        return _check_legal(state, _KEYS[key], text)
    if state is None:
        close = _close(text, _NAMES)
        raise UnknownActionError(_unknown_message(text, close), text, close)
    legal = state.legal_actions()
    if not legal:
        raise UnknownActionError("the game is over: there is no move to make", text)
    exact = [a for a in legal if _OBJECTS[a] == key]
    prefix = [] if exact or len(key) < _MIN_PREFIX else \
        [a for a in legal if _KEYS_OF[a].startswith(key) or _OBJECTS[a].startswith(key)]
    found = exact or prefix
    if len(found) == 1:
        return found[0]
    if found:
        names = [_NAMES[a] for a in found]
        shown = ", ".join(names[:8]) + (f" (and {len(names) - 8} more)" if len(names) > 8 else "")
        raise AmbiguousActionError(f"{text.strip()!r} could be any of: {shown}; say which",
                                   text, names)
    if key in _VERBS:                       # a verb alone, with no legal move of its kind
        examples = [_NAMES[a] for a in legal[:4]]
        raise UnknownActionError(f"no {key!r} move is legal now; legal moves are like: "
                                 f"{', '.join(examples)}", text, examples)
    close = _close(text, [_NAMES[a] for a in legal])
    msg = _unknown_message(text, close, legal_only=True)
    named = [a for a in range(NUM_ACTIONS) if _OBJECTS[a] == key and a not in legal]
    if named:                              # e.g. "stable" while Stable is still covered
        reason = state.why_illegal(named[0])
        if reason is not None:
            msg = f"{text.strip()!r} is not a legal move here: {reason}"
            if close:
                msg += "; legal moves like it: " + ", ".join(close)
    if not close:
        close = _close(text, _NAMES[:NUM_DECISION_ACTIONS], n=3)
        if close and not named:
            msg += "; not legal now: " + ", ".join(close)
    raise UnknownActionError(msg, text, close)



def _unknown_message(text, close, legal_only=False):
    what = "no legal move" if legal_only else "no action"
    msg = f"{what} is called {text.strip()!r}"
    if close:
        msg += "; did you mean: " + ", ".join(close) + "?"
    return msg
