# Agents and batch games of the Architects core (included by engine.pyx): random playouts, the
# greedy one-ply agent, an MCTS with chance nodes and per-seat rewards for N players, the
# determinization of what a seat cannot see (A-INFO), and nogil batch runs that honour the
# stop flag.  Search code speaks only the state API (ar_legal, ar_apply, chance outcomes,
# scores) and one static evaluation.
from libc.stdlib cimport malloc, free
from libc.math cimport sqrt, log, exp
import operator

cdef enum:
    AG_RANDOM = 0
    AG_GREEDY = 1
    AG_MCTS = 2

ctypedef struct AgentSpec:
    int kind
    int iterations
    double c_uct
    int playout         # the MCTS playout policy: PL_SHARP, PL_LITE, PL_GREEDY or PL_MODEL


# ---------------------------------------------------------------- what a seat may see
cdef void ar_determinize(ArchState* s, int seat, u64* rng) noexcept nogil:
    """Replace what ``seat`` cannot see by a fresh draw from what it knows (A-INFO): the
    RNG of future chance, and the central top unless ``seat`` looked at it (A-CAT-4; the
    other knowers then know the new draw)."""
    cdef ArchDeck* c = &s.d[AR_CENTRAL]
    cdef int k, r
    s.rng = ar_rng_next(rng)
    if c.top != AR_NONE and not (s.knowers >> seat) & 1:
        c.cnt[c.top] += 1
        r = ar_rng_below(rng, c.n)
        for k in range(14):
            r -= c.cnt[k]
            if r < 0:
                break
        c.cnt[k] -= 1
        c.top = k


# ---------------------------------------------------------------- random
cdef void ar_random_playout(ArchState* s, u64* rng) noexcept nogil:
    """Play to the end with uniformly random legal decisions; chance from s.rng."""
    cdef int out[AR_MAX_LEGAL]
    cdef int n
    while True:
        n = ar_settle(s, out)
        if n == 0:
            return
        ar_decide(s, out[ar_rng_below(rng, n)])


# ---------------------------------------------------------------- the static evaluation
cdef double W_RES = 0.55        # weights of the evaluation (see evaluate); tuned by self-play
cdef double W_STAGE = 1.0
cdef double W_GREEN = 0.8
cdef double W_SHIELD = 0.15
cdef double STAGE_BONUS = 2.0   # VP-equivalent of a stage beyond its VP (the race to finish)
cdef int MIL_FORM = 0          # 0: the tokens of a battle now; 1: shields ahead, and tokens
cdef int LINEAR = 1             # 1: stage progress counted linearly, 0: squared
cdef double W_TOKEN = 0.75       # weight of the tokens' worth beyond their score (TOKVAL)
cdef double W_PEND = 3.0        # an extra pick or a token still to take this turn
# VP-equivalent of owning each token type beyond what the score counts (A-TOK): the
# extra-card tokens and the payment tokens help later turns; Culture's second copy doubles
# and more; Strategy and Politics grow with what comes.
cdef double TOKVAL[14]
TOKVAL[:] = [2.5, 1.5, 1.0, 0.5, 2.0, 1.0, 2.0, 2.0, 1.0, 1.0, 1.5, 1.0, 0.0, 1.5]


cdef double W_SPARE = 1.33       # VP-equivalent of a resource unit beyond the next stage's
cdef double END_W = 0.0         # discount of potential while another seat nears completion


cdef inline double end_discount(const ArchState* s, int i) noexcept nogil:
    """1, or less when another seat has built 4 stages (the game may end before seat i's
    resources turn into stages, A-END-1)."""
    cdef int j, m = 0, b
    for j in range(s.n_players):
        if j != i:
            b = popcount(s.p[j].built)
            if b > m:
                m = b
    return 1.0 - END_W * (m - 2 if m > 2 else 0)


