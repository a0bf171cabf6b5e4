# cython: language_level=3
"""The 7 Wonders Duel rules engine (base game).

The state is one flat C struct (:c:type:`GameState`, see ``engine.pxd`` for every field, its unit
and range).  Everything hot is ``noexcept nogil`` and allocates nothing: legal-action generation,
resource-cost solving, applying an action, sampling chance.  :class:`State` is the Python face,
in OpenSpiel's vocabulary.

Rule ids (R-...) refer to ``RULES.md``; the numbers come from :mod:`duelcore.duel.data`.
"""
from libc.string cimport memset, memcpy, memcmp, memchr
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort

from duelcore.duel.types cimport *

from duelcore.duel import data as _data

from duelcore.common.debug cimport DUEL_DEBUG, fault

# ---------------------------------------------------------------- tables (filled at import)
cdef CardDef CARDS[NUM_CARDS]
cdef WonderDef WONDERS[NUM_WONDERS]
cdef u32 COVERED[3][NUM_SLOTS]      # slots covering each slot (R-LAYOUT-1)
cdef u32 COVERS[3][NUM_SLOTS]       # slots each slot covers
cdef u32 FACE_DOWN[3]
cdef u64 AGE_MASK[3][2]             # Age cards (guilds excluded) of each Age
cdef u64 GUILD_MASK[2]
cdef u64 COLOUR_MASK[NUM_COLOURS][2]
cdef u8 PICK_ORDER[8]               # draft picker relative to P1 (R-SETUP-5)
cdef enum:
    ALL_SLOTS = (1 << NUM_SLOTS) - 1
    OPT_FIRST_GAME = 4           # internal option flag: skip the draft (R-SETUP-7)

# ---------------------------------------------------------------- bitset helpers
cdef inline int bs_count(const u64* b) noexcept nogil:
    return popcount(b[0]) + popcount(b[1])

# ---------------------------------------------------------------- broken preconditions
# Defence in depth (issue 14).  legal_actions, the chance functions and the flow never assume a
# non-empty set or an index in range: each checks its precondition where it relies on it.  A
# position state_check accepts never breaks one.  If one is broken all the same, the debug build
# aborts with its code (PRECONDITION_MESSAGES); the release build reads and writes nothing
# outside the state, and a function that changes the state ends the game instead (a shared
# result, so that every loop over the game stops); a query returns no action.
cdef enum:
    PRE_FIELDS = 101        # a field that indexes a table is out of its range
    PRE_NO_LEGAL = 102      # a decision node with no legal action
    PRE_TOO_MANY = 103      # a turn with more legal actions than MAX_LEGAL
    PRE_NO_CHANCE = 104     # a chance node with nothing to draw
    PRE_EMPTY_QUEUE = 105   # a reveal with no slot waiting to be revealed
    PRE_NOT_IN_LAYOUT = 106 # a card taken that is not in the layout
    PRE_DRAFT = 107         # a draft pick count out of 0..8, or a forced pick from an empty offer
    PRE_AGE = 108           # an Age outside I..III where a layout table is read
    PRE_SETTLE = 109        # more chance events in a row than any game has
    PRE_ACTION = 110        # an action or chance outcome outside its range
    MAX_CHANCE_RUN = 64     # chance events in a row: at most 1 + 5 + 3 + 20 in any game

PRECONDITION_MESSAGES = {
    PRE_FIELDS: "a field that indexes a table (player, Age, phase, card, wonder, token) is "
                "out of its range",
    PRE_NO_LEGAL: "a decision node with no legal action",
    PRE_TOO_MANY: "a turn with more legal actions than MAX_LEGAL",
    PRE_NO_CHANCE: "a chance node with nothing to draw",
    PRE_EMPTY_QUEUE: "a reveal with no slot waiting to be revealed",
    PRE_NOT_IN_LAYOUT: "a card taken that is not in the layout",
    PRE_DRAFT: "a draft pick count outside 0..8, or a forced last pick from an empty offer",
    PRE_AGE: "an Age outside I..III where a layout table is read",
    PRE_SETTLE: "more chance events in a row than any game has",
    PRE_ACTION: "an action or chance outcome outside the range of its phase",
}

cdef int precondition_fault(int code) noexcept nogil:
    """The debug build aborts naming the broken precondition; release returns its code."""
    return fault(b"duelcore", code)

cdef void broken(GameState* s, int code) noexcept nogil:
    """A broken precondition met while changing the state: the debug build aborts; the release
    build ends the game (shared) so that no loop runs on from a state it cannot handle."""
    precondition_fault(code)
    s.phase = PH_OVER
    s.winner = WINNER_NONE
    s.victory = VICTORY_SHARED

_RAW_FIELDS = ("phase", "age", "to_move", "first_player", "draft_pick", "dealing", "pend",
               "replay", "destroy_colour", "reveal_queue", "taken", "face_down", "guild_slots",
               "draft_offer", "wonders_seen", "board_tokens", "aside_tokens", "library_offer",
               "age_seen")


def _unchecked_copy(State state, **fields):
    """For the tests of defence in depth only: a copy of ``state`` with raw struct fields set
    as given, *without any check* (see ``_RAW_FIELDS``).  Such a state may break every
    precondition; no public function makes one (``state_from_dict`` and unpickling check)."""
    cdef State st = State._wrap(&state.s)
    cdef GameState* g = &st.s
    for name, v in fields.items():
        if name not in _RAW_FIELDS:
            raise ValueError(f"unknown raw field {name!r}; one of {', '.join(_RAW_FIELDS)}")
        if name == "phase": g.phase = v
        elif name == "age": g.age = v
        elif name == "to_move": g.to_move = v
        elif name == "first_player": g.first_player = v
        elif name == "draft_pick": g.draft_pick = v
        elif name == "dealing": g.dealing = v
        elif name == "pend": g.pend = v
        elif name == "replay": g.replay = v
        elif name == "destroy_colour": g.destroy_colour = v
        elif name == "reveal_queue": g.reveal_queue = v
        elif name == "taken": g.taken = v
        elif name == "face_down": g.face_down = v
        elif name == "guild_slots": g.guild_slots = v
        elif name == "draft_offer": g.draft_offer = v
        elif name == "wonders_seen": g.wonders_seen = v
        elif name == "board_tokens": g.board_tokens = v
        elif name == "aside_tokens": g.aside_tokens = v
        elif name == "library_offer": g.library_offer = v
        else: g.age_seen = v
    return st


cdef enum:
    CARD_BITS_HI = NUM_CARDS - 64       # card ids 64..72 are the low bits of word [1]

