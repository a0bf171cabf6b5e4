# Positions as data (included by engine.pyx): State.to_dict and state_from_dict.
#
# A position that loads is playable; one that is not is refused with a StateFormatError that
# names the field (and the rule).  Three layers make that true:
#   1. Types: every field has one JSON type and range; integers are ints (never a bool, a
#      float or a string), booleans true/false, names known names, no unknown or missing key.
#   2. Invariants: ar_state_check (conservation of cards and tokens, prerequisites, the
#      conflict tokens, the pending list, the cat and the central top, the window...).
#   3. The node: the position must rest where the engine would stop -- a decision with two
#      legal actions or more, a chance node with explicit chance, or the end -- and its
#      stored phase must be that node.
import reprlib as _reprlib

_short = _reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlevel = 2
_short.maxlist = 4
_short.maxdict = 4

_TOP_KEYS = ("game", "version", "players", "options", "rng", "phase", "active", "turns",
             "moves", "task", "draw", "stage", "architecture_due", "economy_declined",
             "engineering_used", "pending", "used", "seats", "decks", "central", "discard",
             "row", "stack", "removed_tokens", "window", "conflict", "cat")
_SEAT_KEYS = ("wonder", "given", "stages", "tableau", "tokens", "military_tokens")
_OPTION_KEYS = ("explicit_chance",) + tuple(RULE_OPTIONS)

#: The field and rule of each state_check code, for StateFormatError.
_CHECK_FIELDS = {
    1: ("players", "A-SETUP-1"), 2: ("conflict", "A-MIL-2"), 3: ("conflict.battle", "A-MIL-2"),
    4: ("seats", "A-SETUP-2"), 5: ("seats", "A-SETUP-2"), 6: ("seats", "A-SETUP-2"),
    7: ("seats", ""), 8: ("decks", "A-CARD"), 9: ("decks", ""), 10: ("decks", "A-COMP-2"),
    11: ("stack", "A-TOK-1"), 12: ("row", "A-SCI-4"), 13: ("seats", "A-BUILD-2"),
    14: ("conflict.turned", "A-MIL-2"), 15: ("pending", "A-TOK-3"), 16: ("used", "A-TOK-2"),
    17: ("cat", "A-CAT"), 18: ("central", "A-CAT-4"), 19: ("active", ""),
    20: ("window", "A-WON-5"), 21: ("stage", "A-BUILD-5"), 22: ("phase", "A-END"),
    23: ("seats", "A-END-1"), 24: ("seats", "A-SETUP-2"), 25: ("architecture_due", "A-TOK-3"),
    26: ("task", "A-WON"),
}


def _show(v):
    """A short repr of a bad value (never huge, never recursive)."""
    try:
        return _short.repr(v)
    except Exception:
        return f"<{type(v).__name__}>"


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v, field, lo, hi):
    if not _is_int(v):
        raise StateFormatError(field, f"must be an integer from {lo} to {hi}, not {_show(v)}")
    if not lo <= v <= hi:
        raise StateFormatError(field, f"must be from {lo} to {hi}, not {_show(v)}")
    return v


def _bool(v, field):
    if not isinstance(v, bool):
        raise StateFormatError(field, f"must be true or false, not {_show(v)}")
    return v


def _choice(v, field, names, allow_none=False):
    if v is None and allow_none:
        return None
    if not isinstance(v, str) or v not in names:
        extra = " or null" if allow_none else ""
        raise StateFormatError(field, f"must be one of {', '.join(names)}{extra}, "
                                      f"not {_show(v)}")
    return names.index(v)


def _dict(v, field, keys=None):
    if not isinstance(v, dict):
        raise StateFormatError(field, f"must be a dict, not {type(v).__name__}")
    if keys is not None:
        for k in v:
            if k not in keys:
                raise StateFormatError(f"{field}.{k}" if isinstance(k, str) else field,
                                       f"unknown key {_show(k)} (keys: {', '.join(keys)})")
        for k in keys:
            if k not in v:
                raise StateFormatError(f"{field}.{k}", "missing")
    return v


def _list(v, field, max_len):
    if not isinstance(v, list):
        raise StateFormatError(field, f"must be a list, not {type(v).__name__}")
    if len(v) > max_len:
        raise StateFormatError(field, f"has {len(v)} entries, at most {max_len}")
    return v


