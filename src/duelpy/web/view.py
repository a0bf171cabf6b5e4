"""A position as the browser sees it: JSON-safe data asked of the core, nothing computed here
that the core knows (costs, legality, VP, what a move does).

:func:`board_view` is the one function the web app sends to the page for a position;
:func:`catalogue` describes every card, wonder and progress token once (their printed text).

Hidden information is left out (R-CHANCE): the state's chance RNG is never sent, face-down
cards are not in the state at all, and the Great Library's offer is shown only to the player
choosing from it (unless ``reveal=True``, as in the replay of a finished game).
"""
from __future__ import annotations

from typing import Any

from duelcore import ACTION_LAYOUT as L, State, data

from duelpy.duel.notation import NUM_DECISION_ACTIONS, action_name
from duelpy.duel.render import slot_positions

__all__ = ["board_view", "catalogue", "move_effect", "price_text", "PLAYERS", "rule_events",
           "touched", "cost_items", "VP_NAMES"]

PLAYERS = ("P1", "P2")
ROMAN = ("", "I", "II", "III")
N_CARDS = len(data.CARDS)

_PHASE_TEXT = {
    "draft": "pick a wonder",
    "play": "take an available card: build it, discard it for coins, or build a wonder with it",
    "choose_token": "choose a progress token from the board (a pair of science symbols)",
    "destroy": "choose a card of the opponent's city to put in the discard pile",
    "revive": "choose a card of the discard pile to build for free (The Mausoleum)",
    "library": "keep one of the progress tokens drawn by The Great Library",
    "choose_start": "choose who begins the next Age",
    "over": "the game is over",
}

_NEXT_TEXT = {                 # what the same player does next, in a few words
    "draft": "pick again", "choose_token": "choose a progress token",
    "destroy": "choose a card to destroy", "revive": "build a card from the discard pile",
    "library": "keep a Great Library token", "choose_start": "choose who begins the next Age",
}


#: The score sheet's rows, in the rulebook's words (the core's category keys -> names).
VP_NAMES = {"blue": "Civilian buildings (blue)", "green": "Scientific buildings (green)",
            "yellow": "Commercial buildings (yellow)", "purple": "Guilds (purple)",
            "wonders": "Wonders", "tokens": "Progress tokens", "coins": "Treasury (1 VP per 3 coins)",
            "military": "Military"}


# ---------------------------------------------------------------- faces: cost and effect items
def cost_items(text: str) -> dict:
    """A printed cost (``"3 stone, 1 papyrus"``, ``"2 coins"``, ``""``) as the card face draws
    it: ``{"coins": n, "res": [[resource, units], ...]}``."""
    coins, res = 0, []
    for part in filter(None, (p.strip() for p in str(text or "").split(","))):
        n, _, what = part.partition(" ")
        if not n.isdigit():
            continue
        if what in ("coin", "coins"):
            coins += int(n)
        else:
            res.append([what, int(n)])
    return {"coins": coins, "res": res}


def _printed(obj, table: dict) -> list:
    """Apply ``table`` (printed field -> formatter, in the order the face shows them) to the
    fields of a card or wonder that are set; formatters returning None are skipped."""
    out = [fmt(getattr(obj, field)) for field, fmt in table.items() if getattr(obj, field)]
    return [x for x in out if x is not None]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n > 1)}"


def _coins_per_text(v: tuple) -> str:
    what, n = v
    text = f"take {_plural(n, 'coin')} per {what.replace('_', '/')}"
    return text + (" card" if what != "wonder" else "") + " in your city"


_GUILD_ICON = {"coins": "3 coins", "brown_grey": "brown+grey", "wonder": "wonder"}
_GUILD_TEXT = {"coins": "3 coins", "brown_grey": "brown and grey card", "wonder": "wonder"}
_WONDER_ACTION_ICON = {"destroy_brown": "destroy brown", "destroy_grey": "destroy grey",
                       "revive": "build from discard", "library": "3 tokens, keep 1"}
_WONDER_ACTION_TEXT = {"destroy_brown": "put a brown card of the opponent in the discard pile",
                       "destroy_grey": "put a grey card of the opponent in the discard pile",
                       "revive": "build a card of the discard pile for free",
                       "library": "draw 3 progress tokens set aside and keep one"}

