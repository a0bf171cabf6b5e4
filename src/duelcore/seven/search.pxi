# Agents of the 7 Wonders core (included by engine.pyx): random playouts, a greedy one-step agent,
# determinization of the unseen cards for one player (W-INFO), and information-set MCTS for N
# players with decoupled UCB selection at simultaneous nodes.  Everything below the Python
# wrappers is nogil; the MCTS node pool is allocated once per search.
from libc.stdlib cimport malloc, free
from libc.math cimport sqrt, log, exp
import operator

from duelcore.common.clock cimport now
# the process-wide stop flag of every game's core: checked per search iteration and per game
from duelcore.common.stop cimport stop_requested, token_set, token_ptr
from duelcore.common.stop import _SigintHook

cdef enum:
    AG_RANDOM = 0
    AG_GREEDY = 1
    AG_MCTS = 2

# ---------------------------------------------------------------- random and greedy
cdef void sv_random_playout(SevenState* s, u64* rng) noexcept nogil:
    """Play to the end with uniformly random legal actions and sampled chance."""
    cdef int out[SV_MAX_LEGAL]
    cdef int seats[SV_MAX_SEATS]
    cdef int n, k, m, seat
    while s.phase != SP_OVER:
        if s.phase <= SP_DRAW:
            sv_apply(s, -1, sv_sample_chance(s, rng))
            continue
        n = sv_pending(s, seats)
        if SV_UNLIKELY(n <= 0):
            broken(s, PRE_NO_LEGAL)
            return
        for k in range(n):
            seat = seats[k]
            m = sv_legal_actions(s, seat, out)
            if SV_UNLIKELY(m <= 0):
                broken(s, PRE_NO_LEGAL)
                return
            sv_apply(s, seat, out[sv_rng_below(rng, m)])

cdef void build_first_playout(SevenState* s, u64* rng) noexcept nogil:
    """Play to the end, each seat choosing uniformly among its builds and stages when it has
    any (a discard otherwise, or one time in ten): an MCTS playout policy (tuning hook 0)."""
    cdef int out[SV_MAX_LEGAL]
    cdef int seats[SV_MAX_SEATS]
    cdef int n, k, m, seat, j, nb
    while s.phase != SP_OVER:
        if s.phase <= SP_DRAW:
            sv_apply(s, -1, sv_sample_chance(s, rng))
            continue
        n = sv_pending(s, seats)
        if SV_UNLIKELY(n <= 0):
            broken(s, PRE_NO_LEGAL)
            return
        for k in range(n):
            seat = seats[k]
            m = sv_legal_actions(s, seat, out)
            if SV_UNLIKELY(m <= 0):
                broken(s, PRE_NO_LEGAL)
                return
            nb = 0
            if s.phase != SP_HALI and sv_rng_below(rng, 10) != 0:
                for j in range(m):
                    if act_use(out[j]) != U_DISCARD:
                        out[nb] = out[j]
                        nb += 1
            if nb == 0:
                nb = m
            sv_apply(s, seat, out[sv_rng_below(rng, nb)])

cdef double quick_value(const SevenState* s, int seat, int a) noexcept nogil:
    """A cheap static value of a turn action (VP-like units) for the MCTS playouts."""
    cdef const SevenCity* c = &s.c[seat]
    cdef int use = act_use(a), nm = act_name(a), r
    cdef double v = 0, paid = ((a >> 4) & 15) + (a & 15)
    cdef const NameDef* d
    cdef const StageDef* st
    if a >= SV_HALI_BASE:
        return 0.0 if a == SV_HALI_NONE else 3.0
    if use == U_DISCARD:
        return 1.0
    if use == U_STAGE:
        st = &STAGES[c.board][c.side][c.stages]
        v = st.vp + st.coins / 3.0 + 1.5 * st.shields + (2.5 if st.flags or st.anyc != 255 else 0)
        return v - paid / 3.0
    d = &NAMES[nm]
    if use == U_BUILD and not chain_ok(c, nm):
        paid += d.coins
    v = d.vp + 1.5 * d.shields
    if d.sci != 255:
        v += 1.0 + c.sci[d.sci] + 0.5 * (c.sci[0] + c.sci[1] + c.sci[2])
    for r in range(7):
        v += d.fixed[r] * (1.5 if s.age == 1 else (0.9 if s.age == 2 else 0.1))
    if d.pair != 255 or d.anyc != 255:
        v += 1.5 if s.age == 1 else (0.9 if s.age == 2 else 0.1)
    if d.trade:
        v += 1.0 if s.age < 3 else 0.0
    v += d.coins_gain / 3.0
    if d.special:
        v += 2.5
    if d.guild:
        v += 4.0
    if use == U_FREE:
        v -= 1.0                  # the power is worth keeping for a dearer card
    return v - paid / 3.0

cdef void heuristic_playout(SevenState* s, u64* rng) noexcept nogil:
    """Play to the end, each seat taking the action of best quick_value (ties at random), or a
    uniformly random action one time in five: an MCTS playout policy (tuning hook 1)."""
    cdef int out[SV_MAX_LEGAL]
    cdef int seats[SV_MAX_SEATS]
    cdef int n, k, m, seat, j, best, ties
    cdef double v, bv
    while s.phase != SP_OVER:
        if s.phase <= SP_DRAW:
            sv_apply(s, -1, sv_sample_chance(s, rng))
            continue
        n = sv_pending(s, seats)
        if SV_UNLIKELY(n <= 0):
            broken(s, PRE_NO_LEGAL)
            return
        for k in range(n):
            seat = seats[k]
            m = sv_legal_actions(s, seat, out)
            if SV_UNLIKELY(m <= 0):
                broken(s, PRE_NO_LEGAL)
                return
            best = sv_rng_below(rng, m)
            if sv_rng_below(rng, 5) != 0:
                bv = -1e9
                ties = 0
                for j in range(m):
                    v = quick_value(s, seat, out[j])
                    if v > bv + 1e-9:
                        bv = v
                        best = j
                        ties = 1
                    elif v > bv - 1e-9:
                        ties += 1
                        if sv_rng_below(rng, ties) == 0:
                            best = j
            sv_apply(s, seat, out[best])

