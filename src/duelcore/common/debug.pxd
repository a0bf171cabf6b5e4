# The debug build's switch (DUEL_DEBUG=1 at build time, see setup.py) and the abort of a broken
# precondition, shared by every game's core.
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort

cdef extern from *:
    """
    #ifndef DUEL_DEBUG
    #define DUEL_DEBUG 0
    #endif
    """
    const int DUEL_DEBUG

cdef inline int fault(const char* core, int code) noexcept nogil:
    """A broken precondition of ``core`` (the message's prefix): abort with its code in the
    debug build (the core's PRECONDITION_MESSAGES name it); return the code in release."""
    if DUEL_DEBUG:
        fprintf(stderr, b"%s: broken precondition %d (see PRECONDITION_MESSAGES)\n", core, code)
        abort()
    return code