# the face's icons: small dicts, ``t`` the kind (res, choice, trade, shield, sci, coin, vp,
# text, again)
_CARD_ICONS = {
    "produces": lambda v: {"t": "res", "r": v.partition(" ")[2], "n": int(v.partition(" ")[0])},
    "choice": lambda v: {"t": "choice", "r": list(v)},
    "trade_one": lambda v: {"t": "trade", "r": list(v)},
    "shields": lambda v: {"t": "shield", "n": v},
    "symbol": lambda v: {"t": "sci", "s": v},
    "coins": lambda v: {"t": "coin", "n": v},
    "coins_per": lambda v: {"t": "text", "s": f"{v[1]}◉ per {v[0].replace('_', '/')}"},
    "guild": lambda v: {"t": "text", "s": f"guild: {_GUILD_ICON.get(v, v)}"},
    "vp": lambda v: {"t": "vp", "n": v},
}
_WONDER_ICONS = {
    "choice": _CARD_ICONS["choice"], "shields": _CARD_ICONS["shields"],
    "coins": _CARD_ICONS["coins"],
    "opponent_loses": lambda v: {"t": "text", "s": f"opponent −{v}◉"},
    "action": lambda v: ({"t": "text", "s": _WONDER_ACTION_ICON[v]}
                         if v in _WONDER_ACTION_ICON else None),
    "play_again": lambda v: {"t": "again"},
    "vp": _CARD_ICONS["vp"],
}
# the game's words, from the printed fields (duelcore.data)
_CARD_TEXTS = {
    "produces": lambda v: f"produces {v}",
    "choice": lambda v: "produces 1 of " + " / ".join(v) + " each turn",
    "trade_one": lambda v: "buy " + " and ".join(v) + " for 1 coin each",
    "shields": lambda v: _plural(v, "shield"),
    "symbol": lambda v: f"science symbol: {v.replace('_', ' ')}",
    "coins": lambda v: f"take {v} coins",
    "coins_per": _coins_per_text,
    "guild": lambda v: ("guild: counts each "
                        f"{_GUILD_TEXT.get(v, f'{v} card')} in the city that has the most"),
    "vp": lambda v: f"{v} VP",
    "chain_from": lambda v: f"free with the {v} chain symbol",
    "chain_gives": lambda v: f"shows the {v} chain symbol",
}
_WONDER_TEXTS = {
    "coins": _CARD_TEXTS["coins"],
    "opponent_loses": lambda v: f"the opponent loses {v} coins",
    "shields": _CARD_TEXTS["shields"], "choice": _CARD_TEXTS["choice"],
    "action": _WONDER_ACTION_TEXT.get,
    "play_again": lambda v: "Play Again",
    "vp": _CARD_TEXTS["vp"],
}


def _card_items(card) -> list:
    """What a Duel card does, as the face's icons (see ``_CARD_ICONS``)."""
    return _printed(card, _CARD_ICONS)


def _wonder_items(w) -> list:
    return _printed(w, _WONDER_ICONS)


# ---------------------------------------------------------------- printed text
def _card_text(card) -> str:
    """What a card does, in the game's words, from its printed fields (duelcore.data)."""
    return "; ".join(_printed(card, _CARD_TEXTS)) or "no effect"


def _wonder_text(w) -> str:
    return "; ".join(_printed(w, _WONDER_TEXTS))


def catalogue() -> dict:
    """Every card, wonder and progress token with its printed text (for tooltips).

    Returns ``{"cards": {name: {...}}, "wonders": {name: {...}}, "tokens": {name: text},
    "colours": [...], "resources": [...], "symbols": [...], "first_game_wonders": [[...], [...]]}``.
    """
    cards = {c.name: {"age": c.age, "colour": c.colour, "cost": c.cost or "free",
                      "vp": c.vp, "text": _card_text(c), "guild": c.colour == "purple",
                      "price": cost_items(c.cost), "items": _card_items(c),
                      "chain_from": c.chain_from, "chain_gives": c.chain_gives}
             for c in data.CARDS}
    wonders = {w.name: {"cost": w.cost, "vp": w.vp, "text": _wonder_text(w),
                        "price": cost_items(w.cost), "items": _wonder_items(w)}
               for w in data.WONDERS}
    return {"cards": cards, "wonders": wonders,
            "tokens": {t.name: t.text for t in data.TOKENS},
            "colours": list(data.COLOURS), "resources": list(data.RESOURCES),
            "symbols": list(data.SYMBOLS),
            "first_game_wonders": [list(ws) for ws in data.FIRST_GAME_WONDERS],
            "wonder_names": list(data.WONDER_NAMES), "token_names": list(data.TOKEN_NAMES),
            "vp_names": VP_NAMES}


