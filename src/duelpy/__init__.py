"""duelpy: the Python layer of duel — agents, matches, notation, records, studies, CLI.

The rules live in the Cython core (:mod:`duelcore`); this package names things, validates
input, renders, records and reports.
"""
from duelcore import (  # noqa: F401
    IllegalActionError, State, StateFormatError, new_game, state_from_dict,
)
from duelpy.agents import (  # noqa: F401
    Agent, AgentSpecError, GreedyAgent, MCTSAgent, RandomAgent, parse_agent,
)
from duelpy.match import game_seeds, play_match  # noqa: F401
