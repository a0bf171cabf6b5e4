"""Game records: a game as JSON — seed, rule options, every decision, the result.

Chance is sampled from the game's seed (the default mode of :func:`duelcore.new_game`), so
*seed + options + decisions* reproduce the whole game; :func:`replay` plays them again and
:func:`load` refuses a record whose moves or result do not replay.

The format (version 1)::

    {
      "format": "duel-record",
      "version": 1,
      "rules_version": 1,
      "seed": 7,
      "options": {"first_player": 0, "centred_pawn": "chooses", "first_game_wonders": false,
                  "start_coins": [7, 7], "explicit_chance": false, "banned_tokens": [],
                  "forced_wonders": [null, null]},
      "players": ["human", "mcts:iterations=2000,c=1.4"],
      "moves": [
        {"player": "P1", "id": 1, "name": "pick The Colossus"},
        ...
      ],
      "result": {"winner": 0, "victory": "civilian", "vp": {...}, "total": [64, 42]}
    }

``options`` holds every keyword argument of ``new_game`` (all are written on save; missing
ones take their defaults on load).  ``moves`` lists the actions applied, in order (with
``explicit_chance`` the chance outcomes too, with player ``"chance"``); ``id`` is the action
id and ``name`` its notation (:mod:`duelpy.duel.notation`), which must agree.  ``result`` is
``State.result()`` at the end of the moves, or ``null`` if the game is not over.
``players`` (optional) names who sat in P1's and P2's seats.  Any other key, in the record or
in a move, is refused (naming the key, and the move's number).  ``rules_version`` is
:data:`duelcore.RULES_VERSION` when the game was played: a record replays only under the rules
(and chance sampling) it was played with, so a record from other rules is refused with that
reason rather than with an illegal move.
"""
from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import duelcore
from duelcore import RULES_VERSION, IllegalActionError, State, search

from duelpy.base.records import json_problem
from duelpy.duel.agents import Agent, parse_agent
from duelpy.duel.notation import NUM_ACTIONS, action_name

__all__ = ["GameRecord", "RecordError", "save", "load", "loads", "from_dict", "replay", "FORMAT",
           "VERSION", "DEFAULT_OPTIONS", "record_game"]

FORMAT = "duel-record"
VERSION = 1
#: Every rule option of ``duelcore.new_game`` with its default, as written in a record.
DEFAULT_OPTIONS = {
    "first_player": 0, "centred_pawn": "chooses", "first_game_wonders": False,
    "start_coins": [7, 7], "explicit_chance": False, "banned_tokens": [],
    "forced_wonders": [None, None],
}
_PLAYER_NAMES = ("P1", "P2")
#: The keys of a record and of each of its moves (every version written has these; "player",
#: "players" and "rules_version" may be missing).
_KEYS = ("format", "version", "rules_version", "seed", "options", "players", "moves", "result")
_MOVE_KEYS = ("player", "id", "name")


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


class RecordError(ValueError):
    """A game record that cannot be read or does not replay.

    Attributes
    ----------
    field : str or None
        The offending field, e.g. ``"seed"``, ``"options.start_coins"``, ``"moves[12].name"``;
        None when the file itself is unreadable.
    move : int or None
        The 1-based number of the offending move, when a move is at fault.
    reason : str
        What is wrong.
    """

    def __init__(self, reason: str, field: str | None = None, move: int | None = None):
        self.reason = reason
        self.field = field
        self.move = move
        where = f"move {move}" if move is not None else field
        text = f"{where}: {reason}" if where else reason
        # one line: control characters from the file (a key with a newline) are escaped
        super().__init__(_CONTROL.sub(lambda m: repr(m.group())[1:-1], text))


def _jsonable(x):
    """Tuples to lists, recursively (so a record compares equal to its JSON round trip)."""
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    return x


