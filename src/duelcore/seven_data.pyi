"""``duelcore.seven_data``: an alias of :mod:`duelcore.seven.data` (typed stub)."""
from duelcore.seven.data import *  # noqa: F401,F403