cdef void greedy_playout(SevenState* s, u64* rng) noexcept nogil:
    """Play to the end, each seat taking the greedy agent's action, or a uniformly random
    action one time in ten: the MCTS playout policy (the default, tuning hook 2).  About half
    as fast as the quick heuristic's playouts, and much stronger: against three greedy
    players at 1,000 iterations, 95.5% of 200 games won instead of 84.5% on the same seeds."""
    cdef int out[SV_MAX_LEGAL]
    cdef int seats[SV_MAX_SEATS]
    cdef int n, k, m, seat
    while s.phase != SP_OVER:
        if s.phase <= SP_DRAW:
            sv_apply(s, -1, sv_sample_chance(s, rng))
            continue
        n = sv_pending(s, seats)
        if SV_UNLIKELY(n <= 0):
            broken(s, PRE_NO_LEGAL)
            return
        for k in range(n):
            seat = seats[k]
            if sv_rng_below(rng, 10) == 0:
                m = sv_legal_actions(s, seat, out)
                if SV_UNLIKELY(m <= 0):
                    broken(s, PRE_NO_LEGAL)
                    return
                sv_apply(s, seat, out[sv_rng_below(rng, m)])
            else:
                sv_apply(s, seat, greedy_action(s, seat, rng))

cdef int PLAYOUT = 2
cdef double PB_W = 1.0

def _set_bias(double w):
    """Tuning hook: weight of the progressive bias (quick_value / 10 / (visits + 1))."""
    global PB_W
    PB_W = w

def _set_playout(int k):
    """Tuning hook: MCTS playout policy, 0 build-first random, 1 quick heuristic, 2 greedy."""
    global PLAYOUT
    PLAYOUT = k

cdef void solo_effect(SevenState* s, int seat, int a) noexcept nogil:
    """The effect of one turn action on its own city alone (pay, place, income), for the
    greedy evaluation; hands and piles are left as they are."""
    cdef SevenCity* c = &s.c[seat]
    cdef int use = act_use(a), nm = act_name(a), l = (a >> 4) & 15, r = a & 15
    if a >= SV_HALI_BASE:
        if a != SV_HALI_NONE:
            add_card(c, a - SV_HALI_BASE)
            c.coins += card_coins(s, seat, a - SV_HALI_BASE)
        return
    if use == U_BUILD or use == U_FREE:
        if use == U_BUILD and not chain_ok(c, nm):
            c.coins -= NAMES[nm].coins + l + r
        add_card(c, nm)
        c.coins += card_coins(s, seat, nm)
        if use == U_FREE:
            c.olympia_free = 0
    elif use == U_STAGE:
        c.coins -= l + r
        add_stage(c)
        c.coins += STAGES[c.board][c.side][c.stages - 1].coins
    else:
        c.coins += 3

cdef double evaluate(const SevenState* s, int seat) noexcept nogil:
    """Heuristic value of a city for the greedy agent: its VP now, plus production (Ages I-II),
    military standing against the neighbours and coins."""
    cdef int vp[SV_NUM_CAT]
    cdef const SevenCity* c = &s.c[seat]
    cdef const SevenCity* nb
    cdef double v
    cdef int r, k, units = 0, age = s.age if s.age > 0 else 1
    seat_scores(s, seat, vp)
    v = vp[7] - vp[1] + c.coins / 3.0
    for r in range(7):
        units += c.fixed[r]
    for r in range(6):
        units += c.pairs[r]
    units += c.any_raw + c.any_manuf
    v += units * (2.0 if age == 1 else (1.2 if age == 2 else 0.0))
    if age < 3:
        # science and trade discounts pay off later
        v += 1.5 * (c.sci[0] + c.sci[1] + c.sci[2]) * (3 - age) / 2.0
        v += 1.0 * popcount(c.trade)
    for k in range(2):
        nb = &s.c[left_of(s, seat) if k == 0 else right_of(s, seat)]
        if c.shields > nb.shields:
            v += 0.6 * MIL_WIN[age]
        elif c.shields < nb.shields:
            v -= 0.6
    return v

cdef int greedy_action(const SevenState* s, int seat, u64* rng) noexcept nogil:
    """The legal action whose solo effect gives the best evaluation (ties broken at random)."""
    cdef int out[SV_MAX_LEGAL]
    cdef int n = sv_legal_actions(s, seat, out), k, best = 0, ties = 0
    cdef double v, bv = -1e18
    cdef SevenState t
    cdef SevenCity saved
    if SV_UNLIKELY(n <= 0):
        return -precondition_fault(PRE_NO_LEGAL)     # no action (sv_apply ends the game)
    t = s[0]
    saved = s.c[seat]
    for k in range(n):
        solo_effect(&t, seat, out[k])       # changes the seat's own city only
        v = evaluate(&t, seat)
        t.c[seat] = saved
        if v > bv + 1e-9:
            bv = v
            best = k
            ties = 1
        elif v > bv - 1e-9:
            ties += 1
            if sv_rng_below(rng, ties) == 0:
                best = k
    return out[best]

# ---------------------------------------------------------------- determinization (W-INFO)
cdef inline void pick_subset(u64* src, int k, u64* dst, u64* rng) noexcept nogil:
    """Move k uniformly chosen cards of src into dst."""
    cdef int i, b
    for i in range(k):
        if b3_count(src) == 0:
            return
        b = b3_select(src, sv_rng_below(rng, b3_count(src)))
        bit_del(src, b)
        bit_add(dst, b)

