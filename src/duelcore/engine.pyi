"""``duelcore.engine``: an alias of :mod:`duelcore.duel.engine` (typed stub)."""
from duelcore.duel.engine import *  # noqa: F401,F403
from duelcore.duel.engine import _state_from_bytes as _state_from_bytes
from duelcore.duel.engine import _treatments as _treatments
from duelcore.duel.engine import _unchecked_copy as _unchecked_copy
