# cython: language_level=3
"""The 7 Wonders Architects rules engine (2..7 players, base game; RULES-ARCH.md).

The state is one flat C struct (:c:type:`ArchState`, see ``engine.pxd`` for every field, its
unit and range) of small count vectors, copied by assignment (well under 1 KB at 7 players).
No deck order is stored: a card's kind is drawn when it first becomes visible, uniformly from
the public make-up of its deck, which is exactly the law of the shuffled physical decks
(A-CHANCE-1).  Chance is explicit, with exact probabilities, or sampled from the state's
splitmix64 RNG (the default), so that seed + decisions are the whole game.

A turn is resolved in the canonical order of A-ORDER-1 (or the player's order under
``free_order``, A-ORDER-4).  The engine walks it with :c:func:`ar_advance`: pending chance
first (revealed tops, the token row, draws), then the task in progress (the main pick, a
token to take, a payment, a wonder power), then the canonical steps (pending pick, science,
construction), then the end of the turn (battle, end of game, next seat).  It stops at a
decision with two legal actions or more, at a chance node (explicit chance only) or at the
end; a decision with a single legal action is applied without asking (A-DEC-2).

Everything hot is ``noexcept nogil`` and allocates nothing.
"""
from libc.string cimport memset, memcmp, memcpy
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort

from duelcore.architects import data as _data

from duelcore.common.debug cimport DUEL_DEBUG, fault

DEBUG = bool(DUEL_DEBUG)

include "common.pxi"

# ---------------------------------------------------------------- tables (filled at import)
cdef u8 DECK_MAKE[8][14]        # [wonder 0..6 | 7 central][kind]: cards of each deck
cdef u8 STAGE_VP[7][5]
cdef u8 POWER_MASK[7]           # bit s: stage s carries the wonder's power
cdef u8 PREREQ[7][5]            # bit mask of the stages stage s needs
cdef u8 COST_UNITS[5]
cdef u8 COST_SAME[5]            # 1: "k identical", 0: "k different"
cdef u8 TOKEN_COPIES[14]
cdef u8 TRIG[14]                # kind -> the extra-card token type it triggers, AR_NONE
cdef u8 TRIG_I[14]              # the same, 0 for AR_NONE, and TRIG_M 255 where TRIG is a
cdef u8 TRIG_M[14]              #   type, 0 for AR_NONE: p.tok[TRIG_I[k]] & TRIG_M[k] tests it
cdef u8 HORNS[14]               # horns of a card kind (A-MIL-2)
cdef u8 CONFLICT[8]             # conflict tokens by player count
cdef u8 PAY_G[231][5]           # grey cards of each resource in payment id
cdef u64 PAY_GW[231]            # the same packed, resource r in byte r (payments)
cdef u8 PAY_C[231]              # coin cards (a doubled coin is one of them)
cdef u8 PAY_D[231]              # 1: one coin counts 2 (Economy)
cdef u8 PAY_VAL[231]            # value: greys + coins + doubled
cdef u8 PAY_KINDS[231]          # distinct grey kinds in it
cdef u8 PAY_MAXG[231]           # largest count of one grey kind
cdef u8 PAY_LO[6]               # payment ids of value v are PAY_LO[v] .. PAY_LO[v + 1] - 1
cdef u8 PAY_HI[6]
cdef u8 AVAIL[7][32]            # [wonder][built mask]: the available stages (A-BUILD-2)
cdef u8 CAND[5][3][160]         # [stage][0 plain, 1 Engineering]: candidate payment ids,
cdef u8 N_CAND[5][3]            #   ascending (the valid ones are those the seat can pay)
cdef u8 CAND_D1[5][3]           # index in CAND of the first candidate with a doubled coin
cdef u8 OK_DIFF[8]              # [units 0..7]: bit st for each "k different" stage st
cdef u8 OK_SAME[8]              #   with k <= units; the same for "k identical" stages

cdef enum:
    ALL_STAGES = 31

cdef extern from *:
    """
    #define AR_GREY_BYTES 0xFFFFFFFFFFULL
    #define AR_GREY_HI 0x8080808080ULL
    #define AR_BYTE_ONES 0x0101010101010101ULL
    #define AR_BYTE_HI 0x8080808080808080ULL
    """
    const u64 GREY_BYTES "AR_GREY_BYTES"    # bytes 0..4 of a packed tableau: the greys
    const u64 GREY_HI "AR_GREY_HI"          # bit 7 of each of those bytes
    const u64 BYTE_ONES "AR_BYTE_ONES"      # 1 in every byte
    const u64 BYTE_HI "AR_BYTE_HI"          # bit 7 of every byte


def _payment_table():
    """Every payment multiset of value 2..4 (A-BUILD-3): (greys per resource, coin cards,
    doubled), sorted by (value, doubled, coins, greys); the index is the payment id."""
    out = []
    import itertools
    for v in (2, 3, 4):
        for d in (0, 1):
            for c in range(0, v + 1):
                if c < d or c + d > v:
                    continue
                rest = v - c - d
                for g in itertools.product(range(rest + 1), repeat=5):
                    if sum(g) == rest:
                        out.append((v, d, c, tuple(g)))
    out.sort()
    return [(g, c, d) for v, d, c, g in out]


PAYMENTS = _payment_table()


def _build_tables():
    cdef int w, k, s, t, i, r
    names = list(_data.WONDERS)
    for w, name in enumerate(names):
        for k in range(14):
            DECK_MAKE[w][k] = _data.DECKS[name][k]
        POWER_MASK[w] = 0
        for s in range(5):
            STAGE_VP[w][s] = _data.STAGE_VP[name][s]
            if _data.STAGES[s] in _data.POWER_STAGES[name]:
                POWER_MASK[w] |= 1 << s
            PREREQ[w][s] = 0
            for q in _data.PREREQUISITES[name][s]:
                PREREQ[w][s] |= 1 << _data.STAGES.index(q)
    for k in range(14):
        DECK_MAKE[7][k] = _data.CENTRAL[k]
    for s in range(5):
        COST_UNITS[s] = _data.STAGE_COSTS[s][0]
        COST_SAME[s] = 1 if _data.STAGE_COSTS[s][1] else 0
    for t, name in enumerate(_data.TOKENS):
        TOKEN_COPIES[t] = _data.TOKEN_COPIES[name]
    for k in range(14):
        TRIG[k] = AR_NONE
    for name, kinds in _data.EXTRA_CARD_TRIGGERS.items():
        for kind in kinds:
            TRIG[_data.KINDS.index(kind)] = _data.TOKENS.index(name)
    for k in range(14):
        TRIG_I[k] = 0 if TRIG[k] == AR_NONE else TRIG[k]
        TRIG_M[k] = 0 if TRIG[k] == AR_NONE else 255
        HORNS[k] = 1 if k == K_RED1 else (2 if k == K_RED2 else 0)
    for i in range(8):
        CONFLICT[i] = _data.CONFLICT_TOKENS.get(i, 0)
    assert len(PAYMENTS) == AR_NUM_PAYMENTS, len(PAYMENTS)
    for v in range(6):
        PAY_LO[v] = 0
        PAY_HI[v] = 0
    for i, (g, c, d) in enumerate(PAYMENTS):
        PAY_GW[i] = 0
        for r in range(5):
            PAY_G[i][r] = g[r]
            PAY_GW[i] |= (<u64>g[r]) << (8 * r)
        PAY_C[i] = c
        PAY_D[i] = d
        PAY_VAL[i] = sum(g) + c + d
        PAY_KINDS[i] = sum(1 for x in g if x)
        PAY_MAXG[i] = max(g)
    for v in (2, 3, 4):
        ids = [i for i in range(len(PAYMENTS)) if PAY_VAL[i] == v]
        PAY_LO[v] = min(ids)
        PAY_HI[v] = max(ids) + 1
        assert ids == list(range(PAY_LO[v], PAY_HI[v]))
    for s in range(5):
        k = COST_UNITS[s]
        for mode in range(2):
            ids = [i for i in range(PAY_LO[k], PAY_HI[k])
                   if mode == 1 or ((PAY_KINDS[i] <= 1) if COST_SAME[s] else (PAY_MAXG[i] <= 1))]
            N_CAND[s][mode] = len(ids)
            CAND_D1[s][mode] = len(ids)
            for i, pid in enumerate(ids):
                CAND[s][mode][i] = pid
                if PAY_D[pid] and CAND_D1[s][mode] == len(ids):
                    CAND_D1[s][mode] = i
            assert all(PAY_D[x] == (j >= CAND_D1[s][mode]) for j, x in enumerate(ids))
            assert all(PAY_C[ids[j]] <= PAY_C[ids[j + 1]] for j in range(len(ids) - 1)
                       if PAY_D[ids[j]] == PAY_D[ids[j + 1]])
    for i in range(8):
        OK_DIFF[i] = 0
        OK_SAME[i] = 0
        for s in range(5):
            if COST_UNITS[s] <= i:
                if COST_SAME[s]:
                    OK_SAME[i] |= 1 << s
                else:
                    OK_DIFF[i] |= 1 << s
    assert max(COST_UNITS[s] for s in range(5)) <= 6     # offered_stages caps units at 6 + 1
    for w in range(7):
        for b in range(32):
            AVAIL[w][b] = 0
            for s in range(5):
                if not (b >> s) & 1 and (PREREQ[w][s] & ~b) == 0:
                    AVAIL[w][b] |= 1 << s


