"""Helpers of the Architects tests: positions written in the game's words.

:func:`position` builds a consistent position (every card conserved, A-COMP-2) from what a
worked example states -- wonders, stages built, tableaux, tokens, deck tops, the face-up row,
conflict tokens, the cat -- with explicit chance, so that a test names every card drawn
(:func:`draw`) and every decision (:func:`do`).
"""
from __future__ import annotations

from duelcore.architects import data
from duelcore.architects import engine as core
from duelpy.architects import parse_action

KINDS = data.KINDS
TOKENS = data.TOKENS


def _counts(names) -> dict:
    out: dict = {}
    for x in names:
        out[x] = out.get(x, 0) + 1
    return out


def position(players=2, wonders=("Giza", "Rhodes"), active=0, stages=None, tableau=None,
             tokens=None, tops=None, row=("Decor", "Tactics", "Education"), turned=0,
             cat=None, central_top=None, knowers=(), mvt=None, used=(), sizes=None,
             central_size=None, unders=None, central_under=None, explicit=True,
             **options) -> core.State:
    """A position at ``active``'s main pick (A-TURN-3).

    ``stages``, ``tableau`` (a list of kinds), ``tokens`` (a list of token names), ``mvt``:
    dicts by seat.  ``tops``: {deck: kind} for wonder decks (default: every deck shows a
    ``blue3``); ``sizes``: {deck: cards} (default 10); ``central_size`` (default 40, the rest
    is discarded); ``unders``: {deck: {kind: n}} the exact cards under a wonder deck's top;
    ``central_under``: the exact cards of C under its top; ``central_top`` with ``knowers``:
    a central top a cat holder looked at.
    ``row``: the face-up tokens; the stack holds the others not owned.  ``options``: rule
    options of new_state.
    """
    stages, tableau, tokens = stages or {}, tableau or {}, tokens or {}
    tops, mvt, sizes, unders = tops or {}, mvt or {}, sizes or {}, unders or {}
    wonders = list(wonders)
    assert len(wonders) == players
    base = core.new_state(players, 0, wonders=wonders, explicit_chance=explicit, **options)
    d = base.to_dict()
    if not explicit:
        d["options"]["explicit_chance"] = False
    # cards: everything not in a tableau or on a top goes to the decks, then the discard
    pool = [0] * 14
    for w in wonders:
        for k in range(14):
            pool[k] += data.DECKS[w][k]
    for k in range(14):
        pool[k] += data.CENTRAL[k]

    def take(kind, n=1):
        k = KINDS.index(kind)
        assert pool[k] >= n, f"no {kind} left"
        pool[k] -= n

    for i in range(players):
        for kind in tableau.get(i, ()):
            take(kind)
    tops_all = {i: tops.get(i, "blue3") for i in range(players)}
    for i, t in tops_all.items():
        if t is not None:
            take(t)
    if central_top is not None:
        take(central_top)
    for i, u in unders.items():
        for kind, c in u.items():
            take(kind, c)
    if central_under is not None:
        for kind, c in central_under.items():
            take(kind, c)
    decks = []
    for i in range(players):
        if i in unders:
            decks.append({"top": tops_all[i], "under": dict(unders[i])})
            continue
        want = sizes.get(i, 10) - (tops_all[i] is not None)
        under = {}
        for k in range(14):
            while want > 0 and pool[k] > 0 and under.get(KINDS[k], 0) < data.DECKS[wonders[i]][k]:
                under[KINDS[k]] = under.get(KINDS[k], 0) + 1
                pool[k] -= 1
                want -= 1
        assert want == 0, "not enough cards for the deck sizes"
        decks.append({"top": tops_all[i], "under": under})
    want = (40 if central_size is None else central_size) - (central_top is not None)
    central = {}
    if central_under is not None:
        central, want = dict(central_under), 0
    k = 0
    while want > 0:
        if pool[k] > 0:
            central[KINDS[k]] = central.get(KINDS[k], 0) + 1
            pool[k] -= 1
            want -= 1
        k = (k + 1) % 14
    d["decks"] = decks
    d["central"] = {"top": central_top, "knowers": list(knowers), "under": central}
    d["discard"] = {KINDS[k]: pool[k] for k in range(14) if pool[k]}
    owned = []
    for i in range(players):
        owned += list(tokens.get(i, ()))
    stack = {t: data.TOKEN_COPIES[t] for t in TOKENS}
    for t in list(owned) + list(row):
        stack[t] -= 1
        assert stack[t] >= 0, t
    d["row"] = _counts(row)
    d["stack"] = {t: c for t, c in stack.items() if c}
    for i in range(players):
        seat = d["seats"][i]
        seat["stages"] = list(stages.get(i, ()))
        seat["tableau"] = _counts(tableau.get(i, ()))
        seat["tokens"] = _counts(tokens.get(i, ()))
        seat["military_tokens"] = mvt.get(i, 0)
    d["active"] = active
    d["phase"] = "main"
    d["task"] = "main"
    d["draw"] = "none"
    d["used"] = list(used)
    d["conflict"] = {"turned": turned, "battle": False}
    d["cat"] = cat
    return core.state_from_dict(d)


def do(state, *texts) -> None:
    """Apply decisions by name (each must be legal)."""
    for t in texts:
        state.apply_action(parse_action(state, t))


def draw(state, *kinds) -> None:
    """Apply chance outcomes: card kinds (a draw or a reveal), or token names."""
    for k in kinds:
        assert state.is_chance_node(), (state.phase, k)
        if k in KINDS:
            state.apply_action(core.ACTION_LAYOUT["CH_KIND_BASE"] + KINDS.index(k))
        else:
            state.apply_action(core.ACTION_LAYOUT["CH_TOKEN_BASE"] + TOKENS.index(k))


def reveal_any(state) -> None:
    """Resolve chance nodes that reveal wonder-deck tops or refill the token row (their
    outcome does not matter to the example): the first outcome each time."""
    while state.is_chance_node() and state.chance_kind in ("top", "row"):
        state.apply_action(state.chance_outcomes()[0][0])


def names(state) -> list[str]:
    """The names of the legal decisions."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def chance_table(state) -> dict:
    """{outcome name: probability} at a chance node."""
    return {core.action_to_string(a).split(" ", 1)[1].replace("drawn ", ""): p
            for a, p in state.chance_outcomes()}
