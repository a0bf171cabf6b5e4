"""Every card of RULES.md (Age I, II, III and the guilds): its cost and its effect when built.

Expected values are the rulebook's (the tables of RULES.md copied in ``rules_helpers``).
Rules: R-BUILD-1..4, R-TRADE-1, R-SCI-1, R-MIL-1, R-END-2, R-END-3, E6.
"""
import pytest

from rules_helpers import (
    AGE_CARDS, CARD_LIST, CARD_NAMES, CARDS, GUILDS, RESOURCES, SYMBOLS, act, build, built,
    card_names, filler, player, res_vector, state, unit_price,
)


def test_card_tables_have_73_cards():
    """R-SETUP-6: Age I and II hold 23 cards, Age III 20, and there are 7 guilds; the engine
    names exactly these 73 cards."""
    assert [len(AGE_CARDS[a]) for a in (1, 2, 3)] == [23, 23, 20]
    assert len(GUILDS) == 7
    assert sorted(CARD_NAMES) == sorted(CARDS)


@pytest.mark.parametrize("name", [r.name for r in CARD_LIST])
def test_card_cost_with_no_production(name):
    """R-BUILD-1, R-TRADE-1: for a player with no production against an opponent with none,
    a card costs its printed coins plus 2 coins per resource unit it shows."""
    row = CARDS[name]
    s = state(age=row.age, avail=[name, filler(row.age, name)], p1=player(coins=30))
    assert s.card_cost(0, name) == (row.coins + 2 * row.units, 2 * row.units)


@pytest.mark.parametrize("name", [r.name for r in CARD_LIST])
def test_card_effect_when_built(name):
    """R-BUILD-3: a built card enters the city and applies its effects at once (coins when
    built, production, trade price, shields, science symbol); its VP are counted (R-END-2).
    The player pays the printed coins + 2 per resource unit to the bank (R-TRADE-1)."""
    row = CARDS[name]
    other = filler(row.age, name)
    s = state(age=row.age, avail=[name, other], p1=player(coins=30), p2=player(coins=7))
    cost = row.coins + 2 * row.units
    act(s, build(name))
    assert card_names(s.city(0)) == [name]
    # the coins paid go to the bank; 3 shields reach the opponent's 2-coin zone (R-MIL-2)
    assert s.coins(1) == (5 if row.shields >= 3 else 7)
    gained = row.gain
    if row.per == ("yellow", 1):            # Lighthouse counts itself
        gained += 1
    assert s.coins(0) == 30 - cost + gained
    # production (brown/grey): own price 0, opponent's price 2 + units produced
    assert s.production(0) == res_vector(row.produces)
    for r in RESOURCES:
        if r in row.produces:
            assert unit_price(s, 0, r) == 0
            assert unit_price(s, 1, r) == 2 + row.produces[r]
        elif r in row.choice:
            assert unit_price(s, 0, r) == 0, "a choice producer covers one unit"
            assert unit_price(s, 1, r) == 2, "yellow production never raises the price (R-TRADE-2)"
        elif r in row.trade_one:
            assert unit_price(s, 0, r) == 1
        else:
            assert unit_price(s, 0, r) == 2
            assert unit_price(s, 1, r) == 2
    # shields
    assert s.pawn == row.shields
    # science symbol
    expected = [0] * 7
    if row.symbol:
        expected[SYMBOLS.index(row.symbol)] = 1
    assert s.science_symbols(0) == expected
    # victory points of coloured cards
    vp = s.vp()
    if row.colour in ("blue", "green", "yellow"):
        assert vp[row.colour] == [row.vp, 0]
    for cat in ("blue", "green", "yellow"):
        if cat != row.colour:
            assert vp[cat] == [0, 0]


CHAINS = [(r.name, r.chain_from) for r in CARD_LIST if r.chain_from]


def test_chain_table():
    """R-BUILD-2: RULES.md lists 17 chain builds (free with ...)."""
    assert len(CHAINS) == 17


