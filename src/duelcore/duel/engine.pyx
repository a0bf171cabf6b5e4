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

cdef extern from *:
    """
    #ifndef DUEL_DEBUG
    #define DUEL_DEBUG 0
    #endif
    """
    const int DUEL_DEBUG

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
cdef inline bint bs_has(const u64* b, int c) noexcept nogil:
    return (b[c >> 6] >> (c & 63)) & 1

cdef inline void bs_add(u64* b, int c) noexcept nogil:
    b[c >> 6] |= (<u64>1) << (c & 63)

cdef inline void bs_del(u64* b, int c) noexcept nogil:
    b[c >> 6] &= ~((<u64>1) << (c & 63))

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
    """A broken precondition: abort with its code in the debug build; return it in release."""
    if DUEL_DEBUG:
        fprintf(stderr, b"duelcore: broken precondition %d (see PRECONDITION_MESSAGES)\n", code)
        abort()
    return code

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
        if bs_has(out.city, c):
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
    cdef int r, k, best, missing = 0
    for r in range(NUM_RES):
        k = res[r] - me.fixed[r]
        need[r] = k if k > 0 else 0
        missing += need[r]
    if missing == 0:
        return 0
    for r in range(NUM_RES):
        price[r] = 1 if (me.trade_one >> r) & 1 else 2 + op.fixed[r]
    for k in range(me.n_choice[0]):
        best = -1
        for r in range(0, 3):
            if need[r] > 0 and (best < 0 or price[r] > price[best]):
                best = r
        if best < 0:
            break
        need[best] -= 1
    for k in range(me.n_choice[1]):
        best = -1
        for r in range(3, 5):
            if need[r] > 0 and (best < 0 or price[r] > price[best]):
                best = r
        if best < 0:
            break
        need[best] -= 1
    for k in range(discount):
        best = -1
        for r in range(NUM_RES):
            if need[r] > 0 and (best < 0 or price[r] > price[best]):
                best = r
        if best < 0:
            break
        need[best] -= 1
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
    return f != 255 and bs_has(s.p[p].city, f)

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
    bs_add(me.city, c)
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
    bs_del(s.p[p].city, c)
    derive_card(&s.p[p], c, -1)
    bs_add(s.discard, c)

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
    bs_del(s.avail, c)
    s.last_taker = s.to_move
    cov = COVERS[s.age - 1][slot]
    while cov:
        u = ctz(cov)
        cov &= cov - 1
        if slot_free(s, u):
            if (s.face_down >> u) & 1:
                s.reveal_queue |= 1 << u
            elif s.slot_card[u] < NUM_CARDS:
                bs_add(s.avail, s.slot_card[u])

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
        bs_add(s.seen, x)
        s.age_seen += 1
        if slot_free(s, slot):
            bs_add(s.avail, x)
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
            bs_add(s.discard, c)
            me.coins += discard_coins(s, p)
            continue_turn(s)
        elif a < TOKEN_BASE:                                 # wonder (R-WONDER)
            w = (a - WONDER_BASE) // NUM_CARDS
            c = (a - WONDER_BASE) % NUM_CARDS
            wd = &WONDERS[w]
            take_card(s, c)
            total = wonder_cost(s, p, w, &trade)
            pay(s, p, total, trade)
            bs_add(s.tucked, c)
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
            bs_del(s.discard, c)
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

cdef int state_check(const GameState* s) noexcept nogil:
    """Consistency of a state; 0 if sound, else the number of the first broken check (see
    STATE_CHECKS: codes 1..14 are invariants of any state, 15.. the position checks)."""
    cdef int where
    return state_check_at(s, &where)

cdef bint fields_in_range(const GameState* s) noexcept nogil:
    """Every field within its documented range (engine.pxd), so that no check indexes a table
    or a bitset out of bounds."""
    cdef int i
    if not fields_ok(s):
        return False
    if ((s.first_player | s.chooser | s.last_taker | s.replay) > 1 or s.dealing > 2
            or s.winner > WINNER_NONE or s.victory > VICTORY_SHARED or s.pend > 31
            or s.options > (OPT_CENTRED_BEGINS | OPT_EXPLICIT_CHANCE | OPT_FIRST_GAME)
            or s.mil_tokens > 15 or s.age_seen > NUM_SLOTS or s.n_built_wonders > 7):
        return False
    if ((s.tucked[1] >> CARD_BITS_HI) or ((s.p[0].tokens | s.p[1].tokens) >> NUM_TOKENS)
            or ((s.p[0].built | s.p[1].built) >> NUM_WONDERS)):
        return False
    for i in range(NUM_SLOTS):
        if s.slot_card[i] >= NUM_CARDS and s.slot_card[i] != NO_CARD:
            return False
    for i in range(NUM_WONDERS):
        if s.under[i] >= NUM_CARDS and s.under[i] != NO_CARD:
            return False
    return True

