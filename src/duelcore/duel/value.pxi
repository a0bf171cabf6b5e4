# The planning search's learned evaluator (included by search.pyx): a logistic model of
# P(P1 wins) over hand-made features of both cities, fitted offline on games of the playout
# policy (duelpy.train, `duel train`) and shipped as duelcore/value_weights.npz.
#
# A state's features are g(P1) - g(P2), where g(p) describes p's city and position from p's
# side (VP, coins, science symbols, tokens, wonders, production, the Conflict pawn, threats
# on the layout, whose turn it is).  Each Age has its own block of weights, so a VP lead in
# Age III weighs more than one in Age I.  With no intercept the model is antisymmetric: the
# same position seen from P2 gets 1 - the value, as the rules are the same for both.

cdef enum:
    VF_PER_AGE = 48                 # features per player (one Age block)
    VF_N = 3 * VF_PER_AGE           # weights: one block per Age

VALUE_FEATURES = VF_N
def _feature_names():
    from duelcore.duel import data
    return (["vp", "coins"] + [f"symbols{k}" for k in range(6)] + ["pairs", "tokens"]
            + list(data.TOKEN_NAMES) + ["wonders_built", "wonders_left"] + list(data.RESOURCES)
            + ["choice_producers", "trade_one", "pawn", "pawn3", "pawn6", "pawn8", "loot_left"]
            + list(data.COLOURS) + ["to_move", "new_symbols_on_layout", "science_threat",
                                    "military_threat", "affordable", "vp_late", "pawn_late"])


VALUE_FEATURE_NAMES = [f"age{a}_{n}" for a in (1, 2, 3) for n in _feature_names()]
assert len(VALUE_FEATURE_NAMES) == VF_N

cdef double VW[VF_N]                # the weights (P1 wins = sigmoid(w . x))
cdef bint VW_LOADED = False

cdef void player_features(const GameState* s, int p, const int* vp, double* g) noexcept nogil:
    """g[0..VF_PER_AGE): p's features (see VALUE_FEATURE_NAMES), from p's side."""
    cdef const PlayerState* me = &s.p[p]
    cdef int k, c, d, sym, q = 1 - p, pairs = 0, new_syms = 0, afford = 0, trade, sh
    cdef double total = 0.0, late
    cdef bint sci_threat = False, mil_threat = False
    cdef u64 bits
    memset(g, 0, VF_PER_AGE * sizeof(double))
    for k in range(NUM_VP):
        total += vp[p * NUM_VP + k]
    late = (s.age_seen / 20.0) if s.age == 3 else 0.0
    g[0] = total / 10.0
    g[1] = me.coins / 10.0
    g[2 + (me.n_symbols if me.n_symbols < 6 else 5)] = 1.0
    for k in range(NUM_SYMBOLS):
        if me.symbols[k] >= 2:
            pairs += 1
    g[8] = pairs
    g[9] = popcount(me.tokens)
    for k in range(NUM_TOKENS):
        g[10 + k] = (me.tokens >> k) & 1
    g[20] = me.n_built
    g[21] = popcount(me.wonders & ~me.built) if s.n_built_wonders < 7 else 0
    for k in range(NUM_RES):
        g[22 + k] = me.fixed[k] if me.fixed[k] < 3 else 3
    g[27] = me.n_choice[0] + me.n_choice[1]
    g[28] = popcount(me.trade_one)
    d = s.pawn if p == 0 else -s.pawn
    g[29] = d / 9.0
    g[30] = d >= 3
    g[31] = d >= 6
    g[32] = d >= 8
    g[33] = ((s.mil_tokens >> (2 * q)) & 1) + ((s.mil_tokens >> (2 * q + 1)) & 1)
    for k in range(NUM_COLOURS):
        g[34 + k] = me.colour[k]
    g[41] = s.to_move == p and s.phase != PH_OVER
    for k in range(2):
        bits = s.avail[k]
        while bits:
            c = 64 * k + ctz(bits)
            bits &= bits - 1
            sym = PC_SYMBOL[c]
            if sym != 255 and me.symbols[sym] == 0:
                new_syms += 1
                if me.n_symbols >= 5:
                    sci_threat = True
            if PC_RED[c]:
                sh = PC_SHIELDS[c] + ((me.tokens >> TK_STRATEGY) & 1)
                if d + sh >= 9:
                    mil_threat = True
            if card_cost(s, p, c, &trade) <= me.coins:
                afford += 1
    g[42] = new_syms
    g[43] = sci_threat
    g[44] = mil_threat
    g[45] = afford / 3.0
    g[46] = g[0] * late
    g[47] = g[29] * late

