# The planning search's fitted playout policy (included by search.pyx, issue 10).
#
# The hand policy of policy.pxi scores a turn's actions with hand-set weights.  This one
# scores them with weights fitted to what the search itself chooses (expert iteration): a
# linear softmax over the turn's actions,
#
#     P(a | s) ~ exp(w . f(s, a)),
#
# where f(s, a) are the features below plus one-hot biases for the card built, the wonder
# built, the wonder built in this Age and a discard in this Age (POLICY_BIAS_NAMES: what the
# search likes in a card beyond the features, e.g. the Reserves and Tavern), and w is fitted
# offline (duelpy.train.fit_policy, `duel train --model policy`) to the root visit shares
# of planning searches in self-play; the weights ship as duelcore/policy_weights.npz.  In a
# playout the action is drawn from that softmax (temperature `temp`); an immediate
# Scientific or Military Supremacy is always taken, as in the hand policy.  Only turns
# (PH_PLAY) use it; the other decisions (draft, tokens, destroy, revive, who starts) keep
# the hand scores.
#
# The features of taking card c (shared by its build, discard and wonder actions) describe
# what taking it away does to the opponent q: their 6th symbol or last military step
# (deny_win), their 5th / 4th symbol, a big push toward our capital, the card's worth to q,
# and the cards it uncovers for q's next turn (the best face-up one's worth, and how many
# face-down ones are turned).  A build adds the card's own worth split into its parts; a
# discard its coins; a wonder its parts and whether it gives Play Again.
#
# The science bonus (plan option `science`): the weights were fitted to self-play in which
# the search rarely went for science, so the fitted playouts seldom collect symbols and the
# search in turn sees little worth in them.  A build that gives the player a new science
# symbol gets `science` added to its logit in the playouts (before the temperature), which
# breaks that loop (measured in the README: even at equal iterations against science 0,
# winning 30 games by Scientific Supremacy to the other's 8).

cdef enum:
    PF_BUILD = 0
    PF_DISCARD
    PF_WONDER
    PF_DENY_WIN             # taking c denies q an immediate supremacy
    PF_DENY5                # c is q's 5th distinct symbol
    PF_DENY4                # c is q's 4th distinct symbol
    PF_DENY_MIL             # c would push the pawn to 6+ toward our capital
    PF_OPP_VALUE            # c's worth to q (capped at 10 VP)
    PF_EXPOSE_VALUE         # best worth to q of a face-up card that taking c uncovers
    PF_EXPOSE_DOWN          # face-down cards that taking c uncovers
    PF_B_VALUE              # build: VP, coins / 3 and guild estimate (hand table)
    PF_B_VALUE3             # build: the same in Age III
    PF_B_NEW_SYMBOL         # build: a new science symbol (not the 6th)
    PF_B_SYMBOLS            # build: distinct symbols held before, when the symbol is new
    PF_B_PAIR               # build: a pair that earns a progress token
    PF_B_SHIELDS            # build: the hand worth of its shields (capped at 10 VP)
    PF_B_PROD1              # build: resource units produced, Age I
    PF_B_PROD2              # build: resource units produced, Age II
    PF_B_COST               # build: coins paid / 3
    PF_B_CHAIN              # build: it shows a chain symbol for a later Age (Ages I-II)
    PF_D_COINS              # discard: coins gained / 3
    PF_W_VALUE              # wonder: VP, coins, Play Again, effect (hand table)
    PF_W_SHIELDS            # wonder: the hand worth of its shields (capped)
    PF_W_COST               # wonder: coins paid / 3
    PF_W_EARLY              # wonder: built in Age I or II
    PF_W_AGAIN              # wonder: Play Again
    PF_B_PROD_NEW           # build: units of a resource p does not produce yet (brown/grey)
    PF_B_PROD_SQUEEZE       # build: units of a resource q does not produce (q's trading
                            #   price for it rises by one per unit, R-TRADE-1)
    PF_D_POOR               # discard: p has fewer than 4 coins
    PF_B_NOW                # build: what its guild or per-item coins are worth now (VP +
                            #   coins / 3, build_gains_now; the printed part is in B_VALUE)
    PF_OPP_NOW              # the same worth of c to q (taking c denies it)
    PF_DENY_PAIR            # c is q's second card of a symbol while tokens remain (a pair)
    PF_N                    # number of features

POLICY_FEATURES = PF_N
POLICY_FEATURE_NAMES = [
    "build", "discard", "wonder", "deny_win", "deny5", "deny4", "deny_military",
    "opponent_value", "expose_value", "expose_face_down", "build_value", "build_value_age3",
    "build_new_symbol", "build_symbols_held", "build_pair", "build_shields",
    "build_production_age1", "build_production_age2", "build_cost", "build_chain",
    "discard_coins", "wonder_value", "wonder_shields", "wonder_cost", "wonder_early",
    "wonder_play_again", "build_production_new", "build_production_squeeze", "discard_poor",
    "build_value_now", "opponent_value_now", "deny_pair"]
assert len(POLICY_FEATURE_NAMES) == PF_N


