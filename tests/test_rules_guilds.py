"""The 7 guilds (R-END-3): coins when built and VP at the end, each counted in "the city with
the most" of its items at that moment (possibly a different city at build and at the end)."""
import pytest

from rules_helpers import CARDS, act, build, built, discard, player, state

BLUE = ["Theater", "Altar", "Baths", "Temple", "Statue"]
GREEN = ["Scriptorium", "Workshop", "Pharmacist", "School"]
YELLOW = ["Tavern", "Stone Reserve", "Clay Reserve", "Wood Reserve", "Brewery"]
RED = ["Stable", "Garrison", "Palisade", "Guard Tower", "Walls"]
BROWN = ["Lumber Yard", "Stone Pit", "Clay Pool", "Logging Camp", "Quarry", "Clay Pit"]
GREY = ["Glassworks", "Press", "Glass-Blower", "Drying Room"]


def _build_guild(guild, mine, theirs, my_coins=40, their_coins=7, my_wonders=(),
                 their_wonders=()):
    """P1 builds `guild` (an Age III position); returns (state, coins P1 paid)."""
    s = state(age=3, avail=[guild, "Palace"],
              p1=player(coins=my_coins, city=mine, wonders=my_wonders),
              p2=player(coins=their_coins, city=theirs, wonders=their_wonders))
    cost = s.card_cost(0, guild)[0]
    act(s, build(guild))
    return s, cost


def _end(mine, theirs, my_coins=0, their_coins=0, my_wonders=(), their_wonders=()):
    """An Age III position with one card left; P1 discards it (+2 coins) and the game ends."""
    s = state(age=3, avail=["Pretorium"],
              p1=player(coins=my_coins, city=mine, wonders=my_wonders),
              p2=player(coins=their_coins, city=theirs, wonders=their_wonders))
    act(s, discard("Pretorium"))
    assert s.is_terminal()
    return s


@pytest.mark.parametrize("guild,colour,mine,theirs,coins", [
    ("Merchants Guild", "yellow", YELLOW[:1], YELLOW[1:4], 3),
    ("Merchants Guild", "yellow", YELLOW[:4], YELLOW[4:], 4),
    ("Magistrates Guild", "blue", BLUE[:2], BLUE[2:5], 3),
    ("Scientists Guild", "green", GREEN[:3], GREEN[3:], 3),
    ("Tacticians Guild", "red", RED[:1], RED[1:5], 4),
    ("Shipowners Guild", "brown+grey", BROWN[:2], BROWN[2:3] + GREY[:2], 3),
    ("Shipowners Guild", "brown+grey", BROWN[:3] + GREY[:1], BROWN[3:5] + GREY[1:3], 4),
    ("Builders Guild", "wonders (end only)", [], [], 0),
    ("Moneylenders Guild", "coins (end only)", [], [], 0),
])
def test_guild_coins_when_built(guild, colour, mine, theirs, coins):
    """R-END-3: when built, a guild gives 1 coin per counted card in the city with the most of
    them (the opponent's city if it has more): Merchants Guild yellow, Magistrates Guild blue,
    Scientists Guild green, Tacticians Guild red, Shipowners Guild brown and grey together in
    one city; Builders Guild and Moneylenders Guild give no coins when built."""
    s, cost = _build_guild(guild, mine, theirs, their_coins=7,
                           my_wonders=[built("The Sphinx")], their_wonders=[built("Piraeus")])
    assert s.coins(0) == 40 - cost + coins
    assert s.coins(1) == 7


def test_shipowners_counts_one_city_not_the_best_of_each_colour():
    """R-END-3: Shipowners Guild counts brown + grey of the single city with the most of them
    combined: P1 2 brown + 0 grey, P2 1 brown + 2 grey -> 3 (not 2 + 2)."""
    mine, theirs = ["Lumber Yard", "Quarry"], ["Clay Pool", "Glassworks", "Press"]
    s, cost = _build_guild("Shipowners Guild", mine, theirs)
    assert s.coins(0) == 40 - cost + 3
    s = _end(mine + ["Shipowners Guild"], theirs)
    assert s.vp()["purple"] == [3, 0]