cdef int state_check_at(const GameState* s, int* where) noexcept nogil:
    """state_check, and in `where` the player or slot the broken check concerns (-1: none)."""
    cdef u64 acc[2]
    cdef u64 layout[2]
    cdef int k, slot, p, n_seen_age
    cdef PlayerState fresh
    where[0] = -1
    if not fields_in_range(s):
        return 14
    layout[0] = 0
    layout[1] = 0
    for slot in range(NUM_SLOTS):
        if s.age and not (s.taken >> slot) & 1 and not (s.face_down >> slot) & 1:
            if s.slot_card[slot] == NO_CARD:
                if not (s.reveal_queue >> slot) & 1:
                    where[0] = slot
                    return 1
            else:
                bs_add(layout, s.slot_card[slot])
    for k in range(2):
        # each seen card in exactly one place
        if (s.p[0].city[k] & s.p[1].city[k]) or (s.discard[k] & (s.p[0].city[k] | s.p[1].city[k])):
            return 2
        if s.tucked[k] & (s.p[0].city[k] | s.p[1].city[k] | s.discard[k]):
            return 2
        if layout[k] & (s.p[0].city[k] | s.p[1].city[k] | s.discard[k] | s.tucked[k]):
            return 2
        acc[k] = s.p[0].city[k] | s.p[1].city[k] | s.discard[k] | s.tucked[k] | layout[k]
        if acc[k] != s.seen[k]:
            return 3
        if s.avail[k] & ~layout[k]:
            return 4
    for p in range(2):
        where[0] = p
        if s.p[p].coins < 0:
            return 5
        recompute_player(&s.p[p], &fresh)
        if memcmp(&fresh, &s.p[p], sizeof(PlayerState)) != 0:
            return 6
        if s.p[p].built & ~s.p[p].wonders:
            return 7
    where[0] = -1
    if s.pawn < -9 or s.pawn > 9:
        return 8
    if (s.pawn == 9 or s.pawn == -9) and s.phase != PH_OVER:
        return 8
    if s.board_tokens & (s.p[0].tokens | s.p[1].tokens | s.aside_tokens):
        return 9
    if (s.p[0].tokens & s.p[1].tokens) or (s.aside_tokens & (s.p[0].tokens | s.p[1].tokens)):
        return 9
    if s.age:
        for slot in range(NUM_SLOTS):
            if (not (s.taken >> slot) & 1 and not (s.face_down >> slot) & 1
                    and s.slot_card[slot] != NO_CARD):
                if slot_free(s, slot) != bs_has(s.avail, s.slot_card[slot]):
                    return 4
        n_seen_age = NUM_SLOTS - popcount(s.face_down) - popcount(s.reveal_queue & ~s.face_down)
        if s.face_down & s.taken:
            return 10
        if n_seen_age != s.age_seen:
            return 10
    if s.n_built_wonders != s.p[0].n_built + s.p[1].n_built or s.n_built_wonders > 7:
        return 11
    if s.n_built_wonders == 7 and ((s.p[0].wonders & ~s.p[0].built) or
                                   (s.p[1].wonders & ~s.p[1].built)):
        return 12
    # guild backs (R-CHANCE-2): none before Age III, 3 once placed, and a face-up card lies in
    # a guild-back slot exactly when it is a guild
    k = popcount(s.guild_slots)
    if s.guild_slots & ~ALL_SLOTS:
        return 13
    if s.age < 3 and (k or s.phase == PH_GUILDS):
        return 13
    if s.age == 3 and (k >= 3 if s.phase == PH_GUILDS else k != 3):
        return 13
    if s.age == 3:
        for slot in range(NUM_SLOTS):
            if s.slot_card[slot] != NO_CARD and not (s.taken >> slot) & 1:
                if (s.slot_card[slot] >= FIRST_GUILD) != ((s.guild_slots >> slot) & 1):
                    return 13
        # every guild out of the layout left it from a taken guild slot
        if (popcount(s.seen[1] & ~layout[1] & GUILD_MASK[1])
                > popcount(s.guild_slots & s.taken)):
            return 13
    elif (s.seen[0] & GUILD_MASK[0]) or (s.seen[1] & GUILD_MASK[1]):
        return 13
    return position_check(s, where)