def _bias_names():
    from duelcore.duel import data
    return ([f"build_card_{c.name}" for c in data.CARDS]
            + [f"wonder_is_{w.name}" for w in data.WONDERS]
            + [f"wonder_is_{w.name}_age{age}" for age in (1, 2, 3) for w in data.WONDERS]
            + [f"discard_age{age}" for age in (1, 2, 3)])


cdef enum:
    PF_NB1 = NUM_CARDS + NUM_WONDERS    # the biases of the first weights files (85)
    PF_NB = PF_NB1 + 3 * NUM_WONDERS + 3

#: The names of the per-action biases that follow the features' weights in the weights file:
#: building each card (73), building each wonder (12), building each wonder in Age I, II
#: and III (36, on top of the wonder's own) and discarding in each Age (3).  A bias is the
#: weight of a one-hot feature of the action and the Age, kept out of the feature rows (the
#: core adds it by the action).
POLICY_BIAS_NAMES = _bias_names()
assert len(POLICY_BIAS_NAMES) == PF_NB
#: All the weights of the fitted policy, as the weights file lists them.
POLICY_WEIGHT_NAMES = POLICY_FEATURE_NAMES + POLICY_BIAS_NAMES
POLICY_WEIGHTS = len(POLICY_WEIGHT_NAMES)

# Move averages (MAST, issue 10): during one search, the mean reward of each player's turn
# actions over the search's simulations, keyed by what was done (build card c, discard card
# c, build wonder w: the card under a wonder does not matter), nudges the playouts' logits by
# mast_w * (mean - 0.5), so the playouts adapt to what works in this game.
DEF MAST_KEYS = 158                     # 73 builds, 73 discards, 12 wonders
DEF MAST_PRIOR = 2.0                    # pseudo-visits at 0.5 in a key's mean

cdef inline int mast_key(int a) noexcept nogil:
    """The MAST key of a turn action, or -1 for any other action."""
    if BUILD_BASE <= a < DISCARD_BASE:
        return a - BUILD_BASE
    if DISCARD_BASE <= a < WONDER_BASE:
        return NUM_CARDS + a - DISCARD_BASE
    if WONDER_BASE <= a < TOKEN_BASE:
        return 2 * NUM_CARDS + (a - WONDER_BASE) // NUM_CARDS
    return -1

DEF PF_MAX_ACTIONS = 96                 # turn actions: <= 8 cards x (build, discard, 4 wonders)

# A set of weights, as the core reads it: one flat array of PW_SIZE doubles.  Each agent
# (AgentSpec.pw) points to its own, so two planning searches with different weights can play
# one match; the arrays are made once per file and never freed (_PW_TABLES).
cdef enum:
    PW_CB = PF_N                        # + c: the logit bias of building card c
    PW_WB = PF_N + NUM_CARDS            # + 12 * (age - 1) + w: of building wonder w in that
                                        #   Age (its own bias plus the Age's)
    PW_DB = PF_N + NUM_CARDS + 3 * NUM_WONDERS  # + age - 1: of a discard in that Age
    PW_SIZE = PF_N + NUM_CARDS + 3 * NUM_WONDERS + 3

cdef const double* PF_DEFAULT = NULL    # the default weights (load_policy_weights)
cdef bint PF_LOADED = False
cdef u32 PF_COVERED[3][NUM_SLOTS]       # slots covering each slot (R-LAYOUT-1)
cdef u32 PF_COVERS[3][NUM_SLOTS]        # slots each slot covers
cdef u8 PC_CHAIN_OUT[NUM_CARDS]         # 1 if a card of a later Age chains from this one
cdef u8 PW_AGAIN[NUM_WONDERS]
cdef u8 PC_RES[NUM_CARDS][5]            # fixed units produced per resource (brown/grey)
cdef u8 PC_NOW[NUM_CARDS]               # 1: a guild or a card with coins per item

cdef inline void prod_features(const GameState* s, int p, int c, double* new, double* squeeze
                               ) noexcept nogil:
    cdef int r
    new[0] = 0.0
    squeeze[0] = 0.0
    for r in range(5):
        if PC_RES[c][r]:
            if s.p[p].fixed[r] == 0:
                new[0] += PC_RES[c][r]
            if s.p[1 - p].fixed[r] == 0:
                squeeze[0] += PC_RES[c][r]

cdef inline double cap10(double v) noexcept nogil:
    return 10.0 if v > 10.0 else (-10.0 if v < -10.0 else v)

cdef inline double value_now(const GameState* s, int p, int c) noexcept nogil:
    """PF_B_NOW / PF_OPP_NOW: VP + coins / 3 that card c's guild or per-item coins would give
    p if built now (0 for other cards)."""
    cdef int vp, coins
    if not PC_NOW[c]:
        return 0.0
    coins = build_gains_now(s, p, c, &vp)
    return vp + coins / 3.0

