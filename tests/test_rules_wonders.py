"""Wonders: R-WONDER-1..6, worked example E3, and each of the 12 wonders."""
import pytest

import duelcore
from rules_helpers import (
    L, RESOURCES, WONDERS, act, build, built, card_names, chance_token, destroy, discard,
    is_wonder_action, player, revive, state, token, token_names, unit_price, wid, wonder,
)

AVAIL2 = ["Rostrum", "Courthouse", "Temple"]   # Age II cards on offer (top row)

#: Effects of the wonders table of RULES.md: coins taken, coins the opponent loses, shields,
#: Play Again, "1 of X/Y/Z" production, choice granted.
EFFECTS = {
    "The Pyramids": dict(),
    "The Colossus": dict(shields=2),
    "The Great Lighthouse": dict(choice=("wood", "clay", "stone")),
    "The Temple of Artemis": dict(coins=12, again=True),
    "The Mausoleum": dict(action="revive"),
    "The Great Library": dict(action="library"),
    "Piraeus": dict(choice=("glass", "papyrus"), again=True),
    "The Hanging Gardens": dict(coins=6, again=True),
    "The Statue of Zeus": dict(shields=1, action="destroy_brown"),
    "The Sphinx": dict(again=True),
    "The Appian Way": dict(coins=3, loss=3, again=True),
    "Circus Maximus": dict(shields=1, action="destroy_grey"),
}
VP = {"The Pyramids": 9, "The Colossus": 3, "The Great Lighthouse": 4,
      "The Temple of Artemis": 0, "The Mausoleum": 2, "The Great Library": 4, "Piraeus": 2,
      "The Hanging Gardens": 3, "The Statue of Zeus": 3, "The Sphinx": 6, "The Appian Way": 3,
      "Circus Maximus": 3}


def test_wonder_table():
    """RULES.md lists 12 wonders; the engine has the same names."""
    from rules_helpers import WONDER_NAMES
    assert sorted(WONDER_NAMES) == sorted(WONDERS) == sorted(EFFECTS)
    assert {w: WONDERS[w].vp for w in WONDERS} == VP


