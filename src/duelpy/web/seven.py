"""7 Wonders in the browser: a game against AI seats (2..7 players; 2 is the Free City
variant) and the replay of 7 Wonders records.

Everything about the rules comes from the core (:mod:`duelcore.seven`): the legal actions of
each seat (with every payment offered, W-TRADE-6), who decides for the Free City, the
scores.  This module only says what a person at seat ``human`` may see (W-INFO: their own
hand; of the others the cities, coins and hand sizes) and keeps the log.

A turn is simultaneous (W-TURN-1): the AI seats commit in a search thread, the person
commits from the page, and the log shows every seat's action once the turn is resolved
("revealed together"); a card used for a wonder stage or discarded stays face down for the
other seats.
"""
from __future__ import annotations

import json
import secrets
from typing import Any

from duelcore import seven as _core
from duelcore import seven_data as _data

from duelpy.seven.agents import parse_agent as seven_agent
from duelpy.seven.game import new_game
from duelpy.seven.records import RecordError, record_of, replay as replay_record
from duelpy.web.games import RecordReplay, Session, WebError, agent_label, table_opponent
from duelpy.web.view import cost_items

__all__ = ["SevenGame", "SevenReplay", "seven_catalogue", "seven_view", "make_game",
           "VP_NAMES", "MAX_ITERATIONS"]

#: 7 Wonders' score sheet rows (the core's categories -> the rulebook's words).
VP_NAMES = {"military": "Military conflicts", "treasury": "Treasury (1 VP per 3 coins)",
            "wonder": "Wonder", "civilian": "Civilian structures (blue)",
            "commercial": "Commercial structures (yellow)", "guilds": "Guilds (purple)",
            "science": "Scientific structures (green)", "total": "Total"}
MAX_ITERATIONS = 2_000          # an MCTS seat's budget here: the core's 7 Wonders search takes
                                # no stop token, so one decision must stay short (about 0.5 s;
                                # a closed tab then stops its game's AI within a second)
_COLOUR = {c.name: c.colour for c in _data.CARDS}
_COLOUR.update({g.name: "purple" for g in _data.GUILDS})
_TRADE = {"raw_right": "raw goods from the right neighbour for 1 coin",
          "raw_left": "raw goods from the left neighbour for 1 coin",
          "raw_both": "raw goods from both neighbours for 1 coin",
          "manuf": "manufactured goods from both neighbours for 1 coin"}
_SPECIAL = {
    "vineyard": ("1◉ per brown card (yours, neighbours')",
                 "take 1 coin per brown card in your city and your two neighbours' cities"),
    "bazar": ("2◉ per grey card (yours, neighbours')",
              "take 2 coins per grey card in your city and your two neighbours' cities"),
    "haven": ("1◉ + 1 VP per brown card", "take 1 coin per brown card in your city; at the "
              "end 1 VP per brown card"),
    "lighthouse": ("1◉ + 1 VP per yellow card", "take 1 coin per yellow card in your city; at "
                   "the end 1 VP per yellow card"),
    "chamber": ("2◉ + 2 VP per grey card", "take 2 coins per grey card in your city; at the "
                "end 2 VP per grey card"),
    "arena": ("3◉ + 1 VP per wonder stage", "take 3 coins per built wonder stage; at the end "
              "1 VP per built stage"),
    "strategists": ("1 VP per neighbours' defeat", "1 VP per defeat token of your neighbours"),
    "builders": ("1 VP per wonder stage (you, neighbours)",
                 "1 VP per wonder stage built by you and your neighbours"),
    "shipowners": ("1 VP per brown, grey, purple card",
                   "1 VP per brown, grey and purple card in your city"),
    "scientists": ("any science symbol", "one science symbol of your choice at the end"),
}
_STAGE = {"science": ("any science symbol", "one science symbol of your choice at the end"),
          "seventh": ("play the 7th card", "play the last card of each Age too"),
          "free_build": ("1 free build per Age", "once per Age, build a card for free"),
          "discard_build": ("build from the discard",
                            "build a card of the discard pile for free"),
          "copy_guild": ("copy a neighbour's guild", "at the end, copy a guild of a neighbour")}


