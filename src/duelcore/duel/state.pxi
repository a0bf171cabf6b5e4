# The Python face of the core (included by engine.pyx): OpenSpiel vocabulary over GameState.
import operator as _operator

CHANCE_PLAYER = -1          # current_player() at a chance node (pyspiel's kChancePlayerId)
TERMINAL_PLAYER = -4        # current_player() once the game is over (pyspiel's kTerminalPlayerId)
FORMAT_VERSION = 1          # version of State.to_dict()

PHASE_NAMES = ("setup_first_player", "setup_tokens", "draft_reveal", "draft", "reveal", "play",
               "choose_token", "destroy", "revive", "library_draw", "library", "choose_start",
               "over", "guilds")
VICTORY_NAMES = ("none", "civilian", "military", "scientific", "shared")
VP_CATEGORIES = ("blue", "green", "yellow", "purple", "wonders", "tokens", "coins", "military")
PLAYER_NAMES = ("P1", "P2")

# action layout, for Python callers
ACTION_LAYOUT = {
    "DRAFT_BASE": DRAFT_BASE, "BUILD_BASE": BUILD_BASE, "DISCARD_BASE": DISCARD_BASE,
    "WONDER_BASE": WONDER_BASE, "TOKEN_BASE": TOKEN_BASE, "DESTROY_BASE": DESTROY_BASE,
    "REVIVE_BASE": REVIVE_BASE, "START_BASE": START_BASE,
    "NUM_DECISION_ACTIONS": NUM_DECISION_ACTIONS, "CHANCE_FIRST_BASE": CHANCE_FIRST_BASE,
    "CHANCE_WONDER_BASE": CHANCE_WONDER_BASE, "CHANCE_TOKEN_BASE": CHANCE_TOKEN_BASE,
    "CHANCE_CARD_BASE": CHANCE_CARD_BASE, "CHANCE_SLOT_BASE": CHANCE_SLOT_BASE,
    "NUM_ACTIONS": NUM_ACTIONS,
}
NUM_DISTINCT_ACTIONS = NUM_ACTIONS
OBSERVATION_SIZE = OBS_SIZE
_CARDS = _data.CARD_NAMES
_WONDERS = _data.WONDER_NAMES
_TOKENS = _data.TOKEN_NAMES
_PEND_NAMES = ((PEND_DESTROY_BROWN, "destroy_brown"), (PEND_DESTROY_GREY, "destroy_grey"),
               (PEND_REVIVE, "revive"), (PEND_LIBRARY, "library"), (PEND_TOKEN, "token"))


class IllegalActionError(ValueError):
    """An action that is not legal in this state.  The state is left unchanged.

    Attributes
    ----------
    action : int
        The action id that was refused.
    reason : str
        Why it was refused, in the game's words.
    """

    def __init__(self, action, reason):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class StateFormatError(ValueError):
    """A position description (``State.from_dict``) that is malformed or impossible.

    Attributes
    ----------
    field : str
        The path of the offending field, e.g. ``"players[1].coins"``.
    """

    def __init__(self, field, reason):
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


def action_to_string(int a):
    """Readable name of an action id, e.g. ``"build Lumber Yard"`` (see duelpy notation).

    Raises
    ------
    ValueError
        If ``a`` is outside ``[0, NUM_ACTIONS)``.
    """
    if a < 0 or a >= NUM_ACTIONS:
        raise ValueError(f"action {a} is out of range [0, {NUM_ACTIONS})")
    if a < BUILD_BASE:
        return f"pick {_WONDERS[a]}"
    if a < DISCARD_BASE:
        return f"build {_CARDS[a - BUILD_BASE]}"
    if a < WONDER_BASE:
        return f"discard {_CARDS[a - DISCARD_BASE]}"
    if a < TOKEN_BASE:
        w, c = divmod(a - WONDER_BASE, NUM_CARDS)
        return f"wonder {_WONDERS[w]} with {_CARDS[c]}"
    if a < DESTROY_BASE:
        return f"token {_TOKENS[a - TOKEN_BASE]}"
    if a < REVIVE_BASE:
        return f"destroy {_CARDS[a - DESTROY_BASE]}"
    if a < START_BASE:
        return f"revive {_CARDS[a - REVIVE_BASE]}"
    if a < NUM_DECISION_ACTIONS:
        return f"start {PLAYER_NAMES[a - START_BASE]}"
    if a < CHANCE_WONDER_BASE:
        return f"chance: {PLAYER_NAMES[a - CHANCE_FIRST_BASE]} begins"
    if a < CHANCE_TOKEN_BASE:
        return f"chance: reveal wonder {_WONDERS[a - CHANCE_WONDER_BASE]}"
    if a < CHANCE_CARD_BASE:
        return f"chance: token {_TOKENS[a - CHANCE_TOKEN_BASE]}"
    if a < CHANCE_SLOT_BASE:
        return f"chance: reveal {_CARDS[a - CHANCE_CARD_BASE]}"
    return f"chance: guild back in slot {a - CHANCE_SLOT_BASE}"


