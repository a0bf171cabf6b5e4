"""Helpers of the random-play and API tests (``tests/test_random_play.py``, ``tests/test_api.py``).

The facts the checks need (each card's Age, colour, VP and science symbol; wonder VP; the Age
layouts) are written here from ``RULES.md`` (*Components*, *Age layouts*), not read from
``duelcore.data``, which is what is under test.  Only names are mapped to the engine's ids.

The checks are written against the public API only (``to_dict``, ``legal_actions``, ...): each
``check_*`` function raises ``AssertionError`` with a readable message.  :class:`Failures`
collects the first failure of each kind over many games, with a repro, so that one broken
invariant does not hide the others.
"""
from __future__ import annotations

import math
import pickle
import random
from collections import Counter, defaultdict

import duelcore
from duelcore import IllegalActionError, new_game, state_from_dict

L = duelcore.ACTION_LAYOUT
NUM_ACTIONS = L["NUM_ACTIONS"]
NUM_DECISION_ACTIONS = L["NUM_DECISION_ACTIONS"]
assert NUM_ACTIONS == 1309
#: layout entries of a face-down slot: an Age back, or a guild back (Age III, R-CHANCE-2)
FACE_DOWN = ("face_down", "face_down_guild")

# ---------------------------------------------------------------- components (RULES.md)
#: (name, Age, colour, VP, science symbol) of the 73 cards, in the engine's id order.
CARDS = (
    ("Lumber Yard", 1, "brown", 0, ""), ("Stone Pit", 1, "brown", 0, ""),
    ("Clay Pool", 1, "brown", 0, ""), ("Logging Camp", 1, "brown", 0, ""),
    ("Quarry", 1, "brown", 0, ""), ("Clay Pit", 1, "brown", 0, ""),
    ("Glassworks", 1, "grey", 0, ""), ("Press", 1, "grey", 0, ""),
    ("Theater", 1, "blue", 3, ""), ("Altar", 1, "blue", 3, ""), ("Baths", 1, "blue", 3, ""),
    ("Scriptorium", 1, "green", 0, "quill"), ("Workshop", 1, "green", 1, "set_square"),
    ("Pharmacist", 1, "green", 0, "mortar"), ("Apothecary", 1, "green", 1, "wheel"),
    ("Tavern", 1, "yellow", 0, ""), ("Stone Reserve", 1, "yellow", 0, ""),
    ("Clay Reserve", 1, "yellow", 0, ""), ("Wood Reserve", 1, "yellow", 0, ""),
    ("Stable", 1, "red", 0, ""), ("Garrison", 1, "red", 0, ""), ("Palisade", 1, "red", 0, ""),
    ("Guard Tower", 1, "red", 0, ""),
    ("Sawmill", 2, "brown", 0, ""), ("Shelf Quarry", 2, "brown", 0, ""),
    ("Brickyard", 2, "brown", 0, ""), ("Glass-Blower", 2, "grey", 0, ""),
    ("Drying Room", 2, "grey", 0, ""), ("Temple", 2, "blue", 4, ""),
    ("Statue", 2, "blue", 4, ""), ("Courthouse", 2, "blue", 5, ""),
    ("Aqueduct", 2, "blue", 5, ""), ("Rostrum", 2, "blue", 4, ""),
    ("School", 2, "green", 1, "wheel"), ("Laboratory", 2, "green", 1, "set_square"),
    ("Dispensary", 2, "green", 2, "mortar"), ("Library", 2, "green", 2, "quill"),
    ("Brewery", 2, "yellow", 0, ""), ("Forum", 2, "yellow", 0, ""),
    ("Caravansery", 2, "yellow", 0, ""), ("Customs House", 2, "yellow", 0, ""),
    ("Horse Breeders", 2, "red", 0, ""), ("Barracks", 2, "red", 0, ""),
    ("Walls", 2, "red", 0, ""), ("Archery Range", 2, "red", 0, ""),
    ("Parade Ground", 2, "red", 0, ""),
    ("Palace", 3, "blue", 7, ""), ("Gardens", 3, "blue", 6, ""), ("Pantheon", 3, "blue", 6, ""),
    ("Town Hall", 3, "blue", 7, ""), ("Senate", 3, "blue", 5, ""), ("Obelisk", 3, "blue", 5, ""),
    ("Academy", 3, "green", 3, "sundial"), ("University", 3, "green", 2, "globe"),
    ("Study", 3, "green", 3, "sundial"), ("Observatory", 3, "green", 2, "globe"),
    ("Arena", 3, "yellow", 3, ""), ("Chamber of Commerce", 3, "yellow", 3, ""),
    ("Port", 3, "yellow", 3, ""), ("Lighthouse", 3, "yellow", 3, ""),
    ("Armory", 3, "yellow", 3, ""),
    ("Circus", 3, "red", 0, ""), ("Arsenal", 3, "red", 0, ""),
    ("Siege Workshop", 3, "red", 0, ""), ("Fortifications", 3, "red", 0, ""),
    ("Pretorium", 3, "red", 0, ""),
    ("Merchants Guild", 3, "purple", 0, ""), ("Shipowners Guild", 3, "purple", 0, ""),
    ("Builders Guild", 3, "purple", 0, ""), ("Magistrates Guild", 3, "purple", 0, ""),
    ("Scientists Guild", 3, "purple", 0, ""), ("Moneylenders Guild", 3, "purple", 0, ""),
    ("Tacticians Guild", 3, "purple", 0, ""),
)
CARD_NAMES = tuple(c[0] for c in CARDS)
CARD_ID = {name: i for i, name in enumerate(CARD_NAMES)}
CARD_AGE = {c[0]: c[1] for c in CARDS}
CARD_COLOUR = {c[0]: c[2] for c in CARDS}
CARD_VP = {c[0]: c[3] for c in CARDS}
CARD_SYMBOL = {c[0]: c[4] for c in CARDS}
GUILDS = tuple(c[0] for c in CARDS if c[2] == "purple")
#: What each guild counts in the city with the most of it (R-END-3; VP per unit).
GUILD_COUNTS = {
    "Merchants Guild": (("yellow",), 1), "Shipowners Guild": (("brown", "grey"), 1),
    "Builders Guild": ("wonders", 2), "Magistrates Guild": (("blue",), 1),
    "Scientists Guild": (("green",), 1), "Moneylenders Guild": ("coins", 1),
    "Tacticians Guild": (("red",), 1),
}
#: (name, VP) of the 12 wonders, in the engine's id order.
WONDERS = (
    ("The Pyramids", 9), ("The Colossus", 3), ("The Great Lighthouse", 4),
    ("The Temple of Artemis", 0), ("The Mausoleum", 2), ("The Great Library", 4),
    ("Piraeus", 2), ("The Hanging Gardens", 3), ("The Statue of Zeus", 3), ("The Sphinx", 6),
    ("The Appian Way", 3), ("Circus Maximus", 3),
)
WONDER_NAMES = tuple(w[0] for w in WONDERS)
WONDER_ID = {name: i for i, name in enumerate(WONDER_NAMES)}
WONDER_VP = dict(WONDERS)
TOKEN_NAMES = ("Agriculture", "Architecture", "Economy", "Law", "Masonry", "Mathematics",
               "Philosophy", "Strategy", "Theology", "Urbanism")