# ---------------------------------------------------------------- faces
def _effect_items(effect: str) -> tuple[list, str]:
    """One effect keyword of the data as the face's icons and words."""
    kind, _, arg = effect.partition(":")
    if kind == "prod":
        if "/" in arg:
            r = arg.split("/")
            return [{"t": "choice", "r": r}], f"produces 1 {' or '.join(r)} each turn"
        n, _, res = arg.partition(" ") if " " in arg else ("1", "", arg)
        return [{"t": "res", "r": res, "n": int(n)}], f"produces {n} {res}"
    if kind == "vp":
        return [{"t": "vp", "n": int(arg)}], f"{arg} VP"
    if kind == "shields":
        return [{"t": "shield", "n": int(arg)}], f"{arg} shield{'s' * (arg != '1')}"
    if kind == "science":
        return [{"t": "sci", "s": arg}], f"science symbol: {arg}"
    if kind == "coins":
        return [{"t": "coin", "n": int(arg)}], f"take {arg} coins"
    if kind == "trade":
        short = {"raw_right": "raw ▶ 1◉", "raw_left": "◀ raw 1◉", "raw_both": "◀ raw ▶ 1◉",
                 "manuf": "◀ goods ▶ 1◉"}[arg]
        return [{"t": "text", "s": short}], "buy " + _TRADE[arg]
    if kind == "choice":
        r = list(_data.RAW if arg == "raw" else _data.MANUFACTURED)
        return [{"t": "choice", "r": r}], f"produces 1 {' or '.join(r)} each turn (not for sale)"
    if kind == "neighbours":
        colour, vp = arg.split(":")
        return ([{"t": "text", "s": f"{vp} VP per neighbours' {colour}"}],
                f"{vp} VP per {colour} card of your two neighbours")
    short, long = _SPECIAL.get(kind, _STAGE.get(kind, (kind, kind)))
    return [{"t": "text", "s": short}], long


def _chains_to() -> dict:
    out: dict = {}
    for c in _data.CARDS:
        for src in c.chain_from:
            out.setdefault(src, []).append(c.name)
    return {k: sorted(set(v)) for k, v in out.items()}


def seven_catalogue() -> dict:
    """Every 7 Wonders card, guild and wonder board as the page draws them: colour, cost
    (``{"coins", "res"}``), effect icons and words, chains (both ways)."""
    chains_to = _chains_to()
    cards: dict[str, dict] = {}
    for c in _data.CARDS:
        items, text = _effect_items(c.effect)
        entry = cards.setdefault(c.name, {"colour": c.colour, "ages": [], "cost": c.cost or "free",
                                          "price": cost_items(c.cost), "items": items,
                                          "text": text, "chain_from": list(c.chain_from),
                                          "chain_to": chains_to.get(c.name, [])})
        entry["ages"].append(c.age)
        if c.chain_from:                              # Age II's copy of a name has the chains
            entry["chain_from"] = list(c.chain_from)
    for g in _data.GUILDS:
        items, text = _effect_items(g.effect)
        cards[g.name] = {"colour": "purple", "ages": [3], "cost": g.cost,
                         "price": cost_items(g.cost), "items": items, "text": text,
                         "chain_from": [], "chain_to": []}
    boards = {}
    for b in _data.BOARDS:
        sides: dict[str, list] = {}
        for side, stages in (("A", b.a), ("B", b.b)):
            sides[side] = []
            for st in stages:
                items, words = [], []
                for e in st.effects:
                    i, w = _effect_items(e)
                    items += i
                    words.append(w)
                sides[side].append({"cost": st.cost, "price": cost_items(st.cost),
                                    "items": items, "text": "; ".join(words)})
        boards[b.name] = {"gloss": b.gloss, "resource": b.resource, "sides": sides}
    return {"cards": cards, "boards": boards, "vp_names": VP_NAMES,
            "resources": list(_data.RESOURCES), "colours": list(_data.COLOURS),
            "symbols": list(_data.SYMBOLS)}


# ---------------------------------------------------------------- what a seat may see
def seat_names(players: int, human: int | None, agents: list) -> list[str]:
    """The seats' names: "You", the AI seats by their friendly label, the Free City."""
    names = []
    for i in range(players + (players == 2)):
        if players == 2 and i == 2:
            names.append("Free City")
        elif human is not None and i == human:
            names.append("You")
        else:
            names.append(f"P{i + 1} · {agent_label(agents[i])}" if agents and agents[i]
                         else f"P{i + 1}")
    return names


