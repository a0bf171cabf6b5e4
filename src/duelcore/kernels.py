"""``duelcore.kernels``, the old flat name of :mod:`duelcore.duel.kernels`: an alias of the very
same module object (its private names, its module state and pickles naming it)."""
import sys

from duelcore.duel import kernels as _module

sys.modules[__name__] = _module