TOKEN_ID = {name: i for i, name in enumerate(TOKEN_NAMES)}
FIRST_GAME_WONDERS = (
    {"The Pyramids", "The Great Lighthouse", "The Temple of Artemis", "The Statue of Zeus"},
    {"Circus Maximus", "Piraeus", "The Appian Way", "The Colossus"},
)

#: R-LAYOUT-1: (face-down slots, covered-by lists) of each Age.
LAYOUTS = (
    ((2, 3, 4, 9, 10, 11, 12, 13),
     ((2, 3), (3, 4), (5, 6), (6, 7), (7, 8), (9, 10), (10, 11), (11, 12), (12, 13), (14, 15),
      (15, 16), (16, 17), (17, 18), (18, 19), (), (), (), (), (), ())),
    ((6, 7, 8, 9, 10, 15, 16, 17),
     ((6,), (6, 7), (7, 8), (8, 9), (9, 10), (10,), (11,), (11, 12), (12, 13), (13, 14), (14,),
      (15,), (15, 16), (16, 17), (17,), (18,), (18, 19), (19,), (), ())),
    ((2, 3, 4, 9, 10, 15, 16, 17),
     ((2, 3), (3, 4), (5, 6), (6, 7), (7, 8), (9,), (9,), (10,), (10,), (11, 12), (13, 14),
      (15,), (15, 16), (16, 17), (17,), (18,), (18, 19), (19,), (), ())),
)