def _norm_options(options: dict) -> dict:
    """All options of new_game, defaults filled in, JSON-safe; validated by new_game.

    Raises RecordError(field="options.<name>") for an unknown name or a bad value."""
    if not isinstance(options, dict):
        raise RecordError(f"must be an object of rule options, not {type(options).__name__}",
                          "options")
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise RecordError(f"unknown rule option {unknown[0]!r}; options: "
                          f"{', '.join(DEFAULT_OPTIONS)}", f"options.{unknown[0]}")
    out = dict(DEFAULT_OPTIONS)
    out.update(_jsonable(options))
    for name in ("first_game_wonders", "explicit_chance"):
        if not isinstance(out[name], bool):
            raise RecordError(f"must be true or false, not {json.dumps(out[name])}",
                              f"options.{name}")
    if isinstance(out["banned_tokens"], str):
        out["banned_tokens"] = [out["banned_tokens"]]
    fp = out["first_player"]
    if fp is not None and (isinstance(fp, bool) or fp not in (0, 1) or not isinstance(fp, int)):
        raise RecordError(f"must be 0, 1 or null, not {json.dumps(fp)}", "options.first_player")
    sc = out["start_coins"]
    if not (isinstance(sc, list) and len(sc) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) for c in sc)):
        raise RecordError(f"start_coins must be two integers, not {json.dumps(sc)}",
                          "options.start_coins")
    bt = out["banned_tokens"]
    if not (isinstance(bt, list) and all(isinstance(t, str) for t in bt)):
        raise RecordError(f"must be a list of progress token names, not {json.dumps(bt)}",
                          "options.banned_tokens")
    fw = out["forced_wonders"]
    if fw is None:
        out["forced_wonders"] = fw = [None, None]
    if not (isinstance(fw, list) and len(fw) == 2
            and all(w is None or isinstance(w, str) for w in fw)):
        raise RecordError(f"must be a pair of wonder names or nulls, not {json.dumps(fw)}",
                          "options.forced_wonders")
    if not isinstance(out["centred_pawn"], str):
        raise RecordError(f"must be 'chooses' or 'begins', not {json.dumps(out['centred_pawn'])}",
                          "options.centred_pawn")
    try:
        duelcore.new_game(0, **_call_options(out))
    except (ValueError, TypeError) as e:
        msg = str(e)
        culprit = next((k for k in DEFAULT_OPTIONS if msg.startswith(k)), None)
        if culprit is None:
            culprit = next((k for k in DEFAULT_OPTIONS if k in msg), "")
        raise RecordError(msg, f"options.{culprit}" if culprit else "options") from None
    return out


def _call_options(options: dict) -> dict:
    """The keyword arguments of new_game from a record's options."""
    kw = dict(options)
    kw["start_coins"] = tuple(kw["start_coins"]) if isinstance(kw["start_coins"], list) \
        else kw["start_coins"]
    kw["banned_tokens"] = tuple(kw["banned_tokens"]) if isinstance(kw["banned_tokens"], list) \
        else kw["banned_tokens"]
    fw = kw["forced_wonders"]
    kw["forced_wonders"] = tuple(fw) if isinstance(fw, list) else fw
    return kw