def _counts(v, field, names, hi):
    """{name: count} over ``names`` -> a list of counts (absent names 0)."""
    d = _dict(v, field)
    out = [0] * len(names)
    for k, x in d.items():
        if not isinstance(k, str) or k not in names:
            raise StateFormatError(field, f"unknown name {_show(k)} (one of "
                                          f"{', '.join(names)})")
        out[names.index(k)] = _int(x, f"{field}.{k}", 0, hi)
    return out


def _names(v, field, names, max_len):
    """A list of distinct names -> their ids, in order."""
    out = []
    for i, x in enumerate(_list(v, field, max_len)):
        k = _choice(x, f"{field}[{i}]", names)
        if k in out:
            raise StateFormatError(f"{field}[{i}]", f"{x} is listed twice")
        out.append(k)
    return out


cdef dict _to_dict(State st):
    cdef ArchState* s = &st.s
    cdef ArchSeat* p
    cdef ArchDeck* c
    cdef int n = s.n_players, i
    opts = {"explicit_chance": bool(s.options & OP_EXPLICIT_CHANCE)}
    opts.update(st.options)
    seats = []
    for i in range(n):
        p = &s.p[i]
        seats.append({
            "wonder": WONDERS[p.wonder] if p.wonder < AR_NUM_WONDERS else None,
            "given": WONDERS[s.forced[i]] if s.forced[i] < AR_NUM_WONDERS else None,
            "stages": [STAGES[k] for k in range(5) if (p.built >> k) & 1],
            "tableau": _kind_dict(p.tab), "tokens": _token_dict(p.tok),
            "military_tokens": p.mvt})
    decks = [{"top": KINDS[s.d[i].top] if s.d[i].top != AR_NONE else None,
              "under": _kind_dict(s.d[i].cnt)} for i in range(n)]
    c = &s.d[AR_CENTRAL]
    return {
        "game": "architects", "version": FORMAT_VERSION, "players": n, "options": opts,
        "rng": s.rng, "phase": PHASES[s.phase], "active": s.active, "turns": s.turns,
        "moves": s.n_moves, "task": TASKS[s.task], "draw": DRAWS[s.draw],
        "stage": STAGES[s.stage_sel] if s.stage_sel != AR_NONE else None,
        "architecture_due": bool(s.arch_due), "economy_declined": bool(s.eco_declined),
        "engineering_used": bool(s.eng_used),
        "pending": [TOKENS[s.pend[i]] for i in range(s.n_pend)],
        "used": [TOKENS[t] for t in range(14) if (s.used >> t) & 1],
        "seats": seats, "decks": decks,
        "central": {"top": KINDS[c.top] if c.top != AR_NONE else None,
                    "knowers": [i for i in range(n) if (s.knowers >> i) & 1],
                    "under": _kind_dict(c.cnt)},
        "discard": _kind_dict(s.discard), "row": _token_dict(s.row),
        "stack": _token_dict(s.stack), "removed_tokens": _token_dict(s.gone),
        "window": {"deck": None if s.hali_deck == AR_NONE else s.hali_deck,
                   "cards": _kind_dict(s.win), "to_draw": s.hali_need},
        "conflict": {"turned": s.turned, "battle": bool(s.battle)},
        "cat": None if s.cat == AR_NONE else s.cat,
    }