@pytest.mark.parametrize("guild,mine,theirs,vp", [
    ("Merchants Guild", YELLOW[:2], YELLOW[2:5], 3),
    ("Magistrates Guild", BLUE[:4], BLUE[4:], 4),
    ("Scientists Guild", GREEN[:1], GREEN[1:4], 3),
    ("Tacticians Guild", RED[:2], RED[2:5], 3),
    ("Shipowners Guild", BROWN[:4] + GREY[:1], BROWN[4:] + GREY[1:], 5),
])
def test_guild_vp_at_the_end(guild, mine, theirs, vp):
    """R-END-3, R-END-2: at the end, a guild is worth 1 VP per counted card in the city with
    the most of them (either city); guilds never count themselves."""
    s = _end(mine + [guild], theirs)
    assert s.vp()["purple"] == [vp, 0]


def test_builders_guild():
    """R-END-3: Builders Guild: 2 VP per constructed wonder in the city with the most
    constructed wonders (unbuilt wonders do not count): P2 has 3 built -> 6 VP."""
    s = _end(["Builders Guild"], [],
             my_wonders=[built("The Sphinx"), "The Pyramids"],
             their_wonders=[built("Piraeus"), built("The Colossus"), built("Circus Maximus")])
    assert s.vp()["purple"] == [6, 0]


@pytest.mark.parametrize("mine,theirs,vp", [(0, 11, 3), (14, 2, 5), (3, 4, 1)])
def test_moneylenders_guild(mine, theirs, vp):
    """R-END-3: Moneylenders Guild: 1 VP per set of 3 coins in the richer city (the discard of
    the last card gives P1 2 coins first)."""
    s = _end(["Moneylenders Guild"], [], my_coins=mine, their_coins=theirs)
    assert s.vp()["purple"] == [vp, 0]


def test_guild_city_at_build_and_at_the_end_can_differ():
    """R-END-3: the city with the most is taken at that moment: Magistrates Guild built when
    P2 has more blue cards gives coins for P2's 3; at the end P1 has 4 blue cards: 4 VP."""
    s = state(age=3, avail=["Magistrates Guild", "Palace"],
              p1=player(coins=40, city=["Theater", "Altar"]),
              p2=player(coins=7, city=["Baths", "Temple", "Statue"]))
    cost = s.card_cost(0, "Magistrates Guild")[0]
    act(s, build("Magistrates Guild"))
    assert s.coins(0) == 40 - cost + 3
    d = s.to_dict()
    d["players"][0]["city"] += ["Rostrum", "Courthouse"]
    d["to_move"] = 1
    from duelcore import state_from_dict
    s = state_from_dict(d)
    act(s, discard("Palace"))
    assert s.is_terminal()
    assert s.vp()["purple"] == [4, 0]


def test_each_guild_picks_its_city_on_its_own():
    """R-END-3: each guild picks its city on its own: P1's Merchants Guild counts P2's 3
    yellow cards, P1's Tacticians Guild P1's own 4 red cards."""
    s = _end(["Merchants Guild", "Tacticians Guild"] + RED[:4] + YELLOW[:1],
             YELLOW[1:4] + RED[4:])
    assert s.vp()["purple"] == [3 + 4, 0]


def test_guilds_of_both_players():
    """R-END-3: both players may score guilds on the same city (P1's and P2's guilds both count
    P1's 5 blue cards)."""
    s = _end(["Magistrates Guild"] + BLUE, ["Scientists Guild"] + GREEN[:2])
    assert s.vp()["purple"] == [5, 2]


def test_guild_costs_from_the_table():
    """R-BUILD-1: guild costs as printed (e.g. Builders Guild 1 wood, 1 clay, 2 stone, 1 glass)."""
    assert CARDS["Builders Guild"].res == {"wood": 1, "clay": 1, "stone": 2, "glass": 1}
    s = state(age=3, avail=["Builders Guild", "Palace"], p1=player(coins=20))
    assert s.card_cost(0, "Builders Guild") == (10, 10)