@dataclass
class GameRecord:
    """One game: seed, rule options, the actions applied in order, and the result.

    Parameters
    ----------
    seed : int
        The seed of ``new_game`` (0 .. 2**64 - 1).
    options : dict
        Rule options of ``new_game`` (missing ones take their defaults).
    moves : list of int
        Action ids, in the order they were applied.
    players : list of str
        Who sat in P1's and P2's seats (free text, e.g. agent names).
    result : dict or None
        ``State.result()`` after the moves, or None while the game is not over.

    Make one with :meth:`start` and :meth:`play` (or :func:`record_game`), or read one with
    :func:`load`.
    """

    seed: int = 0
    options: dict = field(default_factory=dict)
    moves: list = field(default_factory=list)
    players: list = field(default_factory=lambda: ["P1", "P2"])
    result: dict | None = None

    def __post_init__(self):
        self.options = _norm_options(self.options)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) \
                or not 0 <= self.seed < 2 ** 64:
            raise RecordError(f"must be an integer from 0 to 2**64 - 1, not {self.seed!r}",
                              "seed")

    # ---- making a record
    def new_game(self) -> State:
        """The game's first position: ``new_game(seed, **options)``."""
        return duelcore.new_game(self.seed, **_call_options(self.options))

    @classmethod
    def start(cls, seed: int = 0, players=("P1", "P2"), **options) -> tuple["GameRecord", State]:
        """A new empty record and the first position of its game.

        Raises
        ------
        RecordError
            For a bad seed or rule option (naming it).
        """
        rec = cls(seed=seed, options=options, players=list(players))
        return rec, rec.new_game()

    def play(self, state: State, action: int) -> State:
        """Apply ``action`` to ``state`` (in place) and record it; sets ``result`` at the end.

        Returns ``state``.  Raises ``IllegalActionError`` (nothing recorded) if it is not legal.
        """
        state.apply_action(action)
        self.moves.append(int(action))
        self.result = _jsonable(state.result()) if state.is_terminal() else None
        return state

    def truncate(self, n_moves: int) -> None:
        """Keep only the first ``n_moves`` moves (for undo); the result is cleared."""
        del self.moves[n_moves:]
        self.result = None

    # ---- data
    def to_dict(self) -> dict:
        """The record as JSON-safe data (the file format above)."""
        states = replay(self, states=True, check=False)
        moves = []
        for k, a in enumerate(self.moves):
            p = states[k].current_player()
            moves.append({"player": _PLAYER_NAMES[p] if p in (0, 1) else "chance",
                          "id": int(a), "name": action_name(a)})
        return {"format": FORMAT, "version": VERSION, "rules_version": RULES_VERSION,
                "seed": self.seed,
                "options": _jsonable(self.options), "players": list(self.players),
                "moves": moves, "result": self.result}

    def dumps(self) -> str:
        """The record as JSON text, one move per line."""
        d = self.to_dict()
        lines = []
        for k, v in d.items():
            if k == "moves":
                body = ",\n".join("    " + json.dumps(m, ensure_ascii=False) for m in v)
                text = "[\n" + body + "\n  ]" if v else "[]"
            else:
                text = json.dumps(v, ensure_ascii=False)
            lines.append(f"  {json.dumps(k)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    def save(self, path, overwrite: bool = False) -> Path:
        """Write the record to ``path`` (JSON), atomically: a failed write leaves no file.

        Returns the path.  Raises FileExistsError if the file exists and not ``overwrite``,
        OSError if it cannot be written.
        """
        return save(self, path, overwrite)

    @property
    def n_moves(self) -> int:
        """Number of moves recorded (decisions, plus chance outcomes with explicit_chance)."""
        return len(self.moves)

    def final_state(self) -> State:
        """The position after all the moves."""
        return replay(self)


def save(record: GameRecord, path, overwrite: bool = False) -> Path:
    """Write ``record`` to ``path`` as JSON (see the module docstring), atomically; an
    existing file is replaced only with ``overwrite``.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    FileExistsError
        If ``path`` exists and ``overwrite`` is false (nothing is written).
    OSError
        If the folder does not exist or the file cannot be written; no partial file is left.
    """
    path = Path(path)
    if path.exists() and not overwrite:
        raise FileExistsError(17, "the file exists (pass overwrite=True to replace it)",
                              str(path))
    text = record.dumps()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


#: Limits checked before a record is parsed: a finished game is a few kilobytes, a few
#: levels deep, with numbers of at most 20 digits (seeds are below 2**64).
MAX_BYTES = 1 << 20
MAX_DEPTH = 16
MAX_DIGITS = 40
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def load(path) -> GameRecord:
    """Read and check a record file: it must replay move by move to its recorded result.

    Raises
    ------
    RecordError
        For a file too large (over :data:`MAX_BYTES`), unreadable text, bad JSON, JSON
        nested deeper than :data:`MAX_DEPTH` or a number longer than :data:`MAX_DIGITS`
        digits (checked before parsing), a wrong format or version, a missing or bad field,
        an illegal move, a name that does not match its id, or a result that does not match
        the replay; the message is one line naming the field or move number and the reason.
    OSError
        If the file cannot be opened (FileNotFoundError, PermissionError, ...).
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(21, "is a folder, not a game record", str(path))
    with open(path, "rb") as f:                 # at most MAX_BYTES + 1 (a device never ends)
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise RecordError(f"too large for a game record (over {MAX_BYTES:,} bytes)")
    try:
        text = data.decode("utf-8-sig")         # a leading BOM (Windows editors) is allowed
    except UnicodeDecodeError as e:
        raise RecordError(f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    return _parse(text, path)


def _check_shape(text: str) -> None:
    """Refuse, before parsing, JSON too large or nested too deep for a record."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"too large for a game record (over {MAX_BYTES:,} characters)")
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                raise RecordError(f"JSON nested more than {MAX_DEPTH} levels deep: not a game "
                                  f"record")


def _number(text: str, kind):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number with {len(text.lstrip('-')):,} characters "
                          f"({text[:12]}...): not a game record")
    return kind(text)


def _constant(name: str):
    raise RecordError(f"{name} is not a JSON number (not a game record)")


def loads(text: str) -> GameRecord:
    """Read and check a record from JSON text (see :func:`load`)."""
    return _parse(text)


