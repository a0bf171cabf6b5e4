# cython: language_level=3
"""Agents inside the core: random playouts, a greedy one-ply player and information-set MCTS.

Everything here runs without the GIL and uses only the state API of :mod:`duelcore.duel.engine`
(legal actions, apply, settle chance, VP), never card details.  Chance is always sampled with
the *searcher's* RNG, never the state's own: a search never reads the future the state's RNG
would produce (face-down cards, the Great Library draw), so two states that differ only in
what the player cannot see get the same decision for the same search seed.
"""
from libc.math cimport sqrt, log, tanh, exp
import numbers
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

import numpy as np
cimport numpy as cnp

from duelcore.duel.types cimport *
from duelcore.common.bits cimport popcount, ctz
from duelcore.common.clock cimport now
from duelcore.common.rng cimport rng_next, rng_below
from duelcore.duel.engine cimport (GameState, PlayerState, State, legal_actions, apply_action,
                                   settle, set_treatments, card_cost, wonder_cost,
                                   build_gains_now, bs_select, init_state, compute_vp,
                                   is_chance, WonderDef)

cnp.import_array()

# ---------------------------------------------------------------- Ctrl-C: the stop flag
# One process-wide flag for every game's core (duelcore.common.stop): every search iteration
# and every batch game checks it.  Its Python names keep their old home here too.
from duelcore.common.stop cimport stop_requested, token_set, token_ptr as _token_ptr
from duelcore.common.stop import (  # noqa: F401
    SearchStop, _SigintHook, clear_interrupt, interrupt, interrupted,
)

# ---------------------------------------------------------------- policies
cdef enum:
    AGENT_RANDOM = 0
    AGENT_GREEDY = 1
    AGENT_MCTS = 2          # round-1 search: UCB1, uniform expansion and playouts (mcts1)
    AGENT_PLAN = 3          # the planning search: informed playouts, progressive widening,
                            #   VP-margin reward (policy.pxi)

cdef struct AgentSpec:
    int kind                # AGENT_*
    int iterations          # MCTS iterations per decision (0: use seconds)
    double seconds          # MCTS seconds per decision (when iterations == 0)
    double c                # UCT exploration constant
    int rollout             # AGENT_RANDOM or AGENT_GREEDY rollouts (round-1 search)
    int max_nodes           # MCTS tree capacity (nodes)
    double noise            # planning search: playout score noise (VP)
    double eps              # planning search: probability of a uniform playout move
    double widen            # planning search: children allowed = 2 + widen * sqrt(visits)
    double margin           # planning search: weight of the VP-margin term of the reward
    double bias             # planning search: weight of the progressive bias (policy score)
    const int* stop         # this search's own stop token (SearchStop.flag) or NULL
    double vmix             # planning search: weight of the learned evaluator at the leaf
                            #   (0: playouts only, 1: no playout)
    int horizon             # planning search: playout steps before the evaluator (vmix > 0)
    double deny             # planning search: weight of denial in the playout policy
    double rmix             # planning search: share of uniform random playouts
    int fitted              # planning search: 1 = fitted playout policy, 0 = hand policy
    double temp             # planning search: temperature of the fitted policy
    double mast             # planning search: weight of the move averages in the fitted
                            #   playouts (MAST, fitpolicy.pxi; 0: none)
    double science          # planning search: logit added in the fitted playouts to a build
                            #   that gives a new science symbol (fitpolicy.pxi)
    double puct             # planning search: weight of a PUCT-style prior term in the
                            #   selection, puct * prior * sqrt(avail) / (visits + 1)
    const double* pw        # planning search, fitted policy: its own weights table (PW_*,
                            #   fitpolicy.pxi; cached per file, never freed), else NULL

DEF LOG_TABLE = 4096
cdef double LOG_OF[LOG_TABLE]           # log(n) of the small counts, as libm computes it


def _init_log_table():
    cdef int n
    LOG_OF[0] = -1e300                  # never read: a count in the UCB term is >= 1
    for n in range(1, LOG_TABLE):
        LOG_OF[n] = log(<double>n)


_init_log_table()


cdef inline double log_count(long n) noexcept nogil:
    """log(n) of a visit or availability count: the same double as libm's log, from a table
    while n is small."""
    return LOG_OF[n] if 0 < n < LOG_TABLE else log(<double>n)


cdef inline int nth_bit(u64 x, int k) noexcept nogil:
    while k > 0:
        x &= x - 1
        k -= 1
    return ctz(x)

cdef int random_action(const GameState* s, u64* rng) noexcept nogil:
    """A legal action drawn uniformly.  On a turn (R-TURN-1) it draws from the superset
    (available card) x (build, discard, each unbuilt wonder) and redraws when the pick is not
    affordable: exactly uniform over the legal actions, with one cost query per draw instead
    of one per action."""
    cdef int buf[MAX_LEGAL]
    cdef int n, n_av, kinds, r, c, k, w, trade
    cdef u16 ws
    cdef u8 wok[NUM_WONDERS]            # wonder affordable: 1 / 0, 255 not yet asked
    cdef const PlayerState* me
    if s.phase != PH_PLAY or s.to_move > 1:
        n = legal_actions(s, buf)
        return buf[rng_below(rng, n)] if n > 0 else -1
    me = &s.p[s.to_move]
    n_av = popcount(s.avail[0]) + popcount(s.avail[1])
    if n_av == 0:                       # a broken position: no card to take (never loop)
        return -1
    ws = (me.wonders & ~me.built & 0xFFF) if s.n_built_wonders < 7 else 0
    kinds = 2 + popcount(ws)
    memset(wok, 255, NUM_WONDERS)
    while True:
        r = rng_below(rng, n_av * kinds)
        c = bs_select(s.avail, r % n_av)
        k = r // n_av
        if k == 1:
            return DISCARD_BASE + c
        if k == 0:
            if card_cost(s, s.to_move, c, &trade) <= me.coins:
                return BUILD_BASE + c
            continue
        w = nth_bit(ws, k - 2)
        if wok[w] == 255:
            wok[w] = wonder_cost(s, s.to_move, w, &trade) <= me.coins
        if wok[w]:
            return WONDER_BASE + w * NUM_CARDS + c