# ---------------------------------------------------------------- position checks (issue 14)
# A position is one the rules can reach from a new game, and its node has something to choose
# or draw.  The checks, in the order they are made (code: field, rule; STATE_CHECKS has the
# reasons):
#
#   set-up and Ages
#   15 age          the set-up phases (setup_first_player, setup_tokens, draft_reveal, draft)
#                   are exactly the phases of age 0 (R-SETUP) ...
#   16 phase        ... so an Age phase needs an age 1..3 (R-AGE-1)
#   17 city         no card before Age I; from then on, of each Age not yet laid out at most
#                   the 3 cards removed from its deck are out of play (R-SETUP-6; a hand-made
#                   position may use them): first the cities ...
#   18 discard      ... then the discard pile
#   19 wonders      ... then under a wonder
#   20 wonders      no wonder built before Age I (R-SETUP)
#   21 tokens       no progress token owned before Age I (R-SETUP-3)
#   22 pawn         the pawn is centred before Age I (R-SETUP-2)
#   23 military     the 4 military tokens lie on the track before Age I (R-MIL-2)
#   24 layout       no layout before Age I (R-AGE-1)
#   board tokens (R-SETUP-3)
#   25 board        a banned token is never on the board; at most 5 are banned (options)
#   26 board        none before they are drawn, < 5 while laid out, 5 during the draft
#   27 aside        none set aside before the board is laid out, the other 5 during the draft
#   the wonder draft (R-SETUP-5, R-SETUP-7)
#   28 options      no draft with the first-game wonders
#   29 picks        0 before the draft; 0 or 4 at a reveal; 0-2 or 4-6 at a pick (the last of a
#                   group is forced and made at once); 8 from Age I on
#   30 offer        4 minus the group's picks at a pick, < 4 while revealed, none otherwise
#   31 revealed     the revealed wonders are those picked and those on offer (<= 8 in an Age)
#   32 wonders      each player's wonders match the picks made (P1 1, P2 2, P1 1, P2 1, P1 2,
#                   P2 1); at most 4
#   33 to_move      the picker of this pick decides
#   34 forced       a forced wonder is the first revealed in its player's group and their first
#                   pick takes it (study treatment)
#   the layout (R-AGE-1, R-LAYOUT-1, R-TURN-2)
#   35..39 layout   a card only in a face-up slot, of the current Age; face down only where the
#                   Age deals face down; taken only once uncovered; uncovered face-down cards
#                   wait to be revealed
#   40 queue        a waiting slot is a face-down card just uncovered (or, while dealing, a
#                   face-up slot not yet dealt)
#   41 queue        cards wait only in phase reveal or a choice made before it (R-TURN-2)
#   42 queue        phase reveal has a card waiting
#   dealing a new Age, who begins (R-AGE-1/2/3, R-CHANCE-2)
#   43 dealing      only while an Age is dealt: phase reveal or guilds, nothing taken, the
#                   highest face-up slots waiting
#   44 dealing      2 (begins) at Age I and for a centred pawn under centred_pawn "begins",
#                   else 1 (chooses)
#   45 chooser      the weaker military, or the last taker for a centred pawn; P1 for Age I
#   46 phase        choose_start once an Age II/III is dealt, before any card is taken, and
#                   only when the chooser chooses
#   47 to_move      the chooser chooses
#   48 to_move      the first turn of an Age is the first player's (Age I) or the chooser's
#                   (centred pawn under "begins")
#   49 phase        guilds: Age III is being laid out, nothing dealt yet
#   choices granted by an action (R-TURN-2, R-TURN-3, R-SCI-2, R-WONDER-4/5/6)
#   50 pending      nothing is pending at rest: each choice has its own phase
#   51 replay       Play Again is never set at a turn's start, in the set-up or while dealing
#   52 library      the Great Library draw exists only while drawn (< 3) or chosen (3, or all)
#   53 aside        library_draw has a set-aside token to draw
#   54..57 phase    destroy / revive / library / choose_token follow the wonder (or the pair)
#                   of the player to move
#   58..61          the choice has something to choose: a board token, a card of the colour in
#                   the opponent's city, a card in the discard pile, a card to take
#   62, 63 phase    the player to move has a legal action; a chance node has an outcome
#   the cards of the Age (R-AGE-1, R-SETUP-6, R-CHANCE-1/2)
#   64 layout       enough unseen cards of the Age remain for its face-down slots: besides
#                   the slots taken, at most the 3 cards removed from its deck are out of play
#                   (a hand-made position may use them)
#   65 layout       enough unseen guilds remain for the guild backs (R-CHANCE-2)
#   the Conflict pawn and the end (R-MIL-2/3, R-SCI-3, R-END-2)
#   66 military     a zone the pawn has entered holds no token; the 5 goes after the 2
#   67 victory      a victory exactly when the game is over
#   68 winner       a winner exactly when over and not shared
#   69 victory      military: the pawn in the loser's capital, and only then
#   70 city         6 symbols: over, that player's scientific victory
#   71 victory      civilian or shared: Age III over, the result as R-END-2 computes it
#   72 wonders      the cards under wonders are those of built wonders (R-WONDER-1)
cdef enum:
    PC_SETUP_AGE = 15
    PC_AGE_PHASE = 16
    PC_LATER_CITY = 17
    PC_LATER_DISCARD = 18
    PC_LATER_TUCKED = 19
    PC_SETUP_BUILT = 20
    PC_SETUP_TOKENS = 21
    PC_SETUP_PAWN = 22
    PC_SETUP_MILITARY = 23
    PC_NO_LAYOUT = 24
    PC_BANNED = 25
    PC_BOARD = 26
    PC_ASIDE = 27
    PC_FIRST_GAME = 28
    PC_PICKS = 29
    PC_OFFER = 30
    PC_REVEALED = 31
    PC_DRAFTED = 32
    PC_PICKER = 33
    PC_FORCED = 34
    PC_SLOT_CARD = 35
    PC_SLOT_AGE = 36
    PC_SLOT_FACE_UP = 37
    PC_SLOT_COVERED = 38
    PC_SLOT_UNTURNED = 39
    PC_QUEUE_SLOT = 40
    PC_QUEUE_PHASE = 41
    PC_REVEAL_EMPTY = 42
    PC_DEALING = 43
    PC_DEALING_KIND = 44
    PC_CHOOSER = 45
    PC_START = 46
    PC_START_MOVER = 47
    PC_FIRST_TURN = 48
    PC_GUILDS = 49
    PC_PENDING = 50
    PC_REPLAY = 51
    PC_LIBRARY_OFFER = 52
    PC_LIBRARY_ASIDE = 53
    PC_GRANT_DESTROY = 54
    PC_GRANT_REVIVE = 55
    PC_GRANT_LIBRARY = 56
    PC_GRANT_TOKEN = 57
    PC_TOKEN_EMPTY = 58
    PC_DESTROY_EMPTY = 59
    PC_REVIVE_EMPTY = 60
    PC_PLAY_DONE = 61
    PC_NO_LEGAL = 62
    PC_NO_CHANCE = 63
    PC_POOL_AGE = 64
    PC_POOL_GUILD = 65
    PC_MILITARY_TOKENS = 66
    PC_RESULT = 67
    PC_WINNER = 68
    PC_MILITARY = 69
    PC_SCIENCE = 70
    PC_CIVILIAN = 71
    PC_TUCKED = 72

cdef inline int drafted_by_first(int k) noexcept nogil:
    """Picks among the first k of the draft made by the first player (R-SETUP-5)."""
    cdef int i, n = 0
    for i in range(k if k < 8 else 8):
        if PICK_ORDER[i] == 0:
            n += 1
    return n

cdef inline int expected_chooser(const GameState* s) noexcept nogil:
    """Who chooses (or begins) the current Age (R-AGE-3): P1 for Age I; the weaker military,
    or the last player to take a card when the pawn is centred, for Age II and III."""
    if s.age <= 1:
        return s.first_player
    if s.pawn > 0:
        return 1
    if s.pawn < 0:
        return 0
    return s.last_taker