def _player(player):
    """Validate a player index: 0 (P1) or 1 (P2)."""
    if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
        raise ValueError(f"player must be 0 (P1) or 1 (P2), not {player!r}")
    return player


def _bits(x):
    return [i for i in range(64) if (x >> i) & 1]


cdef list _bs_list(const u64* b):
    return [c for c in range(NUM_CARDS) if bit_has(b, c)]


cdef class State:
    """A position of 7 Wonders Duel, with the OpenSpiel state API.

    Made by :func:`new_game` or :meth:`from_dict`.  Players are 0 (P1) and 1 (P2).  By default
    chance nodes (cards turned face up, wonders revealed, tokens drawn) are sampled at once with
    the state's own seeded RNG, so the caller only sees decisions and ``seed + decisions`` is the
    whole game; with ``explicit_chance=True`` they are shown as chance nodes instead.
    States compare equal by value, hash, pickle and copy with :meth:`clone`.
    """

    def __init__(self):
        raise TypeError("use duelcore.new_game() or State.from_dict() to make a State")

    @staticmethod
    cdef State _wrap(const GameState* g):
        cdef State st = State.__new__(State)
        memcpy(&st.s, g, sizeof(GameState))
        return st

    # ---- OpenSpiel API
    def clone(self):
        """An independent copy (struct copy)."""
        return State._wrap(&self.s)

    def current_player(self):
        """0 or 1; ``CHANCE_PLAYER`` (-1) at a chance node; ``TERMINAL_PLAYER`` (-4) at the end."""
        if self.s.phase == PH_OVER:
            return TERMINAL_PLAYER
        if is_chance(&self.s):
            return CHANCE_PLAYER
        return self.s.to_move

    def is_terminal(self):
        return self.s.phase == PH_OVER

    def is_chance_node(self):
        return is_chance(&self.s)

    def legal_actions(self, player=None):
        """Legal actions, ascending (R-DEC-1).  At a chance node: the chance outcomes.

        Returns
        -------
        list of int
            Empty at the end of the game, or when ``player`` is given and is not to move.
        """
        cdef int buf[MAX_LEGAL]
        cdef double prob[MAX_LEGAL]
        cdef int n, i
        if player is not None and player != self.current_player():
            return []
        if is_chance(&self.s):
            n = chance_outcomes(&self.s, buf, prob)
        else:
            n = legal_actions(&self.s, buf)
        return [buf[i] for i in range(n)]

    def legal_actions_mask(self):
        """A numpy bool array of shape ``(NUM_ACTIONS,)``, True at the legal actions."""
        import numpy as np
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def chance_outcomes(self):
        """``[(action, probability), ...]`` at a chance node (R-CHANCE-1), else ``[]``."""
        cdef int buf[MAX_LEGAL]
        cdef double prob[MAX_LEGAL]
        cdef int n, i
        if not is_chance(&self.s):
            return []
        n = chance_outcomes(&self.s, buf, prob)
        return [(buf[i], prob[i]) for i in range(n)]

    def apply_action(self, action):
        """Apply a decision (or, at a chance node, a chance outcome).

        Unless the game uses ``explicit_chance``, the chance nodes that follow are sampled at
        once with the state's RNG.

        Raises
        ------
        TypeError
            If ``action`` is not an integer.
        IllegalActionError
            If it is not legal here; the reason names the card, wonder or rule.  The state is
            left unchanged.
        """
        cdef int buf[MAX_LEGAL]
        cdef double prob[MAX_LEGAL]
        cdef int n, i, a
        if isinstance(action, bool):
            raise TypeError("an action is an integer, not a bool")
        cdef object pa = _operator.index(action)
        if self.s.phase == PH_OVER:
            raise IllegalActionError(pa, "the game is over")
        if pa < 0 or pa >= NUM_ACTIONS:
            raise IllegalActionError(pa, f"out of range: actions are 0..{NUM_ACTIONS - 1}")
        a = pa
        if is_chance(&self.s):
            n = chance_outcomes(&self.s, buf, prob)
        else:
            n = legal_actions(&self.s, buf)
        for i in range(n):
            if buf[i] == a:
                break
        else:
            raise IllegalActionError(pa, self._why_illegal(a))
        apply_action(&self.s, a)
        if not (self.s.options & OPT_EXPLICIT_CHANCE):
            settle(&self.s, &self.s.rng)

    def observation_tensor(self, player):
        """What ``player`` can see, as a float32 numpy array of shape ``(OBSERVATION_SIZE,)``
        (block layout: :mod:`duelpy.spiel`)."""
        import numpy as np
        cdef int p = _player(player)
        out = np.empty(OBS_SIZE, dtype=np.float32)
        cdef float[::1] view = out
        observe(&self.s, p, &view[0])
        return out

    def why_illegal(self, action):
        """Why ``action`` is not legal here, in the game's words; None if it is legal.

        Raises
        ------
        TypeError
            If ``action`` is not an integer.
        """
        cdef int buf[MAX_LEGAL]
        cdef double prob[MAX_LEGAL]
        cdef int n, i
        if isinstance(action, bool):
            raise TypeError("an action is an integer, not a bool")
        pa = _operator.index(action)
        if self.s.phase == PH_OVER:
            return "the game is over"
        if pa < 0 or pa >= NUM_ACTIONS:
            return f"out of range: actions are 0..{NUM_ACTIONS - 1}"
        n = chance_outcomes(&self.s, buf, prob) if is_chance(&self.s) else legal_actions(&self.s, buf)
        for i in range(n):
            if buf[i] == pa:
                return None
        return self._why_illegal(pa)

    def discard_value(self, player):
        """Coins ``player`` takes for discarding a card now (R-DISCARD-1)."""
        return discard_coins(&self.s, _player(player))

    def _why_illegal(self, int a):
        """The reason a legal-looking action id is refused here (for error messages)."""
        cdef int p = self.s.to_move, trade, cost
        phase = PHASE_NAMES[self.s.phase]
        who = PLAYER_NAMES[p]
        if is_chance(&self.s):
            return (f"this is a chance node ({phase}); expected one of the chance outcomes, "
                    f"got {action_to_string(a)!r}")
        if a >= NUM_DECISION_ACTIONS:
            return f"{action_to_string(a)!r} is a chance outcome, but {who} must decide ({phase})"
        expected = {PH_DRAFT: (DRAFT_BASE, BUILD_BASE), PH_TOKEN: (TOKEN_BASE, DESTROY_BASE),
                    PH_LIBRARY: (TOKEN_BASE, DESTROY_BASE), PH_DESTROY: (DESTROY_BASE, REVIVE_BASE),
                    PH_REVIVE: (REVIVE_BASE, START_BASE),
                    PH_START: (START_BASE, NUM_DECISION_ACTIONS),
                    PH_PLAY: (BUILD_BASE, TOKEN_BASE)}[self.s.phase]
        name = action_to_string(a)
        if not expected[0] <= a < expected[1]:
            return f"{who} must make a {phase} decision now, not {name!r}"
        if self.s.phase == PH_DRAFT:
            return f"{_WONDERS[a]} is not among the wonders on offer"
        if self.s.phase in (PH_TOKEN, PH_LIBRARY):
            where = "on the board" if self.s.phase == PH_TOKEN else "among the Great Library draw"
            return f"{_TOKENS[a - TOKEN_BASE]} is not {where}"
        if self.s.phase == PH_DESTROY:
            colour = _data.COLOURS[self.s.destroy_colour]
            return f"{_CARDS[a - DESTROY_BASE]} is not a {colour} card in the opponent's city"
        if self.s.phase == PH_REVIVE:
            return f"{_CARDS[a - REVIVE_BASE]} is not in the discard pile"
        # PH_PLAY
        if a < DISCARD_BASE:
            c = a - BUILD_BASE
        elif a < WONDER_BASE:
            c = a - DISCARD_BASE
        else:
            w, c = divmod(a - WONDER_BASE, NUM_CARDS)
        if not bit_has(self.s.avail, c):
            return f"{_CARDS[c]} is not available in the layout"
        if a < DISCARD_BASE:
            cost = card_cost(&self.s, p, c, &trade)
            return (f"{who} cannot afford {_CARDS[c]}: it costs {cost} coins "
                    f"and {who} has {self.s.p[p].coins}")
        if not (self.s.p[p].wonders >> w) & 1:
            return f"{_WONDERS[w]} is not one of {who}'s wonders in the game"
        if (self.s.p[p].built >> w) & 1:
            return f"{_WONDERS[w]} is already built"
        if self.s.n_built_wonders >= 7:
            return "7 wonders are built: no more wonders can be built (R-WONDER-3)"
        cost = wonder_cost(&self.s, p, w, &trade)
        return (f"{who} cannot afford {_WONDERS[w]}: it costs {cost} coins "
                f"and {who} has {self.s.p[p].coins}")

    def action_to_string(self, action):
        return action_to_string(action)

    def returns(self):
        """``[r0, r1]``: +1 for the winner, -1 for the loser, 0 each if shared or not over."""
        if self.s.phase != PH_OVER or self.s.winner == WINNER_NONE:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.s.winner == 0 else [-1.0, 1.0]

    def vp(self):
        """VP by category for both players: ``{category: [P1, P2]}`` (R-END-2), at any time."""
        cdef int v[2 * NUM_VP]
        compute_vp(&self.s, v)
        return {name: [v[k], v[NUM_VP + k]] for k, name in enumerate(VP_CATEGORIES)}

    def result(self):
        """The outcome: ``{"winner": 0|1|None, "victory": "civilian"|"military"|"scientific"|
        "shared"|"none", "vp": {category: [P1, P2]}, "total": [P1, P2]}`` (R-END)."""
        vp = self.vp()
        return {
            "winner": None if self.s.winner == WINNER_NONE else int(self.s.winner),
            "victory": VICTORY_NAMES[self.s.victory],
            "vp": vp,
            "total": [sum(v[0] for v in vp.values()), sum(v[1] for v in vp.values())],
        }

    def card_cost(self, player, card):
        """Coins ``player`` would pay now to build ``card`` (id or name): ``(total, traded)``.

        0 for a chain build.  Raises ValueError for an unknown card or player.
        """
        cdef int trade, c = _card_id(card), p = _player(player)
        total = card_cost(&self.s, p, c, &trade)
        return total, trade

    def wonder_cost(self, player, wonder):
        """Coins ``player`` would pay now to build ``wonder`` (id or name): ``(total, traded)``."""
        cdef int trade, w = _wonder_id(wonder), p = _player(player)
        total = wonder_cost(&self.s, p, w, &trade)
        return total, trade

    def trade_breakdown(self, player, item, *, wonder=False):
        """How ``player`` would pay now for ``item`` (a card, or a wonder with ``wonder=True``;
        id or name), unit by unit (R-BUILD-2, R-TRADE-1..4, R-SCI-4 Masonry/Architecture).

        Returns ``{"chain": bool, "coins": printed coins, "total": coins paid,
        "traded": coins paid to trade, "buy": [{"resource", "units", "price"}...]}``, one row
        per resource bought from the bank (``price`` in coins per unit; ``units * price``
        summed over rows is ``traded``).  A chain build pays nothing.  Raises ValueError for
        an unknown card, wonder or player.
        """
        cdef int need[5]
        cdef int price[5]
        cdef int r, i, p = _player(player), disc = 0, printed = 0
        cdef const u8* res
        if wonder:
            i = _wonder_id(item)
            res = WONDERS[i].res
            disc = wonder_discount(&self.s, p)
        else:
            i = _card_id(item)
            if is_chain(&self.s, p, i):
                return {"chain": True, "coins": 0, "total": 0, "traded": 0, "buy": []}
            res = CARDS[i].res
            printed = CARDS[i].coins
            disc = card_discount(&self.s, p, i)
        buy = []
        traded = 0
        if res_need(&self.s, p, res, disc, need, price):
            for r in range(NUM_RES):
                if need[r] > 0:
                    buy.append({"resource": _data.RESOURCES[r], "units": need[r],
                                "price": price[r]})
                    traded += need[r] * price[r]
        return {"chain": False, "coins": printed, "total": printed + traded, "traded": traded,
                "buy": buy}

    def check(self):
        """Raise AssertionError naming the first broken invariant or position check of the
        state (``"field: reason"``, see ``STATE_CHECKS``), if any."""
        msg = check_message(self)
        if msg is not None:
            raise AssertionError(msg)

    # ---- read-only views (names are the game's)
    @property
    def phase(self):
        return PHASE_NAMES[self.s.phase]

    @property
    def age(self):
        return self.s.age

    @property
    def first_player(self):
        return self.s.first_player

    @property
    def pawn(self):
        """Conflict pawn, -9..9; positive toward P2's capital (P1 leads)."""
        return self.s.pawn

    @property
    def n_decisions(self):
        return self.s.n_decisions

    @property
    def replay(self):
        """True if the current turn earned Play Again."""
        return bool(self.s.replay)

    def coins(self, player):
        """A player's coins (player 0 = P1, 1 = P2)."""
        return self.s.p[_player(player)].coins

    def city(self, player):
        """Card ids in a player's city."""
        return _bs_list(self.s.p[_player(player)].city)

    def discard_pile(self):
        return _bs_list(self.s.discard)

    def available_cards(self):
        return _bs_list(self.s.avail)

    def guild_slots(self):
        """Slots (0..19) of the Age III layout that hold a guild, sorted: public, since guild
        cards have a back of their own (R-SETUP-6, R-CHANCE-2).  Empty before Age III and
        while the guild backs are being placed (3 slots once placed)."""
        if self.s.age < 3 or self.s.phase == PH_GUILDS:
            return []
        return _bits(self.s.guild_slots)

    def progress_tokens(self, player):
        """Progress token ids a player owns."""
        return _bits(self.s.p[_player(player)].tokens)

    def board_tokens(self):
        return _bits(self.s.board_tokens)

    def wonders(self, player):
        """``[(wonder id, built), ...]`` of a player's wonders still in the game."""
        cdef int p = _player(player)
        return [(w, bool((self.s.p[p].built >> w) & 1)) for w in _bits(self.s.p[p].wonders)]

    def science_symbols(self, player):
        """Cards (or Law) per science symbol, in the order of duelcore.duel.data.SYMBOLS."""
        cdef int p = _player(player)
        return [self.s.p[p].symbols[i] for i in range(NUM_SYMBOLS)]

    def production(self, player):
        """Fixed production per resource (wood, clay, stone, glass, papyrus) of brown/grey cards."""
        cdef int p = _player(player)
        return [self.s.p[p].fixed[i] for i in range(NUM_RES)]

    # ---- value semantics
    cdef bytes _bytes(self):
        return (<char*>&self.s)[:sizeof(GameState)]

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return memcmp(&self.s, &(<State>other).s, sizeof(GameState)) == 0

    def __hash__(self):
        return hash(self._bytes())

    def __reduce__(self):
        return (_state_from_bytes, (self._bytes(),))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __repr__(self):
        return (f"<State age={self.s.age} phase={PHASE_NAMES[self.s.phase]} "
                f"to_move={PLAYER_NAMES[self.s.to_move]} coins={self.s.p[0].coins}/"
                f"{self.s.p[1].coins} pawn={self.s.pawn}>")

    def __str__(self):
        return self.__repr__()

    # ---- positions as data
    def to_dict(self):
        """The whole position in the game's words, JSON-safe (see :func:`state_from_dict`)."""
        cdef int i, p
        g = &self.s
        layout = []
        for i in range(NUM_SLOTS if g.age else 0):
            if (g.taken >> i) & 1:
                layout.append(None)
            elif g.slot_card[i] == NO_CARD:
                layout.append("face_down_guild" if (g.guild_slots >> i) & 1 else "face_down")
            else:
                layout.append(_CARDS[g.slot_card[i]])
        players = []
        for p in range(2):
            me = &g.p[p]
            players.append({
                "coins": int(me.coins),
                "city": [_CARDS[c] for c in _bs_list(me.city)],
                "wonders": [{"name": _WONDERS[w], "built": bool((me.built >> w) & 1),
                             "card": (_CARDS[g.under[w]] if g.under[w] != NO_CARD else None)}
                            for w in _bits(me.wonders)],
                "progress_tokens": [_TOKENS[t] for t in _bits(me.tokens)],
            })
        return {
            "version": FORMAT_VERSION,
            "options": {"centred_pawn": "begins" if g.options & OPT_CENTRED_BEGINS else "chooses",
                        "explicit_chance": bool(g.options & OPT_EXPLICIT_CHANCE),
                        "first_game_wonders": bool(g.options & OPT_FIRST_GAME),
                        "banned_tokens": [_TOKENS[t] for t in _bits(g.banned_tokens)],
                        "forced_wonders": [_WONDERS[g.forced[q] - 1] if g.forced[q] else None
                                           for q in range(2)]},
            "phase": PHASE_NAMES[g.phase],
            "age": int(g.age),
            "to_move": int(g.to_move),
            "first_player": int(g.first_player),
            "layout": layout,
            "reveal_queue": _bits(g.reveal_queue),
            "guild_slots": _bits(g.guild_slots),
            "dealing": int(g.dealing),
            "players": players,
            "pawn": int(g.pawn),
            "military_tokens": [[v for k, v in enumerate((2, 5)) if (g.mil_tokens >> (2 * q + k)) & 1]
                                for q in range(2)],
            "board_tokens": [_TOKENS[t] for t in _bits(g.board_tokens)],
            "aside_tokens": [_TOKENS[t] for t in _bits(g.aside_tokens)],
            "library_offer": [_TOKENS[t] for t in _bits(g.library_offer)],
            "discard_pile": [_CARDS[c] for c in _bs_list(g.discard)],
            "draft": {"offer": [_WONDERS[w] for w in _bits(g.draft_offer)],
                      "revealed": [_WONDERS[w] for w in _bits(g.wonders_seen)],
                      "picks": int(g.draft_pick)},
            "pending": [name for bit, name in _PEND_NAMES if g.pend & bit],
            "destroy_colour": _data.COLOURS[g.destroy_colour],
            "replay": bool(g.replay),
            "chooser": int(g.chooser),
            "last_taker": int(g.last_taker),
            "n_decisions": int(g.n_decisions),
            "n_chance": int(g.n_chance),
            "rng": int(g.rng),
            "winner": None if g.winner == WINNER_NONE else int(g.winner),
            "victory": VICTORY_NAMES[g.victory],
        }

    @staticmethod
    def from_dict(d):
        """Alias of :func:`state_from_dict`."""
        return state_from_dict(d)