cdef double seat_value(const ArchState* s, int i) noexcept nogil:
    """A static value of seat i in VP: its score now, plus what its cards are on their way to
    (A-END-3): resources toward its available stages, green cards toward a token, shields
    toward the next battle."""
    cdef int v[AR_NUM_CAT]
    cdef const ArchSeat* p = &s.p[i]
    cdef double val, best = 0.0, x
    cdef int avail, st, k, have, r, g, kinds, tot, coins, e, sh, nb, n = s.n_players
    cdef int greens
    cdef double y
    cdef int kbest = 0, spare
    seat_score(s, i, v)
    if s.phase == PH_OVER:
        return v[5] + 0.0
    val = v[5] + STAGE_BONUS * popcount(p.built)
    if p.built != ALL_STAGES and p.wonder < AR_NUM_WONDERS:
        avail = available_stages(s, i)
        coins = p.tab[K_COIN]
        e = 1 if (p.tok[T_ECONOMY] and coins) else 0
        g = 0
        kinds = 0
        tot = 0
        for r in range(5):
            tot += p.tab[r]
            if p.tab[r]:
                kinds += 1
            if p.tab[r] > g:
                g = p.tab[r]
        for st in range(5):
            if not (avail >> st) & 1:
                continue
            k = COST_UNITS[st]
            if p.tok[T_ENGINEERING]:
                have = tot + coins + e
            elif COST_SAME[st]:
                have = g + coins + e
            else:
                have = kinds + coins + e
            if have >= k:
                x = W_STAGE * (STAGE_VP[p.wonder][st] + STAGE_BONUS)
            elif LINEAR:
                x = W_STAGE * (STAGE_VP[p.wonder][st] + STAGE_BONUS) * have / k
            else:
                x = W_STAGE * (STAGE_VP[p.wonder][st] + STAGE_BONUS) * have * have / (k * k)
            if x > best:
                best = x
                kbest = k if have >= k else have
        # units beyond the best stage's serve the stages after it
        spare = tot + coins - kbest
        if spare > 4:
            spare = 4
        val += (best + W_RES * 0.1 * (tot + coins) + W_SPARE * spare) * end_discount(s, i)
    # science: green cards toward a set (a token is worth about 4 VP); once sets are formed a
    # seat holds at most one of each symbol: two different ones make a set with any green
    greens = (p.tab[K_TABLET] > 0) + (p.tab[K_GEAR] > 0) + (p.tab[K_COMPASS] > 0)
    val += W_GREEN * (greens if greens < 2 else 2.5 * (greens - 1))
    for k in range(14):
        if p.tok[k]:
            val += W_TOKEN * TOKVAL[k] * p.tok[k]
    if i == s.active and s.phase != PH_OVER:
        val += W_PEND * s.n_pend
        if s.task == TK_TOKEN or s.draw == DR_BLIND:
            val += W_PEND + 2.5
    # military: the tokens a battle would give now (A-MIL-4, -5), in VP, weighted by how
    # close the battle is (conflict tokens turned)
    sh = ar_shields(s, i)
    if n == 2:
        nb = ar_shields(s, 1 - i)
        x = two_player_tokens(sh, nb) - two_player_tokens(nb, sh)
    else:
        nb = ar_shields(s, (i + 1) % n)
        x = (sh > nb) - (sh < nb)
        nb = ar_shields(s, (i + n - 1) % n)
        x += (sh > nb) - (sh < nb)
    if MIL_FORM == 0:
        val += W_SHIELD * 3.0 * x * (0.3 + 0.7 * s.turned / (<double>s.conflict))
    else:
        nb = ar_shields(s, (i + 1) % n)
        y = sh - nb
        if n > 2:
            y = 0.5 * (y + sh - ar_shields(s, (i + n - 1) % n))
        y = 3.0 if y > 3 else (-3.0 if y < -3 else y)
        val += W_SHIELD * (y + 1.5 * x) * (0.5 + s.turned / (<double>s.conflict))
    return val


cdef double evaluate(const ArchState* s, int seat) noexcept nogil:
    """The value of the position for ``seat``: its seat_value minus the best other's (at
    the end: the final scores and a win bonus)."""
    cdef int i
    cdef double mine = seat_value(s, seat), other = -1e9, x
    for i in range(s.n_players):
        if i != seat:
            x = seat_value(s, i)
            if x > other:
                other = x
    return mine - other


# ---------------------------------------------------------------- greedy (one ply)
cdef double expected_value(ArchState* s, int seat, int depth) noexcept nogil:
    """evaluate() after the chance that decides what ``seat`` holds (a card drawn from C or
    kept from a window, a token drawn): averaged over its exact outcomes; other chance
    (revealed tops, the token row, a look) does not change the evaluation and is sampled."""
    cdef int out[AR_MAX_LEGAL]
    cdef double prob[AR_MAX_LEGAL]
    cdef int n, j
    cdef double tot
    cdef ArchState c
    while s.phase == PH_CHANCE:
        if depth > 0 and (s.chance == CK_CENTRAL or s.chance == CK_BLIND):
            n = ar_chance_outcomes(s, out, prob)
            tot = 0.0
            for j in range(n):
                c = s[0]
                ar_apply(&c, out[j])
                tot += prob[j] * expected_value(&c, seat, depth - 1)
            return tot
        ar_apply(s, ar_sample_chance(s, &s.rng))
    return evaluate(s, seat)


cdef int greedy_action(const ArchState* s, u64* rng) noexcept nogil:
    """The greedy agent (one ply): the decision whose immediate result has the best
    evaluate() for the active seat, chance right after it averaged over its exact outcomes
    (what is drawn from C, a token from the stack); ties broken at random.  It reads only what
    the seat may see: the state is determinized for it first."""
    cdef int out[AR_MAX_LEGAL]
    cdef int n = ar_legal(s, out), j, best = 0, ties = 0, seat = s.active
    cdef double v, bv = -1e18
    cdef ArchState base = s[0]
    cdef ArchState c
    if n <= 1:
        return out[0]
    ar_determinize(&base, seat, rng)
    base.options |= OP_EXPLICIT_CHANCE
    for j in range(n):
        c = base
        ar_apply(&c, out[j])
        v = expected_value(&c, seat, 1)
        if v > bv + 1e-9:
            bv = v
            best = j
            ties = 1
        elif v > bv - 1e-9:
            ties += 1
            if ar_rng_below(rng, ties) == 0:
                best = j
    return out[best]


