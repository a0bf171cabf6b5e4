"""``duelcore.seven_data``: the old flat name of :mod:`duelcore.seven.data`, kept as an alias of
the very same module object."""
import sys

from duelcore.seven import data as _module

sys.modules[__name__] = _module
