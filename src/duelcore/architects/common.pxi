# Small inline helpers of the Architects core (included by engine.pyx).  The typedefs, bit
# helpers and RNG come from duelcore/common through engine.pxd; the monotonic clock and the
# process-wide Ctrl-C stop flag of every game's core are cimported here.

from duelcore.common.clock cimport now
from duelcore.common.stop cimport stop_requested, token_set, token_ptr
# the stop flag's Python face, shared with the other games' cores (one flag per process)
from duelcore.common.stop import interrupt, clear_interrupt, interrupted, SearchStop, _SigintHook


cdef inline double ar_rng_unit(u64* x) noexcept nogil:
    """A uniform double in [0, 1)."""
    return (ar_rng_next(x) >> 11) * (1.0 / 9007199254740992.0)
