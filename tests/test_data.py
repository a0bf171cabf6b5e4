"""The component data (``duelcore.data``) against RULES.md, section *Components*.

The tables below are an independent, verbatim transcription of the RULES.md component tables
(card, colour, cost, VP, effect, chain), the wonders, the progress tokens and the three Age
layouts.  They are compared field by field with :mod:`duelcore.data`, the single source of truth
of the core: this is the spot-check that the data module has no typo.  The second half checks
that the engine's C tables (built from the data at import) agree, through the public API only:
costs with empty cities, production, build effects, VP, wonder effects and the layouts dealt by
``new_game(explicit_chance=True)``.

Nothing here reads RULES.md at run time: every expected value is written in this file.
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import duelcore
from duelcore import data

RES = ("wood", "clay", "stone", "glass", "papyrus")
BUILD = duelcore.ACTION_LAYOUT["BUILD_BASE"]
WONDER = duelcore.ACTION_LAYOUT["WONDER_BASE"]
DESTROY = duelcore.ACTION_LAYOUT["DESTROY_BASE"]
REVIVE = duelcore.ACTION_LAYOUT["REVIVE_BASE"]
NUM_CARDS = 73

# --------------------------------------------------------------------------------------------
# RULES.md, Components, transcribed verbatim: (card, colour, cost, VP, effect, chain)
# --------------------------------------------------------------------------------------------
AGE_I = (
    ("Lumber Yard", "brown", "free", "", "produces 1 wood", ""),
    ("Stone Pit", "brown", "1 coin", "", "produces 1 stone", ""),
    ("Clay Pool", "brown", "free", "", "produces 1 clay", ""),
    ("Logging Camp", "brown", "1 coin", "", "produces 1 wood", ""),
    ("Quarry", "brown", "free", "", "produces 1 stone", ""),
    ("Clay Pit", "brown", "1 coin", "", "produces 1 clay", ""),
    ("Glassworks", "grey", "1 coin", "", "produces 1 glass", ""),
    ("Press", "grey", "1 coin", "", "produces 1 papyrus", ""),
    ("Theater", "blue", "free", "3", "", "gives mask"),
    ("Altar", "blue", "free", "3", "", "gives moon"),
    ("Baths", "blue", "1 stone", "3", "", "gives drop"),
    ("Scriptorium", "green", "2 coins", "", "symbol: quill", "gives book"),
    ("Workshop", "green", "1 papyrus", "1", "symbol: set_square", ""),
    ("Pharmacist", "green", "2 coins", "", "symbol: mortar", "gives gear"),
    ("Apothecary", "green", "1 glass", "1", "symbol: wheel", ""),
    ("Tavern", "yellow", "free", "", "+4 coins when built", "gives vase"),
    ("Stone Reserve", "yellow", "3 coins", "", "trade price 1 for stone", ""),
    ("Clay Reserve", "yellow", "3 coins", "", "trade price 1 for clay", ""),
    ("Wood Reserve", "yellow", "3 coins", "", "trade price 1 for wood", ""),
    ("Stable", "red", "1 wood", "", "1 shield", "gives horseshoe"),
    ("Garrison", "red", "1 clay", "", "1 shield", "gives sword"),
    ("Palisade", "red", "2 coins", "", "1 shield", "gives tower"),
    ("Guard Tower", "red", "free", "", "1 shield", ""),
)

AGE_II = (
    ("Sawmill", "brown", "2 coins", "", "produces 2 wood", ""),
    ("Shelf Quarry", "brown", "2 coins", "", "produces 2 stone", ""),
    ("Brickyard", "brown", "2 coins", "", "produces 2 clay", ""),
    ("Glass-Blower", "grey", "free", "", "produces 1 glass", ""),
    ("Drying Room", "grey", "free", "", "produces 1 papyrus", ""),
    ("Temple", "blue", "1 wood, 1 papyrus", "4", "", "free with moon (Altar); gives sun"),
    ("Statue", "blue", "2 clay", "4", "", "free with mask (Theater); gives column"),
    ("Courthouse", "blue", "2 wood, 1 glass", "5", "", ""),
    ("Aqueduct", "blue", "3 stone", "5", "", "free with drop (Baths)"),
    ("Rostrum", "blue", "1 wood, 1 stone", "4", "", "gives temple"),
    ("School", "green", "1 wood, 2 papyrus", "1", "symbol: wheel", "gives lyre"),
    ("Laboratory", "green", "1 wood, 2 glass", "1", "symbol: set_square", "gives lamp"),
    ("Dispensary", "green", "2 clay, 1 stone", "2", "symbol: mortar",
     "free with gear (Pharmacist)"),
    ("Library", "green", "1 wood, 1 stone, 1 glass", "2", "symbol: quill",
     "free with book (Scriptorium)"),
    ("Brewery", "yellow", "free", "", "+6 coins when built", "gives barrel"),
    ("Forum", "yellow", "3 coins, 1 clay", "",
     "produces 1 of glass/papyrus for each build (does not raise the opponent's trade price)",
     ""),
    ("Caravansery", "yellow", "2 coins, 1 glass, 1 papyrus", "",
     "produces 1 of clay/stone/wood for each build (does not raise the opponent's trade price)",
     ""),
    ("Customs House", "yellow", "4 coins", "", "trade price 1 for glass and papyrus", ""),
    ("Horse Breeders", "red", "1 wood, 1 clay", "", "1 shield", "free with horseshoe (Stable)"),
    ("Barracks", "red", "3 coins", "", "1 shield", "free with sword (Garrison)"),
    ("Walls", "red", "2 stone", "", "2 shields", ""),
    ("Archery Range", "red", "1 wood, 1 stone, 1 papyrus", "", "2 shields", "gives target"),
    ("Parade Ground", "red", "2 clay, 1 glass", "", "2 shields", "gives helmet"),
)

AGE_III = (
    ("Palace", "blue", "1 wood, 1 clay, 1 stone, 2 glass", "7", "", ""),
    ("Gardens", "blue", "2 wood, 2 clay", "6", "", "free with column (Statue)"),
    ("Pantheon", "blue", "1 wood, 1 clay, 2 papyrus", "6", "", "free with sun (Temple)"),
    ("Town Hall", "blue", "2 wood, 3 stone", "7", "", ""),
    ("Senate", "blue", "2 clay, 1 stone, 1 papyrus", "5", "", "free with temple (Rostrum)"),
    ("Obelisk", "blue", "2 stone, 1 glass", "5", "", ""),
    ("Academy", "green", "1 wood, 1 stone, 2 glass", "3", "symbol: sundial", ""),
    ("University", "green", "1 clay, 1 glass, 1 papyrus", "2", "symbol: globe",
     "free with lyre (School)"),
    ("Study", "green", "2 wood, 1 glass, 1 papyrus", "3", "symbol: sundial", ""),
    ("Observatory", "green", "1 stone, 2 papyrus", "2", "symbol: globe",
     "free with lamp (Laboratory)"),
    ("Arena", "yellow", "1 wood, 1 clay, 1 stone", "3",
     "when built: 2 coin(s) per constructed Wonder in your own city",
     "free with barrel (Brewery)"),
    ("Chamber of Commerce", "yellow", "2 papyrus", "3",
     "when built: 3 coin(s) per grey card in your own city", ""),
    ("Port", "yellow", "1 wood, 1 glass, 1 papyrus", "3",
     "when built: 2 coin(s) per brown card in your own city", ""),
    ("Lighthouse", "yellow", "2 clay, 1 glass", "3",
     "when built: 1 coin(s) per yellow card in your own city (this card counts itself)",
     "free with vase (Tavern)"),
    ("Armory", "yellow", "2 stone, 1 glass", "3",
     "when built: 1 coin(s) per red card in your own city", ""),
    ("Circus", "red", "2 clay, 2 stone", "", "2 shields", "free with helmet (Parade Ground)"),
    ("Arsenal", "red", "2 wood, 3 clay", "", "3 shields", ""),
    ("Siege Workshop", "red", "3 wood, 1 glass", "", "2 shields",
     "free with target (Archery Range)"),
    ("Fortifications", "red", "1 clay, 2 stone, 1 papyrus", "", "2 shields",
     "free with tower (Palisade)"),
    ("Pretorium", "red", "8 coins", "", "3 shields", ""),
)

GUILDS = (
    ("Merchants Guild", "purple", "1 wood, 1 clay, 1 glass, 1 papyrus", "",
     "when built: 1 coin(s) per yellow card in the city with the most yellow cards; "
     "end of game: 1 VP per yellow card in the city with the most yellow cards", ""),
    ("Shipowners Guild", "purple", "1 clay, 1 stone, 1 glass, 1 papyrus", "",
     "when built: 1 coin(s) per brown card plus grey card in the single city with the most "
     "brown+grey cards combined; end of game: 1 VP per brown card plus grey card in the single "
     "city with the most brown+grey cards combined", ""),
    ("Builders Guild", "purple", "1 wood, 1 clay, 2 stone, 1 glass", "",
     "end of game: 2 VP per constructed Wonder in the city with the most constructed Wonders",
     ""),
    ("Magistrates Guild", "purple", "2 wood, 1 clay, 1 papyrus", "",
     "when built: 1 coin(s) per blue card in the city with the most blue cards; "
     "end of game: 1 VP per blue card in the city with the most blue cards", ""),
    ("Scientists Guild", "purple", "2 wood, 2 clay", "",
     "when built: 1 coin(s) per green card in the city with the most green cards; "
     "end of game: 1 VP per green card in the city with the most green cards", ""),
    ("Moneylenders Guild", "purple", "2 wood, 2 stone", "",
     "end of game: 1 VP per set of 3 coins in the richer city (max of floor(coins/3) over both "
     "cities)", ""),
    ("Tacticians Guild", "purple", "1 clay, 2 stone, 1 papyrus", "",
     "when built: 1 coin(s) per red card in the city with the most red cards; "
     "end of game: 1 VP per red card in the city with the most red cards", ""),
)

# (wonder, cost, VP, effect)
WONDERS = (
    ("The Pyramids", "3 stone, 1 papyrus", "9", "No other effect."),
    ("The Colossus", "3 clay, 1 glass", "3", "2 shields (move the conflict pawn 2 spaces)."),
    ("The Great Lighthouse", "1 wood, 1 stone, 2 papyrus", "4",
     "Produces 1 of wood/clay/stone for each build (does not raise the opponent's trade price)."),
    ("The Temple of Artemis", "1 wood, 1 stone, 1 glass, 1 papyrus", "",
     "Take 12 coins; play again."),
    ("The Mausoleum", "2 clay, 2 glass, 1 papyrus", "2",
     "Choose one card in the discard pile and build it for free, with all its effects; the "
     "others stay in the pile. Skipped if the pile is empty (R-WONDER-5)."),
    ("The Great Library", "3 wood, 1 glass, 1 papyrus", "4",
     "Randomly draw 3 of the 5 progress tokens set aside at setup (never the board ones); keep "
     "1 and apply it; the other 2 leave the game (R-WONDER-6)."),
    ("Piraeus", "2 wood, 1 clay, 1 stone", "2",
     "Produces 1 of glass/papyrus for each build (does not raise the opponent's trade price); "
     "play again."),
    ("The Hanging Gardens", "2 wood, 1 glass, 1 papyrus", "3", "Take 6 coins; play again."),
    ("The Statue of Zeus", "1 wood, 1 clay, 1 stone, 2 papyrus", "3",
     "1 shield; put one brown card of your choice built by the opponent into the discard pile "
     "(skipped if they have none)."),
    ("The Sphinx", "1 clay, 1 stone, 2 glass", "6", "Play again."),
    ("The Appian Way", "2 clay, 2 stone, 1 papyrus", "3",
     "Take 3 coins; the opponent loses 3 coins (to the bank, at most what they have); play "
     "again."),
    ("Circus Maximus", "1 wood, 2 stone, 1 glass", "3",
     "1 shield; put one grey card of your choice built by the opponent into the discard pile "
     "(skipped if they have none)."),
)

TOKENS = ("Agriculture", "Architecture", "Economy", "Law", "Masonry", "Mathematics",
          "Philosophy", "Strategy", "Theology", "Urbanism")

FIRST_GAME = (
    ("The Pyramids", "The Great Lighthouse", "The Temple of Artemis", "The Statue of Zeus"),
    ("Circus Maximus", "Piraeus", "The Appian Way", "The Colossus"),
)

# Age layouts (R-LAYOUT-1): rows, face-down slots, covered-by lists, available at the start.
LAYOUT_I = dict(
    rows=(2, 3, 4, 5, 6),
    face_down=(2, 3, 4, 9, 10, 11, 12, 13),
    start=(14, 15, 16, 17, 18, 19),
    covered_by={0: (2, 3), 1: (3, 4), 2: (5, 6), 3: (6, 7), 4: (7, 8), 5: (9, 10), 6: (10, 11),
                7: (11, 12), 8: (12, 13), 9: (14, 15), 10: (15, 16), 11: (16, 17),
                12: (17, 18), 13: (18, 19), 14: (), 15: (), 16: (), 17: (), 18: (), 19: ()},
)
LAYOUT_II = dict(
    rows=(6, 5, 4, 3, 2),
    face_down=(6, 7, 8, 9, 10, 15, 16, 17),
    start=(18, 19),
    covered_by={0: (6,), 1: (6, 7), 2: (7, 8), 3: (8, 9), 4: (9, 10), 5: (10,), 6: (11,),
                7: (11, 12), 8: (12, 13), 9: (13, 14), 10: (14,), 11: (15,), 12: (15, 16),
                13: (16, 17), 14: (17,), 15: (18,), 16: (18, 19), 17: (19,), 18: (), 19: ()},
)
LAYOUT_III = dict(
    rows=(2, 3, 4, 2, 4, 3, 2),
    face_down=(2, 3, 4, 9, 10, 15, 16, 17),
    start=(18, 19),
    covered_by={0: (2, 3), 1: (3, 4), 2: (5, 6), 3: (6, 7), 4: (7, 8), 5: (9,), 6: (9,),
                7: (10,), 8: (10,), 9: (11, 12), 10: (13, 14), 11: (15,), 12: (15, 16),
                13: (16, 17), 14: (17,), 15: (18,), 16: (18, 19), 17: (19,), 18: (), 19: ()},
)
LAYOUTS = (LAYOUT_I, LAYOUT_II, LAYOUT_III)

ALL_CARDS = AGE_I + AGE_II + AGE_III + GUILDS
AGE_OF = {row[0]: age for age, rows in ((1, AGE_I), (2, AGE_II), (3, AGE_III), (3, GUILDS))
          for row in rows}
COLOUR_OF = {row[0]: row[1] for row in ALL_CARDS}


# --------------------------------------------------------------------------------------------
# Reading the transcribed text (a parser written for this test, independent of data.parse_cost)
# --------------------------------------------------------------------------------------------
def cost_of(text):
    """``"3 coins, 1 clay"`` / ``"free"`` -> (coins, {resource: units})."""
    coins, res = 0, Counter()
    if text in ("", "free"):
        return 0, {}
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+) (coin|coins|wood|clay|stone|glass|papyrus)\s*", part)
        assert m, f"cannot read cost part {part!r} of {text!r}"
        if m.group(2).startswith("coin"):
            coins += int(m.group(1))
        else:
            res[m.group(2)] += int(m.group(1))
    return coins, dict(res)


def data_cost(text):
    """A cost string of duelcore.data, read with the same test parser."""
    return cost_of(text or "free")


def res_tuple(res):
    return tuple(res.get(r, 0) for r in RES)


def card_effect(effect):
    """The RULES.md effect text of a card -> the expected duelcore.data fields."""
    out = dict(produces={}, choice=frozenset(), trade_one=frozenset(), shields=0, symbol="",
               coins=0, coins_per=(), guild="")
    if not effect:
        return out
    patterns = [
        (r"produces (\d) (wood|clay|stone|glass|papyrus)",
         lambda m: out.update(produces={m[2]: int(m[1])})),
        (r"produces 1 of ([a-z/]+) for each build \(does not raise the opponent's trade price\)",
         lambda m: out.update(choice=frozenset(m[1].split("/")))),
        (r"trade price 1 for ([a-z]+(?: and [a-z]+)?)",
         lambda m: out.update(trade_one=frozenset(m[1].split(" and ")))),
        (r"(\d) shields?", lambda m: out.update(shields=int(m[1]))),
        (r"symbol: ([a-z_]+)", lambda m: out.update(symbol=m[1])),
        (r"\+(\d+) coins when built", lambda m: out.update(coins=int(m[1]))),
        (r"when built: (\d) coin\(s\) per (constructed Wonder|grey card|brown card|yellow card|"
         r"red card) in your own city( \(this card counts itself\))?",
         lambda m: out.update(coins_per=({"constructed Wonder": "wonder"}.get(
             m[2], m[2].split()[0]), int(m[1])))),
        (r"(?:when built: 1 coin\(s\) per (?P<a>[a-z ]+?) in the (?:single )?city with the most "
         r"(?P<b>[a-z+ ]+?); )?end of game: (?P<vp>\d) VP per (?P<c>.+)",
         lambda m: out.update(guild=guild_kind(m))),
    ]
    for pat, apply in patterns:
        m = re.fullmatch(pat, effect)
        if m:
            apply(m)
            return out
    raise AssertionError(f"cannot read effect {effect!r}")


def guild_kind(m):
    text = m["c"]
    if text.startswith("yellow card"):
        return "yellow"
    if text.startswith("brown card plus grey card"):
        return "brown_grey"
    if text.startswith("constructed Wonder"):
        assert m["vp"] == "2"
        return "wonder"
    if text.startswith("blue card"):
        return "blue"
    if text.startswith("green card"):
        return "green"
    if text.startswith("set of 3 coins"):
        return "coins"
    if text.startswith("red card"):
        return "red"
    raise AssertionError(f"unknown guild effect {text!r}")


def chain_of(text):
    """``"free with moon (Altar); gives sun"`` -> (from, giver named in RULES, gives)."""
    chain_from = giver = gives = ""
    for part in filter(None, (p.strip() for p in text.split(";"))):
        m = re.fullmatch(r"free with ([a-z]+) \(([A-Za-z ]+)\)", part)
        if m:
            chain_from, giver = m[1], m[2]
            continue
        m = re.fullmatch(r"gives ([a-z]+)", part)
        assert m, f"cannot read chain {text!r}"
        gives = m[1]
    return chain_from, giver, gives


def wonder_effect(effect):
    """The RULES.md effect text of a wonder -> the expected duelcore.data fields."""
    out = dict(coins=0, opponent_loses=0, shields=0, choice=frozenset(), play_again=False,
               action="")
    m = re.search(r"Take (\d+) coins", effect)
    if m:
        out["coins"] = int(m[1])
    m = re.search(r"the opponent loses (\d+) coins", effect)
    if m:
        out["opponent_loses"] = int(m[1])
    m = re.match(r"(\d) shields?", effect)
    if m:
        out["shields"] = int(m[1])
    m = re.match(r"Produces 1 of ([a-z/]+) for each build", effect)
    if m:
        out["choice"] = frozenset(m[1].split("/"))
    out["play_again"] = bool(re.search(r"(^|; )[Pp]lay again\.$", effect))
    if "put one brown card" in effect:
        out["action"] = "destroy_brown"
    elif "put one grey card" in effect:
        out["action"] = "destroy_grey"
    elif "card in the discard pile and build it for free" in effect:
        out["action"] = "revive"
    elif "progress tokens set aside" in effect:
        out["action"] = "library"
    return out


def test_transcription_reader_sanity():
    """The readers above understand every effect (so nothing is silently skipped)."""
    assert card_effect("produces 2 wood")["produces"] == {"wood": 2}
    assert card_effect("trade price 1 for glass and papyrus")["trade_one"] == {"glass", "papyrus"}
    assert card_effect(AGE_III[13][4])["coins_per"] == ("yellow", 1)
    assert card_effect(AGE_III[10][4])["coins_per"] == ("wonder", 2)
    assert card_effect(GUILDS[1][4])["guild"] == "brown_grey"
    assert chain_of("free with moon (Altar); gives sun") == ("moon", "Altar", "sun")
    assert wonder_effect(WONDERS[10][3]) == dict(coins=3, opponent_loses=3, shields=0,
                                                 choice=frozenset(), play_again=True, action="")
    for row in ALL_CARDS:
        card_effect(row[4])
        chain_of(row[5])
        cost_of(row[2])


# --------------------------------------------------------------------------------------------
# Counts and colours
# --------------------------------------------------------------------------------------------
def test_counts():
    """23 Age I, 23 Age II, 20 Age III cards, 7 guilds, 12 wonders, 10 tokens (Components)."""
    ages = Counter((c.age, c.colour == "purple") for c in data.CARDS)
    assert ages == {(1, False): 23, (2, False): 23, (3, False): 20, (3, True): 7}
    assert len(data.CARDS) == NUM_CARDS == len(ALL_CARDS)
    assert len(data.WONDERS) == 12 == len(WONDERS)
    assert len(data.TOKENS) == 10 == len(TOKENS)
    assert len(AGE_I) == 23 and len(AGE_II) == 23 and len(AGE_III) == 20 and len(GUILDS) == 7
    assert data.AGE_CARD_RANGES == ((0, 23), (23, 46), (46, 66))
    assert data.GUILD_RANGE == (66, 73)
    for age, (lo, hi) in enumerate(data.AGE_CARD_RANGES, 1):
        assert all(c.age == age and c.colour != "purple" for c in data.CARDS[lo:hi])
    assert all(c.colour == "purple" and c.age == 3 for c in data.CARDS[66:73])


@pytest.mark.parametrize("age, expected", [
    (1, {"brown": 6, "grey": 2, "blue": 3, "green": 4, "yellow": 4, "red": 4}),
    (2, {"brown": 3, "grey": 2, "blue": 5, "green": 4, "yellow": 4, "red": 5}),
    (3, {"blue": 6, "green": 4, "yellow": 5, "red": 5}),
])
def test_colours_per_age(age, expected):
    got = Counter(c.colour for c in data.CARDS if c.age == age and c.colour != "purple")
    assert got == expected
    rows = {1: AGE_I, 2: AGE_II, 3: AGE_III}[age]
    assert Counter(r[1] for r in rows) == expected


def test_names_unique_and_in_order():
    """Card ids are positions in RULES.md order: Age I, Age II, Age III, guilds."""
    assert data.CARD_NAMES == tuple(r[0] for r in ALL_CARDS)
    assert len(set(data.CARD_NAMES)) == NUM_CARDS
    assert data.WONDER_NAMES == tuple(w[0] for w in WONDERS)
    assert data.TOKEN_NAMES == TOKENS
    assert data.RESOURCES == RES
    assert set(data.COLOURS) == {"brown", "grey", "blue", "green", "yellow", "red", "purple"}
    assert data.SYMBOLS[:6] == ("wheel", "quill", "mortar", "set_square", "sundial", "globe")
    assert data.SYMBOLS[6] == "law"
    assert data.FIRST_GAME_WONDERS == FIRST_GAME


# --------------------------------------------------------------------------------------------
# Card by card
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("row", ALL_CARDS, ids=[r[0] for r in ALL_CARDS])
def test_card(row):
    """Every card: age, colour, cost, VP, effect and chain, as in RULES.md (Components)."""
    name, colour, cost, vp, effect, chain = row
    card = data.CARDS[data.CARD_NAMES.index(name)]
    assert card.name == name
    assert card.age == AGE_OF[name]
    assert card.colour == colour
    assert data_cost(card.cost) == cost_of(cost), "cost"
    # data.parse_cost (used by the engine) reads the data string the same way
    coins, res = cost_of(cost)
    assert data.parse_cost(card.cost) == (coins, res_tuple(res)), "parse_cost"
    assert card.vp == (int(vp) if vp else 0), "VP"
    exp = card_effect(effect)
    assert data_cost(card.produces)[1] == exp["produces"], "production"
    if exp["produces"]:
        assert colour in ("brown", "grey")
    assert frozenset(card.choice) == exp["choice"], "choice production"
    assert len(card.choice) == len(set(card.choice))
    assert frozenset(card.trade_one) == exp["trade_one"], "trade price 1"
    assert card.shields == exp["shields"], "shields"
    assert card.symbol == exp["symbol"], "science symbol"
    assert card.coins == exp["coins"], "coins when built"
    assert tuple(card.coins_per) == exp["coins_per"], "coins per item when built"
    assert card.guild == exp["guild"], "guild"
    chain_from, giver, gives = chain_of(chain)
    assert card.chain_from == chain_from, "chain symbol it is free with"
    assert card.chain_gives == gives, "chain symbol it gives"
    if giver:
        assert data.CARDS[data.CARD_NAMES.index(giver)].chain_gives == chain_from


@pytest.mark.parametrize("row", WONDERS, ids=[w[0] for w in WONDERS])
def test_wonder(row):
    """Every wonder: cost (resources only), VP and effect (Components, Wonders)."""
    name, cost, vp, effect = row
    w = data.WONDERS[data.WONDER_NAMES.index(name)]
    assert data_cost(w.cost) == cost_of(cost)
    assert cost_of(cost)[0] == 0, "wonders cost resources only"
    assert data.parse_cost(w.cost) == (0, res_tuple(cost_of(cost)[1]))
    assert w.vp == (int(vp) if vp else 0)
    exp = wonder_effect(effect)
    assert w.coins == exp["coins"]
    assert w.opponent_loses == exp["opponent_loses"]
    assert w.shields == exp["shields"]
    assert frozenset(w.choice) == exp["choice"]
    assert w.play_again == exp["play_again"]
    assert w.action == exp["action"]


def test_play_again_wonders():
    """Exactly the five wonders RULES.md marks 'play again'."""
    assert {w.name for w in data.WONDERS if w.play_again} == {
        "The Temple of Artemis", "Piraeus", "The Hanging Gardens", "The Sphinx",
        "The Appian Way"}


def test_choice_producers():
    """Forum, Caravansery, The Great Lighthouse, Piraeus are the only '1 of X/Y' producers."""
    cards = {c.name: frozenset(c.choice) for c in data.CARDS if c.choice}
    wonders = {w.name: frozenset(w.choice) for w in data.WONDERS if w.choice}
    assert cards == {"Forum": {"glass", "papyrus"}, "Caravansery": {"wood", "clay", "stone"}}
    assert wonders == {"The Great Lighthouse": {"wood", "clay", "stone"},
                       "Piraeus": {"glass", "papyrus"}}


def test_trade_one_cards():
    got = {c.name: frozenset(c.trade_one) for c in data.CARDS if c.trade_one}
    assert got == {"Stone Reserve": {"stone"}, "Clay Reserve": {"clay"},
                   "Wood Reserve": {"wood"}, "Customs House": {"glass", "papyrus"}}


def test_science_symbols_each_on_two_cards():
    """R-SCI-1: each of the six card symbols is on exactly two green cards; law on none."""
    got = Counter(c.symbol for c in data.CARDS if c.symbol)
    assert got == {s: 2 for s in ("wheel", "quill", "mortar", "set_square", "sundial", "globe")}
    assert all(c.colour == "green" for c in data.CARDS if c.symbol)
    assert all(c.symbol for c in data.CARDS if c.colour == "green")


def test_chain_symbols():
    """Every chain symbol is given by exactly one card, of an earlier Age than the cards it
    frees, and every symbol that frees a card is given by some card."""
    gives = Counter(c.chain_gives for c in data.CARDS if c.chain_gives)
    assert all(n == 1 for n in gives.values()), [s for s, n in gives.items() if n > 1]
    expected_gives = {r[0]: chain_of(r[5])[2] for r in ALL_CARDS if chain_of(r[5])[2]}
    assert {c.name: c.chain_gives for c in data.CARDS if c.chain_gives} == expected_gives
    giver = {c.chain_gives: c for c in data.CARDS if c.chain_gives}
    frees = [c for c in data.CARDS if c.chain_from]
    assert len(frees) == 17
    for c in frees:
        assert c.chain_from in giver, f"{c.name}: nobody gives {c.chain_from}"
        assert giver[c.chain_from].age < c.age
        assert giver[c.chain_from].name != c.name
    # every symbol given frees exactly one card
    used = Counter(c.chain_from for c in frees)
    assert set(used) == set(giver) and all(n == 1 for n in used.values())


def test_tokens():
    assert tuple(t.name for t in data.TOKENS) == TOKENS
    assert all(t.text for t in data.TOKENS)


def test_constants():
    """R-SETUP-1, R-SETUP-6, R-WONDER-3, R-SCI-3 and the military track (R-MIL)."""
    assert data.START_COINS == 7
    assert data.CARDS_PER_AGE == 20
    assert data.REMOVED_PER_AGE == 3
    assert data.GUILDS_IN_AGE_III == 3
    assert data.WONDERS_IN_GAME == 7
    assert data.SCIENCE_SUPREMACY == 6
    # capital at distance 9; 2-coin token in zone 3-5, 5-coin token in zone 6-8
    assert data.CAPITAL == 9
    assert data.MILITARY_TOKENS == ((3, 2), (6, 5))
    # 2 VP at distance 1-2, 5 VP at 3-5, 10 VP at 6-8
    assert data.MILITARY_VP == ((1, 2), (3, 5), (6, 10))


def test_parse_cost_errors():
    assert data.parse_cost("") == (0, (0, 0, 0, 0, 0))
    assert data.parse_cost("1 coin") == (1, (0, 0, 0, 0, 0))
    with pytest.raises(ValueError):
        data.parse_cost("2 gold")
    with pytest.raises(ValueError):
        data.parse_cost("two wood")


# --------------------------------------------------------------------------------------------
# Layouts
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("age", [1, 2, 3])
def test_layout(age):
    """R-LAYOUT-1: rows, face-down slots, covered-by lists, slots available at the start."""
    exp = LAYOUTS[age - 1]
    lay = data.LAYOUTS[age - 1]
    assert sum(exp["rows"]) == 20
    assert tuple(lay.rows) == exp["rows"]
    assert tuple(lay.face_down) == exp["face_down"]
    assert len(lay.face_down) == 8
    assert len(lay.covered_by) == 20
    for slot in range(20):
        assert tuple(lay.covered_by[slot]) == exp["covered_by"][slot], f"slot {slot}"
    assert tuple(s for s in range(20) if not lay.covered_by[s]) == exp["start"]
    # a slot is covered only by slots of the next row (row r+1), numbered row by row
    row_of = [r for r, n in enumerate(lay.rows) for _ in range(n)]
    for slot in range(20):
        for u in lay.covered_by[slot]:
            assert row_of[u] == row_of[slot] + 1
        if row_of[slot] < len(lay.rows) - 1:
            assert lay.covered_by[slot], f"slot {slot} is uncovered but not on the last row"
    # face-down slots are whole rows (RULES: rows 1 and 3 in Ages I/III, rows 1 and 3 in II)
    for r in range(len(lay.rows)):
        slots = [s for s in range(20) if row_of[s] == r]
        down = [s in lay.face_down for s in slots]
        assert all(down) or not any(down)


@pytest.mark.parametrize("age", [1, 2, 3])
def test_engine_covering(age):
    """The engine's COVERED and FACE_DOWN tables, through state_from_dict: a slot is available
    exactly when every slot of its covered-by list is taken; a slot may be taken only once
    every slot covering it is taken; 'face_down' is accepted only at the face-down slots."""
    exp = LAYOUTS[age - 1]
    cards = [r[0] for r in {1: AGE_I, 2: AGE_II, 3: AGE_III}[age]]

    def down(slot):
        """slot and every slot that (transitively) covers it"""
        out, todo = set(), [slot]
        while todo:
            s = todo.pop()
            if s not in out:
                out.add(s)
                todo.extend(exp["covered_by"][s])
        return out

    def up(slot):
        """slot and every slot it (transitively) covers"""
        return {s for s in range(20) if slot in down(s)}

    def position(taken):
        layout = []
        for s in range(20):
            if s in taken:
                layout.append(None)
            elif s in exp["face_down"] and not all(u in taken for u in exp["covered_by"][s]):
                layout.append("face_down")
            else:                       # face up, or face down but already revealed
                layout.append(cards[s])
        return {"version": 1, "age": age, "layout": layout,
                "players": [{"coins": 7, "city": [], "wonders": [], "progress_tokens": []}] * 2}

    for slot in range(20):
        taken = down(slot) - {slot}
        st = duelcore.state_from_dict(position(taken))
        avail = {s for s in range(20) if s not in taken
                 and all(u in taken for u in exp["covered_by"][s])}
        assert slot in avail
        assert sorted(st.available_cards()) == sorted(data.CARD_NAMES.index(cards[s])
                                                      for s in avail), f"slot {slot}"
        # everything taken but `u` and what it covers, and `slot`: refused exactly at `slot`
        # when `u` covers it
        for u in range(slot + 1, 20):
            if u in up(slot):
                continue
            bad = (set(range(20)) - up(u)) | {slot}
            if u in exp["covered_by"][slot]:
                with pytest.raises(duelcore.StateFormatError) as e:
                    duelcore.state_from_dict(position(bad))
                assert e.value.field == f"layout[{slot}]"
            elif all(x in bad for x in exp["covered_by"][slot]):
                duelcore.state_from_dict(position(bad))        # accepted
    # "face_down" is accepted exactly at the face-down slots
    for slot in range(20):
        d = position(set())
        if slot in exp["face_down"]:
            assert d["layout"][slot] == "face_down"
            continue
        d["layout"][slot] = "face_down"
        with pytest.raises(duelcore.StateFormatError) as e:
            duelcore.state_from_dict(d)
        assert e.value.field == f"layout[{slot}]"


def _sample(rng, st):
    outs = st.chance_outcomes()
    actions = [a for a, _ in outs]
    weights = [p for _, p in outs]
    return rng.choices(actions, weights)[0]


def test_engine_deals_layouts():
    """new_game(explicit_chance=True): at the start of each Age the engine deals exactly the
    face-up slots (all of them in the reveal queue), with cards of that Age; the face-down slots
    stay 'face_down'; the available cards are those of the last row (Age I [14..19], Ages II and
    III [18, 19]).  Random games (chance sampled with its probabilities) until each Age was
    checked several times."""
    checked = Counter()
    for seed in range(12):
        rng = random.Random(seed)
        st = duelcore.new_game(seed, explicit_chance=True, first_player=None)
        ages = set()
        guilds_seen = set()
        while not st.is_terminal():
            d = st.to_dict()
            age = d["age"]
            if age and age not in ages and st.phase == "reveal" and d["dealing"]:
                exp = LAYOUTS[age - 1]
                face_up = [s for s in range(20) if s not in exp["face_down"]]
                # the Age has just been laid out: nothing dealt yet, every face-up slot queued
                assert d["reveal_queue"] == face_up
                assert all(x == ("face_down_guild" if i in d["guild_slots"] else "face_down")
                           for i, x in enumerate(d["layout"]))
                while st.phase == "reveal" and st.to_dict()["dealing"]:
                    st.apply_action(_sample(rng, st))
                d = st.to_dict()
                assert d["age"] == age and d["reveal_queue"] == []
                assert st.phase == ("play" if age == 1 else "choose_start")
                for s in range(20):
                    entry = d["layout"][s]
                    if s in exp["face_down"]:
                        back = "face_down_guild" if s in d["guild_slots"] else "face_down"
                        assert entry == back, (age, s)
                    else:
                        assert entry not in (None, "face_down", "face_down_guild"), (age, s)
                        assert AGE_OF[entry] == age, (age, s, entry)
                        if COLOUR_OF[entry] == "purple":
                            guilds_seen.add(entry)
                assert len({x for x in d["layout"] if x not in ("face_down", "face_down_guild")}) == 12
                avail = sorted(data.CARD_NAMES.index(d["layout"][s]) for s in exp["start"])
                assert sorted(st.available_cards()) == avail
                ages.add(age)
                checked[age] += 1
                continue
            if st.is_chance_node():
                st.apply_action(_sample(rng, st))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        assert len(guilds_seen) <= 3
    assert checked[1] == 12 and checked[2] >= 3 and checked[3] >= 3, checked


def test_engine_first_game_wonders():
    st = duelcore.new_game(3, first_game_wonders=True, first_player=1)
    names = [[data.WONDER_NAMES[w] for w, _ in st.wonders(p)] for p in (0, 1)]
    assert set(names[1]) == set(FIRST_GAME[0])     # P1 is player 1 here
    assert set(names[0]) == set(FIRST_GAME[1])


# --------------------------------------------------------------------------------------------
# The engine's tables agree with RULES.md (through the public API)
# --------------------------------------------------------------------------------------------
def _player(coins=7, city=(), wonders=(), tokens=()):
    return {"coins": coins, "city": list(city), "wonders": list(wonders),
            "progress_tokens": list(tokens)}


def _position(p0, p1, layout_cards=(), age=3, **extra):
    """A position in the play phase; `layout_cards` lie in the top slots (all others taken)."""
    if not layout_cards:      # one Age III card left in the layout, in no city
        used = set(p0["city"]) | set(p1["city"])
        layout_cards = [next(r[0] for r in AGE_III if r[0] not in used)]
        age = 3
    layout = [None] * 20
    for slot, name in enumerate(layout_cards):
        layout[slot] = name
    d = {"version": 1, "age": age, "layout": layout, "players": [p0, p1]}
    d.update(extra)
    return duelcore.state_from_dict(d)


@pytest.mark.parametrize("row", ALL_CARDS, ids=[r[0] for r in ALL_CARDS])
def test_engine_card_cost_empty_cities(row):
    """With both cities empty, a card costs its printed coins + 2 per resource unit."""
    name, _, cost, *_ = row
    coins, res = cost_of(cost)
    st = _position(_player(), _player())
    units = sum(res.values())
    assert st.card_cost(0, name) == (coins + 2 * units, 2 * units)
    assert st.card_cost(1, data.CARD_NAMES.index(name)) == (coins + 2 * units, 2 * units)


@pytest.mark.parametrize("row", WONDERS, ids=[w[0] for w in WONDERS])
def test_engine_wonder_cost_empty_cities(row):
    name, cost, *_ = row
    units = sum(cost_of(cost)[1].values())
    st = _position(_player(), _player())
    assert st.wonder_cost(0, name) == (2 * units, 2 * units)


CHAIN_ROWS = [r for r in ALL_CARDS if chain_of(r[5])[0]]


@pytest.mark.parametrize("row", CHAIN_ROWS, ids=[r[0] for r in CHAIN_ROWS])
def test_engine_chain(row):
    """R-BUILD-2: the card named in 'free with X (Card)' makes the card free; the opponent's
    copy does not."""
    name = row[0]
    giver = chain_of(row[5])[1]
    coins, res = cost_of(row[2])
    full = coins + 2 * sum(res.values())
    st = _position(_player(city=[giver]), _player())
    assert st.card_cost(0, name) == (0, 0)
    assert st.card_cost(1, name) == (full, 2 * sum(res.values()))


# the cities for the build-effect checks (a card being built is removed from them first)
CITY0 = ["Lumber Yard", "Quarry", "Glassworks", "Tavern", "Stable", "Theater", "Scriptorium"]
CITY1 = ["Clay Pool", "Stone Pit", "Clay Pit", "Press", "Glass-Blower", "Stone Reserve",
         "Clay Reserve", "Garrison", "Palisade", "Workshop", "Altar", "Baths"]


def _count(city, what):
    if what == "wonder":
        raise AssertionError
    if what == "brown_grey":
        return sum(COLOUR_OF[c] in ("brown", "grey") for c in city)
    return sum(COLOUR_OF[c] == what for c in city)


@pytest.mark.parametrize("row", ALL_CARDS, ids=[r[0] for r in ALL_CARDS])
def test_engine_build_effects(row):
    """Building each card: coins paid and gained, shields, science symbol, production and VP
    are those of RULES.md (R-BUILD-3, R-END-3)."""
    name, colour, cost, vp, effect, chain = row
    exp = card_effect(effect)
    c = data.CARD_NAMES.index(name)
    city0 = [x for x in CITY0 if x != name]
    city1 = [x for x in CITY1 if x != name]
    wonders0 = [{"name": "The Pyramids", "built": True}, {"name": "The Sphinx", "built": True},
                {"name": "The Colossus"}]
    wonders1 = [{"name": "Piraeus", "built": True}]
    # a second card stays in the layout so that the Age does not end
    filler = next(r[0] for r in {1: AGE_I, 2: AGE_II, 3: AGE_III}[AGE_OF[name]]
                  if r[0] not in (name, *city0, *city1))
    st = _position(_player(60, city0, wonders0), _player(10, city1, wonders1),
                   layout_cards=[name, filler], age=AGE_OF[name])
    total, traded = st.card_cost(0, name)
    before_vp = st.vp()
    before_sym = st.science_symbols(0)
    before_prod = st.production(0)
    st.apply_action(BUILD + c)
    after_city0 = city0 + [name]
    gain = exp["coins"]
    if exp["coins_per"]:
        what, k = exp["coins_per"]
        gain += k * (2 if what == "wonder" else _count(after_city0, what))
    if exp["guild"] and exp["guild"] not in ("wonder", "coins"):
        gain += max(_count(after_city0, exp["guild"]), _count(city1, exp["guild"]))
    assert st.coins(0) == 60 - total + gain
    assert name in [data.CARD_NAMES[x] for x in st.city(0)]
    shields = exp["shields"]
    assert st.pawn == shields
    if shields >= 3:          # the 2-coin token of P2's side is taken (R-MIL-2)
        assert st.coins(1) == 8
    else:
        assert st.coins(1) == 10
    sym = st.science_symbols(0)
    for i, s in enumerate(data.SYMBOLS):
        assert sym[i] == before_sym[i] + (1 if s == exp["symbol"] else 0)
    prod = st.production(0)
    assert [prod[i] - before_prod[i] for i in range(5)] == list(res_tuple(exp["produces"]))
    after_vp = st.vp()
    if colour in ("blue", "green", "yellow"):
        assert after_vp[colour][0] - before_vp[colour][0] == (int(vp) if vp else 0)
    if colour == "purple":
        g = exp["guild"]
        if g == "wonder":
            exp_vp = 2 * 2
        elif g == "coins":
            exp_vp = max(st.coins(0) // 3, st.coins(1) // 3)
        else:
            exp_vp = max(_count(after_city0, g), _count(city1, g))
        assert after_vp["purple"][0] == exp_vp


@pytest.mark.parametrize("row", [r for r in ALL_CARDS if chain_of(r[5])[2]],
                         ids=[r[0] for r in ALL_CARDS if chain_of(r[5])[2]])
def test_engine_chain_gives(row):
    """A built card showing a chain symbol makes the card that is free with it free."""
    gives = chain_of(row[5])[2]
    freed = [r[0] for r in ALL_CARDS if chain_of(r[5])[0] == gives]
    assert len(freed) == 1
    st = _position(_player(city=[row[0]]), _player())
    assert st.card_cost(0, freed[0]) == (0, 0)


# one-resource probes: (resource, a card costing exactly 1 unit of it and nothing else)
PROBE = {"wood": "Stable", "clay": "Garrison", "stone": "Baths", "glass": "Apothecary",
         "papyrus": "Workshop"}


def test_probe_cards():
    for r, name in PROBE.items():
        row = next(x for x in ALL_CARDS if x[0] == name)
        assert cost_of(row[2]) == (0, {r: 1})


SPECIAL = [r for r in ALL_CARDS if card_effect(r[4])["choice"] or card_effect(r[4])["trade_one"]]


@pytest.mark.parametrize("row", SPECIAL, ids=[r[0] for r in SPECIAL])
def test_engine_trade_effects(row):
    """Choice producers and trade-price-1 cards change exactly the named resources."""
    exp = card_effect(row[4])
    st = _position(_player(city=[row[0]]), _player(city=["Lumber Yard", "Clay Pool", "Quarry",
                                                          "Glassworks", "Press"]))
    for r, probe in PROBE.items():
        if r in exp["choice"]:
            assert st.card_cost(0, probe) == (0, 0), r
        elif r in exp["trade_one"]:
            assert st.card_cost(0, probe) == (1, 1), r
        else:
            assert st.card_cost(0, probe) == (3, 3), r
    # a yellow card never raises the opponent's price (R-TRADE-2)
    st = _position(_player(city=[row[0]]), _player())
    for r, probe in PROBE.items():
        assert st.card_cost(1, probe) == (2, 2), r


@pytest.mark.parametrize("row", WONDERS, ids=[w[0] for w in WONDERS])
def test_engine_wonder_effects(row):
    """Building each wonder: coins, opponent's loss, shields, choice production, Play Again,
    the choice it grants and its VP (R-WONDER, Components)."""
    name, cost, vp, effect = row
    exp = wonder_effect(effect)
    w = data.WONDER_NAMES.index(name)
    tuck = "Guard Tower"
    st = _position(
        _player(50, [], [name]),
        _player(10, ["Lumber Yard", "Press"]),
        layout_cards=[tuck, "Theater"], age=1,
        discard_pile=["Altar"],
        board_tokens=["Agriculture", "Law", "Economy", "Masonry", "Mathematics"],
        aside_tokens=["Architecture", "Philosophy", "Strategy", "Theology", "Urbanism"],
    )
    total, traded = st.wonder_cost(0, name)
    assert total == traded
    probes = {r: st.card_cost(0, p) for r, p in PROBE.items()}
    st.apply_action(WONDER + w * NUM_CARDS + data.CARD_NAMES.index(tuck))
    assert st.coins(0) == 50 - total + exp["coins"]
    assert st.coins(1) == 10 - exp["opponent_loses"]
    assert st.pawn == exp["shields"]
    assert st.vp()["wonders"][0] == (int(vp) if vp else 0)
    assert st.wonders(0) == [(w, True)]
    # the tucked card has no effect (R-WONDER-1)
    assert data.CARD_NAMES.index(tuck) not in st.city(0)
    # production of a choice wonder
    for r, p in PROBE.items():
        if r in exp["choice"]:
            assert st.card_cost(0, p) == (0, 0)
        else:
            assert st.card_cost(0, p) == probes[r]
    action = exp["action"]
    if action == "destroy_brown":
        assert st.phase == "destroy"
        assert st.legal_actions() == [DESTROY + data.CARD_NAMES.index("Lumber Yard")]
    elif action == "destroy_grey":
        assert st.phase == "destroy"
        assert st.legal_actions() == [DESTROY + data.CARD_NAMES.index("Press")]
    elif action == "revive":
        assert st.phase == "revive"
        assert st.legal_actions() == [REVIVE + data.CARD_NAMES.index("Altar")]
    elif action == "library":
        assert st.phase == "library"       # the draw is sampled at once (not explicit_chance)
        offer = st.to_dict()["library_offer"]
        assert len(offer) == 3
        assert set(offer) <= {"Architecture", "Philosophy", "Strategy", "Theology", "Urbanism"}
    else:
        assert st.phase == "play"
        assert st.current_player() == (0 if exp["play_again"] else 1)


@pytest.mark.parametrize("distance, vp", [(0, 0), (1, 2), (2, 2), (3, 5), (4, 5), (5, 5),
                                          (6, 10), (7, 10), (8, 10)])
def test_engine_military_vp(distance, vp):
    """R-MIL-4 through the engine: 2 VP at distance 1-2, 5 at 3-5, 10 at 6-8."""
    for sign, leader in ((1, 0), (-1, 1)):
        st = _position(_player(), _player(), pawn=sign * distance)
        mil = st.vp()["military"]
        assert mil[leader] == vp
        assert mil[1 - leader] == 0


def test_engine_military_tokens():
    """R-MIL-2 / E5: entering the 3-5 zone costs the opponent up to 2 coins, once; a move
    crossing both zones triggers both tokens (2 + 5); the capital wins at once (R-MIL-3)."""
    c = data.CARD_NAMES.index("Guard Tower")
    st = _position(_player(), _player(10), layout_cards=["Guard Tower", "Theater"], age=1,
                   pawn=2)
    st.apply_action(BUILD + c)
    assert st.pawn == 3 and st.coins(1) == 8
    assert st.to_dict()["military_tokens"] == [[2, 5], [5]]
    # 3 shields + Strategy from distance 2: enters 3-5 and 6-8 in one move
    c = data.CARD_NAMES.index("Pretorium")
    st = _position(_player(20, tokens=["Strategy"]), _player(10),
                   layout_cards=["Pretorium", "Palace"], age=3, pawn=2)
    st.apply_action(BUILD + c)
    assert st.pawn == 6 and st.coins(1) == 10 - 2 - 5
    assert st.to_dict()["military_tokens"] == [[2, 5], []]
    st = _position(_player(20), _player(10), layout_cards=["Pretorium", "Palace"], age=3,
                   pawn=7, military_tokens=[[2, 5], []])
    st.apply_action(BUILD + c)
    assert st.is_terminal() and st.result()["victory"] == "military"
    assert st.result()["winner"] == 0 and st.pawn == 9