# ---------------------------------------------------------------- asking the core
def _mover(state: State):
    p = state.current_player()
    return p if p in (0, 1) else None


def _coins(n: int) -> str:
    return f"{n} coin{'s' * (n != 1)}"


def price_text(breakdown: dict, chain_from: str | None = None) -> str:
    """A price from :meth:`duelcore.State.trade_breakdown` in words (R-BUILD-2, R-TRADE).

    ``"5 coins = 1 clay × 3 + 1 papyrus × 2"`` (units of a resource × coins per unit),
    ``"4 coins = 1 printed + 1 stone × 3"``, ``"2 coins (printed)"``, ``"free (chain from
    Baths)"`` (``chain_from``: the card of the city that shows the chain symbol), ``"free"``.
    """
    if breakdown["chain"]:
        return f"free (chain from {chain_from})" if chain_from else "free (chain)"
    total = breakdown["total"]
    if total == 0:
        return "free"
    if not breakdown["buy"]:
        return f"{_coins(total)} (printed)"
    parts = [f"{breakdown['coins']} printed"] if breakdown["coins"] else []
    parts += [f"{row['units']} {row['resource']} × {row['price']}" for row in breakdown["buy"]]
    return f"{_coins(total)} = " + " + ".join(parts)


def _chain_from(state: State, p: int, card: int) -> str | None:
    """The card of p's city showing the chain symbol ``card`` needs (printed data only: the
    core has said that the build is a chain)."""
    symbol = data.CARDS[card].chain_from
    for own in state.city(p):
        if symbol and data.CARDS[own].chain_gives == symbol:
            return data.CARDS[own].name
    return None


def _price(state: State, p: int, card: int) -> dict:
    """A card's price for player p: :meth:`State.trade_breakdown` as the core gives it
    (``chain``, ``coins`` printed, ``total``, ``traded``, ``buy``), with ``chain_from``,
    ``text`` (:func:`price_text`), ``affordable`` and ``needs`` (the printed cost)."""
    b = state.trade_breakdown(p, card)
    chain = _chain_from(state, p, card) if b["chain"] else None
    return {**b, "chain_from": chain, "text": price_text(b, chain),
            "affordable": b["total"] <= state.coins(p), "needs": data.CARDS[card].cost or "free"}


def _wonder_price(state: State, p: int, w: int) -> dict:
    """A wonder's price for player p, as :func:`_price` (``chain`` is always False)."""
    b = state.trade_breakdown(p, w, wonder=True)
    return {**b, "chain_from": None, "text": price_text(b),
            "affordable": b["total"] <= state.coins(p), "needs": data.WONDERS[w].cost}


def move_effect(state: State, action: int) -> dict:
    """What a legal decision would do, found by applying it to a copy of ``state``.

    Returns ``{"coins": Δ coins of the mover, "opp_coins": Δ of the opponent, "vp": Δ current
    VP of the mover, "opp_vp": Δ of the opponent, "pawn": spaces toward the opponent's capital,
    "next": what comes next (e.g. "Play Again", "choose a progress token"), "ends": result or
    None}``.  Only public quantities are compared, so no hidden card is revealed.
    """
    p = state.current_player()
    q = 1 - p
    after = state.clone()
    after.apply_action(action)
    vp0, vp1 = state.vp(), after.vp()
    tot = lambda v, k: sum(x[k] for x in v.values())   # noqa: E731
    toward = 1 if p == 0 else -1
    out = {"coins": after.coins(p) - state.coins(p), "opp_coins": after.coins(q) - state.coins(q),
           "vp": tot(vp1, p) - tot(vp0, p), "opp_vp": tot(vp1, q) - tot(vp0, q),
           "pawn": (after.pawn - state.pawn) * toward, "next": None, "ends": None}
    if after.is_terminal():
        res = after.result()
        out["ends"] = {"winner": res["winner"], "victory": res["victory"],
                       "total": res["total"]}
    elif after.current_player() == p:
        if after.phase == "play":
            out["next"] = "Play Again" if after.replay else "move again"
        else:
            out["next"] = _NEXT_TEXT.get(after.phase, after.phase.replace("_", " "))
    return out


