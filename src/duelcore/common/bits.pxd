# Bit helpers of every game's card bitsets (inline C: hardware popcount with -mpopcnt).
from duelcore.common.types cimport u64

cdef extern from *:
    """
    #ifndef DUEL_BITS_DEFINED
    #define DUEL_BITS_DEFINED
    static inline int duel_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int duel_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int popcount "duel_popcount"(u64) noexcept nogil     # set bits
    int ctz "duel_ctz"(u64) noexcept nogil               # index of the lowest set bit (x != 0)