#: Action id ranges allowed in each decision phase.
PHASE_ACTION_RANGES = {
    "draft": (L["DRAFT_BASE"], L["BUILD_BASE"]),
    "play": (L["BUILD_BASE"], L["TOKEN_BASE"]),
    "choose_token": (L["TOKEN_BASE"], L["DESTROY_BASE"]),
    "library": (L["TOKEN_BASE"], L["DESTROY_BASE"]),
    "destroy": (L["DESTROY_BASE"], L["REVIVE_BASE"]),
    "revive": (L["REVIVE_BASE"], L["START_BASE"]),
    "choose_start": (L["START_BASE"], NUM_DECISION_ACTIONS),
}
CHANCE_PHASES = {"setup_first_player", "setup_tokens", "draft_reveal", "reveal", "library_draw",
                 "guilds"}

#: Option sets of the random-play tests (R-SETUP-4, R-AGE-3, R-SETUP-7, R-SETUP-1).
OPTION_SETS = {
    "default": {},
    "random_first": {"first_player": None},
    "second_first": {"first_player": 1},
    "centred_begins": {"centred_pawn": "begins"},
    "first_game_wonders": {"first_game_wonders": True},
    "coins_7_10": {"start_coins": (7, 10)},
    "all_options": {"first_player": None, "centred_pawn": "begins", "first_game_wonders": True,
                    "start_coins": (7, 10)},
}

#: Study treatments (``banned_tokens``, ``forced_wonders``), if this engine has them.
TREATMENTS = {"banned_tokens": ("Law", "Economy"),
              "forced_wonders": ("The Sphinx", "The Great Library")}


def engine_has_treatments():
    try:
        new_game(0, **TREATMENTS)
    except TypeError:
        return False
    return True


if engine_has_treatments():
    OPTION_SETS["treatments"] = dict(TREATMENTS)
    OPTION_SETS["treatments_random_first"] = dict(TREATMENTS, first_player=None)

MAX_DECISIONS = 200


def build(c):
    return L["BUILD_BASE"] + c


def discard(c):
    return L["DISCARD_BASE"] + c


def wonder_action(w, c):
    return L["WONDER_BASE"] + w * len(CARDS) + c


# ---------------------------------------------------------------- independent views of to_dict
def card_places(d):
    """``{card name: [place, ...]}`` over the cities, wonders, discard pile and layout."""
    places = defaultdict(list)
    for p, pd in enumerate(d["players"]):
        for name in pd["city"]:
            places[name].append(f"players[{p}].city")
        for wd in pd["wonders"]:
            if wd["card"] is not None:
                places[wd["card"]].append(f"under {wd['name']}")
    for name in d["discard_pile"]:
        places[name].append("discard_pile")
    for slot, entry in enumerate(d["layout"]):
        if entry is not None and entry not in FACE_DOWN:
            places[entry].append(f"layout[{slot}]")
    return places


def free_slots(age, layout):
    """Slots of the layout whose covering slots are all taken (R-LAYOUT-1)."""
    covered_by = LAYOUTS[age - 1][1]
    return [s for s in range(20) if layout[s] is not None
            and all(layout[u] is None for u in covered_by[s])]


def symbols_of(pd):
    """Distinct science symbols of a player (R-SCI-1, Law counts)."""
    syms = {CARD_SYMBOL[c] for c in pd["city"] if CARD_SYMBOL[c]}
    if "Law" in pd["progress_tokens"]:
        syms.add("law")
    return syms