_build_tables()

# ---------------------------------------------------------------- small helpers
cdef inline int left_deck(const ArchState* s, int i) noexcept nogil:
    """Seat i's left deck: its own wonder deck D_i (Terms)."""
    return i


cdef inline int right_deck(const ArchState* s, int i) noexcept nogil:
    """Seat i's right deck: its right neighbour's deck D_{i-1} (Terms).  Branch-free."""
    return i - 1 + (s.n_players & -(<int>(i == 0)))


cdef inline int pick_deck(const ArchState* s, int which) noexcept nogil:
    """Deck id of PICK 0 left, 1 right, 2 central for the active seat.  Branch-free (a
    random player's pick is a coin toss for the branch predictor)."""
    cdef int a = s.active
    return ((a & -(<int>(which == 0))) | (right_deck(s, a) & -(<int>(which == 1)))
            | (AR_CENTRAL & -(<int>(which == 2))))


cdef inline bint any_deck(const ArchState* s) noexcept nogil:
    """The active seat has an available deck (A-TURN-3)."""
    return (s.d[s.active].n > 0 or s.d[right_deck(s, s.active)].n > 0
            or s.d[AR_CENTRAL].n > 0)


cdef inline int sum14(const u8* v) noexcept nogil:
    cdef int k, t = 0
    for k in range(14):
        t += v[k]
    return t


cdef inline int pool_index(const u8* cnt, int r) noexcept nogil:
    """The kind of the card (or token) of index r (0 <= r < the pool's size) in a pool of
    14 counts listed kind by kind: the smallest k with cnt[0] + ... + cnt[k] > r, what the
    scan ``while r >= cnt[k]: r -= cnt[k]; k += 1`` gives.  Branch-free: the 14 prefix sums
    in bytes (two multiplies), then the count of those <= r (every pool holds at most 60,
    so no byte carries or borrows)."""
    cdef u64 lo, hi, plo, phi, rr
    memcpy(&lo, cnt, 8)                     # counts 0..7
    memcpy(&hi, cnt + 6, 8)                 # counts 6..13 (no read past the 14)
    hi >>= 16                               # counts 8..13 in bytes 0..5, bytes 6, 7 zero
    plo = lo * BYTE_ONES                    # byte j: cnt[0] + ... + cnt[j]
    phi = hi * BYTE_ONES + (plo >> 56) * BYTE_ONES  # byte j: cnt[0] + ... + cnt[8 + j]
    rr = (<u64>r * BYTE_ONES) | BYTE_HI     # byte: 128 + r, minus a prefix keeps bit 7 iff
    return popcount((rr - plo) & BYTE_HI) + popcount((rr - phi) & BYTE_HI)  # prefix <= r


cdef inline int tokens_left(const ArchState* s) noexcept nogil:
    """Progress tokens still to take: the face-up row and the stack (A-SCI-4)."""
    return s.n_row + s.n_stack


cdef inline void pend_pop(ArchState* s) noexcept nogil:
    """Remove the first item of the pending list (unused slots stay 0)."""
    cdef int i
    for i in range(1, s.n_pend):
        s.pend[i - 1] = s.pend[i]
    s.n_pend -= 1
    s.pend[s.n_pend] = 0


cdef inline bint is_pending(const ArchState* s, int t) noexcept nogil:
    cdef int i
    for i in range(s.n_pend):
        if s.pend[i] == t:
            return True
    return False


cdef int ar_shields(const ArchState* s, int i) noexcept nogil:
    """Shields of seat i (A-MIL-1): red cards + Rhodes's S1 and S4 + 2 with Tactics."""
    cdef const ArchSeat* p = &s.p[i]
    cdef int sh = p.tab[K_RED0] + p.tab[K_RED1] + p.tab[K_RED2] + 2 * p.tok[T_TACTICS]
    if p.wonder == W_RHODES:
        sh += (p.built & 1) + ((p.built >> 3) & 1)
    return sh


cdef inline int available_stages(const ArchState* s, int i) noexcept nogil:
    """Bit mask of seat i's available stages (A-BUILD-2)."""
    cdef const ArchSeat* p = &s.p[i]
    if p.wonder >= AR_NUM_WONDERS:
        return 0
    return AVAIL[p.wonder][p.built & 31]


cdef inline int reveal_mask(const ArchState* s) noexcept nogil:
    """The wonder decks whose new top is still to be revealed: no top, cards left, and not
    the deck of an open Halicarnassus window (derived; s.reveal keeps it)."""
    cdef int i, m = 0
    for i in range(s.n_players):
        if s.d[i].top == AR_NONE and s.d[i].n > 0 and not (
                s.task == TK_HALI_KEEP and s.hali_deck == i):
            m |= 1 << i
    return m


cdef inline bint eco_ready(const ArchState* s) noexcept nogil:
    """Economy can double a coin in the active seat's next payment (A-BUILD-8)."""
    cdef const ArchSeat* p = &s.p[s.active]
    return p.tok[T_ECONOMY] > 0 and not (s.used >> T_ECONOMY) & 1 and p.tab[K_COIN] > 0


cdef inline bint eng_ready(const ArchState* s) noexcept nogil:
    """Engineering relaxes the active seat's next payment (A-BUILD-9)."""
    return s.p[s.active].tok[T_ENGINEERING] > 0 and not (
        (s.options & OP_ENGINEERING_ONCE) and s.eng_used)


cdef inline bint affordable(const ArchState* s, int st, int e) noexcept nogil:
    """A-BUILD-4 for the active seat: stage st with e (0 or 1) extra unit from Economy."""
    cdef const ArchSeat* p = &s.p[s.active]
    cdef int k = COST_UNITS[st], r, g, have = p.tab[K_COIN] + e
    if eng_ready(s):
        for r in range(5):
            have += p.tab[r]
    elif COST_SAME[st]:
        g = 0
        for r in range(5):
            if p.tab[r] > g:
                g = p.tab[r]
        have += g
    else:
        for r in range(5):
            if p.tab[r]:
                have += 1
    return have >= k