def _public_action(a: int, seat: int, viewer: int | None, decider: int) -> dict:
    """A committed action as the others see it once revealed (a staged or discarded card
    stays face down, W-INFO), or in full for its decider."""
    if a >= _core.NUM_TURN_ACTIONS:
        return {"use": "hali", "text": _core.action_to_string(a)}
    use, name, left, right = _core.decode_turn_action(a)
    full = viewer is None or viewer == decider
    out: dict[str, Any] = {"use": use, "left": left, "right": right}
    if use in ("build", "free"):
        out["card"] = name
        out["text"] = f"builds {name}" + (" free (Olympia)" if use == "free" else "")
    elif use == "stage":
        out["text"] = "builds a wonder stage" + (f" with {name}" if full else "")
        if full:
            out["card"] = name
    else:
        out["text"] = "discards " + (name if full else "a card") + " for 3 coins"
        if full:
            out["card"] = name
    if left or right:
        out["text"] += f" (pays {left} left, {right} right)"
    return out


def _turn_moves(state, seat: int) -> list[dict]:
    """The legal actions of ``seat`` grouped by card: each card of the hand with its uses
    and, for a build or a stage, every payment offered (coins to the left and right
    neighbours, W-TRADE-6)."""
    by_card: dict = {}
    out = []
    hand_cards = state.hand(seat) if state.phase == "turn" else []
    for a in state.legal_actions(seat):
        if a >= _core.NUM_TURN_ACTIONS:
            name = (_data.NAMES[a - _core.HALI_BASE] if a != _core.HALI_NONE else None)
            out.append({"id": a, "use": "hali", "card": name, "text": _core.action_to_string(a)})
            continue
        use, name, left, right = _core.decode_turn_action(a)
        printed = cost_items(_card_cost(name))["coins"] if use == "build" else 0
        m = {"id": a, "use": use, "card": name, "left": left, "right": right,
             "coins": printed + left + right, "text": _core.action_to_string(a)}
        by_card.setdefault(name, []).append(m)
    cards = []
    for name in hand_cards or list(by_card):
        ms = by_card.get(name, [])
        cards.append({"card": name, "colour": _COLOUR.get(name), "moves": ms,
                      "why_not": None if any(m["use"] in ("build", "free") for m in ms)
                      else _why_not_build(state, seat, name)})
    return cards + ([{"card": None, "moves": out}] if out else [])


def _card_cost(name: str) -> str:
    for c in _data.CARDS:
        if c.name == name:
            return c.cost
    for g in _data.GUILDS:
        if g.name == name:
            return g.cost
    return ""


def _why_not_build(state, seat: int, name: str) -> str:
    if name in state.city(seat):
        return "your city already holds it"
    if not state.payment_options(seat, name):
        return "its cost cannot be met with your production and trade"
    return "not enough coins"


def seven_view(state, *, human: int | None, names: list[str], reveal: bool = False,
               moves: bool = True) -> dict:
    """The position as the page draws it, for the person at seat ``human`` (None: a replay,
    every hand shown when ``reveal``).

    Returns ``players`` (seats counting the Free City), ``phase``, ``age``, ``turn``,
    ``free_city`` (its seat or None), ``cities`` (per seat: name, board, side, stages and
    their faces, coins, shields, military VP and defeats, cards by colour, hand size, VP now,
    left and right neighbour seats; ``hand`` only where the viewer may see it),
    ``decisions`` (the viewer's pending seats, each with its hand grouped by card and every
    legal action), ``waiting`` (how many seats have still to decide) and ``result``.
    """
    n = state.seats
    fc = 2 if state.players == 2 else None
    scores = state.scores()
    pending = state.pending_seats() if not state.is_terminal() else []
    cities = []
    for i in range(n):
        board, side, stages = state.board(i)
        mil, defeats = state.military(i)
        by: dict = {c: [] for c in _data.COLOURS}
        for c in state.city(i):
            by[_COLOUR[c]].append(c)
        info = state.city_info(i)
        holder_sees = reveal or (human is not None and i < state.players and i == human)
        hand = state.hand(i) if holder_sees and i < state.players else None
        hand_size = len(state.hand(i)) if i < state.players else 0
        cities.append({
            "seat": i, "name": names[i], "you": i == human, "free_city": i == fc,
            "board": board, "side": side, "stages": stages,
            "n_stages": len(_board_sides(board)[side]) if board else 0,
            "coins": state.coins(i), "shields": state.shields(i),
            "military": {"vp": mil, "defeats": defeats}, "cards": by,
            "science": info["science"], "wild": info["wild"],
            "production": dict(zip(_data.RESOURCES, info["fixed"])),
            "vp": scores[i], "hand": hand, "hand_size": hand_size,
            "left": (i + 1) % n, "right": (i - 1) % n,
        })
    decisions = []
    if moves and not state.is_terminal():
        for seat in pending:
            decider = state.decider(seat)
            if human is not None and decider != human:
                continue
            if human is None and not reveal:
                continue
            decisions.append({"seat": seat, "for": names[seat], "phase": state.phase,
                              "hand": state.hand(seat) if state.phase == "turn" else [],
                              "cards": _turn_moves(state, seat)})
    others = [s for s in pending if human is None or state.decider(s) != human]
    view = {"game": "seven", "players": state.players, "seats": n, "phase": state.phase,
            "age": state.age, "turn": state.turn, "free_city": fc, "cities": cities,
            "decisions": decisions, "waiting": len(others),
            "controller": state.controller() if fc is not None else None,
            "discard_size": len(state.discard_pile()),
            "result": None}
    if state.is_terminal():
        view["result"] = {"winners": state.winners(), "scores": scores,
                          "coins": [state.coins(i) for i in range(n)]}
    return view


