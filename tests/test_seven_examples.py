"""The worked examples WE1..WE15 of the 7 Wonders rules digest, as scenarios (W-TRADE, W-TURN,
W-BUILD, W-SCI, W-MIL, W-CARD, W-WON, W-END, W-FREE)."""
import pytest

from duelcore import seven as sv
from duelcore import seven_data as D
from seven_helpers import act, commit_all, options, position


def test_we1_two_neighbours_two_prices():
    """WE1 (W-TRADE-2, W-TRADE-3, W-TRADE-4, W-TRADE-5, W-TRADE-6): Town Hall for Rhodos A
    with West Trading Post: (1, 4) or (2, 2); the right neighbour sells its one stone only."""
    cities = [["West Trading Post"], ["Quarry", "Caravansery"], ["Stone Pit", "Glassworks"]]
    st = position(3, ["Rhodos A", "Gizah A", "Babylon A"], age=3, cities=cities,
                  hands=[["Town Hall"], [], []], coins=[5, 3, 3])
    assert st.payment_options(0, "Town Hall") == [(1, 4), (2, 2)]
    assert options(st, 0, "build", "Town Hall") == [(1, 4), (2, 2)]
    st4 = position(3, ["Rhodos A", "Gizah A", "Babylon A"], age=3, cities=cities,
                   hands=[["Town Hall"], [], []], coins=[4, 3, 3])
    assert options(st4, 0, "build", "Town Hall") == [(2, 2)]
    # the sellers are paid at step 4
    commit_all(st, {0: act("build", "Town Hall", 2, 2)})
    assert "Town Hall" in st.city(0)
    assert [st.coins(i) for i in range(3)] == [1, 3 + 2 + 3, 3 + 2 + 3]


def test_we2_dominated_split():
    """WE2 (W-TRADE-6): (2, 2) is dominated by (1, 2); all pairs keep it."""
    cities = [["West Trading Post"], ["Glassworks"], ["Lumber Yard"]]
    boards = ["Babylon A", "Olympia A", "Alexandria A"]      # clay; wood; glass
    st = position(3, boards, age=2, cities=cities, hands=[["Temple"], [], []], coins=[9, 3, 3])
    assert st.payment_options(0, "Temple") == [(0, 4), (1, 2), (3, 0)]
    assert st.payment_options(0, "Temple", all_pairs=True) == [(0, 4), (1, 2), (2, 2), (3, 0)]
    stall = position(3, boards, age=2, cities=cities, hands=[["Temple"], [], []],
                     coins=[9, 3, 3], all_pairs=True)
    assert options(stall, 0, "build", "Temple") == [(0, 4), (1, 2), (2, 2), (3, 0)]


def test_we3_income_comes_after_the_turn():
    """WE3 (W-TURN-4): 1 coin cannot buy the wood for Statue although neighbours pay 4."""
    cities = [["Foundry"], ["Barracks"], ["Lumber Yard"]]
    st = position(3, ["Gizah A", "Babylon A", "Olympia A"], age=2, turn=2, cities=cities,
                  hands=[["Statue"], ["Stables"], ["Archery Range"]], coins=[1, 9, 9])
    assert options(st, 0, "build", "Statue") == []
    # seat 1 (Babylon: clay) buys the ore for Stables from seat 0 (its right), wood from seat 2
    s1 = options(st, 1, "build", "Stables")
    assert (2, 2) in s1
    # seat 2 (Olympia + Lumber Yard: 2 wood) buys the ore of Archery Range from seat 0 (its left)
    assert options(st, 2, "build", "Archery Range") == [(2, 0)]
    commit_all(st, {0: act("discard", "Statue"), 1: act("build", "Stables", 2, 2),
                    2: act("build", "Archery Range", 2, 0)})
    assert st.coins(0) == 1 + 2 + 2 + 3 == 8


