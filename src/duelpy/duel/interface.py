"""7 Wonders Duel behind the game interface (:class:`duelpy.base.game.Game`): what the
runner, the commands and the conformance tests call.  The rules are the core's
(:mod:`duelcore`); this module only maps the interface onto Duel's Python face."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

import pandas as pd

import duelcore
from duelcore.engine import VP_CATEGORIES, check_message

from duelpy.base.errors import StudyError
from duelpy.base.game import ChunkTask, SetupError, SetupOption, Shared
from duelpy.base.specs import Kind, parse_pairs
from duelpy.duel.options import DEFAULT_OPTIONS, game_options, normalise_options
from duelpy.duel import benchmark, match, notation, records
from duelpy.duel.render import render_text as _render_text
from duelpy.duel.agents import (AGENT_KINDS, decision_cost, parse_agent, spec_keys,
                                with_option)
from duelpy.duel.study import StudySpec
from duelpy.duel.summary import SimulationSummary
from duelpy.duel.match import _check_options, play_games_raw, task_rows, task_seats
from duelpy.run.backends import STOP

__all__ = ["Duel", "GAME", "SETUP_OPTIONS"]

_BOTH = ("simulate", "study", "play")

#: Duel's rule options and study treatments: keywords of :func:`duelcore.new_game`, flags of
#: ``duel simulate / study / play``, keys of a study file (R-SETUP, R-AGE-4; the treatments
#: are not rules).
SETUP_OPTIONS = (
    SetupOption("centred_pawn", "--centred-pawn",
                "who begins the next Age when the Conflict pawn is centred: the last player "
                "chooses (the rules) or begins", choices=("chooses", "begins"), commands=_BOTH),
    SetupOption("start_coins", "--start-coins", "starting coins of P1 and P2, e.g. 7,9 (coins)",
                metavar="P1,P2"),
    SetupOption("first_game_wonders", "--first-game-wonders",
                "no draft: the rulebook's wonders for a first game", is_flag=True,
                commands=_BOTH),
    SetupOption("banned_tokens", "--ban-token",
                "leave a progress token out of the game (repeatable; in a study each one is a "
                "treatment)", metavar="TOKEN", multiple=True, role="both"),
    SetupOption("forced_wonders", "--force-wonder",
                "force a wonder into a player's draft, e.g. 'p1=The Pyramids' (repeatable; in "
                "a study each one is a treatment)", metavar="SEAT=WONDER", multiple=True,
                role="both"),
    SetupOption("p2_extra_coins", "--p2-extra-coins",
                "treatment: P2 starts with N more coins (repeatable)", metavar="N",
                multiple=True, role="treatment", commands=("study",)),
    SetupOption("switch_centred_pawn", "--switch-centred-pawn",
                "treatment: the other centred-pawn rule", is_flag=True, role="treatment",
                commands=("study",)),
)


class Duel(Shared):
    """7 Wonders Duel (2 players) behind the game interface."""

    name = "duel"
    title = "7 Wonders Duel"
    players = range(2, 3)
    default_players = 2
    setup_options: tuple[SetupOption, ...] = SETUP_OPTIONS
    agent_kinds: Mapping[str, Kind] = AGENT_KINDS
    vp_categories = tuple(VP_CATEGORIES) + ("total",)
    record_format = records.FORMAT

    # ---------------------------------------------------------------- states
    def new_state(self, seed: int = 0, players: int | None = None, **setup: Any):
        if players not in (None, 2):
            raise ValueError(f"7 Wonders Duel is a 2-player game, not {players} players")
        return duelcore.new_game(seed, **setup)

    def state_from_dict(self, d: Mapping[str, Any]):
        return duelcore.state_from_dict(d)

    def decision_seats(self, state) -> list[int]:
        if state.is_terminal() or state.is_chance_node():
            return []
        return [state.current_player()]

    def legal_actions(self, state, seat: int) -> list[int]:
        return list(state.legal_actions()) if seat in self.decision_seats(state) else []

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        return list(state.chance_outcomes()) if state.is_chance_node() else []

    def apply(self, state, seat: int | None, action: int) -> None:
        if seat is not None and not state.is_chance_node() and not state.is_terminal() \
                and seat != state.current_player():
            raise duelcore.IllegalActionError(action, f"it is P{state.current_player() + 1}'s "
                                                      f"decision, not P{seat + 1}'s")
        state.apply_action(action)

    def action_name(self, state, action: int) -> str:
        return state.action_to_string(action)

    def parse_action(self, state, seat: int, text: str) -> int:
        return notation.parse_action(state, text)

    def result(self, state) -> dict:
        if not state.is_terminal():
            raise ValueError("the game is not over")
        r = state.result()
        vp = {c: list(r["vp"][c]) for c in VP_CATEGORIES}
        vp["total"] = list(r["total"])
        winners = [0, 1] if r["winner"] is None else [r["winner"]]
        return {"winners": winners, "victory": r["victory"], "vp": vp,
                "coins": [state.coins(0), state.coins(1)]}

    def render_text(self, state, seat: int | None = None, width: int | None = None) -> str:
        return _render_text(state, width=width or 100)

    def check(self, state) -> str | None:
        return check_message(state)

    # ---------------------------------------------------------------- agents and set-up
    def lineup(self, agents: Sequence[str], players: int = 2) -> list[str]:
        names = [parse_agent(a).name for a in agents]
        if len(names) == 1:
            names *= 2
        if len(names) != 2:
            raise ValueError(f"7 Wonders Duel takes 2 agents (one per player), got {len(names)}")
        return names

    def choose(self, state, seat: int, agent: str, seed: int = 0) -> int:
        a = parse_agent(agent)
        a.reset(seed)
        return a.select_action(state)

    def agent_name(self, text: str) -> str:
        """The canonical name of an agent description (AgentSpecError, a ValueError)."""
        return parse_agent(text).name

    def with_budget(self, text: str, key: str, value) -> str | None:
        """``text`` with a ladder's budget (``key`` "seconds" or "iterations") added; None
        if the agent takes no budget (random, greedy).  ValueError if it has its own."""
        own = [k for k in spec_keys(text) if k in ("seconds", "iterations")]
        if own:
            raise ValueError(f"agent {text!r} has its own budget ({own[0]}); with --{key} "
                             f"every search agent gets the same one: drop it from the agent "
                             f"or drop --{key}")
        budgeted = with_option(text, key, value)
        try:
            parse_agent(budgeted)
        except ValueError:
            return None
        return budgeted

    def has_budget(self, text: str, key: str) -> bool:
        return key in spec_keys(text)

    def decision_cost(self, text: str) -> float:
        """Rough seconds of one core per decision of the agent (for chunk sizes)."""
        return decision_cost(parse_agent(text))

    def decisions_per_game(self, players: int = 2) -> int:
        return 35

    def needs_processes(self, agents: Sequence[str]) -> bool:
        """True if an agent holds the GIL (Python agents): worker processes, not threads."""
        return not all(parse_agent(a).batchable for a in agents)

    def cpus_per_task(self, agents: Sequence[str]) -> int:
        return max(int(getattr(parse_agent(a), "threads", 1) or 1) for a in agents)

    def comparisons(self, games: pd.DataFrame) -> pd.DataFrame:
        """A ladder's pairwise results: Duel's games are already pairs (p1, p2, winner)."""
        return games

    def setup_from_flags(self, command: str, values: Mapping[str, Any], players: int = 2) -> dict:
        """The set-up of ``command`` from its flags (``values`` by option name, only those
        given): for ``simulate`` and ``play`` the keywords of :func:`duelcore.new_game`; for
        ``study`` ``{"options": control, "treatment": [tables]}`` as in a study file.
        Raises SetupError naming the flag."""
        rules = {k: v for k, v in values.items()
                 if k in ("centred_pawn", "start_coins", "first_game_wonders")}
        if "start_coins" in rules:
            rules["start_coins"] = _coins(rules["start_coins"])
        if not rules.get("first_game_wonders", True):
            del rules["first_game_wonders"]
        treatments: list[dict] = []
        banned = list(values.get("banned_tokens", ()))
        forced = [_forced(text) for text in values.get("forced_wonders", ())]
        if command == "study":
            for t in banned:                       # a misspelt name: named with its flag
                _canonical({"banned_tokens": [t]})
            for f in forced:
                _canonical({"forced_wonders": f})
            treatments += [{"forced_wonders": f} for f in forced]
            treatments += [{"banned_tokens": [t]} for t in banned]
            start = cast(list, rules.get("start_coins") or DEFAULT_OPTIONS["start_coins"])
            p2_coins = int(start[1])
            for n in (_int_flag(x, "--p2-extra-coins") for x in values.get("p2_extra_coins", ())):
                if not 0 <= p2_coins + n <= 1000:
                    raise SetupError("--p2-extra-coins", f"{n:+d}: P2 would start with "
                                     f"{p2_coins + n} coins (0 to 1,000)")
                treatments.append({"name": f"P2 {n:+d} coins", "p2_extra_coins": n})
            if values.get("switch_centred_pawn"):
                now = rules.get("centred_pawn", "chooses")
                treatments.append({"centred_pawn": "begins" if now == "chooses"
                                   else "chooses"})
            _canonical(rules)
            return {"options": rules, "treatment": treatments}
        if banned:
            rules["banned_tokens"] = banned
        if forced:
            both: dict = {}
            for f in forced:
                for seat, wonder in f.items():
                    if seat in both:
                        raise SetupError("--force-wonder", f"two wonders forced to "
                                                           f"{seat.upper()}")
                    both[seat] = wonder
            rules["forced_wonders"] = both
        return game_options(_canonical(rules))

    def ladder_table(self, games: pd.DataFrame, agents: Sequence[str]):
        """A game-specific table after the ratings (None: Duel's games are the pairs)."""
        return None

    #: Search agents (small budgets) that the conformance tests check for peeking.
    search_agents: tuple[str, ...] = ("mcts:iterations=300", "plan:iterations=300")

    def hidden_variant(self, state, seat: int, seed: int = 0):
        """A state that differs from ``state`` only in what ``seat`` cannot see: the hidden
        future the state's RNG would reveal (face-down cards, the Age III guilds, the Great
        Library draw; R-CHANCE)."""
        d = state.to_dict()
        d["rng"] = (d["rng"] * 6364136223846793005 + 1442695040888963407 + seed) % 2 ** 64
        return duelcore.state_from_dict(d)

    def check_setup(self, players: int, setup: Mapping[str, Any]) -> dict:
        if players != 2:
            raise ValueError(f"7 Wonders Duel is a 2-player game, not {players} players")
        setup = dict(setup)
        _check_options(setup)
        return setup

    # ---------------------------------------------------------------- batch games
    def play_chunk(self, task: ChunkTask) -> dict:
        """Games ``task.lo .. task.hi - 1``: the core's batch runner when both agents run
        in it, else move by move (``task.moves``: a stop is seen between decisions).  After
        a stop (:data:`duelpy.run.backends.STOP` or the core's flag), the games finished."""
        seeds, swap = task_seats(task)
        a, b = (parse_agent(x) for x in task.agents)
        return play_games_raw(a, b, seeds, swap, dict(task.setup), stop=STOP, partial=True,
                              moves=True if task.moves else None)

    def rows(self, task: ChunkTask, raw: dict, names: Sequence[str] | None = None
             ) -> pd.DataFrame:
        return task_rows(task, raw, names)

    def study_spec(self, d: Mapping[str, Any], where: str = "study"):
        """A Duel study from its data (the study file's tables); StudyError naming the key."""
        return StudySpec.from_dict(dict(d), where)

    ladder_method: str | None = None                    # Duel's games are the pairs: the default method

    def simulate_plan(self, lineup: Sequence[str], players: int = 2) -> tuple[int, bool]:
        """(games per chunk, move by move) for ``simulate``: chunks of about
        :data:`~duelpy.duel.match.CHUNK_SECONDS` of one core; games longer than
        :data:`~duelpy.duel.match.LONG_GAME` (or with Python agents) move by move, one per
        chunk, so that a stop is seen between decisions."""
        a, b = (parse_agent(x) for x in lineup)
        cost = (match.game_cost(a) + match.game_cost(b)) / 2
        moves = not (a.batchable and b.batchable) or cost > match.LONG_GAME
        if moves:
            return 1, True
        return max(1, min(match.MAX_CHUNK, int(match.CHUNK_SECONDS / cost))), False


    bench = staticmethod(benchmark.bench_table)
    summary = SimulationSummary
    bench_defaults = (100_000, 50_000)


    # ---------------------------------------------------------------- records
    def is_record(self, data: Mapping[str, Any]) -> bool:
        """True if ``data`` (a parsed JSON document) is a Duel game record."""
        return data.get("format") == records.FORMAT

    def play_record(self, lineup: Sequence[str], players: int, seed: int):
        """Agents play one game: ``(final state, record)``."""
        rec = records.record_game(lineup[0], lineup[1], seed)
        return rec.final_state(), rec

    def save_record(self, record, path) -> None:
        record.save(path, overwrite=True)     # the command checked --record first

    def load_record(self, path):
        return records.load(path)

    def replay_record(self, record):
        return records.replay(record)


_FLAG = {o.name: o.flag for o in SETUP_OPTIONS}


def _coins(value) -> list[int]:
    if isinstance(value, (list, tuple)):
        return list(value)
    try:
        a, b = (int(x) for x in str(value).replace(" ", "").split(","))
    except ValueError:
        raise SetupError("--start-coins", f"{value!r}: write P1's and P2's coins as 7,9") \
            from None
    return [a, b]


def _int_flag(value, flag: str) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise SetupError(flag, f"{value!r} is not an integer") from None
    if not -1000 <= n <= 1000:
        raise SetupError(flag, f"{n} is not in the range -1000<=x<=1000")
    return n


def _forced(value: str) -> dict:
    """``p1=The Pyramids`` or ``p1=The Pyramids,p2=Zeus`` as {seat: wonder}."""
    if "=" not in value and ":" in value:
        value = value.replace(":", "=", 1)         # p1:The Pyramids
    try:
        return parse_pairs(value, ("p1", "p2"), value, ValueError, what="")
    except ValueError as e:
        raise SetupError("--force-wonder", f"{e} (write the seat and the wonder, e.g. "
                                           f"'p1=The Pyramids')") from None


def _canonical(rules: dict) -> dict:
    """The canonical options of ``rules`` (names matched regardless of case and spacing);
    SetupError naming the flag of the bad one."""
    try:
        return normalise_options(rules, "options")
    except StudyError as e:
        msg = str(e)
        flag = next((v for k, v in _FLAG.items() if k in msg), "rule options")
        msg = msg.split(": ", 1)[1] if msg.startswith("options") and ": " in msg else msg
        raise SetupError(flag, msg.replace("options.", "")) from None


#: The game, as the registry holds it.
GAME = Duel()
