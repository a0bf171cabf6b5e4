"""The game interface: what every game of the family offers to the tools that speak only it
(the runner, ``duel simulate / study / ladder / bench / play / replay / show / agents``, the
conformance tests).

A game lives in its own package on both layers (``duelcore/<game>/``, ``duelpy/<game>/``)
and is registered by one line in :mod:`duelpy.games`.  Its Python face implements
:class:`Game`: states (new, from a dict, the state API in the vocabulary of OpenSpiel), its
agents (one option table per agent kind, :class:`duelpy.base.specs.Kind`), its set-up options
(:class:`SetupOption`: rule options and study treatments, which become CLI flags and study
keys), batch games played in chunks (:meth:`Game.play_chunk`, run by the runner's workers)
and their result rows (:meth:`Game.rows`: one row per game and seat or per game, with VP by
category), records, and rendering.

The state API is reached through the game (``game.legal_actions(state, seat)``), so one tool
serves a sequential game (Duel: one player decides at a time) and a simultaneous one
(7 Wonders: every seat commits each turn).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import pandas as pd

from duelpy.base.specs import Kind

__all__ = ["Game", "SetupOption", "ChunkTask", "UnknownGameError", "SetupError", "Shared",
           "CoreAgents"]


class UnknownGameError(ValueError):
    """A game name that is not in the registry (one line with the games there are)."""


class SetupError(ValueError):
    """A bad set-up value given on the command line: ``flag`` names the flag (one line)."""

    def __init__(self, flag: str, message: str):
        self.flag = flag
        super().__init__(message)


@dataclass(frozen=True)
class SetupOption:
    """One rule option or study treatment of a game: a keyword of its ``new_state``, a
    command-line flag and a study-file key, from one table.

    Attributes
    ----------
    name : str
        The keyword (``centred_pawn``) and the study-file key.
    flag : str
        The command-line flag (``--centred-pawn``).
    help : str
        One line: what it does, its values and unit.
    metavar : str
        How the value is shown in ``--help`` ("P1,P2", "TOKEN"); "" for a switch.
    multiple : bool
        The flag may be given more than once.
    is_flag : bool
        A switch without a value.
    choices : tuple of str
        The allowed values, if it is a choice.
    role : str
        In a study: ``"rule"`` sets the control's rules (and a treatment's), ``"treatment"``
        adds one arm per value given on the command line, ``"both"`` is a rule in
        ``simulate`` and adds arms in ``study``.
    commands : tuple of str
        The commands that take the flag.
    """

    name: str
    flag: str
    help: str
    metavar: str = ""
    multiple: bool = False
    is_flag: bool = False
    choices: tuple = ()
    role: str = "rule"
    commands: tuple = ("simulate", "study")


@dataclass(frozen=True)
class ChunkTask:
    """What a worker needs to play games ``lo .. hi - 1`` of a run (picklable, for worker
    processes and Ray).

    ``agents`` are agent descriptions; ``seating`` says who sits where in game g:
    ``"fixed"`` (agent i at seat i), ``"alternate"`` (two agents, swapped in odd games),
    ``"pairs"`` (two agents, one seed per two games, swapped in the second) or ``"rotate"``
    (agent (g + s) mod K at seat s).  ``setup`` holds the game's set-up keywords (already
    checked).  ``seed`` is the run's base seed: game g's seed depends on (seed, g) only, so a
    run can be split over workers or resumed with the same games.
    """

    game: str
    players: int
    agents: tuple
    seating: str
    setup: Mapping[str, Any]
    seed: int
    lo: int
    hi: int
    moves: bool = False         # play move by move in Python (long games: a stop is seen
                                # between decisions)
    extra: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Game(Protocol):
    """The interface every game implements (see the module docstring).  Everything the tools
    call is here; a new game passes the conformance suite (``tests/conformance``) by
    implementing it."""

    name: str                                # "duel", "seven": the --game value
    title: str                               # "7 Wonders Duel"
    players: range                           # the player counts it is played with
    default_players: int
    setup_options: tuple[SetupOption, ...]   # rule options and treatments: flags, study keys
    agent_kinds: Mapping[str, Kind]          # one option table per agent kind
    vp_categories: tuple[str, ...]           # VP categories of the results, total last
    record_format: str                       # what marks its game records
    search_agents: tuple[str, ...]           # small search agents the no-peeking test checks
    bench_defaults: tuple[int, int]          # random games and MCTS iterations of duel bench
    ladder_method: str | None                # how its ladder rates (None: pairs of games)

    # ---- states (the state API, through the game)
    def new_state(self, seed: int = 0, players: int | None = None, **setup: Any) -> Any:
        """A new game (ValueError naming a bad argument)."""

    def state_from_dict(self, d: Mapping[str, Any]) -> Any:
        """A position from its ``to_dict`` data (the core's StateFormatError naming the
        field otherwise)."""

    def decision_seats(self, state: Any) -> list[int]:
        """Seats that have a decision now ([] at chance nodes and at the end)."""

    def legal_actions(self, state: Any, seat: int) -> list[int]:
        """The legal actions of ``seat`` (ascending, unique)."""

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """``[(action, probability)]`` at an explicit chance node, else []."""

    def apply(self, state: Any, seat: int | None, action: int) -> None:
        """Apply ``seat``'s action (None: a chance outcome); an illegal one raises the core's
        IllegalActionError (a ValueError) and leaves the state unchanged."""

    def action_name(self, state: Any, action: int) -> str:
        """The action's name in the game's notation."""

    def parse_action(self, state: Any, seat: int, text: str) -> int:
        """The legal action of ``seat`` named by ``text`` (ValueError otherwise)."""

    def result(self, state: Any) -> dict:
        """A finished game's result: ``winners`` (seats), ``vp`` ({category: [VP per seat]},
        ``total`` included), ``coins`` (per seat)."""

    def render_text(self, state: Any, seat: int | None = None, width: int | None = None) -> str:
        """The position as text (what ``seat`` may see, when given)."""

    def check(self, state: Any) -> str | None:
        """None if every invariant of the core holds, else what broke."""

    def hidden_variant(self, state: Any, seat: int, seed: int = 0) -> Any:
        """A state that differs only in what ``seat`` cannot see (for no-peeking tests)."""

    # ---- agents and set-up
    def lineup(self, agents: Sequence[str], players: int) -> list[str]:
        """Canonical agent names, one per seat (one agent given: every seat)."""

    def agent_name(self, text: str) -> str:
        """The canonical name of an agent description (ValueError naming the problem)."""

    def with_budget(self, text: str, key: str, value: Any) -> str | None:
        """``text`` with a ladder's budget; None if the agent takes none."""

    def has_budget(self, text: str, key: str) -> bool:
        """True if the description ``text`` carries the budget ``key``."""

    def choose(self, state: Any, seat: int, agent: str, seed: int = 0) -> int:
        """The action ``agent`` (a description) picks for ``seat``; reads only what the
        seat may see."""

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict:
        """The set-up keywords, validated and normalised (ValueError naming the problem)."""

    def setup_from_flags(self, command: str, values: Mapping[str, Any], players: int) -> dict:
        """The set-up of ``command`` from its flags (SetupError naming the flag)."""

    # ---- batch games, the runner and the commands
    def play_chunk(self, task: ChunkTask) -> dict:
        """Play ``task``'s games; the core's arrays of the games finished (all, or after a
        stop the first ones)."""

    def rows(self, task: ChunkTask, raw: dict, names: Sequence[str] | None = None
             ) -> pd.DataFrame:
        """The result rows of a chunk's finished games, with VP by category per seat."""

    def simulate_plan(self, lineup: Sequence[str], players: int) -> tuple[int, bool]:
        """(games per chunk, move by move) for ``duel simulate``."""

    def new_summary(self, lineup: Sequence[str], players: int, seed: int, seating: str,
                    setup: Mapping[str, Any]) -> Any:
        """What ``duel simulate`` prints: ``add(rows)``, then ``print(console, games, total,
        speed)``."""

    def study_spec(self, d: Mapping[str, Any], where: str = "study") -> Any:
        """A study of this game from its data (StudyError naming the key)."""

    def decision_cost(self, text: str) -> float:
        """Rough seconds of one core per decision of an agent (chunk sizes)."""

    def decisions_per_game(self, players: int) -> int:
        """Rough decisions in a game (chunk sizes)."""

    def needs_processes(self, agents: Sequence[str]) -> bool:
        """True if an agent holds the GIL (worker processes rather than threads)."""

    def cpus_per_task(self, agents: Sequence[str]) -> int:
        """Cores one chunk of these agents uses."""

    def comparisons(self, games: pd.DataFrame) -> pd.DataFrame:
        """A ladder's pairwise results (columns p1, p2, winner) from its games."""

    def ladder_table(self, games: pd.DataFrame, agents: Sequence[str]) -> Any:
        """(title, {column: cells}) after a ladder's ratings, or None."""

    def bench(self, players: int, games: int, iterations: int, repeat: int, jobs: int,
              measure: Callable, say: Callable[[str], None]) -> tuple[str, list]:
        """``duel bench``: (title, rows) of the engine's throughput and signature."""

    # ---- records
    def is_record(self, data: Mapping[str, Any]) -> bool:
        """True if ``data`` (parsed JSON) is this game's record."""

    def play_record(self, lineup: Sequence[str], players: int, seed: int) -> tuple[Any, Any]:
        """Agents play one game: (final state, record)."""

    def save_record(self, record: Any, path: Any) -> None:
        """Write a record (checked)."""

    def load_record(self, path: Any) -> Any:
        """A game record from a file (the game's RecordError naming the problem)."""

    def replay_record(self, record: Any) -> Any:
        """The final state of a record, every move checked."""