cdef int position_check(const GameState* s, int* where) noexcept nogil:
    """The position checks 15..72 listed above (fields in range and checks 1..13 hold)."""
    cdef int p, q, k, slot, n, lim, fp = s.first_player, f, g, d, w
    cdef u64 out[2]
    cdef u64 mask[2]
    cdef int buf[MAX_LEGAL]
    cdef u32 fd = 0, faceup = 0, bit, unrevealed
    cdef u16 owned = s.p[0].wonders | s.p[1].wonders
    cdef u8 grants = 0
    cdef int ph = s.phase
    cdef bint setup = ph == PH_SETUP_FIRST or ph == PH_SETUP_TOKENS or ph == PH_DRAFT_REVEAL \
        or ph == PH_DRAFT
    cdef bint drafting = ph == PH_DRAFT_REVEAL or ph == PH_DRAFT
    cdef bint centred_begins = (s.options & OPT_CENTRED_BEGINS) != 0
    cdef GameState t
    where[0] = -1
    # ---- set-up and Ages
    if setup and s.age != 0:
        return PC_SETUP_AGE
    if not setup and s.age == 0:
        return PC_AGE_PHASE
    # cards of an Age not yet laid out: none before Age I; from then on at most the 3 removed
    # from that Age's deck (a hand-made position may use them), so that the Age can be dealt
    for k in range(3):
        if k < s.age:
            continue
        mask[0] = AGE_MASK[k][0] | (GUILD_MASK[0] if s.age == 0 else 0)
        mask[1] = AGE_MASK[k][1] | (GUILD_MASK[1] if s.age == 0 else 0)
        out[0] = (s.p[0].city[0] | s.p[1].city[0] | s.discard[0] | s.tucked[0]) & mask[0]
        out[1] = (s.p[0].city[1] | s.p[1].city[1] | s.discard[1] | s.tucked[1]) & mask[1]
        if bs_count(out) > (0 if s.age == 0 else 3):
            for p in range(2):
                where[0] = p
                if (s.p[p].city[0] & mask[0]) or (s.p[p].city[1] & mask[1]):
                    return PC_LATER_CITY
            where[0] = -1
            if (s.discard[0] & mask[0]) or (s.discard[1] & mask[1]):
                return PC_LATER_DISCARD
            for w in range(NUM_WONDERS):
                if s.under[w] != NO_CARD and bs_has(mask, s.under[w]):
                    where[0] = 0 if (s.p[0].wonders >> w) & 1 else 1
            return PC_LATER_TUCKED
    if s.age == 0:
        for p in range(2):
            where[0] = p
            if s.p[p].built:
                return PC_SETUP_BUILT
            if s.p[p].tokens:
                return PC_SETUP_TOKENS
        where[0] = -1
        if s.pawn != 0:
            return PC_SETUP_PAWN
        if s.mil_tokens != 15:
            return PC_SETUP_MILITARY
        if s.taken or s.face_down or s.reveal_queue or s.guild_slots or s.age_seen:
            return PC_NO_LAYOUT
        for slot in range(NUM_SLOTS):
            if s.slot_card[slot] != NO_CARD:
                return PC_NO_LAYOUT
    # ---- board tokens (R-SETUP-3)
    if (s.board_tokens & s.banned_tokens) or popcount(s.banned_tokens) > 5:
        return PC_BANNED
    n = popcount(s.board_tokens)
    if ((ph == PH_SETUP_FIRST and n != 0) or (ph == PH_SETUP_TOKENS and n >= 5)
            or (drafting and n != 5)):
        return PC_BOARD
    if (((ph == PH_SETUP_FIRST or ph == PH_SETUP_TOKENS) and s.aside_tokens)
            or (drafting and s.aside_tokens != (((1 << NUM_TOKENS) - 1) & ~s.board_tokens))):
        return PC_ASIDE
    # ---- the wonder draft (R-SETUP-5, R-SETUP-7)
    k = s.draft_pick
    n = popcount(s.draft_offer)
    if drafting and (s.options & OPT_FIRST_GAME):
        return PC_FIRST_GAME
    if ph == PH_SETUP_FIRST or ph == PH_SETUP_TOKENS:
        if k != 0:
            return PC_PICKS
        if n:
            return PC_OFFER
        if s.wonders_seen:
            return PC_REVEALED
        for p in range(2):
            if s.p[p].wonders:
                where[0] = p
                return PC_DRAFTED
    elif drafting:
        if ph == PH_DRAFT_REVEAL:
            if k != 0 and k != 4:
                return PC_PICKS
            if n > 3:
                return PC_OFFER
        else:
            if k == 3 or k >= 7:
                return PC_PICKS
            if n != 4 - (k & 3):
                return PC_OFFER
        if s.wonders_seen != (owned | s.draft_offer):
            return PC_REVEALED
        n = drafted_by_first(k)
        where[0] = fp
        if popcount(s.p[fp].wonders) != n:
            return PC_DRAFTED
        where[0] = 1 - fp
        if popcount(s.p[1 - fp].wonders) != k - n:
            return PC_DRAFTED
        where[0] = -1
        if ph == PH_DRAFT and s.to_move != picker(s, k):
            return PC_PICKER
    else:
        if k != 8:
            return PC_PICKS
        if n:
            return PC_OFFER
        if (owned & ~s.wonders_seen) or popcount(s.wonders_seen) > 8:
            return PC_REVEALED
        for p in range(2):
            if popcount(s.p[p].wonders) > 4:
                where[0] = p
                return PC_DRAFTED
    for q in range(2):
        if not s.forced[q]:
            continue
        where[0] = q
        f = s.forced[q] - 1
        if (s.options & OPT_FIRST_GAME) or s.forced[q] == s.forced[1 - q]:
            return PC_FORCED
        if drafting:
            g = 0 if q == fp else 4                 # the first pick of q's group
            n = k > g or (k == g and (s.draft_offer != 0 or ph == PH_DRAFT))
            if n != ((s.wonders_seen >> f) & 1):
                return PC_FORCED
            if n and not ((s.draft_offer if k == g else s.p[q].wonders) >> f) & 1:
                return PC_FORCED
        elif not setup:
            if not (s.wonders_seen >> f) & 1 or (s.p[1 - q].wonders >> f) & 1:
                return PC_FORCED
    where[0] = -1
    # ---- the layout (R-AGE-1, R-LAYOUT-1, R-TURN-2)
    if s.age:
        fd = FACE_DOWN[s.age - 1]
        faceup = ALL_SLOTS & ~fd
        for slot in range(NUM_SLOTS):
            where[0] = slot
            bit = (<u32>1) << slot
            if s.slot_card[slot] != NO_CARD:
                if (s.taken | s.face_down | s.reveal_queue) & bit:
                    return PC_SLOT_CARD
                if CARDS[s.slot_card[slot]].age != s.age:
                    return PC_SLOT_AGE
            if (s.face_down & bit) and not (fd & bit):
                return PC_SLOT_FACE_UP
            if (s.taken & bit) and (COVERED[s.age - 1][slot] & ~s.taken):
                return PC_SLOT_COVERED
            if (s.face_down & bit) and slot_free(s, slot) and not (s.reveal_queue & bit):
                return PC_SLOT_UNTURNED
            if s.reveal_queue & bit:
                if s.taken & bit:
                    return PC_QUEUE_SLOT
                if s.dealing:
                    if fd & bit:
                        return PC_QUEUE_SLOT
                elif not (s.face_down & bit) or not slot_free(s, slot):
                    return PC_QUEUE_SLOT
        where[0] = -1
    if s.reveal_queue and not (ph == PH_REVEAL or ph == PH_GUILDS or ph == PH_TOKEN
                               or ph == PH_DESTROY or ph == PH_REVIVE or ph == PH_LIBRARY_DRAW
                               or ph == PH_LIBRARY or ph == PH_OVER):
        return PC_QUEUE_PHASE
    if ph == PH_REVEAL and not s.reveal_queue:
        return PC_REVEAL_EMPTY
    # ---- dealing a new Age and who begins it (R-AGE-1/2/3, R-CHANCE-2)
    if s.dealing:
        if (ph != PH_REVEAL and ph != PH_GUILDS) or s.taken or s.face_down != fd:
            return PC_DEALING
        # the face-up slots are dealt in ascending order: those still waiting are the highest
        if (s.reveal_queue == 0
                or s.reveal_queue != (faceup & ~((<u32>1 << ctz(s.reveal_queue)) - 1))):
            return PC_DEALING
        if (s.dealing == 2) != (s.age == 1 or (s.pawn == 0 and centred_begins)):
            return PC_DEALING_KIND
    if (s.dealing or ph == PH_START) and s.chooser != expected_chooser(s):
        return PC_CHOOSER
    if ph == PH_START:
        if (s.age < 2 or s.taken or s.reveal_queue or s.face_down != fd
                or (s.pawn == 0 and centred_begins)):
            return PC_START
        if s.to_move != s.chooser:
            return PC_START_MOVER
    if ph == PH_PLAY and s.taken == 0:
        if ((s.age == 1 and s.to_move != fp)
                or (s.age > 1 and s.pawn == 0 and centred_begins and s.to_move != s.last_taker)):
            return PC_FIRST_TURN
    if ph == PH_GUILDS and (s.age != 3 or not s.dealing or s.reveal_queue != faceup):
        return PC_GUILDS
    # ---- choices granted by an action (R-TURN-2, R-TURN-3, R-SCI-2, R-WONDER-4/5/6)
    if s.pend:
        return PC_PENDING
    if s.replay and (setup or ph == PH_PLAY or ph == PH_START or ph == PH_GUILDS or s.dealing):
        return PC_REPLAY
    n = popcount(s.aside_tokens)
    lim = 3 if n > 3 else n
    n = popcount(s.library_offer)
    if s.library_offer and ((ph != PH_LIBRARY_DRAW and ph != PH_LIBRARY)
                            or (s.library_offer & ~s.aside_tokens)):
        return PC_LIBRARY_OFFER
    if ph == PH_LIBRARY_DRAW:
        if not s.aside_tokens:
            return PC_LIBRARY_ASIDE
        if n >= lim:
            return PC_LIBRARY_OFFER
    if ph == PH_LIBRARY and (n == 0 or n != lim):
        return PC_LIBRARY_OFFER
    p = s.to_move
    q = 1 - p
    for k in range(NUM_WONDERS):
        if (s.p[p].built >> k) & 1:
            grants |= WONDERS[k].pend
    if ph == PH_DESTROY and not grants & (PEND_DESTROY_BROWN if s.destroy_colour == BROWN
                                          else PEND_DESTROY_GREY):
        return PC_GRANT_DESTROY
    if ph == PH_REVIVE and not grants & PEND_REVIVE:
        return PC_GRANT_REVIVE
    if (ph == PH_LIBRARY_DRAW or ph == PH_LIBRARY) and not grants & PEND_LIBRARY:
        return PC_GRANT_LIBRARY
    if ph == PH_TOKEN:
        n = 0
        for k in range(SYM_LAW):
            if s.p[p].symbols[k] >= 2:
                n = 1
        if not n:
            return PC_GRANT_TOKEN
        if not s.board_tokens:
            return PC_TOKEN_EMPTY
    if ph == PH_DESTROY and not ((s.p[q].city[0] & COLOUR_MASK[s.destroy_colour][0])
                                 or (s.p[q].city[1] & COLOUR_MASK[s.destroy_colour][1])):
        where[0] = q
        return PC_DESTROY_EMPTY
    if ph == PH_REVIVE and not (s.discard[0] | s.discard[1]):
        return PC_REVIVE_EMPTY
    if ph == PH_PLAY and s.taken == ALL_SLOTS:
        return PC_PLAY_DONE
    if ph != PH_OVER:
        if is_chance(s):
            if chance_pool(s, out, &n) <= 0:
                return PC_NO_CHANCE
        elif legal_impl(s, buf) <= 0:
            return PC_NO_LEGAL
    # ---- the cards of the Age (R-AGE-1, R-SETUP-6, R-CHANCE-1/2)
    if s.age:
        if ph == PH_GUILDS:
            n = NUM_SLOTS - 3
            k = 3
        else:
            unrevealed = (s.face_down | s.reveal_queue) & ALL_SLOTS
            n = popcount(unrevealed & ~s.guild_slots)
            k = popcount(unrevealed & s.guild_slots)
        if n > (popcount(AGE_MASK[s.age - 1][0] & ~s.seen[0])
                + popcount(AGE_MASK[s.age - 1][1] & ~s.seen[1])):
            return PC_POOL_AGE
        if k > popcount(GUILD_MASK[0] & ~s.seen[0]) + popcount(GUILD_MASK[1] & ~s.seen[1]):
            return PC_POOL_GUILD
    # ---- the Conflict pawn and the end (R-MIL-2/3, R-SCI-3, R-END-2)
    for q in range(2):
        d = s.pawn if q == 1 else -s.pawn          # how far the pawn is toward q's capital
        f = (s.mil_tokens >> (2 * q)) & 3           # bit 0: the 2-coin token, bit 1: the 5
        if (d >= 3 and f & 1) or (d >= 6 and f & 2) or f == 1:
            return PC_MILITARY_TOKENS
    if (ph == PH_OVER) != (s.victory != VICTORY_NONE):
        return PC_RESULT
    if (s.winner != WINNER_NONE) != (ph == PH_OVER and s.victory != VICTORY_SHARED):
        return PC_WINNER
    if ((s.victory == VICTORY_MILITARY) != (s.pawn == 9 or s.pawn == -9)
            or (s.victory == VICTORY_MILITARY and s.winner != (0 if s.pawn == 9 else 1))):
        return PC_MILITARY
    for p in range(2):
        if (s.p[p].n_symbols >= 6) != (s.victory == VICTORY_SCIENTIFIC and s.winner == p):
            where[0] = p
            return PC_SCIENCE
    if s.victory == VICTORY_CIVILIAN or s.victory == VICTORY_SHARED:
        if s.age != 3 or s.taken != ALL_SLOTS:
            return PC_CIVILIAN
        t = s[0]
        finish_game(&t)
        if t.winner != s.winner or t.victory != s.victory:
            return PC_CIVILIAN
    out[0] = 0
    out[1] = 0
    for k in range(NUM_WONDERS):
        if s.under[k] != NO_CARD:
            where[0] = 0 if (s.p[0].wonders >> k) & 1 else 1
            if not ((s.p[0].built | s.p[1].built) >> k) & 1:
                return PC_TUCKED
            bs_add(out, s.under[k])
    where[0] = -1
    if out[0] != s.tucked[0] or out[1] != s.tucked[1]:
        return PC_TUCKED
    return 0

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
                cards[6 * c + (0 if bs_has(s.avail, c) else 1)] = 1
    for c in range(NUM_CARDS):
        if bs_has(s.p[p].city, c):
            cards[6 * c + 2] = 1
        if bs_has(s.p[q].city, c):
            cards[6 * c + 3] = 1
        if bs_has(s.discard, c):
            cards[6 * c + 4] = 1
        if bs_has(s.tucked, c):
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