def test_we4_one_double_card_three_uses():
    """WE4 (W-PROD-1, W-TRADE-2, W-TRADE-3, W-CARD-1): Timber Yard gives wood to its owner,
    stone to the left neighbour and wood to the right one in the same turn."""
    # Age I, turn 2 (Timber Yard was built on turn 1); the right neighbour, Olympia A (wood),
    # buys the second wood of its stage 1 (2 wood)
    cities = [["Timber Yard"], [], []]
    st = position(3, ["Halikarnassus A", "Alexandria A", "Olympia A"], age=1, turn=2,
                  cities=cities, hands=[["Stockade"], ["Baths"], []], coins=[3, 3, 3])
    card2 = st.hand(2)[0]
    assert options(st, 0, "build", "Stockade") == [(0, 0)]
    assert options(st, 1, "build", "Baths") == [(0, 2)]       # stone from its right (seat 0)
    assert options(st, 2, "stage", card2) == [(2, 0)]         # wood from its left (seat 0)
    commit_all(st, {0: act("build", "Stockade"), 1: act("build", "Baths", 0, 2),
                    2: act("stage", card2, 2, 0)})
    assert st.coins(0) == 7 and st.coins(1) == 1 and st.coins(2) == 1
    assert "Stockade" in st.city(0) and "Baths" in st.city(1) and st.board(2)[2] == 1


@pytest.mark.parametrize("have,card,age", [("Theater", "Statue", 2), ("Statue", "Gardens", 3),
                                           ("Scriptorium", "Library", 2),
                                           ("Scriptorium", "Courthouse", 2),
                                           ("Library", "Senate", 3), ("Library", "University", 3)])
def test_we5_chains(have, card, age):
    """WE5 (W-BUILD-2): a chain makes the card free, with no coins at all."""
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], age=age, cities=[[have], [], []],
                  hands=[[card], [], []], coins=[0, 3, 3])
    assert options(st, 0, "build", card) == [(0, 0)]
    commit_all(st, {0: act("build", card)})
    assert card in st.city(0) and st.coins(0) == 0


def test_we5_stage_card_unlocks_nothing_and_same_name():
    """WE5 (W-BUILD-2, -3, W-WON-1): Scriptorium under a stage gives no chain; the Age I Loom
    bars the Age II Loom, which can still be staged or discarded."""
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], age=1, turn=2,
                  cities=[[], ["Stone Pit"], []], hands=[["Scriptorium"], [], []],
                  coins=[3, 3, 3])
    # Gizah A stage 1 costs 2 stone: board stone + one bought
    commit_all(st, {0: act("stage", "Scriptorium", *st.payment_options(0)[0])})
    assert "Scriptorium" not in st.city(0) and st.board(0)[2] == 1
    st2 = position(3, ["Gizah A", "Babylon A", "Rhodos A"], age=2,
                   cities=[["Loom"], ["Stone Pit"], []],
                   hands=[["Loom", "Library"], [], []], coins=[9, 3, 3])
    assert options(st2, 0, "build", "Loom") == []
    assert options(st2, 0, "discard", "Loom") == [(0, 0)]
    assert options(st2, 0, "stage", "Loom") != []
    assert "already holds Loom" in st2.why_illegal(0, act("build", "Loom"))


def test_we6_science_with_wildcards():
    """WE6 (W-SCI-3, W-SCI-2): 21, 31, 38, 1; a city whose two wildcards are Scientists Guild
    and Babylon A stage 2 scores 38."""
    assert sv.science_points(3, 2, 1) == 21
    assert sv.science_points(3, 2, 1, 1) == 31
    assert sv.science_points(3, 2, 1, 2) == 38
    assert sv.science_points(0, 0, 0, 1) == 1
    # in a city: Apothecary, Dispensary, Lodge (3 compass), Workshop, Laboratory (2 gear),
    # Scriptorium (tablet), Scientists Guild, Babylon A stage 2
    city = ["Apothecary", "Dispensary", "Lodge", "Workshop", "Laboratory", "Scriptorium",
            "Scientists Guild"]
    st = position(3, ["Babylon A", "Gizah A", "Rhodos A"], age=3, turn=3,
                  cities=[city, [], []], stages=[2, 0, 0], guilds=["Scientists Guild", "Spies Guild", "Traders Guild",
                                            "Workers Guild", "Builders Guild"])
    assert st.scores()[0]["science"] == 38
    assert st.city_info(0)["wild"] == 2


def _military_position(age):
    cities = [["Stockade", "Stables"], ["Barracks", "Walls"], ["Guard Tower", "Archery Range"]]
    return position(3, ["Rhodos A", "Gizah A", "Babylon A"], age=age, turn=6, cities=cities,
                    stages=[2, 0, 0])


def test_we7_end_of_age_military():
    """WE7 (W-MIL-1): strengths 5, 3, 3 at the end of Age II: +6, -1, -1."""
    st = _military_position(2)
    assert [st.shields(i) for i in range(3)] == [5, 3, 3]
    commit_all(st, {})
    assert st.age == 3
    assert [st.military(i) for i in range(3)] == [(6, 0), (-1, 1), (-1, 1)]