# ---------------------------------------------------------------- MCTS with chance nodes
ctypedef struct MNode:
    i32 child           # first child node, -1
    i32 sibling         # next sibling, -1
    i32 visits
    i16 key             # the action or chance outcome that leads here
    i8 mover            # seat that chose it (-1: a chance outcome)
    i8 _pad
    float prior         # the mover's one-ply value of the action, in [0, 1]
    double w            # sum of the mover's rewards

ctypedef struct MTree:
    MNode* nodes
    int cap
    int used


cdef bint tree_alloc(MTree* t, int iterations) noexcept nogil:
    cdef long cap = <long>iterations * 8 + 256    # a node's children are made together
    t.cap = <int>(cap if cap < 4000000 else 4000000)    # at most 4M nodes (about 128 MB)
    t.used = 0
    t.nodes = <MNode*>malloc(t.cap * sizeof(MNode))
    return t.nodes != NULL


cdef void tree_free(MTree* t) noexcept nogil:
    free(t.nodes)
    t.nodes = NULL


cdef inline i32 new_node(MTree* t, int key, int mover) noexcept nogil:
    cdef i32 k = t.used
    if k >= t.cap:
        return -1
    t.used += 1
    t.nodes[k].child = -1
    t.nodes[k].sibling = -1
    t.nodes[k].visits = 0
    t.nodes[k].key = key
    t.nodes[k].mover = mover
    t.nodes[k].w = 0.0
    t.nodes[k].prior = 0.5
    return k


cdef inline i32 find_child(MTree* t, i32 parent, int key) noexcept nogil:
    cdef i32 c = t.nodes[parent].child
    while c >= 0:
        if t.nodes[c].key == key:
            return c
        c = t.nodes[c].sibling
    return -1


cdef inline i32 add_child(MTree* t, i32 parent, int key, int mover) noexcept nogil:
    cdef i32 c = new_node(t, key, mover)
    if c >= 0:
        t.nodes[c].sibling = t.nodes[parent].child
        t.nodes[parent].child = c
    return c


cdef double R_WIN = 1.0          # reward: a win share, plus a small VP margin term
cdef double R_MARGIN = 0.02


cdef void rewards(const ArchState* s, double* r) noexcept nogil:
    """Per-seat rewards of a finished game: the win share (1/k for k winners, A-END-4)
    plus R_MARGIN per VP above the mean score (N players)."""
    cdef int vp[AR_MAX_SEATS * AR_NUM_CAT]
    cdef int i, n = s.n_players, m = s.winner_mask, k = popcount(s.winner_mask)
    cdef double mean = 0.0
    ar_scores(s, vp)
    for i in range(n):
        mean += vp[i * AR_NUM_CAT + 5]
    mean /= n
    for i in range(n):
        r[i] = (R_WIN / k if (m >> i) & 1 else 0.0) + R_MARGIN * (vp[i * AR_NUM_CAT + 5] - mean)


cdef int OPEN_LOOP = 1          # 1: chance outcomes do not branch the tree (open loop)
cdef int LITE_ALL = 1           # lite playouts choose non-pick decisions by greedy_lite
cdef enum:
    PL_RANDOM = 0               # uniform playouts
    PL_LITE = 1                 # lite_choice: the best deck by seat_value (the first agent's)
    PL_GREEDY = 2               # greedy_lite at every decision, G_EPS random
    PL_SHARP = 3                # lite_choice without random decisions (the default)
    PL_MODEL = 4                # PL_SHARP playouts; in the tree the other seats decide by the
                                #   greedy agent's rule (greedy_action), not by UCT
cdef int PLAYOUT = PL_SHARP     # the default playout policy of an mcts agent
cdef double EPS = 0.1           # random decisions of the lite policy (PL_LITE)
cdef double G_EPS = 0.0         # random decisions of the greedy policy


cdef int greedy_lite(ArchState* s, int* out, int n, u64* rng, double eps) noexcept nogil:
    """The playout policy 2: with probability EPS a random decision, else the one whose
    result (chance sampled, the same draws for every action) has the best evaluate()."""
    cdef int j, best = 0, seat = s.active
    cdef int buf[AR_MAX_LEGAL]
    cdef double v, bv = -1e18
    cdef ArchState c
    cdef u64 r0 = ar_rng_next(rng)
    if eps > 0 and ar_rng_unit(rng) < eps:
        return out[ar_rng_below(rng, n)]
    for j in range(n):
        c = s[0]
        c.rng = r0
        ar_decide(&c, out[j])
        ar_settle(&c, buf)
        v = evaluate(&c, seat) + 0.01 * ar_rng_unit(rng)
        if v > bv:
            bv = v
            best = j
    return out[best]


