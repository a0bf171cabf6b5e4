"""Games played in the browser: one :class:`Game` per game, kept by a :class:`GameManager`.

Every change to a game happens on the server's event loop; only the AI's searches run
elsewhere, in the daemon threads of a :class:`SearchPool` (the core releases the GIL while it
searches), so the loop keeps answering while the AI thinks.  Limits: at most ``max_games``
games (the least recently used idle one is dropped to make room; 503 when none is idle) and
at most ``threads`` searches at once, with at most ``max_queue`` hints waiting (429 beyond).

Each game has its own stop token (:class:`duelcore.search.SearchStop`), given to every search
made for it (the AI's moves and the hints).  When the game is abandoned (deleted, dropped to
make room or for being idle too long, or the server stops) or a decision is undone, the token
is set and those searches, and no other, end at once; the core's process-wide stop flag
(``duelcore.search.interrupt``) is never used.
"""
from __future__ import annotations

import asyncio
import json
import math
import queue
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any, TypeVar

from duelcore import IllegalActionError
from duelcore import search as _search

from duelpy.duel.agents import STRONGEST, Agent, AgentSpecError, MCTSAgent, parse_agent
from duelpy.duel.notation import NotationError, action_name, parse_action
from duelpy.duel.records import GameRecord, RecordError, from_dict as record_from_dict, replay
from duelpy.web.view import PLAYERS, board_view, move_effect, rule_events, touched

__all__ = ["GameManager", "Game", "Session", "Replay", "SearchPool", "WebError", "with_budget",
           "agent_label", "check_names"]


class WebError(Exception):
    """A request that cannot be served: ``status`` (4xx/503) and a one-line message."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}


def with_budget(spec: str, budget: str) -> str:
    """``spec`` with an option added: ``with_budget("mcts", "seconds=1")`` -> ``mcts:seconds=1``."""
    return spec + ("," if ":" in spec else ":") + budget


# ---------------------------------------------------------------- searches off the event loop
class SearchPool:
    """A fixed number of daemon threads running searches (so that a search still under way
    never holds up the end of the process: Ctrl-C stops the server at once).

    ``submit(fn, *args)`` returns a :class:`concurrent.futures.Future`; ``pending`` is the
    number of searches submitted and not finished.
    """

    def __init__(self, threads: int):
        self._q: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self.pending = 0
        self.threads = threads
        for k in range(threads):
            threading.Thread(target=self._work, name=f"duel-search-{k}", daemon=True).start()

    def submit(self, fn, *args) -> Future:
        fut: Future = Future()
        with self._lock:
            self.pending += 1
        self._q.put((fut, fn, args))
        return fut

    def _work(self):
        while True:
            item = self._q.get()
            if item is None:
                return
            fut, fn, args = item
            try:
                if fut.set_running_or_notify_cancel():
                    try:
                        fut.set_result(fn(*args))
                    except BaseException as e:        # handed to the awaiting request
                        fut.set_exception(e)
            finally:
                with self._lock:
                    self.pending -= 1

    def close(self):
        for _ in range(self.threads):
            self._q.put(None)



# ---------------------------------------------------------------- what every game's session has
S = TypeVar("S", bound="Session")


class Session:
    """What the manager needs of a game played in the browser, whatever the game: an id, a
    version bumped at every change, whether the AI is thinking (and since when), the stop
    token of its searches, and who is watching (the page's long polls).

    A game's own session class (:class:`Game` for Duel, :class:`duelpy.web.seven.SevenGame`)
    adds its record, states, log and view, and the AI's steps (:meth:`ai_due`,
    :meth:`ai_job`, :meth:`ai_apply`).
    """

    game_name = "duel"

    def __init__(self, gid: str):
        self.id = gid
        self.version = 0
        self.thinking = False
        self.think_started = 0.0            # time.monotonic() when the AI began this move
        self.generation = 0                 # bumped by undo, abandon: earlier searches are void
        self.stop = _search.SearchStop()    # set when this generation's searches are void
        self.closed = False
        self.paused = False                 # the AI's search was stopped: nobody watched
        self.followed = False               # a page long-polls this game
        self.watchers = 0                   # long polls under way
        self.last_seen = time.monotonic()
        self.changed = asyncio.Event()
        self._cache: tuple[Any, str] = (None, "")   # (key, the view as JSON, no live parts)
        self.ai_task: asyncio.Task | None = None
        self.error: str | None = None
        self.rate = 0.0                     # the AI's iterations per second (last search)
        self.state: Any = None              # the game's core state (set by each game)
        self.no_undo: str | None = None     # why this game has no undo (None: it has)

    def touch(self) -> None:
        """Mark the game as seen now (idle games are dropped first)."""
        self.last_seen = time.monotonic()

    def void_searches(self) -> None:
        """Make the searches under way void and stop them now (their results are dropped);
        later searches get a fresh token."""
        self.generation += 1
        self.stop.set()
        self.stop = _search.SearchStop()

    def bump(self) -> None:
        """A change: a new version, and the long polls waiting for one wake up."""
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    # Each game's session (Duel's Game, 7 Wonders' SevenGame) gives these; a bare session
    # has no AI seat and nothing to undo.
    def ai_due(self) -> bool:
        """True if an AI seat has a decision now."""
        return False

    def ai_job(self):
        """(function, args) to run in a search thread for the AI's next decision(s)."""
        raise RuntimeError(f"{type(self).__name__} has no AI seat")

    def ai_apply(self, done) -> None:
        """Apply what :meth:`ai_job`'s function returned (event loop only)."""
        raise RuntimeError(f"{type(self).__name__} has no AI seat")

    def truncate(self, k: int) -> None:
        """Keep the first k moves (undo)."""
        raise RuntimeError(f"{type(self).__name__} keeps no moves")

    def undo_point(self) -> int | None:
        """The move index of the person's previous decision, or None."""
        return None

    def view(self) -> dict:
        """What the page shows of the game (a subclass's)."""
        raise TypeError(f"{type(self).__name__} must define view (a hook of the base)")

    def view_json(self) -> bytes:
        """:meth:`view` as JSON (made once per version) with the live parts added."""
        key = (self.version, self.thinking, self.error, self.paused)
        if self._cache[0] != key:
            self._cache = (key, json.dumps(self.view(), ensure_ascii=False,
                                           separators=(",", ":"))[:-1])
        return (self._cache[1] + "," + self.thinking_json() + "}").encode("utf-8")

    def thinking_json(self) -> str:
        """The parts of the view that change without a new version (elapsed time)."""
        el = time.monotonic() - self.think_started if self.thinking else 0.0
        return f'"thinking_elapsed":{el:.3f},"rate":{self.rate:.1f}'