cdef int offered_stages(const ArchState* s, int* optional) noexcept nogil:
    """The stages the active seat must (or, under economy_forces_build off, may) build now
    (A-BUILD-4, -5, -8): a bit mask; ``optional`` is set to 1 when the player may decline
    (only Economy makes them affordable, and the option is on).

    Branch-free but for the tokens: the units the seat has for a "k different" stage (coins
    + grey kinds held) and for a "k identical" one (coins + the largest grey count), both
    coins + every grey under Engineering, capped at 6, pick the affordable stages from
    OK_DIFF and OK_SAME; Economy's extra unit is the same with one unit more."""
    cdef int avail = available_stages(s, s.active), m0, m1 = 0, hd, hs, g, x
    cdef const ArchSeat* p = &s.p[s.active]
    cdef int coins = p.tab[K_COIN]
    cdef u64 w
    optional[0] = 0
    if not avail:
        return 0
    memcpy(&w, &p.tab[0], 8)
    w &= GREY_BYTES                                             # the 5 grey counts (<= 60)
    if eng_ready(s):
        hd = coins + <int>(((w * BYTE_ONES) >> 32) & 0xFF)     # byte 4: the greys' sum
        hs = hd
    else:
        hd = coins + popcount((w + <u64>0x7F7F7F7F7FULL) & GREY_HI)     # the kinds held
        g = p.tab[0]
        x = p.tab[1]
        g = x if x > g else g
        x = p.tab[2]
        g = x if x > g else g
        x = p.tab[3]
        g = x if x > g else g
        x = p.tab[4]
        g = x if x > g else g
        hs = coins + g
    hd = hd if hd < 6 else 6
    hs = hs if hs < 6 else 6
    m0 = (OK_DIFF[hd] | OK_SAME[hs]) & avail
    if eco_ready(s):
        m1 = (OK_DIFF[hd + 1] | OK_SAME[hs + 1]) & avail & ~m0
    if not (s.options & OP_ECONOMY_OPTIONAL):
        return m0 | m1
    if s.eco_declined:
        m1 = 0
    if m0 == 0 and m1 != 0:
        optional[0] = 1
    return m0 | m1


cdef inline int pay_check(const ArchState* s, int st, int pid) noexcept nogil:
    """0: payment pid is not valid for stage st of the active seat; 1: valid; 2: valid only
    through Engineering (A-BUILD-3, -9)."""
    cdef const ArchSeat* p = &s.p[s.active]
    cdef int r
    for r in range(5):
        if PAY_G[pid][r] > p.tab[r]:
            return 0
    if PAY_C[pid] > p.tab[K_COIN]:
        return 0
    if PAY_D[pid] and not (p.tok[T_ECONOMY] > 0 and not (s.used >> T_ECONOMY) & 1):
        return 0
    if (PAY_KINDS[pid] <= 1) if COST_SAME[st] else (PAY_MAXG[pid] <= 1):
        return 1
    if eng_ready(s):
        return 2
    return 0


cdef int payments(const ArchState* s, int st, int* out) noexcept nogil:
    """Valid payment ids for stage st, ascending (A-BUILD-3, -6; coins_only_when_needed)."""
    cdef const ArchSeat* p = &s.p[s.active]
    cdef int mode = 1 if eng_ready(s) else 0, pid, n = 0, best = 99, j, m, r
    cdef int eco = 1 if (p.tok[T_ECONOMY] > 0 and not (s.used >> T_ECONOMY) & 1) else 0
    cdef int coins = p.tab[K_COIN]
    cdef const u8* cand = CAND[st][mode]
    cdef int end = CAND_D1[st][mode]
    cdef int half
    cdef u64 tw
    # the 5 grey counts packed (bytes 0..4, each <= 60) with bit 7 of each byte set: a byte
    # minus a payment's count (<= 4) keeps bit 7 exactly when the seat holds enough
    memcpy(&tw, &p.tab[0], 8)
    tw = (tw & GREY_BYTES) | GREY_HI
    # candidates sorted by (doubled coin, coins, greys): stop at the first that needs more
    # coins than the seat holds, in each half (no doubled coin, then doubled)
    for half in range(2):
        if half == 1:
            if not eco:
                break
            j = CAND_D1[st][mode]
            end = N_CAND[st][mode]
        else:
            j = 0
        while j < end:
            pid = cand[j]
            j += 1
            if PAY_C[pid] > coins:
                break
            out[n] = pid                                    # kept (branch-free) when
            n += ((tw - PAY_GW[pid]) & GREY_HI) == GREY_HI  # every PAY_G[pid][r] <= tab[r]
    if s.options & OP_COINS_WHEN_NEEDED:
        for j in range(n):
            if PAY_C[out[j]] < best:
                best = PAY_C[out[j]]
        m = 0
        for j in range(n):
            if PAY_C[out[j]] == best:
                out[m] = out[j]
                m += 1
        n = m
    return n


cdef inline int sets_possible(const ArchState* s) noexcept nogil:
    """Bit mask of the science sets the active seat can form now (A-SCI-1..3): bit 0..2 a
    pair of tablet, gear, compass; bit 3 the triple.  0 when no token is left."""
    cdef const ArchSeat* p = &s.p[s.active]
    cdef u32 v, two, one
    cdef int m
    # the three green counts (each <= 60) in bytes 0..2: bit 7 of each byte of v + 0x7E
    # says ">= 2", of v + 0x7F "> 0"; the multiply by 1 + 2**7 + 2**14 moves the three
    # ">= 2" bits (at 0, 8, 16 after the shift) to bits 14, 15, 16, with no carry
    memcpy(&v, &p.tab[K_TABLET], 4)
    v &= 0xFFFFFF
    two = (v + 0x7E7E7E) & 0x808080
    one = (v + 0x7F7F7F) & 0x808080
    m = <int>(((two >> 7) * <u32>0x4081) >> 14) & 7
    m |= (<int>(one == 0x808080)) << 3
    if m and tokens_left(s) == 0:
        return 0
    return m


# ---------------------------------------------------------------- arrival (A-ARR)
cdef void arrive(ArchState* s, int k) noexcept nogil:
    """A card of kind k arrives in the active seat's tableau (A-ARR-1 steps 2-5; step 1, the
    reveal of the deck's new top, is a chance node the driver resolves before anything else
    is decided)."""
    cdef ArchSeat* p = &s.p[s.active]
    cdef int t, h, room
    p.tab[k] += 1
    s.cat = s.active if k == K_BLUE2CAT else s.cat          # A-CAT-1
    # A-MIL-2, branch-free (the kind is random): h horns, none while a battle
    # is pending, turn conflict tokens; the last one makes a battle pending (A-MIL-2)
    h = HORNS[k] & -(<int>(s.battle == 0))
    room = s.conflict - s.turned
    s.turned += h if h < room else room
    s.battle |= <u8>((h != 0) & (s.turned == s.conflict))
    if p.tok[TRIG_I[k]] & TRIG_M[k]:                       # an extra-card token it triggers
        t = TRIG[k]
        if not (s.used >> t) & 1 and not is_pending(s, t):
            s.pend[s.n_pend] = t                            # A-ARR-1 step 5
            s.n_pend += 1


cdef inline void reveal_top(ArchState* s, int d) noexcept nogil:
    """Sampled chance: wonder deck d's new top drawn from s.rng at once (CH4), as the
    chance node the driver would show with explicit chance."""
    cdef ArchDeck* dk = &s.d[d]
    cdef int k = pool_index(dk.cnt, ar_rng_below(&s.rng, dk.n))
    dk.cnt[k] -= 1
    dk.top = k


cdef void take(ArchState* s, int d) noexcept nogil:
    """The active seat takes the top card of deck d (non-empty).  From C with no fixed top
    the card is a chance draw (CH5), made before its arrival."""
    take_in(s, d)


cdef inline void take_in(ArchState* s, int d) noexcept nogil:
    """take() inline (the main pick of ar_decide)."""
    cdef ArchDeck* dk = &s.d[d]
    cdef int k
    if dk.top == AR_NONE:               # only C: nobody looked at its top
        if s.options & OP_EXPLICIT_CHANCE:
            s.draw = DR_CENTRAL         # a chance node comes next
            return
        # sampled now: the draw the driver would make next (CH5; nothing comes between,
        # no revealed top nor token row is due when a card is taken)
        k = pool_index(dk.cnt, ar_rng_below(&s.rng, dk.n))
        dk.cnt[k] -= 1
        dk.n -= 1
        arrive(s, k)
        return
    k = dk.top
    dk.top = AR_NONE
    dk.n -= 1
    if d == AR_CENTRAL:
        s.knowers = 0
    elif dk.n:                                              # A-ARR-1 step 1 (CH4)
        if s.options & OP_EXPLICIT_CHANCE:
            s.reveal |= 1 << d                              # a chance node comes next
        else:
            reveal_top(s, d)                                # sampled now (the same draw)
    arrive(s, k)


