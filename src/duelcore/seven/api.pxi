# The Python face of the 7 Wonders core (included by engine.pyx): tables, State, new_game,
# state_from_dict, the raw cost solver for tests.

# ---------------------------------------------------------------- tables
def _build_tables():
    D = _data
    cdef int nm, r, t, b, sd, k, n, pid
    cdef NameDef* d
    for t, (x, y) in enumerate(D.PAIRS):
        TYPE_MASK[t] = (1 << D.RESOURCES.index(x)) | (1 << D.RESOURCES.index(y))
    TYPE_MASK[6] = 0b0001111
    TYPE_MASK[7] = 0b1110000
    for k in range(128):
        TYPE_HIT[k] = sum(1 << t for t in range(8) if TYPE_MASK[t] & k)
    MIL_WIN[0] = 0
    MIL_WIN[1] = 1
    MIL_WIN[2] = 3
    MIL_WIN[3] = 5
    specials = {"vineyard": 1, "bazar": 2, "haven": 3, "lighthouse": 4, "chamber": 5, "arena": 6}
    trades = {"raw_right": TR_RAW_RIGHT, "raw_left": TR_RAW_LEFT, "manuf": TR_MANUF}
    for nm in range(SV_NUM_NAMES):
        d = &NAMES[nm]
        memset(d, 0, sizeof(NameDef))
        d.pair = 255
        d.anyc = 255
        d.sci = 255
        card = D.card_of_name(nm)
        coins, res = D.parse_cost(card.cost)
        d.coins = coins
        for r in range(SV_NUM_RES):
            d.res[r] = res[r]
        d.n_res = sum(res)
        d.kmask = sum(1 << r for r in range(7) if res[r])
        if nm >= SV_FIRST_GUILD:
            d.colour = C_PURPLE
            kind, _, rest = card.effect.partition(":")
            if kind == "neighbours":
                col, vp = rest.split(":")
                d.guild = 1
                d.gcolour = D.COLOURS.index(col)
                d.gvp = int(vp)
            else:
                d.guild = {"strategists": 2, "builders": 3, "shipowners": 4,
                           "scientists": 5}[kind]
            continue
        d.colour = D.COLOURS.index(card.colour)
        kind, _, arg = card.effect.partition(":")
        if kind == "prod":
            if "/" in arg:
                d.pair = D.PAIRS.index(tuple(arg.split("/")))
            elif arg[0].isdigit():
                units, res_name = arg.split(" ")
                d.fixed[D.RESOURCES.index(res_name)] = int(units)
            else:
                d.fixed[D.RESOURCES.index(arg)] = 1
        elif kind == "vp":
            d.vp = int(arg)
        elif kind == "shields":
            d.shields = int(arg)
        elif kind == "science":
            d.sci = D.SYMBOLS.index(arg)
        elif kind == "coins":
            d.coins_gain = int(arg)
        elif kind == "trade":
            d.trade = trades[arg]
        elif kind == "choice":
            d.anyc = 6 if arg == "raw" else 7
        else:
            d.special = specials[kind]
        for parent in card.chain_from:
            k = D.NAMES.index(parent)
            d.chain[k >> 6] |= (<u64>1) << (k & 63)
    for b, board in enumerate(D.BOARDS):
        BOARD_RES[b] = D.RESOURCES.index(board.resource)
        for sd, stages in enumerate((board.a, board.b)):
            N_STAGES[b][sd] = len(stages)
            for k, st in enumerate(stages):
                sdef = &STAGES[b][sd][k]
                memset(sdef, 0, sizeof(StageDef))
                sdef.anyc = 255
                res = D.parse_cost(st.cost)[1]
                for r in range(SV_NUM_RES):
                    sdef.res[r] = res[r]
                sdef.n_res = sum(res)
                sdef.kmask = sum(1 << r for r in range(7) if res[r])
                for e in st.effects:
                    kind, _, arg = e.partition(":")
                    if kind == "vp":
                        sdef.vp = int(arg)
                    elif kind == "coins":
                        sdef.coins = int(arg)
                    elif kind == "shields":
                        sdef.shields = int(arg)
                    elif kind == "choice":
                        sdef.anyc = 6 if arg == "raw" else 7
                    else:
                        sdef.flags |= {"trade": ST_RAW_BOTH, "science": ST_SCIENCE,
                                       "seventh": ST_SEVENTH, "free_build": ST_FREE,
                                       "discard_build": ST_HALI, "copy_guild": ST_COPY}[kind]
    memset(NAME_PHYS, 0, sizeof(NAME_PHYS))
    memset(NAME_AGES, 0, sizeof(NAME_AGES))
    memset(AGE_PHYS, 0, sizeof(AGE_PHYS))
    for pid, (nm, age, mark) in enumerate(D.PHYSICAL):
        PH_NAME[pid] = nm
        PH_AGE[pid] = age
        NAME_PHYS[nm][pid >> 6] |= (<u64>1) << (pid & 63)
        NAME_AGES[nm] |= 1 << age
        if nm >= SV_FIRST_GUILD:
            GUILD_PHYS[nm - SV_FIRST_GUILD] = pid
        else:
            for n in range(3, 8):
                if mark <= n:
                    AGE_PHYS[age][n][pid >> 6] |= (<u64>1) << (pid & 63)
    assert len(D.PHYSICAL) == SV_NUM_PHYS and len(D.NAMES) == SV_NUM_NAMES
    assert D.NAMES.index("Builders Guild") == SV_FIRST_GUILD
    assert D.BOARD_NAMES.index("Babylon") == B_BABYLON
    assert D.BOARD_NAMES.index("Olympia") == B_OLYMPIA
    assert D.BOARD_NAMES.index("Halikarnassus") == B_HALI


_build_tables()

# ---------------------------------------------------------------- constants for Python
NUM_ACTIONS = SV_NUM_ACTIONS
NUM_TURN_ACTIONS = SV_NUM_TURN_ACTIONS
HALI_BASE = SV_HALI_BASE
HALI_NONE = SV_HALI_NONE
CHANCE_BOARD_BASE = SV_CH_BOARD_BASE
CHANCE_GUILD_BASE = SV_CH_GUILD_BASE
CHANCE_CARD_BASE = SV_CH_CARD_BASE
USES = ("build", "stage", "discard", "free")
PHASES = ("board", "guild", "deal", "draw", "turn", "halikarnassus", "seventh", "over")
VP_CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds",
                 "science", "total")
FORMAT_VERSION = 1
CHANCE = -1


class IllegalActionError(ValueError):
    """An action that is not legal at this node (the message names the reason)."""