cdef void random_playout(GameState* s, u64* rng) noexcept nogil:
    """Play to the end choosing uniformly among legal actions; chance sampled with `rng`.
    Stops early only at a position with no legal action (never in a sound game)."""
    playout(s, rng, False)


cdef inline void playout(GameState* s, u64* rng, bint greedy) noexcept nogil:
    """Play to the end with the random or the greedy policy; chance sampled with `rng`."""
    cdef int a
    settle(s, rng)
    while s.phase != PH_OVER:
        a = greedy_action(s, rng) if greedy else random_action(s, rng)
        if a < 0:
            return
        apply_action(s, a)
        settle(s, rng)

# Greedy heuristic ------------------------------------------------------------------------
# Values are in victory-point equivalents for the player to move.
cdef double TOKEN_BONUS[NUM_TOKENS]     # passive value of a token beyond its immediate VP/coins
cdef double WONDER_DRAFT[NUM_WONDERS]   # draft preference

cdef double evaluate(const GameState* s, int p) noexcept nogil:
    """Static value of a position for player p (VP equivalents): VP difference with coins
    counted as coins/3, plus science progress, the pawn, production while it still matters,
    a pending token choice and progress tokens' passive worth."""
    cdef int vp[2 * NUM_VP]
    cdef double v[2]
    cdef int q, k, d, t
    cdef const PlayerState* me
    compute_vp(s, vp)
    for q in range(2):
        me = &s.p[q]
        v[q] = 0.0
        for k in range(NUM_VP):
            if k != VP_COINS:
                v[q] += vp[q * NUM_VP + k]
        v[q] += me.coins / 3.0
        v[q] += 1.5 * me.n_symbols + (6.0 if me.n_symbols >= 5 else 0.0)
        d = s.pawn if q == 0 else -s.pawn
        if d > 0:
            v[q] += 0.6 * d + (4.0 if d >= 7 else 0.0)
        if s.age < 3:
            for k in range(NUM_RES):
                v[q] += (1.2 if s.age <= 1 else 0.7) * me.fixed[k]
            v[q] += 1.0 * (me.n_choice[0] + me.n_choice[1])
        for t in range(NUM_TOKENS):
            if (me.tokens >> t) & 1:
                v[q] += TOKEN_BONUS[t]
    if (s.phase == PH_TOKEN or (s.pend & PEND_TOKEN)) and s.to_move == p:
        v[p] += 3.0
    return v[p] - v[1 - p]

cdef int greedy_action(const GameState* s, u64* rng) noexcept nogil:
    """One-ply greedy choice (documented in duelpy.agents.GreedyAgent): the action whose
    resulting position evaluates best for the player to move; a win ends the search; Play
    Again is worth 1.5 VP; a player chooses to begin the next Age; ties broken at random."""
    cdef int buf[MAX_LEGAL]
    cdef int best[MAX_LEGAL]
    cdef int n = legal_actions(s, buf), i, nb = 0, p = s.to_move
    cdef double score, top = -1e18
    cdef GameState t
    if n <= 0:                          # a broken position: no legal action
        return -1
    if s.phase == PH_START:
        return START_BASE + p
    for i in range(n):
        if s.phase == PH_DRAFT:
            score = WONDER_DRAFT[buf[i] - DRAFT_BASE]
        else:
            t = s[0]
            apply_action(&t, buf[i])
            if t.phase == PH_OVER:
                score = 1e9 if t.winner == p else (-1e9 if t.winner == 1 - p else 0.0)
            else:
                score = evaluate(&t, p)
                if t.replay:
                    score += 1.5
        if score > top + 1e-9:
            top = score
            nb = 0
        if score >= top - 1e-9:
            best[nb] = buf[i]
            nb += 1
    return best[rng_below(rng, nb)]

cdef void greedy_playout(GameState* s, u64* rng) noexcept nogil:
    """Play to the end with the greedy policy (one ply, ties at random)."""
    playout(s, rng, True)

include "policy.pxi"
include "fitpolicy.pxi"
include "value.pxi"

# MCTS -----------------------------------------------------------------------------------
cdef struct Node:
    i32 first_child         # index of the first child (children sorted by action), -1 none
    i32 next_sibling        # -1 none
    i32 visits
    i32 avail               # times the action was legal when its parent was visited (ISMCTS)
    double reward           # sum of rewards for `player`: 1 win, 0.5 shared, 0 loss
    i16 action              # the action leading here from the parent
    u8 player               # who chose `action`
    u8 _pad
    float bias              # planning search: the policy's score of `action` when expanded,
                            #   scaled to about [-1, 1] (progressive bias)

cdef struct SearchResult:
    int iterations          # iterations run
    int nodes               # nodes used
    int n_root              # root actions with statistics
    int actions[MAX_LEGAL]
    int visits[MAX_LEGAL]
    double value[MAX_LEGAL]  # mean reward of each root action for the player to move

DEF MAX_DEPTH = 512