cdef inline int take_random_bit(u16* bits, u64* rng) noexcept nogil:
    """A uniformly drawn set bit of ``bits`` (which must have one), cleared from it."""
    cdef int j = sv_rng_below(rng, popcount(bits[0]))
    cdef int t = 0
    while True:
        if (bits[0] >> t) & 1:
            if j == 0:
                break
            j -= 1
        t += 1
    bits[0] &= ~(1 << t)
    return t


cdef void sv_determinize(SevenState* s, int p, u64* rng) noexcept nogil:
    """Redeal, in place, every card player ``p`` cannot locate, consistently with what it has
    seen (W-INFO-1..5): its own hand, the cities, its own face-down cards and the hands it held
    this Age stay; another hand that p held keeps cards of what p saw in it; hands p never held,
    the pile, the unknown part of the discard and the stage cards are drawn from the rest.
    Guilds p never saw may be swapped for guilds not drawn (W-INFO-4): in Age III those p
    cannot locate, before it every drawn guild.  Other seats'
    commitments of this turn are forgotten (W-TURN-1)."""
    cdef u64 U[3]
    cdef u64 seen_all[3]
    cdef u64 cur[3]
    cdef u64 cand[3]
    cdef u64 pool[3]
    cdef u64 tmp[3]
    cdef u64 newd[3]
    cdef u64 newt[3]
    cdef int i, w, q, k, nd, nt, g, n_unseen_g, t, j, nloc
    cdef int loc[SV_NUM_GUILDS]
    cdef int pk[7]
    cdef int n = s.n_players
    cdef const SevenCity* me = &s.c[p]
    cdef u16 guilds_seen = 0, avail_g = 0
    if s.age > 0:
        sv_age_deck(s, s.age, cur)          # public: a study's removed cards and spares too
    else:
        cur[0] = 0
        cur[1] = 0
        cur[2] = 0
    for w in range(3):
        U[w] = s.deck[w] | s.discard[w] | s.tucked[w]
        seen_all[w] = 0
    for q in range(n):
        if q != p:
            for w in range(3):
                U[w] |= s.c[q].hand[w]
    for w in range(3):
        U[w] &= ~me.facedown[w]
    for k in range(n):
        for w in range(3):
            seen_all[w] |= s.seen[p][k][w]
    if s.age == 3:
        for g in range(SV_NUM_GUILDS):
            if (s.guilds >> g) & 1:
                bit_add(cur, GUILD_PHYS[g])
    # packets currently held by each player
    for q in range(n):
        t = s.turn - 1 if s.turn > 0 else 0
        if n == 2:
            pk[q] = q if (t & 1) == 0 else 1 - q
        elif s.age == 2:
            pk[q] = (q + t) % n
        else:
            pk[q] = (q - t % n + n) % n
    # guilds p never saw nor can locate may be any guild p never saw (W-INFO-4)
    if s.age == 3:
        for g in range(SV_NUM_GUILDS):
            i = GUILD_PHYS[g]
            if bit_has(seen_all, i) or bit_has(s.built, i) or bit_has(me.facedown, i) \
                    or bit_has(me.hand, i):
                guilds_seen |= 1 << g
        n_unseen_g = 0
        for g in range(SV_NUM_GUILDS):
            if (s.guilds >> g) & 1 and not (guilds_seen >> g) & 1:
                n_unseen_g += 1
        avail_g = (~guilds_seen) & ((1 << SV_NUM_GUILDS) - 1)
        for g in range(SV_NUM_GUILDS):
            if guild_out(s, g):
                avail_g &= ~(1 << g)        # a guild a study removed is known to be out
        if n_unseen_g:
            # take the drawn guilds p never saw out of their places (noting the places), then
            # draw as many from every guild p never saw and put them back in those places
            nloc = 0
            for g in range(SV_NUM_GUILDS):
                if (s.guilds >> g) & 1 and not (guilds_seen >> g) & 1:
                    i = GUILD_PHYS[g]
                    loc[nloc] = 255
                    for q in range(n):
                        if bit_has(s.c[q].hand, i):
                            loc[nloc] = q
                            bit_del(s.c[q].hand, i)
                    if bit_has(s.deck, i):
                        loc[nloc] = 10
                        bit_del(s.deck, i)
                    if bit_has(s.discard, i):
                        loc[nloc] = 11
                        bit_del(s.discard, i)
                    if bit_has(s.tucked, i):
                        loc[nloc] = 12
                        bit_del(s.tucked, i)
                    bit_del(U, i)
                    bit_del(cur, i)
                    s.guilds &= ~(1 << g)
                    nloc += 1
            for k in range(nloc):
                t = take_random_bit(&avail_g, rng)
                s.guilds |= 1 << t
                i = GUILD_PHYS[t]
                bit_add(U, i)
                bit_add(cur, i)
                if loc[k] < 7:
                    bit_add(s.c[loc[k]].hand, i)
                elif loc[k] == 10:
                    bit_add(s.deck, i)
                elif loc[k] == 11:
                    bit_add(s.discard, i)
                elif loc[k] == 12:
                    bit_add(s.tucked, i)
    elif s.guilds:
        # before Age III nobody has seen a guild: the drawn ones may be any guild a study did
        # not remove, as many as were drawn (W-INFO-4); none of them is in a hand or a pile
        avail_g = (1 << SV_NUM_GUILDS) - 1
        for g in range(SV_NUM_GUILDS):
            if guild_out(s, g):
                avail_g &= ~(1 << g)
        k = popcount(s.guilds)
        s.guilds = 0
        for nloc in range(k):
            s.guilds |= 1 << take_random_bit(&avail_g, rng)
    # hands of the other players
    for w in range(3):
        pool[w] = U[w] & cur[w] & ~seen_all[w]
    for q in range(n):
        if q == p:
            continue
        k = b3_count(s.c[q].hand)
        for w in range(3):
            s.c[q].hand[w] = 0
        if s.seen[p][pk[q]][0] | s.seen[p][pk[q]][1] | s.seen[p][pk[q]][2]:
            for w in range(3):
                cand[w] = s.seen[p][pk[q]][w] & U[w]
            j = b3_count(cand)
            if j > k:
                j = k
            pick_subset(cand, j, s.c[q].hand, rng)
            # Free City: the controller's hand also holds the card it drew from the pile
            pick_subset(pool, k - j, s.c[q].hand, rng)
        else:
            pick_subset(pool, k, s.c[q].hand, rng)
        for w in range(3):
            U[w] &= ~s.c[q].hand[w]
            pool[w] &= ~s.c[q].hand[w]
    # the pile (the Free City's, or mid-deal), then the face-down places
    k = b3_count(s.deck)
    for w in range(3):
        s.deck[w] = 0
    pick_subset(pool, k, s.deck, rng)
    for w in range(3):
        U[w] &= ~s.deck[w]
    nd = 0
    nt = 0
    for w in range(3):
        newd[w] = s.discard[w] & me.facedown[w]
        newt[w] = s.tucked[w] & me.facedown[w]
        tmp[w] = s.discard[w] & ~me.facedown[w]
    nd = b3_count(tmp)
    pick_subset(U, nd, newd, rng)
    for w in range(3):
        newt[w] |= U[w]
        s.discard[w] = newd[w]
        s.tucked[w] = newt[w]
    # Babylon's kept card is a card of its hand
    if s.seventh_card != SV_NO_CARD and s.seventh_seat != p:
        if s.seventh_seat == 2 and n == 2:
            s.seventh_card = b3_first(s.deck)
        else:
            s.seventh_card = b3_first(s.c[s.seventh_seat].hand)
    if s.phase == SP_TURN:
        for q in range(s.n_seats):
            if sv_decider(s, q) != p:
                s.commit[q] = -1
                s.commit_card[q] = SV_NO_CARD

