# cython: language_level=3
"""Ctrl-C for every game's core: one process-wide stop flag.

Every ``nogil`` search iteration and every game of a batch run, in every game's core, checks
the flag (``stop_requested()`` of ``stop.pxd``: one volatile read).  :func:`interrupt` sets it
from any thread; a C-level SIGINT hook (:class:`_SigintHook`, installed while a core call runs
in the main thread) sets it on Ctrl-C and then calls the handler it replaced (Python's), so
KeyboardInterrupt follows once the core returns.  A :class:`SearchStop` token stops one search
alone.  ``duelcore.search`` and ``duelcore.seven`` re-export these names.
"""

cdef extern from *:
    """
    #include <signal.h>
    #include <string.h>
    /* the flag is `stop_flag` of stop.pxd (an int, as sig_atomic_t is): bound at import */
    typedef char duel_stop_flag_is_sig_atomic[sizeof(sig_atomic_t) == sizeof(int) ? 1 : -1];
    static volatile int* duel_stop_flag = 0;
    static struct sigaction duel_prev_sigint;
    static int duel_hooked = 0;
    static void duel_bind_stop(int* p) { duel_stop_flag = p; }
    static void duel_on_sigint(int sig) {
        *duel_stop_flag = 2;                 /* 2: set by Ctrl-C through the hook */
        if (!(duel_prev_sigint.sa_flags & SA_SIGINFO) && duel_prev_sigint.sa_handler != SIG_IGN
                && duel_prev_sigint.sa_handler != SIG_DFL && duel_prev_sigint.sa_handler)
            duel_prev_sigint.sa_handler(sig);
    }
    static int duel_hook_sigint(void) {
        struct sigaction sa;
        if (duel_hooked) return 0;
        if (*duel_stop_flag == 2) *duel_stop_flag = 0;  /* that Ctrl-C was raised already */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = duel_on_sigint;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGINT, &sa, &duel_prev_sigint) != 0) return -1;
        if (!(duel_prev_sigint.sa_flags & SA_SIGINFO) && duel_prev_sigint.sa_handler == SIG_IGN) {
            sigaction(SIGINT, &duel_prev_sigint, NULL);   /* Ctrl-C is ignored: keep it so */
            return 0;
        }
        duel_hooked = 1;
        return 1;
    }
    static void duel_unhook_sigint(void) {
        if (duel_hooked) { sigaction(SIGINT, &duel_prev_sigint, NULL); duel_hooked = 0; }
    }
    static inline void duel_set_stop(int v) { *duel_stop_flag = v; }
    """
    void bind_stop "duel_bind_stop"(int* p) noexcept nogil
    void set_stop "duel_set_stop"(int v) noexcept nogil
    int hook_sigint "duel_hook_sigint"() noexcept nogil
    void unhook_sigint "duel_unhook_sigint"() noexcept nogil

from cpython.exc cimport PyErr_CheckSignals

stop_flag = 0
bind_stop(&stop_flag)


def interrupt():
    """Ask every running search and batch run of every game's core to stop now (from any
    thread).

    Searches return their best action so far; the batch runners (Duel's ``play_games``,
    7 Wonders' ``play_games_detail``, ``play_games`` and ``random_games``) return the games
    finished.  The flag stays set until :func:`clear_interrupt`."""
    set_stop(1)


def clear_interrupt():
    """Clear the stop flag set by :func:`interrupt` or by Ctrl-C."""
    set_stop(0)


def interrupted():
    """True if the stop flag is set."""
    return bool(stop_requested())


cdef class SearchStop:
    """A stop token for one search: pass it as ``stop=`` to a search (Duel's ``mcts_search``
    and ``choose``, 7 Wonders' ``choose_action``) and call :meth:`set` (from any thread) to
    stop that search alone, e.g. when the game it thinks for is abandoned.  The search returns
    its best action so far.  The process-wide :func:`interrupt` still stops every search."""

    def set(self):
        """Ask the searches given this token to stop now."""
        self.flag = 1

    def clear(self):
        """Let searches given this token run again."""
        self.flag = 0

    @property
    def is_set(self):
        """True once :meth:`set` was called (until :meth:`clear`)."""
        return bool(self.flag)


cdef const int* token_ptr(object stop) except? NULL:
    if stop is None:
        return NULL
    if not isinstance(stop, SearchStop):
        raise TypeError(f"stop must be a SearchStop or None, not {type(stop).__name__}")
    return &(<SearchStop>stop).flag


class _SigintHook:
    """While a core call runs in the main thread, Ctrl-C sets the stop flag (and then reaches
    Python's handler as usual, so KeyboardInterrupt is raised once the core returns).  A flag
    set that way is cleared by the next hooked call (its KeyboardInterrupt was raised); one set
    by :func:`interrupt` stays until :func:`clear_interrupt`."""

    def __enter__(self):
        import threading
        self.hooked = (threading.current_thread() is threading.main_thread()
                       and hook_sigint() == 1)
        # A Ctrl-C that came before the hook went to Python's handler, which runs only
        # between Python instructions (none run in the core): raise it now, not after the call.
        if self.hooked:
            try:
                PyErr_CheckSignals()
            except BaseException:
                unhook_sigint()
                self.hooked = False
                raise
        return self

    def __exit__(self, *exc):
        if self.hooked:
            unhook_sigint()
        return False