def test_we7_end_of_age_one():
    """WE7: the same strengths at the end of Age I give seat 0 +1 +1."""
    cities = [["Stockade", "Barracks"], ["Guard Tower"], []]
    st = position(3, ["Rhodos A", "Gizah A", "Babylon A"], age=1, turn=6, cities=cities,
                  stages=[2, 0, 0])
    commit_all(st, {})
    assert st.military(0) == (2, 0) and st.military(1) == (0, 1) and st.military(2) == (-2, 2)


def test_we8_coins_counted_on_the_same_turn():
    """WE8 (W-CARD-6): Vineyard 7 coins, Bazar 6, counting the neighbours' new cards."""
    cities = [["Lumber Yard", "Clay Pool", "Press"],
              ["Clay Pit", "Ore Vein", "Stone Pit"], ["Timber Yard", "Glassworks"], []]
    boards = ["Gizah A", "Babylon A", "Rhodos A", "Ephesos A"]
    # seat 0's left is seat 1, its right is seat 3
    cities = [cities[0], cities[1], [], cities[2]]
    for card, gain in (("Vineyard", 7), ("Bazar", 6)):
        st = position(4, boards, age=2, cities=cities,
                      hands=[[card], ["Sawmill"], [], ["Loom"]], coins=[0, 3, 3, 3])
        commit_all(st, {0: act("build", card), 1: act("build", "Sawmill"),
                        3: act("build", "Loom")})
        assert st.coins(0) == gain
    st = position(4, boards, age=3, cities=[["East Trading Post", "Vineyard"], ["Glassworks"], [], []],
                  hands=[["Lighthouse"], [], [], []], coins=[9, 3, 3, 3])
    a = [x for x in st.legal_actions(0) if sv.decode_turn_action(x)[:2] == ("build", "Lighthouse")]
    assert a
    _, _, l, r = sv.decode_turn_action(a[0])
    commit_all(st, {0: a[0]})
    assert st.coins(0) == 9 - l - r + 3
    assert st.scores()[0]["commercial"] == 3


def test_we9_halikarnassus_on_turn_six():
    """WE9 (W-WON-6): the pick sees the 7th cards and this turn's discards; Loom is barred;
    Vineyard taken this way pays 9 coins."""
    boards = ["Rhodos A", "Gizah A", "Halikarnassus A", "Babylon A"]
    cities = [["Clay Pool"], ["Lumber Yard", "Stone Pit", "Quarry"],
              ["Loom", "Foundry", "Clay Pit"], ["Excavation", "Sawmill", "Brickyard", "Quarry"]]
    hands = [["Press", "Loom"], ["Laboratory", "Statue"], ["Temple", "Courthouse"],
             ["Glassworks", "Vineyard"]]
    discard = ["Altar", "Ore Vein", "Apothecary", "Timber Yard", "Baths"]
    st = position(4, boards, age=2, turn=6, cities=cities, hands=hands, discard=discard,
                  stages=[0, 0, 1, 0], coins=[3, 3, 3, 3])
    assert options(st, 2, "stage", "Temple") == [(0, 0)]
    commit_all(st, {0: act("build", "Press"), 1: act("discard", "Laboratory"),
                    2: act("stage", "Temple"), 3: act("build", "Glassworks")})
    assert st.phase == "halikarnassus" and st.pending_seats() == [2]
    picks = {sv.action_to_string(a) for a in st.legal_actions(2)}
    names = ["Altar", "Ore Vein", "Apothecary", "Timber Yard", "Baths", "Statue",
             "Courthouse", "Vineyard", "Laboratory"]
    # the pile also holds the other cards of Age I and of Age II's first five turns (a
    # position the rules reach, issue 30); the 7th cards and this turn's discard are there
    assert {f"take {n} from the discard" for n in names} <= picks
    assert "take nothing from the discard" in picks
    assert "take Loom from the discard" not in picks              # same name (W-BUILD-3)
    assert {sv.action_to_string(sv.HALI_BASE + D.NAMES.index(n)) for n in st.discard_pile()
            if n not in st.city(2)} | {"take nothing from the discard"} == picks
    before = st.coins(2)
    st.apply_action(sv.HALI_BASE + D.NAMES.index("Vineyard"), 2)
    assert "Vineyard" in st.city(2) and st.age == 3
    assert st.coins(2) == before + 9                           # military moves no coins