def state_from_dict(d):
    """A position from its ``to_dict`` data, validated strictly (see the file's comment).

    Raises
    ------
    StateFormatError
        A ValueError naming the field (``.field``) and the rule (``.rule``) it breaks.
    """
    cdef State st = State.__new__(State)
    cdef ArchState* s = &st.s
    cdef ArchState probe
    cdef int n, i, k, code, rest, m
    cdef int out[AR_MAX_LEGAL]
    _dict(d, "position", _TOP_KEYS)
    if d["game"] != "architects":
        raise StateFormatError("game", f"must be 'architects', not {_show(d['game'])}")
    _int(d["version"], "version", FORMAT_VERSION, FORMAT_VERSION)
    n = _int(d["players"], "players", 2, 7)
    o = _dict(d["options"], "options", _OPTION_KEYS)
    opts = 0
    if _bool(o["explicit_chance"], "options.explicit_chance"):
        opts |= OP_EXPLICIT_CHANCE
    for key, bit in RULE_OPTIONS.items():
        if _bool(o[key], f"options.{key}") != RULE_DEFAULTS[key]:
            opts |= bit
    ar_init(s, n, 0, opts)
    s.rng = <u64>_int(d["rng"], "rng", 0, 2 ** 64 - 1)
    phase = _choice(d["phase"], "phase", PHASES)
    s.active = _int(d["active"], "active", 0, n - 1)
    s.turns = _int(d["turns"], "turns", 1, 10000)
    s.n_moves = _int(d["moves"], "moves", 0, 60000)
    s.task = _choice(d["task"], "task", TASKS)
    s.draw = _choice(d["draw"], "draw", DRAWS)
    stage = _choice(d["stage"], "stage", STAGES, allow_none=True)
    s.stage_sel = AR_NONE if stage is None else stage
    s.arch_due = _bool(d["architecture_due"], "architecture_due")
    s.eco_declined = _bool(d["economy_declined"], "economy_declined")
    s.eng_used = _bool(d["engineering_used"], "engineering_used")
    pend = _names(d["pending"], "pending", TOKENS, AR_MAX_PEND)
    s.n_pend = len(pend)
    for i, t in enumerate(pend):
        s.pend[i] = t
    s.used = 0
    for t in _names(d["used"], "used", TOKENS, 14):
        s.used |= 1 << t
    seats = _list(d["seats"], "seats", 7)
    if len(seats) != n:
        raise StateFormatError("seats", f"must list the {n} seats, not {len(seats)}")
    dealt = 0
    for i, seat in enumerate(seats):
        f = f"seats[{i}]"
        _dict(seat, f, _SEAT_KEYS)
        w = _choice(seat["wonder"], f"{f}.wonder", WONDERS, allow_none=True)
        if w is not None:
            if dealt != i:
                raise StateFormatError(f"{f}.wonder", "wonders are dealt to seats 0, 1, ... "
                                                     "in order (A-SETUP-2)", "A-SETUP-2")
            dealt += 1
            s.p[i].wonder = w
        g = _choice(seat["given"], f"{f}.given", WONDERS, allow_none=True)
        s.forced[i] = AR_NONE if g is None else g
        built = 0
        for k in _names(seat["stages"], f"{f}.stages", STAGES, 5):
            built |= 1 << k
        s.p[i].built = built
        for k, x in enumerate(_counts(seat["tableau"], f"{f}.tableau", KINDS, 60)):
            s.p[i].tab[k] = x
        for k, x in enumerate(_counts(seat["tokens"], f"{f}.tokens", TOKENS, 2)):
            s.p[i].tok[k] = x
        s.p[i].mvt = _int(seat["military_tokens"], f"{f}.military_tokens", 0, 200)
    s.n_assigned = dealt
    decks = _list(d["decks"], "decks", 7)
    if len(decks) != n:
        raise StateFormatError("decks", f"must list the {n} wonder decks, not {len(decks)}")
    for i, dk in enumerate(decks):
        f = f"decks[{i}]"
        _dict(dk, f, ("top", "under"))
        top = _choice(dk["top"], f"{f}.top", KINDS, allow_none=True)
        s.d[i].top = AR_NONE if top is None else top
        rest = 0
        for k, x in enumerate(_counts(dk["under"], f"{f}.under", KINDS, 25)):
            s.d[i].cnt[k] = x
            rest += x
        s.d[i].n = rest + (top is not None)
    c = _dict(d["central"], "central", ("top", "knowers", "under"))
    top = _choice(c["top"], "central.top", KINDS, allow_none=True)
    s.d[AR_CENTRAL].top = AR_NONE if top is None else top
    rest = 0
    for k, x in enumerate(_counts(c["under"], "central.under", KINDS, 60)):
        s.d[AR_CENTRAL].cnt[k] = x
        rest += x
    s.d[AR_CENTRAL].n = rest + (top is not None)
    s.knowers = 0
    for i, x in enumerate(_list(c["knowers"], "central.knowers", 7)):
        seat = _int(x, f"central.knowers[{i}]", 0, n - 1)
        if (s.knowers >> seat) & 1:
            raise StateFormatError(f"central.knowers[{i}]", f"seat {seat} is listed twice")
        s.knowers |= 1 << seat
    for name, arr, hi in (("discard", "discard", 235), ("row", "row", 2),
                          ("stack", "stack", 2), ("removed_tokens", "gone", 2)):
        names = TOKENS if arr != "discard" else KINDS
        vals = _counts(d[name], name, names, hi)
        for k in range(14):
            if arr == "discard":
                s.discard[k] = vals[k]
            elif arr == "row":
                s.row[k] = vals[k]
                s.n_row += vals[k]
            elif arr == "stack":
                s.stack[k] = vals[k]
                s.n_stack += vals[k]
            else:
                s.gone[k] = vals[k]
    for k in range(14):
        if s.gone[k] and s.gone[k] != TOKEN_COPIES[k]:
            raise StateFormatError(f"removed_tokens.{TOKENS[k]}",
                                   f"a study leaves out every copy of a token "
                                   f"({TOKEN_COPIES[k]}), not {s.gone[k]}")
    wdw = _dict(d["window"], "window", ("deck", "cards", "to_draw"))
    if wdw["deck"] is None:
        s.hali_deck = AR_NONE
    else:
        s.hali_deck = _int(wdw["deck"], "window.deck", 0, n - 1)
    for k, x in enumerate(_counts(wdw["cards"], "window.cards", KINDS, 5)):
        s.win[k] = x
    s.hali_need = _int(wdw["to_draw"], "window.to_draw", 0, 4)
    cf = _dict(d["conflict"], "conflict", ("turned", "battle"))
    s.turned = _int(cf["turned"], "conflict.turned", 0, CONFLICT[n])
    s.battle = _bool(cf["battle"], "conflict.battle")
    s.cat = AR_NONE if d["cat"] is None else _int(d["cat"], "cat", 0, n - 1)
    s.phase = phase
    s.reveal = reveal_mask(s)
    if phase == PH_OVER:
        s.winner_mask = ar_winners(s)
    # 2. the invariants
    code = ar_state_check(s)
    if code:
        field, rule = _CHECK_FIELDS.get(code, ("position", ""))
        reason = check_message(code)
        if rule and reason.endswith(f" ({rule})"):      # the rule is named once, at the end
            reason = reason[:-len(rule) - 3]
        raise StateFormatError(field, reason, rule)
    # 3. the node: pending draws are possible, and the position rests where it says
    if s.draw in (DR_CENTRAL, DR_LOOK):
        if s.d[AR_CENTRAL].n == 0 or s.d[AR_CENTRAL].top != AR_NONE:
            raise StateFormatError("draw", "a draw from C needs a card in C whose top nobody "
                                           "knows (A-CHANCE-1 CH5, CH6)", "A-CHANCE-1")
        if (s.draw == DR_LOOK) != (s.task == TK_MAIN) or (
                s.draw == DR_LOOK and s.cat != s.active):
            raise StateFormatError("draw", "the cat holder looks at C's top at the start of "
                                           "the turn, before the main pick (A-CAT-3)",
                                   "A-CAT-3")
    if s.draw == DR_BLIND and (s.n_stack == 0 or s.task != TK_NONE):
        raise StateFormatError("draw", "a token taken from the stack needs a token in the "
                                       "stack (A-SCI-4)", "A-SCI-4")
    if s.draw == DR_CENTRAL and s.task != TK_NONE:
        raise StateFormatError("draw", "a card drawn from C arrives before any other task "
                                       "(A-ARR-2)", "A-ARR-2")
    if phase != PH_OVER:
        probe = s[0]
        if step(&probe):
            raise StateFormatError("phase", f"the position does not rest at a node: the engine "
                                            f"would go on from it (A-ORDER-1)", "A-ORDER-1")
        if probe.phase != phase:
            raise StateFormatError("phase", f"the position is at a {PHASES[probe.phase]} node, "
                                            f"not {PHASES[phase]}", "A-ORDER-1")
        if phase == PH_CHANCE:
            if not (opts & OP_EXPLICIT_CHANCE):
                raise StateFormatError("phase", "a chance node rests only with explicit "
                                                "chance (A-CHANCE)", "A-CHANCE-1")
            s.chance = probe.chance
            s.chance_deck = probe.chance_deck
        else:
            m = ar_legal(s, out)
            if m < 2:
                raise StateFormatError("phase", f"a decision with {m} legal action(s) is not "
                                                f"asked (A-DEC-2)", "A-DEC-2")
    return st
