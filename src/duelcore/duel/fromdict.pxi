# state_from_dict: positions written as data (included by state.pxi).
#
# A position that loads is playable; one that is not is refused with the field named.  Two
# layers make that true:
#   1. Types (this file): every field has one JSON type and range.  Integers are ints (never a
#      bool, a float or a string), booleans are true/false (never "false" or 0), names are
#      strings or ids, lists are lists without repeats, dicts have no unknown keys.  Each
#      refusal is a StateFormatError naming the field, e.g. "reveal_queue[2]".
#   2. Consistency (engine.pyx, state_check): the position checks 15..72 listed next to
#      position_check, with their rule ids -- the per-phase preconditions (the phase has
#      something to choose or draw; set-up phases carry set-up contents only; the age, the
#      draft counters, the reveal queue, the pending choices, the Great Library draw and the
#      tokens agree with each other and with the rules).  STATE_CHECKS gives each its field.
import reprlib as _reprlib

_short = _reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlevel = 2
_short.maxlist = 4
_short.maxdict = 4

SETUP_PHASES = ("setup_first_player", "setup_tokens", "draft_reveal", "draft")


def _show(v):
    """A short repr of a bad value for an error message (never huge, never recursive)."""
    try:
        return _short.repr(v)
    except Exception:                       # a value whose repr fails: its type is enough
        return f"<{type(v).__name__}>"