@pytest.mark.parametrize("name", sorted(WONDERS))
def test_wonder_cost_with_no_production(name):
    """R-WONDER-1, R-TRADE-1: a wonder costs 2 coins per resource unit it shows for a player
    with no production against an opponent with none (no printed coins)."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=[name]))
    assert s.wonder_cost(0, name) == (2 * WONDERS[name].units, 2 * WONDERS[name].units)


@pytest.mark.parametrize("name", sorted(WONDERS))
def test_wonder_effect(name):
    """R-WONDER-1, R-WONDER-2, R-TURN-3: building each wonder with an Age II card: the player
    pays the wonder's cost, takes its coins, the opponent loses coins, the pawn moves, its
    production, its VP, and Play Again (the same player moves next) -- or the turn passes."""
    e = EFFECTS[name]
    cost = 2 * WONDERS[name].units
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=[name]), p2=player(coins=7),
              board_tokens=["Law", "Philosophy", "Strategy", "Theology", "Urbanism"],
              aside_tokens=["Agriculture", "Architecture", "Economy", "Masonry", "Mathematics"])
    act(s, wonder(name, "Rostrum"))
    assert s.wonders(0) == [(wid(name), True)]
    assert s.coins(0) == 30 - cost + e.get("coins", 0)
    assert s.coins(1) == 7 - e.get("loss", 0)
    assert s.pawn == e.get("shields", 0)
    assert s.vp()["wonders"] == [VP[name], 0]
    for r in RESOURCES:
        if r in e.get("choice", ()):
            assert unit_price(s, 0, r) == 0
        else:
            assert unit_price(s, 0, r) == 2
        assert unit_price(s, 1, r) == 2, "wonder production never raises the price (R-TRADE-2)"
    action = e.get("action")
    if action == "library":
        assert s.phase == "library"      # 3 set-aside tokens drawn (R-WONDER-6)
        assert s.current_player() == 0
    else:
        assert s.phase == "play", action
        assert s.current_player() == (0 if e.get("again") else 1)
    assert "Rostrum" not in card_names(s.city(0)) + card_names(s.discard_pile())


def test_e3_colossus_with_baths():
    """E3 (seed 001), R-WONDER-1: the player takes Baths to build The Colossus: they pay the
    Colossus's 3 clay + 1 glass (produced here), not Baths' stone (they have no stone and no
    coins); Baths is tucked under it and gives nothing; The Colossus moves the pawn 2 spaces."""
    s = state(age=1, avail=["Baths", "Theater"],
              p1=player(coins=0, city=["Clay Pool", "Brickyard", "Glassworks"],
                        wonders=["The Colossus"]),
              p2=player(coins=7, city=["Clay Pit"]))
    assert build("Baths") not in s.legal_actions()
    assert wonder("The Colossus", "Baths") in s.legal_actions()
    act(s, wonder("The Colossus", "Baths"))
    d = s.to_dict()
    assert d["players"][0]["wonders"] == [{"name": "The Colossus", "built": True, "card": "Baths"}]
    assert "Baths" not in d["players"][0]["city"] and "Baths" not in d["discard_pile"]
    assert s.coins(0) == 0
    assert s.vp()["blue"] == [0, 0]
    assert s.pawn == 2


def test_e3_wonder_cost_uses_the_opponents_production():
    """E3, R-TRADE-1: the wonder's missing clay is bought at 2 + the opponent's clay (Brickyard
    produces 2): 1 clay missing costs 4."""
    s = state(age=1, avail=["Baths", "Theater"],
              p1=player(coins=4, city=["Clay Pool", "Clay Pit", "Glassworks"],
                        wonders=["The Colossus"]),
              p2=player(coins=7, city=["Brickyard"]))
    assert s.wonder_cost(0, "The Colossus") == (4, 4)
    act(s, wonder("The Colossus", "Baths"))
    assert (s.coins(0), s.coins(1)) == (0, 7)


@pytest.mark.parametrize("card,check", [
    ("Tavern", lambda s: s.coins(0) == 20 - 8),
    ("Scriptorium", lambda s: s.science_symbols(0) == [0] * 7),
    ("Guard Tower", lambda s: s.pawn == 0),
    ("Lumber Yard", lambda s: s.production(0) == [0] * 5),
])
def test_tucked_card_has_no_effect(card, check):
    """R-WONDER-1: the card tucked under a wonder has no effect at all and is neither in the
    city nor in the discard pile; its identity is public (written under the wonder)."""
    s = state(age=1, avail=[card, "Theater"], p1=player(coins=20, wonders=["The Pyramids"]))
    act(s, wonder("The Pyramids", card))
    assert check(s)
    assert s.city(0) == [] and s.discard_pile() == []
    assert s.to_dict()["players"][0]["wonders"][0]["card"] == card


@pytest.mark.parametrize("name,coins", [("The Temple of Artemis", 12),
                                        ("The Hanging Gardens", 6), ("The Appian Way", 3)])
def test_wonders_that_give_coins_and_play_again(name, coins):
    """R-WONDER-2, R-TURN-3: The Temple of Artemis (take 12 coins), The Hanging Gardens (take 6
    coins) and The Appian Way (take 3 coins) give their coins, then Play Again."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=10, wonders=[name]), p2=player(coins=20))
    cost = s.wonder_cost(0, name)[0]
    act(s, wonder(name, "Rostrum"))
    assert s.coins(0) == 10 - cost + coins
    assert s.current_player() == 0
    act(s, discard("Courthouse"))
    assert s.current_player() == 1, "one extra turn only"