cdef int diff_features(const GameState* s, double* x) noexcept nogil:
    """x[0..VF_PER_AGE): g(P1) - g(P2) of `s`; returns its Age block (0, 1, 2)."""
    cdef double g0[VF_PER_AGE]
    cdef double g1[VF_PER_AGE]
    cdef int vp[2 * NUM_VP]
    cdef int k
    compute_vp(s, vp)
    player_features(s, 0, vp, g0)
    player_features(s, 1, vp, g1)
    for k in range(VF_PER_AGE):
        x[k] = g0[k] - g1[k]
    return s.age - 1 if s.age >= 1 else 0

cdef void value_features(const GameState* s, double* x) noexcept nogil:
    """x[0..VF_N): the features of `s` (the block of its Age; the others 0)."""
    cdef double d[VF_PER_AGE]
    cdef int k, block = diff_features(s, d) * VF_PER_AGE
    memset(x, 0, VF_N * sizeof(double))
    for k in range(VF_PER_AGE):
        x[block + k] = d[k]

cdef double value_estimate(const GameState* s) noexcept nogil:
    """P(P1 wins) by the learned model: 1 / 0.5 / 0 at the end of the game."""
    cdef double d[VF_PER_AGE]
    cdef int k, block
    cdef double z = 0.0
    if s.phase == PH_OVER:
        return 1.0 if s.winner == 0 else (0.0 if s.winner == 1 else 0.5)
    block = diff_features(s, d) * VF_PER_AGE
    for k in range(VF_PER_AGE):
        z += VW[block + k] * d[k]
    if z > 30.0:
        z = 30.0
    elif z < -30.0:
        z = -30.0
    return 1.0 / (1.0 + exp(-z))


def value_weights_path():
    """Path of the learned evaluator's weights shipped with the package."""
    import os
    return os.path.join(os.path.dirname(__file__), "value_weights.npz")


def load_value_weights(path=None):
    """Load the learned evaluator's weights (default: :func:`value_weights_path`).

    The file is an ``.npz`` with ``weights`` (float64, shape ``(VALUE_FEATURES,)``, finite)
    and ``features`` (the feature names, which must equal ``VALUE_FEATURE_NAMES``).
    Raises ValueError naming the file if it is missing, unreadable or does not match.
    """
    import numpy as np
    global VW_LOADED
    path = value_weights_path() if path is None else str(path)
    w, names = _read_weights(path, "value weights")
    if w.shape != (VF_N,):
        raise ValueError(f"value weights {path}: weights have shape {w.shape}, "
                         f"not ({VF_N},)")
    if names != VALUE_FEATURE_NAMES:
        raise ValueError(f"value weights {path}: its feature names do not match this core's")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"value weights {path}: weights are not all finite")
    cdef int k
    for k in range(VF_N):
        VW[k] = w[k]
    VW_LOADED = True
    return w


def value_weights_loaded():
    """True once the learned evaluator's weights are in the core (loaded on first use)."""
    return VW_LOADED


def value_of(State state not None):
    """The learned evaluator's P(P1 wins) at ``state`` (loads the weights if needed)."""
    if not VW_LOADED:
        load_value_weights()
    return value_estimate(&state.s)


def value_features_of(State state not None):
    """The evaluator's feature vector of ``state``: float64 array of shape (VALUE_FEATURES,)."""
    import numpy as np
    out = np.zeros(VF_N, dtype=np.float64)
    cdef double[::1] x = out
    value_features(&state.s, &x[0])
    return out


