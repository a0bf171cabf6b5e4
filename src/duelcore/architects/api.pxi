# The Python face of the Architects core (included by engine.pyx): names, errors, the State
# class (the state API in OpenSpiel's vocabulary) and new_state.

KINDS = _data.KINDS
WONDERS = _data.WONDERS
TOKENS = _data.TOKENS
STAGES = _data.STAGES
VP_CATEGORIES = _data.VP_CATEGORIES
PHASES = ("chance", "main", "pick", "set", "token", "stage", "pay", "alexandria", "ephesus",
          "hali_deck", "hali_keep", "order", "over")
TASKS = ("none", "main", "token", "pay", "alexandria", "ephesus", "olympia_left",
         "olympia_right", "hali_deck", "hali_keep", "set", "build", "pick")
DRAWS = ("none", "central", "look", "blind")
CHANCE_KINDS = ("none", "wonder", "top", "row", "central", "look", "blind", "window")
SET_NAMES = ("tablet pair", "gear pair", "compass pair", "triple")
#: The options of new_state (A-OPT) and their flags in the core.
RULE_OPTIONS = {"free_order": OP_FREE_ORDER, "economy_forces_build": OP_ECONOMY_OPTIONAL,
                "engineering_once_per_turn": OP_ENGINEERING_ONCE,
                "coins_only_when_needed": OP_COINS_WHEN_NEEDED,
                "wonder_power_optional": OP_POWER_OPTIONAL}
#: Defaults of the rule options (the rules of the digest).
RULE_DEFAULTS = {"free_order": False, "economy_forces_build": True,
                 "engineering_once_per_turn": False, "coins_only_when_needed": False,
                 "wonder_power_optional": False}
FORMAT_VERSION = 1
CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4
NUM_ACTIONS = A_NUM_ACTIONS
NUM_DECISION_ACTIONS = A_NUM_DECISIONS
CENTRAL = AR_CENTRAL
#: The action layout: each named range's first id (and its size).
ACTION_LAYOUT = {
    "PICK_BASE": A_PICK_BASE, "DECLINE": A_DECLINE, "POWER_USE": A_POWER_USE,
    "DECK_BASE": A_DECK_BASE, "HALI_BASE": A_HALI_BASE, "SET_BASE": A_SET_BASE,
    "TOKEN_BASE": A_TOKEN_BASE, "TOKEN_STACK": A_TOKEN_STACK, "STAGE_BASE": A_STAGE_BASE,
    "PAY_BASE": A_PAY_BASE, "KEEP_BASE": A_KEEP_BASE, "ORDER_PICK_BASE": A_ORDER_PICK_BASE,
    "ORDER_SET": A_ORDER_SET, "ORDER_BUILD": A_ORDER_BUILD,
    "NUM_DECISIONS": A_NUM_DECISIONS, "CH_KIND_BASE": A_CH_KIND_BASE,
    "CH_TOKEN_BASE": A_CH_TOKEN_BASE, "CH_WONDER_BASE": A_CH_WONDER_BASE,
    "NUM_ACTIONS": A_NUM_ACTIONS,
}


class IllegalActionError(ValueError):
    """An action that is not legal at this node (one line naming it); the state is left
    unchanged."""


class StateFormatError(ValueError):
    """A position (``to_dict`` form) that is malformed or impossible.

    Attributes
    ----------
    field : str
        The path of the offending field, e.g. ``"seats[1].tableau.wood"``.
    rule : str
        The rule id the refusal rests on ("" for a plain type error), e.g. ``"A-COMP-2"``.
    """

    def __init__(self, field, reason, rule=""):
        self.field = field
        self.reason = reason
        self.rule = rule
        super().__init__(f"{field}: {reason}" + (f" ({rule})" if rule else ""))


def state_size():
    """Bytes of one Architects state (the struct copied by ``clone``)."""
    return sizeof(ArchState)


def payment_name(int pid):
    """The cards of payment id ``pid`` (0..230) as text, e.g. ``"wood, coin"``,
    ``"coin doubled"`` (A-BUILD-3)."""
    if not 0 <= pid < AR_NUM_PAYMENTS:
        raise ValueError(f"{pid} is not a payment id (0..{AR_NUM_PAYMENTS - 1})")
    g, c, d = PAYMENTS[pid]
    parts = []
    for r in range(5):
        parts += [KINDS[r]] * g[r]
    parts += ["coin"] * (c - d) + ["coin doubled"] * d
    return ", ".join(parts)


