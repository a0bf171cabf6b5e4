# cython: language_level=3
"""Timing kernels for bench/: each loops inside compiled code over a pool of states and
returns a checksum, so a benchmark can check its result as well as time it."""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from duelcore.duel.types cimport *
from duelcore.common.rng cimport rng_next
from duelcore.duel.engine cimport (GameState, State, legal_actions, apply_action, card_cost,
                                   wonder_cost, settle)

cdef extern from *:
    """
    #include <string.h>
    static __attribute__((noinline)) void duel_opaque_copy(void* dst, const void* src, size_t n) {
        memcpy(dst, src, n);
    }
    """
    void opaque_copy "duel_opaque_copy"(void* dst, const void* src, size_t n) noexcept nogil


cdef GameState* _pool(list states) except NULL:
    cdef Py_ssize_t k = len(states), i
    if k == 0:
        raise ValueError("the pool of states is empty")
    cdef GameState* pool = <GameState*>malloc(k * sizeof(GameState))
    if pool == NULL:
        raise MemoryError()
    for i in range(k):
        pool[i] = (<State?>states[i]).s
    return pool


def copy_loop(list states, long n):
    """Copy a state from the pool into a scratch state n times (an opaque memcpy, as a clone
    does); returns the sum of the copies' decision counts."""
    cdef GameState* pool = _pool(states)
    cdef GameState dst
    cdef Py_ssize_t k = len(states)
    cdef long i
    cdef long long check = 0
    with nogil:
        for i in range(n):
            opaque_copy(&dst, &pool[i % k], sizeof(GameState))
            check += dst.n_decisions
    free(pool)
    return check


def legal_loop(list states, long n):
    """Generate the legal actions of pool states n times; returns the total action count."""
    cdef GameState* pool = _pool(states)
    cdef int buf[MAX_LEGAL]
    cdef Py_ssize_t k = len(states)
    cdef long i
    cdef long long check = 0
    with nogil:
        for i in range(n):
            check += legal_actions(&pool[i % k], buf)
    free(pool)
    return check


def cost_loop(list states, long n):
    """Solve the coin cost of every card (73) and wonder (12) for the player to move, n times
    over the pool; returns the sum of the costs."""
    cdef GameState* pool = _pool(states)
    cdef Py_ssize_t k = len(states)
    cdef long i
    cdef int c, trade
    cdef long long check = 0
    cdef GameState* g
    with nogil:
        for i in range(n):
            g = &pool[i % k]
            for c in range(NUM_CARDS):
                check += card_cost(g, g.to_move, c, &trade)
            for c in range(NUM_WONDERS):
                check += wonder_cost(g, g.to_move, c, &trade)
    free(pool)
    return check


def apply_loop(list states, list actions, long n):
    """Copy a pool state and apply its action (no chance sampling) n times; returns the sum
    of the resulting coins."""
    cdef GameState* pool = _pool(states)
    cdef Py_ssize_t k = len(states), i
    cdef int* acts = <int*>malloc(k * sizeof(int))
    cdef GameState dst
    cdef long j
    cdef long long check = 0
    for i in range(k):
        acts[i] = actions[i]
    with nogil:
        for j in range(n):
            dst = pool[j % k]
            apply_action(&dst, acts[j % k])
            check += dst.p[0].coins + dst.p[1].coins
    free(pool)
    free(acts)
    return check