cdef inline void new_node(Node* nd, int action, int player) noexcept nogil:
    nd.first_child = -1
    nd.next_sibling = -1
    nd.visits = 0
    nd.avail = 1
    nd.reward = 0.0
    nd.action = action
    nd.player = player
    nd.bias = 0.0

cdef inline void mast_update(double* q, double* sums, int* counts, int action, int player,
                             double r0) noexcept nogil:
    """Add a simulation's reward to the move average of `player`'s `action` (nothing for an
    action without a MAST key); r0 is P1's reward."""
    cdef int key = mast_key(action)
    if key < 0:
        return
    key += player * MAST_KEYS
    sums[key] += r0 if player == 0 else 1.0 - r0
    counts[key] += 1
    q[key] = (sums[key] + 0.5 * MAST_PRIOR) / (counts[key] + MAST_PRIOR)

cdef int mcts_run(const GameState* root, const AgentSpec* prm, Node* nodes, int cap,
                  u64 seed, SearchResult* res) noexcept nogil:
    """Open-loop information-set UCT from `root` (a decision node).

    Each iteration samples every chance event afresh with the search's own RNG (seeded by
    `seed`), descends the tree of decisions by UCB1 with availability counts among the actions
    legal in this sample, expands one new action, finishes with a random or greedy rollout and
    backs up 1 / 0.5 / 0 for a win / shared victory / loss.  Returns the iterations run; fills
    `res` with the root actions' visits (the decision is the most visited).
    """
    cdef u64 rng = seed
    cdef GameState s
    cdef int buf[MAX_LEGAL]
    cdef int unexp[MAX_LEGAL]
    cdef double fscore[MAX_LEGAL]
    cdef double top, zsum, u
    cdef int j
    cdef int path[MAX_DEPTH]
    cdef int n_nodes = 1, it = 0, depth, node, n, i, a, child, prev, n_unexp, n_exp, best, p, new
    cdef double best_val, val, r0, score, prior, leaf, t_end = 0.0
    cdef double c = prm.c
    cdef bint plan = prm.kind == AGENT_PLAN
    cdef int vp[2 * NUM_VP]
    cdef PolicyParams pp
    pp.noise = prm.noise
    pp.eps = prm.eps
    pp.deny = prm.deny
    pp.fitted = prm.fitted
    pp.temp = prm.temp
    # move averages (MAST): per player and key, reward sum, count and the smoothed mean
    cdef double mast_q[2 * MAST_KEYS]
    cdef double mast_s[2 * MAST_KEYS]
    cdef int mast_n[2 * MAST_KEYS]
    cdef int moves[MAX_DEPTH]          # the playout's decisions, action * 2 + player
    cdef int n_moves = 0
    cdef bint mast = plan and prm.fitted and prm.mast > 0.0
    pp.mast_w = prm.mast if mast else 0.0
    pp.mast_q = mast_q
    pp.science = prm.science
    pp.pw = prm.pw
    if mast:
        for i in range(2 * MAST_KEYS):
            mast_q[i] = 0.5
            mast_s[i] = 0.0
            mast_n[i] = 0
    rng_next(&rng)
    new_node(&nodes[0], -1, 0)
    if prm.iterations <= 0:
        t_end = now() + prm.seconds
    while True:
        if prm.iterations > 0:
            if it >= prm.iterations:
                break
        elif (it & 15) == 0 and now() >= t_end:
            break
        if stop_requested() or token_set(prm.stop):
            break
        it += 1
        s = root[0]
        node = 0
        depth = 0
        while s.phase != PH_OVER and depth < MAX_DEPTH - 1:
            n = legal_actions(&s, buf)
            p = s.to_move
            child = nodes[node].first_child
            n_unexp = 0
            n_exp = 0
            best = -1
            best_val = -1e300
            for i in range(n):
                a = buf[i]
                while child >= 0 and nodes[child].action < a:
                    child = nodes[child].next_sibling
                if child >= 0 and nodes[child].action == a:
                    n_exp += 1
                    nodes[child].avail += 1
                    if nodes[child].visits == 0:
                        val = 1e300
                    else:
                        val = (nodes[child].reward / nodes[child].visits
                               + c * sqrt(log_count(nodes[child].avail) / nodes[child].visits))
                        if plan:    # progressive bias: the policy's opinion fades with visits
                            val += prm.bias * nodes[child].bias / (nodes[child].visits + 1)
                            if prm.puct > 0.0:  # PUCT-style: the prior, growing with the
                                # times the action was available (the parent's visits)
                                val += (prm.puct * nodes[child].bias
                                        * sqrt(<double>nodes[child].avail)
                                        / (nodes[child].visits + 1))
                    if val > best_val:
                        best_val = val
                        best = child
                else:
                    unexp[n_unexp] = a
                    n_unexp += 1
            if n_unexp > 0 and n_nodes < cap and (
                    not plan or n_exp < 2 + prm.widen * sqrt(<double>nodes[node].visits)):
                prior = 0.0     # the expanded action's progressive bias, in [-1, 1]
                if plan and prm.fitted and s.phase == PH_PLAY and \
                        fitted_scores(&s, prm.pw, buf, n, fscore) == 0:
                    # progressive widening by the fitted policy: an untried action drawn from
                    # its softmax; the bias is the action's probability among all legal ones
                    top = -1e300
                    for i in range(n):
                        if fscore[i] > top:
                            top = fscore[i]
                    zsum = 0.0
                    for i in range(n):
                        zsum += exp((fscore[i] - top) / prm.temp)
                    a = unexp[0]
                    best_val = -1e300
                    j = 0
                    for i in range(n):
                        if j < n_unexp and buf[i] == unexp[j]:
                            j += 1
                            u = rand_unit(&rng)
                            val = fscore[i] / prm.temp - log(-log(u if u > 1e-300 else 1e-300))
                            if val > best_val:
                                best_val = val
                                a = buf[i]
                                prior = exp((fscore[i] - top) / prm.temp) / zsum
                elif plan:      # progressive widening: the policy's best untried action first
                    a = unexp[0]
                    best_val = -1e300
                    for i in range(n_unexp):
                        score = action_score(&s, unexp[i], prm.deny)
                        val = score + prm.noise * rand_unit(&rng)
                        if val > best_val:
                            best_val = val
                            a = unexp[i]
                            # the hand policy's score (VP), clipped to +-10 and scaled
                            prior = (score / 10.0 if -10.0 < score < 10.0
                                     else (1.0 if score > 0 else -1.0))
                else:
                    a = unexp[rng_below(&rng, n_unexp)]
                new = n_nodes
                n_nodes += 1
                new_node(&nodes[new], a, p)
                nodes[new].bias = <float>prior
                prev = -1
                child = nodes[node].first_child
                while child >= 0 and nodes[child].action < a:
                    prev = child
                    child = nodes[child].next_sibling
                nodes[new].next_sibling = child
                if prev < 0:
                    nodes[node].first_child = new
                else:
                    nodes[prev].next_sibling = new
                apply_action(&s, a)
                settle(&s, &rng)
                path[depth] = new
                depth += 1
                break
            if best < 0:
                break
            apply_action(&s, nodes[best].action)
            settle(&s, &rng)
            path[depth] = best
            depth += 1
            node = best
        leaf = -1.0             # the evaluator's value of the leaf (planning search)
        if plan and prm.vmix > 0.0 and s.phase != PH_OVER:
            if prm.horizon > 0:     # a short playout, then the evaluator
                policy_steps(&s, &rng, &pp, prm.horizon)
                if stop_requested():
                    it -= 1
                    break
            leaf = value_estimate(&s)
        if leaf >= 0.0 and prm.vmix >= 1.0:
            r0 = leaf           # no playout: the evaluator alone
        else:
            if s.phase != PH_OVER:
                if plan and not (prm.rmix > 0.0 and rand_unit(&rng) < prm.rmix):
                    n_moves = policy_playout(&s, &rng, &pp, moves if mast else NULL,
                                             MAX_DEPTH)
                elif prm.rollout == AGENT_GREEDY:
                    greedy_playout(&s, &rng)
                else:
                    random_playout(&s, &rng)
            if s.phase != PH_OVER:          # stopped inside the playout: not an iteration
                it -= 1
                break
            r0 = 1.0 if s.winner == 0 else (0.0 if s.winner == 1 else 0.5)
            if plan and prm.margin > 0.0 and s.victory != VICTORY_MILITARY \
                    and s.victory != VICTORY_SCIENTIFIC:
                # a small VP-margin term: among wins, the surer ones (R-END-2)
                compute_vp(&s, vp)
                val = 0.0
                for i in range(NUM_VP):
                    val += vp[i] - vp[NUM_VP + i]
                r0 = (1.0 - prm.margin) * r0 + prm.margin * (0.5 + 0.5 * tanh(val / 10.0))
            if leaf >= 0.0:     # mixed: evaluator and playout (weight vmix on the evaluator)
                r0 = prm.vmix * leaf + (1.0 - prm.vmix) * r0
        nodes[0].visits += 1
        for i in range(depth):
            nodes[path[i]].visits += 1
            nodes[path[i]].reward += r0 if nodes[path[i]].player == 0 else 1.0 - r0
        if mast:        # the move averages of the tree's and the playout's turn actions
            for i in range(depth):
                mast_update(mast_q, mast_s, mast_n, nodes[path[i]].action,
                            nodes[path[i]].player, r0)
            for i in range(n_moves):
                mast_update(mast_q, mast_s, mast_n, moves[i] >> 1, moves[i] & 1, r0)
            n_moves = 0
    res.iterations = it
    res.nodes = n_nodes
    res.n_root = 0
    child = nodes[0].first_child
    while child >= 0:
        res.actions[res.n_root] = nodes[child].action
        res.visits[res.n_root] = nodes[child].visits
        res.value[res.n_root] = nodes[child].reward / nodes[child].visits if nodes[child].visits else 0.0
        res.n_root += 1
        child = nodes[child].next_sibling
    return it