# ---------------------------------------------------------------- one game of Duel
def _explain(agent: Agent, state, legal_n: int, stop) -> tuple[int, str, dict | None] | None:
    """Run the agent (in a search thread) under the stop token ``stop``: (action, why, visit
    shares or None), or None if the token was set before the search began."""
    if stop.is_set:
        return None
    agent.stop = stop                       # one search per game at a time: see _ai_turns
    t0 = time.monotonic()
    if isinstance(agent, MCTSAgent):
        res = agent.search(state)
        total = max(1, sum(res["visits"]))
        ranked = sorted(zip(res["actions"], res["visits"], res["values"]), key=lambda r: -r[1])
        a = res["action"]
        share = dict((x, (n, v)) for x, n, v in ranked)
        n, v = share.get(a, (0, 0.0))
        why = (f"MCTS, {res['iterations']:,} iterations: {100 * n / total:.0f}% of the visits, "
               f"estimated win chance {100 * v:.0f}%")
        if len(ranked) > 1:
            alt = next(r for r in ranked if r[0] != a)
            why += f"; next best {action_name(alt[0])} ({100 * alt[1] / total:.0f}%)"
        shares = [{"id": x, "name": action_name(x), "share": n / total, "value": v}
                  for x, n, v in ranked[:8]]
        took = max(time.monotonic() - t0, 1e-6)
        return a, why, {"iterations": res["iterations"], "moves": shares, "seconds": took}
    a = agent.select_action(state)
    if agent.name == "random":
        why = f"random: one of {legal_n} legal moves, chosen uniformly"
    elif agent.name == "greedy":
        why = "greedy: the move with the best one-ply score"
    else:
        why = agent.name
    return a, why, None


_LEVELS = {"random": "Beginner", "greedy": "Easy", "mcts": "Medium", "plan": "Strong"}