cdef inline void slot_map(const GameState* s, u8* slot_of) noexcept nogil:
    """slot_of[c]: the layout slot of each face-up card c not yet taken (255 for the others),
    one pass over the slots for a whole turn."""
    cdef u32 up = ~(s.taken | s.face_down) & ((<u32>1 << NUM_SLOTS) - 1)
    cdef int k
    memset(slot_of, 255, NUM_CARDS)
    while up:
        k = ctz(up)
        up &= up - 1
        if s.slot_card[k] != NO_CARD:
            slot_of[s.slot_card[k]] = k

# Which of the costlier features of taking a card card_take_features computes: all of them
# for the feature rows (TF_ALL); fitted_turn leaves out those that weigh 0 under its weights
# (a file fitted without them, issue 33), which gives the same logits with less work.
cdef enum:
    TF_OPP_VALUE = 1        # PF_OPP_VALUE: card_value for the opponent
    TF_OPP_NOW = 2          # PF_OPP_NOW
    TF_EXPOSE = 4           # PF_EXPOSE_DOWN, and the walk over the cards taking c uncovers
    TF_EXPOSE_VALUE = 8     # PF_EXPOSE_VALUE: each uncovered card's worth and cost for q
    TF_ALL = 15

cdef inline int take_needs(const double* W) noexcept nogil:
    """The TF_* features whose weight under W is not 0."""
    cdef int need = 0
    if W[PF_OPP_VALUE] != 0.0:
        need |= TF_OPP_VALUE
    if W[PF_OPP_NOW] != 0.0:
        need |= TF_OPP_NOW
    if W[PF_EXPOSE_VALUE] != 0.0:
        need |= TF_EXPOSE | TF_EXPOSE_VALUE
    if W[PF_EXPOSE_DOWN] != 0.0:
        need |= TF_EXPOSE
    return need

cdef inline void card_take_features(const GameState* s, int p, int c, int slot, double* g,
                                    int need) noexcept nogil:
    """g[PF_DENY_WIN .. PF_EXPOSE_DOWN], g[PF_OPP_NOW] and g[PF_DENY_PAIR]: what taking card
    c (in layout slot `slot`, 255 if none: slot_map) does to p's opponent.  A feature left
    out of `need` (TF_*) is 0."""
    cdef int q = 1 - p, sym = PC_SYMBOL[c], sh, d, u, card, trade
    cdef const PlayerState* op = &s.p[q]
    cdef double v, best = 0.0
    cdef u32 cov
    g[PF_DENY_WIN] = 0.0
    g[PF_DENY5] = 0.0
    g[PF_DENY4] = 0.0
    g[PF_DENY_MIL] = 0.0
    g[PF_DENY_PAIR] = 0.0
    if sym != 255 and op.symbols[sym] == 0:
        if op.n_symbols >= 5:
            g[PF_DENY_WIN] = 1.0
        elif op.n_symbols == 4:
            g[PF_DENY5] = 1.0
        elif op.n_symbols == 3:
            g[PF_DENY4] = 1.0
    elif sym != 255 and op.symbols[sym] == 1 and s.board_tokens:
        g[PF_DENY_PAIR] = 1.0
    if PC_RED[c]:
        sh = PC_SHIELDS[c] + ((op.tokens >> TK_STRATEGY) & 1)
        d = push_distance(s, q)
        if d + sh >= 9:
            g[PF_DENY_WIN] = 1.0
        elif d + sh >= 6:
            g[PF_DENY_MIL] = 1.0
    g[PF_OPP_VALUE] = cap10(card_value(s, q, c)) if need & TF_OPP_VALUE else 0.0
    g[PF_OPP_NOW] = value_now(s, q, c) if need & TF_OPP_NOW else 0.0
    g[PF_EXPOSE_VALUE] = 0.0
    g[PF_EXPOSE_DOWN] = 0.0
    if s.age < 1 or s.age > 3 or slot >= NUM_SLOTS or not (need & TF_EXPOSE):
        return
    cov = PF_COVERS[s.age - 1][slot]
    while cov:
        u = ctz(cov)
        cov &= cov - 1
        if (PF_COVERED[s.age - 1][u] & ~s.taken) != (<u32>1 << slot):
            continue                    # still covered by another card
        card = s.slot_card[u]
        if card == NO_CARD:
            g[PF_EXPOSE_DOWN] += 1.0
        elif need & TF_EXPOSE_VALUE:
            v = cap10(card_value(s, q, card)) - card_cost(s, q, card, &trade) / 3.0
            if v > best:
                best = v
    g[PF_EXPOSE_VALUE] = best

cdef inline void take_shared(const double* g, double* f) noexcept nogil:
    """Copy the features of taking a card (card_take_features) into an action's row."""
    memcpy(&f[PF_DENY_WIN], &g[PF_DENY_WIN], (PF_EXPOSE_DOWN - PF_DENY_WIN + 1) * sizeof(double))
    f[PF_OPP_NOW] = g[PF_OPP_NOW]
    f[PF_DENY_PAIR] = g[PF_DENY_PAIR]