def _decision_kind(a: int) -> tuple[str, int]:
    """(kind, object id) of a decision action id, from the core's action layout."""
    for kind, base, end in (("pick", L["DRAFT_BASE"], L["BUILD_BASE"]),
                            ("build", L["BUILD_BASE"], L["DISCARD_BASE"]),
                            ("discard", L["DISCARD_BASE"], L["WONDER_BASE"]),
                            ("wonder", L["WONDER_BASE"], L["TOKEN_BASE"]),
                            ("token", L["TOKEN_BASE"], L["DESTROY_BASE"]),
                            ("destroy", L["DESTROY_BASE"], L["REVIVE_BASE"]),
                            ("revive", L["REVIVE_BASE"], L["START_BASE"]),
                            ("start", L["START_BASE"], NUM_DECISION_ACTIONS)):
        if base <= a < end:
            return kind, a - base
    return "chance", a


def _guild_slots(state: State, layout: list) -> set:
    """Slots holding a guild back: the core's ``guild_slots()`` or ``"face_down_guild"``
    entries, whichever this core has (both, once guild backs are public: R-CHANCE-2)."""
    slots = {s for s, e in enumerate(layout) if e == "face_down_guild"}
    if hasattr(state, "guild_slots"):
        slots |= set(state.guild_slots())
    return slots


def _layout(state: State, d: dict, mover, moves_by_card: dict) -> list | None:
    if not state.age or not d["layout"]:
        return None
    lay = data.LAYOUTS[state.age - 1]
    xs = slot_positions(state.age)
    lo = min(xs)
    row_of = []
    for r, n in enumerate(lay.rows):
        row_of += [r] * n
    avail = set(state.available_cards())
    guilds = _guild_slots(state, d["layout"])
    out = []
    for s, entry in enumerate(d["layout"]):
        slot: dict[str, Any] = {"slot": s, "row": row_of[s], "x": xs[s] - lo, "card": None, "face": "taken",
                "available": False}
        if entry is None:
            pass
        elif entry in ("face_down", "face_down_guild"):
            slot["face"] = "guild_back" if s in guilds else "back"
            slot["back"] = "guild" if s in guilds else f"age{state.age}"
        else:
            c = data.CARD_NAMES.index(entry)
            slot.update(face="up", card=entry, colour=data.CARDS[c].colour,
                        available=c in avail)
            if c in avail and mover is not None and state.phase == "play":
                slot["price"] = _price(state, mover, c)
                slot["moves"] = moves_by_card.get(c, [])
                build = L["BUILD_BASE"] + c
                if not any(m["kind"] == "build" for m in slot["moves"]):
                    slot["why_not_build"] = state.why_illegal(build)
        out.append(slot)
    return out


def _player(state: State, q: int, d: dict, mover, vp: dict) -> dict:
    pd_ = d["players"][q]
    by_colour: dict[str, list] = {colour: [] for colour in data.COLOURS}
    for name in pd_["city"]:
        by_colour[data.CARDS[data.CARD_NAMES.index(name)].colour].append(name)
    wonders = []
    for w in pd_["wonders"]:
        entry = dict(w)
        if not w["built"] and q == mover and state.age and state.phase == "play":
            entry["price"] = _wonder_price(state, q, data.WONDER_NAMES.index(w["name"]))
        wonders.append(entry)
    return {
        "name": PLAYERS[q], "coins": pd_["coins"],
        "vp": {k: v[q] for k, v in vp.items()}, "total": sum(v[q] for v in vp.values()),
        "city": by_colour, "n_cards": len(pd_["city"]),
        "production": dict(zip(data.RESOURCES, state.production(q))),
        "science": {s: n for s, n in zip(data.SYMBOLS, state.science_symbols(q)) if n},
        "tokens": pd_["progress_tokens"], "wonders": wonders,
    }


