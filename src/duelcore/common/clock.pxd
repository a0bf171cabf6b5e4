# The monotonic clock of every game's searches and batch timings (seconds, as a double).
cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    cdef struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk, timespec* ts)
    int CLOCK_MONOTONIC

cdef inline double now() noexcept nogil:
    """Seconds on the monotonic clock (an arbitrary origin: use differences)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