cdef inline void give_token(ArchState* s, int t) noexcept nogil:
    s.p[s.active].tok[t] += 1                               # A-TOK-1


# ---------------------------------------------------------------- building (A-BUILD, A-WON)
cdef void pay_and_build(ArchState* s, int pid) noexcept nogil:
    """Pay stage s.stage_sel with payment pid, build it, start its power (A-BUILD-7)."""
    cdef ArchSeat* p = &s.p[s.active]
    cdef int st = s.stage_sel, r, w = p.wonder
    if pay_check(s, st, pid) == 2:
        s.eng_used = 1
    for r in range(5):
        p.tab[r] -= PAY_G[pid][r]
        s.discard[r] += PAY_G[pid][r]
    p.tab[K_COIN] -= PAY_C[pid]
    s.discard[K_COIN] += PAY_C[pid]
    if PAY_D[pid]:
        s.used |= 1 << T_ECONOMY
    p.built |= 1 << st
    s.stage_sel = AR_NONE
    s.task = TK_NONE
    s.arch_due = 1 if p.tok[T_ARCHITECTURE] else 0          # A-ORDER-1.3, A-TOK-4
    if (POWER_MASK[w] >> st) & 1:
        if w == W_ALEXANDRIA:
            s.task = TK_ALEX
        elif w == W_BABYLON:
            s.task = TK_TOKEN
        elif w == W_EPHESUS:
            s.task = TK_EPHESUS
        elif w == W_OLYMPIA:
            s.task = TK_OLY_LEFT
        elif w == W_HALICARNASSUS:
            s.task = TK_HALI_DECK
        # Rhodes: +1 shield, counted by ar_shields (A-WON-7); Giza: none


cdef void form_set(ArchState* s, int which) noexcept nogil:
    """Discard a science set's green cards; a token is to be taken next (A-SCI-2)."""
    cdef ArchSeat* p = &s.p[s.active]
    cdef int x
    if which < 3:
        p.tab[K_TABLET + which] -= 2
        s.discard[K_TABLET + which] += 2
    else:
        for x in range(3):
            p.tab[K_TABLET + x] -= 1
            s.discard[K_TABLET + x] += 1
    s.task = TK_TOKEN


# ---------------------------------------------------------------- end of turn (A-TURN-6)
cdef inline int two_player_tokens(int a, int b) noexcept nogil:
    """A-MIL-5: military victory tokens of a player with a shields against b."""
    if a <= b:
        return 0
    if a >= 2 * (b if b > 1 else 1):
        return 2
    return 1


cdef void fight(ArchState* s) noexcept nogil:
    """The battle (A-MIL-3..6): tokens by shields, then horned red cards discarded and the
    conflict tokens back on peace."""
    cdef int sh[7]
    cdef int n = s.n_players, i, l, r
    for i in range(n):
        sh[i] = ar_shields(s, i)
    if n == 2:
        s.p[0].mvt += two_player_tokens(sh[0], sh[1])
        s.p[1].mvt += two_player_tokens(sh[1], sh[0])
    else:
        for i in range(n):
            l = (i + 1) % n
            r = (i + n - 1) % n
            if sh[i] > sh[l]:
                s.p[i].mvt += 1
            if sh[i] > sh[r]:
                s.p[i].mvt += 1
    for i in range(n):
        s.discard[K_RED1] += s.p[i].tab[K_RED1]
        s.discard[K_RED2] += s.p[i].tab[K_RED2]
        s.p[i].tab[K_RED1] = 0
        s.p[i].tab[K_RED2] = 0
    s.turned = 0
    s.battle = 0


cdef inline void begin_turn(ArchState* s) noexcept nogil:
    """A-TURN-1, -2: the next seat's turn; a cat holder looks at C's top (A-CAT-3)."""
    cdef ArchDeck* c = &s.d[AR_CENTRAL]
    cdef int k
    s.used = 0
    s.eco_declined = 0
    s.eng_used = 0
    s.task = TK_MAIN
    s.turns += 1
    if s.cat == s.active and c.n > 0:
        if c.top != AR_NONE:
            s.knowers |= 1 << s.active      # someone knows it already: no chance (CH6)
        elif s.options & OP_EXPLICIT_CHANCE:
            s.draw = DR_LOOK                # a chance node comes next
        else:                               # sampled now: the driver's next draw (CH6)
            k = pool_index(c.cnt, ar_rng_below(&s.rng, c.n))
            c.cnt[k] -= 1
            c.top = k
            s.knowers = 1 << s.active


cdef inline void end_turn(ArchState* s) noexcept nogil:
    cdef int i, cards = 0
    if s.battle:
        fight(s)
    cards = s.d[AR_CENTRAL].n
    if cards == 0:
        for i in range(s.n_players):
            cards += s.d[i].n
    if s.p[s.active].built == ALL_STAGES or cards == 0:     # A-END-1, A-END-2
        s.phase = PH_OVER
        s.task = TK_NONE
        s.winner_mask = ar_winners(s)
        return
    i = s.active + 1
    s.active = i & -(<int>(i < s.n_players))                # the next seat, branch-free
    begin_turn(s)


cdef void deal_decks(ArchState* s) noexcept nogil:
    """Every wonder is dealt: the decks in play (A-COMP-2, A-SETUP-3..6).  Their first tops
    and the face-up row are chance events that follow."""
    cdef int i, k, t
    for i in range(s.n_players):
        for k in range(14):
            s.d[i].cnt[k] = DECK_MAKE[s.p[i].wonder][k]
        s.d[i].top = AR_NONE
        s.d[i].n = 25
        s.reveal |= 1 << i                                  # CH2
    for k in range(14):
        s.d[AR_CENTRAL].cnt[k] = DECK_MAKE[7][k]
    s.d[AR_CENTRAL].top = AR_NONE
    s.d[AR_CENTRAL].n = 60
    s.n_stack = 0
    for t in range(14):
        s.stack[t] = TOKEN_COPIES[t] - s.gone[t]
        s.n_stack += s.stack[t]


cdef inline int wonder_taken(const ArchState* s, int w) noexcept nogil:
    """1 if wonder w is dealt to a seat already or reserved for a later seat by the caller."""
    cdef int i
    for i in range(s.n_players):
        if (i < s.n_assigned and s.p[i].wonder == w) or (i >= s.n_assigned and s.forced[i] == w):
            return 1
    return 0


cdef inline void assign_wonder(ArchState* s, int w) noexcept nogil:
    s.p[s.n_assigned].wonder = w
    s.n_assigned += 1
    if s.n_assigned == s.n_players:
        deal_decks(s)


# ---------------------------------------------------------------- the driver
cdef inline void set_chance(ArchState* s, int kind, int deck) noexcept nogil:
    s.phase = PH_CHANCE
    s.chance = kind
    s.chance_deck = deck


