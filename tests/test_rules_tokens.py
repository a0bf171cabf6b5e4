"""The 10 progress tokens (R-SCI-4), including their timing: "from now on" effects are not
retroactive and a token taken as a result of a build never applies to that same build."""
import pytest

from rules_helpers import (
    SYMBOLS, TOKEN_NAMES, TOKENS, act, build, chance_token, destroy, discard, player, revive,
    state, token, wonder,
)

AVAIL2 = ["Rostrum", "Courthouse", "Temple"]
ASIDE = ["Agriculture", "Architecture", "Economy", "Masonry", "Mathematics"]


def test_token_table():
    """R-SCI-4: RULES.md lists 10 progress tokens; the engine has the same names."""
    assert sorted(TOKEN_NAMES) == sorted(TOKENS)


def test_agriculture():
    """R-SCI-4: Agriculture: immediately take 6 coins; worth 4 VP."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=5, city=["Scriptorium"]),
              board_tokens=["Agriculture"])
    act(s, build("Library"), token("Agriculture"))
    assert s.coins(0) == 5 + 6
    assert s.vp()["tokens"] == [4, 0]


def test_philosophy():
    """R-SCI-4: Philosophy is worth 7 VP."""
    s = state(age=1, avail=["Theater"], p1=player(tokens=["Philosophy"]))
    assert s.vp()["tokens"] == [7, 0]


@pytest.mark.parametrize("tokens,vp", [
    (["Mathematics"], 3),
    (["Mathematics", "Law"], 6),
    (["Mathematics", "Law", "Agriculture", "Philosophy"], 12 + 4 + 7),
])
def test_mathematics(tokens, vp):
    """R-SCI-4: Mathematics: at the end, 3 VP per progress token owned, itself included."""
    s = state(age=1, avail=["Theater"], p1=player(tokens=tokens), p2=player(tokens=["Urbanism"]))
    assert s.vp()["tokens"] == [vp, 0]


def test_law_is_a_science_symbol():
    """R-SCI-1, R-SCI-4: Law is worth one scientific symbol (law), on no card."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=5, city=["Scriptorium"]),
              board_tokens=["Law"])
    act(s, build("Library"), token("Law"))
    expected = [0] * 7
    expected[SYMBOLS.index("quill")] = 2
    expected[SYMBOLS.index("law")] = 1
    assert s.science_symbols(0) == expected


# ---------------------------------------------------------------- Architecture / Masonry
def test_architecture_waives_two_most_expensive_units_of_wonders():
    """R-SCI-4, R-TRADE-4: Architecture: every wonder costs 2 fewer resource units, the most
    expensive ones: The Pyramids (3 stone at 4, 1 papyrus at 2) costs 14, with Architecture 6."""
    opp = player(city=["Shelf Quarry"])
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["The Pyramids"]), p2=opp)
    assert s.wonder_cost(0, "The Pyramids") == (14, 14)
    s = state(age=2, avail=AVAIL2, p2=opp,
              p1=player(coins=30, wonders=["The Pyramids"], tokens=["Architecture"]))
    assert s.wonder_cost(0, "The Pyramids") == (6, 6)
    act(s, wonder("The Pyramids", "Rostrum"))
    assert s.coins(0) == 24


def test_architecture_two_units_of_different_kinds():
    """R-SCI-4: Architecture waives any 2 units, possibly of two kinds: The Sphinx (1 clay at 2,
    1 stone at 2, 2 glass at 3) costs 10, with Architecture 4 (both glass waived); when the
    player produces one glass, the other glass and a 2-coin unit are waived: 2."""
    opp = player(city=["Glass-Blower"])
    s = state(age=2, avail=AVAIL2, p2=opp, p1=player(coins=30, wonders=["The Sphinx"]))
    assert s.wonder_cost(0, "The Sphinx") == (10, 10)
    s = state(age=2, avail=AVAIL2, p2=opp,
              p1=player(coins=30, wonders=["The Sphinx"], tokens=["Architecture"]))
    assert s.wonder_cost(0, "The Sphinx") == (4, 4)
    s = state(age=2, avail=AVAIL2, p2=opp,
              p1=player(coins=30, city=["Glassworks"], wonders=["The Sphinx"],
                        tokens=["Architecture"]))
    assert s.wonder_cost(0, "The Sphinx") == (2, 2)