def _board_sides(board: str) -> dict:
    b = _data.BOARDS[_data.BOARD_NAMES.index(board)]
    return {"A": b.a, "B": b.b}


# ---------------------------------------------------------------- a game against AI seats
def _choose_all(state, jobs: list, stop) -> list | None:
    """Run in a search thread: each AI seat's choice ``[(seat, action, agent)]`` in order on a
    copy of ``state`` (the Free City's controller decides its own seat first), or None if the
    game's stop token was set."""
    out = []
    st = state.clone()
    for seat, agent, seed in jobs:
        if stop.is_set:
            return None
        if seat not in st.pending_seats():
            continue
        a = _core.choose_action(st, seat, agent, seed)
        st.apply_action(a, seat)
        out.append((seat, a, agent))
        if st.phase != state.phase or st.turn != state.turn or st.age != state.age:
            break
    return out


class SevenGame(Session):
    """A 7 Wonders game in the browser: the person at seat ``human``, an agent at every other
    player seat (the Free City is run by its controller of the turn, W-FREE-4).

    Attributes: ``state``, ``moves`` (``(seat, action)`` in order: the record's body),
    ``history`` (the position before each move), ``log`` (entries of resolved turns and
    single decisions, with their rule events), ``commits`` (this turn's commitments, kept
    until the turn is revealed).
    """

    game_name = "seven"

    def __init__(self, gid: str, players: int, human: int, agents: list[str | None], seed: int,
                 sides: str = "random"):
        super().__init__(gid)
        self.players = players
        self.human = human
        self.agents = agents
        self.seed = seed
        self.sides = sides
        self.state = new_game(players, seed=seed, sides=sides)
        self.names = seat_names(players, human, agents)
        self.moves: list[tuple[int, int]] = []
        self.history = [self.state.clone()]
        self.log: list[dict] = []
        self.commits: dict[int, tuple[int, int, str]] = {}   # seat: (action, decider, who)
        self.label = ", ".join(sorted({agent_label(a) for a in agents if a}))

    # ---- the AI
    def ai_due(self) -> bool:
        """True if an AI seat (a seat decided by another player than the person) is pending."""
        st = self.state
        return (not st.is_terminal()
                and any(st.decider(s) != self.human for s in st.pending_seats()))

    def ai_job(self) -> tuple:
        """(function, args) choosing every AI seat's action of this node in a search thread
        (see :func:`_choose_all`)."""
        st = self.state
        jobs = []
        for seat in st.pending_seats():
            d = st.decider(seat)
            if d != self.human:
                jobs.append((seat, self.agents[d],
                             (self.seed * 1_000_003 + len(self.moves) * 17 + seat) % 2 ** 63))
        jobs.sort(key=lambda j: (j[0] == 2 and self.players == 2, j[0]))   # FC last
        # one seat a job: the stop token is seen between two decisions
        return _choose_all, (st, jobs[:1], self.stop)

    def ai_apply(self, done: list) -> None:
        """Apply the AI seats' choices still pending (event loop only)."""
        for seat, a, agent in done:
            if seat in self.state.pending_seats() and self.state.decider(seat) != self.human:
                self.apply(seat, a, agent)

    def human_due(self) -> bool:
        """True if the person has a decision now (any pending seat they decide for)."""
        st = self.state
        return not st.is_terminal() and any(st.decider(s) == self.human
                                             for s in st.pending_seats())

    def apply(self, seat: int, action: int, who: str) -> None:
        """Apply one decision (a turn commitment, a Halikarnassus pick, a 7th card); when it
        resolves the turn, log the turn with every seat's action revealed (event loop only)."""
        before = self.state.clone()
        node = (before.phase, before.age, before.turn)
        decider = before.decider(seat)
        self.state.apply_action(action, seat)
        self.moves.append((seat, action))
        self.history.append(self.state.clone())
        if before.phase == "turn":
            self.commits[seat] = (action, decider, who)
        after = self.state
        resolved = (after.phase, after.age, after.turn) != node or after.is_terminal()
        if before.phase != "turn":
            self._log({"kind": before.phase, "age": before.age, "turn": before.turn,
                       "actions": [self._entry(seat, action, decider, who, before)],
                       "events": self._events(before, after)})
        elif resolved:
            acts = [self._entry(s, a, d, w, before) for s, (a, d, w) in sorted(self.commits.items())]
            self.commits = {}
            self._log({"kind": "turn", "age": before.age, "turn": before.turn,
                       "actions": acts, "events": self._events(before, after)})
        self.bump()

    def _entry(self, seat, action, decider, who, before) -> dict:
        pub = _public_action(action, seat, self.human, decider)
        if seat == self.human:                          # "You build", not "You builds"
            pub["text"] = pub["text"].replace("builds", "build", 1).replace("discards", "discard", 1)
        pub.update(seat=seat, name=self.names[seat], who=who,
                   coins=self.state.coins(seat) - before.coins(seat))
        return pub

    def _events(self, before, after) -> list[str]:
        """Rule events between two positions: military conflicts at the end of an Age, a new
        Age dealt, the hands passed, the end of the game."""
        out = []
        for i in range(after.seats):
            m0, m1 = before.military(i), after.military(i)
            if m0 != m1:
                out.append(f"{self.names[i]}: military {m1[0] - m0[0]:+d} VP"
                           + (f", {m1[1] - m0[1]} defeat token(s)" if m1[1] != m0[1] else ""))
        if after.age != before.age and not after.is_terminal():
            out.append(f"Age {after.age} begins: 7 cards dealt to each player; hands now pass "
                       f"{'right' if after.age == 2 else 'left'}")
        elif after.turn != before.turn and after.age == before.age and after.phase == "turn":
            out.append("the hands are passed on")
        if after.phase == "halikarnassus" and before.phase != "halikarnassus":
            out.append("Halikarnassus: a card of the discard pile may be built for free")
        if after.phase == "seventh" and before.phase != "seventh":
            out.append("Babylon: the last card of the Age may be played too")
        if after.is_terminal():
            w = after.winners()
            out.append("the game ends: " + " and ".join(self.names[i] for i in w)
                       + (" win" if len(w) > 1 or w == [self.human] else " wins"))
        return out

    def _log(self, entry: dict) -> None:
        entry["n"] = len(self.log) + 1
        self.log.append(entry)

    def truncate(self, k: int) -> None:
        """Keep the first k moves (undo): the log and this turn's commitments are made again
        from them."""
        kept = self.moves[:k]
        self.state = self.history[0].clone()
        self.moves, self.history, self.log, self.commits = [], [self.state.clone()], [], {}
        for seat, a in kept:
            d = self.state.decider(seat)
            self.apply(seat, a, "you" if d == self.human else self.agents[d])

    def undo_point(self) -> int | None:
        """The move index of the person's previous decision, or None."""
        mine = [k for k, (seat, _) in enumerate(self.moves)
                if self.history[k].decider(seat) == self.human]
        return mine[-1] if mine else None

    def view(self) -> dict:
        """The position for the person (see :func:`seven_view`) with the game's id, version,
        log, whether the AI is thinking, its seed and this turn's own commitments."""
        v = seven_view(self.state, human=self.human, names=self.names)
        mine = {s: _core.action_to_string(a) for s, (a, d, _) in self.commits.items()
                if d == self.human}
        v.update(id=self.id, version=self.version, you=self.human, names=self.names,
                 opponent_label=self.label, thinking=self.thinking, paused=self.paused,
                 seed=str(self.seed), sides=self.sides, log=self.log,
                 committed=mine, error=self.error, n_moves=len(self.moves),
                 budget={"seconds": None, "iterations": None},
                 can_undo=self.undo_point() is not None and not self.state.is_terminal())
        return v

    def record(self) -> dict:
        """The game record (the format ``duel play --game seven`` writes)."""
        return record_of(self.players, self.seed, self.moves, sides=self.sides,
                         state=self.state)

    def record_file(self) -> tuple[str, str]:
        """(file name, JSON text) of the game record."""
        return (f"seven-game-{self.seed}-{len(self.moves)}.json",
                json.dumps(self.record(), indent=1) + "\n")

    def move(self, *, seat, action=None, text=None, version=None) -> None:
        """The person's decision for ``seat`` (their own, or the Free City's when they
        control it), by action id or by its text; WebError 400/409 otherwise."""
        st = self.state
        if version is not None and version != self.version:
            raise WebError(409, f"the game has moved on (version {self.version}, the move was "
                                f"made on version {version}): the page shows the game now")
        if st.is_terminal():
            raise WebError(409, "the game is over")
        mine = [s for s in st.pending_seats() if st.decider(s) == self.human]
        if seat is None:
            if not mine:
                raise WebError(409, "you have no decision now: the other seats are deciding")
            seat = mine[0]
        if seat not in mine:
            raise WebError(409, f"seat {seat} has no decision of yours now"
                                + (f" (yours: {', '.join(map(str, mine))})" if mine else ""))
        if text is not None:
            legal = {_core.action_to_string(a).lower(): a for a in st.legal_actions(seat)}
            action = legal.get(" ".join(text.lower().split()))
            if action is None:
                raise WebError(400, f"{text[:60]!r} is not a legal move of seat {seat} here "
                                    f"(e.g. {next(iter(legal), 'none')!r})")
        why = st.why_illegal(seat, action)
        if why is not None:
            raise WebError(400, f"action {action} is not legal here: {why}")
        self.apply(seat, action, "you")
        self.error = None