class StateFormatError(ValueError):
    """A position written as data (the :meth:`State.to_dict` form) that is malformed or that
    the rules cannot reach.

    Attributes
    ----------
    field : str
        The key of ``to_dict`` the problem concerns, e.g. ``"cities[1].hand"`` or ``"deck[3]"``
        (``"position"`` for the whole).
    reason : str
        What is wrong and what the rules require, with the rule id (W-...).
    """

    def __init__(self, field, reason=None):
        if reason is None:                  # the one-argument form: the whole message
            field, reason = "position", field
        self.field = field
        self.reason = reason
        super().__init__(field, reason)

    def __str__(self):
        return f"{self.field}: {self.reason}"


def state_size():
    """Bytes of one 7 Wonders state (the struct copied by ``clone``)."""
    return sizeof(SevenState)


def encode_turn_action(use, name, left=0, right=0):
    """Turn action id: ``use`` in USES (or its index), card ``name`` (or name id), coins paid to
    the left and right neighbours (0..15 each)."""
    u = USES.index(use) if isinstance(use, str) else int(use)
    nm = _data.NAMES.index(name) if isinstance(name, str) else int(name)
    if not (0 <= u < 4 and 0 <= nm < SV_NUM_NAMES and 0 <= left < 16 and 0 <= right < 16):
        raise ValueError(f"bad turn action ({use!r}, {name!r}, {left}, {right})")
    return mk_action(u, nm, left, right)


def decode_turn_action(int a):
    """``(use, name, left coins, right coins)`` of a turn action id."""
    if not 0 <= a < SV_NUM_TURN_ACTIONS:
        raise ValueError(f"{a} is not a turn action id")
    return USES[act_use(a)], _data.NAMES[act_name(a)], (a >> 4) & 15, a & 15


def action_to_string(int a):
    """Readable text of any action id, e.g. ``"build Statue (left 2, right 0)"``."""
    if 0 <= a < SV_NUM_TURN_ACTIONS:
        use, name, l, r = decode_turn_action(a)
        if use in ("build", "stage") and (l or r):
            return f"{use} {name} (left {l}, right {r})"
        return f"{use} {name}"
    if SV_HALI_BASE <= a < SV_HALI_NONE:
        return f"take {_data.NAMES[a - SV_HALI_BASE]} from the discard"
    if a == SV_HALI_NONE:
        return "take nothing from the discard"
    if SV_CH_BOARD_BASE <= a < SV_CH_GUILD_BASE:
        b = (a - SV_CH_BOARD_BASE) >> 1
        return f"board {_data.BOARD_NAMES[b]} {'AB'[(a - SV_CH_BOARD_BASE) & 1]}"
    if SV_CH_GUILD_BASE <= a < SV_CH_CARD_BASE:
        return f"guild {_data.GUILDS[a - SV_CH_GUILD_BASE].name}"
    if SV_CH_CARD_BASE <= a < SV_NUM_ACTIONS:
        return f"card {_data.NAMES[a - SV_CH_CARD_BASE]}"
    raise ValueError(f"{a} is not an action id (0..{SV_NUM_ACTIONS - 1})")


def science_points(int compass, int gear, int tablet, int wild=0):
    """W-SCI-3: c^2 + g^2 + t^2 + 7 min(c, g, t) with the wildcards placed best."""
    if min(compass, gear, tablet, wild) < 0:
        raise ValueError("symbol counts are non-negative")
    return science_vp(compass, gear, tablet, wild)


def solve_cost(own_fixed, own_choice, left_fixed, left_pairs, right_fixed, right_pairs,
               left_price, right_price, cost, all_pairs=False):
    """The raw cost solver (W-TRADE-5, -6) on explicit cities, for tests and studies.

    ``own_fixed``, ``left_fixed``, ``right_fixed``, ``left_price``, ``right_price``, ``cost``:
    7 ints per resource (wood, stone, ore, clay, glass, papyrus, loom); ``own_choice``: 8
    counts of choice sources (pair types 0..5 of ``duelcore.seven.data.PAIRS``, then any raw, any
    manufactured); ``left_pairs``, ``right_pairs``: 6 counts.  Returns the sorted list of
    (coins to the left, coins to the right) pairs; [] if the cost cannot be met.
    """
    cdef u8 of[7]
    cdef u8 lf[7]
    cdef u8 rf[7]
    cdef u8 c[7]
    cdef int oc[8]
    cdef int lp[8]
    cdef int rp[8]
    cdef int pl[7]
    cdef int pr[7]
    cdef int outl[SV_MAX_PAIRS]
    cdef int outr[SV_MAX_PAIRS]
    cdef int i, n
    for i in range(7):
        of[i] = own_fixed[i]
        lf[i] = left_fixed[i]
        rf[i] = right_fixed[i]
        c[i] = cost[i]
        pl[i] = left_price[i]
        pr[i] = right_price[i]
    for i in range(8):
        oc[i] = own_choice[i]
        lp[i] = left_pairs[i] if i < 6 else 0
        rp[i] = right_pairs[i] if i < 6 else 0
    n = solve_raw(of, oc, lf, lp, rf, rp, pl, pr, c, 1 if all_pairs else 0, outl, outr)
    return [(outl[i], outr[i]) for i in range(n)]


cdef list _b3_list(const u64* b):
    return [i for i in range(SV_NUM_PHYS) if (b[i >> 6] >> (i & 63)) & 1]


def _names_of_phys(ids):
    return sorted(_data.NAMES[PH_NAME[i]] for i in ids)


def _b3_from(ids, what):
    out = [0, 0, 0]
    for i in ids:
        if not isinstance(i, int) or not 0 <= i < SV_NUM_PHYS:
            raise StateFormatError(f"{what}: {i!r} is not a physical card id (0..147)")
        out[i >> 6] |= 1 << (i & 63)
    return out