cdef inline bint fields_ok(const GameState* s) noexcept nogil:
    """The fields that index the core's tables or make action ids are in range (a few
    compares: checked on entry of legal_actions and the chance functions)."""
    return ((s.to_move | s.destroy_colour) <= 1 and s.age <= 3 and s.phase <= PH_GUILDS
            and s.draft_pick <= 8 and s.forced[0] <= NUM_WONDERS and s.forced[1] <= NUM_WONDERS
            and ((s.avail[1] | s.discard[1] | s.seen[1] | s.p[0].city[1] | s.p[1].city[1])
                 >> CARD_BITS_HI) == 0
            and ((s.p[0].wonders | s.p[1].wonders | s.draft_offer | s.wonders_seen)
                 >> NUM_WONDERS) == 0
            and ((s.board_tokens | s.aside_tokens | s.library_offer | s.banned_tokens)
                 >> NUM_TOKENS) == 0
            and ((s.reveal_queue | s.guild_slots | s.taken | s.face_down) >> NUM_SLOTS) == 0)

# ---------------------------------------------------------------- RNG
# splitmix64 and rng_below are every game's (duelcore/common/rng.pxd, cimported by engine.pxd).

# ---------------------------------------------------------------- derived values
cdef inline void derive_card(PlayerState* me, int c, int sign) noexcept nogil:
    """Add (sign=+1) or remove (sign=-1) card c's contribution to the derived values."""
    cdef const CardDef* cd = &CARDS[c]
    cdef int r
    for r in range(NUM_RES):
        me.fixed[r] += sign * cd.prod[r]
    if cd.choice:
        me.n_choice[cd.choice - 1] += sign
    if sign > 0:
        me.trade_one |= cd.trade_one
    elif cd.trade_one:
        me.trade_one &= ~cd.trade_one
    me.colour[cd.colour] += sign
    if cd.symbol != 255:
        me.symbols[cd.symbol] += sign
        if sign > 0 and me.symbols[cd.symbol] == 1:
            me.n_symbols += 1
        elif sign < 0 and me.symbols[cd.symbol] == 0:
            me.n_symbols -= 1

cdef void recompute_player(const PlayerState* src, PlayerState* out) noexcept nogil:
    """Derived values of a player computed from scratch (city, built wonders, tokens)."""
    memset(out, 0, sizeof(PlayerState))
    out.city[0] = src.city[0]
    out.city[1] = src.city[1]
    out.coins = src.coins
    out.wonders = src.wonders
    out.built = src.built
    out.tokens = src.tokens
    cdef int c, w
    for c in range(NUM_CARDS):
        if bit_has(out.city, c):
            derive_card(out, c, 1)
    for w in range(NUM_WONDERS):
        if (out.built >> w) & 1:
            out.n_built += 1
            if WONDERS[w].choice:
                out.n_choice[WONDERS[w].choice - 1] += 1
    if (out.tokens >> TK_LAW) & 1:
        out.symbols[SYM_LAW] = 1
        out.n_symbols += 1

# ---------------------------------------------------------------- costs (R-TRADE, R-BUILD-2)
cdef inline void spend_on_dearest(int* need, const int* price, int lo, int hi,
                                  int units) noexcept nogil:
    """Cover ``units`` missing units of the resources lo..hi-1, each on the most expensive
    one still missing (the lowest index among equal prices)."""
    cdef int k, r, best
    for k in range(units):
        best = -1
        for r in range(lo, hi):
            if need[r] > 0 and (best < 0 or price[r] > price[best]):
                best = r
        if best < 0:
            break
        need[best] -= 1

cdef inline int res_need(const GameState* s, int p, const u8* res, int discount, int* need,
                         int* price) noexcept nogil:
    """Units of each resource player p must buy to pay `res` (into `need`) and the price of
    one unit of each (into `price`); returns the number of units missing before choice
    producers and discounts (0: nothing to buy, `need` all 0).  R-TRADE-1..4.

    Own fixed production first; each choice producer on the most expensive missing unit it can
    cover; then `discount` units (Architecture/Masonry) on the most expensive units still
    missing; the rest is bought at 2 + the opponent's brown/grey production, or 1 coin.
    """
    cdef const PlayerState* me = &s.p[p]
    cdef const PlayerState* op = &s.p[1 - p]
    cdef int r, k, missing = 0
    for r in range(NUM_RES):
        k = res[r] - me.fixed[r]
        need[r] = k if k > 0 else 0
        missing += need[r]
    if missing == 0:
        return 0
    for r in range(NUM_RES):
        price[r] = 1 if (me.trade_one >> r) & 1 else 2 + op.fixed[r]
    spend_on_dearest(need, price, 0, 3, me.n_choice[0])       # brown choice producers
    spend_on_dearest(need, price, 3, 5, me.n_choice[1])       # grey choice producers
    spend_on_dearest(need, price, 0, NUM_RES, discount)       # Architecture / Masonry
    return missing

cdef inline int res_cost(const GameState* s, int p, const u8* res, int discount) noexcept nogil:
    """Coins paid to trade for the resources `res` that player p lacks (R-TRADE-1..4)."""
    cdef int need[5]
    cdef int price[5]
    cdef int r, total = 0
    if res_need(s, p, res, discount, need, price) == 0:
        return 0
    for r in range(NUM_RES):
        total += need[r] * price[r]
    return total

cdef inline bint is_chain(const GameState* s, int p, int c) noexcept nogil:
    cdef int f = CARDS[c].chain_from
    return f != 255 and bit_has(s.p[p].city, f)

cdef inline int card_discount(const GameState* s, int p, int c) noexcept nogil:
    """Resource units waived for p building card c: Masonry, 2 of a blue card (R-SCI-4)."""
    return 2 if (CARDS[c].colour == BLUE and (s.p[p].tokens >> TK_MASONRY) & 1) else 0

cdef inline int wonder_discount(const GameState* s, int p) noexcept nogil:
    """Resource units waived for p building a wonder: Architecture, 2 (R-SCI-4)."""
    return 2 if (s.p[p].tokens >> TK_ARCHITECTURE) & 1 else 0

cdef int card_cost(const GameState* s, int p, int c, int* trade) noexcept nogil:
    """Total coins player p pays to build card c (printed coins + trade); `trade` gets the
    traded part.  0 for a chain build (R-BUILD-2)."""
    if is_chain(s, p, c):
        trade[0] = 0
        return 0
    cdef const CardDef* cd = &CARDS[c]
    trade[0] = res_cost(s, p, cd.res, card_discount(s, p, c)) if cd.n_res else 0
    return cd.coins + trade[0]

cdef int wonder_cost(const GameState* s, int p, int w, int* trade) noexcept nogil:
    """Coins player p pays to build wonder w (all traded)."""
    trade[0] = res_cost(s, p, WONDERS[w].res, wonder_discount(s, p))
    return trade[0]