def test_appian_way_loss_capped():
    """R-WONDER-2, R-SETUP-1: The Appian Way: the builder takes 3 coins, the opponent loses 3
    coins to the bank, at most what they have (2 -> 0)."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=10, wonders=["The Appian Way"]),
              p2=player(coins=2))
    act(s, wonder("The Appian Way", "Rostrum"))
    assert s.coins(0) == 10 - 10 + 3
    assert s.coins(1) == 0
    assert s.current_player() == 0


def test_seventh_wonder_removes_the_last_unbuilt_one():
    """R-WONDER-3: only 7 wonders can be built; when the 7th is built, the one wonder still
    unbuilt leaves the game (here P2's), and no wonder can be built any more."""
    p1 = player(coins=30, wonders=[built("The Pyramids"), built("The Colossus"),
                                   built("The Sphinx"), "The Temple of Artemis"])
    p2 = player(coins=30, wonders=[built("Piraeus"), built("The Appian Way"),
                                   built("Circus Maximus"), "The Hanging Gardens"])
    s = state(age=2, avail=AVAIL2, p1=p1, p2=p2)
    assert any(is_wonder_action(a) for a in s.legal_actions())
    act(s, wonder("The Temple of Artemis", "Rostrum"))
    assert s.current_player() == 0       # Play Again
    assert sorted(w for w, _ in s.wonders(1)) == sorted(
        wid(n) for n in ("Piraeus", "The Appian Way", "Circus Maximus"))
    assert all(b for _, b in s.wonders(1))
    assert "The Hanging Gardens" not in [w["name"] for w in s.to_dict()["players"][1]["wonders"]]
    act(s, discard("Courthouse"))
    assert not any(is_wonder_action(a) for a in s.legal_actions()), "P2 cannot build a wonder"


def test_seventh_wonder_removes_the_builders_own_unbuilt_wonder():
    """R-WONDER-3: the wonder that leaves the game may be the builder's own: P1 builds the 7th
    wonder while holding two unbuilt ones."""
    p1 = player(coins=30, wonders=[built("The Pyramids"), built("The Colossus"),
                                   "The Sphinx", "The Temple of Artemis"])
    p2 = player(coins=30, wonders=[built("Piraeus"), built("The Appian Way"),
                                   built("Circus Maximus"), built("The Hanging Gardens")])
    s = state(age=2, avail=AVAIL2, p1=p1, p2=p2)
    act(s, wonder("The Sphinx", "Rostrum"))
    names = [w["name"] for w in s.to_dict()["players"][0]["wonders"]]
    assert "The Temple of Artemis" not in names
    assert s.current_player() == 0
    assert not any(is_wonder_action(a) for a in s.legal_actions())
    assert s.vp()["wonders"][0] == 9 + 3 + 6


def test_statue_of_zeus_destroys_a_brown_card():
    """R-WONDER-4: The Statue of Zeus: 1 shield, then the builder puts one brown card of the
    opponent's city (their choice; not grey, not their own) into the discard pile; the
    opponent's production drops at once."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["The Statue of Zeus"],
                                             city=["Quarry"]),
              p2=player(city=["Lumber Yard", "Sawmill", "Glassworks"]))
    act(s, wonder("The Statue of Zeus", "Rostrum"))
    assert s.pawn == 1
    assert s.phase == "destroy" and s.current_player() == 0
    assert sorted(s.legal_actions()) == sorted([destroy("Lumber Yard"), destroy("Sawmill")])
    act(s, destroy("Sawmill"))
    assert card_names(s.discard_pile()) == ["Sawmill"]
    assert card_names(s.city(1)) == ["Glassworks", "Lumber Yard"]
    assert s.production(1) == [1, 0, 0, 1, 0]
    assert unit_price(s, 0, "wood") == 3
    assert s.phase == "play" and s.current_player() == 1


def test_statue_of_zeus_without_target():
    """R-WONDER-4: if the opponent has no brown card, the choice is skipped."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["The Statue of Zeus"],
                                             city=["Quarry"]),
              p2=player(city=["Glassworks"]))
    act(s, wonder("The Statue of Zeus", "Rostrum"))
    assert s.phase == "play" and s.current_player() == 1
    assert s.discard_pile() == []


