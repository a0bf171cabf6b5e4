"""``duelcore.kernels``: an alias of :mod:`duelcore.duel.kernels` (typed stub)."""
from duelcore.duel.kernels import *  # noqa: F401,F403
