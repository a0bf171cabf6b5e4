# The RNG of every game's core: splitmix64 (one u64 of state) and an exact uniform integer
# below n (Lemire's multiply-shift with rejection).  Inline: no call across modules.
from duelcore.common.types cimport u32, u64

cdef inline u64 rng_next(u64* x) noexcept nogil:
    """The next 64 random bits; advances the state ``x``."""
    x[0] += <u64>0x9E3779B97F4A7C15ULL
    cdef u64 z = x[0]
    z = (z ^ (z >> 30)) * <u64>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <u64>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline int rng_below(u64* x, int n) noexcept nogil:
    """Uniform integer in [0, n), exact (Lemire's multiply-shift with rejection)."""
    cdef u32 bound = <u32>n
    cdef u32 r = <u32>(rng_next(x) >> 32)
    cdef u64 m = <u64>r * bound
    cdef u32 low = <u32>m
    cdef u32 thresh
    if low < bound:
        thresh = (<u32>(0 - bound)) % bound
        while low < thresh:
            r = <u32>(rng_next(x) >> 32)
            m = <u64>r * bound
            low = <u32>m
    return <int>(m >> 32)