def agent_label(name: str) -> str:
    """A friendly name of an agent description with its strength and budget:
    ``plan:seconds=2`` -> ``Strong (plan, 2 s)``, ``mcts:1000`` (7 Wonders) ->
    ``Strong (mcts, 1,000 iterations)``, ``random`` -> ``Beginner (random)``."""
    kind, _, opts = str(name).partition(":")
    budget = ""
    for part in opts.split(","):
        key, eq, val = part.partition("=")
        if not eq and key.strip().isdigit():                 # 7 Wonders' mcts:N[:C]
            key, val, eq = "iterations", key.split(":")[0], "="
        if key == "seconds" and eq:
            budget = f"{float(val):g} s"
        elif key == "iterations" and eq:
            budget = f"{int(val):,} iterations"
    level = _LEVELS.get(kind, kind.capitalize() or "Opponent")
    return f"{level} ({kind}{', ' + budget if budget else ''})"


def agent_budget(agent: Agent) -> dict:
    """The thinking budget of an opponent: ``{"seconds": s or None, "iterations": n or None}``."""
    return {"seconds": getattr(agent, "seconds", None),
            "iterations": getattr(agent, "iterations", None)}


class Game(Session):
    """One game of 7 Wonders Duel against an agent: record, positions, log and the AI's state.

    Attributes: ``id`` (unguessable), ``human`` (0 or 1), ``agent``, ``record``
    (:class:`duelpy.duel.records.GameRecord`), ``state``, ``history`` (the position before each
    move), ``log`` (one entry per move), ``version`` (bumped at every change), ``thinking``,
    ``generation`` (bumped when the searches under way become void: undo, abandon) and
    ``stop`` (the :class:`duelcore.search.SearchStop` of this generation's searches).
    """

    game_name = "duel"

    def __init__(self, gid: str, human: int, agent: Agent, record: GameRecord, state):
        super().__init__(gid)
        self.human = human
        self.agent = agent
        self.label = agent_label(agent.name)
        self.record = record
        self.state = state
        self.history = [state.clone()]
        self.log: list[dict] = []
        self._log_json: list[str] = []       # each log entry as JSON, made once

    # ---- the AI (see GameManager._ai_turns)
    def ai_due(self) -> bool:
        """True if the AI is to move."""
        st = self.state
        return not st.is_terminal() and st.current_player() != self.human

    def ai_job(self) -> tuple:
        """(function, args) of the AI's search for its move (see :func:`_explain`)."""
        return _explain, (self.agent, self.state.clone(), len(self.state.legal_actions()),
                          self.stop)

    def ai_apply(self, done: tuple) -> None:
        """Apply the AI's move with its reasons; remember its search's speed."""
        action, why, shares = done
        if shares and shares.get("seconds"):
            self.rate = shares["iterations"] / shares["seconds"]
        self.apply(action, self.agent.name, why, shares)

    def human_due(self) -> bool:
        """True if the human has a decision now."""
        st = self.state
        return not st.is_terminal() and not self.thinking and st.current_player() == self.human

    def apply(self, action: int, who: str, why: str | None = None, shares=None):
        """Apply a legal decision, record it and log it with the rule events it set off
        (event loop only)."""
        before = self.state
        p = before.current_player()
        effect = move_effect(before, action)
        self.record.play(self.state, action)
        self.history.append(self.state.clone())
        entry = {"n": len(self.record.moves), "player": PLAYERS[p], "who": who,
                 "id": action, "name": action_name(action), "effect": effect,
                 "why": why, "shares": shares, "age": self.history[-2].age,
                 "events": rule_events(self.history[-2], self.state, action),
                 "touched": touched(self.history[-2], action)}
        self.log.append(entry)
        self._log_json.append(json.dumps(entry, ensure_ascii=False))
        self.bump()

    def truncate(self, k: int) -> None:
        """Keep the first k moves (undo)."""
        self.record.truncate(k)
        del self.history[k + 1:]
        self.state = self.history[k].clone()
        del self.log[k:]
        del self._log_json[k:]

    def view(self) -> dict:
        """The position for the human (see :func:`duelpy.web.view.board_view`), with the game's
        id, version, log, whether the AI is thinking, and the record's seed and options."""
        v = board_view(self.state, viewer=self.human)
        v.update(game="duel", id=self.id, version=self.version, you=PLAYERS[self.human],
                 opponent=self.agent.name, opponent_label=self.label,
                 budget=agent_budget(self.agent),
                 players_names=[self.label if n != "you" else "you"
                                for n in self.record.players],
                 thinking=self.thinking, paused=self.paused, log=self.log,
                 seed=str(self.record.seed), options=self.record.options,
                 can_undo=self.undo_point() is not None and not self.state.is_terminal(),
                 error=self.error, n_moves=len(self.record.moves))
        return v

    def view_json(self) -> bytes:
        """:meth:`view` as JSON bytes (made once per change of the game), with the live
        parts (elapsed thinking time) added."""
        key = (self.version, self.thinking, self.error, len(self.log), self.paused)
        if self._cache[0] != key:
            v = self.view()
            del v["log"]
            head = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
            self._cache = (key, head[:-1] + ',"log":[' + ",".join(self._log_json) + "]")
        return (self._cache[1] + "," + self.thinking_json() + "}").encode("utf-8")

    def undo_point(self) -> int | None:
        """The move index of the human's previous decision, or None."""
        mine = [k for k in range(len(self.record.moves))
                if self.history[k].current_player() == self.human]
        return mine[-1] if mine else None

    def record_file(self) -> tuple[str, str]:
        """(file name, JSON text) of the game record."""
        return (f"duel-game-{self.record.seed}-{len(self.record.moves)}.json",
                self.record.dumps())


