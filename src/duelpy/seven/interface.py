"""7 Wonders behind the game interface (:class:`duelpy.base.game.Game`): what the runner,
the commands and the conformance tests call.  The rules are the core's
(:mod:`duelcore.seven`); this module maps the interface onto 7 Wonders' Python face."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from duelcore import seven as _core

from duelpy.base.specs import Kind
from duelpy.base.game import CoreAgents, SetupError, SetupOption
from duelpy.run.backends import STOP
from duelpy.seven import benchmark
from duelpy.seven.agents import AGENT_KINDS, lineup, parse_agent, with_iterations
from duelpy.seven.ladder import METHOD, agent_table, pairwise
from duelpy.seven.game import new_game, parse_action, play_game, result
from duelpy.seven import records as _records
from duelpy.seven.records import record_of
from duelpy.seven.render import render_text
from duelpy.seven.batch import EMPTY, chunk_rows, play_chunk
from duelpy.seven.study import (Arm, SevenStudySpec, SimulationSummary, resolve_board,
                                resolve_card)
from duelpy.seven.study import chunk_size

__all__ = ["Seven", "GAME"]
class Seven(CoreAgents):
    """7 Wonders (2..7 players; 2 is the Free City variant) behind the game interface."""

    name = "seven"
    title = "7 Wonders"
    players = range(2, 8)
    default_players = 4
    agent_kinds: Mapping[str, Kind] = AGENT_KINDS
    vp_categories = tuple(_core.VP_CATEGORIES)
    record_format = "seven"                  # a record's "game" key
    setup_options: tuple[SetupOption, ...] = (
        SetupOption("sides", "--sides", "wonder sides: random (the rules, W-SETUP-4), or all "
                    "A or all B", choices=("random", "A", "B"), commands=("simulate", "study")),
        SetupOption("remove", "--remove", "leave these cards out of the game (a removed Age "
                    "card's copies are replaced by spare copies of its Age; in a study each "
                    "flag is a treatment)", metavar="CARD[,CARD]", multiple=True, role="both"),
        SetupOption("boards", "--force-wonder", "treatment: a wonder board, and optionally its "
                    "side, at a seat, e.g. 'p2=Rhodos B' (repeatable)", metavar="SEAT=WONDER",
                    multiple=True, role="treatment", commands=("study",)),
        SetupOption("force_sides", "--force-side", "treatment: every board on this side "
                    "(repeatable)", choices=("A", "B"), multiple=True, role="treatment",
                    commands=("study",)),
    )

    # ---------------------------------------------------------------- states
    def new_state(self, seed: int = 0, players: int | None = None, **setup: Any):
        return new_game(self.default_players if players is None else players, seed=seed,
                        **setup)

    def state_from_dict(self, d: Mapping[str, Any]):
        return _core.state_from_dict(d)

    def decision_seats(self, state) -> list[int]:
        if state.is_terminal() or state.is_chance_node():
            return []
        return list(state.pending_seats())

    def legal_actions(self, state, seat: int) -> list[int]:
        return list(state.legal_actions(seat))

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        return list(state.chance_outcomes()) if state.is_chance_node() else []

    def apply(self, state, seat: int | None, action: int) -> None:
        state.apply_action(action, seat)

    def action_name(self, state, action: int) -> str:
        return _core.action_to_string(action)

    def parse_action(self, state, seat: int, text: str) -> int:
        return parse_action(state, seat, text)

    def result(self, state) -> dict:
        r = result(state)
        seats = state.players
        vp = {c: [r["scores"][i][c] for i in range(seats)] for c in _core.VP_CATEGORIES}
        return {"winners": list(r["winners"]), "vp": vp, "coins": r["coins"][:seats],
                "boards": r["boards"][:seats]}

    def render_text(self, state, seat: int | None = None, width: int | None = None) -> str:
        return render_text(state, seat)

    def check(self, state) -> str | None:
        code = state.state_check()
        return None if code == 0 else f"state_check code {code}"

    # ---------------------------------------------------------------- agents and set-up
    def lineup(self, agents: Sequence[str], players: int) -> list[str]:
        return lineup(list(agents), players)

    def choose(self, state, seat: int, agent: str, seed: int = 0) -> int:
        return _core.choose_action(state, seat, parse_agent(agent), seed)

    def decision_cost(self, text: str) -> float:
        name = parse_agent(text)
        return int(name.split(":")[1]) / 10_000 if name.startswith("mcts") else 3e-6

    def decisions_per_game(self, players: int = 4) -> int:
        return 18 * players

    ladder_method: str | None = METHOD
    #: The agents', the ladder's and the records' functions (used by :class:`CoreAgents`).
    parse_agent = staticmethod(parse_agent)
    with_iterations = staticmethod(with_iterations)
    pairwise = staticmethod(pairwise)
    agent_table = staticmethod(agent_table)
    records = _records

    def setup_from_flags(self, command: str, values: Mapping[str, Any], players: int = 4
                         ) -> dict:
        """The set-up of ``command`` from its flags (``values`` by option name, only those
        given): for ``simulate`` and ``play`` the keywords of ``new_state``; for ``study``
        ``{"options": control, "treatment": [tables]}`` as in a study file.  Raises
        SetupError naming the flag."""
        removals = [[c.strip() for c in v.split(",") if c.strip()]
                    for v in values.get("remove", ())]
        sides = values.get("sides")
        if command == "study":
            treatments: list[dict] = [{"sides": s.upper()} for s in values.get("force_sides", ())]
            for text in values.get("boards", ()):
                seat, board = _forced_board(text, players)
                try:
                    board = resolve_board(board)
                except ValueError as e:
                    raise SetupError("--force-wonder", str(e)) from None
                treatments.append({"boards": {f"p{seat + 1}": board}})
            for cards in removals:
                try:
                    treatments.append({"remove": [resolve_card(c) for c in cards]})
                except ValueError as e:
                    raise SetupError("--remove", str(e)) from None
            options = {} if sides in (None, "random") else {"sides": sides.upper()}
            return {"options": options, "treatment": treatments}
        if len(removals) > 1:
            raise SetupError("--remove", "give one --remove (cards separated by commas); a "
                                         "study compares several")
        try:
            arm = Arm.make(sides=None if sides is None else
                           (sides if sides == "random" else sides.upper()),
                           remove=removals[0] if removals else [])
            return arm.setup(players)
        except ValueError as e:
            raise SetupError("--remove" if removals else "--sides", str(e)) from None

    #: Search agents (small budgets) that the conformance tests check for peeking.
    search_agents: tuple[str, ...] = ("mcts:300",)

    def hidden_variant(self, state, seat: int, seed: int = 0):
        """A state that differs from ``state`` only in what ``seat``'s decider cannot see
        (the other hands, the deck, the cards not yet dealt; W-INFO): the core deals them
        afresh."""
        return _core.determinize(state, state.decider(seat), seed)

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict:
        s = dict(setup)
        unknown = sorted(set(s) - {"sides", "boards", "remove"})
        if unknown:
            raise ValueError(f"unknown 7 Wonders set-up option {unknown[0]!r} (sides, "
                             f"boards, remove)")
        arm = Arm.make(sides=s.get("sides"), boards=s.get("boards"), remove=s.get("remove"))
        return arm.setup(players)

    def study_spec(self, d: Mapping[str, Any], where: str = "study"):
        return SevenStudySpec.from_dict(dict(d), where)

    # ---------------------------------------------------------------- batch games
    def play_chunk(self, task) -> dict:
        """Games ``task.lo .. task.hi - 1`` in the core (nogil); after a stop (the core's
        flag, or :data:`duelpy.run.backends.STOP` before it starts) the games finished."""
        return dict(EMPTY) if STOP.is_set() else play_chunk(task)

    def rows(self, task, raw: dict, names: Sequence[str] | None = None) -> pd.DataFrame:
        return chunk_rows(task, raw)

    def simulate_plan(self, lineup: Sequence[str], players: int = 4) -> tuple[int, bool]:
        """(games per chunk, move by move) for ``simulate``: every game runs in the core,
        which sees a stop inside its loops."""
        return chunk_size(lineup), False


    bench = staticmethod(benchmark.bench_table)
    summary = SimulationSummary
    bench_defaults = (20_000, 2_000)


    # ---------------------------------------------------------------- records
    def is_record(self, data: Mapping[str, Any]) -> bool:
        """True if ``data`` (a parsed JSON document) is a 7 Wonders game record."""
        return data.get("game") == "seven"

    def play_record(self, lineup: Sequence[str], players: int, seed: int):
        """Agents play one game: ``(final state, record)``."""
        state, moves = play_game(players, list(lineup), seed=seed)
        return state, record_of(players, seed, moves, state=state)


def _forced_board(text: str, players: int) -> tuple[int, str]:
    """``p1=Rhodos B`` (or ``Rhodos B``: seat P1) as (seat index, board text)."""
    seat_text, eq, board = text.partition("=")
    if not eq:
        seat_text, board = "p1", text
    seat_text = seat_text.strip().lower().lstrip("p")
    if not seat_text.isdigit() or not 1 <= int(seat_text) <= players:
        raise SetupError("--force-wonder", f"{text!r}: write the seat and the wonder, e.g. "
                                           f"'p1=Rhodos B' (seats p1..p{players})")
    return int(seat_text) - 1, board.strip()


#: The game, as the registry holds it.
GAME = Seven()