cdef inline int step(ArchState* s) noexcept nogil:
    """One step of the walk through a turn.  Returns 1 after an automatic step (the state
    changed: call again), 0 when the state rests at a node: s.phase (and s.chance) set.
    Never changes a state that rests (state_from_dict relies on it)."""
    cdef int i, m, opt, n, cats
    s.chance = CK_NONE
    s.chance_deck = AR_NONE
    if s.phase == PH_OVER:
        return 0
    # setup: wonders (CH1)
    if s.n_assigned < s.n_players:
        if s.forced[s.n_assigned] != AR_NONE:
            assign_wonder(s, s.forced[s.n_assigned])
            return 1
        set_chance(s, CK_WONDER, AR_NONE)
        return 0
    # a wonder deck without a visible top (CH2, CH4, CH9), but the deck being searched
    if s.reveal:
        set_chance(s, CK_TOP, ctz(s.reveal))
        return 0
    # the face-up row shows 3 tokens while the stack lasts (CH3, CH7; A-SCI-4)
    if s.n_row < 3 and s.n_stack > 0:
        set_chance(s, CK_ROW, AR_NONE)
        return 0
    if s.draw != DR_NONE:
        if s.draw == DR_CENTRAL:
            set_chance(s, CK_CENTRAL, AR_CENTRAL)
        elif s.draw == DR_LOOK:
            set_chance(s, CK_LOOK, AR_CENTRAL)
        elif s.draw == DR_BLIND:
            set_chance(s, CK_BLIND, AR_NONE)
        return 0
    # the task in progress
    if s.task != TK_NONE:
        if s.task == TK_MAIN:
            if any_deck(s):
                s.phase = PH_MAIN
                return 0
            s.task = TK_NONE                                # nothing to take (A-TURN-3)
            return 1
        if s.task == TK_TOKEN:
            if tokens_left(s):
                s.phase = PH_TOKEN
                return 0
            s.task = TK_NONE                                # Babylon with none left
            return 1
        if s.task == TK_PAY:
            s.phase = PH_PAY
            return 0
        if s.task == TK_ALEX:
            for i in range(s.n_players):
                if s.d[i].n:
                    s.phase = PH_ALEX
                    return 0
            if s.d[AR_CENTRAL].n:
                s.phase = PH_ALEX
                return 0
            s.task = TK_NONE
            return 1
        if s.task == TK_EPHESUS:
            if s.d[AR_CENTRAL].n == 0:
                s.task = TK_NONE
                return 1
            if s.options & OP_POWER_OPTIONAL:
                s.phase = PH_EPHESUS
                return 0
            s.task = TK_NONE
            take(s, AR_CENTRAL)
            return 1
        if s.task == TK_OLY_LEFT:
            s.task = TK_OLY_RIGHT
            if s.d[s.active].n:
                take(s, s.active)
            return 1
        if s.task == TK_OLY_RIGHT:
            s.task = TK_NONE
            i = right_deck(s, s.active)
            if s.d[i].n:
                take(s, i)
            return 1
        if s.task == TK_HALI_DECK:
            if s.d[s.active].n or s.d[right_deck(s, s.active)].n:
                s.phase = PH_HALI_DECK
                return 0
            s.task = TK_NONE
            return 1
        if s.task == TK_HALI_KEEP:
            if s.hali_need:
                set_chance(s, CK_WINDOW, s.hali_deck)
                return 0
            s.phase = PH_HALI_KEEP
            return 0
        if s.task == TK_PICK:
            if s.n_pend and any_deck(s):
                s.phase = PH_PICK
                return 0
            s.task = TK_NONE
            return 1
        if s.task == TK_SET:
            m = sets_possible(s)
            if m and (m & (m - 1)):
                s.phase = PH_SET
                return 0
            s.task = TK_NONE
            if m:
                form_set(s, ctz(m))
            return 1
        if s.task == TK_BUILD:
            m = offered_stages(s, &opt)
            if m and ((m & (m - 1)) or opt):
                s.phase = PH_STAGE
                return 0
            s.task = TK_NONE
            if m:
                s.stage_sel = ctz(m)
                s.task = TK_PAY
            return 1
    # the stage's power is done: Architecture's pick goes on the list (A-ORDER-2 e)
    if s.arch_due:
        s.arch_due = 0
        if (s.p[s.active].tok[T_ARCHITECTURE] and not (s.used >> T_ARCHITECTURE) & 1
                and not is_pending(s, T_ARCHITECTURE)):
            s.pend[s.n_pend] = T_ARCHITECTURE
            s.n_pend += 1
        return 1
    if s.options & OP_FREE_ORDER:
        # A-ORDER-4: every pending pick, a set, a build: the player orders them
        if s.n_pend and not any_deck(s):
            while s.n_pend:                                 # no pick can be taken
                pend_pop(s)
            return 1
        m = sets_possible(s)
        n = offered_stages(s, &opt)
        cats = s.n_pend + (1 if m else 0) + (1 if n else 0)
        if cats > 1:
            s.phase = PH_ORDER
            return 0
        if cats == 0:
            end_turn(s)
            return 1
        s.task = TK_PICK if s.n_pend else (TK_SET if m else TK_BUILD)
        return 1
    # A-ORDER-1: 1. the first pending pick
    if s.n_pend:
        if any_deck(s):
            s.phase = PH_PICK
            return 0
        pend_pop(s)                                         # no deck: the item is dropped
        return 1
    # 2. science
    m = sets_possible(s)
    if m:
        if m & (m - 1):
            s.phase = PH_SET
            return 0
        form_set(s, ctz(m))
        return 1
    # 3. construction
    m = offered_stages(s, &opt)
    if m:
        if (m & (m - 1)) or opt:
            s.phase = PH_STAGE
            return 0
        s.stage_sel = ctz(m)
        s.task = TK_PAY
        return 1
    # 4. the turn ends
    end_turn(s)
    return 1


# ---------------------------------------------------------------- legal actions
cdef inline int push_if(int* out, int n, int cond, int action) noexcept nogil:
    """Append ``action`` to ``out[:n]`` if ``cond``; the new length."""
    out[n] = action
    return n + (cond != 0)


cdef inline int push_bits(int* out, int n, int mask, int count, int base) noexcept nogil:
    """Append ``base + i`` for each bit i < ``count`` of ``mask``, ascending; the new length."""
    cdef int i
    for i in range(count):
        n = push_if(out, n, (mask >> i) & 1, base + i)
    return n


cdef inline int push_nonzero(int* out, int n, const u8* v, int count, int base) noexcept nogil:
    """Append ``base + i`` for each i < ``count`` with ``v[i]`` > 0, ascending; the new
    length."""
    cdef int i
    for i in range(count):
        n = push_if(out, n, v[i], base + i)
    return n


cdef int ar_legal(const ArchState* s, int* out) noexcept nogil:
    """The legal actions at a decision node, ascending and unique; 0 at chance nodes and at
    the end."""
    cdef int n = 0, i, t, opt, a = s.active
    cdef int right = right_deck(s, a)
    cdef int ph = s.phase
    if ph == PH_MAIN or ph == PH_PICK:
        n = push_if(out, n, s.d[a].n, A_PICK_BASE + 0)
        n = push_if(out, n, s.d[right].n, A_PICK_BASE + 1)
        n = push_if(out, n, s.d[AR_CENTRAL].n, A_PICK_BASE + 2)
        return push_if(out, n, ph == PH_PICK, A_DECLINE)
    if ph == PH_STAGE:
        i = offered_stages(s, &opt)
        n = push_if(out, n, opt, A_DECLINE)
        return push_bits(out, n, i, 5, A_STAGE_BASE)
    if ph == PH_PAY:
        n = payments(s, s.stage_sel, out)
        for i in range(n):
            out[i] += A_PAY_BASE
        return n
    if ph == PH_SET:
        return push_bits(out, n, sets_possible(s), 4, A_SET_BASE)
    if ph == PH_TOKEN:
        n = push_nonzero(out, n, s.row, 14, A_TOKEN_BASE)
        return push_if(out, n, s.n_stack, A_TOKEN_STACK)
    if ph == PH_ALEX:
        n = push_if(out, n, s.options & OP_POWER_OPTIONAL, A_DECLINE)
        for i in range(s.n_players):
            n = push_if(out, n, s.d[i].n, A_DECK_BASE + i)
        return push_if(out, n, s.d[AR_CENTRAL].n, A_DECK_BASE + AR_CENTRAL)
    if ph == PH_EPHESUS:
        out[0] = A_DECLINE
        out[1] = A_POWER_USE
        return 2
    if ph == PH_HALI_DECK:
        n = push_if(out, n, s.options & OP_POWER_OPTIONAL, A_DECLINE)
        n = push_if(out, n, s.d[a].n, A_HALI_BASE + 0)
        return push_if(out, n, s.d[right].n, A_HALI_BASE + 1)
    if ph == PH_HALI_KEEP:
        return push_nonzero(out, n, s.win, 14, A_KEEP_BASE)
    if ph == PH_ORDER:
        for t in range(14):
            n = push_if(out, n, is_pending(s, t), A_ORDER_PICK_BASE + t)
        n = push_if(out, n, sets_possible(s), A_ORDER_SET)
        return push_if(out, n, offered_stages(s, &opt), A_ORDER_BUILD)
    return 0