cdef inline void pay(GameState* s, int p, int total, int trade) noexcept nogil:
    """Pay `total` coins; the traded part goes to an opponent who owns Economy (R-SCI-4)."""
    s.p[p].coins -= total
    if (s.p[1 - p].tokens >> TK_ECONOMY) & 1:
        s.p[1 - p].coins += trade

cdef inline int discard_coins(const GameState* s, int p) noexcept nogil:
    """Coins for discarding a card: 2 + 1 per yellow card in one's own city (R-DISCARD-1)."""
    return 2 + s.p[p].colour[YELLOW]

cdef inline void lose_coins(GameState* s, int p, int n) noexcept nogil:
    s.p[p].coins -= n if n < s.p[p].coins else s.p[p].coins

# ---------------------------------------------------------------- effects
cdef inline void win(GameState* s, int p, int how) noexcept nogil:
    s.winner = p
    s.victory = how
    s.phase = PH_OVER

cdef void move_pawn(GameState* s, int p, int n) noexcept nogil:
    """Player p's shields push the Conflict pawn n spaces toward the opponent (R-MIL)."""
    cdef int d = s.pawn if p == 0 else -s.pawn
    cdef int q = 1 - p
    d += n
    if d > 9:
        d = 9
    s.pawn = d if p == 0 else -d
    # The pawn moves one space at a time: a token in a zone it enters is looted even when the
    # same push then reaches the capital (R-MIL-2), and only then does the game end (R-MIL-3).
    if d >= 3 and (s.mil_tokens >> (2 * q)) & 1:          # R-MIL-2
        lose_coins(s, q, 2)
        s.mil_tokens &= ~(1 << (2 * q))
    if d >= 6 and (s.mil_tokens >> (2 * q + 1)) & 1:
        lose_coins(s, q, 5)
        s.mil_tokens &= ~(1 << (2 * q + 1))
    if d >= 9:
        win(s, p, VICTORY_MILITARY)      # R-MIL-3

cdef inline int guild_units(const GameState* s, int g) noexcept nogil:
    """What a guild counts in the city with the most of it (R-END-3)."""
    cdef int a, b
    if g == 1:
        a = s.p[0].colour[YELLOW]; b = s.p[1].colour[YELLOW]
    elif g == 2:
        a = s.p[0].colour[BROWN] + s.p[0].colour[GREY]
        b = s.p[1].colour[BROWN] + s.p[1].colour[GREY]
    elif g == 3:
        a = s.p[0].n_built; b = s.p[1].n_built
    elif g == 4:
        a = s.p[0].colour[BLUE]; b = s.p[1].colour[BLUE]
    elif g == 5:
        a = s.p[0].colour[GREEN]; b = s.p[1].colour[GREEN]
    elif g == 6:
        a = s.p[0].coins // 3; b = s.p[1].coins // 3
    else:
        a = s.p[0].colour[RED]; b = s.p[1].colour[RED]
    return a if a > b else b

cdef void gain_token(GameState* s, int p, int t) noexcept nogil:
    """Player p takes progress token t and applies its immediate effect (R-SCI-4)."""
    cdef PlayerState* me = &s.p[p]
    me.tokens |= 1 << t
    if t == TK_AGRICULTURE or t == TK_URBANISM:
        me.coins += 6
    elif t == TK_LAW:
        me.symbols[SYM_LAW] += 1
        me.n_symbols += 1
        if me.n_symbols >= 6:
            win(s, p, VICTORY_SCIENTIFIC)          # R-SCI-3

cdef inline int per_item_count(const PlayerState* me, int what) noexcept nogil:
    """Items of kind `what` (CardDef.per_what: 1 wonder, 2 brown, 3 grey, 4 yellow, 5 red)
    in a city, for the coins a yellow card gives per item (R-BUILD-3)."""
    if what == 1:
        return me.n_built
    if what == 2:
        return me.colour[BROWN]
    if what == 3:
        return me.colour[GREY]
    if what == 4:
        return me.colour[YELLOW]
    return me.colour[RED]

cdef int build_gains_now(const GameState* s, int p, int c, int* vp) noexcept nogil:
    """What building card c now would give player p beyond its printed VP and coins: returns
    the coins it takes per item (a yellow card counts itself when it counts yellow cards) or
    from its guild (R-BUILD-3), and puts into vp[0] the VP its guild would score if the game
    ended now (R-END-3).  0 and 0 for a card with neither."""
    cdef const CardDef* cd = &CARDS[c]
    cdef int n
    vp[0] = 0
    if cd.per_what:
        n = per_item_count(&s.p[p], cd.per_what)
        if cd.per_what == 4 and cd.colour == YELLOW:
            n += 1
        return cd.per_coins * n
    if cd.guild:
        n = guild_units(s, cd.guild)
        vp[0] = 2 * n if cd.guild == 3 else n
        return n if cd.guild != 3 and cd.guild != 6 else 0
    return 0

cdef void gain_card(GameState* s, int p, int c) noexcept nogil:
    """Card c enters player p's city and applies its effects at once (R-BUILD-3)."""
    cdef PlayerState* me = &s.p[p]
    cdef const CardDef* cd = &CARDS[c]
    cdef int coins = cd.coins_gain
    bit_add(me.city, c)
    derive_card(me, c, 1)
    if cd.per_what:
        coins += cd.per_coins * per_item_count(me, cd.per_what)
    if cd.guild and cd.guild != 3 and cd.guild != 6:
        coins += guild_units(s, cd.guild)
    me.coins += coins
    if cd.shields:
        move_pawn(s, p, cd.shields + ((me.tokens >> TK_STRATEGY) & 1))
        return
    if cd.symbol != 255:
        if me.symbols[cd.symbol] == 1 and me.n_symbols >= 6:
            win(s, p, VICTORY_SCIENTIFIC)          # R-SCI-3
        elif me.symbols[cd.symbol] == 2:
            s.pend |= PEND_TOKEN                   # R-SCI-2

cdef void lose_card(GameState* s, int p, int c) noexcept nogil:
    """Card c leaves player p's city for the discard pile (R-WONDER-4)."""
    bit_del(s.p[p].city, c)
    derive_card(&s.p[p], c, -1)
    bit_add(s.discard, c)

# ---------------------------------------------------------------- flow
cdef inline bint slot_free(const GameState* s, int slot) noexcept nogil:
    return (COVERED[s.age - 1][slot] & ~s.taken) == 0

cdef void start_age(GameState* s, int age, int dealing) noexcept nogil:
    """Lay out an Age (R-AGE-1): its face-up cards are dealt by chance, slot by slot."""
    if age < 1 or age > 3:
        broken(s, PRE_AGE)
        return
    s.age = age
    s.taken = 0
    s.face_down = FACE_DOWN[age - 1]
    memset(s.slot_card, NO_CARD, NUM_SLOTS)
    s.avail[0] = 0
    s.avail[1] = 0
    s.reveal_queue = ALL_SLOTS & ~s.face_down
    s.dealing = dealing
    s.age_seen = 0
    s.guild_slots = 0
    # Age III: the guild backs are placed first, by chance (R-CHANCE-2)
    s.phase = PH_GUILDS if age == 3 else PH_REVEAL

