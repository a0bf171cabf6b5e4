# Small inline helpers of the Architects core (included by engine.pyx).
#
# TO BE REPLACED by duelcore/common (bits.pxd, rng.pxd, clock.pxd, stop.pyx) when the core
# restructuring lands: the RNG, the clock and the process-wide stop flag below are local copies
# so that this package stands alone until then.  The stop flag is a C static of this module:
# duelpy.base.interrupt's stop_core()/clear_core() set and clear it together with the other
# cores' flags.

cdef extern from *:
    """
    #include <signal.h>
    static volatile sig_atomic_t arch_stop_flag = 0;
    static inline int arch_stop_requested(void) { return arch_stop_flag != 0; }
    static inline void arch_set_stop(int v) { arch_stop_flag = v; }
    static inline int arch_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int arch_ctz(unsigned int x) { return __builtin_ctz(x); }
    """
    int stop_requested "arch_stop_requested"() noexcept nogil
    void set_stop "arch_set_stop"(int v) noexcept nogil
    int popcount "arch_popcount"(unsigned int x) noexcept nogil
    int ctz "arch_ctz"(unsigned int x) noexcept nogil

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk, timespec* ts)
    enum:
        CLOCK_MONOTONIC


cdef inline double now_s() noexcept nogil:
    """Monotonic clock, seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef u64 ar_rng_next(u64* x) noexcept nogil:
    """splitmix64: the next 64 random bits (the state is one u64)."""
    x[0] += <u64>0x9E3779B97F4A7C15ULL
    cdef u64 z = x[0]
    z = (z ^ (z >> 30)) * <u64>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <u64>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef int ar_rng_below(u64* x, int n) noexcept nogil:
    """A uniform integer in [0, n), n >= 1 (Lemire's multiply-shift, unbiased)."""
    cdef u32 bound = <u32>n
    cdef u32 r = <u32>(ar_rng_next(x) >> 32)
    cdef u64 m = <u64>r * bound
    cdef u32 low = <u32>m
    cdef u32 thresh
    if low < bound:
        thresh = (-bound) % bound
        while low < thresh:
            r = <u32>(ar_rng_next(x) >> 32)
            m = <u64>r * bound
            low = <u32>m
    return <int>(m >> 32)


cdef inline double ar_rng_unit(u64* x) noexcept nogil:
    """A uniform double in [0, 1)."""
    return (ar_rng_next(x) >> 11) * (1.0 / 9007199254740992.0)


def interrupt():
    """Ask every running search and batch run of the Architects core to stop now (from any
    thread).  Searches return their best action so far; batch runs return the games
    finished.  The flag stays set until :func:`clear_interrupt`."""
    set_stop(1)


def clear_interrupt():
    """Clear the stop flag set by :func:`interrupt`."""
    set_stop(0)


def interrupted():
    """True if the Architects core's stop flag is set."""
    return bool(stop_requested())