cdef int best_root_action(const SearchResult* res) noexcept nogil:
    """Most visited root action; ties go to the higher mean reward, then the lower action."""
    cdef int i, best = 0
    for i in range(1, res.n_root):
        if (res.visits[i] > res.visits[best] or
                (res.visits[i] == res.visits[best] and res.value[i] > res.value[best])):
            best = i
    return res.actions[best]

cdef int mcts_action(const GameState* s, const AgentSpec* prm, Node* nodes, int cap,
                     u64* rng) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef SearchResult res
    cdef int n = legal_actions(s, buf)
    if n <= 1:
        return buf[0] if n == 1 else -1
    mcts_run(s, prm, nodes, cap, rng_next(rng), &res)
    if res.n_root == 0:                 # no room to grow the tree: never an unset action
        return buf[rng_below(rng, n)]
    return best_root_action(&res)

cdef int agent_action(const GameState* s, const AgentSpec* spec, Node* nodes, int cap,
                      u64* rng) noexcept nogil:
    if spec.kind == AGENT_GREEDY:
        return greedy_action(s, rng)
    if spec.kind == AGENT_MCTS or spec.kind == AGENT_PLAN:
        return mcts_action(s, spec, nodes, cap, rng)
    return random_action(s, rng)

# ---------------------------------------------------------------- whole games
cdef struct GameStats:
    int vp[2 * NUM_VP]
    int coins[2]
    u16 drafted[2]          # wonders drafted (bitset over wonder ids)
    u16 built[2]            # wonders built
    u16 tokens[2]           # progress tokens owned at the end
    u16 n_decisions
    i8 winner               # 0, 1, or -1 for a shared victory
    u8 victory              # VICTORY_*
    i8 starters[3]          # who began each Age (-1 if the Age was not reached)
    u8 replays[2]           # Play Again turns taken
    u8 colours[2][7]        # cards of each colour in each city at the end
    i8 pawn
    u8 age                  # Age in which the game ended