# ---------------------------------------------------------------- IS-MCTS
ctypedef struct MEdge:
    i32 action
    i32 next                # next edge of the same node, -1
    i32 visits
    i32 avail
    double reward
    u8 seat

ctypedef struct MNode:
    u64 key                 # hash of the joint action that leads here
    i32 first_child
    i32 next_sibling
    i32 first_edge
    i32 visits

ctypedef struct MTree:
    MNode* nodes
    MEdge* edges
    i32 n_nodes
    i32 cap_nodes
    i32 n_edges
    i32 cap_edges

cdef inline i32 find_edge(MTree* t, MNode* nd, int seat, int a) noexcept nogil:
    cdef i32 e = nd.first_edge
    while e >= 0:
        if t.edges[e].action == a and t.edges[e].seat == seat:
            return e
        e = t.edges[e].next
    if t.n_edges >= t.cap_edges:
        return -1
    e = t.n_edges
    t.n_edges += 1
    t.edges[e].action = a
    t.edges[e].seat = seat
    t.edges[e].visits = 0
    t.edges[e].avail = 0
    t.edges[e].reward = 0
    t.edges[e].next = nd.first_edge
    nd.first_edge = e
    return e

cdef inline i32 child_of(MTree* t, i32 ni, u64 key, bint create) noexcept nogil:
    cdef i32 c = t.nodes[ni].first_child
    while c >= 0:
        if t.nodes[c].key == key:
            return c
        c = t.nodes[c].next_sibling
    if not create or t.n_nodes >= t.cap_nodes:
        return -1
    c = t.n_nodes
    t.n_nodes += 1
    t.nodes[c].key = key
    t.nodes[c].first_child = -1
    t.nodes[c].first_edge = -1
    t.nodes[c].visits = 0
    t.nodes[c].next_sibling = t.nodes[ni].first_child
    t.nodes[ni].first_child = c
    return c

cdef double W_WIN = 0.5

def _set_win_weight(double w):
    """Tuning hook: the weight of the win share in the MCTS reward (the rest: VP margin)."""
    global W_WIN
    W_WIN = w

cdef int REWARD = 0
cdef double MARGIN_SCALE = 10.0

def _set_reward(int mode, double scale=10.0):
    """Tuning hook: 0 win share + margin to the best (clipped at 40 VP); 1 win share +
    logistic of the margin to the best other player (scale VP)."""
    global REWARD, MARGIN_SCALE
    REWARD = mode
    MARGIN_SCALE = scale

cdef void terminal_rewards(const SevenState* s, double* r) noexcept nogil:
    """Per-player reward: the win share (W-END-2) plus a small VP-margin term."""
    cdef int vp[SV_MAX_SEATS * SV_NUM_CAT]
    cdef int m = sv_winners(s), i, j, k = popcount(m), best = -1000, other
    sv_scores(s, vp)
    for i in range(s.n_players):
        if vp[i * 8 + 7] > best:
            best = vp[i * 8 + 7]
    for i in range(s.n_seats):
        r[i] = 0
    for i in range(s.n_players):
        if REWARD == 1:
            other = -1000
            for j in range(s.n_players):
                if j != i and vp[j * 8 + 7] > other:
                    other = vp[j * 8 + 7]
            r[i] = (W_WIN / k if (m >> i) & 1 else 0.0) + (1.0 - W_WIN) / \
                (1.0 + exp(-(vp[i * 8 + 7] - other) / MARGIN_SCALE))
            continue
        r[i] = (W_WIN / k if (m >> i) & 1 else 0.0) + (1.0 - W_WIN) * \
            (1.0 - (best - vp[i * 8 + 7]) / 40.0 if best - vp[i * 8 + 7] < 40 else 0.0)