def payment_cards(int pid):
    """``(greys per resource, coin cards, doubled)`` of payment id ``pid`` (A-BUILD-3)."""
    if not 0 <= pid < AR_NUM_PAYMENTS:
        raise ValueError(f"{pid} is not a payment id (0..{AR_NUM_PAYMENTS - 1})")
    return PAYMENTS[pid]


def action_to_string(int a):
    """The name of an action id, independent of the position (the Python face adds wonder
    names): ``"take left"``, ``"pay wood, coin"``, ``"token Economy"``, ``"card coin"``...

    Raises ValueError for an id outside ``[0, NUM_ACTIONS)``."""
    if A_PICK_BASE <= a < A_PICK_BASE + 3:
        return "take " + ("left", "right", "central")[a - A_PICK_BASE]
    if a == A_DECLINE:
        return "decline"
    if a == A_POWER_USE:
        return "use power"
    if A_DECK_BASE <= a < A_DECK_BASE + 8:
        d = a - A_DECK_BASE
        return "take deck central" if d == AR_CENTRAL else f"take deck P{d + 1}"
    if A_HALI_BASE <= a < A_HALI_BASE + 2:
        return "search " + ("left", "right")[a - A_HALI_BASE]
    if A_SET_BASE <= a < A_SET_BASE + 4:
        return "set " + SET_NAMES[a - A_SET_BASE]
    if A_TOKEN_BASE <= a < A_TOKEN_BASE + 14:
        return "token " + TOKENS[a - A_TOKEN_BASE]
    if a == A_TOKEN_STACK:
        return "token stack"
    if A_STAGE_BASE <= a < A_STAGE_BASE + 5:
        return "build " + STAGES[a - A_STAGE_BASE]
    if A_PAY_BASE <= a < A_PAY_BASE + AR_NUM_PAYMENTS:
        return "pay " + payment_name(a - A_PAY_BASE)
    if A_KEEP_BASE <= a < A_KEEP_BASE + 14:
        return "keep " + KINDS[a - A_KEEP_BASE]
    if A_ORDER_PICK_BASE <= a < A_ORDER_PICK_BASE + 14:
        return f"next {TOKENS[a - A_ORDER_PICK_BASE]} pick"
    if a == A_ORDER_SET:
        return "next set"
    if a == A_ORDER_BUILD:
        return "next build"
    if A_CH_KIND_BASE <= a < A_CH_KIND_BASE + 14:
        return "card " + KINDS[a - A_CH_KIND_BASE]
    if A_CH_TOKEN_BASE <= a < A_CH_TOKEN_BASE + 14:
        return "token drawn " + TOKENS[a - A_CH_TOKEN_BASE]
    if A_CH_WONDER_BASE <= a < A_CH_WONDER_BASE + 7:
        return "wonder " + WONDERS[a - A_CH_WONDER_BASE]
    raise ValueError(f"{a} is not an action id (0..{A_NUM_ACTIONS - 1})")


cdef dict _kind_dict(const u8* v):
    return {KINDS[k]: v[k] for k in range(14) if v[k]}


cdef dict _token_dict(const u8* v):
    return {TOKENS[t]: v[t] for t in range(14) if v[t]}


def check_message(int code):
    """The invariant that state_check's ``code`` names (0: none)."""
    return "" if code == 0 else CHECK_MESSAGES.get(code, f"code {code}")