#: Every check of state_check: code -> (field, reason).  The field names the key of
#: State.to_dict() the check concerns ("{i}": the player or slot); the reason says what the rules
#: require, with the rule id.  Codes 1..14 hold in any state; 15..72 are the position checks
#: (listed with position_check): a position the rules can reach, with something to do.
_LATER = ("cards of an Age not yet laid out (the game is in age {age}): no card is in play "
          "before Age I, and later at most the 3 removed from that Age's deck (R-SETUP-6)")
STATE_CHECKS = {
    1: ("layout[{i}]", "a face-up slot of the layout has no card"),
    2: ("position", "a card is in two places"),
    3: ("position", "the cards seen are not exactly the cards in the cities, discard pile, "
                    "wonders and layout"),
    4: ("layout", "the available cards do not match the layout"),
    5: ("players[{i}].coins", "a player has negative coins"),
    6: ("players[{i}]", "a player's derived values (production, colours, symbols) do not match "
                        "their city"),
    7: ("players[{i}].wonders", "a player built a wonder they do not own"),
    8: ("pawn", "the Conflict pawn is off the track or on a capital in a running game"),
    9: ("progress_tokens", "a progress token is in two places"),
    10: ("layout", "the layout's face-down and revealed slots do not add up"),
    11: ("players", "the number of built wonders does not add up"),
    12: ("players", "7 wonders are built but an unbuilt wonder is still in the game (R-WONDER-3)"),
    13: ("guild_slots", "the guild backs of Age III do not match the layout (R-CHANCE-2)"),
    14: ("position", "a field is outside its range"),
    # set-up and Ages
    PC_SETUP_AGE: ("age", "phase '{phase}' is part of the set-up, before Age I: age must be 0, "
                          "not {age} (R-SETUP)"),
    PC_AGE_PHASE: ("phase", "phase '{phase}' belongs to an Age, but age is 0: before Age I the "
                            "phase is setup_first_player, setup_tokens, draft_reveal or draft "
                            "(R-AGE-1)"),
    PC_LATER_CITY: ("players[{i}].city", "holds " + _LATER),
    PC_LATER_DISCARD: ("discard_pile", "holds " + _LATER),
    PC_LATER_TUCKED: ("players[{i}].wonders", "a wonder holds " + _LATER),
    PC_SETUP_BUILT: ("players[{i}].wonders", "a wonder is built before Age I (R-SETUP)"),
    PC_SETUP_TOKENS: ("players[{i}].progress_tokens", "a progress token is owned before Age I, "
                      "while the board tokens are laid out or the wonders drafted (R-SETUP-3)"),
    PC_SETUP_PAWN: ("pawn", "the Conflict pawn is on the centre until Age I begins (R-SETUP-2)"),
    PC_SETUP_MILITARY: ("military_tokens", "all 4 military tokens lie on the track until Age I "
                                           "begins (R-MIL-2)"),
    PC_NO_LAYOUT: ("layout", "there is no layout before Age I (age 0) (R-AGE-1)"),
    # board tokens
    PC_BANNED: ("board_tokens", "a banned token (options.banned_tokens) is never laid on the "
                                "board, and at most 5 are banned"),
    PC_BOARD: ("board_tokens", "{n_board} tokens on the board in phase '{phase}': none before "
               "they are drawn, fewer than 5 while they are laid out, 5 in the draft (R-SETUP-3)"),
    PC_ASIDE: ("aside_tokens", "the tokens are set aside when the 5th board token is laid: none "
               "before, and in the draft exactly the 5 not on the board (R-SETUP-3)"),
    # the draft
    PC_FIRST_GAME: ("options.first_game_wonders", "there is no wonder draft with the first-game "
                                                  "wonders (R-SETUP-7)"),
    PC_PICKS: ("draft.picks", "{picks} picks in phase '{phase}': 0 before the draft, 0 or 4 while "
               "wonders are revealed, 0-2 or 4-6 at a pick (the last pick of each group is "
               "forced and made at once), 8 from Age I on (R-SETUP-5)"),
    PC_OFFER: ("draft.offer", "{n_offer} wonders on offer after {picks} picks in phase "
               "'{phase}': at a pick, 4 minus the picks made in the group; fewer than 4 while "
               "they are revealed; none outside the draft (R-SETUP-5)"),
    PC_REVEALED: ("draft.revealed", "{n_seen} wonders revealed after {picks} picks: the wonders "
                  "revealed are those picked and those on offer, 8 by Age I (R-SETUP-5)"),
    PC_DRAFTED: ("players[{i}].wonders", "{who} holds {n_wonders} wonders after {picks} picks: "
                 "the first player takes 1, the other 2, the first 1, then the other 1, the "
                 "first 2, the other 1 (at most 4 each) (R-SETUP-5)"),
    PC_PICKER: ("to_move", "pick {picks} of the draft is {picker}'s (R-SETUP-5)"),
    PC_FORCED: ("options.forced_wonders", "{who}'s forced wonder is the first revealed in the "
                "group where {who} picks first, and {who}'s first pick takes it: this position "
                "does not follow from that"),
    # the layout
    PC_SLOT_CARD: ("layout[{i}]", "a card lies in a slot that is taken, face down or waiting to "
                                  "be revealed (R-AGE-1, R-TURN-2)"),
    PC_SLOT_AGE: ("layout[{i}]", "the card is not an Age {age} card (R-AGE-1)"),
    PC_SLOT_FACE_UP: ("layout[{i}]", "slot {i} of Age {age} is dealt face up (R-AGE-1)"),
    PC_SLOT_COVERED: ("layout[{i}]", "a taken slot is still covered by a card (R-LAYOUT-1)"),
    PC_SLOT_UNTURNED: ("layout[{i}]", "a face-down card is uncovered but was not turned face up "
                                      "(R-TURN-2)"),
    PC_QUEUE_SLOT: ("reveal_queue", "slot {i} waits to be revealed but is not a face-down card "
                    "just uncovered (nor, while an Age is dealt, a face-up slot not yet dealt) "
                    "(R-TURN-2)"),
    PC_QUEUE_PHASE: ("reveal_queue", "cards wait to be revealed: the phase must be 'reveal' or a "
                     "choice made before the reveal, not '{phase}' (R-TURN-2)"),
    PC_REVEAL_EMPTY: ("reveal_queue", "phase 'reveal' needs a card waiting to be revealed "
                                      "(R-TURN-2)"),
    # dealing a new Age, who begins
    PC_DEALING: ("dealing", "set only while a new Age's face-up cards are dealt: phase 'reveal' "
                 "(or 'guilds'), nothing taken, the face-up slots not yet dealt (the highest) "
                 "waiting (R-AGE-1)"),
    PC_DEALING_KIND: ("dealing", "2 (the chooser begins) for Age I and for a centred pawn under "
                      "centred_pawn 'begins', otherwise 1 (the chooser chooses) (R-AGE-3)"),
    PC_CHOOSER: ("chooser", "{chooser} chooses who begins Age {age}: the first player for Age I; "
                 "for Age II/III the weaker military, or the last player to take a card when "
                 "the pawn is centred (R-AGE-3)"),
    PC_START: ("phase", "'choose_start' comes once Age II or III is dealt, before any card is "
                        "taken, and not for a centred pawn under centred_pawn 'begins' (R-AGE-3)"),
    PC_START_MOVER: ("to_move", "the chooser ({chooser}) chooses who begins (R-AGE-3)"),
    PC_FIRST_TURN: ("to_move", "no card of Age {age} is taken yet, so this is its first turn: "
                    "{begins} begins it (R-AGE-2, R-AGE-3)"),
    PC_GUILDS: ("phase", "'guilds' is the lay-out of Age III: the guild backs are placed before "
                         "any card is dealt (R-CHANCE-2)"),
    # choices granted by an action
    PC_PENDING: ("pending", "a choice an action grants is made at once, in its own phase "
                 "(choose_token, destroy, revive, library_draw, library): nothing is pending "
                 "in a position (R-TURN-2)"),
    PC_REPLAY: ("replay", "Play Again is earned by a wonder and used when the turn ends: it is "
                "never set at the start of a turn, in the set-up or while an Age is dealt "
                "(R-TURN-3)"),
    PC_LIBRARY_OFFER: ("library_offer", "the Great Library draw holds set-aside tokens only while "
                       "they are drawn (fewer than 3, and than those set aside) or chosen from "
                       "(3, or all those set aside) (R-WONDER-6)"),
    PC_LIBRARY_ASIDE: ("aside_tokens", "phase 'library_draw' needs a set-aside token to draw "
                                       "(R-WONDER-6)"),
    PC_GRANT_DESTROY: ("phase", "'destroy' follows The Statue of Zeus (brown) or Circus Maximus "
                       "(grey) built by the player to move (destroy_colour {colour}) (R-WONDER-4)"),
    PC_GRANT_REVIVE: ("phase", "'revive' follows The Mausoleum built by the player to move "
                               "(R-WONDER-5)"),
    PC_GRANT_LIBRARY: ("phase", "'{phase}' follows The Great Library built by the player to "
                                "move (R-WONDER-6)"),
    PC_GRANT_TOKEN: ("phase", "'choose_token' follows a pair of science symbols made by the "
                              "player to move (R-SCI-2)"),
    PC_TOKEN_EMPTY: ("board_tokens", "phase 'choose_token' needs a progress token on the board "
                                     "(R-SCI-2)"),
    PC_DESTROY_EMPTY: ("players[{i}].city", "phase 'destroy' needs a {colour} card in the "
                                            "opponent's city (R-WONDER-4)"),
    PC_REVIVE_EMPTY: ("discard_pile", "phase 'revive' needs a card in the discard pile "
                                      "(R-WONDER-5)"),
    PC_PLAY_DONE: ("layout", "every card of the Age is taken: it is not a play turn (R-AGE-2)"),
    PC_NO_LEGAL: ("phase", "the player to move has no legal action in phase '{phase}'"),
    PC_NO_CHANCE: ("phase", "the chance node '{phase}' has nothing to draw"),
    # the cards of the Age
    PC_POOL_AGE: ("layout", "too few unseen Age {age} cards are left for its face-down slots: "
                  "besides the cards of the slots taken, at most the 3 cards removed from the "
                  "deck can be in the cities, the discard pile or under wonders (R-SETUP-6)"),
    PC_POOL_GUILD: ("guild_slots", "too few unseen guilds are left for the guild backs "
                                   "(R-SETUP-6, R-CHANCE-2)"),
    # the Conflict pawn and the end
    PC_MILITARY_TOKENS: ("military_tokens", "the pawn has entered a zone whose token is still on "
                         "the track, or a 5-coin token is gone while the 2-coin token of that "
                         "side is not (R-MIL-2)"),
    PC_RESULT: ("victory", "a victory is given exactly when the phase is 'over'"),
    PC_WINNER: ("winner", "a winner is named exactly when the game is over and not shared"),
    PC_MILITARY: ("victory", "a military victory leaves the pawn in the loser's capital, and the "
                             "pawn reaches a capital only then (R-MIL-3)"),
    PC_SCIENCE: ("players[{i}].city", "6 different science symbols win at once: the game is "
                 "over with {who}'s scientific victory exactly then (R-SCI-3)"),
    PC_CIVILIAN: ("victory", "a civilian or shared victory comes when the last card of Age III is "
                  "taken, to the player with more VP, then more blue VP (R-END-2)"),
    PC_TUCKED: ("players[{i}].wonders", "a card lies under a wonder that is not built, or a "
                                        "tucked card is under no wonder (R-WONDER-1)"),
}
#: code -> reason, for callers that want only the text.
STATE_CHECK_MESSAGES = {code: reason for code, (field, reason) in STATE_CHECKS.items()}


