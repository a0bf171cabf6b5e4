# The planning agent's knowledge (included by search.pyx): an informed playout policy and the
# action prior of its tree.  Every value is in victory-point equivalents for the player to move.
#
# Uniform playouts almost never complete a science or military plan (Scientific Supremacy in
# 0.1% of random games), so a search built on them neither pursues nor blocks one.  The
# policy below scores each legal action from the state alone, without applying it:
#   * a move that wins at once (a 6th distinct science symbol, R-SCI-3; the pawn reaching the
#     capital, R-MIL-3) is worth WIN;
#   * taking a card the opponent needs is worth DENY-scaled values: their 6th symbol or last
#     military step is a must-take (build, discard or tuck it), their 5th symbol or a big push
#     toward our capital is worth a lot;
#   * otherwise a card is worth its VP, science progress (a new symbol, a pair's token),
#     shields by how far the pawn already is, production while Ages I-II last, coins / 3,
#     minus what it costs / 3; a discard is worth its coins / 3; a wonder its VP, shields,
#     coins, Play Again and special effect, minus its cost / 3.
# Playouts pick the best score after adding noise (and a uniformly random action with a small
# probability), so a plan is pursued and blocked in most playouts but not all of them.

cdef u8 PC_SYMBOL[NUM_CARDS]        # science symbol 0..5, 255 none
cdef u8 PC_SHIELDS[NUM_CARDS]
cdef double PC_VALUE[NUM_CARDS]     # VP-equivalent of the card's fixed effects (VP, coins, guild)
cdef u8 PC_PROD[NUM_CARDS]          # resource units produced (a choice producer counts 1.5)
cdef u8 PC_RED[NUM_CARDS]
cdef double PW_VALUE[NUM_WONDERS]   # VP-equivalent of a wonder's effects except shields
cdef u8 PW_SHIELDS[NUM_WONDERS]
cdef double TOKEN_PICK[NUM_TOKENS]  # token preference in playouts

cdef enum:
    P_WIN = 1000

cdef struct PolicyParams:
    double noise            # uniform noise added to the scores (VP)
    double eps              # probability of a uniformly random move
    double deny             # weight of taking a card away from the opponent (deny_value)
    int fitted              # 1: turns drawn from the fitted softmax (fitpolicy.pxi)
    double temp             # its temperature
    double mast_w           # fitted policy: weight of the move averages (MAST, 0: none)
    const double* mast_q    # their values: [2 * MAST_KEYS] mean reward of each player's key
    double science          # fitted policy: logit added to a build of a new science symbol
    const double* pw        # fitted policy: its weights, laid out as PW_* (fitpolicy.pxi)

cdef inline int push_distance(const GameState* s, int p) noexcept nogil:
    """How far the pawn is toward p's opponent's capital (negative: toward p's own)."""
    return s.pawn if p == 0 else -s.pawn

cdef inline double shield_value(const GameState* s, int p, int sh) noexcept nogil:
    """Worth of pushing the pawn `sh` spaces for p: tokens looted, military VP, threat."""
    cdef int d = push_distance(s, p), e = d + sh, q = 1 - p
    cdef double v
    if sh <= 0:
        return 0.0
    if e >= 9:
        return P_WIN
    v = 0.9 * sh + (1.5 if e >= 6 else 0.0)
    if d < 3 <= e and (s.mil_tokens >> (2 * q)) & 1:
        v += 2.0 / 3.0 + 0.5
    if d < 6 <= e and (s.mil_tokens >> (2 * q + 1)) & 1:
        v += 5.0 / 3.0 + 0.5
    if d < 0:                           # pushing back from our own side defends
        v += 0.4 * (-d if -d < sh else sh)
    return v

cdef inline double science_value(const GameState* s, int p, int sym) noexcept nogil:
    """Worth of one more card of symbol `sym` for p (R-SCI-2, R-SCI-3)."""
    cdef const PlayerState* me = &s.p[p]
    if sym == 255:
        return 0.0
    if me.symbols[sym] == 0:
        if me.n_symbols >= 5:
            return P_WIN
        return 1.5 + 1.2 * me.n_symbols + (3.0 if me.n_symbols == 4 else 0.0)
    if me.symbols[sym] == 1 and s.board_tokens:
        return 4.0
    return 0.0