cdef inline u64 seat_seed(u64 game_seed, int seat) noexcept nogil:
    """The seed of a seat's agent RNG in a game (independent of the chance RNG)."""
    cdef u64 x = game_seed ^ (<u64>0xA5A5F00DCAFE1234ULL + <u64>seat * <u64>0x9E3779B97F4A7C15ULL)
    rng_next(&x)
    return x

cdef bint play_game(GameState* s, const AgentSpec* a0, const AgentSpec* a1, Node* nodes,
                    int cap, u64 rng0, u64 rng1, GameStats* out) noexcept nogil:
    """Play a game from `s` to the end with one agent per player; chance from the state's
    own RNG, each agent's choices from its own RNG (`rng0`, `rng1`).  Records it in `out`.
    Returns 0 if the stop flag ended it early (then `out` is not a game)."""
    cdef int a, p, k, last_p = -1, last_age = 0
    cdef u64 rng[2]
    rng[0] = rng0
    rng[1] = rng1
    memset(out, 0, sizeof(GameStats))
    out.starters[0] = -1
    out.starters[1] = -1
    out.starters[2] = -1
    settle(s, &s.rng)
    while s.phase != PH_OVER:
        p = s.to_move
        if s.phase == PH_PLAY:
            if s.age != last_age:
                out.starters[s.age - 1] = p
                last_age = s.age
            elif p == last_p and out.replays[p] < 255:
                out.replays[p] += 1
            last_p = p
        a = agent_action(s, a0 if p == 0 else a1, nodes, cap, &rng[p])
        if stop_requested() or a < 0:
            return 0
        apply_action(s, a)
        settle(s, &s.rng)
        if s.draft_pick == 8 and out.drafted[0] == 0:
            out.drafted[0] = s.p[0].wonders
            out.drafted[1] = s.p[1].wonders
    compute_vp(s, out.vp)
    for p in range(2):
        out.coins[p] = s.p[p].coins
        out.built[p] = s.p[p].built
        out.tokens[p] = s.p[p].tokens
        for k in range(NUM_COLOURS):
            out.colours[p][k] = s.p[p].colour[k]
    out.n_decisions = s.n_decisions
    out.winner = -1 if s.winner == WINNER_NONE else s.winner
    out.victory = s.victory
    out.pawn = s.pawn
    out.age = s.age
    return 1

# ---------------------------------------------------------------- Python surface
AGENT_KINDS = {"random": AGENT_RANDOM, "greedy": AGENT_GREEDY, "mcts": AGENT_MCTS,
               "plan": AGENT_PLAN}
#: Defaults of the planning search's options (see AgentSpec).
PLAN_DEFAULTS = {"c": 0.7, "noise": 1.5, "eps": 0.05, "widen": 1.0, "margin": 0.3,
                 "bias": 0.5, "value": 0.0, "horizon": 0,
                 "deny": 0.5, "rmix": 0.0, "policy": "fitted", "temp": 0.4,
                 "mast": 3.0, "science": 0.7, "puct": 0.0, "weights": None}
#: The allowed range (lo, hi) of each numeric option of the planning search (``c`` also
#: bounds the round-1 search's); ``duelpy.agents`` builds its option table from it.
PLAN_RANGES = {"c": (0.0, 1e6), "noise": (0.0, 1e6), "eps": (0.0, 1.0), "widen": (0.0, 1e6),
               "margin": (0.0, 1.0), "bias": (0.0, 1e6), "value": (0.0, 1.0),
               "horizon": (0, 200), "deny": (0.0, 1e6), "rmix": (0.0, 1.0),
               "temp": (0.01, 100.0), "mast": (0.0, 100.0), "science": (-10.0, 10.0),
               "puct": (0.0, 1e6)}
#: The budgets as the core takes them (0 iterations: use seconds; 0 max_nodes: automatic).
BUDGET_RANGES = {"iterations": (0, 100_000_000), "seconds": (0.0, 3600.0),
                 "max_nodes": (0, 200_000_000)}
#: The planning search's playout policies: the hand-set scores (policy.pxi) or the softmax
#: fitted to the search's own choices (fitpolicy.pxi, weights in policy_weights.npz).
PLAYOUT_POLICIES = ("hand", "fitted")


cdef Node* alloc_tree(int cap) except NULL:
    """An MCTS tree of `cap` nodes (32 bytes each); the caller frees it."""
    cdef Node* nodes = <Node*>malloc(cap * sizeof(Node))
    if nodes == NULL:
        raise MemoryError(f"cannot allocate an MCTS tree of {cap} nodes")
    return nodes