def make_game(*, players: int, seat: int, opponent: str, seed: int | None,
              sides: str = "random") -> SevenGame:
    """A new 7 Wonders game: the person at ``seat`` (1-based), ``opponent`` (an agent
    description of 7 Wonders, MCTS at most :data:`MAX_ITERATIONS` iterations) at every other
    player seat.  WebError 400 naming a bad value."""
    agent = table_opponent(players, seat, opponent, seven_agent, MAX_ITERATIONS)
    if sides not in ("random", "A", "B"):
        raise WebError(400, f"sides must be random, A or B, not {str(sides)[:20]!r}")
    if seed is None:
        seed = secrets.randbelow(2 ** 32)
    human = seat - 1
    agents = [None if i == human else agent for i in range(players)]
    try:
        return SevenGame(secrets.token_urlsafe(12), players, human, agents, seed, sides)
    except ValueError as e:
        raise WebError(400, f"set-up: {e}") from None


# ---------------------------------------------------------------- replays
class SevenReplay(RecordReplay):
    """A loaded 7 Wonders record and its positions (every hand shown: the game is over or
    the viewer holds the whole record)."""

    game_name = "seven"
    title = "7 Wonders"

    def __init__(self, rid: str, data: dict):
        super().__init__(rid, data, replay_record, RecordError)

    def _start(self, data: dict):
        return new_game(data["players"], seed=data["seed"], sides=data["sides"],
                        boards=data.get("boards"), remove=data.get("remove"))

    def _apply(self, state, seat: int, action: int) -> None:
        state.apply_action(action, seat)

    def _names(self, data: dict) -> list[str]:
        return seat_names(data["players"], None, [])

    def _view(self, state) -> dict:
        return seven_view(state, human=None, names=self.names, reveal=True, moves=False)

    def _move_extra(self, state) -> dict:
        return {"age": state.age, "turn": state.turn}