cdef int lite_choice(ArchState* s, int* out, int n, u64* rng, double eps) noexcept nogil:
    """The lite playout policy: at a pick (main, extra, Alexandria) the deck whose known top
    (for C: a fresh draw) scores best for the seat by seat_value after it arrives, other
    decisions by greedy_lite (LITE_ALL, else random); with probability ``eps`` random (the
    draw is made whatever ``eps``)."""
    cdef int j, best = 0, d, k, r, ph = s.phase, seat = s.active
    cdef double v, bv = -1e18
    cdef ArchSeat save
    cdef u8 cat, turned, battle
    if ar_rng_unit(rng) < eps:
        return out[ar_rng_below(rng, n)]
    if not (ph == PH_MAIN or ph == PH_PICK or ph == PH_ALEX):
        return greedy_lite(s, out, n, rng, 0.0) if LITE_ALL else out[ar_rng_below(rng, n)]
    for j in range(n):
        if ph == PH_ALEX:
            if out[j] == A_DECLINE:
                continue
            d = out[j] - A_DECK_BASE
        else:
            if out[j] == A_DECLINE:
                continue
            d = pick_deck(s, out[j] - A_PICK_BASE)
        k = s.d[d].top
        if k == AR_NONE:
            k = 0
            r = ar_rng_below(rng, s.d[d].n)
            while k < 13:
                r -= s.d[d].cnt[k]
                if r < 0:
                    break
                k += 1
        save = s.p[seat]
        cat = s.cat
        s.p[seat].tab[k] += 1
        if k == K_BLUE2CAT:
            s.cat = seat
        v = seat_value(s, seat) + 0.05 * ar_rng_unit(rng)
        s.p[seat] = save
        s.cat = cat
        if v > bv:
            bv = v
            best = j
    return out[best]


cdef int GREEDY_AGENT_PLAYOUT = 0   # 1: PL_GREEDY playouts decide by greedy_action (a trial)
cdef int PLAYOUT_TURNS = 1000   # playouts stop after this many turns: then evaluate() scores
cdef double EVAL_T = 5.0        # VP scale of the logistic reward of an evaluated leaf


cdef void playout(ArchState* s, u64* rng, double* r, int policy) noexcept nogil:
    """Play on with the playout ``policy`` (PL_SHARP: lite_choice without random decisions;
    PL_LITE: lite_choice, EPS random; PL_GREEDY: greedy_lite at every decision; PL_RANDOM)
    for at most
    PLAYOUT_TURNS
    turns; the per-seat rewards go to r: the game's (rewards()) if it ended, else a
    logistic of each seat's evaluation against the best other seat's."""
    cdef int out[AR_MAX_LEGAL]
    cdef int n, i, j, stop_turn = s.turns + PLAYOUT_TURNS
    cdef double v[AR_MAX_SEATS]
    cdef double best
    s.options &= ~OP_EXPLICIT_CHANCE
    while True:
        n = ar_settle(s, out)
        if n == 0:
            rewards(s, r)
            return
        if s.turns >= stop_turn:
            break
        if policy == PL_GREEDY:
            if GREEDY_AGENT_PLAYOUT:        # the greedy agent's own rule (a tuning hook)
                ar_decide(s, greedy_action(s, rng))
            else:
                ar_decide(s, greedy_lite(s, out, n, rng, G_EPS))
        elif policy == PL_SHARP:
            ar_decide(s, lite_choice(s, out, n, rng, 0.0))
        elif policy == PL_LITE:
            ar_decide(s, lite_choice(s, out, n, rng, EPS))
        else:
            ar_decide(s, out[ar_rng_below(rng, n)])
    for i in range(s.n_players):
        v[i] = seat_value(s, i)
    for i in range(s.n_players):
        best = -1e18
        for j in range(s.n_players):
            if j != i and v[j] > best:
                best = v[j]
        r[i] = 1.0 / (1.0 + exp(-(v[i] - best) / EVAL_T))


cdef double PRIOR_N = 4.0       # virtual visits of an action's one-ply prior (progressive bias)
cdef int PIMC = 0               # > 0: that many determinized futures, one tree each (below)
cdef int PEEK = 0               # with PIMC: the real hidden state, not a guess (a cheat, for
                                #   measuring what knowing the future is worth; never a default)
cdef int OPP_MODEL = 0          # other seats' decisions in the tree (a tuning hook; PL_MODEL
                                #   sets 3): 0 UCT nodes, 1 the sharp policy's choice,
                                #   2 greedy_lite, 3 the greedy agent's (greedy_action)


cdef bint expand(MTree* t, i32 node, const ArchState* s, const int* out, int n) noexcept nogil:
    """Make every child of a decision node, each with its one-ply prior: the mover's
    evaluate() just after the action (a draw from C averaged, as the greedy agent does), as
    a logistic in [0, 1].  False if the tree is full."""
    cdef int j, mover = s.active
    cdef i32 ch
    cdef ArchState c
    if t.used + n > t.cap:
        return False
    for j in range(n - 1, -1, -1):
        ch = add_child(t, node, out[j], mover)
        c = s[0]
        ar_apply(&c, out[j])
        t.nodes[ch].prior = 1.0 / (1.0 + exp(-expected_value(&c, mover, 1) / EVAL_T))
    return True


cdef inline void root_visits(MTree* t, const int* acts, int n, int* acc) noexcept nogil:
    """Add the visits of the root's children (by action) to acc."""
    cdef int j
    cdef i32 ch
    for j in range(n):
        ch = find_child(t, 0, acts[j])
        if ch >= 0:
            acc[j] += t.nodes[ch].visits


