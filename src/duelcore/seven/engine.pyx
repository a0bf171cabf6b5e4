# cython: language_level=3
"""The 7 Wonders rules engine (base game, 3-7 players and the 2-player Free City variant).

The state is one flat C struct (:c:type:`SevenState`, see ``engine.pxd`` for every field, its unit
and range), copied by assignment.  Cards are bitsets: cities over card names, hands, the deck,
the discard pile and the stage cards over physical copies.  Turns are simultaneous as in
OpenSpiel's simultaneous-move games: every seat commits a turn action that the others do not
see; once all have committed, the turn resolves in the order of W-TURN-3.  Chance (boards and
sides, the guilds drawn, every card dealt, the Free City's draws) is explicit, with exact
probabilities, or sampled from the state's splitmix64 RNG (the default).  Everything hot is
``noexcept nogil`` and allocates nothing.

Rule ids (W-...) refer to the 7 Wonders rules digest; the numbers come from
:mod:`duelcore.seven.data`.

Seats: ``0..N-1`` clockwise; the left neighbour of seat i is i+1, the right one i-1 (W-SETUP).
In the Free City variant the two players are seats 0 (P1) and 1 (P2) and the Free City is
seat 2: the digest's ring (FC 0, P1 1, P2 2) turned by one seat, which keeps every
left/right relation (W-FREE-2).

Files, one job each, compiled as this one module: this file the rules, ``checks.pxi`` the
invariants (``sv_state_check``) and the checks of positions written as data
(``sv_position_check``, ``STATE_CHECKS``), ``api.pxi`` the Python face (``State``, ``new_state``,
positions as data) and ``search.pxi`` the agents and batch runners (included, not a module of
their own, so that the search inlines the rules and reads their tables).
"""
from libc.string cimport memset, memcmp
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort

from duelcore.seven import data as _data