def expected_vp(d):
    """VP by category for both players, computed from ``to_dict`` (R-END-2, R-END-3, R-MIL-4)."""
    players = d["players"]
    colours = [Counter(CARD_COLOUR[c] for c in pd["city"]) for pd in players]
    built = [sum(1 for w in pd["wonders"] if w["built"]) for pd in players]
    vp = {k: [0, 0] for k in ("blue", "green", "yellow", "purple", "wonders", "tokens", "coins",
                              "military")}
    for p, pd in enumerate(players):
        for c in pd["city"]:
            col = CARD_COLOUR[c]
            if col in ("blue", "green", "yellow"):
                vp[col][p] += CARD_VP[c]
            elif col == "purple":
                what, per = GUILD_COUNTS[c]
                if what == "wonders":
                    units = max(built)
                elif what == "coins":
                    units = max(q["coins"] // 3 for q in players)
                else:
                    units = max(sum(colours[q][x] for x in what) for q in range(2))
                vp["purple"][p] += per * units
        vp["wonders"][p] = sum(WONDER_VP[w["name"]] for w in pd["wonders"] if w["built"])
        tokens = pd["progress_tokens"]
        vp["tokens"][p] = (4 * ("Agriculture" in tokens) + 7 * ("Philosophy" in tokens)
                           + (3 * len(tokens) if "Mathematics" in tokens else 0))
        vp["coins"][p] = pd["coins"] // 3
        dist = d["pawn"] if p == 0 else -d["pawn"]
        vp["military"][p] = 10 if dist >= 6 else 5 if dist >= 3 else 2 if dist >= 1 else 0
    return vp


# ---------------------------------------------------------------- checks (raise AssertionError)
def check_engine(state):
    """The engine's own invariant check."""
    state.check()


def check_cards(state, d):
    """Each of the 73 cards is in at most one place; the cards seen of each Age add up
    (R-SETUP-6: 20 per Age, Age III = 17 + exactly 3 guilds); the layout is consistent."""
    places = card_places(d)
    for name, where in places.items():
        assert name in CARD_ID, f"unknown card {name!r} in {where}"
        assert len(where) == 1, f"{name} is in {len(where)} places: {where}"
    age = d["age"]
    layout = d["layout"]
    seen_by_age = Counter(CARD_AGE[c] for c in places if CARD_COLOUR[c] != "purple")
    guilds = [c for c in places if CARD_COLOUR[c] == "purple"]
    assert len(guilds) <= 3, f"{len(guilds)} guilds seen: {sorted(guilds)} (R-SETUP-6)"
    assert seen_by_age[3] <= 17, f"{seen_by_age[3]} Age III (non-guild) cards seen"
    if age == 0:
        assert not places and layout == [], f"cards seen before Age I: {dict(places)}"
        return
    assert len(layout) == 20, f"the layout has {len(layout)} slots"
    for a in (1, 2, 3):
        n = seen_by_age[a] + (len(guilds) if a == 3 else 0)
        assert n <= 20, f"{n} cards of Age {a} seen"
        if a < age:
            assert n == 20, f"Age {a} is over but only {n} of its cards were seen"
        elif a > age:
            assert n == 0, f"{n} cards of Age {a} seen during Age {age}"
        else:
            unseen = sum(layout.count(x) for x in FACE_DOWN)
            assert n == 20 - unseen, (f"{n} cards of Age {a} seen, but the layout has "
                                      f"{unseen} unseen slots")
            if a == 3 and unseen == 0:
                assert len(guilds) == 3, f"all of Age III seen with {len(guilds)} guilds"
    for slot, entry in enumerate(layout):
        if entry is not None and entry not in FACE_DOWN:
            assert CARD_AGE[entry] == age, \
                f"{entry} (Age {CARD_AGE[entry]}) in the Age {age} layout"
    face_down, covered_by = LAYOUTS[age - 1]
    queue = set(d["reveal_queue"])
    for slot, entry in enumerate(layout):
        if entry is None:
            assert all(layout[u] is None for u in covered_by[slot]), \
                f"slot {slot} was taken while still covered"
        elif entry in FACE_DOWN and slot not in queue:
            assert slot in face_down, f"slot {slot} of Age {age} is face up but shows no card"
            assert any(layout[u] is not None for u in covered_by[slot]), \
                f"face-down slot {slot} is uncovered but not waiting to be revealed (R-TURN-2)"
    free = set(free_slots(age, layout))
    expected_avail = sorted(CARD_ID[layout[s]] for s in free if layout[s] not in FACE_DOWN)
    assert state.available_cards() == expected_avail, \
        f"available cards {state.available_cards()} != uncovered face-up cards {expected_avail}"
    check_guild_backs(d)
    if d["phase"] in ("play", "choose_start"):
        assert not queue, f"phase {d['phase']} with cards waiting to be revealed: {sorted(queue)}"


def check_guild_backs(d):
    """R-CHANCE-2: in Age III exactly 3 slots hold guilds (once placed); a guild back lies only
    on one of them, a face-up guild only on one of them, and no other card does; before Age III
    there are no guild backs."""
    slots = set(d["guild_slots"])
    layout = d["layout"]
    if d["age"] < 3:
        assert not slots and "face_down_guild" not in layout, "guild backs before Age III"
        return
    if d["phase"] == "guilds":
        assert len(slots) < 3, f"still placing guild backs with {sorted(slots)} placed"
        return
    assert len(slots) == 3, f"Age III has {len(slots)} guild positions: {sorted(slots)}"
    for slot, entry in enumerate(layout):
        if entry == "face_down_guild" or (entry not in (None, "face_down")
                                          and CARD_COLOUR[entry] == "purple"):
            assert slot in slots, f"slot {slot} shows a guild ({entry}) but is no guild slot"
        elif entry is not None:
            assert slot not in slots, f"guild slot {slot} shows {entry}"


def check_tokens_wonders(d):
    """Progress tokens and wonders are each in one place (R-SETUP-3, R-SETUP-5, R-WONDER-3)."""
    where = Counter()
    for pd in d["players"]:
        where.update(pd["progress_tokens"])
    where.update(d["board_tokens"])
    where.update(d["aside_tokens"])
    dup = [t for t, n in where.items() if n > 1]
    assert not dup, f"progress tokens in two places: {dup}"
    assert set(d["library_offer"]) <= set(d["aside_tokens"]), "library offer not set aside"
    assert len(d["board_tokens"]) <= 5
    owned = [w["name"] for pd in d["players"] for w in pd["wonders"]]
    assert len(owned) == len(set(owned)), f"a wonder is owned twice: {owned}"
    n_built = sum(w["built"] for pd in d["players"] for w in pd["wonders"])
    assert n_built <= 7, f"{n_built} wonders built (R-WONDER-3)"
    for p, pd in enumerate(d["players"]):
        assert len(pd["wonders"]) <= 4, f"player {p} has {len(pd['wonders'])} wonders"
        for w in pd["wonders"]:
            assert (w["card"] is not None) == w["built"], \
                f"{w} (R-WONDER-1: a card under each built wonder)"
        if d["age"] >= 1 and n_built < 7:
            assert len(pd["wonders"]) == 4, \
                f"player {p} has {len(pd['wonders'])} wonders in Age {d['age']}"
    if n_built == 7:
        assert all(w["built"] for pd in d["players"] for w in pd["wonders"]), \
            "7 wonders built but an unbuilt wonder is still in the game (R-WONDER-3)"


def check_treatments(d):
    """Banned tokens never reach the board; a forced wonder ends in its player's hands."""
    opts = d["options"]
    banned = set(opts.get("banned_tokens") or ())
    assert not banned & set(d["board_tokens"]), f"banned tokens on the board: {d['board_tokens']}"
    if d["age"] >= 1 and d["draft"]["picks"] == 8:
        for p, w in enumerate(opts.get("forced_wonders") or (None, None)):
            if w is not None:
                owned = [x["name"] for x in d["players"][p]["wonders"]]
                n_built = sum(x["built"] for q in d["players"] for x in q["wonders"])
                assert w in owned or n_built == 7, f"forced wonder {w} not in player {p}'s {owned}"


def check_numbers(state, d):
    """Coins >= 0 (R-SETUP-1), pawn within -9..9 and on a capital only after a military
    victory (R-MIL-3), no 6 science symbols in a running game (R-SCI-3), VP as RULES.md says."""
    for p in (0, 1):
        assert d["players"][p]["coins"] >= 0, f"player {p} has {d['players'][p]['coins']} coins"
        assert state.coins(p) == d["players"][p]["coins"]
    pawn = d["pawn"]
    assert -9 <= pawn <= 9, f"pawn at {pawn}"
    assert state.pawn == pawn
    if abs(pawn) == 9:
        assert d["phase"] == "over" and d["victory"] == "military" \
            and d["winner"] == (0 if pawn == 9 else 1), f"pawn at {pawn}, result {d['victory']}"
    for p in (0, 1):
        syms = symbols_of(d["players"][p])
        if len(syms) >= 6:
            assert d["phase"] == "over" and d["victory"] == "scientific" and d["winner"] == p, \
                f"player {p} holds 6 symbols {sorted(syms)} but the game goes on (R-SCI-3)"
    vp = state.vp()
    exp = expected_vp(d)
    assert vp == exp, f"vp() {vp} != expected {exp}"


def check_legal(state, d, rng, *, try_all=True, n_illegal=2):
    """Legal actions: sorted, unique, in range, fit the phase, non-empty unless terminal, every
    one accepted on a clone; a few other ids refused with the state unchanged."""
    legal = state.legal_actions()
    terminal = state.is_terminal()
    assert terminal == (d["phase"] == "over")
    if terminal:
        assert legal == [], f"legal actions at the end: {legal}"
        assert state.current_player() == duelcore.TERMINAL_PLAYER
        return legal
    assert legal, f"no legal action in phase {d['phase']}"
    assert legal == sorted(set(legal)), f"legal actions not sorted/unique: {legal}"
    assert all(isinstance(a, int) for a in legal)
    assert 0 <= legal[0] and legal[-1] < NUM_ACTIONS
    chance = state.is_chance_node()
    assert chance == (d["phase"] in CHANCE_PHASES)
    if chance:
        assert state.current_player() == duelcore.CHANCE_PLAYER
        assert d["options"]["explicit_chance"], "a chance node shown in auto mode"
        assert legal[0] >= NUM_DECISION_ACTIONS
        assert [a for a, _ in state.chance_outcomes()] == legal
    else:
        assert state.current_player() == d["to_move"]
        assert state.chance_outcomes() == []
        lo, hi = PHASE_ACTION_RANGES[d["phase"]]
        assert lo <= legal[0] and legal[-1] < hi, f"{d['phase']}: actions {legal} out of {lo}..{hi}"
        assert state.legal_actions(d["to_move"]) == legal
        assert state.legal_actions(1 - d["to_move"]) == []
    if d["phase"] == "play":
        avail = state.available_cards()
        discards = [discard(c) for c in avail]
        assert set(discards) <= set(legal), \
            "discarding an available card is always legal (R-TURN-1)"
        me = d["players"][d["to_move"]]
        mine = {WONDER_ID[w["name"]] for w in me["wonders"] if not w["built"]}
        for a in legal:
            if a < L["DISCARD_BASE"]:
                assert a - L["BUILD_BASE"] in avail, f"build of an unavailable card: {a}"
            elif a >= L["WONDER_BASE"]:
                w, c = divmod(a - L["WONDER_BASE"], len(CARDS))
                assert c in avail and w in mine, f"wonder action {a}: wonder {w}, card {c}"
    if try_all:
        for a in legal:
            child = state.clone()
            child.apply_action(a)
            if not d["options"]["explicit_chance"]:
                assert not child.is_chance_node()
    if n_illegal:
        legal_set = set(legal)
        before = state.clone()
        for _ in range(n_illegal):
            a = rng.randrange(NUM_ACTIONS)
            if a in legal_set:
                continue
            try:
                state.apply_action(a)
            except IllegalActionError as e:
                assert e.action == a and str(a) in str(e)
            else:
                raise AssertionError(f"illegal action {a} ({duelcore.action_to_string(a)}) "
                                     f"was accepted")
            assert state == before, f"refused action {a} changed the state"
    return legal


def check_chance_distribution(state):
    """At a chance node: outcomes sorted and unique, probabilities > 0 summing to 1."""
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node without outcomes"
    ids = [a for a, _ in outcomes]
    assert ids == sorted(set(ids))
    total = math.fsum(p for _, p in outcomes)
    assert abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}"
    zero = [duelcore.action_to_string(a) for a, p in outcomes if not p > 0]
    assert not zero, (f"{len(zero)} chance outcomes with probability 0 in phase {state.phase}: "
                      f"{zero}")