def _parse(text: str, path: Path | None = None) -> GameRecord:
    """:func:`loads`; invalid JSON is named with ``path``, the file it came from."""
    if not isinstance(text, str):
        raise RecordError(f"a game record is JSON text, not {type(text).__name__}")
    _check_shape(text)
    try:
        d = json.loads(text, parse_int=lambda t: _number(t, int),
                       parse_float=lambda t: _number(t, float), parse_constant=_constant)
    except json.JSONDecodeError as e:
        if not text.strip():
            raise RecordError("empty file — truncated or not a game record?") from None
        raise RecordError(f"{path or 'the text'} is not valid JSON: {json_problem(e)}") \
            from None
    except RecursionError:
        raise RecordError("JSON nested too deep: not a game record") from None
    return from_dict(d)


def _need(d, key, types, what):
    if key not in d:
        raise RecordError(f"missing (a record needs {what})", key)
    v = d[key]
    if not isinstance(v, types) or isinstance(v, bool) and bool not in types:
        raise RecordError(f"must be {what}, not {json.dumps(v)[:60]}", key)
    return v


def _result_diff(recorded, actual) -> str:
    """The fields of two results that differ, e.g. "vp.blue (record [0, 0], replay [3, 6])"."""
    out = []
    rec = recorded if isinstance(recorded, dict) else {}
    for key, value in actual.items():
        if isinstance(value, dict):
            got = rec.get(key)
            sub = got if isinstance(got, dict) else {}
            out += [f"{key}.{k} (record {sub.get(k)!r}, replay {v!r})"
                    for k, v in value.items() if sub.get(k) != v]
        elif rec.get(key) != value:
            out.append(f"{key} (record {rec.get(key)!r}, replay {value!r})")
    return ", ".join(out) or "its form"


def from_dict(d) -> GameRecord:
    """A checked :class:`GameRecord` from parsed JSON (see :func:`load`; raises RecordError)."""
    if not isinstance(d, dict):
        raise RecordError(f"a game record is a JSON object, not {type(d).__name__}")
    fmt = d.get("format")
    if fmt != FORMAT and d.get("game") == "seven":
        raise RecordError("this is a 7 Wonders record: duel replay and "
                          "duelpy.seven.load_record read it",
                          "format")
    if fmt != FORMAT:
        raise RecordError(f"must be {FORMAT!r}, not {fmt!r} (is this a duel game record?)",
                          "format")
    unknown = [k for k in d if k not in _KEYS]
    if unknown:
        raise RecordError(f"unknown record key {unknown[0]!r} (a record has "
                          f"{', '.join(_KEYS)})", unknown[0])
    version = d.get("version")
    if version != VERSION:
        raise RecordError(f"this duel reads record version {VERSION}, not {version!r}",
                          "version")
    rules = d.get("rules_version", RULES_VERSION)
    if rules != RULES_VERSION:
        raise RecordError(f"the game was played under rules version {rules!r}; this duel plays "
                          f"rules version {RULES_VERSION}, so its moves would not replay",
                          "rules_version")
    seed = _need(d, "seed", (int,), "an integer from 0 to 2**64 - 1")
    options = _need(d, "options", (dict,), "an object of rule options")
    moves = _need(d, "moves", (list,), "a list of moves")
    if "result" not in d:
        raise RecordError("missing (null for a game that is not over)", "result")
    result = d["result"]
    if result is not None and not isinstance(result, dict):
        raise RecordError("must be an object or null", "result")
    players = d.get("players", ["P1", "P2"])
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(p, str) for p in players)):
        raise RecordError("must be a list of two names (P1's seat, P2's seat)", "players")
    rec = GameRecord(seed=seed, options=options, players=players)
    state = rec.new_game()
    for k, m in enumerate(moves):
        n = k + 1
        if not isinstance(m, dict):
            raise RecordError(f"must be an object with 'id' and 'name', not {json.dumps(m)[:60]}",
                              f"moves[{k}]", n)
        for key in ("id", "name"):
            if key not in m:
                raise RecordError(f"the move has no {key!r}", f"moves[{k}].{key}", n)
        extra = [key for key in m if key not in _MOVE_KEYS]
        if extra:
            raise RecordError(f"unknown key {extra[0]!r} in the move (a move has "
                              f"{', '.join(_MOVE_KEYS)})", f"moves[{k}].{extra[0]}", n)
        a, name = m["id"], m["name"]
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < NUM_ACTIONS:
            raise RecordError(f"id must be an action number 0..{NUM_ACTIONS - 1}, not "
                              f"{json.dumps(a)}", f"moves[{k}].id", n)
        if name != action_name(a):
            raise RecordError(f"name {name!r} does not match id {a} ({action_name(a)!r})",
                              f"moves[{k}].name", n)
        p = state.current_player()
        who = _PLAYER_NAMES[p] if p in (0, 1) else ("chance" if p == -1 else None)
        if "player" in m and m["player"] != who and who is not None:
            raise RecordError(f"the record says {m['player']!r} moved but it is {who}'s turn",
                              f"moves[{k}].player", n)
        try:
            state.apply_action(a)
        except IllegalActionError as e:
            raise RecordError(f"{name!r} is illegal: {e.reason}", f"moves[{k}]", n) from None
        rec.moves.append(a)
    actual = _jsonable(state.result()) if state.is_terminal() else None
    if _jsonable(result) != actual:
        if actual is None:
            why = (f"the record gives a result but after its {len(moves)} moves the game is "
                   f"not over")
        elif result is None:
            why = f"the record gives no result but the game is over: {_summary(actual)}"
        else:
            why = f"the record says {_summary(result)} but the replay gives {_summary(actual)}"
            if _summary(result) == _summary(actual):
                diff = _result_diff(result, actual)
                why = f"the record's result differs from the replay in {diff}"
        raise RecordError(why, "result")
    rec.result = actual
    return rec