def test_architecture_does_not_apply_to_cards():
    """R-SCI-4: Architecture is for wonders only: Aqueduct (3 stone) still costs 6."""
    s = state(age=2, avail=["Aqueduct", "Rostrum"],
              p1=player(coins=30, tokens=["Architecture"]))
    assert s.card_cost(0, "Aqueduct") == (6, 6)


def test_architecture_from_the_great_library_gives_no_rebate_on_it():
    """R-SCI-4: a token taken as a result of a build never applies to that same build: The
    Great Library handing Architecture was paid in full (10 coins)."""
    s = state(age=2, avail=AVAIL2, explicit=True, aside_tokens=ASIDE,
              p1=player(coins=30, wonders=["The Great Library", "The Pyramids"]))
    act(s, wonder("The Great Library", "Rostrum"), chance_token("Architecture"),
        chance_token("Economy"), chance_token("Masonry"), token("Architecture"))
    assert s.coins(0) == 20
    assert s.wonder_cost(0, "The Pyramids") == (4, 4), "from now on: later wonders"


def test_masonry_waives_two_most_expensive_units_of_blue_cards():
    """R-SCI-4, R-TRADE-4: Masonry: every blue card costs 2 fewer resource units, the most
    expensive: Palace (1 wood, 1 clay, 1 stone, 2 glass; glass at 3) costs 12, with Masonry 6."""
    opp = player(city=["Glassworks"])
    s = state(age=3, avail=["Palace", "Obelisk"], p1=player(coins=30), p2=opp)
    assert s.card_cost(0, "Palace") == (12, 12)
    s = state(age=3, avail=["Palace", "Obelisk"], p1=player(coins=30, tokens=["Masonry"]),
              p2=opp)
    assert s.card_cost(0, "Palace") == (6, 6)
    act(s, build("Palace"))
    assert s.coins(0) == 24


def test_masonry_only_for_blue_cards_and_not_printed_coins():
    """R-SCI-4: Masonry waives resource units of blue cards only: Fortifications (red) costs 8;
    Pretorium's 8 printed coins are not resources; a wonder is not a blue card."""
    s = state(age=3, avail=["Fortifications", "Pretorium"],
              p1=player(coins=30, tokens=["Masonry"], wonders=["The Sphinx"]))
    assert s.card_cost(0, "Fortifications") == (8, 8)
    assert s.card_cost(0, "Pretorium") == (8, 0)
    assert s.wonder_cost(0, "The Sphinx") == (8, 8)


def test_masonry_cannot_make_a_card_cheaper_than_free():
    """R-SCI-4: Masonry on Baths (1 stone) makes it free, not cheaper than free."""
    s = state(age=1, avail=["Baths", "Theater"], p1=player(coins=0, tokens=["Masonry"]))
    assert s.card_cost(0, "Baths") == (0, 0)


# ---------------------------------------------------------------- Economy
def test_economy_takes_the_traded_coins_of_a_card_not_printed_coins():
    """R-SCI-4, R-TRADE-1: Economy: the coins the opponent actually pays for traded resources
    go to its owner; never the printed coin cost (Forum: 3 coins to the bank, 2 for the clay to
    the Economy owner)."""
    s = state(age=2, avail=["Forum", "Rostrum"], p1=player(coins=10),
              p2=player(coins=0, tokens=["Economy"]))
    act(s, build("Forum"))
    assert s.coins(0) == 5
    assert s.coins(1) == 2


def test_economy_for_wonders():
    """R-SCI-4: Economy also takes the coins paid for a wonder's resources (The Pyramids: 8)."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=10, wonders=["The Pyramids"]),
              p2=player(coins=1, tokens=["Economy"]))
    act(s, wonder("The Pyramids", "Rostrum"))
    assert (s.coins(0), s.coins(1)) == (2, 9)


def test_economy_takes_what_is_actually_paid():
    """R-SCI-4, R-TRADE-3: with Stone Reserve the opponent pays 1 coin per stone: the Economy
    owner gets 3 coins for Aqueduct, not 6."""
    s = state(age=2, avail=["Aqueduct", "Rostrum"], p1=player(coins=10, city=["Stone Reserve"]),
              p2=player(coins=0, tokens=["Economy"]))
    act(s, build("Aqueduct"))
    assert (s.coins(0), s.coins(1)) == (7, 3)


def test_economy_owner_own_purchases_go_to_the_bank():
    """R-SCI-4: Economy does not change its owner's own payments (to the bank)."""
    s = state(age=2, avail=["Aqueduct", "Rostrum"], p1=player(coins=10, tokens=["Economy"]),
              p2=player(coins=0))
    act(s, build("Aqueduct"))
    assert (s.coins(0), s.coins(1)) == (4, 0)


