"""Building and trading: R-BUILD-1..4, R-TRADE-1..5, worked examples E1 and E2."""
import random

import pytest

import duelcore
from rules_helpers import (
    CARD_LIST, CARDS, RESOURCES, WONDERS, act, build, built, card_names, discard, player,
    reference_cost, res_vector, state, unit_price, wonder,
)


def test_e1_fortifications_costs_5():
    """E1 (seed 000), R-TRADE-1: a player wants Fortifications (2 stone, 1 clay, 1 papyrus) and
    produces 2 stone; the opponent's brown cards produce 1 clay.  Clay costs 2 + 1 = 3, papyrus
    2 + 0 = 2: 5 coins."""
    s = state(age=3, avail=["Fortifications", "Palace"],
              p1=player(coins=5, city=["Quarry", "Stone Pit"]), p2=player(city=["Clay Pool"]))
    assert s.card_cost(0, "Fortifications") == (5, 5)
    act(s, build("Fortifications"))
    assert s.coins(0) == 0
    assert s.coins(1) == 7, "the coins go to the bank"


def test_e1_with_one_coin_short_is_illegal():
    """E1 + R-TRADE-5: with 4 coins the player cannot pay 5 and cannot build Fortifications."""
    s = state(age=3, avail=["Fortifications", "Palace"],
              p1=player(coins=4, city=["Quarry", "Stone Pit"]), p2=player(city=["Clay Pool"]))
    assert build("Fortifications") not in s.legal_actions()
    before = s.clone()
    with pytest.raises(duelcore.IllegalActionError):
        s.apply_action(build("Fortifications"))
    assert s == before, "an illegal action leaves the state unchanged"


def test_e2_missing_wood_costs_3_and_1_with_wood_reserve():
    """E2 (seed 001), R-TRADE-1, R-TRADE-3: a card needs 2 wood (Courthouse: 2 wood, 1 glass);
    the player produces 1 wood (and the glass); the opponent's brown and grey cards produce 1
    wood: the missing wood costs 3 coins; with Wood Reserve, 1 coin."""
    s = state(age=2, avail=["Courthouse", "Rostrum"],
              p1=player(coins=7, city=["Lumber Yard", "Glassworks"]),
              p2=player(city=["Logging Camp"]))
    assert s.card_cost(0, "Courthouse") == (3, 3)
    s = state(age=2, avail=["Courthouse", "Rostrum"],
              p1=player(coins=7, city=["Lumber Yard", "Glassworks", "Wood Reserve"]),
              p2=player(city=["Logging Camp"]))
    assert s.card_cost(0, "Courthouse") == (1, 1)
    act(s, build("Courthouse"))
    assert s.coins(0) == 6


def test_production_is_never_used_up():
    """R-BUILD-1: production is never used up; every turn the whole production of the city is
    available again (Quarry pays Baths' stone, then Walls' stone on a later turn)."""
    s = state(age=2, avail=["Walls", "Rostrum", "Aqueduct"],
              p1=player(coins=7, city=["Quarry", "Stone Pit"]), p2=player(coins=7))
    act(s, build("Walls"))
    assert s.coins(0) == 7
    act(s, discard("Rostrum"))
    assert s.card_cost(0, "Aqueduct") == (2, 2), "2 stone produced again, 1 bought"


def test_printed_coins_plus_resources():
    """R-BUILD-1: the cost is the card's coins plus each resource it shows: Forum (3 coins,
    1 clay) costs 3 + 2 = 5 without production, 3 with a Clay Pool."""
    s = state(age=2, avail=["Forum", "Rostrum"], p1=player(coins=7))
    assert s.card_cost(0, "Forum") == (5, 2)
    s = state(age=2, avail=["Forum", "Rostrum"], p1=player(coins=7, city=["Clay Pool"]))
    assert s.card_cost(0, "Forum") == (3, 0)
    act(s, build("Forum"))
    assert s.coins(0) == 4


def test_any_number_of_cards_of_a_colour():
    """R-BUILD-4: a player may build any number of cards of a colour (a sixth brown card)."""
    browns = ["Lumber Yard", "Stone Pit", "Clay Pool", "Logging Camp", "Quarry"]
    s = state(age=2, avail=["Sawmill", "Brickyard"], p1=player(coins=7, city=browns))
    act(s, build("Sawmill"))
    assert len(card_names(s.city(0))) == 6
    assert s.production(0) == [4, 1, 2, 0, 0]


def test_each_card_exists_once():
    """R-BUILD-4: each card exists once: a position with a card in two places is refused."""
    d = {"version": 1, "age": 1, "layout": ["Tavern"] + [None] * 19,
         "players": [player(city=["Tavern"]), player()]}
    with pytest.raises(duelcore.StateFormatError):
        duelcore.state_from_dict(d)
    d["layout"][0] = "Altar"
    d["players"][1] = player(city=["Tavern"])
    with pytest.raises(duelcore.StateFormatError):
        duelcore.state_from_dict(d)


