"""``duelcore.engine``, the old flat name of :mod:`duelcore.duel.engine`: an alias of the very same
module object (its private names, its module state and pickles naming ``duelcore.engine``)."""
import sys

from duelcore.duel import engine as _module

sys.modules[__name__] = _module