cdef int mcts(const ArchState* root, int iterations, double c_uct, u64 seed, MTree* t,
              int* visits, int* acts, int* nacts, const int* token,
              int policy) noexcept nogil:
    """MCTS for the active seat of ``root``, for N players: each decision node is scored for
    the seat that chooses there (per-seat rewards: the win share plus a small VP margin).
    Chance is chance: every iteration starts from a fresh determinization of what the seat
    cannot see (ar_determinize: it never reads the central top unless the seat looked at
    it, nor the state's RNG) and samples each chance event by its exact probabilities; with
    OPEN_LOOP (the default) the tree branches on decisions only, else one child per chance
    outcome.  A new decision node gets all its children at once, each with a one-ply prior
    (progressive bias, PRIOR_N virtual visits); playouts to the end by ``policy`` (by
    default PL_SHARP: every seat, the searching one included, plays the lite policy's
    choice with no random decisions, in the determinized state, so it reads nothing the seat
    may not see).  PL_MODEL plays PL_SHARP playouts and, in the tree, makes the other
    seats' decisions by the greedy agent's rule (greedy_action, which determinizes for that
    seat within the searching seat's determinization): only the searching seat's decisions
    are nodes, an opponent model rather than a search of their replies.
    Returns the most visited legal action; the root's legal actions and their visits go to
    acts/visits."""
    cdef int out[AR_MAX_LEGAL]
    cdef i32 path[1024]
    cdef double r[AR_MAX_SEATS]
    cdef int it, n, j, a, plen, seat = root.active, best, bv
    cdef i32 node, ch, pick
    cdef double score, bs, lnN
    cdef u64 rng = seed
    cdef ArchState s
    cdef int opp = OPP_MODEL
    cdef int K = PIMC if 0 < PIMC <= iterations else 0
    cdef int group = -1, gk
    cdef int acc[AR_MAX_LEGAL]
    cdef u64 gseed = 0, gcopy
    if policy == PL_MODEL:
        opp = 3
        policy = PL_SHARP
    t.used = 0
    new_node(t, -1, -1)
    nacts[0] = ar_legal(root, acts)
    if nacts[0] == 1:
        visits[0] = 0
        return acts[0]
    for j in range(nacts[0]):
        acc[j] = 0
    for it in range(iterations):
        if stop_requested() or token_set(token):
            break
        s = root[0]
        if K:
            gk = <int>((<long long>it * K) // iterations)
            if gk != group:
                if group >= 0:
                    root_visits(t, acts, nacts[0], acc)
                    t.used = 0
                    new_node(t, -1, -1)
                group = gk
                gseed = ar_rng_next(&rng)
            gcopy = gseed
            if not PEEK:
                ar_determinize(&s, seat, &gcopy)
            s.options &= ~OP_EXPLICIT_CHANCE
        else:
            ar_determinize(&s, seat, &rng)
            s.options |= OP_EXPLICIT_CHANCE
        node = 0
        plen = 0
        while s.phase != PH_OVER and plen < 1000:
            if s.phase == PH_CHANCE:
                a = ar_sample_chance(&s, &rng)
                if OPEN_LOOP:                       # chance does not branch the tree
                    ar_apply(&s, a)
                    continue
                ch = find_child(t, node, a)
                ar_apply(&s, a)
                if ch < 0:
                    ch = add_child(t, node, a, -1)
                    if ch >= 0:
                        path[plen] = ch
                        plen += 1
                    break
                path[plen] = ch
                plen += 1
                node = ch
                continue
            n = ar_legal(&s, out)
            j = s.active
            if opp and j != seat:                   # another seat: its modelled choice
                if opp == 1:
                    a = lite_choice(&s, out, n, &rng, 0.0)
                elif opp == 2:
                    a = greedy_lite(&s, out, n, &rng, 0.0)
                else:
                    a = greedy_action(&s, &rng)
                ar_apply(&s, a)
                continue
            if t.nodes[node].child < 0 and not expand(t, node, &s, out, n):
                break                               # the tree is full: a leaf
            pick = -1
            bs = -1e18
            lnN = log(t.nodes[node].visits + 1.0)
            for j in range(n):
                ch = find_child(t, node, out[j])
                if ch < 0:                          # an action this node had not seen
                    ch = add_child(t, node, out[j], s.active)
                    if ch < 0:
                        continue
                score = ((t.nodes[ch].w + PRIOR_N * t.nodes[ch].prior)
                         / (t.nodes[ch].visits + PRIOR_N)
                         + c_uct * sqrt(lnN / (t.nodes[ch].visits + 1.0)))
                if score > bs:
                    bs = score
                    pick = j
            if pick < 0:
                break
            a = out[pick]
            ch = find_child(t, node, a)
            ar_apply(&s, a)
            path[plen] = ch
            plen += 1
            node = ch
            if t.nodes[ch].visits == 0:
                break                               # a new node: play out from here
        if s.phase == PH_OVER:
            rewards(&s, r)
        else:
            playout(&s, &rng, r, policy)
        t.nodes[0].visits += 1
        for j in range(plen):
            ch = path[j]
            t.nodes[ch].visits += 1
            if t.nodes[ch].mover >= 0:
                t.nodes[ch].w += r[t.nodes[ch].mover]
    best = acts[0]
    bv = -1
    root_visits(t, acts, nacts[0], acc)
    for j in range(nacts[0]):
        visits[j] = acc[j]
        if visits[j] > bv:
            bv = visits[j]
            best = acts[j]
    return best


# ---------------------------------------------------------------- agents
cdef int agent_act(const AgentSpec* sp, const ArchState* s, u64* rng, MTree* t,
                   const int* token) noexcept nogil:
    cdef int out[AR_MAX_LEGAL]
    cdef int v[AR_MAX_LEGAL]
    cdef int n
    if sp.kind == AG_GREEDY:
        return greedy_action(s, rng)
    if sp.kind == AG_MCTS:
        return mcts(s, sp.iterations, sp.c_uct, ar_rng_next(rng), t, v, out, &n, token,
                    sp.playout)
    n = ar_legal(s, out)
    return out[ar_rng_below(rng, n) if n > 1 else 0]


cdef int play_game(ArchState* s, const AgentSpec* specs, u64* rng, MTree* t) noexcept nogil:
    """Play to the end, seat i's decisions by specs[i]; chance from s.rng.  Returns 0, or 1
    if the stop flag ended the game early."""
    while s.phase != PH_OVER:
        if stop_requested():
            return 1
        if s.phase == PH_CHANCE:
            ar_apply(s, ar_sample_chance(s, &s.rng))
            continue
        ar_apply(s, agent_act(&specs[s.active], s, rng, t, NULL))
    return 0


_AGENT_KINDS = {"random": AG_RANDOM, "greedy": AG_GREEDY, "mcts": AG_MCTS}


_PLAYOUTS = {"sharp": PL_SHARP, "lite": PL_LITE, "greedy": PL_GREEDY, "model": PL_MODEL}


def _spec(desc):
    """An agent from its core description: ``random``, ``greedy``, ``mcts``,
    ``mcts:ITERATIONS`` or ``mcts:ITERATIONS:C``, each mcts form optionally ending in a
    playout policy: ``:sharp`` (the default), ``:lite`` (the first agent's playouts),
    ``:greedy`` or ``:model`` (sharp playouts, the other seats' decisions in the tree by the
    greedy agent's rule) (ValueError otherwise)."""
    cdef AgentSpec sp
    if not isinstance(desc, str):
        raise ValueError(f"an agent is a string such as 'random', 'greedy' or 'mcts:1000', "
                         f"not {desc!r}")
    kind, _, arg = desc.partition(":")
    if kind not in _AGENT_KINDS:
        raise ValueError(f"unknown agent {desc!r} (random, greedy, "
                         f"mcts[:iterations[:c]][:sharp|:lite|:greedy|:model])")
    sp.kind = _AGENT_KINDS[kind]
    sp.iterations = 1000
    sp.c_uct = 0.7
    sp.playout = PLAYOUT
    if kind == "mcts" and arg.rpartition(":")[2] in _PLAYOUTS:
        arg, _, pl = arg.rpartition(":")
        sp.playout = _PLAYOUTS[pl]
    if arg:
        it, _, c = arg.partition(":")
        if kind != "mcts" or not it.isdigit() or not 1 <= int(it) <= 100_000_000:
            raise ValueError(f"bad agent {desc!r}: only mcts takes an iteration count "
                             f"(1..100,000,000)")
        sp.iterations = int(it)
        if c:
            try:
                sp.c_uct = float(c)
            except ValueError:
                raise ValueError(f"bad agent {desc!r}: mcts:ITERATIONS:C takes a number C") \
                    from None
            if not (sp.c_uct > 0 and sp.c_uct < 1e6):
                raise ValueError(f"bad agent {desc!r}: C must be a positive number")
    return sp


def _set_params(**kw):
    """Tuning hook (tests and experiments): the evaluation weights and the MCTS playout."""
    global W_RES, W_STAGE, W_GREEN, W_SHIELD, R_WIN, R_MARGIN, PLAYOUT, EPS, STAGE_BONUS
    global LINEAR, W_TOKEN, W_PEND, MIL_FORM, END_W, W_SPARE, OPEN_LOOP, PLAYOUT_TURNS, EVAL_T, PRIOR_N, LITE_ALL
    global G_EPS, OPP_MODEL, PIMC, PEEK, GREEDY_AGENT_PLAYOUT
    for k, v in kw.items():
        if k == "OPP_MODEL":
            OPP_MODEL = v
            continue
        if k == "PIMC":
            PIMC = v
            continue
        if k == "PEEK":
            PEEK = v
            continue
        if k == "GREEDY_AGENT_PLAYOUT":
            GREEDY_AGENT_PLAYOUT = v
            continue
        if k == "G_EPS":
            G_EPS = v
            continue
        if k == "STAGE_BONUS":
            STAGE_BONUS = v
            continue
        if k == "LINEAR":
            LINEAR = v
            continue
        if k == "LITE_ALL":
            LITE_ALL = v
            continue
        if k == "PRIOR_N":
            PRIOR_N = v
            continue
        if k == "PLAYOUT_TURNS":
            PLAYOUT_TURNS = v
            continue
        if k == "EVAL_T":
            EVAL_T = v
            continue
        if k == "OPEN_LOOP":
            OPEN_LOOP = v
            continue
        if k == "W_SPARE":
            W_SPARE = v
            continue
        if k == "END_W":
            END_W = v
            continue
        if k == "MIL_FORM":
            MIL_FORM = v
            continue
        if k == "W_TOKEN":
            W_TOKEN = v
            continue
        if k == "W_PEND":
            W_PEND = v
            continue
        if k == "W_RES":
            W_RES = v
        elif k == "W_STAGE":
            W_STAGE = v
        elif k == "W_GREEN":
            W_GREEN = v
        elif k == "W_SHIELD":
            W_SHIELD = v
        elif k == "R_WIN":
            R_WIN = v
        elif k == "R_MARGIN":
            R_MARGIN = v
        elif k == "PLAYOUT":
            PLAYOUT = v
        elif k == "EPS":
            EPS = v
        else:
            raise KeyError(k)


def evaluation(State state, int seat):
    """The static evaluation of ``seat`` (VP scale) the greedy agent maximises."""
    return evaluate(&state.s, seat)


def choose_action(State state, agent="random", seed=0, return_stats=False, stop=None):
    """The decision ``agent`` (``random``, ``greedy``, ``mcts``, ``mcts:N[:C]``) makes for
    the active seat; the state is not changed.  Every agent sees only what the seat may see
    (A-INFO): greedy and MCTS determinize the central top and the RNG themselves.  With
    ``return_stats``, also ``{action: root visits}`` (MCTS).  The process-wide stop flag
    (:func:`interrupt`, Ctrl-C) or ``stop.set()`` of a :class:`SearchStop` given as ``stop``
    (this search alone) ends a search early with its best action so far.  ValueError at a
    chance node or the end, or for a bad agent; TypeError for a ``stop`` that is not a
    SearchStop."""
    cdef AgentSpec sp = _spec(agent)
    cdef MTree t
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef int a, n = 0, i
    cdef int v[AR_MAX_LEGAL]
    cdef int acts[AR_MAX_LEGAL]
    cdef ArchState s = state.s
    cdef const int* token = token_ptr(stop)
    if s.phase == PH_CHANCE or s.phase == PH_OVER:
        raise ValueError("choose_action needs a decision node")
    if sp.kind != AG_MCTS:
        with nogil:
            a = agent_act(&sp, &s, &rng, &t, NULL)
        return (a, {}) if return_stats else a
    if not tree_alloc(&t, sp.iterations):
        tree_free(&t)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                a = mcts(&s, sp.iterations, sp.c_uct, ar_rng_next(&rng), &t, v, acts, &n,
                         token, sp.playout)
    finally:
        tree_free(&t)
    if return_stats:
        return a, {acts[i]: v[i] for i in range(n)}
    return a


def hidden_variant(State state, int seat, seed=0):
    """A position that differs from ``state`` only in what ``seat`` cannot see (A-INFO):
    the RNG of future chance and, unless the seat looked at it, the central top."""
    cdef State o = state.clone()
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF) ^ <u64>0x5DEECE66DULL
    if not 0 <= seat < state.s.n_players:
        raise ValueError(f"seat must be in 0..{state.s.n_players - 1}")
    ar_determinize(&o.s, seat, &rng)
    return o