def board_view(state: State, *, viewer=None, reveal: bool = False, moves: bool = True) -> dict:
    """The position as JSON-safe data for the page.

    Parameters
    ----------
    state : duelcore.State
    viewer : 0, 1 or None
        The seat of the person looking (their moves, prices and effects are included when it
        is their turn); None: a spectator or replay, who sees the mover's moves and prices.
    reveal : bool
        Show the Great Library's offer even to a player who is not choosing (replays).
    moves : bool
        Include the legal moves (with names, notes and effects) of the player to move.

    Returns
    -------
    dict
        ``age``, ``phase``, ``to_move`` ("P1", "P2", "chance" or None when over),
        ``pending`` (text), ``play_again``, ``layout`` (20 slots: ``row``, ``x`` in card
        widths, ``face`` taken/back/guild_back/up, ``card``, ``available``, and for the mover
        ``price`` and ``moves``), ``players`` (coins, VP by category and total, city by
        colour, production, science, tokens, wonders with a ``price`` for the mover's unbuilt
        ones), ``military`` (pawn, tokens left on each side), ``board_tokens``,
        ``discard_pile``, ``draft``, ``library_offer``, ``moves`` (list of {id, name, kind,
        object, note, effect}) and ``result`` (``State.result()`` when the game is over).
        A ``price`` is :meth:`State.trade_breakdown` (``chain``, ``coins`` printed,
        ``total`` coins paid, ``traded``, ``buy`` [{resource, units, price}]) with
        ``chain_from`` (the city's card that gives the chain, or None), ``text`` (see
        :func:`price_text`), ``affordable`` and ``needs`` (the printed cost).
    """
    if not isinstance(state, State):
        raise TypeError(f"board_view needs a duelcore State, not {type(state).__name__}")
    d = state.to_dict()
    d.pop("rng", None)                                   # hidden: the chance RNG
    mover = _mover(state)
    vp = state.vp()
    mine = mover is not None and (viewer is None or viewer == mover)
    legal = []
    if moves and mine and not state.is_terminal():
        for a in state.legal_actions():
            kind, obj = _decision_kind(a)
            m = {"id": a, "name": action_name(a), "kind": kind}
            m.update(_named_objects(kind, obj, "player"))
            m["effect"] = move_effect(state, a)
            m["note"] = _note(state, mover, kind, obj)
            legal.append(m)
    moves_by_card: dict = {}
    for m in legal:
        if m["kind"] in ("build", "discard", "wonder"):
            moves_by_card.setdefault(data.CARD_NAMES.index(m["card"]), []).append(m)
    phase = state.phase
    pending = _PHASE_TEXT.get(phase, f"chance: {phase.replace('_', ' ')}")
    if phase == "destroy":
        pending = (f"choose a {d['destroy_colour']} card of {PLAYERS[1 - mover]}'s city to "
                   f"put in the discard pile")
    elif phase == "choose_start":
        pending = f"choose who begins Age {ROMAN[state.age]}"
    show_library = phase == "library" and (reveal or viewer is None or viewer == mover)
    view = {
        "age": state.age, "age_name": f"Age {ROMAN[state.age]}" if state.age else "Wonder draft",
        "phase": phase, "to_move": (PLAYERS[mover] if mover is not None else
                                    (None if state.is_terminal() else "chance")),
        "mover": mover, "pending": pending, "play_again": bool(state.replay and phase == "play"),
        "n_decisions": state.n_decisions,
        "layout": _layout(state, d, mover if mine else None, moves_by_card),
        "players": [_player(state, q, d, mover if mine else None, vp) for q in (0, 1)],
        "military": {"pawn": state.pawn, "capital": data.CAPITAL,
                     "tokens": d["military_tokens"],
                     "zones": [list(z) for z in data.MILITARY_TOKENS],
                     "vp_zones": [list(z) for z in data.MILITARY_VP],
                     "vp": vp["military"]},
        "board_tokens": d["board_tokens"],
        "discard_pile": d["discard_pile"],
        "draft": d["draft"],
        "library_offer": d["library_offer"] if show_library else [],
        "destroy_colour": d["destroy_colour"] if phase == "destroy" else None,
        "moves": legal,
        "result": None,
    }
    if state.is_terminal():
        res = state.result()
        view["result"] = {"winner": res["winner"], "victory": res["victory"],
                          "vp": res["vp"], "total": res["total"]}
    return view