def _summary(res) -> str:
    try:
        w = res.get("winner")
        who = "shared victory" if w is None else f"{_PLAYER_NAMES[w]} wins"
        total = res.get("total", ["?", "?"])
        return f"{who} ({res.get('victory')}, {total[0]} to {total[1]} VP)"
    except Exception:                          # a tampered result of any shape
        return json.dumps(res)[:80]


def replay(record, *, states: bool = False, upto: int | None = None, check: bool = True):
    """Play a record's moves again from its seed.

    Parameters
    ----------
    record : GameRecord or dict
        A record (a dict is checked with :func:`from_dict` first).
    states : bool
        False: return the final State.  True: return the list of ``len(moves) + 1`` States,
        the first position then the position after each move.
    upto : int, optional
        Stop after this many moves (0 .. number of moves).
    check : bool
        Check the result against the record's (the default).

    Raises
    ------
    RecordError
        If a move is illegal, ``upto`` is out of range, or the result does not match.
    """
    if isinstance(record, dict):
        record = from_dict(record)
    if not isinstance(record, GameRecord):
        raise TypeError(f"replay needs a GameRecord or a dict, not {type(record).__name__}")
    n = len(record.moves)
    if upto is None:
        upto = n
    if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= n:
        raise RecordError(f"must be a move number from 0 to {n}, not {upto!r}", "upto")
    state = record.new_game()
    out: list[State] = [state.clone()]
    for k, a in enumerate(record.moves[:upto]):
        try:
            state.apply_action(a)
        except IllegalActionError as e:
            raise RecordError(f"{action_name(a)!r} is illegal: {e.reason}", f"moves[{k}]",
                              k + 1) from None
        if states:
            out.append(state.clone())
    if check and upto == n:
        actual = _jsonable(state.result()) if state.is_terminal() else None
        if record.result is not None and _jsonable(record.result) != actual:
            raise RecordError(f"the record says {_summary(record.result)} but the replay "
                              f"gives {_summary(actual) if actual else 'an unfinished game'}",
                              "result")
    return out if states else state


def record_game(p1, p2, seed: int = 0, **options) -> GameRecord:
    """Play one game between two agents and return its record.

    Parameters
    ----------
    p1, p2 : duelpy.Agent or str
        The agents in P1's and P2's seats (``"mcts:iterations=500"``, ``"greedy"`` ...).  They
        are reset with ``duelcore.search.agent_seed(seed, seat)``, as in ``play_match``.
    seed : int
        The game's seed.
    **options
        Rule options of ``new_game``.

    Raises
    ------
    RecordError
        For a bad seed or option; AgentSpecError for a bad agent description.
    """
    agents = [a if isinstance(a, Agent) else parse_agent(a) for a in (p1, p2)]
    rec, state = GameRecord.start(seed, players=[a.name for a in agents], **options)
    for seat in (0, 1):
        agents[seat].reset(search.agent_seed(seed, seat))
    while not state.is_terminal():
        p = state.current_player()
        if p not in (0, 1):                     # explicit chance: sample from the state's odds
            outcomes = state.chance_outcomes()
            rng = random.Random(seed * 1_000_003 + len(rec.moves))
            a = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            a = agents[p].select_action(state)
        rec.play(state, a)
    return rec
