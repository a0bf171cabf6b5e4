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


# a card set as an array of 64-bit words (Duel: 2 words, 7 Wonders: 3); card c is bit c
cdef inline bint bit_has(const u64* b, int c) noexcept nogil:
    return (b[c >> 6] >> (c & 63)) & 1

cdef inline void bit_add(u64* b, int c) noexcept nogil:
    b[c >> 6] |= (<u64>1) << (c & 63)

cdef inline void bit_del(u64* b, int c) noexcept nogil:
    b[c >> 6] &= ~((<u64>1) << (c & 63))
