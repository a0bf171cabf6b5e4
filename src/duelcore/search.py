"""``duelcore.search``, the old flat name of :mod:`duelcore.duel.search`: an alias of the very same
module object (its private names, its module state and pickles naming ``duelcore.search``)."""
import sys

from duelcore.duel import search as _module

sys.modules[__name__] = _module
