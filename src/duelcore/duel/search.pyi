"""Agents inside the Duel core: random and greedy play, the MCTS searches, the batch runner
(typed stub of the compiled module)."""
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from duelcore.common.stop import SearchStop as SearchStop
from duelcore.common.stop import _SigintHook as _SigintHook
from duelcore.common.stop import clear_interrupt as clear_interrupt
from duelcore.common.stop import interrupt as interrupt
from duelcore.common.stop import interrupted as interrupted
from duelcore.duel.engine import State

AGENT_KINDS: dict[str, int]
BUDGET_RANGES: dict[str, tuple[float, float]]
PLAN_DEFAULTS: dict[str, Any]
PLAN_RANGES: dict[str, tuple[float, float]]
PLAYOUT_POLICIES: tuple[str, ...]
STAT_FIELDS: tuple[str, ...]
MAST_KEY_COUNT: int
POLICY_FEATURES: int
POLICY_WEIGHTS: int
POLICY_FEATURE_NAMES: list[str]
POLICY_WEIGHT_NAMES: list[str]
POLICY_BIAS_NAMES: list[str]
VALUE_FEATURES: int
VALUE_FEATURE_NAMES: list[str]

def mcts_search(state: State, *, iterations: int = 1000, seconds: float = 0.0,
                c: float | None = None, rollout: str = "random", max_nodes: int = 0,
                seed: int = 0, kind: str = "mcts", noise: float | None = None,
                eps: float | None = None, widen: float | None = None,
                margin: float | None = None, bias: float | None = None,
                value: float | None = None, horizon: int | None = None,
                deny: float | None = None, rmix: float | None = None,
                policy: str | None = None, temp: float | None = None,
                mast: float | None = None, science: float | None = None,
                puct: float | None = None, weights: str | None = None,
                stop: SearchStop | None = None) -> dict[str, Any]:
    """One MCTS search from ``state``, nogil: root actions, visits, values, iterations, nodes."""

def choose(state: State, spec: dict[str, Any], rng: int,
           stop: SearchStop | None = None) -> tuple[int, int]:
    """One decision of a built-in agent, as the batch runner makes it: (action, new rng)."""

def greedy_choice(state: State, seed: int = 0) -> int:
    """The greedy agent's action at ``state``; ties broken by ``seed``."""

def random_playout_from(state: State, seed: int = 0) -> State:
    """A copy of ``state`` played to the end uniformly at random."""

def agent_seed(game_seed: int, seat: int) -> int:
    """Seed of the agent RNG of ``seat`` in the game started with ``game_seed``."""

def play_games(seeds: npt.NDArray[np.uint64], agent0: dict[str, Any], agent1: dict[str, Any],
               swap: npt.NDArray[np.uint8] | None = None, options: int = 0,
               first_game: int = 0, coins0: int = 7, coins1: int = 7, first_player: int = 0,
               banned_tokens: int = 0, forced0: int = 0, forced1: int = 0) -> dict[str, Any]:
    """One game per seed between two built-in agents, nogil: arrays per STAT_FIELDS, plus
    ``completed`` and ``interrupted``."""

def load_policy_weights(path: str | None = None) -> npt.NDArray[np.float64]:
    """Load the fitted playout policy's weights (default: the shipped file)."""

def load_value_weights(path: str | None = None) -> npt.NDArray[np.float64]:
    """Load the learned evaluator's weights (default: the shipped file)."""

def policy_weights_loaded() -> bool:
    """True once the fitted policy's weights are in the core."""

def value_weights_loaded() -> bool:
    """True once the learned evaluator's weights are in the core."""

def policy_weights_path() -> str:
    """Path of the fitted playout policy's weights shipped with the package (the default)."""

NAMED_POLICY_WEIGHTS: dict[str, str]

def policy_weights_file(weights: str) -> str:
    """The file of a ``weights`` option: a shipped set's file by name, else the path."""

def read_policy_weights(path: str) -> npt.NDArray[np.float64]:
    """The checked weights of a file, in ``POLICY_WEIGHT_NAMES``' order; nothing is loaded."""

def policy_weights_table(weights: str) -> npt.NDArray[np.float64]:
    """The core's weights table of a ``weights`` option, read once per file and cached."""

def value_weights_path() -> str:
    """Path of the learned evaluator's weights shipped with the package."""

def value_of(state: State) -> float:
    """The learned evaluator's P(P1 wins) at ``state``."""

def value_features_of(state: State) -> npt.NDArray[np.float64]:
    """The evaluator's feature vector of ``state``, shape (VALUE_FEATURES,)."""

def value_data(games: int, seed: int = 0, per_game: int = 8, noise: float | None = None,
               eps: float | None = None, deny: float | None = None
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.uint8],
                          npt.NDArray[np.float32]]:
    """Training data for the evaluator: ``(X, age, y)``."""

def turn_features_of(state: State) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64],
                                            int]:
    """The fitted policy's view of a turn: ``(actions, features, win)``."""

def action_biases(actions: Sequence[int], age: int) -> npt.NDArray[np.float64]:
    """The one-hot bias columns of turn actions in Age ``age``, for fitting."""

def mast_key_of(action: int) -> int:
    """The move-average key of a turn action (a test hook), or -1."""

def _fitted_draws(state: State, n: int, seed: int = 0, temp: float = 1.0, mast: float = 0.0,
                  mast_q: npt.NDArray[np.float64] | None = None,
                  science: float = 0.0) -> npt.NDArray[np.int32]:
    """``n`` playout turns drawn by the fitted policy at ``state`` (a test hook)."""