def random_games(int players, int games, seed=0):
    """Play ``games`` random games (uniform legal decisions) in compiled code, nogil; the
    stop flag ends the batch early.

    Returns a dict: ``games`` (finished), ``moves`` (decisions), ``turns``, ``wins`` (per
    seat, shared wins counted for each winner), ``signature`` (total VP of every seat over
    the games: a determinism check) and ``seconds``."""
    if not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7, not {players}")
    if games < 0:
        raise ValueError("games must be non-negative")
    cdef ArchState s
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef long moves = 0, turns = 0, sig = 0
    cdef int vp[AR_MAX_SEATS * AR_NUM_CAT]
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
                ar_init(&s, players, ar_rng_next(&rng), 0)
                ar_advance(&s)
                ar_random_playout(&s, &rng)
                moves += s.n_moves
                turns += s.turns
                m = s.winner_mask
                for i in range(players):
                    if (m >> i) & 1:
                        wins[i] += 1
                ar_scores(&s, vp)
                for i in range(players):
                    sig += vp[i * AR_NUM_CAT + 5]
                done += 1
            t1 = now()
    return {"games": done, "moves": moves, "turns": turns,
            "wins": [wins[i] for i in range(players)], "signature": sig, "seconds": t1 - t0}


def mcts_speed(int players, int iterations, seed=0, playout="sharp"):
    """Iterations per second of one MCTS search from the first decision of a game, with the
    ``playout`` policy (``sharp``, the default agent's, ``lite``, ``greedy`` or ``model``)."""
    if playout not in _PLAYOUTS:
        raise ValueError(f"playout is sharp, lite, greedy or model, not {playout!r}")
    cdef int policy = _PLAYOUTS[playout]
    cdef MTree t
    cdef ArchState s
    cdef int v[AR_MAX_LEGAL]
    cdef int acts[AR_MAX_LEGAL]
    cdef int n
    cdef double t0, t1
    ar_init(&s, players, <u64>seed, 0)
    ar_advance(&s)
    if not tree_alloc(&t, iterations):
        tree_free(&t)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                t0 = now()
                mcts(&s, iterations, 0.7, 12345, &t, v, acts, &n, NULL, policy)
                t1 = now()
    finally:
        tree_free(&t)
    return iterations / max(t1 - t0, 1e-9)


