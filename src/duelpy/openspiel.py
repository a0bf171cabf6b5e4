"""``import duelpy.openspiel`` registers the game ``duel`` with pyspiel (see
:mod:`duelpy.duel.openspiel`, where it lives; this name is kept for users and for
serialized games)."""
from duelpy.duel.openspiel import *  # noqa: F401,F403
from duelpy.duel.openspiel import deserialize_game_and_state  # noqa: F401
