"""``duelpy.pettingzoo.env()``: the PettingZoo environment of 7 Wonders Duel (see
:mod:`duelpy.duel.pettingzoo`, where it lives; this name is kept for users)."""
from duelpy.duel.pettingzoo import *  # noqa: F401,F403
from duelpy.duel.pettingzoo import env  # noqa: F401