def _state_from_bytes(bytes b):
    if len(b) != sizeof(GameState):
        raise ValueError(f"a pickled State is {sizeof(GameState)} bytes, not {len(b)}")
    cdef State st = State.__new__(State)
    memcpy(&st.s, <char*>b, sizeof(GameState))
    msg = check_message(st)
    if msg is not None:
        raise ValueError(f"not a valid state: {msg}")
    return st

# Pickles (and OpenSpiel serializations) name the reader by its stable flat path, as before the
# one-package-per-game layout: ``duelcore.engine`` is an alias of this module.
_state_from_bytes.__module__ = "duelcore.engine"


def _lookup(names, value, what, field):
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(names):
            return value
        raise StateFormatError(field, f"{what} id {_show(value)} is out of range "
                                      f"0..{len(names) - 1}")
    if isinstance(value, str):
        key = " ".join(value.split()).casefold()
        for i, n in enumerate(names):
            if n.casefold() == key:
                return i
    raise StateFormatError(field, f"unknown {what} {_show(value)}")


def _card_id(card):
    try:
        return _lookup(_CARDS, card, "card", "card")
    except StateFormatError as e:
        raise ValueError(e.reason) from None


def _wonder_id(wonder):
    try:
        return _lookup(_WONDERS, wonder, "wonder", "wonder")
    except StateFormatError as e:
        raise ValueError(e.reason) from None