def check_clone(state, d, rng, legal):
    """A clone equals the original (and hashes the same) and is independent of it."""
    c = state.clone()
    assert c is not state and c == state and not (c != state)
    assert hash(c) == hash(state)
    if legal:
        c.apply_action(rng.choice(legal))
        assert c != state, "applying an action to a clone left it equal to the original"
        assert state.to_dict() == d, "applying an action to a clone changed the original"


def check_roundtrip(state, d, back):
    """``back = state_from_dict(d)`` equals ``state`` and has the same ``to_dict``."""
    d2 = back.to_dict()
    assert d2 == d, f"to_dict differs after state_from_dict: {_dict_diff(d2, d)}"
    assert back == state, ("state_from_dict(to_dict()) != state although their to_dict outputs "
                           f"are equal (pickled bytes differ at {_byte_diff(back, state)})")
    assert hash(back) == hash(state)


def _byte_diff(a, b):
    """Offsets where the pickled payloads of two states differ (for messages only)."""
    try:
        x, y = a.__reduce__()[1][0], b.__reduce__()[1][0]
        return [i for i in range(min(len(x), len(y))) if x[i] != y[i]]
    except Exception:  # noqa: BLE001
        return "?"


def check_pickle(state, d):
    back = pickle.loads(pickle.dumps(state))
    assert back == state and hash(back) == hash(state)
    assert back.to_dict() == d


