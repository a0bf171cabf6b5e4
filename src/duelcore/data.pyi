"""``duelcore.data``: an alias of :mod:`duelcore.duel.data` (typed stub)."""
from duelcore.duel.data import *  # noqa: F401,F403