cdef inline double deny_value(const GameState* s, int p, int c) noexcept nogil:
    """Worth of taking card c away from p's opponent (whatever p does with it)."""
    cdef int q = 1 - p, sym = PC_SYMBOL[c], sh, d
    cdef const PlayerState* op = &s.p[q]
    cdef double v = 0.0
    if sym != 255 and op.symbols[sym] == 0:
        if op.n_symbols >= 5:
            v += 60.0
        elif op.n_symbols == 4:
            v += 6.0
        elif op.n_symbols == 3:
            v += 1.5
    if PC_RED[c]:
        sh = PC_SHIELDS[c] + ((op.tokens >> TK_STRATEGY) & 1)
        d = push_distance(s, q)
        if d + sh >= 9:
            v += 60.0
        elif d + sh >= 6:
            v += 2.0 + 0.5 * sh
    return v

cdef inline double card_value(const GameState* s, int p, int c) noexcept nogil:
    """Worth for p of building card c (cost not counted)."""
    cdef double v = PC_VALUE[c]
    cdef int sh
    v += science_value(s, p, PC_SYMBOL[c])
    if PC_RED[c]:
        sh = PC_SHIELDS[c] + ((s.p[p].tokens >> TK_STRATEGY) & 1)
        v += shield_value(s, p, sh)
    if PC_PROD[c]:
        v += (1.0 if s.age == 1 else (0.6 if s.age == 2 else 0.1)) * PC_PROD[c]
    return v

cdef double action_score(const GameState* s, int a, double dw) noexcept nogil:
    """The policy's score of legal action `a` at a decision node (see the header); `dw` is
    the weight of denial."""
    cdef int p = s.to_move, c, w, trade, t
    cdef double v
    if a < BUILD_BASE:                                  # draft
        return WONDER_DRAFT[a - DRAFT_BASE]
    if a < DISCARD_BASE:
        c = a - BUILD_BASE
        v = card_value(s, p, c)
        if v >= P_WIN:
            return v
        return v + dw * deny_value(s, p, c) - card_cost(s, p, c, &trade) / 3.0
    if a < WONDER_BASE:
        c = a - DISCARD_BASE
        return dw * deny_value(s, p, c) + (2 + s.p[p].colour[YELLOW]) / 4.0 - 1.0
    if a < TOKEN_BASE:
        w = (a - WONDER_BASE) // NUM_CARDS
        c = (a - WONDER_BASE) % NUM_CARDS
        v = shield_value(s, p, PW_SHIELDS[w])
        if v >= P_WIN:
            return v
        return (v + PW_VALUE[w] + dw * deny_value(s, p, c) - wonder_cost(s, p, w, &trade) / 3.0
                + (1.0 if s.age < 3 else 0.0))
    if a < DESTROY_BASE:
        t = a - TOKEN_BASE
        if t == TK_LAW:
            return science_value(s, p, SYM_LAW) + TOKEN_PICK[t]
        return TOKEN_PICK[t]
    if a < REVIVE_BASE:
        c = a - DESTROY_BASE
        return PC_PROD[c] + 0.0
    if a < START_BASE:
        c = a - REVIVE_BASE
        v = card_value(s, p, c)
        return v + dw * deny_value(s, p, c)
    return 1.0 if a - START_BASE == p else 0.0          # begin the next Age yourself

cdef inline double rand_unit(u64* rng) noexcept nogil:
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)

cdef int policy_turn(const GameState* s, u64* rng, const PolicyParams* pp) noexcept nogil:
    """policy_action on a turn (PH_PLAY), card by card: each available card's cost, value and
    denial are computed once for its build, discard and wonder actions (the same scores as
    action_score, without listing the legal actions)."""
    cdef int p = s.to_move, c, w, k, trade, best = -1, cost
    cdef u64 bits
    cdef u16 ws
    cdef int wcost[NUM_WONDERS]
    cdef double wval[NUM_WONDERS]
    cdef double v, deny, top = -1e300, noise = pp.noise
    cdef const PlayerState* me = &s.p[p]
    ws = (me.wonders & ~me.built) if s.n_built_wonders < 7 else 0
    for w in range(NUM_WONDERS):
        if (ws >> w) & 1:
            wcost[w] = wonder_cost(s, p, w, &trade)
            wval[w] = shield_value(s, p, PW_SHIELDS[w])
            if wval[w] < P_WIN:
                wval[w] += PW_VALUE[w] - wcost[w] / 3.0 + (1.0 if s.age < 3 else 0.0)
    for k in range(2):
        bits = s.avail[k]
        while bits:
            c = 64 * k + ctz(bits)
            bits &= bits - 1
            deny = pp.deny * deny_value(s, p, c)
            cost = card_cost(s, p, c, &trade)
            if cost <= me.coins:
                v = card_value(s, p, c)
                if v >= P_WIN:
                    return BUILD_BASE + c
                v += deny - cost / 3.0 + noise * rand_unit(rng)
                if v > top:
                    top = v
                    best = BUILD_BASE + c
            v = deny + (2 + me.colour[YELLOW]) / 4.0 - 1.0 + noise * rand_unit(rng)
            if v > top:
                top = v
                best = DISCARD_BASE + c
            for w in range(NUM_WONDERS):
                if (ws >> w) & 1 and wcost[w] <= me.coins:
                    if wval[w] >= P_WIN:
                        return WONDER_BASE + w * NUM_CARDS + c
                    v = wval[w] + deny + noise * rand_unit(rng)
                    if v > top:
                        top = v
                        best = WONDER_BASE + w * NUM_CARDS + c
    return best