def check_result(state, n_decisions):
    """A finished game has a valid, consistent result (R-END, R-MIL-3, R-SCI-3)."""
    assert state.is_terminal()
    assert n_decisions <= MAX_DECISIONS
    d = state.to_dict()
    res = state.result()
    w, v = res["winner"], res["victory"]
    assert (w in (0, 1) and v in ("civilian", "military", "scientific")) or \
        (w is None and v == "shared"), f"result {w!r}/{v!r}"
    assert d["winner"] == w and d["victory"] == v
    assert state.returns() == ([1.0, -1.0] if w == 0 else [-1.0, 1.0] if w == 1 else [0.0, 0.0])
    total = [sum(x[p] for x in res["vp"].values()) for p in (0, 1)]
    assert res["total"] == total
    assert res["vp"] == expected_vp(d)
    if v == "military":
        assert d["pawn"] == (9 if w == 0 else -9), f"military victory of {w} with pawn {d['pawn']}"
    else:
        assert abs(d["pawn"]) < 9
    if v == "scientific":
        syms = symbols_of(d["players"][w])
        assert len(syms) >= 6, f"scientific victory with symbols {sorted(syms)}"
    else:
        for p in (0, 1):
            assert len(symbols_of(d["players"][p])) < 6
    if v in ("civilian", "shared"):
        assert d["age"] == 3 and d["layout"] == [None] * 20, "civilian end before Age III is over"
        blue = res["vp"]["blue"]
        if w is None:
            assert total[0] == total[1] and blue[0] == blue[1], f"shared with {total}, blue {blue}"
        else:
            other = 1 - w
            assert total[w] > total[other] or \
                (total[w] == total[other] and blue[w] > blue[other]), \
                f"civilian winner {w} with totals {total}, blue {blue}"