cdef class State:
    """A 7 Wonders Architects position.  Behaves like a value: ``clone``, ``==``, hashing,
    pickling (through ``to_dict``).

    Seats ``0..players-1`` clockwise; seat 0 begins (A-SETUP-11).  Every decision of a turn
    is its active seat's (A-DEC-1); a decision with one legal action is applied without
    asking (A-DEC-2).  Unless the game was created with ``explicit_chance``, chance events
    are sampled at once from the state's seeded RNG (A-CHANCE).
    """
    cdef ArchState s

    def __cinit__(self):
        memset(&self.s, 0, sizeof(ArchState))

    # ------------------------------------------------------------ value semantics
    def clone(self):
        """An independent copy (a struct assignment)."""
        cdef State o = State.__new__(State)
        o.s = self.s
        return o

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def _bytes(self):
        return (<char*>&self.s)[:sizeof(ArchState)]

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self._bytes() == (<State>other)._bytes()

    def __hash__(self):
        return hash(self._bytes())

    def __reduce__(self):
        return (state_from_dict, (self.to_dict(),))

    def to_dict(self):
        """The position as JSON-ready data (:func:`state_from_dict` reads it back)."""
        return _to_dict(self)

    def __repr__(self):
        return (f"<architects.State {self.s.n_players} players, turn {self.s.turns}, "
                f"P{self.s.active + 1} to play, {self.phase}>")

    # ------------------------------------------------------------ the node
    @property
    def players(self):
        """Players (= seats), 2..7."""
        return self.s.n_players

    @property
    def phase(self):
        """What the node waits for: one of PHASES."""
        return PHASES[self.s.phase]

    @property
    def chance_kind(self):
        """At a chance node, which event (CHANCE_KINDS), else "none"."""
        return CHANCE_KINDS[self.s.chance] if self.s.phase == PH_CHANCE else "none"

    @property
    def active(self):
        """The seat whose turn it is."""
        return self.s.active

    @property
    def turns(self):
        """Turns begun so far (1 at the start)."""
        return self.s.turns

    @property
    def moves(self):
        """Decisions applied so far (automatic steps and chance outcomes not counted)."""
        return self.s.n_moves

    @property
    def explicit_chance(self):
        return bool(self.s.options & OP_EXPLICIT_CHANCE)

    @property
    def options(self):
        """The rule options (A-OPT) as keywords of :func:`new_state`."""
        return {k: (not (self.s.options & v)) if k == "economy_forces_build"
                else bool(self.s.options & v) for k, v in RULE_OPTIONS.items()}

    def current_player(self):
        """The active seat at a decision, CHANCE_PLAYER (-1) at a chance node,
        TERMINAL_PLAYER (-4) at the end."""
        if self.s.phase == PH_OVER:
            return TERMINAL_PLAYER
        if self.s.phase == PH_CHANCE:
            return CHANCE_PLAYER
        return self.s.active

    def is_chance_node(self):
        return self.s.phase == PH_CHANCE

    def is_terminal(self):
        return self.s.phase == PH_OVER

    def legal_actions(self):
        """The legal actions of the active seat, ascending and unique ([] at chance nodes and
        at the end)."""
        cdef int out[AR_MAX_LEGAL]
        cdef int n = ar_legal(&self.s, out)
        return [out[i] for i in range(n)]

    def chance_outcomes(self):
        """``[(action, probability)]`` at a chance node (A-CHANCE-1), else []."""
        cdef int out[AR_MAX_LEGAL]
        cdef double prob[AR_MAX_LEGAL]
        cdef int n = ar_chance_outcomes(&self.s, out, prob)
        return [(out[i], prob[i]) for i in range(n)]

    def apply_action(self, int a):
        """Apply a legal decision, or an outcome at a chance node, and walk on to the next
        node.  Raises IllegalActionError (a ValueError) and leaves the state unchanged
        otherwise."""
        cdef int out[AR_MAX_LEGAL]
        cdef double prob[AR_MAX_LEGAL]
        cdef int n, i
        if self.s.phase == PH_OVER:
            raise IllegalActionError(f"the game is over: no action is legal (not {a})")
        if self.s.phase == PH_CHANCE:
            n = ar_chance_outcomes(&self.s, out, prob)
            what = "chance outcome"
        else:
            n = ar_legal(&self.s, out)
            what = f"action of P{self.s.active + 1}"
        for i in range(n):
            if out[i] == a:
                break
        else:
            name = action_to_string(a) if 0 <= a < A_NUM_ACTIONS else "no action"
            raise IllegalActionError(f"{a} ({name}) is not a legal {what} at this "
                                     f"{PHASES[self.s.phase]} node")
        ar_apply(&self.s, a)

    def apply_actions(self, actions):
        """Apply several actions in order (each checked)."""
        for a in actions:
            self.apply_action(a)

    def action_to_string(self, int a):
        """The action's name, with the wonder's name for another seat's deck."""
        text = action_to_string(a)
        if A_DECK_BASE <= a < A_DECK_BASE + AR_CENTRAL and a - A_DECK_BASE < self.s.n_players:
            w = self.s.p[a - A_DECK_BASE].wonder
            if w < AR_NUM_WONDERS:
                text += f" ({WONDERS[w]})"
        return text

    def state_check(self):
        """0 if every invariant holds, else a code (:func:`check_message` names it)."""
        return ar_state_check(&self.s)

    # ------------------------------------------------------------ results (A-END)
    def scores(self):
        """Per seat, VP by category: {"wonder", "blue", "military", "cat", "progress",
        "total"} (A-END-3); meaningful at any time, final at the end."""
        cdef int vp[AR_MAX_SEATS * AR_NUM_CAT]
        ar_scores(&self.s, vp)
        return [{c: vp[i * AR_NUM_CAT + j] for j, c in enumerate(VP_CATEGORIES)}
                for i in range(self.s.n_players)]

    def winners(self):
        """The winning seats of a finished game (A-END-4: VP, then stages; a tie that
        remains is shared).  ValueError before the end."""
        if self.s.phase != PH_OVER:
            raise ValueError("the game is not over")
        return [i for i in range(self.s.n_players) if (self.s.winner_mask >> i) & 1]

    def returns(self):
        """Per seat: 1/k for each of k winners, 0 for the others (A-END-4); all 0 before
        the end."""
        if self.s.phase != PH_OVER:
            return [0.0] * self.s.n_players
        k = popcount(self.s.winner_mask)
        return [1.0 / k if (self.s.winner_mask >> i) & 1 else 0.0
                for i in range(self.s.n_players)]

    def ranking(self):
        """Place of each seat (1 = first) by (VP, stages), equal pairs sharing a place
        (A-END-5)."""
        keys = [(sc["total"], popcount(self.s.p[i].built))
                for i, sc in enumerate(self.scores())]
        return [1 + sum(k2 > k for k2 in keys) for k in keys]

    # ------------------------------------------------------------ the table (A-INFO-1)
    def _seat(self, int i):
        if not 0 <= i < self.s.n_players:
            raise ValueError(f"seat {i} is not a seat of this {self.s.n_players}-player game")

    def wonder(self, int i):
        """Seat i's wonder (None before it is dealt)."""
        self._seat(i)
        w = self.s.p[i].wonder
        return WONDERS[w] if w < AR_NUM_WONDERS else None

    def stages(self, int i):
        """Seat i's built stages, e.g. ["S1", "S2"]."""
        self._seat(i)
        return [STAGES[st] for st in range(5) if (self.s.p[i].built >> st) & 1]

    def available_stages(self, int i):
        """Seat i's available stages (A-BUILD-2)."""
        self._seat(i)
        m = available_stages(&self.s, i)
        return [STAGES[st] for st in range(5) if (m >> st) & 1]

    def tableau(self, int i):
        """Seat i's cards {kind: count} (A-CARD-6)."""
        self._seat(i)
        return _kind_dict(self.s.p[i].tab)

    def tokens(self, int i):
        """Seat i's progress tokens {type: count}."""
        self._seat(i)
        return _token_dict(self.s.p[i].tok)

    def military_tokens(self, int i):
        """Seat i's military victory tokens (3 VP each, A-MIL-7)."""
        self._seat(i)
        return self.s.p[i].mvt

    def shields(self, int i):
        """Seat i's shields (A-MIL-1)."""
        self._seat(i)
        return ar_shields(&self.s, i)

    @property
    def cat(self):
        """The cat's holder (None: the middle of the table)."""
        return None if self.s.cat == AR_NONE else self.s.cat

    def deck_of(self, int i):
        """Deck id of seat i's left deck, right deck and C: ``(i, i - 1 mod N, CENTRAL)``."""
        self._seat(i)
        return (i, right_deck(&self.s, i), AR_CENTRAL)

    def _deck(self, int d):
        if not (0 <= d < self.s.n_players or d == AR_CENTRAL):
            raise ValueError(f"deck {d} is not in play (0..{self.s.n_players - 1}, "
                             f"{AR_CENTRAL} central)")

    def deck_size(self, int d):
        """Cards in deck d (public, A-INFO-1)."""
        self._deck(d)
        return self.s.d[d].n

    def deck_top(self, int d):
        """The visible top of wonder deck d (None if empty or not yet revealed)."""
        self._deck(d)
        if d == AR_CENTRAL:
            raise ValueError("the central deck's top is face down: see central_top")
        t = self.s.d[d].top
        return None if t == AR_NONE else KINDS[t]

    def deck_cards(self, int d):
        """Deck d's make-up {kind: count}, top included (public: its start minus the cards
        seen leaving it, A-INFO-1)."""
        self._deck(d)
        v = _kind_dict(self.s.d[d].cnt)
        t = self.s.d[d].top
        if t != AR_NONE:
            v[KINDS[t]] = v.get(KINDS[t], 0) + 1
        return {k: v[k] for k in KINDS if k in v}

    def central_top(self, viewer=None):
        """The central deck's top as ``viewer`` (a seat) knows it: its kind if that seat
        looked at it as a cat holder while it stayed on top (A-CAT-4), else None.  ``viewer``
        None: the true state (the kind if any seat knows it)."""
        t = self.s.d[AR_CENTRAL].top
        if t == AR_NONE:
            return None
        if viewer is not None:
            self._seat(viewer)
            if not (self.s.knowers >> viewer) & 1:
                return None
        return KINDS[t]

    def knowers(self):
        """Seats that know the central top (A-CAT-4)."""
        return [i for i in range(self.s.n_players) if (self.s.knowers >> i) & 1]

    def row(self):
        """The face-up progress tokens {type: count}."""
        return _token_dict(self.s.row)

    def stack(self):
        """The stack's make-up {type: count} (public, A-INFO-1)."""
        return _token_dict(self.s.stack)

    def removed_tokens(self):
        """Tokens a study left out of the game {type: count}."""
        return _token_dict(self.s.gone)

    def discard(self):
        """The discard pile {kind: count} (A-SETUP-5)."""
        return _kind_dict(self.s.discard)

    def window(self):
        """The open Halicarnassus window {kind: count} (its player's private view,
        A-INFO-3)."""
        return _kind_dict(self.s.win)

    def pending(self):
        """The pending list of extra-card tokens, first first (A-ORDER-1.1)."""
        return [TOKENS[self.s.pend[i]] for i in range(self.s.n_pend)]

    def used(self):
        """Token types used this turn (A-TOK-2)."""
        return [TOKENS[t] for t in range(14) if (self.s.used >> t) & 1]

    def conflict(self):
        """``(tokens in play, turned to battle, battle pending)`` (A-MIL-2)."""
        return (self.s.conflict, self.s.turned, bool(self.s.battle))

    @property
    def task(self):
        return TASKS[self.s.task]

    @property
    def stage_choice(self):
        """The stage being paid (phase "pay"), else None."""
        return None if self.s.stage_sel == AR_NONE else STAGES[self.s.stage_sel]

    def payments(self, stage):
        """The valid payments of the active seat for ``stage`` ("S1".."S5") now, as payment
        ids (A-BUILD-3, -6), whatever the phase."""
        cdef int out[AR_MAX_LEGAL]
        st = STAGES.index(stage)
        n = payments(&self.s, st, out)
        return [out[i] for i in range(n)]

    def affordable(self, stage, economy=None):
        """A-BUILD-4 for the active seat: is ``stage`` affordable?  ``economy`` None: with
        Economy if it can act now; False: without it."""
        st = STAGES.index(stage)
        e = (1 if eco_ready(&self.s) else 0) if economy is None else (1 if economy else 0)
        return bool(affordable(&self.s, st, e))

    @property
    def rng(self):
        return self.s.rng