def test_we9_take_nothing():
    """W-WON-6: "may": taking nothing is legal."""
    boards = ["Rhodos A", "Gizah A", "Halikarnassus A"]
    st = position(3, boards, age=2, turn=6, cities=[[], [], ["Foundry", "Ore Vein"]],
                  hands=[[], [], ["Temple"]], discard=["Altar"], stages=[0, 0, 1])
    commit_all(st, {2: act("stage", "Temple")})
    assert st.phase == "halikarnassus"
    st.apply_action(sv.HALI_NONE, 2)
    assert "Altar" in st.discard_pile() and st.age == 3


def test_we10_olympia_free_build():
    """WE10 (W-WON-7): once per Age, from the turn after stage 2; chains do not spend it."""
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=1, turn=4,
                  cities=[["Stone Pit", "Timber Yard"], [], []], hands=[["Altar"], [], []],
                  stages=[1, 0, 0], coins=[3, 3, 3])
    assert not st.olympia_free(0)
    commit_all(st, {0: act("stage", "Altar")})               # stage 2: 2 stone, own production
    assert st.olympia_free(0)                                 # usable from turn 5
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=1, turn=5,
                  cities=[[], [], []], hands=[["Workshop"], [], []],
                  stages=[2, 0, 0], coins=[0, 3, 3], olympia_free=[True, False, False])
    assert options(st, 0, "build", "Workshop") == []          # no glass, no coins
    assert options(st, 0, "free", "Workshop") == [(0, 0)]
    commit_all(st, {0: act("free", "Workshop")})
    assert not st.olympia_free(0) and "Workshop" in st.city(0)
    assert not [a for a in st.legal_actions(0) if sv.decode_turn_action(a)[0] == "free"]
    commit_all(st, {})                                        # turn 6, then Age II
    assert st.age == 2 and st.olympia_free(0)                 # once in each later Age
    # Age II: a chain build keeps the power; then Statue with it
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=2, turn=1,
                  cities=[["Scriptorium"], [], []], hands=[["Library", "Statue"], [], []],
                  stages=[2, 0, 0], coins=[0, 3, 3], olympia_free=[True, False, False])
    assert options(st, 0, "free", "Library") == []
    commit_all(st, {0: act("build", "Library")})
    assert st.olympia_free(0) and "Library" in st.city(0)
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=3, turn=2,
                  cities=[[], [], []], hands=[["Palace"], [], []],
                  stages=[2, 0, 0], coins=[0, 3, 3], olympia_free=[True, False, False])
    assert options(st, 0, "free", "Palace") == [(0, 0)]
    assert options(st, 0, "build", "Palace") == []
    commit_all(st, {0: act("free", "Palace")})
    assert "Palace" in st.city(0) and st.coins(0) == 0


def test_we11_babylon_b_seventh_card():
    """WE11 (W-WON-5, W-TURN-4)."""
    boards = ["Babylon B", "Gizah A", "Halikarnassus A"]
    cities = [["Clay Pool", "Brickyard", "Sawmill", "Glassworks"], ["Stone Pit", "Press"],
              ["Lumber Yard", "Glassworks"]]
    st = position(3, boards, age=2, turn=6, cities=cities, stages=[1, 0, 0],
                  hands=[["Forum", "Library"], ["Courthouse"], ["Temple"]], coins=[1, 10, 10])
    assert options(st, 0, "build", "Library") == []          # 1 coin: nothing can be bought
    assert options(st, 0, "stage", "Forum") == [(0, 0)]
    assert options(st, 1, "build", "Courthouse") == [(2, 4)]   # loom left (seat 2), clay right
    assert options(st, 2, "build", "Temple") == [(2, 0)]       # clay from its left (seat 0)
    commit_all(st, {0: act("stage", "Forum"), 1: act("build", "Courthouse", 2, 4),
                    2: act("build", "Temple", 2, 0)})
    assert st.phase == "seventh" and st.seventh_card() == "Library"
    assert st.coins(0) == 7
    assert options(st, 0, "build", "Library") == [(4, 2)]
    assert options(st, 0, "stage", "Library") == [(2, 0)]    # stage 3: the papyrus only
    st.apply_action(act("build", "Library", 4, 2), 0)
    assert st.coins(0) == 1 and "Library" in st.city(0) and st.age == 3