# ---------------------------------------------------------------- Strategy
def test_strategy_adds_a_shield_to_red_cards():
    """R-SCI-4: Strategy: each red card built from now on gives 1 extra shield (Walls: 3)."""
    s = state(age=2, avail=["Walls", "Rostrum"], p1=player(coins=10, tokens=["Strategy"]))
    act(s, build("Walls"))
    assert s.pawn == 3


def test_strategy_is_not_retroactive():
    """R-SCI-4: taking Strategy does not move the pawn for the red cards already built."""
    s = state(age=2, avail=["Library", "Rostrum"],
              p1=player(coins=10, city=["Scriptorium", "Guard Tower", "Walls"]),
              board_tokens=["Strategy"], pawn=3, military_tokens=[[2, 5], [5]])
    act(s, build("Library"), token("Strategy"))
    assert s.pawn == 3


def test_strategy_on_a_mausoleum_red_card():
    """R-SCI-4, R-WONDER-5: Strategy also adds its shield to a red card built by The
    Mausoleum (Barracks: 1 + 1)."""
    s = state(age=2, avail=AVAIL2, discard_pile=["Barracks"],
              p1=player(coins=20, wonders=["The Mausoleum"], tokens=["Strategy"]))
    act(s, wonder("The Mausoleum", "Rostrum"), revive("Barracks"))
    assert s.pawn == 2


@pytest.mark.parametrize("name,shields", [("The Colossus", 2), ("The Statue of Zeus", 1),
                                          ("Circus Maximus", 1)])
def test_strategy_never_on_wonders(name, shields):
    """R-SCI-4: Strategy never adds a shield to a wonder."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=[name], tokens=["Strategy"]))
    act(s, wonder(name, "Rostrum"))
    assert s.pawn == shields


# ---------------------------------------------------------------- Theology
def test_theology_gives_play_again_to_wonders():
    """R-SCI-4, R-WONDER-2: Theology: every wonder built from now on has Play Again (The
    Pyramids has none of its own)."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["The Pyramids"],
                                             tokens=["Theology"]))
    act(s, wonder("The Pyramids", "Rostrum"))
    assert s.current_player() == 0


def test_theology_never_twice_to_one_wonder():
    """R-SCI-4: a wonder that already has Play Again does not get a second one: after The
    Sphinx and one extra turn, the opponent plays."""
    s = state(age=2, avail=AVAIL2 + ["Statue"], p1=player(coins=30, wonders=["The Sphinx"],
                                                          tokens=["Theology"]))
    act(s, wonder("The Sphinx", "Rostrum"))
    assert s.current_player() == 0
    act(s, discard("Courthouse"))
    assert s.current_player() == 1