cdef class State:
    """A 7 Wonders position (W-...).  Behaves like a value: ``clone``, ``==``, hashing, pickling.

    Seats ``0..seats-1``; in the Free City variant (players=2) seat 2 is the Free City, whose
    decisions are made by the controller of the turn (:meth:`decider`).  Turn actions are
    committed seat by seat (:meth:`apply_action`) and resolve together when the last seat has
    committed (W-TURN-3).  Unless the game was created with ``explicit_chance``, chance nodes are
    sampled at once from the state's seeded RNG.
    """
    cdef SevenState s

    def __cinit__(self):
        memset(&self.s, 0, sizeof(SevenState))

    # ------------------------------------------------------------ value semantics
    def clone(self):
        """An independent copy (a struct assignment)."""
        cdef State o = State.__new__(State)
        o.s = self.s
        return o

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def _bytes(self):
        return (<char*>&self.s)[:sizeof(SevenState)]

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self._bytes() == (<State>other)._bytes()

    def __hash__(self):
        return hash(self._bytes())

    def __reduce__(self):
        return (state_from_dict, (self.to_dict(),))

    # ------------------------------------------------------------ node
    @property
    def players(self):
        return self.s.n_players

    @property
    def seats(self):
        return self.s.n_seats

    @property
    def phase(self):
        """What the node waits for: one of PHASES."""
        return PHASES[self.s.phase]

    @property
    def age(self):
        return self.s.age

    @property
    def turn(self):
        return self.s.turn

    @property
    def moves(self):
        """Decisions applied so far (commitments, picks, 7th cards)."""
        return self.s.n_moves

    @property
    def explicit_chance(self):
        return bool(self.s.options & SO_EXPLICIT_CHANCE)

    def is_chance_node(self):
        return sv_is_chance(&self.s)

    def is_terminal(self):
        return self.s.phase == SP_OVER

    def is_simultaneous_node(self):
        return self.s.phase == SP_TURN

    def pending_seats(self):
        """Seats that still have to decide at this node (W-TURN-1), ascending."""
        cdef int seats[SV_MAX_SEATS]
        cdef int n = sv_pending(&self.s, seats)
        return [seats[i] for i in range(n)]

    def decider(self, int seat):
        """The player who decides for ``seat`` (the Free City: this turn's controller)."""
        self._check_seat(seat)
        return sv_decider(&self.s, seat)

    def controller(self):
        """The Free City controller of the current turn (W-FREE-7), or None."""
        c = controller(&self.s)
        return None if c == 255 else c

    def chance_outcomes(self):
        """``[(action, probability), ...]`` at a chance node (exact, W-CHANCE-1); [] elsewhere."""
        cdef int out[SV_MAX_LEGAL]
        cdef double prob[SV_MAX_LEGAL]
        cdef int n = sv_chance_outcomes(&self.s, out, prob)
        return [(out[i], prob[i]) for i in range(n)]

    def legal_actions(self, int seat):
        """Legal actions of ``seat`` at this node, ascending; [] if it has nothing to decide."""
        cdef int out[SV_MAX_LEGAL]
        if not 0 <= seat < self.s.n_seats:
            return []
        cdef int n = sv_legal_actions(&self.s, seat, out)
        return [out[i] for i in range(n)]

    def _check_seat(self, seat):
        if not isinstance(seat, int) or not 0 <= seat < self.s.n_seats:
            raise ValueError(f"seat must be an int in 0..{self.s.n_seats - 1}, not {seat!r}")

    def why_illegal(self, seat, a):
        """None if ``a`` is legal for ``seat`` here, else the reason (one line)."""
        cdef SevenCity* c
        if not isinstance(a, int):
            return f"an action is an int, not {type(a).__name__}"
        if not 0 <= a < SV_NUM_ACTIONS:
            return f"{a} is not an action id (0..{SV_NUM_ACTIONS - 1})"
        if self.s.phase == SP_OVER:
            return "the game is over"
        if sv_is_chance(&self.s):
            if seat not in (None, CHANCE):
                return f"this is a chance node ({self.phase}), not seat {seat}'s decision"
            if a not in [x for x, _ in self.chance_outcomes()]:
                return f"{action_to_string(a) if a < SV_NUM_ACTIONS else a} is not a chance outcome here"
            return None
        if seat is None or not isinstance(seat, int) or not 0 <= seat < self.s.n_seats:
            return f"seat must be an int in 0..{self.s.n_seats - 1}, not {seat!r}"
        if seat not in self.pending_seats():
            if self.s.phase == SP_TURN:
                return f"seat {seat} has already committed its action this turn"
            return f"seat {seat} has no decision at this node ({self.phase})"
        if a in self.legal_actions(seat):
            return None
        text = action_to_string(a)
        if self.s.phase == SP_HALI:
            if a < SV_HALI_BASE or a > SV_HALI_NONE:
                return f"{text}: Halikarnassus must take a card of the discard pile or none"
            return f"{text}: not in the discard pile, already in the city, or compulsory pick"
        if a >= SV_NUM_TURN_ACTIONS:
            return f"{text} is not a turn action"
        use, name, l, r = decode_turn_action(a)
        c = &self.s.c[seat]
        nm = act_name(a)
        hand = self.hand(seat) if self.s.phase == SP_TURN else [self.seventh_card()]
        if name not in hand:
            return f"{text}: {name} is not in the hand"
        if is_fc(&self.s, seat) and use == "discard":
            return f"{text}: the Free City may discard only a card it can neither build nor stage (W-FREE-5)"
        if use in ("build", "free") and has_name(c, nm):
            return f"{text}: the city already holds {name} (W-BUILD-3)"
        if use == "free" and not c.olympia_free:
            return f"{text}: no Olympia A free build is available (W-WON-7)"
        if use == "stage" and c.stages >= n_stages(c):
            return f"{text}: every stage of the board is built"
        if use == "discard" and (l or r):
            return f"{text}: a discard pays nobody"
        if use == "build" and chain_ok(c, nm):
            return f"{text}: a chain build is free (pay 0, 0) (W-BUILD-2)"
        opts = self.payment_options(seat, name if use == "build" else None)
        if not opts:
            return f"{text}: the cost cannot be met with own production and trade (W-TRADE)"
        coins_needed = NAMES[nm].coins if use == "build" else 0
        if (l, r) in opts:
            return (f"{text}: costs {coins_needed + l + r} coins, the city holds {c.coins} "
                    f"(W-TRADE-6)")
        return (f"{text}: ({l}, {r}) is not an offered payment; offered: "
                + ", ".join(f"({x}, {y})" for x, y in opts) + " (W-TRADE-6)")

    def apply_action(self, int a, seat=None):
        """Apply one action: a chance outcome (``seat`` None or -1), a turn commitment of
        ``seat``, a Halikarnassus pick or a 7th card.  Raises IllegalActionError naming the
        reason, leaving the state unchanged.  In the default (sampled chance) mode the chance
        nodes that follow are resolved at once."""
        why = self.why_illegal(seat, a)
        if why is not None:
            raise IllegalActionError(why)
        sv_apply(&self.s, -1 if seat is None else seat, a)
        if not (self.s.options & SO_EXPLICIT_CHANCE):
            sv_settle(&self.s, &self.s.rng)

    def apply_actions(self, actions):
        """A joint turn: ``actions[seat]`` for every seat (a list, or a dict for the pending
        seats).  All are checked first; on any illegal one nothing is applied."""
        if self.s.phase != SP_TURN:
            raise IllegalActionError(f"apply_actions needs a simultaneous turn node, not {self.phase}")
        pend = self.pending_seats()
        items = dict(actions) if isinstance(actions, dict) else dict(enumerate(actions))
        if sorted(items) != pend:
            raise IllegalActionError(f"apply_actions needs one action for each of seats {pend}, "
                                     f"got seats {sorted(items)}")
        cdef State trial = self.clone()
        for seat in pend:
            why = trial.why_illegal(seat, items[seat])
            if why is not None:
                raise IllegalActionError(f"seat {seat}: {why}")
            sv_apply(&(<State>trial).s, seat, items[seat])
        if not (trial.s.options & SO_EXPLICIT_CHANCE):
            sv_settle(&(<State>trial).s, &(<State>trial).s.rng)
        self.s = (<State>trial).s

    def action_to_string(self, int a):
        return action_to_string(a)

    # ------------------------------------------------------------ views
    def hand(self, int seat):
        """Names of the cards in the hand ``seat`` plays from (the controller's for the FC)."""
        self._check_seat(seat)
        h = holder(&self.s, seat) if self.s.phase in (SP_TURN, SP_DRAW) else seat
        if h >= self.s.n_players:
            return []
        return _names_of_phys(_b3_list(self.s.c[h].hand))

    def city(self, int seat):
        """Names of the cards built in a city, in name-id order."""
        self._check_seat(seat)
        return [_data.NAMES[nm] for nm in range(SV_NUM_NAMES) if has_name(&self.s.c[seat], nm)]

    def board(self, int seat):
        """``(board name, side "A"/"B", stages built)``; board None before it is dealt."""
        self._check_seat(seat)
        if self.s.phase == SP_BOARD and seat >= self.s.setup_pos:
            return (None, None, 0)
        c = &self.s.c[seat]
        return (_data.BOARD_NAMES[c.board], "AB"[c.side], c.stages)

    def coins(self, int seat):
        self._check_seat(seat)
        return self.s.c[seat].coins

    def shields(self, int seat):
        self._check_seat(seat)
        return self.s.c[seat].shields

    def military(self, int seat):
        """``(sum of military tokens in VP, defeat tokens)`` (W-MIL-2)."""
        self._check_seat(seat)
        return (self.s.c[seat].mil_vp, self.s.c[seat].defeats)

    def removed(self):
        """Names of the cards a study removed from this game (see new_state), in name order."""
        return [_data.NAMES[nm] for nm in range(SV_NUM_NAMES)
                if first_of_name(self.s.excluded, nm) >= 0]

    def added_cards(self):
        """Names of the spare copies dealt in place of the removed cards (public)."""
        return _names_of_phys(_b3_list(self.s.added))

    def discard_pile(self):
        """Names in the discard pile (face down: full information, not a player's view)."""
        return _names_of_phys(_b3_list(self.s.discard))

    def guilds(self):
        """Guilds drawn into Age III (hidden from the players, W-INFO-4)."""
        return [_data.GUILDS[g].name for g in range(SV_NUM_GUILDS) if (self.s.guilds >> g) & 1]

    def seventh_card(self):
        """Babylon B's kept 7th card during the SP_SEVENTH step, else None."""
        if self.s.seventh_card == SV_NO_CARD:
            return None
        return _data.NAMES[PH_NAME[self.s.seventh_card]]

    def city_info(self, int seat):
        """Derived fields of a city (W-PROD-1, W-TRADE-4, W-SCI, W-MIL): fixed units per
        resource, "one of two" cards per pair type, own-only choice sources, trade discounts,
        cards per colour, science symbols and wildcards, shields."""
        self._check_seat(seat)
        c = &self.s.c[seat]
        return {"fixed": [c.fixed[r] for r in range(7)], "pairs": [c.pairs[r] for r in range(6)],
                "any_raw": c.any_raw, "any_manuf": c.any_manuf,
                "trade": {"raw_right": bool(c.trade & (TR_RAW_RIGHT | TR_RAW_BOTH)),
                          "raw_left": bool(c.trade & (TR_RAW_LEFT | TR_RAW_BOTH)),
                          "manuf": bool(c.trade & TR_MANUF)},
                "colours": dict(zip(_data.COLOURS, [c.colour[k] for k in range(7)])),
                "science": dict(zip(_data.SYMBOLS, [c.sci[k] for k in range(3)])),
                "wild": c.wild, "shields": c.shields, "seventh": bool(c.seventh),
                "copy_guild": bool(c.copy_guild)}

    def olympia_free(self, int seat):
        self._check_seat(seat)
        return bool(self.s.c[seat].olympia_free)

    def payment_options(self, int seat, card=None, all_pairs=None):
        """Payment pairs (coins to the left, coins to the right) for building ``card`` (a name)
        or, with ``card`` None, the next stage, whatever the seat's coins (W-TRADE-6).
        ``all_pairs`` None: the seat's rule (all for the Free City, else non-dominated)."""
        cdef int outl[SV_MAX_PAIRS]
        cdef int outr[SV_MAX_PAIRS]
        cdef u8 cost[7]
        self._check_seat(seat)
        c = &self.s.c[seat]
        if card is None:
            if c.stages >= n_stages(c):
                return []
            for r in range(7):
                cost[r] = STAGES[c.board][c.side][c.stages].res[r]
        else:
            nm = _data.NAMES.index(card)
            for r in range(7):
                cost[r] = NAMES[nm].res[r]
        if all_pairs is None:
            all_pairs = is_fc(&self.s, seat) or bool(self.s.options & SO_ALL_PAIRS)
        n = sv_solve(&self.s, seat, cost, 1 if all_pairs else 0, outl, outr)
        return [(outl[i], outr[i]) for i in range(n)]

    def scores(self):
        """VP by category for every seat: a list of dicts with the keys VP_CATEGORIES
        (W-END-1).  Meaningful at the end; computed on the current cities at any time."""
        cdef int vp[SV_MAX_SEATS * SV_NUM_CAT]
        sv_scores(&self.s, vp)
        return [dict(zip(VP_CATEGORIES, [vp[i * 8 + k] for k in range(8)]))
                for i in range(self.s.n_seats)]

    def winners(self):
        """Winning players at the end (W-END-2, W-FREE-11); [] before the end."""
        if self.s.phase != SP_OVER:
            return []
        m = sv_winners(&self.s)
        return [i for i in range(self.s.n_players) if (m >> i) & 1]

    def returns(self):
        """Per player: 1/k for each of k tied winners, 0 for the others; all 0 before the end."""
        w = self.winners()
        return [(1.0 / len(w) if i in w else 0.0) for i in range(self.s.n_players)]

    def state_check(self):
        """0 if every invariant holds, else the failing code (see sv_state_check)."""
        return sv_state_check(&self.s)

    def position_check(self):
        """0 if the state passes the invariants and the position checks (a position the rules
        can reach, with something to choose or draw), else the failing code: the key of
        :data:`STATE_CHECKS`, which names its field and rule."""
        cdef int where
        return full_check(&self.s, &where)

    def check_message(self):
        """``None``, or ``"field: reason"`` of the first broken check (see
        :func:`check_message`)."""
        return check_message(self)

    def settle(self):
        """Sample pending chance nodes from the state's RNG (explicit-chance mode helper)."""
        sv_settle(&self.s, &self.s.rng)

    # ------------------------------------------------------------ information
    def seen_hands(self, int player):
        """What ``player`` remembers of each hand of this Age (W-INFO-2): a list per packet
        (the hand dealt to seat k) of names, [] if never held."""
        if not 0 <= player < self.s.n_players:
            raise ValueError(f"player must be in 0..{self.s.n_players - 1}")
        return [_names_of_phys(_b3_list(self.s.seen[player][k]))
                for k in range(self.s.n_players)]

    def observation(self, int player):
        """Everything ``player`` may see, and nothing else (W-INFO-1..5), as a dict: per seat
        the board, side, stages, coins, military, built cards and hand size; the phase, Age,
        turn and discard-pile size (not who has committed: the turn is simultaneous); its own hand (the hand it plays from), the
        hands it has held this Age, the face-down cards it knows (its stage cards and
        discards; the whole pile when its Halikarnassus power triggered) and its own
        commitments of this turn (the Free City's too when it controls it)."""
        cdef SevenState* s = &self.s
        if not 0 <= player < s.n_players:
            raise ValueError(f"player must be in 0..{s.n_players - 1}")
        seats = []
        for i in range(s.n_seats):
            board, side, stages = self.board(i)
            seats.append({"board": board, "side": side, "stages": stages,
                          "coins": s.c[i].coins, "military": self.military(i),
                          "city": self.city(i),
                          "hand_size": b3_count(s.c[i].hand) if i < s.n_players else 0})
        own = [i for i in range(s.n_seats)
               if sv_decider(s, i) == player and s.commit[i] >= 0 and s.phase == SP_TURN]
        known = _names_of_phys(_b3_list(s.c[player].facedown))
        return {"player": player, "phase": PHASES[s.phase], "age": s.age, "turn": s.turn,
                "discard_size": b3_count(s.discard),
                "removed": self.removed(), "added": self.added_cards(),
                "seats": seats, "hand": _names_of_phys(_b3_list(s.c[player].hand)),
                "seen_hands": self.seen_hands(player), "facedown_known": known,
                "committed": {i: s.commit[i] for i in own},
                "seventh_card": self.seventh_card() if s.seventh_seat != 255
                and sv_decider(s, s.seventh_seat) == player else None}

    # ------------------------------------------------------------ serialisation
    def to_dict(self):
        """A JSON-ready dict of the whole position (full information)."""
        s = &self.s
        cities = []
        for i in range(s.n_seats):
            c = &s.c[i]
            cities.append({
                "board": _data.BOARD_NAMES[c.board], "side": "AB"[c.side],
                "stages": c.stages, "coins": c.coins, "military_vp": c.mil_vp,
                "defeats": c.defeats, "olympia_free": bool(c.olympia_free),
                "city": [_data.NAMES[nm] for nm in range(SV_NUM_NAMES) if has_name(c, nm)],
                "hand": _b3_list(c.hand), "facedown": _b3_list(c.facedown),
            })
        return {
            "format": FORMAT_VERSION, "game": "seven", "players": s.n_players,
            "phase": PHASES[s.phase], "age": s.age, "turn": s.turn,
            "setup_pos": s.setup_pos, "deal_pos": s.deal_pos, "moves": s.n_moves,
            "rng": int(s.rng), "options": {"explicit_chance": bool(s.options & SO_EXPLICIT_CHANCE),
                                          "all_pairs": bool(s.options & SO_ALL_PAIRS)},
            "forced_board": [None if s.forced_board[i] == 255 else _data.BOARD_NAMES[s.forced_board[i]]
                             for i in range(s.n_seats)],
            "forced_side": [None if s.forced_side[i] == 255 else "AB"[s.forced_side[i]]
                            for i in range(s.n_seats)],
            "guilds": [_data.GUILDS[g].name for g in range(SV_NUM_GUILDS) if (s.guilds >> g) & 1],
            "deck": _b3_list(s.deck), "discard": _b3_list(s.discard),
            "tucked": _b3_list(s.tucked), "built": _b3_list(s.built),
            "commit": [int(s.commit[i]) for i in range(s.n_seats)],
            "commit_card": [None if s.commit_card[i] == SV_NO_CARD else s.commit_card[i]
                            for i in range(s.n_seats)],
            "hali_seat": None if s.hali_seat == 255 else s.hali_seat,
            "seventh_seat": None if s.seventh_seat == 255 else s.seventh_seat,
            "seventh_card": None if s.seventh_card == SV_NO_CARD else s.seventh_card,
            "seen": [[_b3_list(s.seen[p][k]) for k in range(s.n_players)]
                     for p in range(s.n_players)],
            "cities": cities,
            "removed": self.removed(), "added": _b3_list(s.added),
        }