cdef int ismcts(const SevenState* root, int me, int iterations, double c_uct, u64 seed,
                MTree* t, int* visits_out, int* acts_out, int* n_out, const int* stop,
                int* done_out) noexcept nogil:
    """Information-set MCTS for the player deciding for seat ``me`` at ``root``.  Each iteration
    determinizes the unseen cards for that player, descends the tree selecting every pending
    seat's action with its own UCB statistics (decoupled; availability-counted), expands one
    node, finishes with a greedy playout (greedy_playout) and backs up each seat's reward
    (its decider's).  The process-wide stop flag or the token ``stop`` (NULL: none) ends the
    search before its next iteration; ``done_out`` (NULL: not wanted) gets the iterations run.
    Returns the chosen action (the best so far when stopped)."""
    cdef u64 rng = seed
    cdef SevenState d
    cdef int out[SV_MAX_LEGAL]
    cdef int seats[SV_MAX_SEATS]
    cdef i32 path_e[512]
    cdef i32 path_seat[512]
    cdef i32 path_n[256]
    cdef double rew[SV_MAX_SEATS]
    cdef int it, np_, ne, k, m, j, seat, chosen, ns, me_player = sv_decider(root, me)
    cdef int ndone = iterations
    cdef i32 ni, e, be, nxt
    cdef u64 key
    cdef double best, v, lg, qv
    cdef bint expanded
    cdef MNode* nd
    t.n_nodes = 1
    t.n_edges = 0
    t.nodes[0].first_child = -1
    t.nodes[0].first_edge = -1
    t.nodes[0].visits = 0
    t.nodes[0].key = 0
    t.nodes[0].next_sibling = -1
    for it in range(iterations):
        if stop_requested() or token_set(stop):
            ndone = it
            break
        d = root[0]
        sv_determinize(&d, me_player, &rng)
        ni = 0
        np_ = 0
        ne = 0
        expanded = False
        while d.phase != SP_OVER and not expanded:
            if d.phase <= SP_DRAW:
                sv_apply(&d, -1, sv_sample_chance(&d, &rng))
                continue
            nd = &t.nodes[ni]
            nd.visits += 1
            path_n[np_] = ni
            np_ += 1
            lg = log(nd.visits + 1.0)
            ns = sv_pending(&d, seats)
            key = 1469598103934665603ULL
            if SV_UNLIKELY(ns <= 0):
                broken(&d, PRE_NO_LEGAL)
                break
            for k in range(ns):
                seat = seats[k]
                m = sv_legal_actions(&d, seat, out)
                if SV_UNLIKELY(m <= 0):
                    broken(&d, PRE_NO_LEGAL)
                    break
                be = -1
                best = -1e18
                for j in range(m):
                    e = find_edge(t, nd, seat, out[j])
                    if e < 0:
                        continue
                    t.edges[e].avail += 1
                    qv = quick_value(&d, seat, out[j]) * 0.1 if PB_W > 0 else 0.0
                    if t.edges[e].visits == 0:
                        v = 1e9 + qv * 1000 + sv_rng_next(&rng) % 100
                    else:
                        v = t.edges[e].reward / t.edges[e].visits + \
                            c_uct * sqrt(log(<double>t.edges[e].avail) / t.edges[e].visits) + \
                            PB_W * qv / (t.edges[e].visits + 1)
                    if v > best:
                        best = v
                        be = e
                if be < 0:
                    chosen = out[sv_rng_below(&rng, m)]
                else:
                    chosen = t.edges[be].action
                    if ne < 512:
                        path_e[ne] = be
                        path_seat[ne] = sv_decider(&d, seat)
                        ne += 1
                key = (key ^ <u64>(chosen * 8 + seat)) * 1099511628211ULL
                # committed at once: the Free City and its controller share one hand, so the
                # second of them chooses among the cards the first has left (W-FREE-4)
                sv_apply(&d, seat, chosen)
            nxt = child_of(t, ni, key, False)
            if nxt < 0:
                nxt = child_of(t, ni, key, True)
                expanded = True
                if nxt < 0:
                    break
            ni = nxt
            if np_ >= 255:
                break
        if PLAYOUT == 1:
            heuristic_playout(&d, &rng)
        elif PLAYOUT == 2:
            greedy_playout(&d, &rng)
        else:
            build_first_playout(&d, &rng)
        terminal_rewards(&d, rew)
        for k in range(ne):
            e = path_e[k]
            t.edges[e].visits += 1
            t.edges[e].reward += rew[path_seat[k]]
    # the most visited action of seat `me` at the root
    m = sv_legal_actions(root, me, out)
    chosen = out[0] if m > 0 else -1
    best = -1
    n_out[0] = 0
    for j in range(m):
        e = t.nodes[0].first_edge
        while e >= 0:
            if t.edges[e].seat == me and t.edges[e].action == out[j]:
                break
            e = t.edges[e].next
        v = t.edges[e].visits if e >= 0 else 0
        visits_out[j] = <int>v
        acts_out[j] = out[j]
        if v > best:
            best = v
            chosen = out[j]
    n_out[0] = m
    if done_out != NULL:
        done_out[0] = ndone
    return chosen

cdef bint tree_alloc(MTree* t, int iterations) noexcept nogil:
    t.cap_nodes = iterations + 2
    t.cap_edges = 400 * (iterations + 2) if iterations < 5000 else 2000000
    t.nodes = <MNode*>malloc(t.cap_nodes * sizeof(MNode))
    t.edges = <MEdge*>malloc(t.cap_edges * sizeof(MEdge))
    return t.nodes != NULL and t.edges != NULL

cdef void tree_free(MTree* t) noexcept nogil:
    free(t.nodes)
    free(t.edges)
    t.nodes = NULL
    t.edges = NULL

ctypedef struct AgentSpec:
    int kind                # AG_*
    int iterations          # MCTS iterations per decision
    double c_uct            # MCTS exploration constant