def _is_int(v):
    """A true integer: int but not bool (a float, even 7.0, NaN or inf, is not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v, field, lo, hi):
    if not _is_int(v):
        raise StateFormatError(field, f"must be an integer from {lo} to {hi}, not {_show(v)}")
    if not lo <= v <= hi:
        raise StateFormatError(field, f"must be from {lo} to {hi}, not {_show(v)}")
    return v


def _field_int(d, key, field, lo, hi, default=None):
    return _int(d.get(key, default), field, lo, hi)


def _field_bool(d, key, field, default):
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise StateFormatError(field, f"must be true or false, not {_show(v)}")
    return v


def _field_choice(d, key, field, choices, default):
    v = d.get(key, default)
    if not isinstance(v, str) or v not in choices:
        raise StateFormatError(field, f"must be one of {', '.join(choices)}, not {_show(v)}")
    return v


def _field_list(d, key, field, default=()):
    v = d.get(key, default)
    if not isinstance(v, (list, tuple)):
        raise StateFormatError(field, f"must be a list, not {type(v).__name__}")
    return v


def _field_dict(d, key, field, allowed):
    v = d.get(key, {})
    if not isinstance(v, dict):
        raise StateFormatError(field, f"must be a dict, not {type(v).__name__}")
    _no_unknown_keys(v, allowed, field)
    return v


def _slot_bits(d, key):
    """A list of layout slots (0..19), each once, as a bitset."""
    bits = 0
    for i, slot in enumerate(_field_list(d, key, key)):
        field = f"{key}[{i}]"
        if not _is_int(slot):
            raise StateFormatError(field, f"a slot is an integer from 0 to 19, not {_show(slot)}")
        if not 0 <= slot < NUM_SLOTS:
            raise StateFormatError(field, f"a slot is from 0 to 19, not {_show(slot)}")
        if (bits >> slot) & 1:
            raise StateFormatError(field, f"slot {slot} is listed twice")
        bits |= 1 << slot
    return bits


def _name_bits(values, names, what, field):
    """A list of names (or ids), each once, as a bitset."""
    bits = 0
    for i, name in enumerate(values):
        x = _lookup(names, name, what, f"{field}[{i}]")
        if (bits >> x) & 1:
            raise StateFormatError(f"{field}[{i}]", f"{names[x]} is listed twice")
        bits |= 1 << x
    return bits


_POSITION_KEYS = ("version", "options", "phase", "age", "to_move", "first_player", "layout",
                  "reveal_queue", "guild_slots", "dealing", "players", "pawn", "military_tokens",
                  "board_tokens", "aside_tokens", "library_offer", "discard_pile", "draft",
                  "pending", "destroy_colour", "replay", "chooser", "last_taker",
                  "n_decisions", "n_chance", "rng", "winner", "victory")
_PLAYER_KEYS = ("coins", "city", "wonders", "progress_tokens")
_OPTION_KEYS = ("centred_pawn", "explicit_chance", "first_game_wonders", "banned_tokens",
                "forced_wonders")
_DRAFT_KEYS = ("offer", "revealed", "picks")


def _no_unknown_keys(d, allowed, field):
    unknown = [k for k in d if k not in allowed]
    if unknown:
        import difflib
        k = unknown[0]
        close = difflib.get_close_matches(str(k), allowed, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        name = _show(k) if not isinstance(k, str) else k
        raise StateFormatError(f"{field}.{name}" if field != "position" else name,
                               f"unknown key{hint}; keys: {', '.join(allowed)}")


def _options(opts_d):
    """options -> (option flags, banned token mask, forced wonder id + 1 for P1, for P2)."""
    centred = _field_choice(opts_d, "centred_pawn", "options.centred_pawn",
                            ("chooses", "begins"), "chooses")
    explicit = _field_bool(opts_d, "explicit_chance", "options.explicit_chance", False)
    first_game = _field_bool(opts_d, "first_game_wonders", "options.first_game_wonders", False)
    banned = _name_bits(_field_list(opts_d, "banned_tokens", "options.banned_tokens"),
                        _TOKENS, "progress token", "options.banned_tokens")
    if bin(banned).count("1") > 5:
        raise StateFormatError("options.banned_tokens",
                               "at most 5 tokens can be banned (5 are laid on the board)")
    fw = opts_d.get("forced_wonders", None)
    if fw is None:
        fw = (None, None)
    if not isinstance(fw, (list, tuple)) or len(fw) != 2:
        raise StateFormatError("options.forced_wonders",
                               "must be a pair: P1's wonder or null, P2's wonder or null")
    forced = [0 if w is None else 1 + _lookup(_WONDERS, w, "wonder", f"options.forced_wonders[{q}]")
              for q, w in enumerate(fw)]
    if forced[0] and forced[0] == forced[1]:
        raise StateFormatError("options.forced_wonders[1]",
                               "the same wonder cannot be forced into both drafts")
    if (forced[0] or forced[1]) and first_game:
        raise StateFormatError("options.forced_wonders",
                               "cannot be combined with first_game_wonders (no draft)")
    opts = ((OPT_CENTRED_BEGINS if centred == "begins" else 0)
            | (OPT_EXPLICIT_CHANCE if explicit else 0) | (OPT_FIRST_GAME if first_game else 0))
    return opts, banned, forced[0], forced[1]


def state_from_dict(d):
    """Build a :class:`State` from the description written by :meth:`State.to_dict`.

    A position that loads is playable; one that is not is refused with the field named.  Every
    field has a strict type (an integer is never a float, a bool or a string; a boolean is
    ``true``/``false``), and the position must be one the rules can reach, with something to
    choose or draw: the checks are ``duelcore.engine.STATE_CHECKS`` (listed with their rule ids
    next to ``position_check`` in engine.pyx).

    A position can be written by hand: only ``version``, ``age``, ``layout`` (20 entries: a card
    name, ``"face_down"`` (an Age back), ``"face_down_guild"`` (a guild back, Age III) or
    ``null`` for a taken slot; empty before Age I) and ``players`` (each with ``coins``,
    ``city``, ``wonders``, ``progress_tokens``) are required.  The rest defaults to P1 to move
    in the ``play`` phase, the pawn centred, the military tokens of the zones the pawn has not
    entered on the track (all 4 when it is centred) and nothing pending.  ``play`` needs an Age
    (1..3): a position before Age I names its set-up phase (``setup_first_player``,
    ``setup_tokens``, ``draft_reveal`` or ``draft``).  A hand-made position may put the 3 cards
    removed from an Age's deck (R-SETUP-6) in the cities or the discard pile.

    Raises
    ------
    StateFormatError
        Naming the field (``.field``, e.g. ``"reveal_queue[2]"``) and the reason, for a wrong
        type, an unknown name, a card in two places, an impossible pawn or layout, negative
        coins, a wrong version or a position the rules cannot reach.
    """
    cdef State st = State.__new__(State)
    cdef GameState* g = &st.s
    cdef int i, p, slot, code, where
    cdef PlayerState tmp
    if not isinstance(d, dict):
        raise StateFormatError("position", f"must be a dict, not {type(d).__name__}")
    version = d.get("version")
    if not _is_int(version) or version != FORMAT_VERSION:
        raise StateFormatError("version", f"must be {FORMAT_VERSION}, not {_show(version)}")
    _no_unknown_keys(d, _POSITION_KEYS, "position")
    if d.get("age", 0) and "layout" not in d:
        raise StateFormatError("layout", "missing: an Age's layout lists its 20 slots")
    opts, banned, f0, f1 = _options(_field_dict(d, "options", "options", _OPTION_KEYS))
    rng = _field_int(d, "rng", "rng", 0, 2 ** 64 - 1, 0)
    init_state(g, 0, opts, 0, 0, 0, 0)
    set_treatments(g, banned, f0, f1)
    g.rng = rng
    phase = _field_choice(d, "phase", "phase", PHASE_NAMES, "play")
    g.phase = PHASE_NAMES.index(phase)
    g.age = _field_int(d, "age", "age", 0, 3)
    if g.age == 0 and phase not in SETUP_PHASES:
        default = "" if "phase" in d else " (the default)"
        raise StateFormatError("phase", f"phase {phase!r}{default} belongs to an Age (1..3), but "
                               f"age is 0: before Age I the phase is one of "
                               f"{', '.join(SETUP_PHASES)} (R-AGE-1)")
    g.to_move = _field_int(d, "to_move", "to_move", 0, 1, 0)
    g.first_player = _field_int(d, "first_player", "first_player", 0, 1, 0)
    g.pawn = _field_int(d, "pawn", "pawn", -9, 9, 0)
    if g.pawn in (-9, 9) and phase != "over":
        raise StateFormatError("pawn", "the pawn is on a capital but the game is not over")
    g.chooser = _field_int(d, "chooser", "chooser", 0, 1, 0)
    g.last_taker = _field_int(d, "last_taker", "last_taker", 0, 1, 0)
    g.n_decisions = _field_int(d, "n_decisions", "n_decisions", 0, 65535, 0)
    g.n_chance = _field_int(d, "n_chance", "n_chance", 0, 65535, 0)
    g.dealing = _field_int(d, "dealing", "dealing", 0, 2, 0)
    g.replay = _field_bool(d, "replay", "replay", False)

    place = {}      # card id -> field where it was placed

    def put(c, field):
        if c in place:
            raise StateFormatError(field, f"{_CARDS[c]} is already in {place[c]}")
        place[c] = field

    # military tokens
    # by default, the tokens of the zones the pawn has not entered (R-MIL-2): all 4 when centred
    toward = (-g.pawn, g.pawn)              # how far the pawn is toward each player's capital
    mil = _field_list(d, "military_tokens", "military_tokens",
                      [[v for v, zone in ((2, 3), (5, 6)) if toward[q] < zone] for q in range(2)])
    if len(mil) != 2:
        raise StateFormatError("military_tokens", "must list the tokens on P1's side and on P2's")
    g.mil_tokens = 0
    for q in range(2):
        for i, v in enumerate(_field_list({"x": mil[q]}, "x", f"military_tokens[{q}]")):
            field = f"military_tokens[{q}][{i}]"
            if not _is_int(v) or v not in (2, 5):
                raise StateFormatError(field, f"a military token is 2 or 5, not {_show(v)}")
            bit = 1 << (2 * q + (0 if v == 2 else 1))
            if g.mil_tokens & bit:
                raise StateFormatError(field, f"the {v}-coin token is listed twice")
            g.mil_tokens |= bit

    # layout
    layout = _field_list(d, "layout", "layout", [])
    g.reveal_queue = _slot_bits(d, "reveal_queue")
    if g.age == 0:
        if layout:
            raise StateFormatError("layout", "there is no layout before Age I (age 0)")
        if g.reveal_queue:
            raise StateFormatError("reveal_queue", "there is no layout before Age I (age 0)")
    else:
        if len(layout) != NUM_SLOTS:
            raise StateFormatError("layout", f"must have 20 slots, not {len(layout)}")
        lay = _data.LAYOUTS[g.age - 1]
        for slot, entry in enumerate(layout):
            field = f"layout[{slot}]"
            if entry is None:
                g.taken |= 1 << slot
            elif isinstance(entry, str) and entry in ("face_down", "face_down_guild"):
                if entry == "face_down_guild":
                    if g.age != 3:
                        raise StateFormatError(field, "guild backs lie only in Age III (R-CHANCE-2)")
                    g.guild_slots |= 1 << slot
                if slot in lay.face_down:
                    g.face_down |= 1 << slot
                elif not (g.reveal_queue >> slot) & 1:
                    raise StateFormatError(field, f"slot {slot} of Age {g.age} is dealt face up")
            else:
                c = _lookup(_CARDS, entry, "card", field)
                ages = _data.CARDS[c].age
                if ages != g.age:
                    raise StateFormatError(field, f"{_CARDS[c]} is not an Age {g.age} card")
                put(c, field)
                g.slot_card[slot] = c
        for slot in range(NUM_SLOTS):
            if (g.taken >> slot) & 1 and COVERED[g.age - 1][slot] & ~g.taken:
                raise StateFormatError(f"layout[{slot}]", "a taken slot is still covered by a card")
            if ((g.face_down >> slot) & 1 and slot_free(g, slot)
                    and not (g.reveal_queue >> slot) & 1):
                raise StateFormatError(f"layout[{slot}]", "a face-down card is uncovered but was "
                                                          "not turned face up (R-TURN-2)")
            if (g.reveal_queue >> slot) & 1 and layout[slot] not in ("face_down",
                                                                     "face_down_guild"):
                raise StateFormatError("reveal_queue", f"slot {slot} is not waiting to be revealed")
        if g.reveal_queue and phase not in ("reveal", "choose_token", "destroy", "revive", "over",
                                            "library_draw", "library", "guilds"):
            raise StateFormatError("reveal_queue", "cards wait to be revealed: the phase must be "
                                   "'reveal' or a choice made before the reveal (R-TURN-2)")

    # players
    players = _field_list(d, "players", "players")
    if len(players) != 2:
        raise StateFormatError("players", "must describe exactly 2 players")
    owner = {}
    for p in range(2):
        pd = players[p]
        base = f"players[{p}]"
        if not isinstance(pd, dict):
            raise StateFormatError(base, "must be a dict")
        _no_unknown_keys(pd, _PLAYER_KEYS, base)
        g.p[p].coins = _field_int(pd, "coins", f"{base}.coins", 0, 10 ** 6)
        for i, name in enumerate(_field_list(pd, "city", f"{base}.city")):
            c = _lookup(_CARDS, name, "card", f"{base}.city[{i}]")
            put(c, f"{base}.city")
            bit_add(g.p[p].city, c)
        for i, wd in enumerate(_field_list(pd, "wonders", f"{base}.wonders")):
            field = f"{base}.wonders[{i}]"
            if isinstance(wd, str):
                wd = {"name": wd}
            if not isinstance(wd, dict):
                raise StateFormatError(field, "must be a wonder name or a dict with 'name'")
            _no_unknown_keys(wd, ("name", "built", "card"), field)
            w = _lookup(_WONDERS, wd.get("name"), "wonder", f"{field}.name")
            if w in owner:
                raise StateFormatError(field, f"{_WONDERS[w]} is already {owner[w]}'s")
            owner[w] = PLAYER_NAMES[p]
            g.p[p].wonders |= 1 << w
            g.wonders_seen |= 1 << w
            if _field_bool(wd, "built", f"{field}.built", False):
                g.p[p].built |= 1 << w
                card = wd.get("card")
                if card is not None:
                    c = _lookup(_CARDS, card, "card", f"{field}.card")
                    put(c, f"{field}.card")
                    bit_add(g.tucked, c)
                    g.under[w] = c
            elif wd.get("card") is not None:
                raise StateFormatError(f"{field}.card", "an unbuilt wonder has no card under it")
        if popcount(g.p[p].wonders) > 4:
            raise StateFormatError(f"{base}.wonders", "a player has at most 4 wonders")
        for i, name in enumerate(_field_list(pd, "progress_tokens", f"{base}.progress_tokens")):
            t = _lookup(_TOKENS, name, "progress token", f"{base}.progress_tokens[{i}]")
            if (g.p[0].tokens | g.p[1].tokens) >> t & 1:
                raise StateFormatError(f"{base}.progress_tokens[{i}]", f"{_TOKENS[t]} is owned twice")
            g.p[p].tokens |= 1 << t

    # tokens, discard pile, draft
    token_place = {}
    for p in range(2):
        for t in _bits(g.p[p].tokens):
            token_place[t] = f"players[{p}].progress_tokens"
    for key in ("board_tokens", "aside_tokens", "library_offer"):
        bits = 0
        for i, name in enumerate(_field_list(d, key, key)):
            t = _lookup(_TOKENS, name, "progress token", f"{key}[{i}]")
            if (bits >> t) & 1:
                raise StateFormatError(f"{key}[{i}]", f"{_TOKENS[t]} is listed twice")
            if t in token_place and not (key == "library_offer" and token_place[t] == "aside_tokens"):
                raise StateFormatError(f"{key}[{i}]", f"{_TOKENS[t]} is already in {token_place[t]}")
            token_place.setdefault(t, key)
            bits |= 1 << t
        if key == "board_tokens":
            g.board_tokens = bits
        elif key == "aside_tokens":
            g.aside_tokens = bits
        else:
            g.library_offer = bits
    if g.library_offer & ~g.aside_tokens:
        raise StateFormatError("library_offer", "the Great Library draws only set-aside tokens")
    for i, name in enumerate(_field_list(d, "discard_pile", "discard_pile")):
        c = _lookup(_CARDS, name, "card", f"discard_pile[{i}]")
        put(c, "discard_pile")
        bit_add(g.discard, c)
    draft = _field_dict(d, "draft", "draft", _DRAFT_KEYS)
    offer = _name_bits(_field_list(draft, "offer", "draft.offer"), _WONDERS, "wonder",
                       "draft.offer")
    for w in _bits(offer):
        if w in owner:
            i = _bits(offer).index(w)
            raise StateFormatError(f"draft.offer[{i}]", f"{_WONDERS[w]} is already {owner[w]}'s")
    g.draft_offer = offer
    g.wonders_seen |= offer | _name_bits(_field_list(draft, "revealed", "draft.revealed"),
                                         _WONDERS, "wonder", "draft.revealed")
    g.draft_pick = _field_int(draft, "picks", "draft.picks", 0, 8, 8 if g.age else 0)

    names = dict((n, b) for b, n in _PEND_NAMES)
    for i, name in enumerate(_field_list(d, "pending", "pending")):
        if not isinstance(name, str) or name not in names:
            raise StateFormatError(f"pending[{i}]", f"unknown pending choice {_show(name)}; one "
                                   f"of {', '.join(names)}")
        if g.pend & names[name]:
            raise StateFormatError(f"pending[{i}]", f"{name!r} is listed twice")
        g.pend |= names[name]
    colour = _field_choice(d, "destroy_colour", "destroy_colour", ("brown", "grey"), "brown")
    g.destroy_colour = BROWN if colour == "brown" else GREY
    winner = d.get("winner")
    if winner is not None and (not _is_int(winner) or winner not in (0, 1)):
        raise StateFormatError("winner", f"must be 0, 1 or null, not {_show(winner)}")
    g.winner = WINNER_NONE if winner is None else winner
    victory = _field_choice(d, "victory", "victory", VICTORY_NAMES, "none")
    g.victory = VICTORY_NAMES.index(victory)
    if (g.phase == PH_OVER) != (g.victory != VICTORY_NONE):
        raise StateFormatError("victory", "a victory is given exactly when the phase is 'over'")

    # derived values
    for c in place:
        bit_add(g.seen, c)
    if sum(1 for c in place if c >= FIRST_GUILD) > 3:
        raise StateFormatError("layout", "at most 3 guilds are in a game (R-SETUP-6)")
    # guild backs (R-CHANCE-2): the face-down guild backs and the face-up guilds of the layout
    # give their slots; a taken guild slot is named in `guild_slots`
    if g.age == 3:
        for slot in range(NUM_SLOTS):
            if g.slot_card[slot] != NO_CARD and g.slot_card[slot] >= FIRST_GUILD:
                g.guild_slots |= 1 << slot
    if "guild_slots" in d:
        bits = _slot_bits(d, "guild_slots")
        if g.age < 3 and bits:
            raise StateFormatError("guild_slots", "guild backs lie only in Age III (R-CHANCE-2)")
        if bits & ~g.taken & ~g.guild_slots:
            raise StateFormatError("guild_slots", "a slot listed there shows no guild (back or card)")
        if g.guild_slots & ~bits:
            raise StateFormatError("guild_slots", "a guild back or guild card of the layout is "
                                   "not listed")
        g.guild_slots = bits
    elif g.age == 3 and g.phase != PH_GUILDS:
        # a hand-made position may leave out where the guilds lie: the lowest taken slots
        # complete the 3 (a taken slot never comes back into play, so which ones does not
        # matter), then the lowest face-down slots written "face_down"
        for slot in range(NUM_SLOTS):
            if popcount(g.guild_slots) < 3 and (g.taken >> slot) & 1:
                g.guild_slots |= 1 << slot
        for slot in range(NUM_SLOTS):
            if popcount(g.guild_slots) < 3 and g.slot_card[slot] == NO_CARD \
                    and not (g.taken >> slot) & 1:
                g.guild_slots |= 1 << slot
    if g.age == 3 and g.phase != PH_GUILDS and popcount(g.guild_slots) != 3:
        raise StateFormatError("guild_slots", f"Age III has 3 guild positions, not "
                               f"{popcount(g.guild_slots)} (R-CHANCE-2)")
    if g.age:
        g.age_seen = NUM_SLOTS - popcount(g.face_down) - popcount(g.reveal_queue & ~g.face_down)
        for slot in range(NUM_SLOTS):
            if g.slot_card[slot] != NO_CARD and slot_free(g, slot):
                bit_add(g.avail, g.slot_card[slot])
    for p in range(2):
        g.n_built_wonders += popcount(g.p[p].built)
        tmp = g.p[p]
        recompute_player(&tmp, &g.p[p])
    if g.n_built_wonders > 7:
        raise StateFormatError("players", "at most 7 wonders are built in a game (R-WONDER-3)")
    if g.n_built_wonders == 7:
        for p in range(2):
            if g.p[p].wonders & ~g.p[p].built:
                raise StateFormatError(f"players[{p}].wonders", "7 wonders are built: the unbuilt "
                                       "wonder has left the game (R-WONDER-3)")
    for p in range(2):
        if g.p[p].n_symbols >= 6 and g.phase != PH_OVER:
            raise StateFormatError(f"players[{p}].city", "6 different science symbols: the game "
                                                         "should be over (R-SCI-3)")
    # the invariants and the position checks (engine.pyx: state_check, position_check)
    code = state_check_at(g, &where)
    if code:
        field, reason = check_error(g, code, where)
        raise StateFormatError(field, reason)
    return st