cdef _require_decision(State state):
    """Raise ValueError unless `state` waits for a player's decision."""
    if state.s.phase == PH_OVER:
        raise ValueError("the game is over: there is no decision to make")
    if is_chance(&state.s):
        raise ValueError("this is a chance node: chance outcomes are not chosen by an agent")
    cdef int buf[MAX_LEGAL]
    if legal_actions(&state.s, buf) == 0:
        raise ValueError("no legal action at this position (a broken position)")


cdef AgentSpec make_spec(dict d) except *:
    cdef AgentSpec spec
    for key in ("kind", "rollout"):
        if d.get(key, "random") not in AGENT_KINDS:
            raise ValueError(f"unknown {key} {d.get(key)!r}; one of {', '.join(AGENT_KINDS)}")
    spec.kind = AGENT_KINDS[d.get("kind", "random")]
    spec.iterations = d.get("iterations", 1000)
    spec.seconds = d.get("seconds", 0.0)
    spec.c = d.get("c", 1.4)
    spec.rollout = AGENT_KINDS[d.get("rollout", "random")]
    spec.max_nodes = d.get("max_nodes", 0)
    spec.noise = d.get("noise", PLAN_DEFAULTS["noise"])
    spec.eps = d.get("eps", PLAN_DEFAULTS["eps"])
    spec.widen = d.get("widen", PLAN_DEFAULTS["widen"])
    spec.margin = d.get("margin", PLAN_DEFAULTS["margin"])
    spec.bias = d.get("bias", PLAN_DEFAULTS["bias"])
    spec.stop = NULL
    spec.vmix = d.get("value", PLAN_DEFAULTS["value"])
    spec.horizon = d.get("horizon", PLAN_DEFAULTS["horizon"])
    spec.deny = d.get("deny", PLAN_DEFAULTS["deny"])
    spec.rmix = d.get("rmix", PLAN_DEFAULTS["rmix"])
    pol = d.get("policy", PLAN_DEFAULTS["policy"])
    if pol not in PLAYOUT_POLICIES:
        raise ValueError(f"unknown policy {pol!r}; one of {', '.join(PLAYOUT_POLICIES)}")
    spec.fitted = PLAYOUT_POLICIES.index(pol)
    spec.temp = d.get("temp", PLAN_DEFAULTS["temp"])
    spec.mast = d.get("mast", PLAN_DEFAULTS["mast"])
    spec.science = d.get("science", PLAN_DEFAULTS["science"])
    spec.puct = d.get("puct", PLAN_DEFAULTS["puct"])
    # the ranges, checked here for every caller (the agents' table reads PLAN_RANGES); a
    # nan fails every comparison and is refused
    for key, v in (("iterations", spec.iterations), ("seconds", spec.seconds),
                   ("max_nodes", spec.max_nodes), ("c", spec.c), ("noise", spec.noise),
                   ("eps", spec.eps), ("widen", spec.widen), ("margin", spec.margin),
                   ("bias", spec.bias), ("value", spec.vmix), ("horizon", spec.horizon),
                   ("deny", spec.deny), ("rmix", spec.rmix), ("temp", spec.temp),
                   ("mast", spec.mast), ("science", spec.science), ("puct", spec.puct)):
        lo, hi = PLAN_RANGES[key] if key in PLAN_RANGES else BUDGET_RANGES[key]
        if not lo <= v <= hi:
            raise ValueError(f"{key} must be in [{lo:g}, {hi:g}], not {v}")
    spec.pw = NULL
    weights = d.get("weights")
    if spec.kind == AGENT_PLAN and spec.fitted:
        spec.pw = spec_policy_weights(weights)
    elif weights is not None:
        raise ValueError("weights applies only to kind='plan' with policy='fitted'")
    if spec.kind == AGENT_PLAN and spec.vmix > 0.0 and not VW_LOADED:
        load_value_weights()
    if spec.kind == AGENT_PLAN and "c" not in d:
        spec.c = PLAN_DEFAULTS["c"]
    return spec


cdef int spec_capacity(const AgentSpec* spec) noexcept nogil:
    if spec.kind != AGENT_MCTS and spec.kind != AGENT_PLAN:
        return 0
    if spec.max_nodes > 0:
        return spec.max_nodes if spec.max_nodes >= 2 else 2
    if spec.iterations > 0:
        return spec.iterations + 2
    return 4_000_000