def _dict_diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += _dict_diff(a.get(k), b.get(k), f"{path}.{k}")
        return out
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


# ---------------------------------------------------------------- chance sampling
def sample_chance(state, rng):
    """A chance outcome drawn by the test from ``chance_outcomes()`` with its probabilities."""
    outcomes = state.chance_outcomes()
    ids = [a for a, _ in outcomes]
    return rng.choices(ids, weights=[p for _, p in outcomes])[0]


# ---------------------------------------------------------------- failure collection
class Failures:
    """The first failure of each check over many games, with a repro; ``report()`` fails."""

    def __init__(self):
        self.count = Counter()
        self.first = {}

    def run(self, name, fn, *args, ctx=None, **kw):
        try:
            return fn(*args, **kw)
        except Exception as e:  # noqa: BLE001 - every failure is recorded and reported
            self.count[name] += 1
            if name not in self.first:
                self.first[name] = f"{type(e).__name__}: {e}\n      repro: {ctx() if ctx else ''}"
            return None

    def add(self, name, message):
        self.count[name] += 1
        self.first.setdefault(name, message)

    def __bool__(self):
        return bool(self.count)

    def report(self):
        lines = []
        for name in sorted(self.count):
            lines.append(f"  [{name}] failed {self.count[name]} time(s); first: {self.first[name]}")
        return "\n".join(lines)