cdef int turn_features(const GameState* s, int* acts, double* F, int* win) noexcept nogil:
    """The turn's actions (PH_PLAY) and their features: acts[i], F[i * PF_N + k].

    Lists, card by card, the build (if affordable), the discard and each affordable wonder
    (if fewer than 7 are built, R-WONDER-3): the same set as legal_actions, in another order.
    `win` receives an action that wins at once (a 6th symbol, the pawn on the capital), or -1.
    Returns the number of actions (at most PF_MAX_ACTIONS)."""
    cdef int p = s.to_move, c, w, k, trade, cost, n = 0, sym
    cdef u64 bits
    cdef u16 ws
    cdef int wcost[NUM_WONDERS]
    cdef double wsh[NUM_WONDERS]
    cdef double g[PF_N]
    cdef double v, sv
    cdef double* f
    cdef const PlayerState* me = &s.p[p]
    cdef u8 slot_of[NUM_CARDS]
    win[0] = -1
    slot_map(s, slot_of)
    ws = (me.wonders & ~me.built) if s.n_built_wonders < 7 else 0
    for w in range(NUM_WONDERS):
        if (ws >> w) & 1:
            wcost[w] = wonder_cost(s, p, w, &trade)
            wsh[w] = shield_value(s, p, PW_SHIELDS[w])
            if wsh[w] >= P_WIN and wcost[w] <= me.coins:
                win[0] = WONDER_BASE + w * NUM_CARDS + ctz(s.avail[0]) if s.avail[0] else (
                    WONDER_BASE + w * NUM_CARDS + 64 + ctz(s.avail[1]))
    for k in range(2):
        bits = s.avail[k]
        while bits:
            c = 64 * k + ctz(bits)
            bits &= bits - 1
            card_take_features(s, p, c, slot_of[c], g, TF_ALL)
            cost = card_cost(s, p, c, &trade)
            if cost <= me.coins and n < PF_MAX_ACTIONS:
                f = &F[n * PF_N]
                memcpy(f, g, PF_N * sizeof(double))
                f[PF_BUILD] = 1.0
                f[PF_DISCARD] = 0.0
                f[PF_WONDER] = 0.0
                f[PF_B_VALUE] = PC_VALUE[c]
                f[PF_B_VALUE3] = PC_VALUE[c] if s.age == 3 else 0.0
                sym = PC_SYMBOL[c]
                f[PF_B_NEW_SYMBOL] = 0.0
                f[PF_B_SYMBOLS] = 0.0
                f[PF_B_PAIR] = 0.0
                if sym != 255:
                    if me.symbols[sym] == 0:
                        if me.n_symbols >= 5:
                            win[0] = BUILD_BASE + c
                        f[PF_B_NEW_SYMBOL] = 1.0
                        f[PF_B_SYMBOLS] = me.n_symbols
                    elif me.symbols[sym] == 1 and s.board_tokens:
                        f[PF_B_PAIR] = 1.0
                f[PF_B_SHIELDS] = 0.0
                if PC_RED[c]:
                    sv = shield_value(s, p, PC_SHIELDS[c] + ((me.tokens >> TK_STRATEGY) & 1))
                    if sv >= P_WIN:
                        win[0] = BUILD_BASE + c
                    f[PF_B_SHIELDS] = cap10(sv)
                f[PF_B_PROD1] = PC_PROD[c] if s.age == 1 else 0.0
                f[PF_B_PROD2] = PC_PROD[c] if s.age == 2 else 0.0
                f[PF_B_COST] = cost / 3.0
                f[PF_B_CHAIN] = PC_CHAIN_OUT[c] if s.age < 3 else 0.0
                f[PF_D_COINS] = 0.0
                f[PF_W_VALUE] = 0.0
                f[PF_W_SHIELDS] = 0.0
                f[PF_W_COST] = 0.0
                f[PF_W_EARLY] = 0.0
                f[PF_W_AGAIN] = 0.0
                prod_features(s, p, c, &f[PF_B_PROD_NEW], &f[PF_B_PROD_SQUEEZE])
                f[PF_D_POOR] = 0.0
                f[PF_B_NOW] = value_now(s, p, c)
                acts[n] = BUILD_BASE + c
                n += 1
            if n < PF_MAX_ACTIONS:
                f = &F[n * PF_N]
                memset(f, 0, PF_N * sizeof(double))
                take_shared(g, f)
                f[PF_DISCARD] = 1.0
                f[PF_D_COINS] = (2 + me.colour[YELLOW]) / 3.0
                f[PF_D_POOR] = 1.0 if me.coins < 4 else 0.0
                acts[n] = DISCARD_BASE + c
                n += 1
            for w in range(NUM_WONDERS):
                if (ws >> w) & 1 and wcost[w] <= me.coins and n < PF_MAX_ACTIONS:
                    f = &F[n * PF_N]
                    memset(f, 0, PF_N * sizeof(double))
                    take_shared(g, f)
                    f[PF_WONDER] = 1.0
                    f[PF_W_VALUE] = PW_VALUE[w]
                    f[PF_W_SHIELDS] = cap10(wsh[w])
                    f[PF_W_COST] = wcost[w] / 3.0
                    f[PF_W_EARLY] = 1.0 if s.age < 3 else 0.0
                    f[PF_W_AGAIN] = PW_AGAIN[w]
                    acts[n] = WONDER_BASE + w * NUM_CARDS + c
                    n += 1
    return n