cdef void finish_game(GameState* s) noexcept nogil:
    """Civilian victory (R-END-2): most VP, then most blue VP, else shared."""
    cdef int vp[2 * NUM_VP]
    cdef int t0 = 0, t1 = 0, k
    compute_vp(s, vp)
    for k in range(NUM_VP):
        t0 += vp[k]
        t1 += vp[NUM_VP + k]
    if t0 == t1:
        t0 = vp[VP_BLUE]
        t1 = vp[NUM_VP + VP_BLUE]
    s.phase = PH_OVER
    if t0 > t1:
        s.winner = 0
        s.victory = VICTORY_CIVILIAN
    elif t1 > t0:
        s.winner = 1
        s.victory = VICTORY_CIVILIAN
    else:
        s.winner = WINNER_NONE
        s.victory = VICTORY_SHARED

cdef void end_age(GameState* s) noexcept nogil:
    """End of an Age (R-AGE-2, R-AGE-3, R-TURN-3): Play Again is lost; the weaker military, or
    the last player when the pawn is centred, chooses who begins the next Age."""
    s.replay = 0
    if s.age == 3:
        finish_game(s)
        return
    if s.pawn > 0:
        s.chooser = 1
    elif s.pawn < 0:
        s.chooser = 0
    else:
        s.chooser = s.last_taker
    start_age(s, s.age + 1,
              2 if (s.pawn == 0 and (s.options & OPT_CENTRED_BEGINS)) else 1)

cdef void next_turn(GameState* s) noexcept nogil:
    if s.taken == ALL_SLOTS:
        end_age(s)
        return
    if not s.replay:
        s.to_move ^= 1
    s.replay = 0
    s.phase = PH_PLAY

cdef void continue_turn(GameState* s) noexcept nogil:
    """Resolve the choices the action granted, then reveal, then the next turn (R-TURN-2)."""
    cdef int q = 1 - s.to_move
    if s.pend & (PEND_DESTROY_BROWN | PEND_DESTROY_GREY):
        s.destroy_colour = BROWN if s.pend & PEND_DESTROY_BROWN else GREY
        s.pend &= ~(PEND_DESTROY_BROWN | PEND_DESTROY_GREY)
        if s.p[q].colour[s.destroy_colour]:
            s.phase = PH_DESTROY
            return
    if s.pend & PEND_REVIVE:
        s.pend &= ~PEND_REVIVE
        if s.discard[0] | s.discard[1]:
            s.phase = PH_REVIVE
            return
    if s.pend & PEND_LIBRARY:
        s.pend &= ~PEND_LIBRARY
        if s.aside_tokens:
            s.phase = PH_LIBRARY_DRAW
            return
    if s.pend & PEND_TOKEN:
        s.pend &= ~PEND_TOKEN
        if s.board_tokens:
            s.phase = PH_TOKEN
            return
    if s.reveal_queue:
        s.dealing = 0
        s.phase = PH_REVEAL
        return
    next_turn(s)

cdef void take_card(GameState* s, int c) noexcept nogil:
    """Take card c from the layout; newly uncovered cards become available, or wait in the
    reveal queue if face down (R-TURN-2, E4)."""
    cdef const u8* at = <const u8*>memchr(s.slot_card, c, NUM_SLOTS)
    cdef int slot, u
    cdef u32 cov
    if at == NULL or c >= NUM_CARDS:
        broken(s, PRE_NOT_IN_LAYOUT)
        return
    if s.age < 1 or s.age > 3:
        broken(s, PRE_AGE)
        return
    slot = <int>(at - s.slot_card)
    s.taken |= 1 << slot
    s.slot_card[slot] = NO_CARD
    bit_del(s.avail, c)
    s.last_taker = s.to_move
    cov = COVERS[s.age - 1][slot]
    while cov:
        u = ctz(cov)
        cov &= cov - 1
        if slot_free(s, u):
            if (s.face_down >> u) & 1:
                s.reveal_queue |= 1 << u
            elif s.slot_card[u] < NUM_CARDS:
                bit_add(s.avail, s.slot_card[u])

cdef inline int picker(const GameState* s, int k) noexcept nogil:
    """Who makes pick k of the draft (R-SETUP-5); k is masked into 0..7 (callers check it)."""
    return (s.first_player ^ PICK_ORDER[k & 7]) & 1

cdef void draft_next(GameState* s) noexcept nogil:
    """After a pick: the forced last pick of a group, then the next reveal or Age I."""
    cdef int w
    if s.draft_pick > 8:
        broken(s, PRE_DRAFT)
        return
    if s.draft_pick == 3 or s.draft_pick == 7:
        if (s.draft_offer & ((1 << NUM_WONDERS) - 1)) == 0:
            broken(s, PRE_DRAFT)
            return
        w = ctz(s.draft_offer)
        s.p[picker(s, s.draft_pick)].wonders |= 1 << w
        s.draft_offer = 0
        s.draft_pick += 1
    if s.draft_pick == 4:
        s.phase = PH_DRAFT_REVEAL
    elif s.draft_pick == 8:
        s.chooser = s.first_player
        start_age(s, 1, 2)
    else:
        s.to_move = picker(s, s.draft_pick)
        s.phase = PH_DRAFT

cdef inline int forced_reveal(const GameState* s) noexcept nogil:
    """The wonder a draft reveal must show (wonder id + 1), or 0.  A wonder forced into a
    player's draft is the first one revealed in the group where that player picks first
    (P1: the first group, P2: the second), and that player's first pick takes it."""
    cdef int q = s.first_player if s.draft_pick < 4 else 1 - s.first_player
    if s.draft_offer == 0 and s.forced[q] and not ((s.wonders_seen >> (s.forced[q] - 1)) & 1):
        return s.forced[q]
    return 0

cdef inline u16 forced_mask(const GameState* s) noexcept nogil:
    """Forced wonders not yet revealed: kept out of the other reveals until their turn."""
    cdef u16 m = 0
    if s.forced[0]:
        m |= 1 << (s.forced[0] - 1)
    if s.forced[1]:
        m |= 1 << (s.forced[1] - 1)
    return m & ~s.wonders_seen

cdef void set_treatments(GameState* s, u16 banned_tokens, int forced0, int forced1) noexcept nogil:
    """Study treatments, set before any chance event: tokens banned from the board (set aside
    instead), and a wonder (id + 1, 0 for none) forced into each player's draft."""
    s.banned_tokens = banned_tokens
    s.forced[0] = forced0
    s.forced[1] = forced1