cdef int agent_act(const AgentSpec* spec, const SevenState* s, int seat, u64* rng,
                   MTree* t) noexcept nogil:
    cdef int out[SV_MAX_LEGAL]
    cdef int v[SV_MAX_LEGAL]
    cdef int a[SV_MAX_LEGAL]
    cdef int n
    if spec.kind == AG_GREEDY:
        return greedy_action(s, seat, rng)
    if spec.kind == AG_MCTS:
        return ismcts(s, seat, spec.iterations, spec.c_uct, sv_rng_next(rng), t, v, a, &n,
                      NULL, NULL)
    n = sv_legal_actions(s, seat, out)
    if SV_UNLIKELY(n <= 0):
        return -precondition_fault(PRE_NO_LEGAL)
    return out[sv_rng_below(rng, n)]

cdef bint play_game(SevenState* s, const AgentSpec* specs, u64* rng, MTree* t) noexcept nogil:
    """Play to the end; each seat's decisions (the Free City's: its decider's) by
    specs[decider], committed seat by seat (W-TURN-1).  Returns 0 if the stop flag ended it
    early (then it is not a game)."""
    cdef int seats[SV_MAX_SEATS]
    cdef int n, k, q, a
    while s.phase != SP_OVER:
        if s.phase <= SP_DRAW:
            sv_apply(s, -1, sv_sample_chance(s, rng))
            continue
        n = sv_pending(s, seats)
        if SV_UNLIKELY(n <= 0):
            broken(s, PRE_NO_LEGAL)
            break
        for k in range(n):
            # the agents read nothing of another decider's commitment (MCTS forgets them when
            # it determinizes); the Free City's controller sees its own first card
            q = sv_decider(s, seats[k])
            a = agent_act(&specs[q], s, seats[k], rng, t)
            if stop_requested():
                return 0
            sv_apply(s, seats[k], a)
    return 1

# ---------------------------------------------------------------- Python wrappers
_AGENT_KINDS = {"random": AG_RANDOM, "greedy": AG_GREEDY, "mcts": AG_MCTS}


def _spec(desc):
    """Agent spec from ``"random"``, ``"greedy"``, ``"mcts"`` or ``"mcts:ITERATIONS"``."""
    cdef AgentSpec sp
    if not isinstance(desc, str):
        raise ValueError(f"an agent is a string such as 'random', 'greedy' or 'mcts:1000', not {desc!r}")
    kind, _, arg = desc.partition(":")
    if kind not in _AGENT_KINDS:
        raise ValueError(f"unknown agent {desc!r} (random, greedy, mcts[:iterations])")
    sp.kind = _AGENT_KINDS[kind]
    sp.iterations = 1000
    sp.c_uct = 0.4
    if arg:
        it, _, c = arg.partition(":")
        if kind != "mcts" or not it.isdigit() or int(it) < 1:
            raise ValueError(f"bad agent {desc!r}: only mcts takes a positive iteration count")
        sp.iterations = int(it)
        if c:
            try:
                sp.c_uct = float(c)
            except ValueError:
                raise ValueError(f"bad agent {desc!r}: mcts:ITERATIONS:C takes a number C") from None
    return sp


def random_games(int players, int games, seed=0):
    """Play ``games`` random games (uniform legal actions) in compiled code, nogil.

    Returns a dict: ``games`` (games finished), ``moves`` (decisions in total), ``wins`` (per
    player, shared wins counted for each winner), ``signature`` (total VP of all seats over
    all games, a determinism check), ``seconds`` (wall-clock time of the loop) and
    ``interrupted`` (True if the stop flag, :func:`interrupt` or Ctrl-C, ended the run early:
    then every count is over the games finished)."""
    if not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7, not {players}")
    cdef SevenState s
    cdef u64 rng = <u64>seed
    cdef long moves = 0, sig = 0
    cdef int vp[SV_MAX_SEATS * SV_NUM_CAT]
    cdef long wins[8]
    cdef int g, i, m, done = 0
    cdef double t0, t1
    memset(wins, 0, sizeof(wins))
    with _SigintHook():
        with nogil:
            t0 = now()
            for g in range(games):
                if stop_requested():
                    break
                sv_init(&s, players, sv_rng_next(&rng), 0)
                sv_random_playout(&s, &rng)
                moves += s.n_moves
                m = sv_winners(&s)
                for i in range(players):
                    if (m >> i) & 1:
                        wins[i] += 1
                sv_scores(&s, vp)
                for i in range(s.n_seats):
                    sig += vp[i * 8 + 7]
                done = g + 1
            t1 = now()
    return {"games": done, "moves": moves, "wins": [wins[i] for i in range(players)],
            "signature": sig, "seconds": t1 - t0, "interrupted": done < games}


def play_games(int players, agents, int games, seed=0):
    """Play ``games`` games between agents (one description per player, e.g.
    ``["mcts:1000", "random", "random", "random"]``), nogil.  Seats rotate nothing: player i
    always sits at seat i.  Returns a dict with ``games`` (games finished), ``wins`` (per
    player, shared wins split), ``vp`` (mean total VP per player), ``seconds`` and
    ``interrupted`` (True if the stop flag, :func:`interrupt` or Ctrl-C, ended the run early:
    then the wins and means are over the games finished)."""
    if not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7, not {players}")
    if len(agents) != players:
        raise ValueError(f"play_games needs {players} agents, got {len(agents)}")
    cdef AgentSpec specs[SV_MAX_SEATS]
    cdef MTree t
    cdef SevenState s
    cdef u64 rng = <u64>seed
    cdef int vp[SV_MAX_SEATS * SV_NUM_CAT]
    cdef double wins[8]
    cdef double vps[8]
    cdef int g, i, m, k, iters = 1, done = 0
    cdef double t0, t1
    for i in range(players):
        specs[i] = _spec(agents[i])
        if specs[i].kind == AG_MCTS and specs[i].iterations > iters:
            iters = specs[i].iterations
    memset(wins, 0, sizeof(wins))
    memset(vps, 0, sizeof(vps))
    if not tree_alloc(&t, iters):
        tree_free(&t)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                t0 = now()
                for g in range(games):
                    if stop_requested():
                        break
                    sv_init(&s, players, sv_rng_next(&rng), 0)
                    if not play_game(&s, specs, &rng, &t):
                        break
                    m = sv_winners(&s)
                    k = popcount(m)
                    sv_scores(&s, vp)
                    for i in range(players):
                        if (m >> i) & 1:
                            wins[i] += 1.0 / k
                        vps[i] += vp[i * 8 + 7]
                    done = g + 1
                t1 = now()
    finally:
        tree_free(&t)
    return {"games": done, "wins": [wins[i] for i in range(players)],
            "vp": [vps[i] / done if done else 0.0 for i in range(players)],
            "seconds": t1 - t0, "interrupted": done < games}


