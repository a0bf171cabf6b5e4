# The process-wide stop flag of every game's core (Ctrl-C), declared for the nogil loops that
# check it: every search iteration and every batch game of every game.  One flag per process,
# in duelcore.common.stop; cimporting modules reach it through its address (one volatile read).

cdef int stop_flag          # 0: run; 1: set by interrupt(); 2: set by Ctrl-C through the hook

cdef extern from *:
    """
    #ifndef DUEL_STOP_READ_DEFINED
    #define DUEL_STOP_READ_DEFINED
    static inline int duel_flag_read(const int* p) { return *(const volatile int*)p != 0; }
    static inline int duel_token_set(const int* p) { return p && *(const volatile int*)p != 0; }
    #endif
    """
    int flag_read "duel_flag_read"(const int* p) noexcept nogil
    int token_set "duel_token_set"(const int* p) noexcept nogil   # a SearchStop's flag, or NULL

cdef inline bint stop_requested() noexcept nogil:
    """True once the process-wide flag is set (interrupt() or Ctrl-C): one volatile read."""
    return flag_read(&stop_flag)

cdef class SearchStop:
    cdef int flag

# The address of a SearchStop's flag for a search's nogil loop (NULL for None; TypeError else).
cdef const int* token_ptr(object stop) except? NULL
