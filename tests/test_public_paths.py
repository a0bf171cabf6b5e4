"""The import paths users and saved data depend on keep working after the move into one
package per game (issue 28): the top-level API, the documented modules, the registry."""
from __future__ import annotations

import importlib
import pickle

import pytest


def test_the_top_level_api_is_unchanged():
    import duelpy
    for name in ("new_game", "state_from_dict", "State", "IllegalActionError",
                 "StateFormatError", "Agent", "AgentSpecError", "GreedyAgent", "MCTSAgent",
                 "RandomAgent", "parse_agent", "game_seeds", "play_match", "simulate",
                 "summarise", "AmbiguousActionError", "IllegalMoveError", "NotationError",
                 "UnknownActionError", "action_name", "legal_moves", "parse_action",
                 "GameRecord", "RecordError", "load", "record_game", "replay", "save",
                 "render", "render_text", "DuelGame", "load_game", "observation_tensor"):
        assert hasattr(duelpy, name), name
    state = duelpy.new_game(seed=7)
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize("module, names", [
    ("duelpy.openspiel", ["deserialize_game_and_state"]),
    ("duelpy.pettingzoo", ["env"]),
    ("duelpy.seven", ["new_game", "State", "record_of", "replay", "render_text"]),
    ("duelpy.seven.study", ["Arm", "games_frame", "run_study", "study_tables"]),
    ("duelpy.seven.ladder", ["pairwise", "agent_table", "rotation"]),
    ("duelpy.study", ["run_study", "load_spec", "StudySpec", "read_games", "StudyError"]),
    ("duelpy.ladder", ["run_ladder", "fit_ratings", "head_to_head", "read_ladder"]),
    ("duelpy.agents", None),
    ("duelcore", ["new_game", "state_from_dict", "State"]),
    ("duelcore.engine", ["State", "VP_CATEGORIES", "STATE_CHECKS"]),
    ("duelcore.search", ["mcts_search", "interrupt", "clear_interrupt", "load_policy_weights"]),
    ("duelcore.data", ["CARDS", "WONDER_NAMES", "TOKEN_NAMES"]),
    ("duelcore.seven", ["State", "new_state", "play_games_detail", "random_games"]),
])
def test_documented_modules_import(module, names):
    if names is None:                       # a flat module that moved into its game's package
        with pytest.raises(ImportError):
            importlib.import_module(module)
        return
    m = importlib.import_module(module)
    for name in names:
        assert hasattr(m, name), f"{module}.{name}"


def test_the_registry_holds_every_game():
    from duelpy.base.game import Game
    from duelpy.games import GAMES, get_game
    assert set(GAMES) >= {"duel", "seven"}
    for g in GAMES.values():
        assert isinstance(g, Game), g.name
    with pytest.raises(ValueError, match="unknown game 'chess'.*duel"):
        get_game("chess")