cdef inline double pf_logit(const double* W, const double* f) noexcept nogil:
    cdef double z = 0.0
    cdef int k
    for k in range(PF_N):
        z += W[k] * f[k]
    return z

cdef inline double pf_bias(const double* W, int age, int a) noexcept nogil:
    """The fitted bias of turn action `a` in Age `age` (1..3) under weights W: its built card's,
    its wonder's in that Age or a discard's in that Age; fitted_turn adds the same values
    inline."""
    if BUILD_BASE <= a < DISCARD_BASE:
        return W[PW_CB + a - BUILD_BASE]
    if DISCARD_BASE <= a < WONDER_BASE:
        return W[PW_DB + age - 1]
    if WONDER_BASE <= a < TOKEN_BASE:
        return W[PW_WB + (age - 1) * NUM_WONDERS + (a - WONDER_BASE) // NUM_CARDS]
    return 0.0

cdef int fitted_turn(const GameState* s, u64* rng, const PolicyParams* pp) noexcept nogil:
    """A playout turn drawn from the fitted softmax (weights pp.pw) at temperature pp.temp; a
    winning action is always taken.  The same logits as pf_logit over turn_features, computed
    card by card without the feature rows (each card's share once, each wonder's share once,
    the layout slots once a turn)."""
    cdef int p = s.to_move, c, w, k, trade, cost, n = 0, sym, i
    cdef int acts[PF_MAX_ACTIONS]
    cdef double z[PF_MAX_ACTIONS]
    cdef double wl[NUM_WONDERS]
    cdef double g[PF_N]
    cdef double sv, shared, top = -1e300, total = 0.0, r, inv_t = 1.0 / pp.temp, pnew, psq
    cdef u64 bits
    cdef u16 ws, wb
    cdef int wcost
    cdef u8 slot_of[NUM_CARDS]
    cdef const double* W = pp.pw
    cdef const PlayerState* me = &s.p[p]
    cdef const double* mq = (pp.mast_q + p * MAST_KEYS) if (pp.mast_w > 0.0 and
                                                            pp.mast_q != NULL) else NULL
    cdef double mw = pp.mast_w
    cdef int need = take_needs(W)
    ws = (me.wonders & ~me.built) if s.n_built_wonders < 7 else 0
    wb = ws
    while wb:
        w = ctz(wb)
        wb &= wb - 1
        wcost = wonder_cost(s, p, w, &trade)
        if wcost > me.coins:
            ws &= ~(<u16>1 << w)
            continue
        sv = shield_value(s, p, PW_SHIELDS[w])
        if sv >= P_WIN:
            return WONDER_BASE + w * NUM_CARDS + (ctz(s.avail[0]) if s.avail[0]
                                                  else 64 + ctz(s.avail[1]))
        wl[w] = (W[PF_WONDER] + W[PW_WB + (s.age - 1) * NUM_WONDERS + w]
                 + W[PF_W_VALUE] * PW_VALUE[w]
                 + W[PF_W_SHIELDS] * cap10(sv) + W[PF_W_COST] * wcost / 3.0
                 + (W[PF_W_EARLY] if s.age < 3 else 0.0)
                 + W[PF_W_AGAIN] * PW_AGAIN[w])
        if mq != NULL:
            wl[w] += mw * (mq[2 * NUM_CARDS + w] - 0.5)
    if need & TF_EXPOSE:               # the slots matter only to the uncovered cards
        slot_map(s, slot_of)
    for k in range(2):
        bits = s.avail[k]
        while bits:
            c = 64 * k + ctz(bits)
            bits &= bits - 1
            if need == TF_ALL:      # (the same call, with the features known at compile time)
                card_take_features(s, p, c, slot_of[c], g, TF_ALL)
            else:
                card_take_features(s, p, c, slot_of[c] if need & TF_EXPOSE else 255, g, need)
            shared = 0.0
            for i in range(PF_DENY_WIN, PF_EXPOSE_DOWN + 1):
                shared += W[i] * g[i]
            shared += W[PF_OPP_NOW] * g[PF_OPP_NOW] + W[PF_DENY_PAIR] * g[PF_DENY_PAIR]
            cost = card_cost(s, p, c, &trade)
            if cost <= me.coins and n < PF_MAX_ACTIONS:
                r = (shared + W[PF_BUILD] + W[PW_CB + c] + W[PF_B_VALUE] * PC_VALUE[c]
                     + W[PF_B_COST] * cost / 3.0)
                if s.age == 3:
                    r += W[PF_B_VALUE3] * PC_VALUE[c]
                elif s.age == 1:
                    r += W[PF_B_PROD1] * PC_PROD[c] + W[PF_B_CHAIN] * PC_CHAIN_OUT[c]
                else:
                    r += W[PF_B_PROD2] * PC_PROD[c] + W[PF_B_CHAIN] * PC_CHAIN_OUT[c]
                sym = PC_SYMBOL[c]
                if sym != 255:
                    if me.symbols[sym] == 0:
                        if me.n_symbols >= 5:
                            return BUILD_BASE + c
                        r += (W[PF_B_NEW_SYMBOL] + W[PF_B_SYMBOLS] * me.n_symbols
                              + pp.science)
                    elif me.symbols[sym] == 1 and s.board_tokens:
                        r += W[PF_B_PAIR]
                if PC_RED[c]:
                    sv = shield_value(s, p, PC_SHIELDS[c] + ((me.tokens >> TK_STRATEGY) & 1))
                    if sv >= P_WIN:
                        return BUILD_BASE + c
                    r += W[PF_B_SHIELDS] * cap10(sv)
                if PC_PROD[c]:
                    prod_features(s, p, c, &pnew, &psq)
                    r += W[PF_B_PROD_NEW] * pnew + W[PF_B_PROD_SQUEEZE] * psq
                if PC_NOW[c]:
                    r += W[PF_B_NOW] * value_now(s, p, c)
                if mq != NULL:
                    r += mw * (mq[c] - 0.5)
                acts[n] = BUILD_BASE + c
                z[n] = r * inv_t
                if z[n] > top:
                    top = z[n]
                n += 1
            if n < PF_MAX_ACTIONS:
                acts[n] = DISCARD_BASE + c
                z[n] = (shared + W[PF_DISCARD] + W[PW_DB + s.age - 1]
                        + (W[PF_D_POOR] if me.coins < 4 else 0.0)
                        + W[PF_D_COINS] * (2 + me.colour[YELLOW]) / 3.0
                        + (mw * (mq[NUM_CARDS + c] - 0.5) if mq != NULL else 0.0)) * inv_t
                if z[n] > top:
                    top = z[n]
                n += 1
            wb = ws
            while wb and n < PF_MAX_ACTIONS:
                w = ctz(wb)
                wb &= wb - 1
                acts[n] = WONDER_BASE + w * NUM_CARDS + c
                z[n] = (shared + wl[w]) * inv_t
                if z[n] > top:
                    top = z[n]
                n += 1
    if n == 0:
        return -1
    for i in range(n):
        z[i] = exp(z[i] - top)
        total += z[i]
    r = rand_unit(rng) * total
    for i in range(n):
        r -= z[i]
        if r < 0.0:
            return acts[i]
    return acts[n - 1]

cdef int fitted_scores(const GameState* s, const double* W, const int* acts, int n,
                       double* out) noexcept nogil:
    """The fitted logits under weights W of the turn actions acts[0..n) (in any order), into
    out[0..n); a winning action scores P_WIN.  Returns 0, or -1 if an action is not a turn
    action."""
    cdef int facts[PF_MAX_ACTIONS]
    cdef double F[PF_MAX_ACTIONS * PF_N]
    cdef int m, i, j, win
    m = turn_features(s, facts, F, &win)
    for i in range(n):
        out[i] = -1e300
        for j in range(m):
            if facts[j] == acts[i]:
                out[i] = P_WIN if facts[j] == win else (pf_logit(W, &F[j * PF_N])
                                                        + pf_bias(W, s.age, facts[j]))
                break
        if out[i] == -1e300:
            return -1
    return 0


def policy_weights_path():
    """Path of the fitted playout policy's weights shipped with the package (the default)."""
    import os
    return os.path.join(os.path.dirname(__file__), "policy_weights.npz")


#: Weights files shipped with the package, by the name a spec gives them (``plan:weights=NAME``):
#: each earlier default stays playable by name.  ``default`` is the shipped default.
NAMED_POLICY_WEIGHTS = {"default": "policy_weights.npz", "round8": "policy_weights_round8.npz"}


def policy_weights_file(weights):
    """The file of a ``weights`` option: a name of :data:`NAMED_POLICY_WEIGHTS` (its file in
    the package), or a path (returned as given).  Raises ValueError for an empty or
    non-text value."""
    import os
    if not isinstance(weights, str) or not weights.strip():
        raise ValueError(f"weights must be a name ({', '.join(NAMED_POLICY_WEIGHTS)}) or the "
                         f"path of an .npz file, not {weights!r}")
    weights = weights.strip()
    if weights in NAMED_POLICY_WEIGHTS:
        return os.path.join(os.path.dirname(__file__), NAMED_POLICY_WEIGHTS[weights])
    return weights


def read_policy_weights(path):
    """The weights of the file ``path``, checked, as shape ``(POLICY_WEIGHTS,)`` in
    ``POLICY_WEIGHT_NAMES``' order (a name the file lacks weighs 0); nothing is loaded.
    Raises ValueError naming the file (see :func:`load_policy_weights`)."""
    import numpy as np
    path = str(path)
    w, names = _read_weights(path, "policy weights")
    n_all = len(POLICY_WEIGHT_NAMES)
    if w.ndim != 1 or len(w) != len(names) or not 0 < len(w) <= n_all:
        raise ValueError(f"policy weights {path}: weights have shape {w.shape} for "
                         f"{len(names)} names, not one weight per name (at most {n_all})")
    index = {name: k for k, name in enumerate(POLICY_WEIGHT_NAMES)}
    unknown = [name for name in names if name not in index]
    cols = [index.get(name, -1) for name in names]
    if unknown or any(b <= a for a, b in zip(cols, cols[1:])):
        what = (f"unknown name {unknown[0]!r}" if unknown
                else "names repeated or out of this core's order")
        raise ValueError(f"policy weights {path}: its feature names do not match this core's "
                         f"({what})")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"policy weights {path}: weights are not all finite")
    full = np.zeros(n_all)
    full[cols] = w
    return full