cdef int policy_action(const GameState* s, u64* rng, const PolicyParams* pp) noexcept nogil:
    """A playout move: with probability `pp.eps` a uniformly random legal action, else the
    action with the best score + uniform(0, `pp.noise`) noise; a winning move is always
    taken."""
    cdef int buf[MAX_LEGAL]
    cdef int n, i, best = 0
    cdef double v, top = -1e300
    if pp.eps > 0.0 and rand_unit(rng) < pp.eps:
        return random_action(s, rng)
    if s.phase == PH_PLAY:
        if pp.fitted:
            return fitted_turn(s, rng, pp)
        return policy_turn(s, rng, pp)
    n = legal_actions(s, buf)
    if n <= 1:
        return buf[0] if n == 1 else -1
    for i in range(n):
        v = action_score(s, buf[i], pp.deny)
        if v >= P_WIN:
            return buf[i]
        v += pp.noise * rand_unit(rng)
        if v > top:
            top = v
            best = i
    return buf[best]

cdef int policy_playout(GameState* s, u64* rng, const PolicyParams* pp, int* moves=NULL,
                        int cap=0) noexcept nogil:
    """Play to the end with policy_action; chance sampled with `rng`.  If `moves` is given,
    the first `cap` decisions are recorded in it as action * 2 + player; returns how many."""
    cdef int a, n = 0
    settle(s, rng)
    while s.phase != PH_OVER:
        a = policy_action(s, rng, pp)
        if a < 0 or stop_requested():
            return n
        if moves != NULL and n < cap:
            moves[n] = a * 2 + s.to_move
            n += 1
        apply_action(s, a)
        settle(s, rng)
    return n

cdef void policy_steps(GameState* s, u64* rng, const PolicyParams* pp, int steps) noexcept nogil:
    """At most `steps` decisions of policy_action (chance sampled with `rng`), or to the end."""
    cdef int a, k = 0
    settle(s, rng)
    while s.phase != PH_OVER and k < steps:
        a = policy_action(s, rng, pp)
        if a < 0 or stop_requested():
            return
        apply_action(s, a)
        settle(s, rng)
        k += 1


def _init_policy_tables():
    from duelcore.duel import data
    cdef int i
    for i, card in enumerate(data.CARDS):
        PC_SYMBOL[i] = data.SYMBOLS.index(card.symbol) if card.symbol else 255
        PC_SHIELDS[i] = card.shields
        PC_RED[i] = card.colour == "red"
        units = sum(data.parse_cost(card.produces)[1]) + (1.5 if card.choice else 0)
        PC_PROD[i] = int(round(units)) if card.colour in ("brown", "grey", "yellow") else 0
        value = card.vp + card.coins / 3.0
        if card.coins_per:
            value += 1.5 * card.coins_per[1]
        if card.colour == "purple":
            value += 5.0
        if card.trade_one:
            value += 1.0 if card.age < 3 else 0.2
        PC_VALUE[i] = value
    for i, wd in enumerate(data.WONDERS):
        PW_SHIELDS[i] = wd.shields
        PW_VALUE[i] = (wd.vp + wd.coins / 3.0 + wd.opponent_loses / 3.0
                       + 2.5 * wd.play_again + (2.5 if wd.action else 0.0)
                       + (1.5 if wd.choice else 0.0))
    pick = {"Architecture": 2.0, "Economy": 2.0, "Law": 2.5, "Masonry": 2.0,
            "Mathematics": 2.5, "Strategy": 3.0, "Theology": 2.5, "Urbanism": 2.5,
            "Agriculture": 3.5, "Philosophy": 4.0}
    for i, name in enumerate(data.TOKEN_NAMES):
        TOKEN_PICK[i] = pick[name]


_init_policy_tables()