def test_circus_maximus_destroys_a_grey_card():
    """R-WONDER-4: Circus Maximus: 1 shield, then one grey card of the opponent's city goes to
    the discard pile."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["Circus Maximus"],
                                             city=["Press"]),
              p2=player(city=["Lumber Yard", "Glassworks", "Drying Room"]))
    act(s, wonder("Circus Maximus", "Rostrum"))
    assert s.pawn == 1
    assert sorted(s.legal_actions()) == sorted([destroy("Glassworks"), destroy("Drying Room")])
    act(s, destroy("Drying Room"))
    assert card_names(s.discard_pile()) == ["Drying Room"]
    assert s.production(1) == [1, 0, 0, 1, 0]
    assert s.current_player() == 1


def test_circus_maximus_without_target():
    """R-WONDER-4: if the opponent has no grey card, the choice is skipped."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["Circus Maximus"]),
              p2=player(city=["Lumber Yard"]))
    act(s, wonder("Circus Maximus", "Rostrum"))
    assert s.phase == "play" and s.current_player() == 1
    assert card_names(s.city(1)) == ["Lumber Yard"]


def test_destroyed_card_can_be_revived():
    """R-WONDER-4, R-WONDER-5: a destroyed card is in the discard pile: The Mausoleum can build
    it again."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=40, wonders=["Circus Maximus",
                                                                "The Mausoleum"]),
              p2=player(city=["Glassworks"]))
    act(s, wonder("Circus Maximus", "Rostrum"), destroy("Glassworks"))
    act(s, discard("Courthouse"))
    act(s, wonder("The Mausoleum", "Temple"))
    assert sorted(s.legal_actions()) == sorted([revive("Glassworks"), revive("Courthouse")])


def test_mausoleum_builds_a_discarded_card_for_free():
    """R-WONDER-5: The Mausoleum: the builder chooses any card of the discard pile and builds
    it for free with all its effects (Tavern: +4 coins); the others stay in the pile."""
    s = state(age=2, avail=AVAIL2, discard_pile=["Tavern", "Palace", "Arsenal"],
              p1=player(coins=20, wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Rostrum"))
    assert s.phase == "revive" and s.current_player() == 0
    assert sorted(s.legal_actions()) == sorted(revive(c) for c in ("Tavern", "Palace", "Arsenal"))
    act(s, revive("Tavern"))
    assert s.coins(0) == 20 - 10 + 4
    assert card_names(s.city(0)) == ["Tavern"]
    assert card_names(s.discard_pile()) == ["Arsenal", "Palace"]
    assert s.current_player() == 1


def test_mausoleum_builds_any_card_for_free_even_unaffordable():
    """R-WONDER-5: the revived card is free: Palace (10 coins of resources) with 0 coins left."""
    s = state(age=2, avail=AVAIL2, discard_pile=["Palace"],
              p1=player(coins=10, wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Rostrum"), revive("Palace"))
    assert s.coins(0) == 0
    assert s.vp()["blue"] == [7, 0]


def test_mausoleum_red_card_shields():
    """R-WONDER-5: a red card built by The Mausoleum moves the pawn (Arsenal: 3 shields)."""
    s = state(age=2, avail=AVAIL2, discard_pile=["Arsenal"],
              p1=player(coins=20, wonders=["The Mausoleum"]), p2=player(coins=7))
    act(s, wonder("The Mausoleum", "Rostrum"), revive("Arsenal"))
    assert s.pawn == 3
    assert s.coins(1) == 5


def test_mausoleum_with_empty_pile():
    """R-WONDER-5: if the discard pile is empty the choice is skipped."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=20, wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Rostrum"))
    assert s.phase == "play" and s.current_player() == 1
    assert s.vp()["wonders"] == [2, 0]