cdef int value_game(GameState* s, u64* rng, double noise, double eps, double deny, int per_game,
                    double* X, u8* age, double* y, int cap) noexcept nogil:
    """Play one game from `s` with the playout policy; store the Age-block features of up to
    `per_game` of its decision nodes (chosen uniformly) into X (VF_PER_AGE per row), their
    block into `age` and the result for P1 into y.
    Returns the rows written (0 if the game was stopped)."""
    cdef GameState hist[160]
    cdef GameState tmp
    cdef PolicyParams pp
    cdef int n = 0, a, i, j, k, m
    pp.noise = noise
    pp.eps = eps
    pp.deny = deny
    pp.fitted = 0
    pp.pw = NULL
    pp.temp = 1.0
    pp.mast_w = 0.0
    pp.mast_q = NULL
    pp.science = 0.0
    settle(s, rng)
    while s.phase != PH_OVER:
        if n < 160:
            hist[n] = s[0]
            n += 1
        a = policy_action(s, rng, &pp)
        if a < 0 or stop_requested():
            return 0
        apply_action(s, a)
        settle(s, rng)
    m = per_game if per_game < n else n
    m = m if m < cap else cap
    for i in range(m):                  # partial Fisher-Yates: m distinct nodes
        j = i + rng_below(rng, n - i)
        tmp = hist[i]
        hist[i] = hist[j]
        hist[j] = tmp
        age[i] = diff_features(&hist[i], X + i * VF_PER_AGE)
        y[i] = 1.0 if s.winner == 0 else (0.0 if s.winner == 1 else 0.5)
    return m


def value_data(int games, seed=0, int per_game=8, noise=None, eps=None, deny=None):
    """Training data for the evaluator: ``games`` games of the playout policy from new games
    (seeded by ``seed``; who begins is drawn), ``per_game`` decision nodes of each.  The
    policy's ``noise``, ``eps`` and ``deny`` default to the planning search's
    (``PLAN_DEFAULTS``), so the evaluator learns the games its playouts play.

    Returns ``(X, age, y)``: ``X`` float32 of shape (rows, VALUE_FEATURES // 3), one Age
    block of features per row; ``age`` uint8 (rows,), the block (0 = Age I and the draft);
    ``y`` float32 (rows,), the result for P1 (1 win, 0.5 shared, 0 loss).  Deterministic
    for a given seed.  Ctrl-C returns the rows of the games finished.
    """
    import numpy as np
    if games < 1 or per_game < 1:
        raise ValueError("games and per_game must be >= 1")
    cdef double nz = PLAN_DEFAULTS["noise"] if noise is None else noise
    cdef double ep = PLAN_DEFAULTS["eps"] if eps is None else eps
    cdef double dn = PLAN_DEFAULTS["deny"] if deny is None else deny
    cdef int rows = 0, got, i, k
    X = np.zeros((games * per_game, VF_PER_AGE), dtype=np.float32)
    age = np.zeros(games * per_game, dtype=np.uint8)
    y = np.zeros(games * per_game, dtype=np.float32)
    cdef float[:, ::1] xv = X
    cdef u8[::1] av = age
    cdef float[::1] yv = y
    cdef double xb[64 * VF_PER_AGE]
    cdef double yb[64]
    cdef u8 ab[64]
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef GameState g
    if per_game > 64:
        raise ValueError("per_game must be <= 64")
    with _SigintHook():
        with nogil:
            for i in range(games):
                rng_next(&rng)
                init_state(&g, rng_next(&rng), 0, -1, 0, 7, 7)
                got = value_game(&g, &rng, nz, ep, dn, per_game, xb, ab, yb, 64)
                if got == 0 and stop_requested():
                    break
                for k in range(got * VF_PER_AGE):
                    xv[rows + k // VF_PER_AGE, k % VF_PER_AGE] = <float>xb[k]
                for k in range(got):
                    av[rows + k] = ab[k]
                    yv[rows + k] = <float>yb[k]
                rows += got
    return X[:rows], age[:rows], y[:rows]