def new_state(players, seed=0, wonders=None, explicit_chance=False, free_order=False,
              economy_forces_build=True, engineering_once_per_turn=False,
              coins_only_when_needed=False, wonder_power_optional=False, removed_tokens=None):
    """A new game of 7 Wonders Architects (A-SETUP).

    Parameters
    ----------
    players : int
        2..7 (A-SETUP-1).
    seed : int
        0 .. 2**64 - 1: with the decisions it determines the whole game (A-CHANCE).
    wonders : None, or one entry per seat
        None (every wonder at random, distinct, A-SETUP-2) or a list of wonder names (any
        case) or None per seat: the given ones are dealt, the others drawn among the rest.
    explicit_chance : bool
        Show chance nodes to the caller with their exact probabilities instead of sampling.
    free_order, economy_forces_build, engineering_once_per_turn, coins_only_when_needed,
    wonder_power_optional : bool
        The rule options of A-OPT (defaults: the rules).
    removed_tokens : None or list of token names
        A study treatment, not a rule: every copy of these progress-token types is left out
        of the game (the stack holds the others).

    Raises
    ------
    ValueError
        A bad player count, seed, wonder (unknown, twice, list of the wrong length), option
        value or token name.
    """
    cdef State st = State.__new__(State)
    cdef int n, opts = 0, i
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
        raise ValueError(f"7 Wonders Architects is played by 2 to 7 players, not {players!r} "
                         f"(A-SETUP-1)")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
    flags = {"explicit_chance": explicit_chance, "free_order": free_order,
             "economy_forces_build": economy_forces_build,
             "engineering_once_per_turn": engineering_once_per_turn,
             "coins_only_when_needed": coins_only_when_needed,
             "wonder_power_optional": wonder_power_optional}
    for k, v in flags.items():
        if not isinstance(v, bool):
            raise ValueError(f"{k} must be True or False, not {v!r}")
    if explicit_chance:
        opts |= OP_EXPLICIT_CHANCE
    for k, bit in RULE_OPTIONS.items():
        if flags[k] != RULE_DEFAULTS[k]:
            opts |= bit
    n = players
    forced = [None] * n
    if wonders is not None:
        if isinstance(wonders, (str, bytes)) or not hasattr(wonders, "__len__"):
            raise ValueError(f"wonders must be a list with one entry per seat, not {wonders!r}")
        if len(wonders) != n:
            raise ValueError(f"wonders must give one entry per seat ({n}), not {len(wonders)}")
        for i, w in enumerate(wonders):
            if w is not None:
                forced[i] = resolve_wonder(w)
        named = [w for w in forced if w is not None]
        dup = sorted({w for w in named if named.count(w) > 1})
        if dup:
            raise ValueError(f"wonder {WONDERS[dup[0]]} is given to two seats (A-SETUP-2)")
    gone = [0] * 14
    for t in (removed_tokens or ()):
        gone[resolve_token(t)] = TOKEN_COPIES[resolve_token(t)]
    ar_init(&st.s, n, <u64>seed, opts)
    for i in range(n):
        st.s.forced[i] = AR_NONE if forced[i] is None else forced[i]
    for i in range(14):
        st.s.gone[i] = gone[i]
    ar_advance(&st.s)
    return st