cdef void apply_chance(GameState* s, int a) noexcept nogil:
    """Apply chance outcome `a` (one of chance_outcomes()); an outcome outside the range of
    the phase, or a reveal with no slot waiting, is a broken precondition."""
    cdef int x, slot
    if s.phase == PH_SETUP_FIRST:
        x = a - CHANCE_FIRST_BASE
        if x < 0 or x > 1:
            broken(s, PRE_ACTION)
            return
        s.first_player = x
        s.phase = PH_SETUP_TOKENS
    elif s.phase == PH_SETUP_TOKENS:
        x = a - CHANCE_TOKEN_BASE
        if x < 0 or x >= NUM_TOKENS:
            broken(s, PRE_ACTION)
            return
        s.board_tokens |= 1 << x
        if popcount(s.board_tokens) >= 5:
            s.aside_tokens = ((1 << NUM_TOKENS) - 1) & ~s.board_tokens
            if s.options & OPT_FIRST_GAME:
                s.p[s.first_player & 1].wonders = (1 << 0) | (1 << 2) | (1 << 3) | (1 << 8)
                s.p[1 - (s.first_player & 1)].wonders = (1 << 11) | (1 << 6) | (1 << 10) | (1 << 1)
                s.wonders_seen = s.p[0].wonders | s.p[1].wonders
                s.draft_pick = 8
                s.chooser = s.first_player
                start_age(s, 1, 2)
            else:
                s.phase = PH_DRAFT_REVEAL
    elif s.phase == PH_DRAFT_REVEAL:
        x = a - CHANCE_WONDER_BASE
        if x < 0 or x >= NUM_WONDERS:
            broken(s, PRE_ACTION)
            return
        if s.draft_pick > 7:
            broken(s, PRE_DRAFT)
            return
        s.wonders_seen |= 1 << x
        s.draft_offer |= 1 << x
        if popcount(s.draft_offer) >= 4:
            s.to_move = picker(s, s.draft_pick)
            s.phase = PH_DRAFT
    elif s.phase == PH_GUILDS:
        x = a - CHANCE_SLOT_BASE
        if x < 0 or x >= NUM_SLOTS:
            broken(s, PRE_ACTION)
            return
        s.guild_slots |= 1 << x
        if popcount(s.guild_slots) >= 3:
            s.phase = PH_REVEAL
    elif s.phase == PH_REVEAL:
        x = a - CHANCE_CARD_BASE
        if x < 0 or x >= NUM_CARDS:
            broken(s, PRE_ACTION)
            return
        if (s.reveal_queue & ALL_SLOTS) == 0:
            broken(s, PRE_EMPTY_QUEUE)
            return
        if s.age < 1 or s.age > 3:
            broken(s, PRE_AGE)
            return
        slot = ctz(s.reveal_queue)
        s.reveal_queue &= s.reveal_queue - 1
        s.slot_card[slot] = x
        s.face_down &= ~(1 << slot)
        bit_add(s.seen, x)
        s.age_seen += 1
        if slot_free(s, slot):
            bit_add(s.avail, x)
        if s.reveal_queue == 0:
            x = s.dealing
            s.dealing = 0
            if x == 1:
                s.to_move = s.chooser & 1
                s.phase = PH_START
            elif x == 2:
                s.to_move = s.chooser & 1
                s.phase = PH_PLAY
            else:
                next_turn(s)
    elif s.phase == PH_LIBRARY_DRAW:
        x = a - CHANCE_TOKEN_BASE
        if x < 0 or x >= NUM_TOKENS:
            broken(s, PRE_ACTION)
            return
        s.library_offer |= 1 << x
        x = popcount(s.aside_tokens)
        if popcount(s.library_offer) >= (3 if x > 3 else x):
            s.phase = PH_LIBRARY

cdef void apply_action(GameState* s, int a) noexcept nogil:
    """Apply a legal action or chance outcome (unchecked: the caller guarantees legality)."""
    cdef int p = s.to_move, q = 1 - p, c, w, total, trade
    cdef PlayerState* me = &s.p[p & 1]
    cdef const WonderDef* wd
    if a < 0 or a >= NUM_ACTIONS or p > 1:
        broken(s, PRE_ACTION if p <= 1 else PRE_FIELDS)
        return
    if a >= NUM_DECISION_ACTIONS:
        s.n_chance += 1
        apply_chance(s, a)
    else:
        s.n_decisions += 1
        if a < BUILD_BASE:                                   # draft pick
            if s.draft_pick > 7:
                broken(s, PRE_DRAFT)
                return
            me.wonders |= 1 << a
            s.draft_offer &= ~(1 << a)
            s.draft_pick += 1
            draft_next(s)
        elif a < DISCARD_BASE:                               # build (R-BUILD)
            c = a - BUILD_BASE
            take_card(s, c)
            if is_chain(s, p, c):
                if (me.tokens >> TK_URBANISM) & 1:
                    me.coins += 4
            else:
                total = card_cost(s, p, c, &trade)
                pay(s, p, total, trade)
            gain_card(s, p, c)
            if s.phase != PH_OVER:
                continue_turn(s)
        elif a < WONDER_BASE:                                # discard (R-DISCARD)
            c = a - DISCARD_BASE
            take_card(s, c)
            bit_add(s.discard, c)
            me.coins += discard_coins(s, p)
            continue_turn(s)
        elif a < TOKEN_BASE:                                 # wonder (R-WONDER)
            w = (a - WONDER_BASE) // NUM_CARDS
            c = (a - WONDER_BASE) % NUM_CARDS
            wd = &WONDERS[w]
            take_card(s, c)
            total = wonder_cost(s, p, w, &trade)
            pay(s, p, total, trade)
            bit_add(s.tucked, c)
            s.under[w] = c
            s.replay = wd.play_again | ((me.tokens >> TK_THEOLOGY) & 1)
            me.built |= 1 << w
            me.n_built += 1
            s.n_built_wonders += 1
            if s.n_built_wonders == 7:                       # R-WONDER-3
                s.p[0].wonders &= s.p[0].built
                s.p[1].wonders &= s.p[1].built
            me.coins += wd.coins_gain
            if wd.opp_loss:
                lose_coins(s, q, wd.opp_loss)
            if wd.choice:
                me.n_choice[wd.choice - 1] += 1
            if wd.shields:
                move_pawn(s, p, wd.shields)
                if s.phase == PH_OVER:
                    return
            s.pend |= wd.pend
            continue_turn(s)
        elif a < DESTROY_BASE:                               # progress token
            c = a - TOKEN_BASE
            if s.phase == PH_LIBRARY:                        # R-WONDER-6
                s.aside_tokens &= ~s.library_offer
                s.library_offer = 0
            else:                                            # R-SCI-2
                s.board_tokens &= ~(1 << c)
            gain_token(s, p, c)
            if s.phase != PH_OVER:
                continue_turn(s)
        elif a < REVIVE_BASE:                                # destroy (R-WONDER-4)
            lose_card(s, q, a - DESTROY_BASE)
            continue_turn(s)
        elif a < START_BASE:                                 # revive (R-WONDER-5)
            c = a - REVIVE_BASE
            bit_del(s.discard, c)
            gain_card(s, p, c)
            if s.phase != PH_OVER:
                continue_turn(s)
        else:                                                # who begins (R-AGE-3)
            s.to_move = a - START_BASE
            s.phase = PH_PLAY
    if DUEL_DEBUG:
        c = state_check(s)
        if c:
            fprintf(stderr, b"duelcore: state_check failed with code %d after action %d\n", c, a)
            abort()