cdef bint ar_is_legal(const ArchState* s, int a) noexcept nogil:
    cdef int out[AR_MAX_LEGAL]
    cdef int n = ar_legal(s, out), i
    for i in range(n):
        if out[i] == a:
            return True
    return False


cdef void apply_decision(ArchState* s, int a) noexcept nogil:
    """Apply a legal decision of the active seat (the driver then walks on)."""
    cdef int ph = s.phase, t, i, d, k, w = 0
    s.phase = PH_CHANCE             # "moving": step() sets the next node
    if ph == PH_MAIN:
        s.task = TK_NONE
        take(s, pick_deck(s, a - A_PICK_BASE))
    elif ph == PH_PICK:
        t = s.pend[0]
        pend_pop(s)
        if s.task == TK_PICK:
            s.task = TK_NONE
        if a != A_DECLINE:
            s.used |= 1 << t                                # A-TOK-2, -3
            take(s, pick_deck(s, a - A_PICK_BASE))
    elif ph == PH_SET:
        if s.task == TK_SET:
            s.task = TK_NONE
        form_set(s, a - A_SET_BASE)
    elif ph == PH_TOKEN:
        s.task = TK_NONE
        if a == A_TOKEN_STACK:
            if s.options & OP_EXPLICIT_CHANCE:
                s.draw = DR_BLIND
            else:                   # sampled now: the driver's next draw (CH7, the row full)
                t = pool_index(s.stack, ar_rng_below(&s.rng, s.n_stack))
                s.stack[t] -= 1
                s.n_stack -= 1
                give_token(s, t)
        else:
            t = a - A_TOKEN_BASE
            s.row[t] -= 1
            s.n_row -= 1
            give_token(s, t)
            if s.n_stack and not (s.options & OP_EXPLICIT_CHANCE):
                # sampled now: the driver's next draw turns the stack's top face up (CH7)
                t = pool_index(s.stack, ar_rng_below(&s.rng, s.n_stack))
                s.stack[t] -= 1
                s.row[t] += 1
                s.n_stack -= 1
                s.n_row += 1
    elif ph == PH_STAGE:
        if s.task == TK_BUILD:
            s.task = TK_NONE
        if a == A_DECLINE:
            s.eco_declined = 1
        else:
            s.stage_sel = a - A_STAGE_BASE
            s.task = TK_PAY
    elif ph == PH_PAY:
        pay_and_build(s, a - A_PAY_BASE)
    elif ph == PH_ALEX:
        s.task = TK_NONE
        if a != A_DECLINE:
            take(s, a - A_DECK_BASE)
    elif ph == PH_EPHESUS:
        s.task = TK_NONE
        if a == A_POWER_USE:
            take(s, AR_CENTRAL)
    elif ph == PH_HALI_DECK:
        if a == A_DECLINE:
            s.task = TK_NONE
        else:
            d = s.active if a == A_HALI_BASE else right_deck(s, s.active)
            k = s.d[d].top
            s.win[k] += 1
            s.d[d].top = AR_NONE
            s.d[d].n -= 1
            s.hali_deck = d
            s.hali_need = s.d[d].n if s.d[d].n < 4 else 4   # CH8: min(4, n - 1)
            s.task = TK_HALI_KEEP
    elif ph == PH_HALI_KEEP:
        k = a - A_KEEP_BASE
        d = s.hali_deck
        s.win[k] -= 1
        for i in range(14):                                 # the rest back, deck shuffled
            s.d[d].cnt[i] += s.win[i]
            s.d[d].n += s.win[i]
            s.win[i] = 0
        s.hali_deck = AR_NONE
        s.task = TK_NONE
        if s.d[d].n:
            s.reveal |= 1 << d                              # the new top: CH9
        arrive(s, k)
    elif ph == PH_ORDER:
        if a == A_ORDER_SET:
            s.task = TK_SET
        elif a == A_ORDER_BUILD:
            s.task = TK_BUILD
        else:
            t = a - A_ORDER_PICK_BASE                       # that pick to the front
            for i in range(s.n_pend):
                if s.pend[i] == t:
                    w = i
            for i in range(w, 0, -1):
                s.pend[i] = s.pend[i - 1]
            s.pend[0] = t
            s.task = TK_PICK


# ---------------------------------------------------------------- chance (A-CHANCE)
cdef inline const u8* chance_pool(const ArchState* s, int* total) noexcept nogil:
    """The multiset a chance event draws from, and its size."""
    if s.chance == CK_TOP or s.chance == CK_WINDOW:
        total[0] = s.d[s.chance_deck].n             # the top is not on the deck
        return s.d[s.chance_deck].cnt
    if s.chance == CK_CENTRAL or s.chance == CK_LOOK:
        total[0] = s.d[AR_CENTRAL].n                # nobody knows the top: all are under
        return s.d[AR_CENTRAL].cnt
    total[0] = s.n_stack                            # CK_ROW, CK_BLIND
    return s.stack


cdef int ar_chance_outcomes(const ArchState* s, int* out, double* prob) noexcept nogil:
    """The outcomes of the chance node with their exact probabilities (A-CHANCE-1)."""
    cdef int n = 0, k, w, tot, base
    cdef const u8* pool
    if s.phase != PH_CHANCE:
        return 0
    if s.chance == CK_WONDER:
        tot = 0
        for w in range(7):
            if not wonder_taken(s, w):
                tot += 1
        for w in range(7):
            if not wonder_taken(s, w):
                out[n] = A_CH_WONDER_BASE + w
                prob[n] = 1.0 / tot
                n += 1
        return n
    pool = chance_pool(s, &tot)
    base = A_CH_TOKEN_BASE if (s.chance == CK_ROW or s.chance == CK_BLIND) else A_CH_KIND_BASE
    for k in range(14):
        if pool[k]:
            out[n] = base + k
            prob[n] = <double>pool[k] / tot
            n += 1
    return n


cdef int ar_sample_chance(ArchState* s, u64* rng) noexcept nogil:
    """An outcome of the chance node drawn by its probability from ``rng``."""
    cdef int k, w, r, tot, base
    cdef const u8* pool
    if s.chance == CK_WONDER:
        tot = 0
        for w in range(7):
            if not wonder_taken(s, w):
                tot += 1
        r = ar_rng_below(rng, tot)
        for w in range(7):
            if not wonder_taken(s, w):
                if r == 0:
                    return A_CH_WONDER_BASE + w
                r -= 1
        return -1
    pool = chance_pool(s, &tot)
    base = A_CH_TOKEN_BASE if (s.chance == CK_ROW or s.chance == CK_BLIND) else A_CH_KIND_BASE
    return base + pool_index(pool, ar_rng_below(rng, tot))


cdef void apply_chance(ArchState* s, int a) noexcept nogil:
    """Apply a chance outcome (legal for the node)."""
    cdef int c = s.chance, k, d
    s.phase = PH_CHANCE
    s.chance = CK_NONE
    if c == CK_WONDER:
        assign_wonder(s, a - A_CH_WONDER_BASE)
        return
    if c == CK_ROW:
        k = a - A_CH_TOKEN_BASE
        s.stack[k] -= 1
        s.row[k] += 1
        s.n_stack -= 1
        s.n_row += 1
        return
    if c == CK_BLIND:
        k = a - A_CH_TOKEN_BASE
        s.stack[k] -= 1
        s.n_stack -= 1
        s.draw = DR_NONE
        give_token(s, k)
        return
    k = a - A_CH_KIND_BASE
    if c == CK_TOP:
        d = s.chance_deck
        s.d[d].cnt[k] -= 1
        s.d[d].top = k
        s.reveal &= ~(1 << d)
    elif c == CK_WINDOW:
        d = s.chance_deck
        s.d[d].cnt[k] -= 1
        s.d[d].n -= 1
        s.win[k] += 1
        s.hali_need -= 1
    elif c == CK_LOOK:
        s.d[AR_CENTRAL].cnt[k] -= 1
        s.d[AR_CENTRAL].top = k
        s.knowers = 1 << s.active
        s.draw = DR_NONE
    elif c == CK_CENTRAL:
        s.d[AR_CENTRAL].cnt[k] -= 1
        s.d[AR_CENTRAL].n -= 1
        s.draw = DR_NONE
        arrive(s, k)