KEYS = ("format", "game", "players", "phase", "age", "turn", "setup_pos", "deal_pos", "moves",
        "rng", "options", "forced_board", "forced_side", "guilds", "deck", "discard", "tucked",
        "built", "commit", "commit_card", "hali_seat", "seventh_seat", "seventh_card", "seen",
        "cities")
#: keys a position may leave out (positions written before study treatments existed)
OPTIONAL_KEYS = ("removed", "added")
CITY_KEYS = ("board", "side", "stages", "coins", "military_vp", "defeats", "olympia_free",
             "city", "hand", "facedown")
_OPTION_KEYS = ("explicit_chance", "all_pairs")

import reprlib as _reprlib

_short = _reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlevel = 2
_short.maxlist = 4
_short.maxdict = 4


def _show(v):
    """A short repr of a bad value for an error message (never huge, never recursive)."""
    try:
        return _short.repr(v)
    except Exception:                       # a value whose repr fails: its type is enough
        return f"<{type(v).__name__}>"


def _is_int(v):
    """A true integer: int but not bool (a float, even 7.0, NaN or inf, is not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v, field, lo, hi, rule):
    if not _is_int(v):
        raise StateFormatError(field, f"must be an integer from {lo} to {hi}, not {_show(v)} "
                                      f"({rule})")
    if not lo <= v <= hi:
        raise StateFormatError(field, f"must be from {lo} to {hi}, not {_show(v)} ({rule})")
    return v


def _list(v, field, rule, length=None):
    if not isinstance(v, list):
        raise StateFormatError(field, f"must be a list, not {type(v).__name__} ({rule})")
    if length is not None and len(v) != length:
        raise StateFormatError(field, f"must list {length} entries, one per "
                                      f"{'seat' if rule != 'W-INFO-2' else 'player'}, not "
                                      f"{len(v)} ({rule})")
    return v


def _choice(v, field, choices, what, rule, none_ok=False):
    if v is None and none_ok:
        return None
    if not isinstance(v, str) or v not in choices:
        if len(choices) <= 12:
            known = f"one of {', '.join(choices)}{' or null' if none_ok else ''}"
        else:
            import difflib
            close = difflib.get_close_matches(str(v), choices, n=1) if isinstance(v, str) else []
            known = f"a name of the card table{f' (did you mean {close[0]!r}?)' if close else ''}"
        raise StateFormatError(field, f"unknown {what} {_show(v)}: {known} ({rule})")
    return v


def _ids(v, field, rule):
    """A list of physical card ids (0..147), each once, as three words."""
    out = [0, 0, 0]
    for k, i in enumerate(_list(v, field, rule)):
        if not _is_int(i) or not 0 <= i < SV_NUM_PHYS:
            raise StateFormatError(f"{field}[{k}]", f"a card is a physical card id, an integer "
                                   f"from 0 to {SV_NUM_PHYS - 1}, not {_show(i)} (W-SETUP-2)")
        if (out[i >> 6] >> (i & 63)) & 1:
            raise StateFormatError(f"{field}[{k}]", f"card {i} ({_data.NAMES[PH_NAME[i]]}) is "
                                   f"listed twice: each card is in one place (W-SETUP-2)")
        out[i >> 6] |= 1 << (i & 63)
    return out


def _keys(d, allowed, field, optional=()):
    """No unknown key (with a close match as a hint), no missing one."""
    for k in d:
        if k not in allowed and k not in optional:
            import difflib
            close = difflib.get_close_matches(str(k), list(allowed) + list(optional), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            name = k if isinstance(k, str) else _show(k)
            raise StateFormatError(name if field == "position" else f"{field}.{name}",
                                   f"unknown key{hint}; keys: {', '.join(allowed)} "
                                   f"(the State.to_dict form, W-SETUP)")
    for k in allowed:
        if k not in d:
            raise StateFormatError(k if field == "position" else f"{field}.{k}",
                                   f"missing key: a position has the keys "
                                   f"{', '.join(allowed)} (the State.to_dict form, W-SETUP)")


def state_from_dict(d):
    """The State of a :meth:`State.to_dict` dict (a position written as data).

    A position that loads is playable; one that is not is refused with the field named.  Every
    field has a strict type (an integer is never a float, a bool or a string; a boolean is
    ``true``/``false``; a card of ``deck``, ``discard``, ``tucked``, ``built``, a hand,
    ``facedown`` or ``seen`` is a physical card id 0..147, listed once), and the position must
    be one the rules can reach, with something to choose or draw in its phase: the checks are
    :data:`STATE_CHECKS` (codes 1..9, the invariants of every state; 10.., the position checks
    of issue 30, each with its rule id): the deck, hands, discard pile, built and tucked cards
    partition the game's cards by Age; hand sizes match the turn; a pending Halikarnassus pick,
    7th card, guild draw, deal or board has its seat and its cards; the tucked cards match the
    stages built; military tokens match the Ages scored and the shields; a committed action is
    legal.  To write a position in the game's words, use :func:`duelpy.seven.scenario`.

    Raises
    ------
    StateFormatError
        With ``.field`` (e.g. ``"cities[2].hand"``) and a one-line message naming the rule
        (W-...), for a wrong type, an unknown name, a card in two places, or a position the
        rules cannot reach; never another exception type.
    """
    cdef State st = State.__new__(State)
    cdef SevenState* s = &st.s
    cdef int i, k, p, code, where
    cdef SevenCity* c
    cdef SevenCity tmp
    if not isinstance(d, dict):
        raise StateFormatError("position", f"a position is a dict (State.to_dict), not "
                                           f"{type(d).__name__} (W-SETUP)")
    _keys(d, KEYS, "position", OPTIONAL_KEYS)
    if d["game"] != "seven":
        raise StateFormatError("game", f"must be 'seven' (a 7 Wonders position), not "
                                       f"{_show(d['game'])} (W-SETUP-1)")
    _int(d["format"], "format", FORMAT_VERSION, FORMAT_VERSION, "W-SETUP")
    players = d["players"]
    if not _is_int(players) or not 2 <= players <= 7:
        raise StateFormatError("players", f"players must be 2..7 (2 is the Free City variant), "
                                          f"not {_show(players)} (W-SETUP-1, W-FREE-1)")
    opts = d["options"]
    if not isinstance(opts, dict):
        raise StateFormatError("options", f"must be a dict with the keys explicit_chance and "
                                          f"all_pairs, not {type(opts).__name__} (W-CHANCE-1, "
                                          f"W-TRADE-6)")
    _keys(opts, _OPTION_KEYS, "options")
    for key, rule in (("explicit_chance", "W-CHANCE-1"), ("all_pairs", "W-TRADE-6")):
        if not isinstance(opts[key], bool):
            raise StateFormatError(f"options.{key}", f"must be true or false, not "
                                                     f"{_show(opts[key])} ({rule})")
    sv_init(s, players, 0, (SO_EXPLICIT_CHANCE if opts["explicit_chance"] else 0)
            | (SO_ALL_PAIRS if opts["all_pairs"] else 0))
    seats = s.n_seats
    s.rng = _int(d["rng"], "rng", 0, 2 ** 64 - 1, "the chance seed, W-CHANCE-1")
    phase = _choice(d["phase"], "phase", PHASES, "phase", "W-AGE-1")
    s.phase = PHASES.index(phase)
    s.age = _int(d["age"], "age", 0, 3, "W-AGE-1")
    s.turn = _int(d["turn"], "turn", 0, 6, "W-TURN-5")
    s.setup_pos = _int(d["setup_pos"], "setup_pos", 0, 9, "W-SETUP-3, W-SETUP-4")
    s.deal_pos = _int(d["deal_pos"], "deal_pos", 0, 7 * players, "W-AGE-2")
    s.n_moves = _int(d["moves"], "moves", 0, 65535, "decisions applied, W-DEC-1")
    fb_list = _list(d["forced_board"], "forced_board", "W-SETUP-4", seats)
    fs_list = _list(d["forced_side"], "forced_side", "W-SETUP-4", seats)
    for i in range(seats):
        fb = _choice(fb_list[i], f"forced_board[{i}]", _data.BOARD_NAMES, "board", "W-SETUP-4",
                     none_ok=True)
        fs = _choice(fs_list[i], f"forced_side[{i}]", ("A", "B"), "side", "W-SETUP-4",
                     none_ok=True)
        s.forced_board[i] = 255 if fb is None else _data.BOARD_NAMES.index(fb)
        s.forced_side[i] = 255 if fs is None else "AB".index(fs)
    guild_names = [x.name for x in _data.GUILDS]
    g = 0
    for k, name in enumerate(_list(d["guilds"], "guilds", "W-SETUP-3")):
        _choice(name, f"guilds[{k}]", guild_names, "guild", "W-SETUP-3")
        if (g >> guild_names.index(name)) & 1:
            raise StateFormatError(f"guilds[{k}]", f"{name} is listed twice (W-SETUP-3)")
        g |= 1 << guild_names.index(name)
    s.guilds = g
    for key in ("deck", "discard", "tucked", "built"):
        b = _ids(d[key], key, "W-SETUP-2")
        for k in range(3):
            if key == "deck":
                s.deck[k] = b[k]
            elif key == "discard":
                s.discard[k] = b[k]
            elif key == "tucked":
                s.tucked[k] = b[k]
            else:
                s.built[k] = b[k]
    # the cities: a board each (in phase board, the seats from setup_pos on have none yet)
    owner = {}
    for i, cd in enumerate(_list(d["cities"], "cities", "W-SETUP-4", seats)):
        base = f"cities[{i}]"
        if not isinstance(cd, dict):
            raise StateFormatError(base, f"a city is a dict with the keys {', '.join(CITY_KEYS)}"
                                         f", not {type(cd).__name__} (W-SETUP-4)")
        _keys(cd, CITY_KEYS, base)
        c = &s.c[i]
        unassigned = s.phase == SP_BOARD and s.age == 0 and i >= s.setup_pos
        if unassigned:
            # no board yet (to_dict writes Rhodos A for it, the struct's zero)
            if cd["board"] not in (None, "Rhodos") or cd["side"] not in (None, "A"):
                raise StateFormatError(f"{base}.board", f"seat {i} has no board yet: in phase "
                                       f"'board' the boards are dealt seat by seat and setup_pos "
                                       f"is {s.setup_pos}; write null (W-SETUP-4)")
        else:
            board = _choice(cd["board"], f"{base}.board", _data.BOARD_NAMES, "board",
                            "W-SETUP-4")
            side = _choice(cd["side"], f"{base}.side", ("A", "B"), "side", "W-SETUP-4")
            if board in owner:
                raise StateFormatError(f"{base}.board", f"{board} is already seat "
                                       f"{owner[board]}'s: every city has its own board "
                                       f"(W-SETUP-4)")
            owner[board] = i
            c.board = _data.BOARD_NAMES.index(board)
            c.side = "AB".index(side)
            s.boards_used |= 1 << c.board
        c.stages = _int(cd["stages"], f"{base}.stages", 0, N_STAGES[c.board][c.side]
                        if not unassigned else 0, "W-WON-1")
        c.coins = _int(cd["coins"], f"{base}.coins", 0, 99999, "W-SETUP-5")
        c.mil_vp = _int(cd["military_vp"], f"{base}.military_vp", -6, 18, "W-MIL-2")
        c.defeats = _int(cd["defeats"], f"{base}.defeats", 0, 6, "W-MIL-1")
        if not isinstance(cd["olympia_free"], bool):
            raise StateFormatError(f"{base}.olympia_free", f"must be true or false, not "
                                   f"{_show(cd['olympia_free'])} (W-WON-7)")
        c.olympia_free = 1 if cd["olympia_free"] else 0
        for k, name in enumerate(_list(cd["city"], f"{base}.city", "W-BUILD-3")):
            _choice(name, f"{base}.city[{k}]", _data.NAMES, "card", "W-CARD")
            nm = _data.NAMES.index(name)
            if has_name(c, nm):
                raise StateFormatError(f"{base}.city[{k}]", f"{name} twice: a city never holds "
                                                            f"two cards of one name (W-BUILD-3)")
            c.city[nm >> 6] |= (<u64>1) << (nm & 63)
        b = _ids(cd["hand"], f"{base}.hand", "W-AGE-2")
        for k in range(3):
            c.hand[k] = b[k]
        b = _ids(cd["facedown"], f"{base}.facedown", "W-INFO-3")
        for k in range(3):
            c.facedown[k] = b[k]
        if not unassigned:
            tmp = c[0]
            recompute_city(&tmp, c)
    # the turn's commitments, the pending Halikarnassus pick and 7th card
    commits = _list(d["commit"], "commit", "W-TURN-1", seats)
    cards = _list(d["commit_card"], "commit_card", "W-TURN-1", seats)
    for i in range(seats):
        s.commit[i] = _int(commits[i], f"commit[{i}]", -1, SV_NUM_TURN_ACTIONS - 1,
                           "-1 or a turn action, W-TURN-1")
        s.commit_card[i] = SV_NO_CARD if cards[i] is None else _int(
            cards[i], f"commit_card[{i}]", 0, SV_NUM_PHYS - 1, "null or a card id, W-TURN-1")
    for key, rule in (("hali_seat", "W-WON-6"), ("seventh_seat", "W-WON-5")):
        v = d[key]
        v = 255 if v is None else _int(v, key, 0, seats - 1, f"null or a seat, {rule}")
        if key == "hali_seat":
            s.hali_seat = v
        else:
            s.seventh_seat = v
    s.seventh_card = SV_NO_CARD if d["seventh_card"] is None else _int(
        d["seventh_card"], "seventh_card", 0, SV_NUM_PHYS - 1, "null or a card id, W-WON-5")
    # what each player remembers of this Age's hands
    seen = _list(d["seen"], "seen", "W-INFO-2", players)
    for p in range(players):
        row = _list(seen[p], f"seen[{p}]", "W-INFO-2", players)
        for k in range(players):
            b = _ids(row[k], f"seen[{p}][{k}]", "W-INFO-2")
            for i in range(3):
                s.seen[p][k][i] = b[i]
    # a study's treatment
    removed = d.get("removed", [])
    if not isinstance(removed, list):
        raise StateFormatError("removed", f"must be a list of card names, not "
                                          f"{type(removed).__name__} (a study treatment, W-AGE-2)")
    try:
        b = _removal(players, removed)
    except ValueError as e:
        raise StateFormatError("removed", f"{e} (a study treatment; W-SETUP-2, W-SETUP-3)") from None
    for k in range(3):
        s.excluded[k] = b[k]
    b = _ids(d.get("added", []), "added", "W-AGE-2")
    for k in range(3):
        s.added[k] = b[k]
    # the invariants, then the position checks (checks.pxi, STATE_CHECKS)
    code = full_check(s, &where)
    if code:
        field, reason = check_error(s, code, where)
        raise StateFormatError(field, reason)
    return st


def check_message(State state):
    """``None`` if ``state`` passes the invariants (:meth:`State.state_check`) and the position
    checks (a position the rules can reach, with something to choose or draw), else
    ``"field: reason"`` of the first broken check (see :data:`STATE_CHECKS`)."""
    cdef int where
    cdef int code = full_check(&state.s, &where)
    if not code:
        return None
    field, reason = check_error(&state.s, code, where)
    return f"{field}: {reason}"


_RAW_FIELDS = ("phase", "age", "turn", "setup_pos", "deal_pos", "hali_seat", "seventh_seat",
               "seventh_card", "deck", "hands", "commit")


def _unchecked_copy(State state, **fields):
    """For the tests of defence in depth only: a copy of ``state`` with raw struct fields set
    as given, *without any check* (see ``_RAW_FIELDS``; ``deck`` a list of card ids, ``hands``
    one list per player, ``commit`` one action per seat).  Such a state may break every
    precondition; no public function makes one (``state_from_dict`` and unpickling check)."""
    cdef State st = state.clone()
    cdef SevenState* g = &st.s
    for name, v in fields.items():
        if name not in _RAW_FIELDS:
            raise ValueError(f"unknown raw field {name!r}; one of {', '.join(_RAW_FIELDS)}")
        if name == "phase": g.phase = v
        elif name == "age": g.age = v
        elif name == "turn": g.turn = v
        elif name == "setup_pos": g.setup_pos = v
        elif name == "deal_pos": g.deal_pos = v
        elif name == "hali_seat": g.hali_seat = v
        elif name == "seventh_seat": g.seventh_seat = v
        elif name == "seventh_card": g.seventh_card = v
        elif name == "deck":
            b = _ids(v, "deck", "")
            for k in range(3):
                g.deck[k] = b[k]
        elif name == "hands":
            for i, h in enumerate(v):
                b = _ids(h, "hand", "")
                for k in range(3):
                    g.c[i].hand[k] = b[k]
        else:
            for i, a in enumerate(v):
                g.commit[i] = a
    return st

# Pickles name the reader by its public path, as before the one-package-per-game layout (the
# package duelcore.seven re-exports it).
state_from_dict.__module__ = "duelcore.seven"


cdef u64 SPARE_MIX = 0x5BD1E9955BD1E995ULL    # salt of the spare copies' RNG


def _removal(int players, remove):
    """The physical copies of the cards in ``remove`` (names of Age cards or guilds), checked:
    each card must be in the ``players``-player game (W-SETUP-2), enough guilds must stay for
    the draw (W-SETUP-3).  Raises ValueError naming the card."""
    cdef int n = 3 if players == 2 else players, nm, pid
    if remove is None:
        return [0, 0, 0]
    if isinstance(remove, str):
        remove = [remove]
    out = [0, 0, 0]
    guilds_out = 0
    for name in remove:
        if not isinstance(name, str) or name not in _data.NAMES:
            close = [x for x in _data.NAMES if str(name).lower() in x.lower()][:4]
            hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
            raise ValueError(f"unknown card {name!r} to remove{hint}")
        nm = _data.NAMES.index(name)
        if nm >= SV_FIRST_GUILD:
            guilds_out += 1
        else:
            marks = [m for (k, _, m) in _data.PHYSICAL if k == nm]
            if min(marks) > n:
                raise ValueError(f"{name} is not in the {players}-player game (its copies are "
                                 f"marked {'+, '.join(map(str, marks))}+, W-SETUP-2)")
        for pid in range(SV_NUM_PHYS):
            if PH_NAME[pid] == nm:
                out[pid >> 6] |= (<u64>1) << (pid & 63)
    need = 5 if players == 2 else players + 2
    if SV_NUM_GUILDS - guilds_out < need:
        raise ValueError(f"{players} players draw {need} guilds (W-SETUP-3): at most "
                         f"{SV_NUM_GUILDS - need} of the 10 can be removed, not {guilds_out}")
    return out


def new_state(players, seed=0, boards=None, sides=None, explicit_chance=False,
              all_pairs=False, remove=None):
    """A new game (W-SETUP).  ``boards``: None (drawn) or one entry per seat, each None, a
    board name, or ``"Name A"`` / ``"Name B"``; ``sides``: None/"random", "A" or "B" for every
    seat not fixed by ``boards``.

    ``remove`` (a study treatment, not a rule): card names (Age cards or guilds) taken out of
    the game.  A removed guild is never drawn (W-SETUP-3 draws from the others).  Each copy of
    a removed Age card in the player count's deck is replaced by a spare copy of the same Age
    (a copy marked for more players, not of a removed card), drawn uniformly from the seed
    when the game is set up, so each Age still deals 7 cards to each player (W-AGE-2).  The
    resulting decks are public, like the decks of W-CHANCE-2: the replacement is set-up, not
    a chance node, even with ``explicit_chance``.  Raises ValueError naming a bad argument:
    an unknown card, a card not in this player count's game, too many guilds removed, or an
    Age without enough spare copies (at 7 players every copy of every Age is in play)."""
    cdef State st = State.__new__(State)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7 (2 is the Free City variant), not {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    seats = 3 if players == 2 else players
    sv_init(&st.s, players, seed & 0xFFFFFFFFFFFFFFFF,
            (SO_EXPLICIT_CHANCE if explicit_chance else 0) | (SO_ALL_PAIRS if all_pairs else 0))
    if sides not in (None, "random", "A", "B"):
        raise ValueError(f"sides must be 'random', 'A' or 'B', not {sides!r}")
    if sides in ("A", "B"):
        for i in range(seats):
            st.s.forced_side[i] = "AB".index(sides)
    if boards is not None:
        if isinstance(boards, str) or len(boards) != seats:
            raise ValueError(f"boards must list one entry per seat ({seats})")
        seen = set()
        for i, b in enumerate(boards):
            if b is None:
                continue
            name, _, side = str(b).partition(" ")
            if name not in _data.BOARD_NAMES:
                raise ValueError(f"unknown wonder board {name!r} (one of {', '.join(_data.BOARD_NAMES)})")
            if side not in ("", "A", "B"):
                raise ValueError(f"unknown side {side!r} of {name} (A or B)")
            if name in seen:
                raise ValueError(f"board {name} given twice")
            seen.add(name)
            st.s.forced_board[i] = _data.BOARD_NAMES.index(name)
            if side:
                st.s.forced_side[i] = "AB".index(side)
    ex = _removal(players, remove)
    for i in range(3):
        st.s.excluded[i] = ex[i]
    if ex != [0, 0, 0]:
        age = sv_deal_spares(&st.s, (<u64>(seed & 0xFFFFFFFFFFFFFFFF)) ^ SPARE_MIX)
        if age:
            gone = sorted({_data.NAMES[PH_NAME[p]] for p in range(SV_NUM_PHYS)
                           if (ex[p >> 6] >> (p & 63)) & 1 and PH_AGE[p] == age
                           and PH_NAME[p] < SV_FIRST_GUILD})
            raise ValueError(f"cannot remove {', '.join(gone)} at {players} players: Age "
                             f"{'I' * age} has too few spare copies (cards marked for more "
                             f"players) to deal in its place")
    if not explicit_chance:
        sv_settle(&st.s, &st.s.rng)
    return st