MAX_NAME = 100          # characters of a player's name in a record shown by the replay viewer


def table_opponent(players: int, seat: int, opponent: str, parse, max_iterations: int) -> str:
    """The canonical agent of ``opponent`` for the AI seats of a new multi-seat game (7 Wonders,
    Architects), once ``players`` (2..7) and the person's ``seat`` (1-based) are checked;
    ``parse`` is the game's agent parser, MCTS capped at ``max_iterations`` a decision.
    WebError 400 naming a bad value."""
    if not 2 <= players <= 7:
        raise WebError(400, f"players must be from 2 to 7, not {players}")
    if not 1 <= seat <= players:
        raise WebError(400, f"seat must be from 1 to {players} (the players), not {seat}")
    try:
        agent = parse(opponent)
    except ValueError as e:
        raise WebError(400, f"opponent: {e}") from None
    if agent.startswith("mcts") and int(agent.split(":")[1]) > max_iterations:
        raise WebError(400, f"opponent: at most {max_iterations:,} iterations per decision "
                            f"here, not {int(agent.split(':')[1]):,}")
    return agent


class RecordReplay:
    """A loaded record of a multi-seat game (7 Wonders, Architects) and its positions: the
    record is checked move by move (``replay``, raising the game's RecordError), then
    replayed into :attr:`states`.  A game's subclass sets :attr:`game_name` and
    :attr:`title` and defines :meth:`_start` (the first state of the record's game),
    :meth:`_apply` (one move), :meth:`_names` (the seats' names), :meth:`_view` (a position
    drawn for the page) and :meth:`_move_extra` (what a move of the summary adds)."""

    game_name = ""
    title = ""

    def __init__(self, rid: str, data: dict, replay, record_error: type[Exception]):
        try:
            replay(data)                           # every move checked, the result too
        except (record_error, TypeError, ValueError, KeyError) as e:
            raise WebError(400, f"not a valid {self.title} record: {e}") from None
        self.id = rid
        self.data = data
        st = self._start(data)
        self.states = [st.clone()]
        for seat, a, _ in data["moves"]:
            self._apply(st, seat, a)
            self.states.append(st.clone())
        self.names = check_names(self._names(data))

    def _start(self, data: dict) -> Any:
        raise TypeError(f"{type(self).__name__} must define _start (a hook of the base)")

    def _apply(self, state: Any, seat: int, action: int) -> None:
        raise TypeError(f"{type(self).__name__} must define _apply (a hook of the base)")

    def _names(self, data: dict) -> list[str]:
        raise TypeError(f"{type(self).__name__} must define _names (a hook of the base)")

    def _view(self, state: Any) -> dict:
        raise TypeError(f"{type(self).__name__} must define _view (a hook of the base)")

    def _move_extra(self, state: Any) -> dict:
        return {}

    def summary(self) -> dict:
        """The record's seed, seats' names, moves (with what the game adds) and result."""
        moves = [{"n": k + 1, "player": self.names[seat], "seat": seat, "name": text, "id": a,
                  **self._move_extra(self.states[k])}
                 for k, (seat, a, text) in enumerate(self.data["moves"])]
        return {"id": self.id, "game": self.game_name, "seed": str(self.data["seed"]),
                "players": self.names, "n_moves": len(moves), "moves": moves,
                "result": self.data.get("result")}

    def position(self, k: int) -> dict:
        """The position after move ``k`` (0: the start) as the page draws it (WebError 404
        outside the record)."""
        n = len(self.data["moves"])
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= n:
            raise WebError(404, f"move {k} is not in this record: it has positions 0 to {n}")
        v = self._view(self.states[k])
        last = None
        if k:
            seat, _, text = self.data["moves"][k - 1]
            last = f"{self.names[seat]}: {text}"
        v.update(id=self.id, k=k, n_moves=n, last=last, names=self.names)
        return v