@pytest.mark.parametrize("name,source", CHAINS)
def test_chain_build_is_free(name, source):
    """R-BUILD-2 (E6): a player whose city holds the card showing the chain symbol builds the
    card for free, without resources or coins, even with 0 coins."""
    row = CARDS[name]
    s = state(age=row.age, avail=[name, filler(row.age, name)], p1=player(coins=0, city=[source]))
    assert s.card_cost(0, name) == (0, 0)
    assert build(name) in s.legal_actions()
    act(s, build(name))
    # no coins paid; Lighthouse still gives 1 coin per yellow card (Tavern and itself)
    assert s.coins(0) == (2 if name == "Lighthouse" else 0)
    assert name in card_names(s.city(0))


def test_chain_needs_own_city():
    """R-BUILD-2: the chain symbol must be in the builder's own city; the opponent's Baths does
    not make Aqueduct free."""
    s = state(age=2, avail=["Aqueduct", "Rostrum"], p1=player(coins=10), p2=player(city=["Baths"]))
    assert s.card_cost(0, "Aqueduct") == (6, 6)


def test_e6_chains():
    """E6 (seed 000): a player who built Baths builds Aqueduct free in Age II; a player who
    built Palisade builds Fortifications free in Age III."""
    s = state(age=2, avail=["Aqueduct", "Rostrum"], p1=player(coins=0, city=["Baths"]))
    act(s, build("Aqueduct"))
    assert s.coins(0) == 0 and s.vp()["blue"][0] == 3 + 5
    s = state(age=3, avail=["Fortifications", "Palace"], p1=player(coins=0, city=["Palisade"]))
    act(s, build("Fortifications"))
    assert s.coins(0) == 0 and s.pawn == 2


@pytest.mark.parametrize("name,what,city,expected", [
    ("Arena", "wonder", {"wonders": [built("The Pyramids"), built("The Sphinx"), "Piraeus"]}, 4),
    ("Chamber of Commerce", "grey", {"city": ["Glassworks", "Press", "Lumber Yard"]}, 6),
    ("Port", "brown", {"city": ["Lumber Yard", "Quarry", "Clay Pool", "Press"]}, 6),
    ("Lighthouse", "yellow", {"city": ["Stone Reserve", "Clay Reserve", "Glassworks"]}, 3),
    ("Armory", "red", {"city": ["Stable", "Garrison", "Walls", "Theater"]}, 3),
])
def test_coins_per_item_in_own_city(name, what, city, expected):
    """R-BUILD-3: Arena 2 coins per constructed wonder, Chamber of Commerce 3 per grey card,
    Port 2 per brown card, Lighthouse 1 per yellow card (counting itself), Armory 1 per red
    card -- in the builder's own city only (the opponent holds many more)."""
    opp = player(city=["Logging Camp", "Stone Pit", "Clay Pit", "Drying Room", "Glass-Blower",
                       "Tavern", "Wood Reserve", "Brewery", "Guard Tower", "Palisade", "Barracks"],
                 wonders=[built("The Colossus"), built("The Great Library"),
                          built("The Hanging Gardens")])
    me = player(coins=40, city=city.get("city", []), wonders=city.get("wonders", []))
    s = state(age=3, avail=[name, "Palace"], p1=me, p2=opp)
    total = s.card_cost(0, name)[0]
    act(s, build(name))
    assert s.coins(0) == 40 - total + expected
    assert s.vp()["yellow"][0] == 3


def test_science_symbols_on_two_cards_each():
    """R-SCI-1: each of the six card symbols is on exactly two green cards; building both
    gives 2 of that symbol and still one distinct symbol (a pair, E7)."""
    by_symbol = {}
    for r in CARD_LIST:
        if r.symbol:
            by_symbol.setdefault(r.symbol, []).append(r.name)
    assert sorted(by_symbol) == sorted(s for s in SYMBOLS if s != "law")
    for sym, names in by_symbol.items():
        assert len(names) == 2, sym
        first, second = names
        age = CARDS[second].age
        s = state(age=age, avail=[second, filler(age, second)],
                  p1=player(coins=30, city=[first]), board_tokens=["Philosophy"])
        act(s, build(second))
        expected = [0] * 7
        expected[SYMBOLS.index(sym)] = 2
        assert s.science_symbols(0) == expected
        assert s.phase == "choose_token", "the pair grants a progress token (R-SCI-2)"