@pytest.mark.parametrize("opp_city,price", [
    ([], 2),
    (["Glassworks"], 3),
    (["Glassworks", "Glass-Blower"], 4),
])
def test_trade_price_is_2_plus_opponent_production(opp_city, price):
    """R-TRADE-1: each missing unit costs 2 coins plus 1 per unit of that resource produced by
    the opponent's brown and grey cards; there is no limit to the units bought in a turn
    (Palace: 1 wood, 1 clay, 1 stone, 2 glass)."""
    s = state(age=3, avail=["Palace", "Obelisk"], p1=player(coins=30), p2=player(city=opp_city))
    assert unit_price(s, 0, "glass") == price
    assert s.card_cost(0, "Palace") == (3 * 2 + 2 * price, 3 * 2 + 2 * price)
    act(s, build("Palace"))
    assert s.coins(0) == 30 - (6 + 2 * price)
    assert s.coins(1) == 7


def test_opponent_brown_production_of_two():
    """R-TRADE-1: Sawmill produces 2 wood: the opponent pays 2 + 2 = 4 per wood."""
    s = state(age=2, avail=["Rostrum", "Temple"], p2=player(city=["Sawmill", "Lumber Yard"]))
    assert unit_price(s, 0, "wood") == 5
    assert unit_price(s, 0, "stone") == 2


@pytest.mark.parametrize("opp", [
    player(city=["Forum"]),
    player(city=["Caravansery"]),
    player(wonders=[built("The Great Lighthouse")]),
    player(wonders=[built("Piraeus")]),
])
def test_yellow_and_wonder_production_do_not_raise_price(opp):
    """R-TRADE-2: production from yellow cards (Forum, Caravansery) and wonders (The Great
    Lighthouse, Piraeus) never raises the opponent's price: every unit still costs 2."""
    s = state(age=2, avail=["Rostrum", "Temple"], p2=opp)
    for r in RESOURCES:
        assert unit_price(s, 0, r) == 2


@pytest.mark.parametrize("reserve,resources", [
    ("Stone Reserve", ["stone"]), ("Clay Reserve", ["clay"]), ("Wood Reserve", ["wood"]),
    ("Customs House", ["glass", "papyrus"]),
])
def test_reserves_fix_the_price_at_1(reserve, resources):
    """R-TRADE-3: Stone Reserve, Clay Reserve, Wood Reserve and Customs House fix the owner's
    price of the named resources at 1 coin, whatever the opponent produces; the others keep
    the normal price."""
    opp = player(city=["Sawmill", "Shelf Quarry", "Brickyard", "Glassworks", "Press"])
    s = state(age=2, avail=["Rostrum", "Temple"], p1=player(city=[reserve]), p2=opp)
    normal = {"wood": 4, "clay": 4, "stone": 4, "glass": 3, "papyrus": 3}
    for r in RESOURCES:
        assert unit_price(s, 0, r) == (1 if r in resources else normal[r]), r


def test_choice_producer_is_chosen_anew_for_each_build():
    """R-TRADE-4: a "1 of X/Y" producer gives one unit of one of them per build, chosen anew
    each time: Forum pays the glass of Courthouse, then the papyrus of Temple on a later turn."""
    s = state(age=2, avail=["Courthouse", "Rostrum", "Temple"],
              p1=player(coins=5, city=["Forum", "Lumber Yard", "Logging Camp"]))
    act(s, build("Courthouse"))
    assert s.coins(0) == 5
    act(s, discard("Rostrum"))
    assert s.card_cost(0, "Temple") == (0, 0)
    act(s, build("Temple"))
    assert s.coins(0) == 5


def test_choice_producer_covers_the_most_expensive_unit():
    """R-TRADE-4: the cost is always the cheapest way: Forum covers the glass (3 coins, the
    opponent produces glass) rather than the papyrus (2 coins) of University (1 clay, 1 glass,
    1 papyrus): 2 (clay) + 2 (papyrus) = 4."""
    s = state(age=3, avail=["University", "Palace"], p1=player(coins=10, city=["Forum"]),
              p2=player(city=["Glassworks"]))
    assert s.card_cost(0, "University") == (4, 4)


def _random_position(rng):
    """A random play position: random brown/grey/yellow cards and wonders in both cities."""
    pool = [r.name for r in CARD_LIST if r.colour in ("brown", "grey", "yellow") and r.age < 3]
    rng.shuffle(pool)
    a = pool[:rng.randint(0, 7)]
    b = pool[7:7 + rng.randint(0, 7)]
    wonders = ["The Great Lighthouse", "Piraeus"]
    wa = [built(w) for w in wonders if rng.random() < 0.3]
    wb = [built(w) for w in wonders if rng.random() < 0.3 and built(w) not in wa]
    tokens = [t for t in ("Masonry", "Architecture") if rng.random() < 0.4]
    return a, b, wa, wb, tokens