# ---------------------------------------------------------------- queries
cdef bint is_chance(const GameState* s) noexcept nogil:
    return (s.phase == PH_SETUP_FIRST or s.phase == PH_SETUP_TOKENS or s.phase == PH_DRAFT_REVEAL
            or s.phase == PH_REVEAL or s.phase == PH_LIBRARY_DRAW or s.phase == PH_GUILDS)

cdef inline int push_bits(int* out, int n, u64 bits, int base) noexcept nogil:
    while bits:
        out[n] = base + ctz(bits)
        n += 1
        bits &= bits - 1
    return n

cdef inline int legal_impl(const GameState* s, int* out) noexcept nogil:
    """legal_actions() without the fault report: the count, or -PRE_* for a broken
    precondition (fields out of range, or more actions than `out` holds)."""
    cdef int n = 0, p = s.to_move, c, w, k, trade, n_av
    cdef const PlayerState* me = &s.p[p & 1]
    cdef u64 bits
    cdef u16 ws
    cdef int coins = me.coins
    cdef u64 colour_bits
    if not fields_ok(s):
        return -PRE_FIELDS
    if s.phase == PH_PLAY:
        # at most 20 available cards x (build, discard, 4 wonders) in a sound state
        n_av = bs_count(s.avail)
        ws = (me.wonders & ~me.built) if s.n_built_wonders < 7 else 0
        if n_av * (2 + popcount(ws)) > MAX_LEGAL:
            return -PRE_TOO_MANY
        for k in range(2):
            bits = s.avail[k]
            while bits:
                c = 64 * k + ctz(bits)
                bits &= bits - 1
                if card_cost(s, p, c, &trade) <= coins:
                    out[n] = BUILD_BASE + c
                    n += 1
        n = push_bits(out, n, s.avail[0], DISCARD_BASE)
        n = push_bits(out, n, s.avail[1], DISCARD_BASE + 64)
        while ws:
            w = ctz(ws)
            ws &= ws - 1
            if wonder_cost(s, p, w, &trade) <= coins:
                n = push_bits(out, n, s.avail[0], WONDER_BASE + w * NUM_CARDS)
                n = push_bits(out, n, s.avail[1], WONDER_BASE + w * NUM_CARDS + 64)
    elif s.phase == PH_DRAFT:
        if s.forced[p] and (s.draft_offer >> (s.forced[p] - 1)) & 1:
            out[0] = DRAFT_BASE + s.forced[p] - 1
            n = 1
        else:
            n = push_bits(out, n, s.draft_offer, DRAFT_BASE)
    elif s.phase == PH_TOKEN:
        n = push_bits(out, n, s.board_tokens, TOKEN_BASE)
    elif s.phase == PH_LIBRARY:
        n = push_bits(out, n, s.library_offer, TOKEN_BASE)
    elif s.phase == PH_DESTROY:
        for k in range(2):
            colour_bits = s.p[1 - p].city[k] & COLOUR_MASK[s.destroy_colour][k]
            n = push_bits(out, n, colour_bits, DESTROY_BASE + 64 * k)
    elif s.phase == PH_REVIVE:
        n = push_bits(out, n, s.discard[0], REVIVE_BASE)
        n = push_bits(out, n, s.discard[1], REVIVE_BASE + 64)
    elif s.phase == PH_START:
        out[0] = START_BASE
        out[1] = START_BASE + 1
        n = 2
    return n

cdef int legal_actions(const GameState* s, int* out) noexcept nogil:
    """Fill `out` with the legal decisions, ascending, no duplicates; return the count (0 at
    chance nodes and at the end of the game) (R-TURN-1, R-TRADE-5, R-DEC-1).  A decision node
    with none, or a state out of range, is a broken precondition (0 in release)."""
    cdef int n = legal_impl(s, out)
    if n < 0:
        precondition_fault(-n)
        return 0
    if n == 0 and s.phase != PH_OVER and not is_chance(s):
        precondition_fault(PRE_NO_LEGAL)
    return n

cdef inline int reveal_pool(const GameState* s, u64* pool) noexcept nogil:
    """The unseen cards the next revealed slot is drawn from, and their count (R-CHANCE-1/2):
    a slot with a guild back reveals an unseen guild, any other slot an unseen card of the Age
    (removed cards are simply never drawn).  0 if nothing waits or the Age is out of range."""
    cdef int slot
    pool[0] = 0
    pool[1] = 0
    if (s.reveal_queue & ALL_SLOTS) == 0 or s.age < 1 or s.age > 3:
        return 0
    slot = ctz(s.reveal_queue)
    if (s.guild_slots >> slot) & 1:
        pool[0] = GUILD_MASK[0] & ~s.seen[0]
        pool[1] = GUILD_MASK[1] & ~s.seen[1]
    else:
        pool[0] = AGE_MASK[s.age - 1][0] & ~s.seen[0]
        pool[1] = AGE_MASK[s.age - 1][1] & ~s.seen[1]
    return bs_count(pool)

cdef inline int chance_pool(const GameState* s, u64* pool, int* base) noexcept nogil:
    """The outcomes of a chance node as a bitset `pool` over ids added to `base`, and their
    count; a forced draft reveal gives that wonder alone (probability 1).  0 when there is
    nothing to draw (or at a decision node); -PRE_FIELDS for a state out of range."""
    cdef int k
    pool[0] = 0
    pool[1] = 0
    base[0] = 0
    if not fields_ok(s):
        return -PRE_FIELDS
    if s.phase == PH_SETUP_FIRST:
        pool[0] = 3
        base[0] = CHANCE_FIRST_BASE
    elif s.phase == PH_SETUP_TOKENS:
        pool[0] = ((1 << NUM_TOKENS) - 1) & ~(s.board_tokens | s.banned_tokens)
        base[0] = CHANCE_TOKEN_BASE
    elif s.phase == PH_DRAFT_REVEAL:
        base[0] = CHANCE_WONDER_BASE
        k = forced_reveal(s)
        if k:
            pool[0] = (<u64>1) << (k - 1)
        else:
            pool[0] = ((1 << NUM_WONDERS) - 1) & ~(s.wonders_seen | forced_mask(s))
    elif s.phase == PH_LIBRARY_DRAW:
        pool[0] = s.aside_tokens & ~s.library_offer
        base[0] = CHANCE_TOKEN_BASE
    elif s.phase == PH_GUILDS:
        pool[0] = ALL_SLOTS & ~s.guild_slots
        base[0] = CHANCE_SLOT_BASE
    elif s.phase == PH_REVEAL:
        reveal_pool(s, pool)
        base[0] = CHANCE_CARD_BASE
    return bs_count(pool)