# ---------------------------------------------------------------- the public walk
cdef inline int walk(ArchState* s, int* out, bint stop_at_chance) noexcept nogil:
    """Walk on: automatic steps, chance sampled from s.rng (or, with ``stop_at_chance``, a
    stop there), single-option decisions applied (A-DEC-2).  Returns the legal decisions
    (in ``out``) of the decision node it rests at; 0 at the end or a chance stop."""
    cdef int n
    while True:
        if step(s):
            continue
        if s.phase == PH_OVER:
            return 0
        if s.phase == PH_CHANCE:
            if stop_at_chance:
                return 0
            apply_chance(s, ar_sample_chance(s, &s.rng))
            continue
        if s.phase == PH_MAIN:             # the common node: ar_legal's first case inline
            n = push_if(out, 0, s.d[s.active].n, A_PICK_BASE + 0)
            n = push_if(out, n, s.d[right_deck(s, s.active)].n, A_PICK_BASE + 1)
            n = push_if(out, n, s.d[AR_CENTRAL].n, A_PICK_BASE + 2)
        else:
            n = ar_legal(s, out)
        if n == 1:
            apply_decision(s, out[0])
            continue
        return n


cdef void ar_advance(ArchState* s) noexcept nogil:
    """Walk on until a decision with two legal actions or more, a chance node (explicit
    chance) or the end; single-option decisions are applied (A-DEC-2), chance is sampled
    from s.rng unless explicit."""
    cdef int out[AR_MAX_LEGAL]
    walk(s, out, s.options & OP_EXPLICIT_CHANCE)


cdef int ar_settle(ArchState* s, int* out) noexcept nogil:
    """Walk on as ar_advance but sample chance even with explicit chance, and return the
    legal decisions of the node it rests at (0 at the end).  The fast path of playouts."""
    cdef int code, n = walk(s, out, False)
    if DUEL_DEBUG:
        code = ar_state_check(s)
        if code:
            fprintf(stderr, b"architects: state_check failed with code %d\n", code)
            abort()
    return n


cdef inline void ar_decide(ArchState* s, int a) noexcept nogil:
    """Apply a legal decision without walking on (ar_settle does, and checks the state in
    the debug build): the fast path."""
    if s.phase == PH_MAIN:          # the common decision: apply_decision's first case
        s.phase = PH_CHANCE
        s.task = TK_NONE
        take_in(s, pick_deck(s, a - A_PICK_BASE))
    else:
        apply_decision(s, a)
    s.n_moves += 1


cdef void ar_apply(ArchState* s, int a) noexcept nogil:
    """Apply a legal action (a decision, or a chance outcome at a chance node), then walk on
    to the next node.  The caller checks legality."""
    cdef int code
    if s.phase == PH_CHANCE:
        apply_chance(s, a)
    else:
        apply_decision(s, a)
        s.n_moves += 1
    ar_advance(s)
    if DUEL_DEBUG:
        code = ar_state_check(s)
        if code:
            fprintf(stderr, b"architects: state_check failed with code %d after action %d\n",
                    code, a)
            abort()


cdef void ar_init(ArchState* s, int players, u64 seed, int options) noexcept nogil:
    """A new game before any chance: no wonder dealt yet (A-SETUP).  The caller may set
    s.forced (wonders given per seat, A-SETUP-2) and s.gone, then calls ar_advance."""
    cdef int i
    memset(s, 0, sizeof(ArchState))
    s.rng = seed
    s.n_players = players
    s.options = options
    s.conflict = CONFLICT[players]
    s.cat = AR_NONE
    s.stage_sel = AR_NONE
    s.hali_deck = AR_NONE
    s.chance_deck = AR_NONE
    for i in range(AR_MAX_SEATS):
        s.p[i].wonder = AR_NONE
        s.forced[i] = AR_NONE
    for i in range(AR_NUM_DECKS):
        s.d[i].top = AR_NONE
    s.active = 0                    # A-SETUP-11: seat 0 starts
    s.task = TK_MAIN
    s.turns = 1
    s.phase = PH_CHANCE


# ---------------------------------------------------------------- scoring (A-END)
cdef void seat_score(const ArchState* s, int i, int* v) noexcept nogil:
    """VP of seat i by category: wonder, blue, military, cat, progress, total (A-END-3)."""
    cdef const ArchSeat* p = &s.p[i]
    cdef int st, prog = 0, owned = 0, t
    v[0] = 0
    if p.wonder < AR_NUM_WONDERS:
        for st in range(5):
            if (p.built >> st) & 1:
                v[0] += STAGE_VP[p.wonder][st]
    v[1] = 3 * p.tab[K_BLUE3] + 2 * p.tab[K_BLUE2CAT]
    v[2] = 3 * p.mvt                                        # A-MIL-7
    v[3] = 2 if s.cat == i else 0                           # A-CAT-2
    for t in range(14):
        owned += p.tok[t]
    if p.tok[T_STRATEGY]:
        prog += p.mvt
    if p.tok[T_EDUCATION]:
        prog += 2 * owned
    if p.tok[T_DECOR]:
        prog += 6 if p.built == ALL_STAGES else 4
    if p.tok[T_POLITICS]:
        prog += p.tab[K_BLUE2CAT]
    if p.tok[T_CULTURE] == 1:
        prog += 4
    elif p.tok[T_CULTURE] >= 2:
        prog += 12
    v[4] = prog
    v[5] = v[0] + v[1] + v[2] + v[3] + v[4]


cdef void ar_scores(const ArchState* s, int* vp) noexcept nogil:
    """vp[i * AR_NUM_CAT + c]: seat i's VP in category c (total last)."""
    cdef int i
    for i in range(s.n_players):
        seat_score(s, i, &vp[i * AR_NUM_CAT])


cdef int ar_winners(const ArchState* s) noexcept nogil:
    """Bit mask of the winners (A-END-4): the highest score, then the most stages; a tie
    that remains is a shared victory."""
    cdef int v[AR_NUM_CAT]
    cdef int tot[7]
    cdef int st[7]
    cdef int i, best = -1, bst = -1, m = 0
    for i in range(s.n_players):
        seat_score(s, i, v)
        tot[i] = v[5]
        st[i] = popcount(s.p[i].built)
        if tot[i] > best or (tot[i] == best and st[i] > bst):
            best = tot[i]
            bst = st[i]
    for i in range(s.n_players):
        if tot[i] == best and st[i] == bst:
            m |= 1 << i
    return m