def mcts_search(State state, *, int iterations=1000, double seconds=0.0, c=None,
                rollout="random", int max_nodes=0, seed=0, kind="mcts", noise=None, eps=None,
                widen=None, margin=None, bias=None, value=None, horizon=None, deny=None,
                rmix=None, policy=None, temp=None, mast=None, science=None, puct=None,
                weights=None, stop=None):
    """Run one MCTS search from ``state`` (a decision node) in one thread, without the GIL.

    ``kind="mcts"`` is the round-1 search (UCB1 with ``c`` = 1.4 by default, ``rollout``
    random or greedy); ``kind="plan"`` the planning search (informed playouts, progressive
    widening and progressive bias by the policy, a VP-margin reward; options ``c``,
    ``noise``, ``eps``, ``widen``, ``margin``, ``bias``, ``deny``, ``rmix``, ``policy``
    (``"hand"`` or ``"fitted"``, PLAYOUT_POLICIES) with its ``temp``, ``mast`` (weight of
    the move averages in its playouts) and ``science`` (logit added in its playouts to a
    build giving a new science symbol; fitpolicy.pxi), ``weights`` (the fitted policy's
    weights: a name of ``NAMED_POLICY_WEIGHTS`` or an .npz path; None: the default loaded by
    ``load_policy_weights``), and the learned
    evaluator's ``value`` (weight at a leaf, 0..1) and ``horizon`` (playout moves before it)
    default to ``PLAN_DEFAULTS``).
    Ctrl-C in the main thread, or :func:`interrupt`, stops the search at once
    (KeyboardInterrupt follows for Ctrl-C); so does ``stop.set()`` for a :class:`SearchStop`
    given as ``stop``, for this search alone.

    Returns
    -------
    dict
        ``{"actions": [...], "visits": [...], "values": [...], "iterations": int,
        "nodes": int}``: the root actions explored, their visit counts and mean rewards (for
        the player to move; 1 win, 0.5 shared, 0 loss).

    Raises
    ------
    ValueError
        Naming the option: a value that is not a number (a string, a bool) or out of range,
        a planning option given with ``kind="mcts"`` (it would be ignored), an unknown kind
        or policy, no budget, or a state without a decision; a weights file that is missing,
        truncated or does not match this core's names (naming the file).
    """
    d = {"kind": kind, "iterations": iterations, "seconds": seconds, "rollout": rollout,
         "max_nodes": max_nodes}
    if kind not in ("mcts", "plan"):
        raise ValueError(f"kind must be 'mcts' or 'plan', not {kind!r}")
    for key, v in (("c", c), ("noise", noise), ("eps", eps), ("widen", widen),
                   ("margin", margin), ("bias", bias), ("value", value), ("deny", deny),
                   ("rmix", rmix), ("temp", temp), ("mast", mast), ("science", science),
                   ("puct", puct), ("horizon", horizon), ("policy", policy),
                   ("weights", weights)):
        if v is None:
            continue
        if kind != "plan" and key != "c":
            raise ValueError(f"{key} applies only to kind='plan'")
        if key in ("policy", "weights"):
            d[key] = v
        elif isinstance(v, (bool, str, bytes)) or not isinstance(v, numbers.Real):
            raise ValueError(f"{key} must be a number, not {v!r}")
        elif key == "horizon":
            if not float(v).is_integer():
                raise ValueError(f"horizon must be an integer, not {v!r}")
            d[key] = int(v)
        else:
            d[key] = float(v)
    cdef AgentSpec spec = make_spec(d)
    spec.stop = _token_ptr(stop)
    cdef int cap = spec_capacity(&spec)
    cdef SearchResult res
    cdef u64 s64 = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef GameState g = state.s
    cdef int i
    _require_decision(state)
    if iterations <= 0 and not seconds > 0:
        raise ValueError("give a positive number of iterations or of seconds")
    cdef Node* nodes = alloc_tree(cap)
    try:
        with _SigintHook():
            with nogil:
                mcts_run(&g, &spec, nodes, cap, s64, &res)
    finally:
        free(nodes)
    return {"actions": [res.actions[i] for i in range(res.n_root)],
            "visits": [res.visits[i] for i in range(res.n_root)],
            "values": [res.value[i] for i in range(res.n_root)],
            "iterations": res.iterations, "nodes": res.nodes}


def agent_seed(game_seed, int seat):
    """Seed of the agent RNG of ``seat`` (0 = P1) in the game started with ``game_seed``:
    the match runners seed agents with it so that every runner plays the same games."""
    return seat_seed(<u64>(game_seed & 0xFFFFFFFFFFFFFFFF), seat)


def choose(State state, dict spec, rng, stop=None):
    """One decision of a built-in agent, exactly as the batch runner makes it.

    Parameters
    ----------
    spec : dict
        ``{"kind": "random"|"greedy"|"mcts", "iterations", "seconds", "c", "rollout",
        "max_nodes"}``.
    rng : int
        The agent's RNG state (a 64-bit integer).
    stop : SearchStop, optional
        A token whose ``set()`` stops this decision's search alone (best action so far).

    Returns
    -------
    (action, rng)
        The action and the advanced RNG state.
    """
    cdef AgentSpec sp = make_spec(spec)
    sp.stop = _token_ptr(stop)
    cdef u64 r = <u64>(rng & 0xFFFFFFFFFFFFFFFF)
    cdef int cap = max(spec_capacity(&sp), 1)
    cdef GameState g = state.s
    cdef int a
    _require_decision(state)
    cdef Node* nodes = alloc_tree(cap)
    try:
        with _SigintHook():
            with nogil:
                a = agent_action(&g, &sp, nodes, cap, &r)
    finally:
        free(nodes)
    if a < 0:
        raise ValueError("no legal action at this position (a broken position)")
    return a, r


def greedy_choice(State state, seed=0):
    """The greedy agent's action at ``state`` (a decision node); ties broken by ``seed``."""
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    _require_decision(state)
    rng_next(&rng)
    return greedy_action(&state.s, &rng)


def random_playout_from(State state, seed=0):
    """A copy of ``state`` played to the end uniformly at random (chance from ``seed``)."""
    cdef u64 rng = <u64>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef GameState g = state.s
    rng_next(&rng)
    with nogil:
        random_playout(&g, &rng)
    return State._wrap(&g)


STAT_FIELDS = ("winner", "victory", "vp", "coins", "drafted", "built", "tokens", "n_decisions",
               "starters", "replays", "colours", "pawn", "age")