def _named_objects(kind: str, obj: int, start_key: str) -> dict:
    """The names a decision of this kind refers to: ``card``, ``wonder``, ``token``, or the
    player who begins the next Age under ``start_key`` (only the keys that apply)."""
    if kind in ("build", "discard", "destroy", "revive"):
        return {"card": data.CARDS[obj].name}
    if kind == "wonder":
        w, c = divmod(obj, N_CARDS)
        return {"wonder": data.WONDER_NAMES[w], "card": data.CARDS[c].name}
    if kind == "pick":
        return {"wonder": data.WONDER_NAMES[obj]}
    if kind == "token":
        return {"token": data.TOKEN_NAMES[obj]}
    if kind == "start":
        return {start_key: PLAYERS[obj]}
    return {}


def _note(state: State, p: int, kind: str, obj: int) -> str:
    """Cost or gain of a decision for the player to move (asked of the State)."""
    if kind == "build":
        b = state.trade_breakdown(p, obj)
        return price_text(b, _chain_from(state, p, obj) if b["chain"] else None)
    if kind == "wonder":
        return price_text(state.trade_breakdown(p, obj // N_CARDS, wonder=True))
    if kind == "discard":
        return f"+{state.discard_value(p)} coins"
    return ""



# ---------------------------------------------------------------- what a move did
def touched(before: State, action: int) -> dict | None:
    """What a decision took, built or destroyed, for the page to highlight a moment:
    ``{"kind": ..., "card": name, "wonder": name, "token": name, "player": "P1"/"P2"}``
    (only the keys that apply), or None for a chance outcome."""
    p = before.current_player()
    kind, obj = _decision_kind(action)
    if kind == "chance" or p not in (0, 1):
        return None
    out = {"kind": kind, "player": PLAYERS[1 - p] if kind == "destroy" else PLAYERS[p]}
    out.update(_named_objects(kind, obj, "starts"))   # destroy: the city that lost the card
    return out


def rule_events(before: State, after: State, action: int) -> list[str]:
    """What the rules did on their own after a decision (the page's log shows each): a
    wonder given automatically at the end of a draft round, the eighth wonder leaving the
    game, military tokens looted, a new Age dealt, the Age's first player, Play Again, the
    end of the game.  Found by comparing the two positions' public data only."""
    d0, d1 = before.to_dict(), after.to_dict()
    p = before.current_player()
    kind, obj = _decision_kind(action)
    picked = data.WONDER_NAMES[obj] if kind == "pick" else None
    out = []
    for q in (0, 1):
        w0 = {w["name"] for w in d0["players"][q]["wonders"]}
        w1 = {w["name"] for w in d1["players"][q]["wonders"]}
        for name in sorted(w1 - w0 - {picked}):
            out.append(f"{PLAYERS[q]} takes {name} automatically: the last wonder of the "
                       f"draft round")
        for name in sorted(w0 - w1):
            out.append(f"{name} of {PLAYERS[q]} leaves the game: only seven wonders can be "
                       f"built")
    if d1["draft"]["offer"] and d1["draft"]["picks"] == 4 and d0["draft"]["picks"] < 4:
        out.append("the second draft round: " + ", ".join(d1["draft"]["offer"]) + " are dealt")
    for q in (0, 1):
        lost = [t for t in d0["military_tokens"][q] if t not in d1["military_tokens"][q]]
        for t in lost:
            out.append(f"the Conflict pawn reaches a military token: {PLAYERS[q]} loses {t} "
                       f"coins (or all they have) and the token leaves the board")
    if after.age != before.age and after.age:
        out.append(f"Age {ROMAN[after.age]} begins: its cards are dealt")
    if after.phase == "choose_start" and before.phase != "choose_start":
        chooser = after.current_player()
        if chooser in (0, 1):
            out.append(f"{PLAYERS[chooser]} chooses who begins the next Age (the weaker "
                       f"military, or the last player)")
    if (before.age and after.age and after.age != before.age and kind != "start"
            and after.phase != "choose_start" and after.current_player() in (0, 1)):
        out.append(f"{PLAYERS[after.current_player()]} begins Age {ROMAN[after.age]}")
    if after.replay and after.phase == "play" and p == after.current_player() and kind == "wonder":
        out.append(f"{PLAYERS[p]} plays again (the wonder's Play Again)")
    if after.is_terminal():
        res = after.result()
        w = res["winner"]
        out.append("the game ends: " + ("a shared victory" if w is None else
                                         f"{PLAYERS[w]} wins ({res['victory']} victory)"))
    return out
