"""7 Wonders Duel: the Python face of the core (:mod:`duelcore`) — agents, matches, notation,
records, rendering, the OpenSpiel game and the PettingZoo environment."""
from duelcore import (  # noqa: F401
    IllegalActionError, State, StateFormatError, new_game, state_from_dict,
)
from duelpy.duel.agents import (  # noqa: F401
    Agent, AgentSpecError, GreedyAgent, MCTSAgent, RandomAgent, parse_agent,
)
from duelpy.duel.match import game_seeds, play_match  # noqa: F401
from duelpy.duel.api import simulate, summarise  # noqa: F401
from duelpy.duel.notation import (  # noqa: F401
    AmbiguousActionError, IllegalMoveError, NotationError, UnknownActionError, action_name,
    legal_moves, parse_action,
)
from duelpy.duel.records import (  # noqa: F401
    GameRecord, RecordError, load, record_game, replay, save,
)
from duelpy.duel.render import render, render_text  # noqa: F401
from duelpy.duel.spiel import DuelGame, load_game, observation_tensor  # noqa: F401