def _policy_table(w):
    """The core's flat table (PW_SIZE doubles) of full weights ``w``: the features' weights,
    each card's bias, each wonder's bias in each Age (its own plus the Age's), each Age's
    discard bias."""
    import numpy as np
    cdef int k, age
    table = np.zeros(PW_SIZE)
    table[:PF_N] = w[:PF_N]
    table[PW_CB:PW_CB + NUM_CARDS] = w[PF_N:PF_N + NUM_CARDS]
    for age in range(3):
        for k in range(NUM_WONDERS):
            table[PW_WB + age * NUM_WONDERS + k] = (w[PF_N + NUM_CARDS + k]
                                                    + w[PF_N + PF_NB1 + age * NUM_WONDERS + k])
        table[PW_DB + age] = w[PF_N + PF_NB1 + 3 * NUM_WONDERS + age]
    return table


# Every table ever made stays alive (a running search may point to it): by file, with the
# file's size and modification time, so a file rewritten on disk is read again.
_PW_TABLES = {}
_PW_KEEP = []


cdef const double* _table_ptr(table):
    cdef const double[::1] v = table
    return &v[0]


def policy_weights_table(weights):
    """The core's weights table of a ``weights`` option (:func:`policy_weights_file`), read
    once per file and cached: float64 array of shape (PW_SIZE,).  Raises ValueError naming
    the file if it is missing, truncated, unreadable or does not match this core's names."""
    import os
    path = policy_weights_file(weights)
    try:
        st = os.stat(path)
        key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    except OSError as e:
        raise ValueError(f"policy weights {path}: cannot be read ({type(e).__name__}: "
                         f"{e.strerror or e})") from None
    table = _PW_TABLES.get(key)
    if table is None:
        table = _policy_table(read_policy_weights(path))
        table.setflags(write=False)
        _PW_TABLES[key] = table
        _PW_KEEP.append(table)
    return table