def check_names(names) -> list[str]:
    """A record's player names, each a string of at most :data:`MAX_NAME` characters
    (WebError 400 otherwise: a huge name would make the page unreadable)."""
    out = []
    for n in names:
        if not isinstance(n, str):
            raise WebError(400, "not a valid game record: a player's name must be a string")
        if len(n) > MAX_NAME:
            raise WebError(400, f"not a valid game record: a player's name is {len(n):,} "
                                f"characters long (at most {MAX_NAME})")
        out.append(n)
    return out


class Replay:
    """A loaded Duel record and its positions (for the replay viewer)."""

    game_name = "duel"

    def __init__(self, rid: str, record: GameRecord):
        self.id = rid
        self.record = record
        self.player_names = check_names(record.players)
        self.states = replay(record, states=True)
        self.names = [action_name(a) for a in record.moves]
        self.players = [("P1" if s.current_player() == 0 else
                         "P2" if s.current_player() == 1 else "chance")
                        for s in self.states[:-1]]

    def summary(self) -> dict:
        """The record's seed, options, players, moves and result."""
        return {"id": self.id, "game": "duel", "seed": str(self.record.seed),
                "options": self.record.options,
                "players": self.player_names, "n_moves": len(self.record.moves),
                "moves": [{"n": k + 1, "player": p, "name": n, "id": a,
                           "age": self.states[k].age}
                          for k, (p, n, a) in enumerate(zip(self.players, self.names,
                                                            self.record.moves))],
                "result": self.record.result}

    def position(self, k: int) -> dict:
        """The position after move ``k`` (0: the start), with the rule events of move k."""
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self.record.moves):
            raise WebError(404, f"move {k} is not in this record: it has positions 0 to "
                                f"{len(self.record.moves)}")
        v = board_view(self.states[k], viewer=None, reveal=True, moves=False)
        v.update(game="duel", id=self.id, k=k, n_moves=len(self.record.moves),
                 last=self.names[k - 1] if k else None,
                 events=rule_events(self.states[k - 1], self.states[k], self.record.moves[k - 1])
                 if k else [],
                 touched=touched(self.states[k - 1], self.record.moves[k - 1]) if k else None,
                 players_names=self.player_names)
        return v


