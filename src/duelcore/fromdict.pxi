# state_from_dict: positions written as data (included by state.pxi).

def _field_int(d, key, field, lo, hi, default=None):
    v = d.get(key, default)
    if v is None or isinstance(v, bool) or not isinstance(v, int):
        raise StateFormatError(field, f"must be an integer from {lo} to {hi}, not {v!r}")
    if not lo <= v <= hi:
        raise StateFormatError(field, f"must be from {lo} to {hi}, not {v}")
    return v


def _field_list(d, key, field, default=()):
    v = d.get(key, default)
    if not isinstance(v, (list, tuple)):
        raise StateFormatError(field, f"must be a list, not {type(v).__name__}")
    return v


_POSITION_KEYS = ("version", "options", "phase", "age", "to_move", "first_player", "layout",
                  "reveal_queue", "guild_slots", "dealing", "players", "pawn", "military_tokens",
                  "board_tokens", "aside_tokens", "library_offer", "discard_pile", "draft",
                  "pending", "destroy_colour", "replay", "chooser", "last_taker",
                  "n_decisions", "n_chance", "rng", "winner", "victory")
_PLAYER_KEYS = ("coins", "city", "wonders", "progress_tokens")


def _no_unknown_keys(d, allowed, field):
    unknown = [k for k in d if k not in allowed]
    if unknown:
        import difflib
        k = unknown[0]
        close = difflib.get_close_matches(str(k), allowed, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise StateFormatError(f"{field}.{k}" if field != "position" else str(k),
                               f"unknown key{hint}; keys: {', '.join(allowed)}")


def state_from_dict(d):
    """Build a :class:`State` from the description written by :meth:`State.to_dict`.

    A position can be written by hand: only ``version``, ``age``, ``layout`` (20 entries: a card
    name, ``"face_down"`` (an Age back), ``"face_down_guild"`` (a guild back, Age III) or
    ``null`` for a taken slot; empty before Age I) and ``players`` (each
    with ``coins``, ``city``, ``wonders``, ``progress_tokens``) are required; the rest defaults to
    P1 to move in the ``play`` phase, the pawn centred, all military tokens on the track and
    nothing pending.

    Raises
    ------
    StateFormatError
        Naming the field, for an unknown name, a card in two places, an impossible pawn or
        layout, negative coins, a wrong version or any inconsistent field.
    """
    cdef State st = State.__new__(State)
    cdef GameState* g = &st.s
    cdef int i, p, slot, code
    cdef PlayerState tmp
    if not isinstance(d, dict):
        raise StateFormatError("position", f"must be a dict, not {type(d).__name__}")
    if d.get("version") != FORMAT_VERSION:
        raise StateFormatError("version", f"must be {FORMAT_VERSION}, not {d.get('version')!r}")
    _no_unknown_keys(d, _POSITION_KEYS, "position")
    if d.get("age", 0) and "layout" not in d:
        raise StateFormatError("layout", "missing: an Age's layout lists its 20 slots")
    opts_d = d.get("options", {})
    if not isinstance(opts_d, dict):
        raise StateFormatError("options", "must be a dict")
    centred = opts_d.get("centred_pawn", "chooses")
    if centred not in ("chooses", "begins"):
        raise StateFormatError("options.centred_pawn", f"must be 'chooses' or 'begins', not {centred!r}")
    opts = (OPT_CENTRED_BEGINS if centred == "begins" else 0) | \
           (OPT_EXPLICIT_CHANCE if opts_d.get("explicit_chance", False) else 0) | \
           (OPT_FIRST_GAME if opts_d.get("first_game_wonders", False) else 0)
    rng = _field_int(d, "rng", "rng", 0, 2 ** 64 - 1, 0)
    try:
        banned, f0, f1 = _treatments(opts_d.get("banned_tokens", ()),
                                     opts_d.get("forced_wonders", None), False)
    except (ValueError, TypeError) as e:
        raise StateFormatError("options", str(e)) from None
    init_state(g, 0, opts, 0, 0, 0, 0)
    set_treatments(g, banned, f0, f1)
    g.rng = rng
    phase = d.get("phase", "play")
    if phase not in PHASE_NAMES:
        raise StateFormatError("phase", f"unknown phase {phase!r}; one of {', '.join(PHASE_NAMES)}")
    g.phase = PHASE_NAMES.index(phase)
    g.age = _field_int(d, "age", "age", 0, 3)
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
    g.replay = bool(d.get("replay", False))

    place = {}      # card id -> field where it was placed

    def put(c, field):
        if c in place:
            raise StateFormatError(field, f"{_CARDS[c]} is already in {place[c]}")
        place[c] = field

    # military tokens
    mil = _field_list(d, "military_tokens", "military_tokens", [[2, 5], [2, 5]])
    if len(mil) != 2:
        raise StateFormatError("military_tokens", "must list the tokens on P1's side and on P2's")
    g.mil_tokens = 0
    for q in range(2):
        for v in _field_list({"x": mil[q]}, "x", f"military_tokens[{q}]"):
            if v not in (2, 5):
                raise StateFormatError(f"military_tokens[{q}]", f"a military token is 2 or 5, not {v!r}")
            g.mil_tokens |= 1 << (2 * q + (0 if v == 2 else 1))

    # layout
    layout = _field_list(d, "layout", "layout", [])
    queue = _field_list(d, "reveal_queue", "reveal_queue", [])
    for slot in queue:
        if not isinstance(slot, int) or not 0 <= slot < NUM_SLOTS:
            raise StateFormatError("reveal_queue", f"a slot is 0..19, not {slot!r}")
        g.reveal_queue |= 1 << slot
    if g.age == 0:
        if layout:
            raise StateFormatError("layout", "there is no layout before Age I (age 0)")
    else:
        if len(layout) != NUM_SLOTS:
            raise StateFormatError("layout", f"must have 20 slots, not {len(layout)}")
        lay = _data.LAYOUTS[g.age - 1]
        for slot, entry in enumerate(layout):
            field = f"layout[{slot}]"
            if entry is None:
                g.taken |= 1 << slot
            elif entry == "face_down" or entry == "face_down_guild":
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
            bs_add(g.p[p].city, c)
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
            if wd.get("built", False):
                g.p[p].built |= 1 << w
                card = wd.get("card")
                if card is not None:
                    c = _lookup(_CARDS, card, "card", f"{field}.card")
                    put(c, f"{field}.card")
                    bs_add(g.tucked, c)
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
        bs_add(g.discard, c)
    draft = d.get("draft", {})
    if not isinstance(draft, dict):
        raise StateFormatError("draft", "must be a dict")
    for i, name in enumerate(_field_list(draft, "offer", "draft.offer")):
        w = _lookup(_WONDERS, name, "wonder", f"draft.offer[{i}]")
        if w in owner:
            raise StateFormatError(f"draft.offer[{i}]", f"{_WONDERS[w]} is already {owner[w]}'s")
        g.draft_offer |= 1 << w
        g.wonders_seen |= 1 << w
    for i, name in enumerate(_field_list(draft, "revealed", "draft.revealed")):
        g.wonders_seen |= 1 << _lookup(_WONDERS, name, "wonder", f"draft.revealed[{i}]")
    g.draft_pick = _field_int(draft, "picks", "draft.picks", 0, 8, 8 if g.age else 0)

    pend = _field_list(d, "pending", "pending")
    names = dict((n, b) for b, n in _PEND_NAMES)
    for i, name in enumerate(pend):
        if name not in names:
            raise StateFormatError(f"pending[{i}]", f"unknown pending choice {name!r}")
        g.pend |= names[name]
    colour = d.get("destroy_colour", "brown")
    if colour not in ("brown", "grey"):
        raise StateFormatError("destroy_colour", f"must be 'brown' or 'grey', not {colour!r}")
    g.destroy_colour = BROWN if colour == "brown" else GREY
    winner = d.get("winner")
    if winner not in (None, 0, 1):
        raise StateFormatError("winner", f"must be 0, 1 or null, not {winner!r}")
    g.winner = WINNER_NONE if winner is None else winner
    victory = d.get("victory", "none")
    if victory not in VICTORY_NAMES:
        raise StateFormatError("victory", f"unknown victory {victory!r}")
    g.victory = VICTORY_NAMES.index(victory)
    if (g.phase == PH_OVER) != (g.victory != VICTORY_NONE):
        raise StateFormatError("victory", "a victory is given exactly when the phase is 'over'")

    # derived values
    for c in place:
        bs_add(g.seen, c)
    if sum(1 for c in place if c >= FIRST_GUILD) > 3:
        raise StateFormatError("layout", "at most 3 guilds are in a game (R-SETUP-6)")
    # guild backs (R-CHANCE-2): the face-down guild backs and the face-up guilds of the layout
    # give their slots; a taken guild slot is named in `guild_slots`
    if g.age == 3:
        for slot in range(NUM_SLOTS):
            if g.slot_card[slot] != NO_CARD and g.slot_card[slot] >= FIRST_GUILD:
                g.guild_slots |= 1 << slot
    if "guild_slots" in d:
        bits = 0
        for i, slot in enumerate(_field_list(d, "guild_slots", "guild_slots")):
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < NUM_SLOTS:
                raise StateFormatError(f"guild_slots[{i}]", f"a slot is 0..19, not {slot!r}")
            bits |= 1 << slot
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
                bs_add(g.avail, g.slot_card[slot])
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
    if g.phase == PH_PLAY and g.age and g.taken == ALL_SLOTS:
        raise StateFormatError("layout", "every card of the Age is taken: it is not a play turn")
    if g.phase in (PH_DRAFT, PH_DRAFT_REVEAL) and g.age:
        raise StateFormatError("phase", "the draft comes before Age I")
    code = state_check(g)
    if code:
        raise StateFormatError("position", STATE_CHECK_MESSAGES[code])
    return st
