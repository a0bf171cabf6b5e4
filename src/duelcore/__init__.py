"""duelcore: the Cython rules engine of 7 Wonders Duel (see ``engine.pxd`` for the state)."""
from duelcore.engine import (  # noqa: F401
    ACTION_LAYOUT, CHANCE_PLAYER, FORMAT_VERSION, NUM_DISTINCT_ACTIONS, PHASE_NAMES,
    PLAYER_NAMES, RULES_VERSION, TERMINAL_PLAYER, VICTORY_NAMES, VP_CATEGORIES, IllegalActionError, State,
    StateFormatError, action_to_string, new_game, state_from_dict, state_size,
)