cdef inline u64 game_stream(u64 seed, u64 g, u64 salt) noexcept nogil:
    """An RNG state for game ``g`` of a batch, independent of every other game."""
    cdef u64 x = seed ^ salt
    x += (g + 1) * <u64>0xD1B54A32D192ED03ULL
    return ar_rng_next(&x)


def play_games_detail(int players, agents, int games, seed=0, lineups=None,
                      int first_game=0, **setup):
    """Play ``games`` games between agents in compiled code (nogil), one row per game and
    seat.  The stop flag (:func:`interrupt`) ends the batch early: the games finished are
    returned (``completed``), in order.

    ``agents``: core agent descriptions (``random``, ``greedy``, ``mcts:N[:C]``); with
    ``lineups`` None one per seat (agent i at seat i), else ``lineups`` gives per game the
    index into ``agents`` of each seat's agent.  ``setup``: the keywords of
    :func:`new_state` (wonders, rule options, removed_tokens) but seed and explicit_chance.

    Game ``first_game + g`` has its own chance seed and agent RNG, derived from ``seed`` and
    the game's index alone: the same index gives the same deal under every treatment and
    line-up (common random numbers), and chunks give the same games.  Returns a dict of
    per-game lists: ``wonders`` (names per seat), ``vp`` (per seat, the VP categories but
    total), ``totals``, ``stages`` (stages built per seat), ``winners`` (a bit mask),
    ``turns``, ``completed`` and ``seconds``."""
    if not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7, not {players}")
    if lineups is None and len(agents) != players:
        raise ValueError(f"{players} players need {players} agents, got {len(agents)}")
    if not 1 <= len(agents) <= 64:
        raise ValueError(f"1..64 agents, not {len(agents)}")
    if games < 0 or first_game < 0:
        raise ValueError("games and first_game are non-negative")
    for k in ("seed", "explicit_chance"):
        if k in setup:
            raise ValueError(f"play_games_detail takes no {k!r} set-up keyword")
    cdef AgentSpec specs[64]
    cdef AgentSpec seat_specs[AR_MAX_SEATS]
    cdef MTree t
    cdef State proto = new_state(players, 0, **setup)
    cdef ArchState s
    cdef ArchState start
    cdef u64 base = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef u64 arng
    cdef int vp[AR_MAX_SEATS * AR_NUM_CAT]
    cdef int g, i, c, iters = 1, nag = len(agents), done = 0, stopped = 0
    cdef int* out
    cdef int* lu
    cdef double t0, t1
    cdef int row = AR_MAX_SEATS * (AR_NUM_CAT + 2) + 2
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
    # the start before any chance: ar_init + the caller's set-up (wonders, removed tokens)
    ar_init(&start, players, 0, proto.s.options & ~OP_EXPLICIT_CHANCE)
    for i in range(AR_MAX_SEATS):
        start.forced[i] = proto.s.forced[i]
    for i in range(14):
        start.gone[i] = proto.s.gone[i]
    out = <int*>malloc(games * row * sizeof(int) + 1)
    lu = <int*>malloc(games * AR_MAX_SEATS * sizeof(int) + 1)
    if out == NULL or lu == NULL:
        free(out)
        free(lu)
        raise MemoryError("results")
    for g in range(games):
        for i in range(players):
            lu[g * AR_MAX_SEATS + i] = rows_lu[g][i]
    if not tree_alloc(&t, iters):
        tree_free(&t)
        free(out)
        free(lu)
        raise MemoryError("MCTS tree")
    try:
        with _SigintHook():
            with nogil:
                t0 = now()
                for g in range(games):
                    if stop_requested():
                        break
                    s = start
                    s.rng = game_stream(base, first_game + g, 0)
                    ar_advance(&s)
                    arng = game_stream(base, first_game + g, 0xA6E27A6E27A6E27AULL)
                    for i in range(players):
                        seat_specs[i] = specs[lu[g * AR_MAX_SEATS + i]]
                    stopped = play_game(&s, seat_specs, &arng, &t)
                    if stopped:
                        break
                    ar_scores(&s, vp)
                    for i in range(players):
                        out[g * row + i] = s.p[i].wonder
                        out[g * row + AR_MAX_SEATS + i] = popcount(s.p[i].built)
                        for c in range(AR_NUM_CAT):
                            out[g * row + AR_MAX_SEATS * (2 + c) + i] = vp[i * AR_NUM_CAT + c]
                    out[g * row + row - 2] = s.winner_mask
                    out[g * row + row - 1] = s.turns
                    done += 1
                t1 = now()
        res = {"wonders": [], "stages": [], "vp": [], "totals": [], "winners": [],
               "turns": [], "completed": done, "seconds": t1 - t0}
        for g in range(done):
            b = g * row
            res["wonders"].append([WONDERS[out[b + i]] for i in range(players)])
            res["stages"].append([out[b + AR_MAX_SEATS + i] for i in range(players)])
            res["vp"].append([[out[b + AR_MAX_SEATS * (2 + c) + i]
                               for c in range(AR_NUM_CAT - 1)] for i in range(players)])
            res["totals"].append([out[b + AR_MAX_SEATS * (2 + AR_NUM_CAT - 1) + i]
                                  for i in range(players)])
            res["winners"].append(out[b + row - 2])
            res["turns"].append(out[b + row - 1])
    finally:
        tree_free(&t)
        free(out)
        free(lu)
    return res