# ---------------------------------------------------------------- the manager
class GameManager:
    """All games and replays of one server, and the search threads.

    Parameters
    ----------
    max_games : int
        Games kept at once; the least recently seen idle game (no search under way) is dropped
        to make room, else new games are refused (503).
    threads : int
        Searches run at once (AI moves and hints).
    max_queue : int
        Hints refused (429) while more than this many searches wait for a thread.
    hint_seconds : float
        Search time of a hint (the strongest agent, :data:`duelpy.duel.agents.STRONGEST`).
    max_seconds, max_iterations : float, int
        The largest thinking budget an opponent may be given.
    idle_seconds : float
        A game not seen for this long is dropped (abandoned) when room is needed.
    unwatched_seconds : float
        A game that a page followed (long polls) and that nobody watches any more for this
        long (its tab was closed) has its AI's search stopped; it goes on when the game is
        asked for again.
    """

    def __init__(self, *, max_games: int = 32, threads: int = 2, max_queue: int = 8,
                 hint_seconds: float = 1.0, max_seconds: float = 60.0,
                 max_iterations: int = 2_000_000, max_replays: int = 16,
                 idle_seconds: float = 3600.0, unwatched_seconds: float = 0.5):
        self.max_games = max_games
        self.max_queue = max_queue
        self.hint_seconds = hint_seconds
        self.max_seconds = max_seconds
        self.max_iterations = max_iterations
        self.idle_seconds = idle_seconds
        self.unwatched_seconds = unwatched_seconds
        self.max_replays = max_replays
        self.games: OrderedDict[str, Session] = OrderedDict()
        self.gone: OrderedDict[str, dict] = OrderedDict()     # closed games: why, successor
        self.replays: OrderedDict = OrderedDict()
        self.pool = SearchPool(threads)
        self.closing = False
        #: replay classes of the other games' records, by the record's "game" key (a game's
        #: web module registers its own: see duelpy.web.seven)
        self.replay_makers: dict = {}

    # ---- agents
    def make_agent(self, spec: str) -> Agent:
        """An opponent from its description, within the server's budget limits (WebError 400)."""
        try:
            agent = parse_agent(spec)
        except AgentSpecError as e:
            raise WebError(400, f"opponent: {e}") from None
        if isinstance(agent, MCTSAgent):
            if agent.threads != 1:
                raise WebError(400, "opponent: threads is not allowed here (the server "
                                    "runs a bounded number of searches, one thread each)")
            if agent.seconds is not None and agent.seconds > self.max_seconds:
                raise WebError(400, f"opponent: at most {self.max_seconds:g} seconds per move "
                                    f"here, not {agent.seconds:g}")
            if agent.iterations is not None and agent.iterations > self.max_iterations:
                raise WebError(400, f"opponent: at most {self.max_iterations:,} iterations per "
                                    f"move here, not {agent.iterations:,}")
        return agent

    # ---- games
    def get(self, gid) -> Session:
        """A game by its id (WebError 404 saying why when it was abandoned)."""
        g = self.games.get(gid) if isinstance(gid, str) else None
        if g is None or g.closed:
            gone = self.gone.get(gid) if isinstance(gid, str) else None
            if gone:
                raise WebError(404, f"no game with id {gid!r}: it was abandoned "
                                    f"({gone['why']})", replaced_by=gone.get("replaced_by"))
            raise WebError(404, f"no game with id {str(gid)[:40]!r} (it ended, was abandoned "
                                f"or the server restarted): start a new game")
        g.touch()
        self.games.move_to_end(gid)
        return g

    def _make_room(self):
        now = time.monotonic()
        for gid, g in list(self.games.items()):
            if now - g.last_seen > self.idle_seconds:
                self.close_game(g, "idle for too long")
        if len(self.games) < self.max_games:
            return
        for gid, g in self.games.items():                 # least recently seen first
            if not g.thinking:
                self.close_game(g, "the server needed room for a new game")
                return
        raise WebError(503, f"the server already runs {self.max_games} games, all busy: "
                            f"try again in a moment")

    async def create(self, *, seat: int, opponent: str, seed: int | None, options: dict) -> Game:
        """A new game of Duel; the AI starts thinking at once if it moves first."""
        if self.closing:
            raise WebError(503, "the server is stopping")
        agent = self.make_agent(opponent)
        if seed is None:
            seed = secrets.randbelow(2 ** 32)
        human = seat - 1
        names = ["you", agent.name] if human == 0 else [agent.name, "you"]
        try:
            record, state = GameRecord.start(seed, players=names, **options)
        except (RecordError, ValueError, TypeError) as e:
            raise WebError(400, f"rule options: {e}") from None
        self._make_room()
        agent.reset(_search.agent_seed(seed, 1 - human))
        gid = secrets.token_urlsafe(12)
        game = Game(gid, human, agent, record, state)
        return self.add(game)

    def add(self, game: S) -> S:
        """Keep a new game (made by a game's own factory) and start its AI if it is due."""
        self._make_room()
        self.games[game.id] = game
        self.schedule_ai(game)
        return game

    def close_game(self, game: Session, why: str = "deleted", replaced_by: str | None = None):
        """Abandon a game: its searches under way (AI move, hint) stop at once, through the
        game's own stop token, and their results are thrown away; other games' searches go
        on.  ``why`` (and the game that replaces it) is told to whoever asks for it later."""
        game.closed = True
        game.void_searches()
        game.bump()
        self.games.pop(game.id, None)
        self.gone[game.id] = {"why": why, "replaced_by": replaced_by}
        while len(self.gone) > 1024:
            self.gone.popitem(last=False)

    def check_version(self, game: Session, version) -> None:
        """A move made on an old version of the game is refused (409)."""
        if version is not None and version != game.version:
            raise WebError(409, f"the game has moved on (version {game.version}, the move was "
                                f"made on version {version}): the page shows the game now")

    async def move(self, game: Game, action=None, text=None, version=None) -> Game:
        """The human's decision, by action id or by name (WebError 400/409 if it cannot be)."""
        st = game.state
        self.check_version(game, version)
        if st.is_terminal():
            raise WebError(409, "the game is over")
        if game.thinking or st.current_player() != game.human:
            raise WebError(409, f"it is not your turn: {PLAYERS[st.current_player()]} "
                                f"({game.label}) is to move")
        if text is not None:
            try:
                action = parse_action(st, text)
            except NotationError as e:
                raise WebError(400, str(e)) from None
        if action not in st.legal_actions():
            reason = st.why_illegal(action)
            raise WebError(400, f"action {action} is not legal here"
                                + (f": {reason}" if reason else ""))
        try:
            game.apply(action, "you")
        except IllegalActionError as e:                     # pragma: no cover - checked above
            raise WebError(400, str(e)) from None
        game.error = None
        self.schedule_ai(game)
        return game

    def schedule_ai(self, game: Session):
        """Start the AI's turns if one of its seats is due (one task per game at a time)."""
        if game.closed or not game.ai_due():
            return
        if game.thinking and game.ai_task is not None and not game.ai_task.done():
            return
        game.thinking = True
        game.paused = False
        game.think_started = time.monotonic()
        prev = game.ai_task
        game.ai_task = asyncio.get_running_loop().create_task(
            self._ai_turns(game, game.generation, game.stop, prev))

    _schedule_ai = schedule_ai

    async def _ai_turns(self, game: Session, generation: int, stop, prev):
        if prev is not None and not prev.done():            # one search per game at a time
            try:
                await prev
            except BaseException:
                pass
        try:
            while not game.closed and generation == game.generation and game.ai_due():
                fn, args = game.ai_job()
                game.think_started = time.monotonic()
                fut = self.pool.submit(fn, *args)
                done = await asyncio.wrap_future(fut)
                if done is None or game.closed or generation != game.generation:
                    return
                game.ai_apply(done)
        except asyncio.CancelledError:
            raise
        except Exception as e:                              # shown on the page, not a 500
            game.error = f"the opponent failed: {e}"
        finally:
            if generation == game.generation:
                game.thinking = False
                game.bump()

    def resume(self, game: Session) -> None:
        """A page asks for a game whose search was stopped because nobody watched: go on."""
        if game.paused and not game.closed:
            game.paused = False
            self.schedule_ai(game)

    def _unwatched(self, game: Session) -> None:
        """Nobody has watched ``game`` for ``unwatched_seconds`` (its tab was closed): stop its
        AI's search now; :meth:`resume` starts it again."""
        if game.closed or game.watchers or not game.thinking:
            return
        game.void_searches()
        game.thinking = False
        game.paused = True
        game.bump()

    async def undo(self, game: Session, version=None) -> Session:
        """Back to the human's previous decision (the AI's replies, or its search, dropped)."""
        self.check_version(game, version)
        if game.state.is_terminal():
            raise WebError(409, "the game is over: nothing to undo (start a new game)")
        if game.no_undo:
            raise WebError(409, game.no_undo)
        k = game.undo_point()
        if k is None:
            raise WebError(409, "nothing to undo: you have not made a decision yet")
        game.void_searches()
        game.thinking = False
        game.paused = False
        game.truncate(k)
        game.error = None
        game.bump()
        self.schedule_ai(game)
        return game

    async def hint(self, game: Game) -> dict:
        """The strongest agent's visit shares at the human's decision (runs in a thread,
        under the game's stop token: WebError 404 if the game is abandoned meanwhile, 409 if
        the decision is undone)."""
        if getattr(game, "game_name", "duel") != "duel":
            raise WebError(400, "hints are for 7 Wonders Duel only")
        st = game.state
        if st.is_terminal() or game.thinking or st.current_player() != game.human:
            raise WebError(409, "a hint is for your own decision: it is not your turn")
        if self.pool.pending > self.max_queue:
            raise WebError(429, "the server is busy with other searches: try again shortly")
        spec = with_budget(STRONGEST, f"seconds={self.hint_seconds:g}")
        agent = parse_agent(spec)
        agent.reset(secrets.randbelow(2 ** 63))
        agent.stop = game.stop
        asked = (game.generation, len(game.record.moves))
        if not isinstance(agent, MCTSAgent):                # pragma: no cover - STRONGEST is MCTS
            fut = self.pool.submit(agent.select_action, st.clone())
            a = await asyncio.wrap_future(fut)
            self._check_hint(game, asked)
            return {"agent": spec, "action": a, "name": action_name(a), "iterations": 0,
                    "version": game.version,
                    "moves": [{"id": a, "name": action_name(a), "share": 1.0, "value": math.nan}]}
        fut = self.pool.submit(agent.search, st.clone())
        res = await asyncio.wrap_future(fut)
        self._check_hint(game, asked)
        total = max(1, sum(res["visits"]))
        ranked = sorted(zip(res["actions"], res["visits"], res["values"]), key=lambda r: -r[1])
        return {"agent": spec, "label": agent_label(spec), "action": res["action"],
                "name": action_name(res["action"]), "version": game.version,
                "iterations": res["iterations"],
                "moves": [{"id": a, "name": action_name(a), "share": n / total, "value": v}
                          for a, n, v in ranked[:10]]}

    @staticmethod
    def _check_hint(game: Game, asked: tuple):
        """No hint for a game abandoned (its search was stopped) or a position left (undo,
        a move) while the hint was searched."""
        if game.closed:
            raise WebError(404, "the game was abandoned while the hint was being searched")
        if asked != (game.generation, len(game.record.moves)):
            raise WebError(409, "the position changed while the hint was being searched: "
                                "ask again")

    async def wait(self, game: Session, version: int, timeout: float, disconnected=None):
        """Return when the game's version differs from ``version``, after ``timeout`` s, or
        when the asking page has gone (``disconnected``: an async function, true then).  The
        wait counts as watching the game (see :meth:`_unwatched`)."""
        end = time.monotonic() + timeout
        game.watchers += 1
        game.followed = True
        try:
            while game.version == version and not game.closed and not self.closing:
                left = end - time.monotonic()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(game.changed.wait(), min(left, 0.2))
                except asyncio.TimeoutError:
                    pass
                if disconnected is not None and await disconnected():
                    return
        finally:
            game.watchers -= 1
            if game.watchers == 0 and not self.closing:
                asyncio.get_running_loop().call_later(self.unwatched_seconds,
                                                      self._unwatched, game)

    # ---- replays
    def load_replay(self, data) -> Replay:
        """A record (parsed JSON) of any game of the registry, for the replay viewer."""
        maker = self.replay_makers.get(data.get("game")) if isinstance(data, dict) else None
        if maker is not None:
            rep = maker(secrets.token_urlsafe(12), data)
        else:
            try:
                record = record_from_dict(data)
            except RecordError as e:
                raise WebError(400, f"not a valid game record: {e}") from None
            except (TypeError, ValueError) as e:
                raise WebError(400, f"not a valid game record: {e}") from None
            rep = Replay(secrets.token_urlsafe(12), record)
        self.replays[rep.id] = rep
        while len(self.replays) > self.max_replays:
            self.replays.popitem(last=False)
        return rep

    def get_replay(self, rid) -> Replay:
        """A loaded replay by its id (WebError 404 otherwise)."""
        rep = self.replays.get(rid) if isinstance(rid, str) else None
        if rep is None:
            raise WebError(404, f"no replay with id {str(rid)[:40]!r}: load the record again")
        self.replays.move_to_end(rid)
        return rep

    # ---- shutdown
    def close(self):
        """Stop: wake every waiting request and stop every game's searches (each through its
        game's token, so searches of other code in the process are not touched)."""
        self.closing = True
        for g in list(self.games.values()):
            self.close_game(g, "the server stopped")
        self.pool.close()

