"""7 Wonders Architects behind the game interface (:class:`duelpy.base.game.Game`): what the
runner, the commands and the conformance tests call.  The rules are the core's
(:mod:`duelcore.architects.engine`); this module maps the interface onto the game's Python
face."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from duelcore.architects import engine as _core

from duelpy.architects import benchmark
from duelpy.architects.agents import AGENT_KINDS, lineup, parse_agent, with_iterations
from duelpy.architects.batch import EMPTY, chunk_rows, play_chunk
from duelpy.architects.game import check_setup, new_game, play_game, resolve_wonder, result
from duelpy.architects.ladder import METHOD, agent_table, pairwise
from duelpy.architects.notation import action_name, parse_action
from duelpy.architects import records as _records
from duelpy.architects.records import record_of
from duelpy.architects.render import render_text
from duelpy.architects.study import ArchitectsStudySpec, SimulationSummary, chunk_size
from duelpy.base.game import ChunkTask, CoreAgents, SetupError, SetupOption
from duelpy.base.specs import Kind
from duelpy.run.backends import STOP

__all__ = ["Architects", "GAME", "SETUP_OPTIONS"]

_RULE_COMMANDS = ("simulate", "study", "play")

#: Architects' rule options (A-OPT) and study treatments: keywords of new_game, flags of
#: ``duel simulate / study / play``, keys of a study file.  In a study each flag given adds
#: a treatment arm.
SETUP_OPTIONS = (
    SetupOption("wonders", "--force-wonder",
                "a wonder at a seat, e.g. 'p1=Giza' (A-SETUP-2; repeatable; the other seats "
                "draw theirs at random; in a study each one is a treatment)",
                metavar="SEAT=WONDER", multiple=True, role="both", commands=_RULE_COMMANDS),
    SetupOption("removed_tokens", "--ban-token",
                "leave a progress token (every copy) out of the game (repeatable; in a study "
                "each one is a treatment)", metavar="TOKEN", multiple=True, role="both"),
    SetupOption("free_order", "--free-order",
                "A-ORDER-4: the player orders pending picks, sets and builds (a treatment in "
                "a study)", is_flag=True, role="both", commands=_RULE_COMMANDS),
    SetupOption("economy_forces_build", "--economy-optional",
                "A-BUILD-8 with economy_forces_build off: a stage only Economy makes "
                "affordable may be left (a treatment in a study)", is_flag=True, role="both",
                commands=_RULE_COMMANDS),
    SetupOption("engineering_once_per_turn", "--engineering-once-per-turn",
                "A-BUILD-9: Engineering relaxes one stage per turn (a treatment in a study)",
                is_flag=True, role="both", commands=_RULE_COMMANDS),
    SetupOption("coins_only_when_needed", "--coins-only-when-needed",
                "A-BUILD-6: only payments with the fewest coins are legal (a treatment in a "
                "study)", is_flag=True, role="both", commands=_RULE_COMMANDS),
    SetupOption("wonder_power_optional", "--wonder-power-optional",
                "A-WON-8: Alexandria, Ephesus and Halicarnassus may decline their power (a "
                "treatment in a study)", is_flag=True, role="both", commands=_RULE_COMMANDS),
)
_FLAG = {o.name: o.flag for o in SETUP_OPTIONS}
_SWITCH_VALUE = {"free_order": True, "economy_forces_build": False,
                 "engineering_once_per_turn": True, "coins_only_when_needed": True,
                 "wonder_power_optional": True}


def _forced(text: str, players: int) -> tuple[int, str]:
    """``p1=Giza`` (or ``p1:Giza``) as (seat index, wonder name); SetupError otherwise."""
    seat, eq, wonder = str(text).replace(":", "=", 1).partition("=")
    seat = seat.strip().lower().lstrip("p")
    if not eq or not seat.isdigit() or not 1 <= int(seat) <= players:
        raise SetupError("--force-wonder", f"{text!r}: write the seat and the wonder, e.g. "
                                           f"'p1=Giza' (seats p1..p{players})")
    try:
        name = resolve_wonder(wonder)
    except ValueError as e:
        raise SetupError("--force-wonder", str(e)) from None
    return int(seat) - 1, name


class Architects(CoreAgents):
    """7 Wonders Architects (2..7 players) behind the game interface."""

    name = "architects"
    title = "7 Wonders Architects"
    record_format = "architects"
    vp_categories = tuple(_core.VP_CATEGORIES)
    players = range(2, 8)
    default_players = 4
    setup_options: tuple[SetupOption, ...] = SETUP_OPTIONS
    agent_kinds: Mapping[str, Kind] = AGENT_KINDS
    #: Search agents (small budgets) that the conformance tests check for peeking.
    search_agents: tuple[str, ...] = ("mcts:300", "greedy")
    bench_defaults = (100_000, 2_000)
    ladder_method: str | None = METHOD
    #: What :class:`CoreAgents` (and :class:`Shared`) call: ``duel simulate``'s summary,
    #: ``duel bench``'s table, the records module, the agents' and the ladder's functions.
    summary = SimulationSummary
    bench = staticmethod(benchmark.bench_table)
    records = _records
    parse_agent = staticmethod(parse_agent)
    with_iterations = staticmethod(with_iterations)
    pairwise = staticmethod(pairwise)
    agent_table = staticmethod(agent_table)

    # ---------------------------------------------------------------- states
    def new_state(self, seed: int = 0, players: int | None = None, **setup: Any):
        """A new game (ValueError naming a bad argument)."""
        return new_game(self.default_players if players is None else players, seed, **setup)

    def state_from_dict(self, d: Mapping[str, Any]):
        return _core.state_from_dict(d)

    def decision_seats(self, state) -> list[int]:
        if state.is_terminal() or state.is_chance_node():
            return []
        return [state.active]

    def legal_actions(self, state, seat: int) -> list[int]:
        return list(state.legal_actions()) if seat in self.decision_seats(state) else []

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        return list(state.chance_outcomes())

    def apply(self, state, seat: int | None, action: int) -> None:
        if seat is not None and not state.is_chance_node() and not state.is_terminal() \
                and seat != state.active:
            raise _core.IllegalActionError(f"it is P{state.active + 1}'s decision, not "
                                           f"P{seat + 1}'s")
        state.apply_action(action)

    def action_name(self, state, action: int) -> str:
        return action_name(state, action)

    def parse_action(self, state, seat: int, text: str) -> int:
        if seat != state.active and not state.is_terminal():
            raise _core.IllegalActionError(f"it is P{state.active + 1}'s decision, not "
                                           f"P{seat + 1}'s")
        return parse_action(state, text)

    def result(self, state) -> dict:
        r = result(state)
        return {"winners": r["winners"], "vp": r["vp"], "stages": r["stages"],
                "ranking": r["ranking"], "wonders": r["wonders"],
                "coins": [state.tableau(i).get("coin", 0) for i in range(state.players)]}

    def render_text(self, state, seat: int | None = None, width: int | None = None) -> str:
        return render_text(state, seat)

    def check(self, state) -> str | None:
        code = state.state_check()
        return None if code == 0 else f"state_check {code}: {_core.check_message(code)}"

    def hidden_variant(self, state, seat: int, seed: int = 0):
        """A state that differs from ``state`` only in what ``seat`` cannot see: the RNG of
        future chance and, unless the seat looked at it, the central top (A-INFO)."""
        return _core.hidden_variant(state, seat, seed)

    # ---------------------------------------------------------------- agents and set-up
    def lineup(self, agents: Sequence[str], players: int) -> list[str]:
        return lineup(list(agents), players)

    def choose(self, state, seat: int, agent: str, seed: int = 0) -> int:
        if seat != state.active:
            raise ValueError(f"seat {seat} has no decision here (P{state.active + 1} decides)")
        return _core.choose_action(state, parse_agent(agent), seed)

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict:
        return check_setup(players, setup)

    def setup_from_flags(self, command: str, values: Mapping[str, Any], players: int = 4
                         ) -> dict:
        """The set-up of ``command`` from its flags (``values`` by option name, only those
        given): for ``simulate`` and ``play`` the keywords of new_game; for ``study``
        ``{"options": {}, "treatment": [tables]}`` (each flag an arm).  SetupError names the
        flag."""
        forced = [_forced(t, players) for t in values.get("wonders", ())]
        tokens = list(values.get("removed_tokens", ()))
        for t in tokens:
            try:
                _core.resolve_token(t)
            except ValueError as e:
                raise SetupError("--ban-token", str(e)) from None
        switches = [k for k in _SWITCH_VALUE if values.get(k)]
        if command == "study":
            treatments: list[dict[str, Any]] = [{"wonders": {f"p{seat + 1}": w}}
                                                for seat, w in forced]
            treatments += [{"removed_tokens": [t]} for t in tokens]
            treatments += [{k: _SWITCH_VALUE[k]} for k in switches]
            return {"options": {}, "treatment": treatments}
        setup: dict[str, Any] = {}
        if forced:
            seats: dict = {}
            for seat, w in forced:
                if seat in seats:
                    raise SetupError("--force-wonder", f"two wonders forced at P{seat + 1}")
                seats[seat] = w
            setup["wonders"] = seats
        if tokens:
            setup["removed_tokens"] = tokens
        for k in switches:
            setup[k] = _SWITCH_VALUE[k]
        try:
            return check_setup(players, setup)
        except ValueError as e:
            flag = "--force-wonder" if "wonder" in str(e) else "--ban-token" if tokens \
                else "rule options"
            raise SetupError(flag, str(e)) from None

    # ---------------------------------------------------------------- batch games
    def play_chunk(self, task: ChunkTask) -> dict:
        """Games ``task.lo .. task.hi - 1`` in the core (nogil); after a stop (the core's
        flag, or :data:`duelpy.run.backends.STOP` before it starts) the games finished."""
        return dict(EMPTY) if STOP.is_set() else play_chunk(task)

    def rows(self, task: ChunkTask, raw: dict, names: Sequence[str] | None = None
             ) -> pd.DataFrame:
        return chunk_rows(task, raw, names)

    def simulate_plan(self, lineup: Sequence[str], players: int = 4) -> tuple[int, bool]:
        """(games per chunk, move by move): every game runs in the core, which sees a stop
        inside its loops."""
        return chunk_size(lineup), False

    def study_spec(self, d: Mapping[str, Any], where: str = "study"):
        return ArchitectsStudySpec.from_dict(dict(d), where)

    def decision_cost(self, text: str) -> float:
        """Rough seconds of one core per decision."""
        name = parse_agent(text)
        if name.startswith("mcts"):
            return int(name.split(":")[1]) / 40_000
        return 3e-5 if name == "greedy" else 1e-6

    def decisions_per_game(self, players: int = 4) -> int:
        return 25 * players

    # ---------------------------------------------------------------- records
    def is_record(self, data: Mapping[str, Any]) -> bool:
        return data.get("game") == "architects"

    def play_record(self, lineup: Sequence[str], players: int, seed: int, **setup: Any):
        """Agents play one game: ``(final state, record)``."""
        state, moves = play_game(players, list(lineup), seed, **setup)
        return state, record_of(players, seed, moves, setup=check_setup(players, setup),
                                agents=list(lineup))


#: The game, as the registry holds it.
GAME = Architects()
