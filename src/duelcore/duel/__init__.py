"""The 7 Wonders Duel core: ``engine`` (the rules, ``State``, positions as data), ``search``
(random and greedy play, the MCTS searches, the batch runner), ``kernels`` (micro-benchmarks)
and ``data`` (the card table).  The public names of the rules engine are re-exported here (and
from :mod:`duelcore` itself)."""
from duelcore.duel.engine import (  # noqa: F401
    ACTION_LAYOUT, CHANCE_PLAYER, FORMAT_VERSION, NUM_DISTINCT_ACTIONS, PHASE_NAMES,
    PLAYER_NAMES, RULES_VERSION, TERMINAL_PLAYER, VICTORY_NAMES, VP_CATEGORIES,
    IllegalActionError, State, StateFormatError, action_to_string, new_game, state_from_dict,
    state_size,
)

__all__ = [
    "ACTION_LAYOUT", "CHANCE_PLAYER", "FORMAT_VERSION", "NUM_DISTINCT_ACTIONS", "PHASE_NAMES",
    "PLAYER_NAMES", "RULES_VERSION", "TERMINAL_PLAYER", "VICTORY_NAMES", "VP_CATEGORIES",
    "IllegalActionError", "State", "StateFormatError", "action_to_string", "new_game",
    "state_from_dict", "state_size",
]