def test_mausoleum_pile_is_discards_only():
    """R-WONDER-5, R-SETUP-6: the discard pile The Mausoleum chooses from holds exactly the
    cards discarded since the start, never the cards removed at setup: in a game where every
    turn discards, the pile is always exactly the discarded cards (60 at the end)."""
    import random
    rng = random.Random(7)
    s = duelcore.new_game(11, first_game_wonders=True)
    discarded = set()
    while not s.is_terminal():
        acts = s.legal_actions()
        if s.phase == "play":
            discards = [a for a in acts if L["DISCARD_BASE"] <= a < L["WONDER_BASE"]]
            a = rng.choice(discards)
            discarded.add(a - L["DISCARD_BASE"])
        else:
            a = rng.choice(acts)
        s.apply_action(a)
        assert set(s.discard_pile()) == discarded
    assert len(discarded) == 60


def _library_state(**kw):
    return state(age=2, avail=AVAIL2, explicit=True,
                 p1=player(coins=30, wonders=["The Great Library"], **kw),
                 board_tokens=["Law", "Philosophy", "Strategy", "Theology", "Urbanism"],
                 aside_tokens=["Agriculture", "Architecture", "Economy", "Masonry",
                               "Mathematics"])


def test_great_library_draws_3_of_the_5_set_aside_tokens():
    """R-WONDER-6, R-CHANCE-1: The Great Library draws 3 of the 5 set-aside tokens at random
    (uniformly, never a board token); the builder keeps one (applied at once: Agriculture +6
    coins); the other two leave the game."""
    s = _library_state()
    act(s, wonder("The Great Library", "Rostrum"))
    aside = ["Agriculture", "Architecture", "Economy", "Masonry", "Mathematics"]
    assert s.phase == "library_draw" and s.is_chance_node()
    outs = s.chance_outcomes()
    assert sorted(a for a, _ in outs) == sorted(chance_token(t) for t in aside)
    assert all(abs(p - 1 / 5) < 1e-12 for _, p in outs)
    act(s, chance_token("Economy"))
    outs = s.chance_outcomes()
    assert len(outs) == 4 and all(abs(p - 1 / 4) < 1e-12 for _, p in outs)
    act(s, chance_token("Agriculture"))
    assert len(s.chance_outcomes()) == 3
    act(s, chance_token("Mathematics"))
    assert s.phase == "library" and s.current_player() == 0
    assert sorted(s.legal_actions()) == sorted(token(t) for t in ("Economy", "Agriculture",
                                                                   "Mathematics"))
    act(s, token("Agriculture"))
    assert token_names(s.progress_tokens(0)) == ["Agriculture"]
    assert s.coins(0) == 30 - 10 + 6
    d = s.to_dict()
    assert sorted(d["aside_tokens"]) == ["Architecture", "Masonry"], \
        "the two tokens not kept leave the game"
    assert d["library_offer"] == []
    assert sorted(d["board_tokens"]) == ["Law", "Philosophy", "Strategy", "Theology", "Urbanism"]
    assert s.current_player() == 1, "The Great Library has no Play Again"


def test_great_library_in_sampled_mode():
    """R-WONDER-6: with chance sampled, the builder is offered exactly 3 set-aside tokens."""
    d = _library_state().to_dict()
    d["options"] = {"explicit_chance": False}
    s = duelcore.state_from_dict(d)
    act(s, wonder("The Great Library", "Rostrum"))
    assert s.phase == "library"
    offer = s.to_dict()["library_offer"]
    assert len(offer) == 3
    assert set(offer) <= {"Agriculture", "Architecture", "Economy", "Masonry", "Mathematics"}


def test_great_lighthouse_and_piraeus_choices():
    """R-TRADE-4: The Great Lighthouse produces 1 of wood/clay/stone, Piraeus 1 of
    glass/papyrus, for each build: Palace (1 wood, 1 clay, 1 stone, 2 glass) costs 2 * 5 - 2 - 2
    = 6 with both."""
    s = state(age=3, avail=["Palace", "Obelisk"],
              p1=player(coins=10, wonders=[built("The Great Lighthouse"), built("Piraeus")]))
    assert s.card_cost(0, "Palace") == (6, 6)
