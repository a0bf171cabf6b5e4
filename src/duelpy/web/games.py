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

from duelcore import IllegalActionError
from duelcore import search as _search

from duelpy.duel.agents import STRONGEST, Agent, AgentSpecError, MCTSAgent, parse_agent
from duelpy.duel.notation import NotationError, action_name, parse_action
from duelpy.duel.records import GameRecord, RecordError, from_dict as record_from_dict, replay
from duelpy.web.view import PLAYERS, board_view, move_effect

__all__ = ["GameManager", "Game", "Replay", "SearchPool", "WebError", "with_budget"]


class WebError(Exception):
    """A request that cannot be served: ``status`` (4xx/503) and a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


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


# ---------------------------------------------------------------- one game
def _explain(agent: Agent, state, legal_n: int, stop) -> tuple[int, str, dict | None] | None:
    """Run the agent (in a search thread) under the stop token ``stop``: (action, why, visit
    shares or None), or None if the token was set before the search began."""
    if stop.is_set:
        return None
    agent.stop = stop                       # one search per game at a time: see _ai_turns
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
        return a, why, {"iterations": res["iterations"], "moves": shares}
    a = agent.select_action(state)
    if agent.name == "random":
        why = f"random: one of {legal_n} legal moves, chosen uniformly"
    elif agent.name == "greedy":
        why = "greedy: the move with the best one-ply score"
    else:
        why = agent.name
    return a, why, None


class Game:
    """One game against an agent: record, positions, log and the AI's state.

    Attributes: ``id`` (unguessable), ``human`` (0 or 1), ``agent``, ``record``
    (:class:`duelpy.duel.records.GameRecord`), ``state``, ``history`` (the position before each
    move), ``log`` (one entry per move), ``version`` (bumped at every change), ``thinking``,
    ``generation`` (bumped when the searches under way become void: undo, abandon) and
    ``stop`` (the :class:`duelcore.search.SearchStop` of this generation's searches).
    """

    def __init__(self, gid: str, human: int, agent: Agent, record: GameRecord, state):
        self.id = gid
        self.human = human
        self.agent = agent
        self.record = record
        self.state = state
        self.history = [state.clone()]
        self.log: list[dict] = []
        self.version = 0
        self.thinking = False
        self.generation = 0                 # bumped by undo, abandon: earlier searches are void
        self.stop = _search.SearchStop()    # set when this generation's searches are void
        self.closed = False
        self.last_seen = time.monotonic()
        self.changed = asyncio.Event()
        self.ai_task: asyncio.Task | None = None
        self.error: str | None = None
        self._log_json: list[str] = []       # each log entry as JSON, made once
        self._cache = (None, b"")           # (key, the view as JSON bytes)

    def touch(self):
        self.last_seen = time.monotonic()

    def void_searches(self):
        """Make the searches under way void and stop them now (their results are dropped);
        later searches get a fresh token."""
        self.generation += 1
        self.stop.set()
        self.stop = _search.SearchStop()

    def bump(self):
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    def apply(self, action: int, who: str, why: str | None = None, shares=None):
        """Apply a legal decision, record it and log it (event loop only)."""
        before = self.state
        p = before.current_player()
        effect = move_effect(before, action)
        self.record.play(self.state, action)
        self.history.append(self.state.clone())
        entry = {"n": len(self.record.moves), "player": PLAYERS[p], "who": who,
                 "id": action, "name": action_name(action), "effect": effect,
                 "why": why, "shares": shares, "age": self.history[-2].age}
        self.log.append(entry)
        self._log_json.append(json.dumps(entry, ensure_ascii=False))
        self.bump()

    def truncate(self, k: int):
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
        v.update(id=self.id, version=self.version, you=PLAYERS[self.human],
                 opponent=self.agent.name, players_names=list(self.record.players),
                 thinking=self.thinking, log=self.log, seed=self.record.seed,
                 options=self.record.options, can_undo=self.undo_point() is not None,
                 error=self.error, n_moves=len(self.record.moves))
        return v

    def view_json(self) -> bytes:
        """:meth:`view` as JSON bytes, made once per change of the game."""
        key = (self.version, self.thinking, self.error, len(self.log))
        if self._cache[0] != key:
            v = self.view()
            del v["log"]
            head = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
            text = head[:-1] + ',"log":[' + ",".join(self._log_json) + "]}"
            self._cache = (key, text.encode("utf-8"))
        return self._cache[1]

    def undo_point(self):
        """The move index of the human's previous decision, or None."""
        mine = [k for k in range(len(self.record.moves))
                if self.history[k].current_player() == self.human]
        return mine[-1] if mine else None


class Replay:
    """A loaded record and its positions (for the replay viewer)."""

    def __init__(self, rid: str, record: GameRecord):
        self.id = rid
        self.record = record
        self.states = replay(record, states=True)
        self.names = [action_name(a) for a in record.moves]
        self.players = [("P1" if s.current_player() == 0 else
                         "P2" if s.current_player() == 1 else "chance")
                        for s in self.states[:-1]]

    def summary(self) -> dict:
        return {"id": self.id, "seed": self.record.seed, "options": self.record.options,
                "players": list(self.record.players), "n_moves": len(self.record.moves),
                "moves": [{"n": k + 1, "player": p, "name": n, "id": a,
                           "age": self.states[k].age}
                          for k, (p, n, a) in enumerate(zip(self.players, self.names,
                                                            self.record.moves))],
                "result": self.record.result}

    def position(self, k: int) -> dict:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self.record.moves):
            raise WebError(404, f"move {k} is not in this record: it has positions 0 to "
                                f"{len(self.record.moves)}")
        v = board_view(self.states[k], viewer=None, reveal=True, moves=False)
        v.update(id=self.id, k=k, n_moves=len(self.record.moves),
                 last=self.names[k - 1] if k else None,
                 players_names=list(self.record.players))
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
    """

    def __init__(self, *, max_games: int = 32, threads: int = 2, max_queue: int = 8,
                 hint_seconds: float = 1.0, max_seconds: float = 60.0,
                 max_iterations: int = 2_000_000, max_replays: int = 16,
                 idle_seconds: float = 3600.0):
        self.max_games = max_games
        self.max_queue = max_queue
        self.hint_seconds = hint_seconds
        self.max_seconds = max_seconds
        self.max_iterations = max_iterations
        self.idle_seconds = idle_seconds
        self.max_replays = max_replays
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self.pool = SearchPool(threads)
        self.closing = False

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
    def get(self, gid) -> Game:
        g = self.games.get(gid) if isinstance(gid, str) else None
        if g is None or g.closed:
            raise WebError(404, f"no game with id {gid!r} (it ended, was abandoned or the "
                                f"server restarted): start a new game")
        g.touch()
        self.games.move_to_end(gid)
        return g

    def _make_room(self):
        now = time.monotonic()
        for gid, g in list(self.games.items()):
            if now - g.last_seen > self.idle_seconds:
                self.close_game(g)
        if len(self.games) < self.max_games:
            return
        for gid, g in self.games.items():                 # least recently seen first
            if not g.thinking:
                self.close_game(g)
                return
        raise WebError(503, f"the server already runs {self.max_games} games, all busy: "
                            f"try again in a moment")

    async def create(self, *, seat: int, opponent: str, seed: int | None, options: dict) -> Game:
        """A new game; the AI starts thinking at once if it moves first."""
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
        self.games[gid] = game
        self._schedule_ai(game)
        return game

    def close_game(self, game: Game):
        """Abandon a game: its searches under way (AI move, hint) stop at once, through the
        game's own stop token, and their results are thrown away; other games' searches go
        on."""
        game.closed = True
        game.void_searches()
        game.bump()
        self.games.pop(game.id, None)

    async def move(self, game: Game, action=None, text=None) -> Game:
        """The human's decision, by action id or by name (WebError 400/409 if it cannot be)."""
        st = game.state
        if st.is_terminal():
            raise WebError(409, "the game is over")
        if game.thinking or st.current_player() != game.human:
            raise WebError(409, f"it is not your turn: {PLAYERS[st.current_player()]} "
                                f"({game.agent.name}) is to move")
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
        self._schedule_ai(game)
        return game

    def _schedule_ai(self, game: Game):
        st = game.state
        if st.is_terminal() or st.current_player() == game.human or game.closed:
            return
        game.thinking = True
        prev = game.ai_task
        game.ai_task = asyncio.get_running_loop().create_task(
            self._ai_turns(game, game.generation, game.stop, prev))

    async def _ai_turns(self, game: Game, generation: int, stop, prev):
        if prev is not None and not prev.done():            # one search per game at a time
            try:
                await prev
            except BaseException:
                pass
        try:
            while (not game.closed and generation == game.generation
                   and not game.state.is_terminal()
                   and game.state.current_player() != game.human):
                fut = self.pool.submit(_explain, game.agent, game.state.clone(),
                                       len(game.state.legal_actions()), stop)
                done = await asyncio.wrap_future(fut)
                if done is None or game.closed or generation != game.generation:
                    return
                action, why, shares = done
                game.apply(action, game.agent.name, why, shares)
        except asyncio.CancelledError:
            raise
        except Exception as e:                              # shown on the page, not a 500
            game.error = f"the opponent failed: {e}"
        finally:
            if generation == game.generation:
                game.thinking = False
                game.bump()

    async def undo(self, game: Game) -> Game:
        """Back to the human's previous decision (the AI's replies, or its search, dropped)."""
        k = game.undo_point()
        if k is None:
            raise WebError(409, "nothing to undo: you have not made a decision yet")
        game.void_searches()
        game.thinking = False
        game.truncate(k)
        game.error = None
        game.bump()
        return game

    async def hint(self, game: Game) -> dict:
        """The strongest agent's visit shares at the human's decision (runs in a thread,
        under the game's stop token: WebError 404 if the game is abandoned meanwhile, 409 if
        the decision is undone)."""
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
                    "moves": [{"id": a, "name": action_name(a), "share": 1.0, "value": math.nan}]}
        fut = self.pool.submit(agent.search, st.clone())
        res = await asyncio.wrap_future(fut)
        self._check_hint(game, asked)
        total = max(1, sum(res["visits"]))
        ranked = sorted(zip(res["actions"], res["visits"], res["values"]), key=lambda r: -r[1])
        return {"agent": spec, "action": res["action"], "name": action_name(res["action"]),
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

    async def wait(self, game: Game, version: int, timeout: float):
        """Return when the game's version differs from ``version`` or after ``timeout`` s."""
        end = time.monotonic() + timeout
        while game.version == version and not game.closed and not self.closing:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(game.changed.wait(), min(left, 0.2))
            except asyncio.TimeoutError:
                pass

    # ---- replays
    def load_replay(self, data) -> Replay:
        try:
            record = record_from_dict(data)
        except RecordError as e:
            raise WebError(400, f"not a valid game record: {e}") from None
        except (TypeError, ValueError) as e:
            raise WebError(400, f"not a valid game record: {e}") from None
        rid = secrets.token_urlsafe(12)
        rep = Replay(rid, record)
        self.replays[rid] = rep
        while len(self.replays) > self.max_replays:
            self.replays.popitem(last=False)
        return rep

    def get_replay(self, rid) -> Replay:
        rep = self.replays.get(rid) if isinstance(rid, str) else None
        if rep is None:
            raise WebError(404, f"no replay with id {rid!r}: load the record again")
        self.replays.move_to_end(rid)
        return rep

    # ---- shutdown
    def close(self):
        """Stop: wake every waiting request and stop every game's searches (each through its
        game's token, so searches of other code in the process are not touched)."""
        self.closing = True
        for g in list(self.games.values()):
            self.close_game(g)
        self.pool.close()