def _treatments(banned_tokens, forced_wonders, first_game_wonders):
    """Validate the study treatments; return (banned token mask, forced wonder id + 1 x2)."""
    if isinstance(banned_tokens, str):
        banned_tokens = (banned_tokens,)
    mask = 0
    for t in banned_tokens:
        try:
            mask |= 1 << _lookup(_TOKENS, t, "progress token", "banned_tokens")
        except StateFormatError as e:
            raise ValueError(f"banned_tokens: {e.reason}") from None
    if bin(mask).count("1") > 5:
        raise ValueError("banned_tokens: at most 5 tokens can be banned (5 are laid on the board)")
    if forced_wonders is None:
        forced_wonders = (None, None)
    if isinstance(forced_wonders, str) or len(forced_wonders) != 2:
        raise ValueError("forced_wonders must be a pair (P1's wonder or None, P2's wonder or None)")
    forced = []
    for p, w in enumerate(forced_wonders):
        if w is None:
            forced.append(0)
            continue
        try:
            forced.append(1 + _lookup(_WONDERS, w, "wonder", "forced_wonders"))
        except StateFormatError as e:
            raise ValueError(f"forced_wonders[{p}]: {e.reason}") from None
    if forced[0] and forced[0] == forced[1]:
        raise ValueError("forced_wonders: the same wonder cannot be forced into both drafts")
    if (forced[0] or forced[1]) and first_game_wonders:
        raise ValueError("forced_wonders cannot be combined with first_game_wonders (no draft)")
    return mask, forced[0], forced[1]