def repro(seed, options, history):
    opts = ", ".join(f"{k}={v!r}" for k, v in options.items())
    args = f"{seed}, {opts}" if opts else f"{seed}"
    return f"s = new_game({args}); for a in {history}: s.apply_action(a)"


def play_checked(seed, options, failures, *, rng=None, try_all=True, roundtrip=True,
                 n_illegal=2):
    """Play one game uniformly at random, checking everything after every action.

    Returns ``(state, history)``; ``history`` is every action applied (decisions, and chance
    outcomes in explicit mode), so ``repro`` replays it.
    """
    rng = rng or random.Random(seed * 1_000_003 + 17)
    state = new_game(seed, **options)
    history = []
    n_decisions = 0
    explicit = bool(options.get("explicit_chance"))
    ctx = lambda: repro(seed, options, list(history))  # noqa: E731
    while True:
        d = state.to_dict()
        f = failures.run
        f("state.check", check_engine, state, ctx=ctx)
        f("cards", check_cards, state, d, ctx=ctx)
        f("tokens_wonders", check_tokens_wonders, d, ctx=ctx)
        if "banned_tokens" in d["options"]:
            f("treatments", check_treatments, d, ctx=ctx)
        f("numbers", check_numbers, state, d, ctx=ctx)
        legal = f("legal_actions", check_legal, state, d, rng, try_all=try_all,
                  n_illegal=n_illegal, ctx=ctx)
        f("clone", check_clone, state, d, rng, legal, ctx=ctx)
        if roundtrip:
            back = f("state_from_dict accepts to_dict()", state_from_dict, d, ctx=ctx)
            if back is not None:
                f("state_from_dict(to_dict()) == state", check_roundtrip, state, d, back, ctx=ctx)
        f("pickle", check_pickle, state, d, ctx=ctx)
        if d["n_decisions"] != n_decisions:
            failures.add("n_decisions", f"n_decisions {d['n_decisions']} != {n_decisions} "
                                        f"decisions applied; repro: {ctx()}")
        if state.is_terminal():
            f("result", check_result, state, n_decisions, ctx=ctx)
            return state, history
        if n_decisions >= MAX_DECISIONS:
            failures.add("length", f"no end after {n_decisions} decisions; repro: {ctx()}")
            return state, history
        legal = state.legal_actions()
        if not legal:
            return state, history           # reported by check_legal
        if state.is_chance_node():
            f("chance_outcomes", check_chance_distribution, state, ctx=ctx)
            a = sample_chance(state, rng) if explicit else rng.choice(legal)
        else:
            a = rng.choice(legal)
            n_decisions += 1
        try:
            state.apply_action(a)
        except Exception as e:  # noqa: BLE001
            failures.add("apply", f"{type(e).__name__}: {e}; repro: {ctx()} then {a}")
            return state, history
        history.append(a)


def play_random(seed, rng=None, **options):
    """A plain random game (no checks): ``(state, decisions)``; chance sampled by weight."""
    rng = rng or random.Random(seed)
    state = new_game(seed, **options)
    history = []
    while not state.is_terminal():
        if state.is_chance_node():
            a = sample_chance(state, rng)
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        history.append(a)
    return state, history


def debug_build():
    """``duelcore.engine.DEBUG`` if the extension exposes it, else None."""
    import duelcore.engine as engine
    return getattr(engine, "DEBUG", None)


def first_position(pred, seeds=range(300), **options):
    """The first position of random games (seeds 0, 1, ...) where ``pred(state)`` holds,
    the final position included."""
    import random as _random
    for seed in seeds:
        rng = _random.Random(seed)
        state = new_game(seed, **options)
        while not state.is_terminal():
            if pred(state):
                return state
            state.apply_action(rng.choice(state.legal_actions()))
        if pred(state):
            return state
    raise AssertionError("no such position in the random games")
