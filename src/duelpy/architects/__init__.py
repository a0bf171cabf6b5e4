"""duelpy.architects: the Python face of 7 Wonders Architects (2..7 players).

The rules live in the Cython core :mod:`duelcore.architects.engine`; this package checks the
set-up, names and parses actions, renders positions, keeps game records, runs agents, batch
games and studies, and implements the game interface (:mod:`duelpy.architects.interface`).
Vocabulary as for the other games and OpenSpiel: ``new_game``, ``legal_actions()``,
``apply_action(a)``, ``chance_outcomes()``, ``clone``, ``is_terminal``, ``returns``,
``to_dict`` / ``state_from_dict``, ``action_to_string``.

>>> from duelpy.architects import new_game, parse_action
>>> g = new_game(players=3, seed=1)
>>> g.phase, g.active, len(g.legal_actions())
('main', 0, 3)
>>> g.apply_action(parse_action(g, "take central"))
>>> g.moves
1
"""
from duelcore.architects.engine import (  # noqa: F401
    ACTION_LAYOUT, CHANCE_PLAYER, KINDS, NUM_ACTIONS, PHASES, STAGES, TERMINAL_PLAYER, TOKENS,
    VP_CATEGORIES, WONDERS, IllegalActionError, State, StateFormatError, action_to_string,
    state_from_dict,
)
from duelpy.architects.game import (  # noqa: F401
    ArchitectsSetupError, SETUP_KEYS, check_setup, choose_action, new_game, play_game, result,
)
from duelpy.architects.notation import action_name, legal_moves, parse_action  # noqa: F401
from duelpy.architects.records import (  # noqa: F401
    RecordError, load_record, record_of, replay, save_record,
)
from duelpy.architects.render import render_text  # noqa: F401