def new_game(seed=0, *, first_player=0, centred_pawn="chooses", first_game_wonders=False,
             start_coins=(7, 7), explicit_chance=False, banned_tokens=(), forced_wonders=None):
    """A new game of 7 Wonders Duel, at its first decision (or first chance node).

    Parameters
    ----------
    seed : int
        Seeds the state's RNG (chance nodes).  Same seed and same decisions: same game.
    first_player : {0, 1, None}
        Who begins Age I and picks first in the draft.  Players are 0 (named P1) and 1 (P2),
        and by default P1 begins, as RULES.md calls the starting player P1.  ``None`` draws it
        at random (R-SETUP-4); then "P1" still names player 0, who may not begin.
    centred_pawn : {"chooses", "begins"}
        R-AGE-3 when the Conflict pawn is centred at the end of an Age: the last player
        *chooses* who begins the next Age (seed 001, default) or simply *begins* it (seed 000).
    first_game_wonders : bool
        Skip the draft and use the rulebook's first-game wonder sets (R-SETUP-7).
    start_coins : (int, int)
        Starting coins of P1 and P2 in coins (R-SETUP-1: 7 each), e.g. for compensation studies.
    explicit_chance : bool
        Show chance nodes to the caller (OpenSpiel style) instead of sampling them.
    banned_tokens : iterable of str
        Study treatment: progress tokens never laid on the board (they are set aside, so The
        Great Library may still draw them).  At most 5.
    forced_wonders : (str or None, str or None)
        Study treatment: a wonder forced into player 0's (P1's) / player 1's (P2's) draft.  It is the first wonder
        revealed in the group where that player picks first, and their first pick takes it.

    Raises
    ------
    ValueError, TypeError
        For an option outside the values above, naming it.
    """
    if isinstance(seed, bool):
        raise TypeError(f"seed must be a non-negative integer, not {seed!r}")
    try:
        seed = _operator.index(seed)
    except TypeError:
        raise TypeError(f"seed must be a non-negative integer, not {seed!r}") from None
    if not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed}")
    if not (first_player is None or (type(first_player) is int and first_player in (0, 1))):
        raise ValueError(f"first_player must be 0, 1 or None, not {first_player!r}")
    if centred_pawn not in ("chooses", "begins"):
        raise ValueError(f"centred_pawn must be 'chooses' or 'begins', not {centred_pawn!r}")
    try:
        c0, c1 = start_coins
        c0 = _operator.index(c0)
        c1 = _operator.index(c1)
    except (TypeError, ValueError):
        raise ValueError(f"start_coins must be two integers, not {start_coins!r}") from None
    if not (0 <= c0 <= 1000 and 0 <= c1 <= 1000):
        raise ValueError(f"start_coins must be between 0 and 1000, not {start_coins!r}")
    banned, f0, f1 = _treatments(banned_tokens, forced_wonders, first_game_wonders)
    cdef State st = State.__new__(State)
    opts = (OPT_CENTRED_BEGINS if centred_pawn == "begins" else 0) | \
           (OPT_EXPLICIT_CHANCE if explicit_chance else 0)
    init_state(&st.s, <u64>(seed & 0xFFFFFFFFFFFFFFFF), opts,
               -1 if first_player is None else first_player, bool(first_game_wonders), c0, c1)
    set_treatments(&st.s, banned, f0, f1)
    if not explicit_chance:
        settle(&st.s, &st.s.rng)
    return st


def state_size():
    """sizeof(GameState) in bytes."""
    return sizeof(GameState)


include "fromdict.pxi"
