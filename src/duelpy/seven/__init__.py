"""duelpy.seven: the Python face of 7 Wonders (base game, 3-7 players; players=2 is the Free
City variant).

The rules live in the Cython core :mod:`duelcore.seven`; this package names things, validates
input, renders positions, keeps game records and runs agents.  Vocabulary as for Duel and
OpenSpiel: ``new_game``, ``legal_actions(seat)``, ``apply_action(action, seat)`` /
``apply_actions`` (a joint turn), ``clone``, ``is_terminal``, ``returns``, ``to_dict`` /
``state_from_dict``, ``action_to_string``.

>>> from duelpy.seven import new_game
>>> g = new_game(players=4, seed=1)
>>> g.phase, g.age, g.turn, len(g.hand(0))
('turn', 1, 1, 7)

A position in the game's words (:func:`scenario`: the rest is dealt from the seed, and the
position passes every check of :data:`STATE_CHECKS`):

>>> from duelpy.seven import scenario
>>> st = scenario(3, seed=2, age=2, turn=1, cities={0: ["Theater"]}, hands={0: ["Statue"]})
>>> [a for a in st.legal_actions(0) if action_to_string(a) == "build Statue"] != []
True
"""
from duelcore.seven import (  # noqa: F401
    CHANCE, HALI_BASE, HALI_NONE, NUM_ACTIONS, NUM_TURN_ACTIONS, PHASES, STATE_CHECKS, USES,
    VP_CATEGORIES, IllegalActionError, State, StateFormatError, action_to_string,
    check_message, decode_turn_action, encode_turn_action, state_from_dict,
)
from duelpy.seven.game import (  # noqa: F401
    AGENTS, choose_action, new_game, parse_action, play_game, result,
)
from duelpy.seven.records import (  # noqa: F401
    RecordError, load_record, record_of, replay, save_record,
)
from duelpy.seven.render import render_text  # noqa: F401
from duelpy.seven.scenarios import scenario  # noqa: F401