# ---------------------------------------------------------------- invariants
cdef int ar_state_check(const ArchState* s) noexcept nogil:
    """0 if every invariant of the digest's engine notes holds, else a code naming the first
    that breaks (see CHECK_MESSAGES)."""
    cdef int n = s.n_players, i, k, t, want, have, st, horns, cards, w
    cdef int total[14]
    if n < 2 or n > 7:
        return 1
    if s.conflict != CONFLICT[n] or s.turned > s.conflict:
        return 2
    if (s.turned == s.conflict) != (s.battle != 0):
        return 3
    if s.n_assigned > n:
        return 4
    for i in range(n):
        w = s.p[i].wonder
        if i < s.n_assigned:
            if w >= AR_NUM_WONDERS or (s.forced[i] != AR_NONE and s.forced[i] != w):
                return 5
            for k in range(i):
                if s.p[k].wonder == w:
                    return 6
        elif w != AR_NONE:
            return 5
        if s.forced[i] != AR_NONE and s.forced[i] >= AR_NUM_WONDERS:
            return 5
    for i in range(n, AR_MAX_SEATS):
        if s.p[i].wonder != AR_NONE or s.forced[i] != AR_NONE or s.p[i].built:
            return 7
        for k in range(14):
            if s.p[i].tab[k] or s.p[i].tok[k] or s.d[i].cnt[k]:
                return 7
        if s.d[i].n or s.d[i].top != AR_NONE or s.p[i].mvt:
            return 7
    # cards: tableaux + decks + discard + window = the decks in play (A-COMP-2)
    for k in range(14):
        total[k] = s.discard[k] + s.win[k]
    for i in range(n):
        for k in range(14):
            total[k] += s.p[i].tab[k]
    for i in range(AR_NUM_DECKS):
        if i >= n and i != AR_CENTRAL:
            continue
        cards = 0
        for k in range(14):
            total[k] += s.d[i].cnt[k]
            cards += s.d[i].cnt[k]
        if s.d[i].top != AR_NONE:
            if s.d[i].top >= 14:
                return 8
            total[s.d[i].top] += 1
            cards += 1
        if cards != s.d[i].n:
            return 9
    if s.n_assigned == n:
        for k in range(14):
            want = DECK_MAKE[7][k]
            for i in range(n):
                want += DECK_MAKE[s.p[i].wonder][k]
            if total[k] != want:
                return 10
    else:
        for k in range(14):
            if total[k]:
                return 10
    # tokens: row + stack + owned + left out = 15 (A-TOK-1)
    for t in range(14):
        have = s.row[t] + s.stack[t] + s.gone[t]
        for i in range(n):
            have += s.p[i].tok[t]
        if s.n_assigned == n and have != TOKEN_COPIES[t]:
            return 11
        if s.n_assigned < n and (have - s.gone[t] != 0 or s.gone[t] > TOKEN_COPIES[t]):
            return 11
    if s.n_row != sum14(s.row) or s.n_stack != sum14(s.stack) or s.n_row > 3:
        return 12
    if s.reveal != reveal_mask(s):
        return 9
    # stages built only with their prerequisites (A-BUILD-2)
    for i in range(n):
        if s.p[i].built > ALL_STAGES or (s.p[i].built and s.p[i].wonder >= AR_NUM_WONDERS):
            return 13
        for st in range(5):
            if (s.p[i].built >> st) & 1 and (PREREQ[s.p[i].wonder][st] & ~s.p[i].built):
                return 13
    # conflict tokens turned <= horns in tableaux (horned cards leave only after a battle)
    horns = 0
    for i in range(n):
        horns += s.p[i].tab[K_RED1] + 2 * s.p[i].tab[K_RED2]
    if s.turned > horns:
        return 14
    # the pending list: owned extra-card tokens, each once, none used this turn
    if s.n_pend > AR_MAX_PEND:
        return 15
    for i in range(s.n_pend):
        t = s.pend[i]
        if t >= 14 or not s.p[s.active].tok[t] or (s.used >> t) & 1:
            return 15
        for k in range(i):
            if s.pend[k] == t:
                return 15
        if not (t == T_ARCHITECTURE or t == T_CRAFTS or t == T_JEWELLERY or t == T_PROPAGANDA
                or t == T_SCIENCE or t == T_URBANISM):
            return 15
    if s.used >> 14:
        return 16
    for t in range(14):
        if (s.used >> t) & 1 and not s.p[s.active].tok[t]:
            return 16
    # the cat, the central top and who knows it
    if s.cat != AR_NONE and s.cat >= n:
        return 17
    if (s.d[AR_CENTRAL].top != AR_NONE) != (s.knowers != 0) or (s.knowers >> n):
        return 18
    if s.active >= n:
        return 19
    # the window exists only while Halicarnassus keeps a card
    have = sum14(s.win)
    if s.task == TK_HALI_KEEP:
        if s.hali_deck == AR_NONE or (s.hali_deck != s.active and
                                      s.hali_deck != right_deck(s, s.active)):
            return 20
        if have == 0 or have + s.hali_need > 5 or s.hali_need > s.d[s.hali_deck].n:
            return 20
        if s.d[s.hali_deck].top != AR_NONE or s.p[s.active].wonder != W_HALICARNASSUS:
            return 20
    elif have or s.hali_deck != AR_NONE or s.hali_need:
        return 20
    if (s.task == TK_PAY) != (s.stage_sel != AR_NONE):
        return 21
    if s.stage_sel != AR_NONE and (s.stage_sel >= 5 or
                                   not (available_stages(s, s.active) >> s.stage_sel) & 1):
        return 21
    # wonders given by the caller are distinct and not dealt to another seat (A-SETUP-2)
    for i in range(n):
        if s.forced[i] != AR_NONE:
            for k in range(i):
                if s.forced[k] == s.forced[i]:
                    return 24
            if i >= s.n_assigned:
                for k in range(s.n_assigned):
                    if s.p[k].wonder == s.forced[i]:
                        return 24
    # Architecture's pick is due only to its owner, after one of its builds (A-ORDER-1.3)
    if s.arch_due and (not s.p[s.active].tok[T_ARCHITECTURE] or s.arch_due > 1):
        return 25
    # a power in progress is the active seat's wonder's (A-WON)
    w = s.p[s.active].wonder
    if ((s.task == TK_ALEX and w != W_ALEXANDRIA) or (s.task == TK_EPHESUS and w != W_EPHESUS)
            or ((s.task == TK_OLY_LEFT or s.task == TK_OLY_RIGHT) and w != W_OLYMPIA)
            or ((s.task == TK_HALI_DECK or s.task == TK_HALI_KEEP) and w != W_HALICARNASSUS)):
        return 26
    # a terminal state has a complete wonder or no card in any deck (A-END-1, -2)
    if s.phase == PH_OVER:
        cards = s.d[AR_CENTRAL].n
        for i in range(n):
            cards += s.d[i].n
        if cards and s.p[s.active].built != ALL_STAGES:
            return 22
        if s.winner_mask != ar_winners(s):
            return 22
    # at most one complete wonder, and only the active seat's
    for i in range(n):
        if s.p[i].built == ALL_STAGES and i != s.active:
            return 23
    return 0


CHECK_MESSAGES = {
    1: "player count outside 2..7 (A-SETUP-1)",
    2: "conflict tokens: wrong number in play or too many turned (A-SETUP-7, A-MIL-2)",
    3: "a battle is pending exactly when every conflict token is turned (A-MIL-2)",
    4: "more wonders dealt than seats",
    5: "a seat's wonder is missing, unknown or not the one given (A-SETUP-2)",
    6: "two seats play the same wonder (A-SETUP-2)",
    7: "a seat beyond the player count holds something",
    8: "a deck's top is not a card kind",
    9: "a deck's size is not its cards",
    10: "cards are not conserved: tableaux + decks + discard + window != the decks in play "
        "(A-COMP-2)",
    11: "progress tokens are not conserved: row + stack + owned != 15 (A-TOK-1)",
    12: "more than 3 face-up progress tokens (A-SETUP-6)",
    13: "a stage is built without its prerequisites (A-BUILD-2)",
    14: "more conflict tokens turned than horns in the tableaux (A-MIL-2, -6)",
    15: "the pending list holds a token twice, one not owned, used, or not an extra-card "
        "token (A-ARR-1, A-TOK-3)",
    16: "a token used this turn is not owned (A-TOK-2)",
    17: "the cat's holder is not a seat (A-CAT)",
    18: "the central top is fixed exactly when some seat knows it (A-CAT-4, A-INFO-2)",
    19: "the active seat is not a seat",
    20: "a Halicarnassus window outside Halicarnassus's keep, or inconsistent (A-WON-5)",
    21: "a chosen stage outside a payment, or not available (A-BUILD-5)",
    22: "the game ended without a complete wonder or empty decks, or wrong winners "
        "(A-END-1, -2, -4)",
    23: "a complete wonder that is not the active seat's (A-END-1)",
    24: "a wonder given to two seats, or given to a seat and dealt to another (A-SETUP-2)",
    25: "Architecture's pick is due to a seat that does not own it (A-TOK-3)",
    26: "a wonder power in progress that is not the active seat's wonder's (A-WON)",
}

include "api.pxi"
include "fromdict.pxi"
include "search.pxi"