def test_theology_not_for_cards():
    """R-SCI-4: Theology is for wonders only: building a card passes the turn."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, tokens=["Theology"]))
    act(s, build("Rostrum"))
    assert s.current_player() == 1


def test_great_library_handing_theology_does_not_replay():
    """R-WONDER-2, R-SCI-4: whether a wonder gives Play Again is fixed when it is paid for: a
    Great Library that hands the player Theology does not itself replay."""
    s = state(age=2, avail=AVAIL2 + ["Statue"], explicit=True,
              aside_tokens=["Theology", "Economy", "Masonry", "Agriculture", "Law"],
              p1=player(coins=30, wonders=["The Great Library", "The Pyramids"]))
    act(s, wonder("The Great Library", "Rostrum"), chance_token("Theology"),
        chance_token("Economy"), chance_token("Masonry"), token("Theology"))
    assert s.phase == "play"
    assert s.current_player() == 1
    act(s, discard("Courthouse"), wonder("The Pyramids", "Temple"))
    assert s.current_player() == 0, "later wonders do replay"


def test_great_library_with_theology_owned_replays():
    """R-WONDER-2: a Great Library built while owning Theology replays, after its choice."""
    s = state(age=2, avail=AVAIL2, explicit=True, aside_tokens=ASIDE,
              p1=player(coins=30, wonders=["The Great Library"], tokens=["Theology"]))
    act(s, wonder("The Great Library", "Rostrum"), chance_token("Agriculture"),
        chance_token("Economy"), chance_token("Masonry"))
    assert s.phase == "library" and s.current_player() == 0
    act(s, token("Masonry"))
    assert s.phase == "play" and s.current_player() == 0


def test_mausoleum_handing_theology_does_not_replay():
    """R-WONDER-2: a Mausoleum whose revived green card makes a pair that hands the player
    Theology does not itself replay."""
    s = state(age=2, avail=AVAIL2, discard_pile=["Library"], board_tokens=["Theology"],
              p1=player(coins=30, city=["Scriptorium"], wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Rostrum"), revive("Library"), token("Theology"))
    assert s.current_player() == 1


def test_statue_of_zeus_with_theology_destroys_then_replays():
    """R-WONDER-2: coins, shields, then the choice (destroy), then Play Again (Theology)."""
    s = state(age=2, avail=AVAIL2, p1=player(coins=30, wonders=["The Statue of Zeus"],
                                             tokens=["Theology"]),
              p2=player(city=["Quarry"]))
    act(s, wonder("The Statue of Zeus", "Rostrum"))
    assert s.phase == "destroy" and s.pawn == 1
    act(s, destroy("Quarry"))
    assert s.phase == "play" and s.current_player() == 0


# ---------------------------------------------------------------- Urbanism
def test_urbanism_six_coins_then_four_per_chain_build():
    """R-SCI-4: Urbanism: immediately take 6 coins; each later build made free by a chain
    symbol gives 4 coins (Aqueduct after Baths)."""
    s = state(age=2, avail=["Library", "Aqueduct", "Rostrum"], board_tokens=["Urbanism"],
              p1=player(coins=0, city=["Scriptorium", "Baths"]))
    act(s, build("Library"))
    assert s.coins(0) == 0, "Library is a chain build but Urbanism is not yet owned"
    act(s, token("Urbanism"))
    assert s.coins(0) == 6, "no +4 for the chain build whose pair brought Urbanism"
    act(s, discard("Rostrum"))
    act(s, build("Aqueduct"))
    assert s.coins(0) == 6 + 4


def test_urbanism_not_on_the_dispensary_that_brought_it():
    """R-SCI-4: Dispensary after Pharmacist always makes a pair: the Urbanism it brings gives
    its 6 coins but no +4 for that build."""
    s = state(age=2, avail=["Dispensary", "Rostrum"], board_tokens=["Urbanism"],
              p1=player(coins=1, city=["Pharmacist"]))
    act(s, build("Dispensary"), token("Urbanism"))
    assert s.coins(0) == 7


def test_urbanism_only_for_chain_builds():
    """R-SCI-4: a card free by its cost (Theater) is not a chain build: no coins."""
    s = state(age=1, avail=["Theater", "Altar"], p1=player(coins=0, tokens=["Urbanism"]))
    act(s, build("Theater"))
    assert s.coins(0) == 0


def test_urbanism_not_on_mausoleum_builds():
    """R-SCI-4, R-WONDER-5: a card built by The Mausoleum is not a chain build, even when the
    city holds its chain symbol (Aqueduct with Baths): no +4."""
    s = state(age=2, avail=AVAIL2, discard_pile=["Aqueduct"],
              p1=player(coins=20, city=["Baths"], wonders=["The Mausoleum"],
                        tokens=["Urbanism"]))
    act(s, wonder("The Mausoleum", "Rostrum"), revive("Aqueduct"))
    assert s.coins(0) == 10


def test_urbanism_with_a_chain_build_of_p2():
    """R-SCI-4: Urbanism's owner takes 4 coins per own chain build (P2's Statue after
    Theater)."""
    s = state(age=2, avail=["Statue", "Rostrum"], to_move=1,
              p2=player(coins=0, city=["Theater"], tokens=["Urbanism"]))
    act(s, build("Statue"))
    assert s.coins(1) == 4