from duelcore.common.debug cimport DUEL_DEBUG, fault

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define SV_UNLIKELY(x) __builtin_expect(!!(x), 0)
    #else
    #define SV_UNLIKELY(x) (x)
    #endif
    """
    bint SV_UNLIKELY(bint x) noexcept nogil     # a guard of a broken precondition: cold

DEBUG = bool(DUEL_DEBUG)

cdef enum:
    ST_RAW_BOTH = 1
    ST_SCIENCE = 2
    ST_SEVENTH = 4
    ST_FREE = 8
    ST_HALI = 16
    ST_COPY = 32

cdef enum:
    C_BROWN = 0
    C_GREY = 1
    C_BLUE = 2
    C_GREEN = 3
    C_YELLOW = 4
    C_RED = 5
    C_PURPLE = 6

cdef enum:
    B_BABYLON = 3
    B_OLYMPIA = 4
    B_HALI = 5

# ---------------------------------------------------------------- broken preconditions
# Defence in depth (issue 30).  The chance functions, the flow and the agents never assume a
# non-empty set or a seat, card or stage in range: each checks its precondition where it relies
# on it.  A position that state_from_dict accepts never breaks one (the position checks of
# checks.pxi).  If one is broken all the same, the debug build aborts with its code
# (PRECONDITION_MESSAGES); the release build reads and writes nothing outside the state, and a
# function that changes the state ends the game instead (phase over), so that every loop over
# the game stops; a query returns no action.
cdef enum:
    PRE_FIELDS = 101        # a seat, card or board that indexes a table is out of its range
    PRE_NO_LEGAL = 102      # a decision node with no pending seat, or a seat with no action
    PRE_NO_CHANCE = 104     # a chance node with nothing to draw
    PRE_SETTLE = 109        # more chance events in a row than any game has
    PRE_ACTION = 110        # an action or chance outcome outside its phase's range, or of a
                            #   card that is not where the action takes it from
    PRE_STAGE = 111         # a stage built beyond the board's last
    MAX_CHANCE_RUN = 128    # chance events in a row: at most 7 + 9 + 49 (+ 1 draw) in any game

PRECONDITION_MESSAGES = {
    PRE_FIELDS: "a seat, card or board that indexes a table is out of its range",
    PRE_NO_LEGAL: "a decision node with no pending seat, or a pending seat with no legal action",
    PRE_NO_CHANCE: "a chance node with nothing to draw",
    PRE_SETTLE: "more chance events in a row than any game has",
    PRE_ACTION: "an action or chance outcome outside the range of its phase, or of a card that "
                "is not where the action takes it from",
    PRE_STAGE: "a stage built beyond the last stage of the board",
}

cdef int precondition_fault(int code) noexcept nogil:
    """The debug build aborts naming the broken precondition; release returns its code."""
    return fault(b"seven", code)

cdef void broken(SevenState* s, int code) noexcept nogil:
    """A broken precondition met while changing the state: the debug build aborts; the release
    build ends the game (phase over) so that no loop runs on from a state it cannot handle."""
    precondition_fault(code)
    s.phase = SP_OVER
    s.hali_seat = 255
    s.seventh_seat = 255
    s.seventh_card = SV_NO_CARD

# ---------------------------------------------------------------- tables (filled at import)
cdef NameDef NAMES[SV_NUM_NAMES]
cdef StageDef STAGES[7][2][4]
cdef u8 N_STAGES[7][2]
cdef u8 BOARD_RES[7]
cdef u8 PH_NAME[SV_NUM_PHYS]
cdef u8 PH_AGE[SV_NUM_PHYS]
cdef u64 NAME_PHYS[SV_NUM_NAMES][3]      # physical copies of each name
cdef u8 NAME_AGES[SV_NUM_NAMES]          # bit a: the name has copies in Age a (1..3)
cdef u64 AGE_PHYS[4][8][3]               # [age][players 3..7] Age cards in the deck (no guilds)
cdef u8 GUILD_PHYS[SV_NUM_GUILDS]
cdef u8 TYPE_MASK[8]                     # resources of each choice-source type
cdef u8 TYPE_HIT[128]                    # choice-source types able to give some resource of a set
cdef i32 MIL_WIN[4]

# ---------------------------------------------------------------- bitsets and RNG
cdef inline int b3_count(const u64* b) noexcept nogil:
    return popcount(b[0]) + popcount(b[1]) + popcount(b[2])

cdef inline int b3_first(const u64* b) noexcept nogil:
    if b[0]:
        return ctz(b[0])
    if b[1]:
        return 64 + ctz(b[1])
    if b[2]:
        return 128 + ctz(b[2])
    return -1

cdef inline int b3_select(const u64* b, int i) noexcept nogil:
    """Id of the i-th set bit (0-based) of a 3-word bitset."""
    cdef int w = 0, n
    cdef u64 x
    while w < 3:
        n = popcount(b[w])
        if i < n:
            x = b[w]
            while i > 0:
                x &= x - 1
                i -= 1
            return 64 * w + ctz(x)
        i -= n
        w += 1
    return -1

cdef inline int first_of_name(const u64* b, int nm) noexcept nogil:
    cdef u64 x[3]
    x[0] = b[0] & NAME_PHYS[nm][0]
    x[1] = b[1] & NAME_PHYS[nm][1]
    x[2] = b[2] & NAME_PHYS[nm][2]
    return b3_first(x)

cdef inline bint has_name(const SevenCity* c, int nm) noexcept nogil:
    return (c.city[nm >> 6] >> (nm & 63)) & 1

# RNG: splitmix64 and sv_rng_below are every game's (duelcore/common/rng.pxd, see engine.pxd).

# ---------------------------------------------------------------- seats
cdef inline int left_of(const SevenState* s, int i) noexcept nogil:
    return (i + 1) % s.n_seats

cdef inline int right_of(const SevenState* s, int i) noexcept nogil:
    return (i + s.n_seats - 1) % s.n_seats

cdef inline int controller(const SevenState* s) noexcept nogil:
    """The Free City controller this turn (W-FREE-7): P1 on odd turns of Ages I and III."""
    if s.n_players != 2:
        return 255
    if (s.turn & 1) == (1 if s.age != 2 else 0):
        return 0
    return 1

cdef inline int holder(const SevenState* s, int seat) noexcept nogil:
    """Whose hand a seat's turn card comes from (the Free City plays from the controller's)."""
    if s.n_players == 2 and seat == 2:
        return controller(s)
    return seat

cdef int sv_decider(const SevenState* s, int seat) noexcept nogil:
    """The player who makes the decisions of a seat (the controller for the Free City)."""
    if s.n_players == 2 and seat == 2:
        return controller(s)
    return seat

cdef inline bint is_fc(const SevenState* s, int seat) noexcept nogil:
    return s.n_players == 2 and seat == 2

# ---------------------------------------------------------------- actions
cdef inline int mk_action(int use, int nm, int l, int r) noexcept nogil:
    return ((use * SV_NUM_NAMES + nm) << 8) | (l << 4) | r

cdef inline int act_use(int a) noexcept nogil:
    return (a >> 8) // SV_NUM_NAMES

cdef inline int act_name(int a) noexcept nogil:
    return (a >> 8) % SV_NUM_NAMES

# ---------------------------------------------------------------- cost solver (W-TRADE)
cdef inline int demanded(const int* D) noexcept nogil:
    """The set (a bit per resource) of the resources D asks for."""
    cdef int r, need = 0
    for r in range(SV_NUM_RES):
        if D[r] > 0:
            need |= 1 << r
    return need

cdef inline int demand_of(const int* D, int sub) noexcept nogil:
    """Units of the resources of ``sub`` that D asks for."""
    cdef int r, dem = 0
    for r in range(SV_NUM_RES):
        if (sub >> r) & 1:
            dem += D[r]
    return dem

cdef inline int sources_for(const int* cnt, int ntypes, int sub) noexcept nogil:
    """Sources (``cnt[t]`` of each type t) that can give some resource of ``sub``."""
    cdef int t, v = 0
    for t in range(ntypes):
        if TYPE_MASK[t] & sub:
            v += cnt[t]
    return v

cdef bint coverable(const int* D, const int* cnt, int ntypes) noexcept nogil:
    """Can one unit from each of ``cnt[t]`` sources of type t (resources TYPE_MASK[t]) cover
    the demand D?  Hall's condition on every subset of the demanded resources (exact for
    unit sources)."""
    cdef int need = demanded(D), sub = need
    while sub:
        if demand_of(D, sub) > sources_for(cnt, ntypes, sub):
            return False
        sub = (sub - 1) & need
    return True

cdef inline void supply_table(const int* cnt, int ntypes, int mask, int* sup) noexcept nogil:
    """sup[S] = sources (of the cnt[t] of each type) that can give some resource of S, for
    every subset S of mask."""
    cdef int sub = mask
    while True:
        sup[sub] = sources_for(cnt, ntypes, sub)
        if sub == 0:
            break
        sub = (sub - 1) & mask

cdef inline bint cover_tab(const int* E, const int* sup) noexcept nogil:
    """Hall's condition for the demand E (only resources of the table's mask) against the
    unit sources summarised in sup (see supply_table)."""
    cdef int need = demanded(E), sub = need
    while sub:
        if demand_of(E, sub) > sup[sub]:
            return False
        sub = (sub - 1) & need
    return True

cdef int solve_raw(const u8* ofix, const int* ocnt, const u8* lfix, const int* lpair,
                   const u8* rfix, const int* rpair, const int* pl, const int* pr,
                   const u8* cost, int allpairs, int* outl, int* outr) noexcept nogil:
    """Every payment (coins to the left neighbour, coins to the right one) of the valid
    purchases for ``cost`` (W-TRADE-5): own fixed production first, then own choice sources
    (types 0..7), buying only from the neighbours' fixed units and "one of two" cards (types
    0..5), each source once; no bought unit can be dropped.  Returns the number of pairs written
    (sorted by left then right coins, at most SV_MAX_PAIRS); only the non-dominated ones unless
    ``allpairs``.  0 means the cost cannot be met whatever the coins."""
    cdef int D[7]
    cdef int P[7]
    cdef int E[7]
    cdef int A[7]
    cdef int B[7]
    cdef int a[7]
    cdef int lo[7]
    cdef int hi[7]
    cdef int la[7]
    cdef int ra[7]
    cdef int cap[7]
    cdef int osup[128]
    cdef int lsup[128]
    cdef int rsup[128]
    cdef int idx[7]
    cdef int r, t, n = 0, k, j, L, R, mask = 0, ni = 0, own_any = 0, lp_any = 0, rp_any = 0
    cdef int ownr, i, ot = 0, lt = 0, rt = 0
    cdef bint minimal, dom
    for r in range(SV_NUM_RES):
        D[r] = cost[r] - ofix[r]
        if D[r] > 0:
            mask |= 1 << r
            idx[ni] = r
            ni += 1
        else:
            D[r] = 0
    if mask == 0:
        outl[0] = 0
        outr[0] = 0
        return 1
    for t in range(8):
        ot |= (ocnt[t] > 0) << t
    for t in range(6):
        lt |= (lpair[t] > 0) << t
        rt |= (rpair[t] > 0) << t
    own_any = (ot & TYPE_HIT[mask]) != 0
    lp_any = (lt & TYPE_HIT[mask]) != 0
    rp_any = (rt & TYPE_HIT[mask]) != 0
    if own_any:
        supply_table(ocnt, 8, mask, osup)
        if cover_tab(D, osup):
            outl[0] = 0
            outr[0] = 0
            return 1
    for i in range(ni):
        r = idx[i]
        la[r] = lfix[r]
        ra[r] = rfix[r]
        ownr = 0
        for t in range(8):
            if ((ot | lt | rt) >> t) & 1 and (TYPE_MASK[t] >> r) & 1:
                if t < 6:
                    la[r] += lpair[t]
                    ra[r] += rpair[t]
                ownr += ocnt[t]
        if D[r] > la[r] + ra[r] + ownr:
            return 0                     # not enough of r anywhere
        cap[r] = D[r] if D[r] < la[r] + ra[r] else la[r] + ra[r]
    if lp_any:
        supply_table(lpair, 6, mask, lsup)
    if rp_any:
        supply_table(rpair, 6, mask, rsup)
    for r in range(SV_NUM_RES):
        P[r] = 0
        A[r] = 0
        B[r] = 0
        E[r] = 0
    if not own_any:
        for i in range(ni):                      # the purchase is the whole deficit
            P[idx[i]] = D[idx[i]]
    while True:
        if own_any:
            # next purchase multiset P (mixed radix over the needed resources, P = 0 skipped)
            i = 0
            while i < ni:
                r = idx[i]
                if P[r] < cap[r]:
                    P[r] += 1
                    break
                P[r] = 0
                i += 1
            if i == ni:
                break
            for i in range(ni):
                r = idx[i]
                E[r] = D[r] - P[r]
            if not cover_tab(E, osup):
                continue
            minimal = True
            for i in range(ni):
                r = idx[i]
                if P[r] > 0:
                    E[r] += 1
                    if cover_tab(E, osup):
                        minimal = False
                    E[r] -= 1
                    if not minimal:
                        break
            if not minimal:
                continue
        # every split of P between the two sellers
        for i in range(ni):
            r = idx[i]
            lo[r] = P[r] - ra[r]
            if lo[r] < 0:
                lo[r] = 0
            hi[r] = P[r] if P[r] < la[r] else la[r]
            if lo[r] > hi[r]:
                break
            a[r] = lo[r]
        else:
            while True:
                for i in range(ni):
                    r = idx[i]
                    A[r] = a[r] - lfix[r]
                    B[r] = P[r] - a[r] - rfix[r]
                if (cover_tab(A, lsup) if lp_any else _none_pos(A, idx, ni)) and \
                        (cover_tab(B, rsup) if rp_any else _none_pos(B, idx, ni)):
                    L = 0
                    R = 0
                    for i in range(ni):
                        r = idx[i]
                        L += a[r] * pl[r]
                        R += (P[r] - a[r]) * pr[r]
                    for k in range(n):
                        if outl[k] == L and outr[k] == R:
                            break
                    else:
                        if n < SV_MAX_PAIRS:
                            outl[n] = L
                            outr[n] = R
                            n += 1
                i = 0
                while i < ni:
                    r = idx[i]
                    if a[r] < hi[r]:
                        a[r] += 1
                        break
                    a[r] = lo[r]
                    i += 1
                if i == ni:
                    break
        if not own_any:
            break
    if not allpairs and n > 1:
        k = 0
        for j in range(n):
            dom = False
            for t in range(n):
                if t != j and outl[t] <= outl[j] and outr[t] <= outr[j] and \
                        (outl[t] < outl[j] or outr[t] < outr[j]):
                    dom = True
                    break
            if not dom:
                outl[k] = outl[j]
                outr[k] = outr[j]
                k += 1
        n = k
    # sort by (left, right)
    for j in range(1, n):
        L = outl[j]
        R = outr[j]
        k = j - 1
        while k >= 0 and (outl[k] > L or (outl[k] == L and outr[k] > R)):
            outl[k + 1] = outl[k]
            outr[k + 1] = outr[k]
            k -= 1
        outl[k + 1] = L
        outr[k + 1] = R
    return n

cdef inline bint _none_pos(const int* X, const int* idx, int ni) noexcept nogil:
    cdef int i
    for i in range(ni):
        if X[idx[i]] > 0:
            return False
    return True

cdef inline void city_counts(const SevenCity* c, int* cnt, bint own) noexcept nogil:
    cdef int t
    for t in range(6):
        cnt[t] = c.pairs[t]
    cnt[6] = c.any_raw if own else 0
    cnt[7] = c.any_manuf if own else 0

cdef struct SolveCtx:
    const u8* ofix
    const u8* lfix
    const u8* rfix
    int ocnt[8]
    int lp[8]
    int rp[8]
    int pl[7]
    int pr[7]
    int own                 # own choice sources
    int coins
    int unit                # cheapest price of a bought unit (1 with a discount, else 2)
    int allp
    int board
    int side
    int stage               # the next stage (index)

cdef void ctx_init(const SevenState* s, int seat, int allpairs, SolveCtx* x) noexcept nogil:
    """What every cost solve of ``seat`` needs, gathered once (W-TRADE-2, -4)."""
    cdef const SevenCity* me = &s.c[seat]
    cdef const SevenCity* lc = &s.c[left_of(s, seat)]
    cdef const SevenCity* rc = &s.c[right_of(s, seat)]
    cdef int r
    x.ofix = me.fixed
    x.lfix = lc.fixed
    x.rfix = rc.fixed
    city_counts(me, x.ocnt, True)
    city_counts(lc, x.lp, False)
    city_counts(rc, x.rp, False)
    for r in range(4):
        x.pl[r] = 1 if me.trade & (TR_RAW_LEFT | TR_RAW_BOTH) else 2
        x.pr[r] = 1 if me.trade & (TR_RAW_RIGHT | TR_RAW_BOTH) else 2
    for r in range(4, 7):
        x.pl[r] = 1 if me.trade & TR_MANUF else 2
        x.pr[r] = x.pl[r]
    x.own = 0
    for r in range(8):
        x.own += x.ocnt[r]
    x.coins = me.coins
    x.unit = 1 if me.trade else 2
    x.allp = allpairs
    x.board = me.board
    x.side = me.side
    x.stage = me.stages

cdef int sv_solve(const SevenState* s, int seat, const u8* cost, int allpairs,
                  int* outl, int* outr) noexcept nogil:
    """The payment pairs of ``cost`` for ``seat`` in the current cities (W-TRADE)."""
    cdef SolveCtx x
    ctx_init(s, seat, allpairs, &x)
    return solve_raw(x.ofix, x.ocnt, x.lfix, x.lp, x.rfix, x.rp, x.pl, x.pr, cost, allpairs,
                     outl, outr)

# ---------------------------------------------------------------- city updates
cdef void add_card(SevenCity* c, int nm) noexcept nogil:
    """A card enters a city: its name and every derived field (W-CARD)."""
    cdef const NameDef* d = &NAMES[nm]
    cdef int r
    c.city[nm >> 6] |= (<u64>1) << (nm & 63)
    c.colour[d.colour] += 1
    for r in range(SV_NUM_RES):
        c.fixed[r] += d.fixed[r]
    if d.pair != 255:
        c.pairs[d.pair] += 1
    if d.anyc == 6:
        c.any_raw += 1
    elif d.anyc == 7:
        c.any_manuf += 1
    c.trade |= d.trade
    c.shields += d.shields
    if d.sci != 255:
        c.sci[d.sci] += 1
    if d.guild == 5:
        c.wild += 1

cdef void add_stage(SevenCity* c) noexcept nogil:
    """The next stage of the board is built (W-WON-3)."""
    cdef const StageDef* d = &STAGES[c.board][c.side][c.stages]
    c.stages += 1
    c.shields += d.shields
    if d.anyc == 6:
        c.any_raw += 1
    elif d.anyc == 7:
        c.any_manuf += 1
    if d.flags & ST_RAW_BOTH:
        c.trade |= TR_RAW_BOTH
    if d.flags & ST_SCIENCE:
        c.wild += 1
    if d.flags & ST_SEVENTH:
        c.seventh = 1
    if d.flags & ST_FREE:
        c.olympia_free = 1
    if d.flags & ST_COPY:
        c.copy_guild = 1

cdef void recompute_city(const SevenCity* src, SevenCity* out) noexcept nogil:
    """Derived fields of a city from its names, board, side and stages (state_check, from_dict)."""
    cdef int nm, k
    out[0] = src[0]
    memset(out.fixed, 0, 7)
    memset(out.pairs, 0, 6)
    memset(out.colour, 0, 7)
    memset(out.sci, 0, 3)
    out.any_raw = 0
    out.any_manuf = 0
    out.trade = 0
    out.wild = 0
    out.shields = 0
    out.seventh = 0
    out.copy_guild = 0
    out.city[0] = 0
    out.city[1] = 0
    out.fixed[BOARD_RES[src.board]] = 1
    for nm in range(SV_NUM_NAMES):
        if has_name(src, nm):
            add_card(out, nm)
    k = src.stages
    out.stages = 0
    for nm in range(k):
        add_stage(out)
    out.olympia_free = src.olympia_free

cdef int card_coins(const SevenState* s, int seat, int nm) noexcept nogil:
    """Coins a card gives when built, counted on the cities as they stand (W-CARD-5..7)."""
    cdef const NameDef* d = &NAMES[nm]
    cdef const SevenCity* me = &s.c[seat]
    cdef const SevenCity* lc = &s.c[left_of(s, seat)]
    cdef const SevenCity* rc = &s.c[right_of(s, seat)]
    if d.special == 0:
        return d.coins_gain
    if d.special == 1:
        return me.colour[C_BROWN] + lc.colour[C_BROWN] + rc.colour[C_BROWN]
    if d.special == 2:
        return 2 * (me.colour[C_GREY] + lc.colour[C_GREY] + rc.colour[C_GREY])
    if d.special == 3:
        return me.colour[C_BROWN]
    if d.special == 4:
        return me.colour[C_YELLOW]
    if d.special == 5:
        return 2 * me.colour[C_GREY]
    return 3 * me.stages

cdef inline bint chain_ok(const SevenCity* c, int nm) noexcept nogil:
    return ((c.city[0] & NAMES[nm].chain[0]) | (c.city[1] & NAMES[nm].chain[1])) != 0

# ---------------------------------------------------------------- legal actions
cdef inline int n_stages(const SevenCity* c) noexcept nogil:
    return N_STAGES[c.board][c.side]

cdef void avail_hand(const SevenState* s, int seat, u64* out) noexcept nogil:
    """Cards the seat may choose from: its hand, less the card its hand-sharing sibling (the
    controller and the Free City) already committed this turn."""
    cdef int h = holder(s, seat), other
    out[0] = s.c[h].hand[0]
    out[1] = s.c[h].hand[1]
    out[2] = s.c[h].hand[2]
    if s.n_players == 2:
        other = 2 if seat != 2 else h
        if other != seat and holder(s, other) == h and s.commit[other] >= 0:
            bit_del(out, s.commit_card[other])

cdef inline int quick_solve(const SolveCtx* x, int nm, int printed, int* outl, int* outr,
                            int stage) noexcept nogil:
    """The cost solve of card ``nm`` (or, with ``stage``, of the seat's next stage) with two
    exact shortcuts: own fixed production covers the cost (one pair, (0, 0)); or even the
    cheapest purchase (2 coins, or 1 with a discount, per unit the city cannot make) is beyond
    the seat's coins (returns -1: no affordable pair, though the cost may be payable)."""
    cdef const u8* res
    cdef int d = 0, r, m
    if stage:
        res = STAGES[x.board][x.side][x.stage].res
        m = STAGES[x.board][x.side][x.stage].kmask
    else:
        res = NAMES[nm].res
        m = NAMES[nm].kmask
    while m:
        r = ctz(m)
        m &= m - 1
        if res[r] > x.ofix[r]:
            d += res[r] - x.ofix[r]
    if d == 0:
        outl[0] = 0
        outr[0] = 0
        return 1
    if d > x.own and printed + (d - x.own) * x.unit > x.coins:
        return -1
    return solve_raw(x.ofix, x.ocnt, x.lfix, x.lp, x.rfix, x.rp, x.pl, x.pr, res, x.allp,
                     outl, outr)

cdef int gen_card_actions(const SevenState* s, int seat, const u64* avail, int* out) noexcept nogil:
    """Turn actions of a seat for the cards in ``avail`` (W-TURN-1; W-FREE-5 for the Free
    City), ascending: written use by use (build, stage, discard, free), names ascending,
    payments sorted, so no sort is needed."""
    cdef const SevenCity* me = &s.c[seat]
    cdef bint fc = is_fc(s, seat)
    cdef int allp = 1 if (fc or (s.options & SO_ALL_PAIRS)) else 0
    cdef int sl[SV_MAX_PAIRS]
    cdef int sr[SV_MAX_PAIRS]
    cdef int bl[SV_MAX_PAIRS]
    cdef int br[SV_MAX_PAIRS]
    cdef int names[16]
    cdef u8 flag[16]                # 1 chain build, 2 some build offered, 4 free build offered
    cdef int ns = 0, nb, n = 0, k, w, nm, i, nn = 0, stage_ok = 0
    cdef u64 x
    cdef u64 done[2]
    cdef const NameDef* d
    cdef SolveCtx ctx
    done[0] = 0
    done[1] = 0
    for w in range(3):
        x = avail[w]
        while x:
            nm = PH_NAME[64 * w + ctz(x)]
            x &= x - 1
            done[nm >> 6] |= (<u64>1) << (nm & 63)
    for w in range(2):
        x = done[w]
        while x and nn < 16:
            names[nn] = 64 * w + ctz(x)
            x &= x - 1
            nn += 1
    ctx_init(s, seat, allp, &ctx)
    # build
    for i in range(nn):
        nm = names[i]
        flag[i] = 0
        if has_name(me, nm):
            continue
        d = &NAMES[nm]
        if chain_ok(me, nm):
            out[n] = mk_action(U_BUILD, nm, 0, 0)
            n += 1
            flag[i] = 3
            continue
        nb = quick_solve(&ctx, nm, d.coins, bl, br, 0)
        for k in range(nb):
            if d.coins + bl[k] + br[k] <= me.coins:
                out[n] = mk_action(U_BUILD, nm, bl[k], br[k])
                n += 1
                flag[i] = 2
        if me.olympia_free and (d.coins > 0 or nb != 1 or bl[0] + br[0] > 0):
            flag[i] |= 4
    # stage
    if me.stages < n_stages(me):
        ns = quick_solve(&ctx, 0, 0, sl, sr, 1)
        for k in range(ns):
            if sl[k] + sr[k] <= me.coins:
                stage_ok = 1
        if stage_ok:
            for i in range(nn):
                if fc and flag[i] & 1:
                    continue                # W-FREE-5 (a): the chain build is compulsory
                for k in range(ns):
                    if sl[k] + sr[k] <= me.coins:
                        out[n] = mk_action(U_STAGE, names[i], sl[k], sr[k])
                        n += 1
    # discard (the Free City only when it can neither build nor stage, W-FREE-5 c)
    for i in range(nn):
        if not fc or not (flag[i] or stage_ok):
            out[n] = mk_action(U_DISCARD, names[i], 0, 0)
            n += 1
    # Olympia A's free build
    for i in range(nn):
        if flag[i] & 4:
            out[n] = mk_action(U_FREE, names[i], 0, 0)
            n += 1
    return n

cdef int sv_legal_actions(const SevenState* s, int seat, int* out) noexcept nogil:
    """Legal actions of ``seat`` at this node, ascending (empty when it has nothing to decide)."""
    cdef u64 av[3]
    cdef int n = 0, nm, w, phys
    cdef u64 x
    cdef u64 done[2]
    if seat < 0 or seat >= s.n_seats:
        return 0
    if s.phase == SP_TURN:
        if s.commit[seat] >= 0:
            return 0
        avail_hand(s, seat, av)
        return gen_card_actions(s, seat, av, out)
    if s.phase == SP_SEVENTH and seat == s.seventh_seat:
        if SV_UNLIKELY(s.seventh_card >= SV_NUM_PHYS):
            precondition_fault(PRE_FIELDS)
            return 0
        av[0] = 0
        av[1] = 0
        av[2] = 0
        bit_add(av, s.seventh_card)
        return gen_card_actions(s, seat, av, out)
    if s.phase == SP_HALI and seat == s.hali_seat:
        done[0] = 0
        done[1] = 0
        for w in range(3):
            x = s.discard[w]
            while x:
                phys = 64 * w + ctz(x)
                x &= x - 1
                nm = PH_NAME[phys]
                if not has_name(&s.c[seat], nm):
                    done[nm >> 6] |= (<u64>1) << (nm & 63)
        for nm in range(SV_NUM_NAMES):
            if (done[nm >> 6] >> (nm & 63)) & 1:
                out[n] = SV_HALI_BASE + nm
                n += 1
        if not is_fc(s, seat) or n == 0:
            out[n] = SV_HALI_NONE        # the rulebook says "may" (W-WON-6; W-FREE-9)
            n += 1
        return n
    return 0

cdef int sv_pending(const SevenState* s, int* seats) noexcept nogil:
    """Seats with a decision pending at this node (none at chance and terminal nodes)."""
    cdef int n = 0, i
    if s.phase == SP_TURN:
        for i in range(s.n_seats):
            if s.commit[i] < 0:
                seats[n] = i
                n += 1
    elif s.phase == SP_HALI or s.phase == SP_SEVENTH:
        i = s.hali_seat if s.phase == SP_HALI else s.seventh_seat
        if SV_UNLIKELY(i >= s.n_seats):
            precondition_fault(PRE_FIELDS)
            return 0
        seats[0] = i
        n = 1
    return n

# ---------------------------------------------------------------- the cards of an Age
cdef void sv_age_deck(const SevenState* s, int age, u64* out) noexcept nogil:
    """The non-guild cards of ``age`` in this game: the copies marked for the player count
    (W-SETUP-2; the 3-player deck in the Free City variant, W-FREE-1), less every copy of a
    card a study removed, plus the spare copies dealt in their place (``s.added``)."""
    cdef int n = 3 if s.n_players == 2 else s.n_players, w
    for w in range(3):
        out[w] = (AGE_PHYS[age][n][w] & ~s.excluded[w]) | (s.added[w] & AGE_PHYS[age][7][w])

cdef int sv_deal_spares(SevenState* s, u64 seed) noexcept nogil:
    """Replace, Age by Age, each copy of a removed card in the player count's deck by a spare
    copy of the same Age (a copy whose player mark is above the player count, and not of a
    removed card), drawn uniformly with the RNG ``seed``.  So each Age still deals 7 cards a
    player (W-AGE-2) and holds only cards of its Age.  Returns 0, or the Age that has too few
    spare copies (then ``s.added`` is incomplete and the state unusable)."""
    cdef int n = 3 if s.n_players == 2 else s.n_players, age, w, need, i, b
    cdef u64 rng = seed
    cdef u64 spare[3]
    cdef u64 gone[3]
    for w in range(3):
        s.added[w] = 0
    for age in range(1, 4):
        for w in range(3):
            gone[w] = AGE_PHYS[age][n][w] & s.excluded[w]
            spare[w] = AGE_PHYS[age][7][w] & ~AGE_PHYS[age][n][w] & ~s.excluded[w]
        need = b3_count(gone)
        if need > b3_count(spare):
            return age
        for i in range(need):
            b = b3_select(spare, sv_rng_below(&rng, b3_count(spare)))
            bit_del(spare, b)
            bit_add(s.added, b)
    return 0

cdef inline bint guild_out(const SevenState* s, int g) noexcept nogil:
    """A guild a study removed from the game: never drawn (W-SETUP-3)."""
    return bit_has(s.excluded, GUILD_PHYS[g])

# ---------------------------------------------------------------- chance
cdef bint sv_is_chance(const SevenState* s) noexcept nogil:
    return s.phase <= SP_DRAW

cdef inline u8 forced_pool(const SevenState* s) noexcept nogil:
    """Boards forced on seats that have not received theirs yet (kept out of the draws)."""
    cdef u8 m = 0
    cdef int i
    for i in range(s.setup_pos, s.n_seats):
        if s.forced_board[i] != 255:
            m |= 1 << s.forced_board[i]
    return m

cdef int sv_chance_outcomes(const SevenState* s, int* out, double* prob) noexcept nogil:
    """Chance outcomes and their exact probabilities (W-CHANCE-1)."""
    cdef int n = 0, b, sd, nm, k, total, fb, fs, nb = 0, nsd
    cdef u8 pool
    cdef u64 x[3]
    if s.phase == SP_BOARD:
        fb = s.forced_board[s.setup_pos]
        fs = s.forced_side[s.setup_pos]
        pool = forced_pool(s)
        for b in range(SV_NUM_BOARDS):
            if (s.boards_used >> b) & 1:
                continue
            if fb != 255 and b != fb:
                continue
            if fb == 255 and (pool >> b) & 1:
                continue
            for sd in range(2):
                if fs == 255 or sd == fs:
                    out[n] = SV_CH_BOARD_BASE + 2 * b + sd
                    n += 1
        for k in range(n):
            prob[k] = 1.0 / n
        return n
    if s.phase == SP_GUILD:
        for b in range(SV_NUM_GUILDS):
            if not (s.guilds >> b) & 1 and not guild_out(s, b):
                out[n] = SV_CH_GUILD_BASE + b
                n += 1
        for k in range(n):
            prob[k] = 1.0 / n
        return n
    if s.phase == SP_DEAL or s.phase == SP_DRAW:
        total = b3_count(s.deck)
        for nm in range(SV_NUM_NAMES):
            x[0] = s.deck[0] & NAME_PHYS[nm][0]
            x[1] = s.deck[1] & NAME_PHYS[nm][1]
            x[2] = s.deck[2] & NAME_PHYS[nm][2]
            k = b3_count(x)
            if k:
                out[n] = SV_CH_CARD_BASE + nm
                prob[n] = <double>k / total
                n += 1
        return n
    return 0

cdef int sv_sample_chance(const SevenState* s, u64* rng) noexcept nogil:
    """One chance outcome drawn with its exact probability."""
    cdef int out[16]
    cdef double prob[16]
    cdef int n, b
    if s.phase == SP_DEAL or s.phase == SP_DRAW:
        n = b3_count(s.deck)
        if SV_UNLIKELY(n <= 0):
            return -precondition_fault(PRE_NO_CHANCE)
        b = b3_select(s.deck, sv_rng_below(rng, n))
        return SV_CH_CARD_BASE + PH_NAME[b]
    n = sv_chance_outcomes(s, out, prob)
    if SV_UNLIKELY(n <= 0):
        return -precondition_fault(PRE_NO_CHANCE)
    return out[sv_rng_below(rng, n)]

# ---------------------------------------------------------------- flow
cdef void update_seen(SevenState* s) noexcept nogil:
    """Each player remembers the hand it holds now (W-INFO-2)."""
    cdef int p, k, n = s.n_players, t = s.turn - 1
    for p in range(n):
        if n == 2:
            k = p if (t & 1) == 0 else 1 - p
        elif s.age == 2:
            k = (p + t) % n
        else:
            k = (p - t % n + n) % n
        s.seen[p][k][0] = s.c[p].hand[0]
        s.seen[p][k][1] = s.c[p].hand[1]
        s.seen[p][k][2] = s.c[p].hand[2]

cdef void start_turn(SevenState* s) noexcept nogil:
    cdef int i
    for i in range(SV_MAX_SEATS):
        s.commit[i] = -1
        s.commit_card[i] = SV_NO_CARD
    s.hali_trigger = 0
    if s.n_players == 2:
        s.phase = SP_DRAW
    else:
        s.phase = SP_TURN
        update_seen(s)

cdef void start_age(SevenState* s, int age) noexcept nogil:
    cdef int g, i
    cdef SevenCity* c
    s.age = age
    s.turn = 0
    s.deal_pos = 0
    sv_age_deck(s, age, s.deck)
    if age == 3:
        for g in range(SV_NUM_GUILDS):
            if (s.guilds >> g) & 1:
                bit_add(s.deck, GUILD_PHYS[g])
    for i in range(s.n_seats):
        c = &s.c[i]
        c.olympia_free = 1 if (c.board == B_OLYMPIA and c.side == 0 and c.stages >= 2) else 0
    memset(s.seen, 0, sizeof(s.seen))
    s.phase = SP_DEAL

cdef void end_age(SevenState* s) noexcept nogil:
    """Military (W-MIL-1), then the next Age or the end (W-AGE-1)."""
    cdef int i, j, q
    cdef int sh[7]
    for i in range(s.n_seats):
        sh[i] = s.c[i].shields
    for i in range(s.n_seats):
        for j in range(2):
            q = left_of(s, i) if j == 0 else right_of(s, i)
            if sh[i] > sh[q]:
                s.c[i].mil_vp += MIL_WIN[s.age]
            elif sh[i] < sh[q]:
                s.c[i].mil_vp -= 1
                s.c[i].defeats += 1
    s.seventh_seat = 255
    s.seventh_card = SV_NO_CARD
    if s.age < 3:
        start_age(s, s.age + 1)
    else:
        s.phase = SP_OVER

cdef void pass_hands(SevenState* s) noexcept nogil:
    """W-AGE-3 (W-FREE-7: the two players swap hands)."""
    cdef u64 h[7][3]
    cdef int i, j, n = s.n_players
    for i in range(n):
        for j in range(3):
            h[i][j] = s.c[i].hand[j]
    for i in range(n):
        if n == 2:
            j = 1 - i
        elif s.age == 2:
            j = (i + n - 1) % n
        else:
            j = (i + 1) % n
        s.c[j].hand[0] = h[i][0]
        s.c[j].hand[1] = h[i][1]
        s.c[j].hand[2] = h[i][2]

cdef void after_turn(SevenState* s) noexcept nogil:
    """W-TURN-3 step 6."""
    if s.turn < 6:
        pass_hands(s)
        s.turn += 1
        start_turn(s)
    elif s.seventh_card != SV_NO_CARD:
        s.phase = SP_SEVENTH
    else:
        end_age(s)

cdef void after_resolution(SevenState* s) noexcept nogil:
    """W-TURN-3 step 5: the Halikarnassus pick, if a stage with that power was built."""
    cdef int i, q
    cdef int out[SV_MAX_LEGAL]
    if s.hali_trigger:
        i = ctz(s.hali_trigger)
        s.hali_trigger = 0
        s.hali_seat = i
        s.phase = SP_HALI
        if sv_legal_actions(s, i, out) > 1 or (is_fc(s, i) and out[0] != SV_HALI_NONE):
            # its decider sees the whole pile (W-INFO-3)
            q = sv_decider(s, i)
            s.c[q].facedown[0] |= s.discard[0]
            s.c[q].facedown[1] |= s.discard[1]
            s.c[q].facedown[2] |= s.discard[2]
            return
        s.hali_seat = 255
    after_turn(s)

cdef inline bint keeps_seventh(const SevenState* s, int seat) noexcept nogil:
    cdef const SevenCity* c = &s.c[seat]
    if c.board != B_BABYLON or c.side != 1:
        return False
    if c.seventh:
        return True
    return s.commit[seat] >= 0 and act_use(s.commit[seat]) == U_STAGE and c.stages == 1

cdef void resolve_turn(SevenState* s) noexcept nogil:
    """All committed actions resolve together, in the order of W-TURN-3."""
    cdef int income[7]
    cdef int i, a, use, nm, l, r, h, phys, q, w
    cdef SevenCity* c
    cdef u64 x
    memset(income, 0, sizeof(income))
    # 1. the chosen cards leave the hands; turn 6: the other cards are discarded (W-TURN-6)
    for i in range(s.n_seats):
        bit_del(s.c[holder(s, i)].hand, s.commit_card[i])
    if s.turn == 6:
        for i in range(s.n_players):
            c = &s.c[i]
            for w in range(3):
                x = c.hand[w]
                while x:
                    phys = 64 * w + ctz(x)
                    x &= x - 1
                    if keeps_seventh(s, i):
                        s.seventh_seat = i
                        s.seventh_card = phys          # stays in the hand until played
                    else:
                        bit_del(c.hand, phys)
                        bit_add(s.discard, phys)
                        bit_add(c.facedown, phys)
        if s.n_players == 2:
            phys = b3_first(s.deck)                    # the pile's last card (W-FREE-8)
            if phys >= 0:
                if keeps_seventh(s, 2):
                    s.seventh_seat = 2
                    s.seventh_card = phys              # stays in the pile until played
                else:
                    bit_del(s.deck, phys)
                    bit_add(s.discard, phys)
    # 2. payments, out of the coins held at the start of the turn
    for i in range(s.n_seats):
        a = s.commit[i]
        use = act_use(a)
        nm = act_name(a)
        l = (a >> 4) & 15
        r = a & 15
        c = &s.c[i]
        if use == U_BUILD:
            if not chain_ok(c, nm):
                c.coins -= NAMES[nm].coins + l + r
        elif use == U_STAGE:
            c.coins -= l + r
        income[left_of(s, i)] += l
        income[right_of(s, i)] += r
    # 3. placement
    for i in range(s.n_seats):
        a = s.commit[i]
        use = act_use(a)
        nm = act_name(a)
        phys = s.commit_card[i]
        c = &s.c[i]
        q = sv_decider(s, i)
        if use == U_BUILD or use == U_FREE:
            add_card(c, nm)
            bit_add(s.built, phys)
            if use == U_FREE:
                c.olympia_free = 0
        elif use == U_STAGE:
            if SV_UNLIKELY(c.stages >= n_stages(c)):
                broken(s, PRE_STAGE)
                return
            bit_add(s.tucked, phys)
            bit_add(s.c[q].facedown, phys)
            if STAGES[c.board][c.side][c.stages].flags & ST_HALI:
                s.hali_trigger |= 1 << i
            add_stage(c)
        else:
            bit_add(s.discard, phys)
            bit_add(s.c[q].facedown, phys)
            income[i] += 3
    # 4. income
    for i in range(s.n_seats):
        a = s.commit[i]
        use = act_use(a)
        if use == U_BUILD or use == U_FREE:
            income[i] += card_coins(s, i, act_name(a))
        elif use == U_STAGE:
            c = &s.c[i]
            income[i] += STAGES[c.board][c.side][c.stages - 1].coins
    for i in range(s.n_seats):
        s.c[i].coins += income[i]
        s.commit[i] = -1
        s.commit_card[i] = SV_NO_CARD
    after_resolution(s)

cdef void play_seventh(SevenState* s, int a) noexcept nogil:
    """Babylon B's 7th card, a one-player step after turn 6 (W-WON-5): its coins move at once."""
    cdef int i = s.seventh_seat, use = act_use(a), nm = act_name(a)
    cdef int l = (a >> 4) & 15, r = a & 15, phys = s.seventh_card, q = sv_decider(s, i)
    cdef SevenCity* c = &s.c[i]
    if i == 2 and s.n_players == 2:
        bit_del(s.deck, phys)
    else:
        bit_del(c.hand, phys)
    if use == U_BUILD:
        if not chain_ok(c, nm):
            c.coins -= NAMES[nm].coins + l + r
        s.c[left_of(s, i)].coins += l
        s.c[right_of(s, i)].coins += r
        add_card(c, nm)
        bit_add(s.built, phys)
        c.coins += card_coins(s, i, nm)
    elif use == U_STAGE:
        if SV_UNLIKELY(c.stages >= n_stages(c)):
            broken(s, PRE_STAGE)
            return
        c.coins -= l + r
        s.c[left_of(s, i)].coins += l
        s.c[right_of(s, i)].coins += r
        bit_add(s.tucked, phys)
        bit_add(s.c[q].facedown, phys)
        add_stage(c)
        c.coins += STAGES[c.board][c.side][c.stages - 1].coins
    else:
        bit_add(s.discard, phys)
        bit_add(s.c[q].facedown, phys)
        c.coins += 3
    s.seventh_card = SV_NO_CARD
    end_age(s)

cdef void apply_chance(SevenState* s, int a) noexcept nogil:
    """A chance outcome (W-CHANCE-1).  An outcome outside the phase's range, or a card not in
    the deck, is a broken precondition (the game ends in release)."""
    cdef int b, sd, nm, phys
    cdef SevenCity* c
    if s.phase == SP_BOARD:
        b = (a - SV_CH_BOARD_BASE) >> 1
        sd = (a - SV_CH_BOARD_BASE) & 1
        if SV_UNLIKELY(a < SV_CH_BOARD_BASE or a >= SV_CH_GUILD_BASE or s.setup_pos >= s.n_seats
                       or (s.boards_used >> b) & 1):
            broken(s, PRE_ACTION)
            return
        c = &s.c[s.setup_pos]
        c.board = b
        c.side = sd
        s.boards_used |= 1 << b
        c.fixed[BOARD_RES[b]] += 1
        s.setup_pos += 1
        if s.setup_pos == s.n_seats:
            s.setup_pos = 0
            s.phase = SP_GUILD
    elif s.phase == SP_GUILD:
        if SV_UNLIKELY(a < SV_CH_GUILD_BASE or a >= SV_CH_CARD_BASE):
            broken(s, PRE_ACTION)
            return
        s.guilds |= 1 << (a - SV_CH_GUILD_BASE)
        s.setup_pos += 1
        if s.setup_pos == (5 if s.n_players == 2 else s.n_players + 2):
            s.setup_pos = 0
            start_age(s, 1)
    else:
        nm = a - SV_CH_CARD_BASE
        phys = first_of_name(s.deck, nm) if 0 <= nm < SV_NUM_NAMES else -1
        if SV_UNLIKELY(phys < 0 or (s.phase == SP_DEAL and s.deal_pos >= 7 * s.n_players)):
            broken(s, PRE_ACTION)
            return
        bit_del(s.deck, phys)
        if s.phase == SP_DEAL:
            bit_add(s.c[s.deal_pos // 7].hand, phys)
            s.deal_pos += 1
            if s.deal_pos == 7 * s.n_players:
                s.turn = 1
                start_turn(s)
        else:
            bit_add(s.c[controller(s)].hand, phys)
            s.phase = SP_TURN
            update_seen(s)

cdef void sv_apply(SevenState* s, int seat, int a) noexcept nogil:
    """Apply a legal action: a chance outcome (seat ignored), a turn commitment of ``seat``
    (the turn resolves when the last seat commits), a Halikarnassus pick or a 7th card.
    The action must be legal (the Python layer checks); one out of its phase's range, or of a
    card that is not there, is a broken precondition (the debug build aborts, the release build
    ends the game)."""
    cdef u64 av[3]
    cdef int code, nm, phys
    if s.phase <= SP_DRAW:
        apply_chance(s, a)
    elif s.phase == SP_TURN:
        if SV_UNLIKELY(seat < 0 or seat >= s.n_seats or a < 0 or a >= SV_NUM_TURN_ACTIONS):
            broken(s, PRE_ACTION)
            return
        avail_hand(s, seat, av)
        phys = first_of_name(av, act_name(a))
        if phys < 0 or s.commit[seat] >= 0:
            return                  # not a card of the hand: refused (callers check legality)
        s.commit[seat] = a
        s.commit_card[seat] = phys
        s.n_moves += 1
        for code in range(s.n_seats):
            if s.commit[code] < 0:
                break
        else:
            resolve_turn(s)
    elif s.phase == SP_HALI:
        if SV_UNLIKELY(seat != s.hali_seat or seat >= s.n_seats or a < SV_HALI_BASE
                       or a > SV_HALI_NONE):
            broken(s, PRE_ACTION)
            return
        if a != SV_HALI_NONE:
            nm = a - SV_HALI_BASE
            phys = first_of_name(s.discard, nm)
            if SV_UNLIKELY(phys < 0):
                broken(s, PRE_ACTION)
                return
            bit_del(s.discard, phys)
            bit_add(s.built, phys)
            add_card(&s.c[seat], nm)
            s.c[seat].coins += card_coins(s, seat, nm)
        s.n_moves += 1
        s.hali_seat = 255
        after_turn(s)
    elif s.phase == SP_SEVENTH:
        if SV_UNLIKELY(seat != s.seventh_seat or seat >= s.n_seats
                       or s.seventh_card >= SV_NUM_PHYS or a < 0 or a >= SV_NUM_TURN_ACTIONS):
            broken(s, PRE_ACTION)
            return
        s.n_moves += 1
        play_seventh(s, a)
    if DUEL_DEBUG:
        code = sv_state_check(s)
        if code:
            fprintf(stderr, b"seven: state_check failed with code %d after action %d\n", code, a)
            abort()

cdef void sv_settle(SevenState* s, u64* rng) noexcept nogil:
    """Sample chance nodes until a decision node or the end (at most MAX_CHANCE_RUN of them:
    more is a broken precondition)."""
    cdef int k = 0
    while s.phase <= SP_DRAW:
        k += 1
        if SV_UNLIKELY(k > MAX_CHANCE_RUN):
            broken(s, PRE_SETTLE)
            return
        sv_apply(s, -1, sv_sample_chance(s, rng))

cdef void sv_init(SevenState* s, int players, u64 seed, int options) noexcept nogil:
    """A new game before any chance outcome: every seat to receive a board (W-SETUP)."""
    cdef int i
    memset(s, 0, sizeof(SevenState))
    s.rng = seed
    s.n_players = players
    s.n_seats = 3 if players == 2 else players
    s.options = options
    s.phase = SP_BOARD
    s.hali_seat = 255
    s.seventh_seat = 255
    s.seventh_card = SV_NO_CARD
    for i in range(SV_MAX_SEATS):
        s.commit[i] = -1
        s.commit_card[i] = SV_NO_CARD
        s.forced_board[i] = 255
        s.forced_side[i] = 255
        s.c[i].coins = 3 if i < s.n_seats else 0

# ---------------------------------------------------------------- scoring (W-END, W-SCI)
cdef int science_vp(int c, int g, int t, int w) noexcept nogil:
    """W-SCI-3 with w wildcards placed to maximise the score."""
    cdef int best = 0, i, j, a, b, d, v, m
    for i in range(w + 1):
        for j in range(w + 1 - i):
            a = c + i
            b = g + j
            d = t + w - i - j
            m = a if a < b else b
            m = m if m < d else d
            v = a * a + b * b + d * d + 7 * m
            if v > best:
                best = v
    return best

cdef int guild_vp(const SevenState* s, int seat, int nm, int copied) noexcept nogil:
    """VP of guild ``nm`` counted from ``seat`` (W-CARD-8); ``copied``: not in the city (W-WON-8)."""
    cdef const NameDef* d = &NAMES[nm]
    cdef const SevenCity* me = &s.c[seat]
    cdef const SevenCity* lc = &s.c[left_of(s, seat)]
    cdef const SevenCity* rc = &s.c[right_of(s, seat)]
    if d.guild == 1:
        return d.gvp * (lc.colour[d.gcolour] + rc.colour[d.gcolour])
    if d.guild == 2:
        return lc.defeats + rc.defeats
    if d.guild == 3:
        return me.stages + lc.stages + rc.stages
    if d.guild == 4:
        return me.colour[C_BROWN] + me.colour[C_GREY] + me.colour[C_PURPLE] + copied
    return 0

cdef void seat_scores(const SevenState* s, int i, int* v) noexcept nogil:
    """VP by category of seat ``i`` into v[0..7]: military, treasury, wonder, civilian,
    commercial, guilds, science, total (W-END-1)."""
    cdef int nm, k, best, sci, gv, base_sci, opt_g, opt_s, w
    cdef const SevenCity* c = &s.c[i]
    cdef const SevenCity* nb
    cdef u64 x
    v[0] = c.mil_vp
    v[1] = c.coins // 3
    v[2] = 0
    for k in range(c.stages):
        v[2] += STAGES[c.board][c.side][k].vp
    v[3] = 0
    v[4] = 0
    v[5] = 0
    for w in range(2):
        x = c.city[w]
        while x:
            nm = 64 * w + ctz(x)
            x &= x - 1
            v[3] += NAMES[nm].vp
            if NAMES[nm].special == 3:
                v[4] += c.colour[C_BROWN]
            elif NAMES[nm].special == 4:
                v[4] += c.colour[C_YELLOW]
            elif NAMES[nm].special == 5:
                v[4] += 2 * c.colour[C_GREY]
            elif NAMES[nm].special == 6:
                v[4] += c.stages
            if nm >= SV_FIRST_GUILD:
                v[5] += guild_vp(s, i, nm, 0)
    base_sci = science_vp(c.sci[0], c.sci[1], c.sci[2], c.wild)
    v[6] = base_sci
    if c.copy_guild:
        # Olympia B3: the copy that maximises guilds + science (W-WON-8, W-END-3)
        best = 0
        opt_g = 0
        opt_s = base_sci
        for k in range(2):
            nb = &s.c[left_of(s, i) if k == 0 else right_of(s, i)]
            for nm in range(SV_FIRST_GUILD, SV_NUM_NAMES):
                if has_name(nb, nm) and not has_name(c, nm):
                    gv = guild_vp(s, i, nm, 1)
                    sci = base_sci
                    if NAMES[nm].guild == 5:
                        sci = science_vp(c.sci[0], c.sci[1], c.sci[2], c.wild + 1)
                    if gv + sci - base_sci > best:
                        best = gv + sci - base_sci
                        opt_g = gv
                        opt_s = sci
        v[5] += opt_g
        v[6] = opt_s
    v[7] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6]

cdef void sv_scores(const SevenState* s, int* vp) noexcept nogil:
    """VP by category for every seat: vp[seat * 8 + k], k = military, treasury, wonder,
    civilian, commercial, guilds, science, total (W-END-1)."""
    cdef int i
    for i in range(s.n_seats):
        seat_scores(s, i, vp + i * SV_NUM_CAT)

cdef int sv_winners(const SevenState* s) noexcept nogil:
    """Bitmask of the winning players: highest total, then most coins; still tied: shared
    (W-END-2).  The Free City never wins (W-FREE-11)."""
    cdef int vp[SV_MAX_SEATS * SV_NUM_CAT]
    cdef int i, best = -1000, coins = -1, mask = 0
    sv_scores(s, vp)
    for i in range(s.n_players):
        if vp[i * 8 + 7] > best or (vp[i * 8 + 7] == best and s.c[i].coins > coins):
            best = vp[i * 8 + 7]
            coins = s.c[i].coins
            mask = 1 << i
        elif vp[i * 8 + 7] == best and s.c[i].coins == coins:
            mask |= 1 << i
    return mask

# ---------------------------------------------------------------- invariants
include "checks.pxi"

# ---------------------------------------------------------------- the Python face and the agents
include "api.pxi"
include "search.pxi"