def test_we12_guilds_and_olympia_copy():
    """WE12 (W-CARD-8, W-WON-8, W-END-3): X scores 32 VP of guilds; Olympia B copies
    Craftsmens (8), the copy that maximises its total."""
    boards = ["Ephesos A", "Olympia B", "Gizah A", "Rhodos A", "Babylon A"]
    cities = [
        ["Clay Pool", "Lumber Yard", "Ore Vein", "Glassworks", "Loom",
         "Barracks", "Guard Tower", "Stables", "Arsenal", "Workers Guild"],
        ["Stone Pit", "Quarry", "Glassworks", "Loom", "Press",
         "Barracks", "Guard Tower", "Stables", "Arsenal", "Circus", "Traders Guild"],
        ["Clay Pit", "Excavation", "Forest Cave", "Glassworks", "Press",
         "Siege Workshop", "Circus", "Walls",
         "Spies Guild", "Craftsmens Guild", "Builders Guild", "Shipowners Guild"],
        ["Sawmill", "Foundry", "Brickyard", "Timber Yard", "Loom", "Siege Workshop",
         "Fortifications"],
        [],
    ]
    guilds = ["Spies Guild", "Craftsmens Guild", "Builders Guild", "Shipowners Guild",
              "Traders Guild", "Workers Guild", "Magistrates Guild"]
    st = position(5, boards, phase="over", cities=cities, stages=[2, 3, 2, 3, 0],
                  guilds=guilds)
    sc = st.scores()
    assert sc[2]["guilds"] == 7 + 8 + 8 + 9 == 32
    assert sc[1]["guilds"] == 0 + 8                            # Traders: no yellow next door
    assert st.city_info(1)["copy_guild"]


def test_we13_full_score():
    """WE13 (W-END-1): 14 + 4 + 10 + 13 + 8 + 5 + 13 = 67.

    The digest's city (16 cards and Rhodos A's 3 stages) is 19 cards played, one more than
    the 18 turns of a game (W-TURN-5): the rules cannot reach it, and the loader says so.  The
    score is checked on the same city without Altar (civilian 11, total 65)."""
    city = ["Altar", "Aqueduct", "Town Hall", "Haven", "Chamber of Commerce",
            "Clay Pool", "Lumber Yard", "Ore Vein", "Stone Pit", "Glassworks", "Press",
            "Spies Guild", "Apothecary", "Dispensary", "Workshop", "Scriptorium"]
    kw = dict(phase="over", stages=[3, 0, 0, 0], coins=[14, 3, 3, 3],
              military=[14, -2, 0, -2], defeats=[0, 2, 0, 2],     # +1 +3 +5 +5, two defeats
              guilds=["Spies Guild", "Builders Guild", "Traders Guild", "Workers Guild",
                      "Scientists Guild", "Magistrates Guild"])
    boards = ["Rhodos A", "Gizah A", "Babylon A", "Ephesos A"]
    reds = ["Barracks", "Guard Tower", "Stockade", "Walls", "Arsenal"]
    with pytest.raises(sv.StateFormatError, match="W-TURN-5") as e:
        position(4, boards, cities=[city, reds, [], []], **kw)
    assert e.value.field == "cities[0].city"
    st = position(4, boards, cities=[city[1:], reds, [], []], **kw)
    assert st.scores()[0] == {"military": 14, "treasury": 4, "wonder": 10, "civilian": 11,
                              "commercial": 8, "guilds": 5, "science": 13, "total": 65}


def test_we14_tie_break():
    """WE14 (W-END-2): B wins on coins; with equal coins A and B share.  (The digest's 58 VP
    of military cannot be reached, 18 at most (W-MIL-1): here the totals come from blue cards
    and coins.)"""
    boards = ["Rhodos A", "Gizah A", "Babylon A"]
    st = position(3, boards, phase="over", cities=[["Baths", "Altar"], ["Statue"], []],
                  coins=[10, 12, 20])
    assert [s["total"] for s in st.scores()] == [8, 8, 6]
    assert st.winners() == [1] and st.returns() == [0.0, 1.0, 0.0]
    st = position(3, boards, phase="over", cities=[["Baths", "Altar"], ["Temple", "Theater"], []],
                  coins=[10, 10, 20])
    assert [s["total"] for s in st.scores()] == [8, 8, 6]
    assert st.winners() == [0, 1] and st.returns() == [0.5, 0.5, 0.0]