def load_policy_weights(path=None):
    """Load the fitted playout policy's default weights (default: :func:`policy_weights_path`):
    the weights of every planning search made after this call without a ``weights`` option.

    The file is an ``.npz`` with ``weights`` (float64, finite) and ``features`` (their
    names, in the order of ``POLICY_WEIGHT_NAMES``: the features' weights, then the biases).
    Weights are read by name; a name the file lacks weighs 0, so an earlier file (the
    features alone, or without the per-Age biases or the later features) plays as it did.
    Returns the weights as shape ``(POLICY_WEIGHTS,)`` in ``POLICY_WEIGHT_NAMES``' order.
    Raises ValueError naming the file if it is missing or unreadable, if a name is unknown,
    repeated or out of order, or if the weights are not one finite number per name.
    """
    global PF_LOADED, PF_DEFAULT
    path = policy_weights_path() if path is None else str(path)
    w = read_policy_weights(path)
    table = _policy_table(w)
    table.setflags(write=False)
    _PW_KEEP.append(table)
    PF_DEFAULT = _table_ptr(table)
    PF_LOADED = True
    return w


cdef const double* spec_policy_weights(weights) except NULL:
    """The weights table of a planning search's ``weights`` option (None: the default)."""
    if weights is None:
        if not PF_LOADED:
            load_policy_weights()
        return PF_DEFAULT
    return _table_ptr(policy_weights_table(weights))


def action_biases(actions, int age):
    """The one-hot bias columns of turn actions in Age ``age`` (1..3), for fitting: float64
    array of shape (len(actions), POLICY_WEIGHTS - POLICY_FEATURES).  A build of card c has a
    1 in column c; a wonder w (with any card) in column 73 + w and in column 85 + 12 * (age -
    1) + w; a discard in column 121 + age - 1.  Raises ValueError for an Age outside 1..3."""
    import numpy as np
    if not 1 <= age <= 3:
        raise ValueError(f"action_biases: age must be 1, 2 or 3, not {age}")
    a = np.asarray(actions, dtype=np.int64)
    out = np.zeros((len(a), PF_NB))
    b = (a >= BUILD_BASE) & (a < DISCARD_BASE)
    out[np.flatnonzero(b), a[b] - BUILD_BASE] = 1.0
    w = (a >= WONDER_BASE) & (a < TOKEN_BASE)
    rows, wonder = np.flatnonzero(w), (a[w] - WONDER_BASE) // NUM_CARDS
    out[rows, NUM_CARDS + wonder] = 1.0
    out[rows, PF_NB1 + (age - 1) * NUM_WONDERS + wonder] = 1.0
    d = (a >= DISCARD_BASE) & (a < WONDER_BASE)
    out[np.flatnonzero(d), PF_NB1 + 3 * NUM_WONDERS + age - 1] = 1.0
    return out