class Shared:
    """What the games' interfaces do alike, from two class attributes of each: ``summary``
    (the class of ``duel simulate``'s summary: ``summary(lineup, players, seed, seating,
    setup)``) and ``bench`` (``bench(players, games, iterations, repeat, jobs, measure, say)
    -> (title, rows)``)."""

    summary: Any
    bench: Any

    def new_summary(self, lineup: Sequence[str], players: int, seed: int, seating: str,
                    setup: Mapping[str, Any]) -> Any:
        """An accumulator of ``simulate``'s rows: ``add(rows)``, then ``print(console, games,
        total, speed)``."""
        return type(self).summary(list(lineup), players, seed, seating, dict(setup))


class CoreAgents(Shared):
    """:class:`Shared`, and what the interfaces of games whose agents all play inside the core
    with an iteration budget do alike (7 Wonders, Architects), from class attributes of each:
    ``parse_agent`` (text -> canonical name, a ValueError for a bad one), ``with_iterations``
    (text, iterations -> text), ``pairwise`` (a ladder's comparisons from its rows),
    ``agent_table`` (rows, agents -> per-agent results: ``seats``, ``win_rate``, ``ci_low``,
    ``ci_high``, ``mean_vp``, ``mean_place``), all as staticmethods, and ``title``."""

    title: str
    parse_agent: Any
    with_iterations: Any
    pairwise: Any
    agent_table: Any

    def agent_name(self, text: str) -> str:
        """The canonical name of an agent description (the game's agent error, a
        ValueError)."""
        return type(self).parse_agent(text)

    def with_budget(self, text: str, key: str, value: Any) -> str | None:
        """``text`` with a ladder's budget added (only ``iterations``: the core's MCTS has no
        time budget); None for an agent that takes none.  ValueError if it has its own, or
        for ``key`` ``"seconds"``."""
        if not type(self).parse_agent(text).startswith("mcts"):
            return None
        if key != "iterations":
            raise ValueError(f"{self.title}' mcts takes an iteration budget, not seconds: "
                             f"give --iterations")
        return type(self).with_iterations(text, value)

    def has_budget(self, text: str, key: str) -> bool:
        return key == "iterations" and text.startswith("mcts")

    def needs_processes(self, agents: Sequence[str]) -> bool:
        return False                    # every agent plays inside the core, without the GIL

    def cpus_per_task(self, agents: Sequence[str]) -> int:
        return 1

    def comparisons(self, games: pd.DataFrame) -> pd.DataFrame:
        """A ladder's pairwise results: who finished ahead of whom in each game."""
        return type(self).pairwise(games)

    def ladder_table(self, games: pd.DataFrame, agents: Sequence[str]) -> Any:
        """(title, {column: [cells]}): each agent's game results — seats played, win rate
        (a shared win 1/k) with its 95% Wilson interval, mean VP and mean place."""
        t = type(self).agent_table(games, list(agents))
        return ("Game results (a shared win counts 1/k; 95% Wilson intervals)", {
            "agent": list(t["agent"]), "seats": [f"{s:,}" for s in t["seats"]],
            "win rate": [f"{100 * r:.1f}%" for r in t["win_rate"]],
            "95% interval": [f"{100 * a:.1f}%–{100 * b:.1f}%"
                             for a, b in zip(t["ci_low"], t["ci_high"])],
            "mean VP": [f"{v:.1f}" for v in t["mean_vp"]],
            "mean place": [f"{v:.2f}" for v in t["mean_place"]]})

    # ---- records, through the game's records module (``records``: ``save_record(path,
    # record)``, ``load_record(path)``, ``replay(record)``)
    records: Any

    def save_record(self, record: Any, path: Any) -> None:
        """Write ``record`` to ``path`` (checked by a replay first)."""
        self.records.save_record(path, record)

    def load_record(self, path: Any) -> Any:
        """A game record from a file (the game's RecordError naming the problem)."""
        return self.records.load_record(path)

    def replay_record(self, record: Any) -> Any:
        """The final state of a record, every move checked."""
        return self.records.replay(record)