def test_we15_free_city_turn():
    """WE15 (W-FREE-4, W-FREE-5, W-FREE-6, W-FREE-7): P1 controls, keeps Lumber Yard, gives
    Baths to the Free City, which must build it; all pairs for the Free City; a chain build is
    compulsory for it."""
    # this engine's seats: P1 0, P2 1, Free City 2 (the digest's ring turned by one seat)
    st = position(2, ["Gizah A", "Rhodos A", "Alexandria A"], age=1, turn=1,
                  hands=[["Lumber Yard", "Baths"], ["Clay Pool"]])
    assert st.controller() == 0 and st.decider(2) == 0
    assert len(st.hand(0)) == 8 and len(st.hand(1)) == 7
    st.apply_action(act("build", "Lumber Yard"), 0)
    fc = [sv.action_to_string(a) for a in st.legal_actions(2)
          if sv.decode_turn_action(a)[1] == "Baths"]
    assert fc == ["build Baths (left 2, right 0)"]             # no discard, no stage (W-FREE-5)
    st.apply_action(act("build", "Baths", 2, 0), 2)
    st.apply_action(act("build", "Clay Pool"), 1)
    assert [st.coins(i) for i in range(3)] == [5, 3, 1]
    assert st.phase == "draw"
    st.settle()                                               # P2 draws the pile's top card
    assert st.controller() == 1 and len(st.hand(1)) == 7 and len(st.hand(0)) == 6
    # all pairs for the Free City, whoever controls (W-FREE-6)
    st = position(2, ["Gizah A", "Rhodos A", "Alexandria A"], age=1, turn=2,
                  cities=[[], ["Stone Pit"], ["East Trading Post"]], hands=[[], ["Baths"]])
    assert st.payment_options(2, "Baths") == [(0, 1), (2, 0)]
    assert options(st, 2, "build", "Baths") == [(0, 1), (2, 0)]
    # a chain build is compulsory for the Free City (W-FREE-5 a)
    st = position(2, ["Gizah A", "Rhodos A", "Alexandria A"], age=2, turn=1,
                  cities=[[], [], ["Altar"]], hands=[[], ["Temple"]])
    assert [sv.action_to_string(a) for a in st.legal_actions(2)
            if sv.decode_turn_action(a)[1] == "Temple"] == ["build Temple"]


@pytest.mark.parametrize("age,direction", [(1, +1), (2, -1), (3, +1)])
def test_hands_pass_left_in_ages_one_and_three(age, direction):
    """W-AGE-3: the left neighbour (seat i+1) receives seat i's hand in Ages I and III, the
    right one (seat i-1) in Age II."""
    st = position(4, ["Gizah A", "Babylon A", "Rhodos A", "Ephesos A"], age=age, turn=1)
    before = [st.hand(i) for i in range(4)]
    chosen = {}
    for seat in range(4):
        a = [x for x in st.legal_actions(seat) if sv.decode_turn_action(x)[0] == "discard"][0]
        chosen[seat] = sv.decode_turn_action(a)[1]
        st.apply_action(a, seat)
    for seat in range(4):
        rest = list(before[seat])
        rest.remove(chosen[seat])
        assert st.hand((seat + direction) % 4) == rest


def test_free_city_hands_swap_and_pile_shrinks():
    """W-FREE-7, W-FREE-8: the two players swap hands; at turn 6 the controller picks 2 of 3 cards,
    the other player 1 of 2, and both leftovers and the pile's last card are discarded."""
    st = position(2, ["Gizah A", "Rhodos A", "Alexandria A"], age=1, turn=5)
    assert st.controller() == 0 and [len(st.hand(0)), len(st.hand(1))] == [4, 3]
    before = st.hand(1)
    commit_all(st, {})
    st.settle()                                                # P2 draws
    assert st.controller() == 1 and len(st.hand(1)) == 3 and len(st.hand(0)) == 2
    assert set(before) <= set(st.hand(0)) | set(st.discard_pile()) | set(
        n for i in range(3) for n in st.city(i))
    pile = len(st.discard_pile())
    uses = []
    for seat in st.pending_seats():
        a = st.legal_actions(seat)[0]
        uses.append(sv.decode_turn_action(a)[0])
        st.apply_action(a, seat)
    assert len(st.discard_pile()) == pile + uses.count("discard") + 3
    assert st.age == 2
