"""``duelcore.search``: an alias of :mod:`duelcore.duel.search` (typed stub)."""
from duelcore.duel.search import *  # noqa: F401,F403
from duelcore.duel.search import _fitted_draws as _fitted_draws
from duelcore.duel.search import _SigintHook as _SigintHook