def _close(word, names):
    import difflib
    hits = difflib.get_close_matches(str(word), list(names), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(h) for h in hits)}?)" if hits else ""


def resolve_wonder(name):
    """The wonder id of ``name`` (any case; "The Great Pyramid" style names too)."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < 7:
        return name
    if not isinstance(name, str):
        raise ValueError(f"a wonder is a name such as 'Giza', not {name!r}")
    key = name.strip().lower()
    for i, w in enumerate(WONDERS):
        if key == w.lower() or key.endswith(" " + w.lower()) or key.startswith(w.lower()):
            return i
    raise ValueError(f"unknown wonder {name!r}{_close(name.strip().title(), WONDERS)}; the "
                     f"wonders: {', '.join(WONDERS)}")


def resolve_token(name):
    """The progress-token type id of ``name`` (any case; "Jewelry" too)."""
    if not isinstance(name, str):
        raise ValueError(f"a progress token is a name such as 'Economy', not {name!r}")
    key = name.strip().lower()
    if key == "jewelry":
        key = "jewellery"
    for i, t in enumerate(TOKENS):
        if key == t.lower():
            return i
    raise ValueError(f"unknown progress token {name!r}{_close(name.strip().title(), TOKENS)}; "
                     f"the tokens: {', '.join(TOKENS)}")


def two_player_battle(int a, int b):
    """A-MIL-5: military victory tokens a 2-player seat with ``a`` shields takes against
    ``b`` (0 if a <= b; 2 if a >= 2 * max(b, 1); else 1)."""
    if a < 0 or b < 0:
        raise ValueError("shields are non-negative")
    return two_player_tokens(a, b)