cdef int chance_outcomes(const GameState* s, int* out, double* prob) noexcept nogil:
    """Fill the chance outcomes (ascending) and their probabilities (uniform); return the
    count.  0 at a decision node; a chance node with nothing to draw is a broken precondition
    (0 in release)."""
    cdef u64 pool[2]
    cdef int base, n, i
    n = chance_pool(s, pool, &base)
    if n < 0:
        precondition_fault(-n)
        return 0
    if n == 0:
        if is_chance(s):
            precondition_fault(PRE_NO_CHANCE)
        return 0
    n = push_bits(out, 0, pool[0], base)
    n = push_bits(out, n, pool[1], base + 64)
    for i in range(n):
        prob[i] = 1.0 / n
    return n

cdef int sample_chance(const GameState* s, u64* rng) noexcept nogil:
    """Draw a chance outcome with the exact probabilities of chance_outcomes() (uniform over
    them); -1 if there is nothing to draw (a broken precondition: never in a sound state)."""
    cdef u64 pool[2]
    cdef int base, n
    n = chance_pool(s, pool, &base)
    if n <= 0:
        precondition_fault(-n if n < 0 else PRE_NO_CHANCE)
        return -1
    if s.phase == PH_DRAFT_REVEAL and forced_reveal(s):
        return base + ctz(pool[0])      # a forced wonder: no draw (the RNG is not advanced)
    return base + bs_select(pool, rng_below(rng, n))

cdef void settle(GameState* s, u64* rng) noexcept nogil:
    """Sample chance nodes with `rng` until a decision or the end of the game (at most
    MAX_CHANCE_RUN chance events: more is a broken precondition)."""
    cdef int a, k = 0
    while is_chance(s):
        k += 1
        a = sample_chance(s, rng)
        if a < 0:                    # nothing to draw: a broken position; never loop or write
            broken(s, PRE_NO_CHANCE)
            return
        if k > MAX_CHANCE_RUN:
            broken(s, PRE_SETTLE)
            return
        apply_action(s, a)

cdef void init_state(GameState* s, u64 seed, int options, int first_player,
                     int first_game, int coins0, int coins1) noexcept nogil:
    """A new game before any chance event (R-SETUP).  first_player < 0: drawn by chance."""
    memset(s, 0, sizeof(GameState))
    s.rng = seed
    rng_next(&s.rng)
    s.options = options | (OPT_FIRST_GAME if first_game else 0)
    memset(s.slot_card, NO_CARD, NUM_SLOTS)
    memset(s.under, NO_CARD, NUM_WONDERS)
    s.p[0].coins = coins0
    s.p[1].coins = coins1
    s.mil_tokens = 0xF
    s.winner = WINNER_NONE
    if first_player >= 0:
        s.first_player = first_player
        s.phase = PH_SETUP_TOKENS
    else:
        s.phase = PH_SETUP_FIRST

cdef void compute_vp(const GameState* s, int* vp) noexcept nogil:
    """VP by category (VP_*) for both players: vp[p * NUM_VP + k] (R-END-2, R-MIL-4)."""
    cdef int p, c, k, d, w
    cdef const PlayerState* me
    cdef const CardDef* cd
    cdef u64 bits
    for p in range(2):
        me = &s.p[p]
        for k in range(NUM_VP):
            vp[p * NUM_VP + k] = 0
        for k in range(2):
            bits = me.city[k]
            while bits:
                c = 64 * k + ctz(bits)
                bits &= bits - 1
                cd = &CARDS[c]
                if cd.colour == BLUE:
                    vp[p * NUM_VP + VP_BLUE] += cd.vp
                elif cd.colour == GREEN:
                    vp[p * NUM_VP + VP_GREEN] += cd.vp
                elif cd.colour == YELLOW:
                    vp[p * NUM_VP + VP_YELLOW] += cd.vp
                elif cd.colour == PURPLE:
                    d = guild_units(s, cd.guild)
                    vp[p * NUM_VP + VP_PURPLE] += 2 * d if cd.guild == 3 else d
        for w in range(NUM_WONDERS):
            if (me.built >> w) & 1:
                vp[p * NUM_VP + VP_WONDERS] += WONDERS[w].vp
        d = 0
        if (me.tokens >> TK_AGRICULTURE) & 1:
            d += 4
        if (me.tokens >> TK_PHILOSOPHY) & 1:
            d += 7
        if (me.tokens >> TK_MATHEMATICS) & 1:
            d += 3 * popcount(me.tokens)
        vp[p * NUM_VP + VP_TOKENS] = d
        vp[p * NUM_VP + VP_COINS] = me.coins // 3
        d = s.pawn if p == 0 else -s.pawn
        vp[p * NUM_VP + VP_MILITARY] = 10 if d >= 6 else (5 if d >= 3 else (2 if d >= 1 else 0))

# ---------------------------------------------------------------- checks (issue 14)
# state_check, the position checks and their messages
include "checks.pxi"

# ---------------------------------------------------------------- observation
cdef enum:
    OBS_SIZE = 4 + 14 + 1 + 1 + 80 + 73 * 6 + 2 + 1 + 4 + 60 + 40 + 14