def _read_weights(path, what):
    """(weights, feature names) from the .npz file `path`; ValueError naming it otherwise."""
    import numpy as np
    try:
        with np.load(path, allow_pickle=False) as f:
            if not hasattr(f, "files"):
                raise ValueError("not an .npz archive")
            w = np.asarray(f["weights"], dtype=np.float64)
            names = [str(n) for n in f["features"]]
    except Exception as e:  # noqa: BLE001 - any failure to read is the same user error
        reason = str(e) if isinstance(e, (OSError, KeyError)) else "not an .npz file of weights"
        raise ValueError(f"{what} {path}: cannot be read ({type(e).__name__}: {reason})") \
            from None
    return w, names


def policy_weights_loaded():
    """True once the fitted policy's weights are in the core (loaded on first use)."""
    return PF_LOADED


def turn_features_of(State state not None):
    """The fitted policy's view of a turn (PH_PLAY): ``(actions, features, win)``.

    ``actions`` is an int32 array of shape (n,) (the legal actions, card by card),
    ``features`` a float64 array of shape (n, POLICY_FEATURES), ``win`` an action that wins
    at once or -1.  Raises ValueError if ``state`` is not waiting for a turn."""
    import numpy as np
    if state.s.phase != PH_PLAY:
        raise ValueError("turn_features_of needs a position waiting for a turn (PH_PLAY)")
    cdef int acts[PF_MAX_ACTIONS]
    cdef double F[PF_MAX_ACTIONS * PF_N]
    cdef int n, win, i, k
    n = turn_features(&state.s, acts, F, &win)
    a = np.array([acts[i] for i in range(n)], dtype=np.int32)
    x = np.array([[F[i * PF_N + k] for k in range(PF_N)] for i in range(n)],
                 dtype=np.float64).reshape(n, PF_N)
    return a, x, win


MAST_KEY_COUNT = MAST_KEYS


def mast_key_of(int action):
    """The move-average key of a turn action (a test hook): 0..MAST_KEYS-1, or -1."""
    return mast_key(action)


def _init_fitted_tables():
    from duelcore.duel import data
    cdef int age, slot, i, r
    for age, layout in enumerate(data.LAYOUTS):
        for slot in range(NUM_SLOTS):
            PF_COVERED[age][slot] = sum(1 << x for x in layout.covered_by[slot])
            PF_COVERS[age][slot] = sum(1 << u for u in range(NUM_SLOTS)
                                       if slot in layout.covered_by[u])
    for i, card in enumerate(data.CARDS):
        PC_CHAIN_OUT[i] = 1 if card.chain_gives and any(
            other.chain_from == card.chain_gives and other.age > card.age
            for other in data.CARDS) else 0
    for i, wd in enumerate(data.WONDERS):
        PW_AGAIN[i] = 1 if wd.play_again else 0
    for i, card in enumerate(data.CARDS):
        units = data.parse_cost(card.produces)[1] if card.colour in ("brown", "grey") else (0,) * 5
        for r in range(5):
            PC_RES[i][r] = units[r]
        PC_NOW[i] = 1 if card.coins_per or card.guild else 0


_init_fitted_tables()


def _fitted_draws(State state not None, int n, seed=0, double temp=1.0, double mast=0.0,
                  mast_q=None, double science=0.0):
    """`n` playout turns drawn by the fitted policy at ``state`` (a test hook): int array;
    ``mast``: weight of the move averages ``mast_q`` (float64, shape (2, MAST_KEYS));
    ``science``: the logit added to a build giving a new science symbol."""
    import numpy as np
    if state.s.phase != PH_PLAY:
        raise ValueError("_fitted_draws needs a position waiting for a turn (PH_PLAY)")
    if not PF_LOADED:
        load_policy_weights()
    cdef PolicyParams pp
    pp.pw = PF_DEFAULT
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef int i
    pp.noise = 0.0
    pp.eps = 0.0
    pp.deny = 0.0
    pp.fitted = 1
    pp.temp = temp
    q = np.ascontiguousarray(np.full((2, MAST_KEYS), 0.5) if mast_q is None else mast_q,
                             dtype=np.float64)
    if q.shape != (2, MAST_KEYS):
        raise ValueError(f"mast_q must have shape (2, {MAST_KEYS}), not {q.shape}")
    cdef double[:, ::1] qv = q
    pp.mast_w = mast
    pp.science = science
    pp.mast_q = &qv[0, 0]
    out = np.empty(n, dtype=np.int32)
    cdef int[::1] o = out
    for i in range(n):
        o[i] = fitted_turn(&state.s, &rng, &pp)
    return out