def choose_action(State state, int seat, agent="random", seed=0, return_stats=False,
                  stop=None):
    """The action an agent picks for ``seat`` at ``state`` (the state is not changed).  The MCTS
    agent sees only what the seat's decider may see: it determinizes the unseen cards itself.
    With ``return_stats``, also ``{action: root visits}`` (MCTS).  The stop flag
    (:func:`interrupt`, or Ctrl-C in the main thread: KeyboardInterrupt follows) or
    ``stop.set()`` of a :class:`SearchStop` given as ``stop`` (this search alone) ends the
    search at once with its best action so far."""
    cdef AgentSpec sp = _spec(agent)
    cdef const int* token = token_ptr(stop)
    cdef MTree t
    cdef u64 rng = <u64>seed
    cdef int a, n = 0
    cdef int v[SV_MAX_LEGAL]
    cdef int acts[SV_MAX_LEGAL]
    cdef SevenState s = state.s
    if sv_is_chance(&s) or s.phase == SP_OVER:
        raise ValueError("choose_action needs a decision node")
    if seat not in state.pending_seats():
        raise ValueError(f"seat {seat} has no decision at this node")
    if sp.kind != AG_MCTS:
        with nogil:
            a = agent_act(&sp, &s, seat, &rng, &t)
        return (a, {}) if return_stats else a
    if not tree_alloc(&t, sp.iterations):
        tree_free(&t)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                a = ismcts(&s, seat, sp.iterations, sp.c_uct, sv_rng_next(&rng), &t, v, acts,
                           &n, token, NULL)
    finally:
        tree_free(&t)
    if return_stats:
        return a, {acts[i]: v[i] for i in range(n)}
    return a


def _playout(State state, agent="random", seed=0):
    """For the tests (fuzzing, defence in depth): a copy of ``state`` played to the end inside
    the core (nogil), every seat's decisions by ``agent`` (``"random"``, ``"greedy"`` or
    ``"mcts:N"``) and chance sampled from ``seed``: the loop of :func:`play_games` from any
    position.  Returns the final State (over, or ended by a broken precondition in release)."""
    cdef AgentSpec specs[SV_MAX_SEATS]
    cdef AgentSpec sp = _spec(agent)
    cdef State o = state.clone()
    cdef MTree t
    cdef u64 rng = <u64>seed
    cdef int i
    for i in range(SV_MAX_SEATS):
        specs[i] = sp
    if not tree_alloc(&t, sp.iterations if sp.kind == AG_MCTS else 1):
        tree_free(&t)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                play_game(&o.s, specs, &rng, &t)
    finally:
        tree_free(&t)
    return o


def determinize(State state, int player, seed=0):
    """A full position consistent with what ``player`` has seen (W-INFO), for tests."""
    cdef State o = state.clone()
    cdef u64 rng = <u64>seed
    if not 0 <= player < state.s.n_players:
        raise ValueError(f"player must be in 0..{state.s.n_players - 1}")
    sv_determinize(&o.s, player, &rng)
    return o


def mcts_speed(int players, int iterations, seed=0):
    """Iterations per second of one IS-MCTS search from the first decision of a random game
    (of the iterations run: the stop flag, :func:`interrupt` or Ctrl-C, ends it early)."""
    cdef MTree t
    cdef SevenState s
    cdef int v[SV_MAX_LEGAL]
    cdef int acts[SV_MAX_LEGAL]
    cdef int n, done = 0
    cdef double t0, t1
    cdef u64 rng = <u64>seed
    sv_init(&s, players, seed, 0)
    sv_settle(&s, &rng)
    if not tree_alloc(&t, iterations):
        tree_free(&t)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                t0 = now()
                ismcts(&s, 0, iterations, 0.4, 12345, &t, v, acts, &n, NULL, &done)
                t1 = now()
    finally:
        tree_free(&t)
    return done / (t1 - t0)


cdef enum:
    DETAIL_ROW = 5 + SV_NUM_CAT     # ints per seat of one game's row in play_games_detail:
                                    #   board, side, total, coins, winners (seat 0), the VP
                                    #   of each category

cdef inline u64 game_stream(u64 seed, u64 g, u64 salt) noexcept nogil:
    """An RNG state for game ``g`` of a batch, independent of every other game."""
    cdef u64 x = seed ^ salt
    x += (g + 1) * <u64>0xD1B54A32D192ED03ULL
    return sv_rng_next(&x)