cdef void observe(const GameState* s, int p, float* out) noexcept nogil:
    """What player p can see, as OBS_SIZE floats (layout in duelpy.spiel): public
    information only; the Great Library draw only for its builder while choosing."""
    cdef int c, k, w, t, q = 1 - p, off = 0, slot
    cdef float* cards
    memset(out, 0, OBS_SIZE * sizeof(float))
    out[s.age] = 1
    off = 4
    out[off + s.phase] = 1
    off += 14
    out[off] = 1 if (s.phase != PH_OVER and not is_chance(s) and s.to_move == p) else 0
    out[off + 1] = s.replay
    off += 2
    if s.age:
        for slot in range(NUM_SLOTS):
            if (s.taken >> slot) & 1:
                out[off + 4 * slot] = 1
            elif s.slot_card[slot] == NO_CARD:     # face down: an Age back or a guild back
                out[off + 4 * slot + 1 + ((s.guild_slots >> slot) & 1)] = 1
            else:
                out[off + 4 * slot + 3] = 1
    off += 80
    cards = out + off
    if s.age:
        for slot in range(NUM_SLOTS):
            c = s.slot_card[slot]
            if not (s.taken >> slot) & 1 and c != NO_CARD:
                cards[6 * c + (0 if bit_has(s.avail, c) else 1)] = 1
    for c in range(NUM_CARDS):
        if bit_has(s.p[p].city, c):
            cards[6 * c + 2] = 1
        if bit_has(s.p[q].city, c):
            cards[6 * c + 3] = 1
        if bit_has(s.discard, c):
            cards[6 * c + 4] = 1
        if bit_has(s.tucked, c):
            cards[6 * c + 5] = 1
    off += 73 * 6
    out[off] = s.p[p].coins / 10.0
    out[off + 1] = s.p[q].coins / 10.0
    out[off + 2] = (s.pawn if p == 0 else -s.pawn) / 9.0
    off += 3
    out[off] = (s.mil_tokens >> (2 * q)) & 1
    out[off + 1] = (s.mil_tokens >> (2 * q + 1)) & 1
    out[off + 2] = (s.mil_tokens >> (2 * p)) & 1
    out[off + 3] = (s.mil_tokens >> (2 * p + 1)) & 1
    off += 4
    for w in range(NUM_WONDERS):
        if (s.p[p].wonders >> w) & 1:
            out[off + 5 * w + ((s.p[p].built >> w) & 1)] = 1
        if (s.p[q].wonders >> w) & 1:
            out[off + 5 * w + 2 + ((s.p[q].built >> w) & 1)] = 1
        if (s.draft_offer >> w) & 1:
            out[off + 5 * w + 4] = 1
    off += 60
    for t in range(NUM_TOKENS):
        out[off + 4 * t] = (s.board_tokens >> t) & 1
        out[off + 4 * t + 1] = (s.p[p].tokens >> t) & 1
        out[off + 4 * t + 2] = (s.p[q].tokens >> t) & 1
        if s.phase == PH_LIBRARY and s.to_move == p:
            out[off + 4 * t + 3] = (s.library_offer >> t) & 1
    off += 40
    for k in range(NUM_SYMBOLS):
        out[off + k] = s.p[p].symbols[k] / 2.0
        out[off + 7 + k] = s.p[q].symbols[k] / 2.0

# ---------------------------------------------------------------- tables from duelcore.duel.data
_WHAT = {"": 0, "wonder": 1, "brown": 2, "grey": 3, "yellow": 4, "red": 5}
_GUILD = {"": 0, "yellow": 1, "brown_grey": 2, "wonder": 3, "blue": 4, "green": 5, "coins": 6,
          "red": 7}
_PEND = {"": 0, "destroy_brown": PEND_DESTROY_BROWN, "destroy_grey": PEND_DESTROY_GREY,
         "revive": PEND_REVIVE, "library": PEND_LIBRARY}


def _choice_kind(names):
    if not names:
        return 0
    return 1 if set(names) == {"wood", "clay", "stone"} else 2


def _build_tables():
    cdef int i, r, slot, age
    gives = {c.chain_gives: i for i, c in enumerate(_data.CARDS) if c.chain_gives}
    memset(COLOUR_MASK, 0, sizeof(COLOUR_MASK))
    memset(AGE_MASK, 0, sizeof(AGE_MASK))
    memset(GUILD_MASK, 0, sizeof(GUILD_MASK))
    for i, card in enumerate(_data.CARDS):
        coins, res = _data.parse_cost(card.cost)
        CARDS[i].age = card.age
        CARDS[i].colour = _data.COLOURS.index(card.colour)
        CARDS[i].coins = coins
        prod = _data.parse_cost(card.produces)[1]
        for r in range(NUM_RES):
            CARDS[i].res[r] = res[r]
            CARDS[i].prod[r] = prod[r]
        CARDS[i].n_res = sum(res)
        CARDS[i].vp = card.vp
        CARDS[i].choice = _choice_kind(card.choice)
        CARDS[i].trade_one = sum(1 << _data.RESOURCES.index(x) for x in card.trade_one)
        CARDS[i].shields = card.shields
        CARDS[i].symbol = _data.SYMBOLS.index(card.symbol) if card.symbol else 255
        CARDS[i].coins_gain = card.coins
        CARDS[i].per_what = _WHAT[card.coins_per[0]] if card.coins_per else 0
        CARDS[i].per_coins = card.coins_per[1] if card.coins_per else 0
        CARDS[i].guild = _GUILD[card.guild]
        CARDS[i].chain_from = gives[card.chain_from] if card.chain_from else 255
        bit_add(COLOUR_MASK[CARDS[i].colour], i)
        if card.colour == "purple":
            bit_add(GUILD_MASK, i)
        else:
            bit_add(AGE_MASK[card.age - 1], i)
    for i, wonder in enumerate(_data.WONDERS):
        res = _data.parse_cost(wonder.cost)[1]
        for r in range(NUM_RES):
            WONDERS[i].res[r] = res[r]
        WONDERS[i].n_res = sum(res)
        WONDERS[i].vp = wonder.vp
        WONDERS[i].coins_gain = wonder.coins
        WONDERS[i].opp_loss = wonder.opponent_loses
        WONDERS[i].shields = wonder.shields
        WONDERS[i].choice = _choice_kind(wonder.choice)
        WONDERS[i].play_again = wonder.play_again
        WONDERS[i].pend = _PEND[wonder.action]
    for age, layout in enumerate(_data.LAYOUTS):
        FACE_DOWN[age] = sum(1 << x for x in layout.face_down)
        for slot in range(NUM_SLOTS):
            COVERED[age][slot] = sum(1 << x for x in layout.covered_by[slot])
            COVERS[age][slot] = sum(1 << u for u in range(NUM_SLOTS)
                                    if slot in layout.covered_by[u])
    for i, x in enumerate((0, 1, 1, 0, 1, 0, 0, 1)):
        PICK_ORDER[i] = x
    # the first-game sets are hard-wired in apply_chance: check them against the data
    first = [sum(1 << _data.WONDER_NAMES.index(n) for n in side)
             for side in _data.FIRST_GAME_WONDERS]
    assert first == [(1 << 0) | (1 << 2) | (1 << 3) | (1 << 8),
                     (1 << 11) | (1 << 6) | (1 << 10) | (1 << 1)], "first-game wonders"
    assert _data.TOKEN_NAMES.index("Theology") == TK_THEOLOGY


_build_tables()

#: True in the debug build (DUEL_DEBUG=1): bounds checks and state_check after every action.
DEBUG = bool(DUEL_DEBUG)

#: Version of the rules and of the way chance is drawn from a seed.  A game record (seed +
#: decisions) replays only under the same version; it changes with any rule fix or change in
#: chance sampling (and then the bench signature changes too).
RULES_VERSION = 2

include "state.pxi"