cdef tuple check_error(const GameState* s, int code, int where):
    """(field, reason) of a broken check, with the player / slot and the values filled in."""
    field, reason = STATE_CHECKS[code]
    i = where if where >= 0 else 0
    names = ("P1", "P2")
    values = {
        "i": i, "phase": PHASE_NAMES[s.phase] if s.phase < len(PHASE_NAMES) else s.phase,
        "age": s.age, "picks": s.draft_pick, "n_board": popcount(s.board_tokens),
        "n_offer": popcount(s.draft_offer), "n_seen": popcount(s.wonders_seen),
        "n_wonders": popcount(s.p[i & 1].wonders), "who": names[i & 1],
        "picker": names[picker(s, s.draft_pick)], "chooser": names[expected_chooser(s) & 1],
        "begins": names[(s.first_player if s.age <= 1 else s.last_taker) & 1],
        "colour": "brown" if s.destroy_colour == BROWN else "grey",
    }
    field = field.format(i=i) if where >= 0 else field.replace("[{i}]", "")
    return field, reason.format(**values)


def check_message(State state):
    """``None`` if ``state`` passes :func:`state_check`, else ``"field: reason"`` of the first
    broken check (see STATE_CHECKS)."""
    cdef int where
    cdef int code = state_check_at(&state.s, &where)
    if not code:
        return None
    field, reason = check_error(&state.s, code, where)
    return f"{field}: {reason}"

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
        bs_add(COLOUR_MASK[CARDS[i].colour], i)
        if card.colour == "purple":
            bs_add(GUILD_MASK, i)
        else:
            bs_add(AGE_MASK[card.age - 1], i)
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