def _reference(name_or_wonder, me_city, me_wonders, opp_city, tokens, is_wonder):
    fixed = [0] * 5
    choices = []
    trade_one = set()
    for n in me_city:
        row = CARDS[n]
        for r, k in row.produces.items():
            fixed[RESOURCES.index(r)] += k
        if row.choice:
            choices.append(tuple(RESOURCES.index(r) for r in row.choice))
        trade_one |= {RESOURCES.index(r) for r in row.trade_one}
    for w in me_wonders:
        if w["name"] == "The Great Lighthouse":
            choices.append((0, 1, 2))
        if w["name"] == "Piraeus":
            choices.append((3, 4))
    opp_fixed = [0] * 5
    for n in opp_city:
        for r, k in CARDS[n].produces.items():
            opp_fixed[RESOURCES.index(r)] += k
    if is_wonder:
        need = res_vector(WONDERS[name_or_wonder].res)
        disc = 2 if "Architecture" in tokens else 0
        coins = 0
    else:
        row = CARDS[name_or_wonder]
        need = res_vector(row.res)
        disc = 2 if (row.colour == "blue" and "Masonry" in tokens) else 0
        coins = row.coins
    trade = reference_cost({"fixed": fixed, "choices": choices, "trade_one": trade_one},
                           opp_fixed, need, disc)
    return coins + trade, trade


def test_cost_solver_matches_exhaustive_search():
    """R-TRADE-4: the engine's cost (own production, choice producers, Architecture/Masonry
    discounts, then trade) is the cheapest way to pay: compared with an exhaustive search over
    every use of the choice producers and discounts, for every card and wonder in 150 random
    positions."""
    rng = random.Random(2024)
    checked = 0
    for _ in range(150):
        a, b, wa, wb, tokens = _random_position(rng)
        s = state(age=2, avail=["Rostrum"] if "Rostrum" not in a + b else ["Temple"],
                  p1=player(coins=50, city=a, wonders=wa, tokens=tokens),
                  p2=player(city=b, wonders=wb))
        for row in CARD_LIST:
            if row.chain_from and row.chain_from in a:
                continue
            assert s.card_cost(0, row.name) == _reference(row.name, a, wa, b, tokens, False), \
                (row.name, a, wa, b, tokens)
            checked += 1
        for w in WONDERS:
            assert s.wonder_cost(0, w) == _reference(w, a, wa, b, tokens, True), \
                (w, a, wa, b, tokens)
    assert checked > 10000


def test_cannot_pay_cannot_act():
    """R-TRADE-5: a player who cannot pay the whole cost cannot build the card or the wonder;
    discarding stays legal (R-TURN-1)."""
    s = state(age=3, avail=["Pretorium", "Palace"],
              p1=player(coins=7, wonders=["The Pyramids"]))
    legal = s.legal_actions()
    assert build("Pretorium") not in legal          # 8 coins
    assert build("Palace") not in legal             # 10 coins
    assert wonder("The Pyramids", "Palace") not in legal   # 8 coins
    assert discard("Pretorium") in legal and discard("Palace") in legal
    s = state(age=3, avail=["Pretorium", "Palace"], p1=player(coins=8, wonders=["The Pyramids"]))
    legal = s.legal_actions()
    assert build("Pretorium") in legal and wonder("The Pyramids", "Palace") in legal


def test_e1_trade_breakdown_unit_by_unit():
    """E1, R-TRADE-1: the breakdown of Fortifications' 5 coins is 1 clay at 3 and 1 papyrus at
    2 (the stone is produced); a chain build pays nothing (R-BUILD-2)."""
    s = state(age=3, avail=["Fortifications", "Palace"],
              p1=player(coins=5, city=["Quarry", "Stone Pit"]), p2=player(city=["Clay Pool"]))
    b = s.trade_breakdown(0, "Fortifications")
    assert b == {"chain": False, "coins": 0, "total": 5, "traded": 5,
                 "buy": [{"resource": "clay", "units": 1, "price": 3},
                         {"resource": "papyrus", "units": 1, "price": 2}]}
    with pytest.raises(ValueError):
        s.trade_breakdown(0, "No Such Card")


def test_trade_breakdown_sums_to_the_cost_in_random_play():
    """R-TRADE-1..4: over random positions, every card's and wonder's breakdown sums to
    ``card_cost`` / ``wonder_cost`` for both players."""
    rng = random.Random(7)
    for seed in range(12):
        s = duelcore.new_game(seed=seed)
        while not s.is_terminal():
            if rng.random() < 0.2:
                for p in (0, 1):
                    for c in range(len(CARD_LIST)):
                        total, traded = s.card_cost(p, c)
                        b = s.trade_breakdown(p, c)
                        assert (b["total"], b["traded"]) == (total, traded)
                        assert sum(x["units"] * x["price"] for x in b["buy"]) == traded
                    for w in range(len(WONDERS)):
                        b = s.trade_breakdown(p, w, wonder=True)
                        assert (b["total"], b["traded"]) == s.wonder_cost(p, w)
            s.apply_action(rng.choice(s.legal_actions()))
