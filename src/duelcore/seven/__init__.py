"""The 7 Wonders core (base game, 3-7 players and the 2-player Free City variant).

``engine`` holds the rules (``engine.pyx``), their Python face (``api.pxi``: ``State``,
``new_state``, positions as data) and the agents (``search.pxi``: random, greedy and IS-MCTS
play, the batch runners), in one compiled module so that the search inlines the rules;
``data`` is the card table.  Everything public is re-exported here: ``duelcore.seven`` is the
name to import (it was one module before the one-package-per-game layout).
"""
from duelcore.seven import data  # noqa: F401
from duelcore.seven.engine import (  # noqa: F401
    CHANCE, CHANCE_BOARD_BASE, CHANCE_CARD_BASE, CHANCE_GUILD_BASE, CITY_KEYS, DEBUG,
    FORMAT_VERSION, HALI_BASE, HALI_NONE, KEYS, NUM_ACTIONS, NUM_TURN_ACTIONS, OPTIONAL_KEYS,
    PHASES, PRECONDITION_MESSAGES, STATE_CHECK_MESSAGES, STATE_CHECKS, USES, VP_CATEGORIES,
    IllegalActionError, State, StateFormatError, action_to_string, check_message,
    choose_action, decode_turn_action, determinize, encode_turn_action, mcts_speed, new_state,
    play_games, play_games_detail, random_games, science_points, solve_cost, state_from_dict,
    state_size,
)
# the process-wide stop flag of every game's core (duelcore.common.stop)
from duelcore.common.stop import (  # noqa: F401
    SearchStop, clear_interrupt, interrupt, interrupted,
)
# the tuning hooks and helpers some tests and experiments reach (not a public API)
from duelcore.seven.engine import (  # noqa: F401
    _AGENT_KINDS, _playout, _removal, _set_bias, _set_playout, _set_reward, _set_win_weight,
    _spec, _unchecked_copy,
)

__all__ = [
    "CHANCE", "CHANCE_BOARD_BASE", "CHANCE_CARD_BASE", "CHANCE_GUILD_BASE", "CITY_KEYS", "DEBUG",
    "FORMAT_VERSION", "HALI_BASE", "HALI_NONE", "KEYS", "NUM_ACTIONS", "NUM_TURN_ACTIONS",
    "OPTIONAL_KEYS", "PHASES", "PRECONDITION_MESSAGES", "STATE_CHECK_MESSAGES", "STATE_CHECKS",
    "USES", "VP_CATEGORIES", "IllegalActionError", "State", "StateFormatError",
    "action_to_string", "check_message", "choose_action", "decode_turn_action", "determinize",
    "encode_turn_action", "mcts_speed", "new_state", "play_games", "play_games_detail",
    "random_games", "science_points", "solve_cost", "state_from_dict", "state_size",
    "SearchStop", "clear_interrupt", "interrupt", "interrupted", "data",
]