def play_games(cnp.uint64_t[::1] seeds, dict agent0, dict agent1, cnp.uint8_t[::1] swap=None,
               int options=0, int first_game=0, int coins0=7, int coins1=7,
               int first_player=0, int banned_tokens=0, int forced0=0, int forced1=0):
    """Play one game per seed between two built-in agents, without the GIL.

    ``agent0`` plays P1 and ``agent1`` P2, except in games where ``swap[i]`` is 1.  Each game
    starts from ``new_game(seed)`` with the given options and treatments (banned token mask,
    forced wonder id + 1 for P1 / P2, as validated by ``duelcore.engine._treatments``); the
    agents draw their choices from their own RNG derived from the seed.  Returns a dict of
    numpy arrays, one row per game (see STAT_FIELDS; ``vp`` has shape (n, 2, 8) in the order
    of VP_CATEGORIES), plus ``completed`` (games finished) and ``interrupted`` (True if the
    stop flag, :func:`interrupt` or Ctrl-C, ended the run early: only the first
    ``completed`` rows are games).
    """
    cdef Py_ssize_t n = seeds.shape[0], i
    cdef AgentSpec s0 = make_spec(agent0), s1 = make_spec(agent1)
    cdef int cap = max(spec_capacity(&s0), spec_capacity(&s1), 1)
    cdef Node* nodes = <Node*>malloc(cap * sizeof(Node))
    cdef GameState g
    cdef GameStats* st = <GameStats*>malloc(max(n, 1) * sizeof(GameStats))
    cdef bint sw, has_swap = swap is not None
    cdef Py_ssize_t done = 0
    if nodes == NULL or st == NULL:
        free(nodes)
        free(st)
        raise MemoryError("cannot allocate the game buffers")
    memset(st, 0, max(n, 1) * sizeof(GameStats))
    try:
        with _SigintHook():
            with nogil:
                for i in range(n):
                    if stop_requested():
                        break
                    init_state(&g, seeds[i], options, first_player, first_game, coins0, coins1)
                    set_treatments(&g, banned_tokens, forced0, forced1)
                    sw = has_swap and swap[i]
                    if sw:
                        if not play_game(&g, &s1, &s0, nodes, cap, seat_seed(seeds[i], 0),
                                         seat_seed(seeds[i], 1), &st[i]):
                            break
                    elif not play_game(&g, &s0, &s1, nodes, cap, seat_seed(seeds[i], 0),
                                       seat_seed(seeds[i], 1), &st[i]):
                        break
                    done = i + 1
        res = {
            "winner": np.empty(n, np.int8), "victory": np.empty(n, np.uint8),
            "vp": np.empty((n, 2, NUM_VP), np.int16), "coins": np.empty((n, 2), np.int32),
            "drafted": np.empty((n, 2), np.uint16), "built": np.empty((n, 2), np.uint16),
            "tokens": np.empty((n, 2), np.uint16), "n_decisions": np.empty(n, np.uint16),
            "starters": np.empty((n, 3), np.int8), "replays": np.empty((n, 2), np.uint8),
            "colours": np.empty((n, 2, NUM_COLOURS), np.uint8), "pawn": np.empty(n, np.int8),
            "age": np.empty(n, np.uint8),
        }
        _fill(st, n, res)
    finally:
        free(nodes)
        free(st)
    res["completed"] = int(done)
    res["interrupted"] = done < n
    return res


cdef void _fill(GameStats* st, Py_ssize_t n, dict res):
    cdef cnp.int8_t[::1] winner = res["winner"]
    cdef cnp.uint8_t[::1] victory = res["victory"]
    cdef cnp.int16_t[:, :, ::1] vp = res["vp"]
    cdef cnp.int32_t[:, ::1] coins = res["coins"]
    cdef cnp.uint16_t[:, ::1] drafted = res["drafted"]
    cdef cnp.uint16_t[:, ::1] built = res["built"]
    cdef cnp.uint16_t[:, ::1] tokens = res["tokens"]
    cdef cnp.uint16_t[::1] n_dec = res["n_decisions"]
    cdef cnp.int8_t[:, ::1] starters = res["starters"]
    cdef cnp.uint8_t[:, ::1] replays = res["replays"]
    cdef cnp.uint8_t[:, :, ::1] colours = res["colours"]
    cdef cnp.int8_t[::1] pawn = res["pawn"]
    cdef cnp.uint8_t[::1] age = res["age"]
    cdef Py_ssize_t i
    cdef int p, k
    for i in range(n):
        winner[i] = st[i].winner
        victory[i] = st[i].victory
        n_dec[i] = st[i].n_decisions
        pawn[i] = st[i].pawn
        age[i] = st[i].age
        for k in range(3):
            starters[i, k] = st[i].starters[k]
        for p in range(2):
            coins[i, p] = st[i].coins[p]
            drafted[i, p] = st[i].drafted[p]
            built[i, p] = st[i].built[p]
            tokens[i, p] = st[i].tokens[p]
            replays[i, p] = st[i].replays[p]
            for k in range(NUM_VP):
                vp[i, p, k] = st[i].vp[p * NUM_VP + k]
            for k in range(NUM_COLOURS):
                colours[i, p, k] = st[i].colours[p][k]


def _init_greedy_tables():
    from duelcore.duel import data
    bonus = {"Architecture": 2.0, "Economy": 2.0, "Law": 0.0, "Masonry": 2.0,
             "Mathematics": 1.0, "Strategy": 2.5, "Theology": 2.5, "Urbanism": 1.5,
             "Agriculture": 0.0, "Philosophy": 0.0}
    for t, name in enumerate(data.TOKEN_NAMES):
        TOKEN_BONUS[t] = bonus[name]
    for w, wd in enumerate(data.WONDERS):
        WONDER_DRAFT[w] = (wd.vp + wd.coins / 3.0 + 3.0 * wd.play_again + 1.5 * wd.shields
                           + (3.0 if wd.action else 0.0) + (2.0 if wd.choice else 0.0))


_init_greedy_tables()