def play_games_detail(int players, agents, int games, seed=0, sides=None, boards=None,
                      remove=None, lineups=None, int first_game=0):
    """Play ``games`` games between agents in compiled code (nogil), one row per game.

    ``agents``: agent descriptions (``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:N"``,
    ``"mcts:N:C"``); with ``lineups`` None there is one per seat (player i at seat i), else
    ``lineups`` gives, per game, the index into ``agents`` of each seat's agent (a games x
    players list).  ``sides``, ``boards`` and ``remove`` are the set-up options of
    :func:`new_state` (a study's treatments; the spare copies for ``remove`` are drawn again
    for every game).

    Game ``first_game + g`` has its own chance seed and its own agent RNG, both derived from
    ``seed`` and the game's index alone: the same game index gives the same deal under every
    treatment and lineup (common random numbers), and a batch split in chunks gives the same
    games.  Returns a dict of lists per game: ``boards`` and ``sides`` (per seat), ``totals``
    (VP per seat, W-END-1), ``vp`` (per seat, the VP in each category of VP_CATEGORIES, the
    total last: what ``State.scores()`` gives), ``coins``, ``winners`` (a bitmask of players,
    W-END-2); and ``seconds`` (wall-clock time of the batch), ``completed`` (games finished)
    and ``interrupted`` (True if the stop flag, :func:`interrupt` or Ctrl-C in the main
    thread, ended the batch early: the lists then hold the ``completed`` games finished, the
    first ones of the batch; after Ctrl-C, KeyboardInterrupt is raised instead).  Raises
    ValueError for a bad player count, agent, lineup or set-up."""
    if not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7, not {players}")
    if lineups is None and len(agents) != players:
        raise ValueError(f"play_games needs {players} agents, got {len(agents)}")
    if not 1 <= len(agents) <= 64:
        raise ValueError(f"1..64 agents, not {len(agents)}")
    if games < 0 or first_game < 0:
        raise ValueError("games and first_game are non-negative")
    cdef AgentSpec specs[64]
    cdef MTree t
    cdef State proto = new_state(players, 0, boards=boards, sides=sides, explicit_chance=True,
                                 remove=remove)
    cdef SevenState s
    cdef u64 base = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef u64 arng
    cdef int vp[SV_MAX_SEATS * SV_NUM_CAT]
    cdef int g, i, iters = 1, seats = proto.s.n_seats, k, nag = len(agents), done = 0
    cdef bint spares = (proto.s.excluded[0] | proto.s.excluded[1] | proto.s.excluded[2]) != 0
    cdef int* out
    cdef int* lu
    cdef double t0, t1
    for i in range(nag):
        specs[i] = _spec(agents[i])
        if specs[i].kind == AG_MCTS and specs[i].iterations > iters:
            iters = specs[i].iterations
    rows_lu = []
    if lineups is None:
        rows_lu = [list(range(players))] * games
    else:
        if len(lineups) != games:
            raise ValueError(f"lineups must give one line-up per game ({games})")
        for g, line in enumerate(lineups):
            try:
                line = [operator.index(x) for x in line]
            except TypeError:
                line = [None]
            if len(line) != players or not all(0 <= x < nag for x in line):
                raise ValueError(f"line-up {g}: {players} agent indices in 0..{nag - 1}, "
                                 f"not {line!r}")
            rows_lu.append(line)
    out = <int*>malloc(games * DETAIL_ROW * SV_MAX_SEATS * sizeof(int) + 1)
    lu = <int*>malloc(games * SV_MAX_SEATS * sizeof(int) + 1)
    if out == NULL or lu == NULL:
        free(out)
        free(lu)
        raise MemoryError("results")
    for g in range(games):
        for i in range(players):
            lu[g * SV_MAX_SEATS + i] = rows_lu[g][i]
    if not tree_alloc(&t, iters):
        tree_free(&t)
        free(out)
        free(lu)
        raise MemoryError("MCTS tree")
    cdef AgentSpec seat_specs[SV_MAX_SEATS]
    try:
        with _SigintHook():
            with nogil:
                t0 = now()
                for g in range(games):
                    if stop_requested():
                        break
                    s = proto.s
                    s.options = 0
                    s.rng = game_stream(base, first_game + g, 0)
                    if spares:
                        sv_deal_spares(&s, game_stream(base, first_game + g, SPARE_MIX))
                    arng = game_stream(base, first_game + g, 0xA6E27A6E27A6E27AULL)
                    for i in range(players):
                        seat_specs[i] = specs[lu[g * SV_MAX_SEATS + i]]
                    if not play_game(&s, seat_specs, &arng, &t):
                        break
                    sv_scores(&s, vp)
                    for i in range(seats):
                        out[(g * DETAIL_ROW + 0) * SV_MAX_SEATS + i] = s.c[i].board
                        out[(g * DETAIL_ROW + 1) * SV_MAX_SEATS + i] = s.c[i].side
                        out[(g * DETAIL_ROW + 2) * SV_MAX_SEATS + i] = vp[i * 8 + 7]
                        out[(g * DETAIL_ROW + 3) * SV_MAX_SEATS + i] = s.c[i].coins
                        for k in range(SV_NUM_CAT):
                            out[(g * DETAIL_ROW + 5 + k) * SV_MAX_SEATS + i] = vp[i * 8 + k]
                    out[(g * DETAIL_ROW + 4) * SV_MAX_SEATS] = sv_winners(&s)
                    done = g + 1
                t1 = now()
        rows = {"boards": [], "sides": [], "totals": [], "vp": [], "coins": [], "winners": [],
                "seconds": t1 - t0, "completed": done, "interrupted": done < games}
        for g in range(done):
            b = g * DETAIL_ROW * SV_MAX_SEATS
            rows["boards"].append([_data.BOARD_NAMES[out[b + i]] for i in range(seats)])
            rows["sides"].append(["AB"[out[b + SV_MAX_SEATS + i]] for i in range(seats)])
            rows["totals"].append([out[b + 2 * SV_MAX_SEATS + i] for i in range(seats)])
            rows["vp"].append([[out[b + (5 + k) * SV_MAX_SEATS + i] for k in range(SV_NUM_CAT)]
                               for i in range(seats)])
            rows["coins"].append([out[b + 3 * SV_MAX_SEATS + i] for i in range(seats)])
            rows["winners"].append(out[b + 4 * SV_MAX_SEATS])
    finally:
        tree_free(&t)
        free(out)
        free(lu)
    return rows
