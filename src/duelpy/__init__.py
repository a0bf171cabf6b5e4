"""duelpy: the Python layer of duel — agents, matches, notation, records, studies, CLI.

The rules live in the Cython core (:mod:`duelcore`); this package names things, validates
input, renders, records and reports.
"""
from importlib.metadata import PackageNotFoundError as _NotFound, version as _version

try:
    __version__ = _version("duel")
except _NotFound:                      # running from a source tree that is not installed
    __version__ = "0+unknown"

from duelcore import (  # noqa: F401,E402
    IllegalActionError, State, StateFormatError, new_game, state_from_dict,
)
from duelpy.duel.agents import (  # noqa: F401
    Agent, AgentSpecError, GreedyAgent, MCTSAgent, RandomAgent, parse_agent,
)
from duelpy.duel.match import game_seeds, play_match  # noqa: F401
from duelpy.duel.api import simulate, summarise  # noqa: F401,E402
from duelpy.duel.notation import (  # noqa: F401,E402
    AmbiguousActionError, IllegalMoveError, NotationError, UnknownActionError, action_name,
    legal_moves, parse_action,
)
from duelpy.duel.records import (  # noqa: F401,E402
    GameRecord, RecordError, load, record_game, replay, save,
)
from duelpy.duel.render import render, render_text  # noqa: F401,E402
from duelpy.duel.spiel import DuelGame, load_game, observation_tensor  # noqa: F401,E402
