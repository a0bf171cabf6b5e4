"""``duelcore.data``, the old flat name of :mod:`duelcore.duel.data`: an alias of the very same
module object (its private names, its module state and pickles naming ``duelcore.data``)."""
import sys

from duelcore.duel import data as _module

sys.modules[__name__] = _module
