"""Rules of the 7 Wonders digest (RULES-7W.md) that no worked example shows, each checked on
positions built with the scenario builder (seven_helpers.position) or on short seeded games:
the game's frame (W-AGE-1, W-TURN-2, -3, -6), building (W-BUILD-1, -4, -5), card effects
(W-CARD-5, -9), trading (W-TRADE-1, -3, -7), wonders (W-WON-2, -4), science (W-SCI-1, -2),
the Free City (W-FREE-1..3, -9..11), chance, information and decisions (W-CHANCE-2,
W-INFO-3..5, W-DEC-1, W-END-3).

Seats: seat i's left neighbour is seat i+1, its right one seat i-1 (mod N); a payment pair is
(coins to the left, coins to the right).  In the Free City variant this engine seats P1 at 0,
P2 at 1 and the Free City at 2 (the digest's ring turned by one seat)."""
import collections
import json
import random


from duelcore import seven as sv
from duelcore import seven_data as D
from duelpy.seven import new_game
from seven_helpers import act, commit_all, options, position

#: Age I at 3 players (and in the Free City variant): column 3 of the digest's Age I table,
#: one copy of each of these 21 names
AGE1_THREE = ["Clay Pit", "Clay Pool", "Lumber Yard", "Ore Vein", "Stone Pit", "Timber Yard",
              "Glassworks", "Loom", "Press", "Altar", "Baths", "Theater", "Apothecary",
              "Scriptorium", "Workshop", "East Trading Post", "Marketplace",
              "West Trading Post", "Barracks", "Guard Tower", "Stockade"]


def _uses(st, seat):
    return {sv.decode_turn_action(a)[0] for a in st.legal_actions(seat)
            if a < sv.NUM_TURN_ACTIONS}


def _expected_tokens(shields, age):
    """W-MIL-1, written from the digest: each city against its left and right neighbour."""
    n = len(shields)
    win = {1: 1, 2: 3, 3: 5}[age]
    out = []
    for i in range(n):
        vp = defeats = 0
        for j in ((i + 1) % n, (i - 1) % n):
            if shields[i] > shields[j]:
                vp += win
            elif shields[i] < shields[j]:
                vp, defeats = vp - 1, defeats + 1
        out.append((vp, defeats))
    return out


# --- the frame of the game -------------------------------------------------------------------

def test_three_ages_of_deal_six_turns_and_military():
    """W-AGE-1: Age I, then II, then III; each is a deal of 7 cards of that Age to each
    player, six turns, then military (the tokens of W-MIL-1 on the shields at the end of turn
    6); the game ends after Age III's military and at no other moment."""
    rng = random.Random(3)
    st = new_game(3, seed=3, boards=["Gizah A", "Rhodos A", "Ephesos A"])
    seen, tokens = [], [(0, 0)] * 3
    while not st.is_terminal():
        assert st.phase == "turn"
        if not seen or seen[-1] != (st.age, st.turn):
            seen.append((st.age, st.turn))
            if st.turn == 1:                                       # the deal
                for city in st.to_dict()["cities"]:
                    assert len(city["hand"]) == 7
                    assert {D.PHYSICAL[p][1] for p in city["hand"]} == {st.age}
        age, turn = st.age, st.turn
        for seat in st.pending_seats():
            st.apply_action(rng.choice(st.legal_actions(seat)), seat)
        if turn == 6 and (st.age != age or st.is_terminal()):
            shields = [st.shields(i) for i in range(3)]
            got = [st.military(i) for i in range(3)]
            step = _expected_tokens(shields, age)
            assert got == [(t[0] + s[0], t[1] + s[1]) for t, s in zip(tokens, step)]
            tokens = got
        elif not st.is_terminal():
            assert [st.military(i) for i in range(3)] == tokens   # no military mid-Age
    assert seen == [(a, t) for a in (1, 2, 3) for t in range(1, 7)]
    assert st.phase == "over" and st.age == 3 and st.winners()


def test_legality_on_the_start_of_the_turn():
    """W-TURN-2: a card a neighbour builds in the same turn cannot be bought from: Babylon
    (clay) cannot buy the wood of the Lumber Yard its left neighbour builds this turn; it can
    on the next turn."""
    st = position(3, ["Babylon A", "Rhodos A", "Gizah A"], age=1, turn=2,
                  hands=[["Stockade"], ["Lumber Yard"], []], coins=[5, 3, 3])
    assert options(st, 0, "build", "Stockade") == []
    st.apply_action(act("build", "Lumber Yard"), 1)
    assert options(st, 0, "build", "Stockade") == []
    assert st.why_illegal(0, act("build", "Stockade", 2, 0)) is not None
    commit_all(st, {})
    assert st.turn == 3 and "Lumber Yard" in st.city(1)
    assert st.payment_options(0, "Stockade") == [(2, 0)]


def test_payments_come_out_of_the_coins_held_at_the_start():
    """W-TURN-3 (steps 2 and 4): two neighbours with 2 coins each buy from each other in the
    same turn (stone for Baths, clay for Guard Tower): both pay out of the coins they held, then
    receive; a discard brings 3 at step 4."""
    st = position(3, ["Babylon A", "Gizah A", "Rhodos A"], age=1, turn=2,
                  hands=[["Baths"], ["Guard Tower"], []], coins=[2, 2, 3])
    assert options(st, 0, "build", "Baths") == [(2, 0)]              # stone from the left
    assert options(st, 1, "build", "Guard Tower") == [(0, 2)]        # clay from the right
    commit_all(st, {0: act("build", "Baths", 2, 0), 1: act("build", "Guard Tower", 0, 2)})
    assert [st.coins(i) for i in range(3)] == [2, 2, 6]
    assert "Baths" in st.city(0) and "Guard Tower" in st.city(1)


def test_halikarnassus_before_babylon_then_the_age_ends():
    """W-TURN-3 (steps 5 and 6): on turn 6 the Halikarnassus pick (step 5) comes first and
    does not see Babylon B's kept 7th card; then Babylon plays its 7th card; then the Age
    ends (military: Rhodos's Barracks beats both; then Age II's deal)."""
    boards = ["Babylon B", "Halikarnassus A", "Rhodos A"]
    st = position(3, boards, age=1, turn=6, cities=[[], ["Ore Vein", "Clay Pit"], ["Barracks"]],
                  hands=[["Altar", "Theater"], ["Baths", "Stockade"], ["Press", "Loom"]],
                  stages=[2, 1, 0], coins=[3, 5, 3])
    assert options(st, 1, "stage", "Baths") == [(2, 0)]             # stage 2: 3 ore
    commit_all(st, {0: act("build", "Altar"), 1: act("stage", "Baths", 2, 0),
                    2: act("build", "Press")})
    assert st.phase == "halikarnassus" and st.pending_seats() == [1]
    assert "Theater" not in st.discard_pile()                       # Babylon keeps it
    assert {"Stockade", "Loom"} <= set(st.discard_pile())          # the other 7th cards
    st.apply_action(sv.HALI_NONE, 1)
    assert st.phase == "seventh" and st.pending_seats() == [0] and st.seventh_card() == "Theater"
    st.apply_action(act("build", "Theater"), 0)
    assert "Theater" in st.city(0)
    assert [st.military(i) for i in range(3)] == [(-1, 1), (-1, 1), (2, 0)]   # Age I's
    st.settle()                                                     # Age II's deal
    assert (st.phase, st.age, st.turn) == ("turn", 2, 1)


def test_turn_six_discards_the_other_card_without_coins():
    """W-TURN-6: on turn 6 each player holds 2 cards, plays one, and the other goes to the
    discard pile without coins; a discard chosen for coins still brings 3."""
    st = position(3, ["Gizah A", "Rhodos A", "Ephesos A"], age=1, turn=6,
                  hands=[["Altar", "Theater"], ["Lumber Yard", "Stone Pit"],
                         ["Clay Pool", "Ore Vein"]], coins=[3, 3, 3])
    assert [len(st.hand(i)) for i in range(3)] == [2, 2, 2]
    pile = collections.Counter(st.discard_pile())
    commit_all(st, {0: act("build", "Altar"), 1: act("discard", "Lumber Yard"),
                    2: act("build", "Clay Pool")})
    added = collections.Counter(st.discard_pile()) - pile
    assert added == collections.Counter(["Theater", "Lumber Yard", "Stone Pit", "Ore Vein"])
    assert [st.coins(i) for i in range(3)] == [3, 6, 3]
    st.settle()
    assert st.age == 2 and [len(st.hand(i)) for i in range(3)] == [7, 7, 7]


# --- building ----------------------------------------------------------------------------------

def test_printed_coins_go_to_the_bank_and_resources_are_reused():
    """W-BUILD-1: Clay Pit's printed coin goes to the bank (nobody receives it); the wood of
    Olympia's Lumber Yard builds Stockade on one turn and serves again, with the board's wood,
    for stage 1 (2 wood) on the next."""
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=1, turn=1,
                  hands=[["Clay Pit"], [], []], coins=[3, 3, 3])
    commit_all(st, {0: act("build", "Clay Pit")})
    assert [st.coins(i) for i in range(3)] == [2, 6, 6]              # neighbours: discards
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=1, turn=2,
                  cities=[["Lumber Yard"], [], []], hands=[["Stockade"], [], []],
                  coins=[0, 3, 3])
    assert options(st, 0, "build", "Stockade") == [(0, 0)]
    commit_all(st, {0: act("build", "Stockade")})
    assert "Stockade" in st.city(0) and st.coins(0) == 0
    assert st.payment_options(0) == [(0, 0)]                        # stage 1: 2 wood, own


def test_the_whole_cost_at_once():
    """W-BUILD-4: a card is built only if its whole cost is met at once: Statue (1 wood,
    2 ore) with a Foundry needs 2 coins for the wood (1 is not enough); Aqueduct (3 stone)
    cannot be built from 2 stone on sale; Clay Pit (1 coin) not with 0 coins."""
    cities = [["Foundry"], ["Lumber Yard"], []]
    for coins, want in ((1, []), (2, [(2, 0)])):
        st = position(3, ["Babylon A", "Rhodos A", "Ephesos A"], age=2, turn=2, cities=cities,
                      hands=[["Statue"], [], []], coins=[coins, 3, 3])
        assert options(st, 0, "build", "Statue") == want
    st = position(3, ["Babylon A", "Gizah A", "Ephesos A"], age=2, turn=2,
                  cities=[[], [], ["Stone Pit"]], hands=[["Aqueduct"], [], []], coins=[20, 3, 3])
    assert st.payment_options(0, "Aqueduct") == [] and options(st, 0, "build", "Aqueduct") == []
    st = position(3, ["Babylon A", "Gizah A", "Ephesos A"], age=1, turn=1,
                  hands=[["Clay Pit"], [], []], coins=[0, 3, 3])
    assert options(st, 0, "build", "Clay Pit") == [] and "discard" in _uses(st, 0)


def test_effects_serve_from_the_next_step_on():
    """W-BUILD-5, W-CARD-5: West Trading Post's discount applies from the next turn on (wood
    from the left at 2 this turn, at 1 the next); Tavern's 5 coins and Lumber Yard's wood,
    built on turn 6 by Babylon B, already serve its 7th card."""
    st = position(3, ["Babylon A", "Rhodos A", "Gizah A"], age=1, turn=2,
                  cities=[[], ["Lumber Yard"], []], hands=[["West Trading Post"], [], []],
                  coins=[3, 3, 3])
    assert st.payment_options(0, "Stockade") == [(2, 0)]
    commit_all(st, {0: act("build", "West Trading Post")})
    assert st.payment_options(0, "Stockade") == [(1, 0)]
    # Babylon B, stage 2 built: Tavern on turn 6, its 7th card Stockade (1 wood)
    st = position(4, ["Babylon B", "Olympia A", "Gizah A", "Ephesos A"], age=1, turn=6,
                  hands=[["Tavern", "Stockade"], [], [], []], stages=[2, 0, 0, 0],
                  coins=[0, 3, 3, 3])
    commit_all(st, {0: act("build", "Tavern")})
    assert st.phase == "seventh" and st.seventh_card() == "Stockade" and st.coins(0) == 5
    assert options(st, 0, "build", "Stockade") == [(2, 0)]            # Tavern's coins pay
    st = position(3, ["Babylon B", "Rhodos A", "Gizah A"], age=1, turn=6,
                  hands=[["Lumber Yard", "Stockade"], [], []], stages=[2, 0, 0],
                  coins=[0, 3, 3])
    commit_all(st, {0: act("build", "Lumber Yard")})
    assert st.phase == "seventh" and options(st, 0, "build", "Stockade") == [(0, 0)]


# --- card effects ------------------------------------------------------------------------------

def test_cards_counted_are_cards_built_in_cities():
    """W-CARD-9: Vineyard counts built brown cards only: not a board's starting resource
    (Olympia makes wood), not a Sawmill put under a stage this turn; a Quarry built this turn
    next door counts (W-CARD-6): 1 + 0 + 2 = 3 coins.  Built stages count up to 4 (Gizah B):
    Arena gives 12 coins and 4 VP."""
    st = position(3, ["Ephesos A", "Olympia A", "Rhodos A"], age=2, turn=1,
                  cities=[["Clay Pool"], [], ["Lumber Yard"]],
                  hands=[["Vineyard"], ["Sawmill"], ["Quarry"]], coins=[0, 3, 3])
    assert options(st, 1, "stage", "Sawmill") == [(2, 0)]           # Olympia A stage 1
    commit_all(st, {0: act("build", "Vineyard"), 1: act("stage", "Sawmill", 2, 0),
                    2: act("build", "Quarry")})
    assert st.board(1)[2] == 1 and "Sawmill" not in st.city(1)
    assert st.coins(0) == 1 + 0 + 2
    st = position(3, ["Gizah B", "Babylon A", "Rhodos A"], age=3, turn=1,
                  cities=[["Quarry", "Ore Vein"], [], []], hands=[["Arena"], [], []],
                  stages=[4, 0, 0], coins=[0, 3, 3])
    commit_all(st, {0: act("build", "Arena")})
    assert st.coins(0) == 3 * 4 and st.scores()[0]["commercial"] == 4


# --- trading ---------------------------------------------------------------------------------

def test_buy_only_from_the_two_neighbours():
    """W-TRADE-1: four players: the city across the table (seat 2) makes stone, the
    neighbours do not: Baths (1 stone) cannot be built by Babylon (clay), whatever its coins;
    once its left neighbour makes stone, it can, at 2."""
    boards = ["Babylon A", "Rhodos A", "Gizah A", "Ephesos A"]
    st = position(4, boards, age=1, turn=2, cities=[[], [], ["Stone Pit"], []],
                  hands=[["Baths"], [], [], []], coins=[30, 3, 3, 3])
    assert st.payment_options(0, "Baths") == [] and options(st, 0, "build", "Baths") == []
    st = position(4, boards, age=1, turn=2, cities=[[], ["Stone Pit"], [], []],
                  hands=[["Baths"], [], [], []], coins=[30, 3, 3, 3])
    assert options(st, 0, "build", "Baths") == [(2, 0)]


def test_sellable_quantity_and_selling_consumes_nothing():
    """W-TRADE-3: a neighbour sells each of its sources once a turn (an Age II brown card: 2
    units), so Aqueduct (3 stone) is out of reach from a Stone Pit and a board of stone but
    bought from a Quarry and a board; selling consumes nothing: the owner of a Stone Pit builds
    Baths with it while both its neighbours buy that stone, 2 coins each, in the same turn."""
    boards = ["Babylon A", "Gizah A", "Ephesos A"]
    st = position(3, boards, age=2, turn=2, cities=[[], ["Stone Pit"], []], coins=[20, 3, 3])
    assert st.payment_options(0, "Aqueduct") == []                   # 2 stone on sale
    st = position(3, boards, age=2, turn=2, cities=[[], ["Quarry"], []], coins=[20, 3, 3])
    assert st.payment_options(0, "Aqueduct") == [(6, 0)]             # board + Quarry's 2
    # seat 0's one stone: its own Baths; Ephesos A (seat 1) and Gizah A (seat 2) buy it for
    # their stage 1 (2 stone), Ephesos also buying the Gizah board's stone
    st = position(3, ["Babylon A", "Ephesos A", "Gizah A"], age=1, turn=2,
                  cities=[["Stone Pit"], [], []], hands=[["Baths"], [], []], coins=[3, 4, 3])
    assert st.payment_options(1) == [(2, 2)]
    assert st.payment_options(2) == [(2, 0)]
    commit_all(st, {0: act("build", "Baths"), 1: act("stage", st.hand(1)[0], 2, 2),
                    2: act("stage", st.hand(2)[0], 2, 0)})
    assert "Baths" in st.city(0) and st.board(1)[2] == st.board(2)[2] == 1
    assert [st.coins(i) for i in range(3)] == [3 + 2 + 2, 4 - 2 - 2, 3 - 2 + 2]


def test_stages_trade_and_free_builds_do_not():
    """W-TRADE-7: a stage cost is met with own production first, then trade: Gizah A stage 1
    (2 stone) buys one stone only, the board giving the other; a chain build, Olympia A's free
    build and a Halikarnassus build pay nothing and buy nothing (no coins move)."""
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], age=2, turn=2,
                  cities=[[], ["Stone Pit"], ["Quarry"]], coins=[3, 3, 3])
    assert st.payment_options(0) == [(0, 2), (2, 0)]
    # chain: Statue from Theater, nothing produced, no coins
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], age=2, turn=1,
                  cities=[["Theater"], ["Lumber Yard"], ["Ore Vein"]],
                  hands=[["Statue"], [], []], coins=[0, 0, 0])
    assert options(st, 0, "build", "Statue") == [(0, 0)]
    commit_all(st, {0: act("build", "Statue")})
    assert [st.coins(i) for i in range(3)] == [0, 3, 3]             # the others: discards
    # Olympia A: free Palace, though neighbours sell glass
    st = position(3, ["Olympia A", "Alexandria A", "Rhodos A"], age=3, turn=1,
                  hands=[["Palace"], [], []], stages=[2, 0, 0], coins=[9, 0, 0],
                  olympia_free=[True, False, False])
    commit_all(st, {0: act("free", "Palace")})
    assert "Palace" in st.city(0) and [st.coins(i) for i in range(3)] == [9, 3, 3]
    # Halikarnassus A: Town Hall (2 stone, 1 ore, 1 glass) from the pile, for nothing
    st = position(3, ["Halikarnassus A", "Gizah A", "Alexandria A"], age=3, turn=2,
                  cities=[["Foundry", "Ore Vein"], [], []], hands=[["Senate"], [], []],
                  discard=["Town Hall"], stages=[1, 0, 0], coins=[0, 0, 0])
    commit_all(st, {0: act("stage", "Senate")})
    assert st.phase == "halikarnassus"
    st.apply_action(sv.HALI_BASE + D.NAMES.index("Town Hall"), 0)
    assert "Town Hall" in st.city(0) and [st.coins(i) for i in range(3)] == [0, 3, 3]


# --- wonders ---------------------------------------------------------------------------------

def test_stages_are_optional_and_not_tied_to_ages():
    """W-WON-2: a game can end with no stage built; a board can start its stages in Age III
    and build two of them in that Age (Gizah A: 2 stone, then 3 wood)."""
    rng = random.Random(4)
    st = new_game(3, seed=4)
    while not st.is_terminal():
        for seat in st.pending_seats():
            legal = [a for a in st.legal_actions(seat)
                     if a >= sv.NUM_TURN_ACTIONS or sv.decode_turn_action(a)[0] != "stage"]
            st.apply_action(rng.choice(legal), seat)
    assert [st.board(i)[2] for i in range(3)] == [0, 0, 0] and st.winners()
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], age=3, turn=1,
                  cities=[["Stone Pit", "Lumber Yard", "Sawmill"], [], []], coins=[0, 3, 3])
    assert st.board(0)[2] == 0
    commit_all(st, {0: act("stage", st.hand(0)[0])})
    assert st.board(0)[2] == 1 and st.age == 3
    commit_all(st, {0: act("stage", st.hand(0)[0])})
    assert st.board(0)[2] == 2 and st.age == 3 and st.coins(0) == 0


def test_powers_never_carry_over():
    """W-WON-4: a Halikarnassus pick not taken is lost (no pick on the next turn); an Olympia
    A free build not used in Age I does not add to Age II's: one free build in Age II."""
    st = position(3, ["Halikarnassus A", "Gizah A", "Babylon A"], age=2, turn=3,
                  cities=[["Foundry", "Ore Vein"], [], []], hands=[["Temple"], [], []],
                  discard=["Altar"], stages=[1, 0, 0])
    commit_all(st, {0: act("stage", "Temple")})
    assert st.phase == "halikarnassus"
    st.apply_action(sv.HALI_NONE, 0)
    assert st.phase == "turn" and st.turn == 4
    assert all(a < sv.NUM_TURN_ACTIONS for a in st.legal_actions(0))
    commit_all(st, {})
    assert st.phase == "turn" and st.turn == 5 and "Altar" not in st.city(0)
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=1, turn=6, stages=[2, 0, 0],
                  olympia_free=[True, False, False])
    commit_all(st, {})                                             # the power is not used
    st.settle()
    assert st.age == 2 and st.olympia_free(0)
    free = [a for a in st.legal_actions(0) if sv.decode_turn_action(a)[0] == "free"]
    assert free
    commit_all(st, {0: free[0]})
    assert st.turn == 2 and not st.olympia_free(0) and "free" not in _uses(st, 0)


# --- science ---------------------------------------------------------------------------------

def test_three_symbols_four_cards_each():
    """W-SCI-1: compass, gear and tablet; each green card shows one, and four differently
    named green cards carry each symbol (the digest's list); the four compass cards in one city
    give 4 compasses, 16 VP."""
    greens = collections.defaultdict(set)
    for c in D.CARDS:
        if c.colour == "green":
            kind, _, symbol = c.effect.partition(":")
            assert kind == "science"
            greens[symbol].add(c.name)
    assert dict(greens) == {
        "compass": {"Academy", "Apothecary", "Dispensary", "Lodge"},
        "gear": {"Laboratory", "Observatory", "Study", "Workshop"},
        "tablet": {"Library", "School", "Scriptorium", "University"},
    }
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], phase="over",
                  cities=[["Academy", "Apothecary", "Dispensary", "Lodge"], [], []])
    assert st.city_info(0)["science"] == {"compass": 4, "gear": 0, "tablet": 0}
    assert st.scores()[0]["science"] == 16


def test_wildcards_and_olympia_b_copying_scientists():
    """W-SCI-2, W-WON-8, W-END-3: the Scientists Guild is one symbol of the owner's choice,
    fixed at scoring on the final counts (with compass and gear it is a tablet: 10; with two
    compasses, a third: 9); Olympia B's copy of a neighbour's Scientists Guild is a
    wildcard too, and the copy is chosen jointly with it to maximise the owner's total
    (Scientists +8 rather than Workers +2; Workers +10 rather than Scientists +8)."""
    guilds = ["Scientists Guild", "Workers Guild", "Spies Guild", "Traders Guild",
              "Builders Guild"]
    boards = ["Gizah A", "Babylon A", "Rhodos A"]
    for own, science in ((["Apothecary", "Workshop"], 10), (["Apothecary", "Dispensary"], 9)):
        st = position(3, boards, phase="over", cities=[own + ["Scientists Guild"], [], []],
                      guilds=guilds)
        assert st.city_info(0)["wild"] == 1
        assert st.scores()[0]["science"] == science
    boards = ["Olympia B", "Babylon A", "Rhodos A"]
    for browns, guild, science in (([], 0, 10), (["Ore Vein", "Stone Pit", "Quarry", "Sawmill",
                                                   "Foundry", "Brickyard", "Clay Pit",
                                                   "Timber Yard"], 10, 2)):
        cities = [["Apothecary", "Workshop"],
                  ["Scientists Guild", "Workers Guild", "Lumber Yard", "Clay Pool"], browns]
        st = position(3, boards, phase="over", cities=cities, stages=[3, 0, 0], guilds=guilds)
        sc = st.scores()[0]
        assert (sc["guilds"], sc["science"]) == (guild, science)
        assert st.city_info(0)["copy_guild"]
        assert st.pending_seats() == [] and all(st.legal_actions(i) == [] for i in range(3))


# --- the Free City ---------------------------------------------------------------------------

def test_free_city_setup():
    """W-FREE-1: two players and the Free City: three different boards, 3 coins each, 5
    guilds, and the 3-player deck (Age I: the 21 cards marked 3+, no Tavern, no Pawnshop);
    each Age holds 21 cards (Age III: 16 + 5 guilds)."""
    for seed in range(4):
        st = new_game(2, seed=seed)
        assert st.seats == 3 and len({st.board(i)[0] for i in range(3)}) == 3
        assert [st.coins(i) for i in range(3)] == [3, 3, 3]
        assert len(st.guilds()) == 5
        for age in (1, 2, 3):
            assert st.age == age and st.turn == 1
            d = st.to_dict()
            cards = st.hand(0) + st.hand(1) + [D.NAMES[D.PHYSICAL[p][0]] for p in d["deck"]]
            assert len(cards) == 21
            if age == 1:
                assert sorted(cards) == sorted(AGE1_THREE)
            if age == 3:
                assert sorted(c for c in cards if c.endswith("Guild")) == sorted(st.guilds())
            while st.age == age and not st.is_terminal():
                commit_all(st, {})


def test_free_city_ring():
    """W-FREE-2: P1's left neighbour is P2 and its right one the Free City; P2's left one is
    the Free City and its right one P1: P1 with West Trading Post buys P2's stone at 1 and the
    Free City's at 2; P2 with West Trading Post buys the Free City's stone at 1 and P1's at 2
    (military uses the same ring: test_free_city_takes_military_tokens)."""
    st = position(2, ["Babylon A", "Gizah A", "Rhodos A"], age=1, turn=2,
                  cities=[["West Trading Post"], [], ["Stone Pit"]])
    assert st.payment_options(0, "Baths") == [(0, 2), (1, 0)]
    st = position(2, ["Babylon A", "Ephesos A", "Gizah A"], age=1, turn=2,
                  cities=[["Stone Pit"], ["West Trading Post"], []])
    assert st.payment_options(1, "Baths") == [(0, 2), (1, 0)]


def test_free_city_card_goes_to_p1_in_ages_one_and_three():
    """W-FREE-3: each Age each player gets 7 cards and 7 form the Free City's pile; the Free
    City card is in P1's hand in Ages I and III, P2's in Age II (who draws: 8 cards, the pile
    down to 6)."""
    st = new_game(2, seed=7)
    for age, controller in ((1, 0), (2, 1), (3, 0)):
        assert (st.age, st.turn) == (age, 1)
        assert st.controller() == controller and st.decider(2) == controller
        assert len(st.hand(controller)) == 8 and len(st.hand(1 - controller)) == 7
        assert len(st.to_dict()["deck"]) == 6
        while st.age == age and not st.is_terminal():
            commit_all(st, {})


def test_free_city_powers_used_by_the_controller():
    """W-FREE-9: the Free City's powers are used by the turn's controller: Halikarnassus's
    pick, compulsory when a card qualifies (Age II turn 3: P2 controls); Olympia A's free
    build (P1 on turn 3 of Age I); Babylon B's 7th card, the pile's last card, played by the
    turn-6 controller (P2 in Age I) under W-FREE-5 (a card it can build: no discard).  Its
    end-of-game wildcard maximises its own score (Babylon A stage 2: a tablet, 10)."""
    st = position(2, ["Gizah A", "Rhodos A", "Halikarnassus A"], age=2, turn=3,
                  cities=[[], [], ["Foundry", "Ore Vein"]], stages=[0, 0, 1], discard=["Altar"])
    assert st.controller() == 1
    card = st.hand(1)[0]
    st.apply_action(act("stage", card), 2)
    commit_all(st, {})
    assert st.phase == "halikarnassus" and st.pending_seats() == [2] and st.decider(2) == 1
    assert sv.HALI_NONE not in st.legal_actions(2)
    assert sv.HALI_BASE + D.NAMES.index("Altar") in st.legal_actions(2)
    st = position(2, ["Gizah A", "Rhodos A", "Olympia A"], age=1, turn=3, stages=[0, 0, 2],
                  hands=[["Workshop"], []], olympia_free=[False, False, True])
    assert st.decider(2) == 0 and options(st, 2, "free", "Workshop") == [(0, 0)]
    assert options(st, 2, "build", "Workshop") == []
    st = position(2, ["Gizah A", "Rhodos A", "Babylon B"], age=1, turn=6, stages=[0, 0, 2])
    last = D.NAMES[D.PHYSICAL[st.to_dict()["deck"][-1]][0]]
    commit_all(st, {})
    assert st.phase == "seventh" and st.pending_seats() == [2] and st.decider(2) == 1
    assert st.seventh_card() == last
    uses = _uses(st, 2)
    assert uses and "discard" not in uses
    st = position(2, ["Gizah A", "Rhodos A", "Babylon A"], phase="over",
                  cities=[[], [], ["Apothecary", "Workshop"]], stages=[0, 0, 2])
    assert st.scores()[2]["science"] == 10


def test_free_city_takes_military_tokens():
    """W-FREE-10: at the end of Age I the Free City (2 shields) beats both players, P1 (1)
    beats P2 (0): Free City +2, P1 +1 -1, P2 -1 -1."""
    st = position(2, ["Gizah A", "Ephesos A", "Babylon A"], age=1, turn=6,
                  cities=[["Guard Tower"], [], ["Barracks", "Stockade"]])
    commit_all(st, {})
    assert st.age == 2
    assert [st.military(i) for i in range(3)] == [(0, 1), (-2, 2), (2, 0)]


def test_free_city_cannot_win():
    """W-FREE-11: the Free City is scored but never wins: with the highest total it leaves
    the win to the better player; players tied on VP and coins share it."""
    boards = ["Gizah A", "Rhodos A", "Babylon A"]
    st = position(2, boards, phase="over", cities=[["Baths"], ["Altar"], ["Palace"]])
    assert [s["total"] for s in st.scores()] == [4, 3, 9]
    assert st.winners() == [0] and st.returns() == [1.0, 0.0]
    st = position(2, boards, phase="over", cities=[["Altar"], ["Theater"], ["Palace"]],
                  coins=[4, 4, 3])
    assert [s["total"] for s in st.scores()] == [3, 3, 9]
    assert st.winners() == [0, 1] and st.returns() == [0.5, 0.5]
    st = position(2, boards, phase="over", cities=[["Altar"], ["Theater"], ["Palace"]],
                  coins=[4, 5, 3])
    assert [s["total"] for s in st.scores()] == [3, 3, 9] and st.winners() == [1]


# --- chance, information, decisions ----------------------------------------------------------

def test_lazy_deal_is_uniform_over_the_cards_not_yet_placed():
    """W-CHANCE-2: each card dealt is drawn uniformly from the cards of its Age not yet
    placed: the Age's deck for N players (W-SETUP-2) less the cards already dealt; in Age III
    the guilds are the N+2 drawn at setup."""
    rng = random.Random(5)
    st = new_game(4, seed=5, boards=["Gizah A", "Rhodos A", "Babylon A", "Ephesos A"],
                  explicit_chance=True)
    ages = set()
    while not st.is_terminal():
        if st.is_chance_node():
            if st.phase == "deal":
                age = st.age
                deck = collections.Counter(D.deck_copies(age, 4))
                if age == 3:
                    deck.update(st.guilds())
                dealt = collections.Counter(n for i in range(4) for n in st.hand(i))
                left = deck - dealt
                assert sum(deck.values()) == 28 and sum(left.values()) == 28 - sum(dealt.values())
                got = {sv.action_to_string(a)[len("card "):]: p for a, p in st.chance_outcomes()}
                assert got.keys() == set(left)
                for name, p in got.items():
                    assert abs(p - left[name] / sum(left.values())) < 1e-12
                ages.add(age)
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        else:
            commit_all(st, {})
    assert ages == {1, 2, 3}


def test_face_down_cards_known_only_to_their_owner():
    """W-INFO-3: a stage card and a discard are known only to whoever placed them; the pile
    is face down (its size only), except to Halikarnassus's owner when its power triggers:
    it then sees the whole pile, but not another player's stage card."""
    st = position(3, ["Gizah A", "Babylon A", "Halikarnassus A"], age=2, turn=2,
                  cities=[["Stone Pit"], [], ["Foundry", "Ore Vein"]],
                  hands=[["Temple"], ["Statue"], ["Library"]], discard=["Altar"],
                  stages=[0, 0, 1])
    before = [set(st.observation(p)["facedown_known"]) for p in range(3)]
    commit_all(st, {0: act("stage", "Temple"), 1: act("discard", "Statue"),
                    2: act("stage", "Library")})
    assert st.phase == "halikarnassus"
    known = [set(st.observation(p)["facedown_known"]) for p in range(3)]
    assert known[0] - before[0] == {"Temple"} and known[1] - before[1] == {"Statue"}
    assert known[2] == set(st.discard_pile()) | {"Library"} | before[2]
    assert "Temple" not in known[2] and "Temple" not in st.discard_pile()
    for p in range(3):
        obs = st.observation(p)
        assert obs["discard_size"] == len(st.discard_pile()) and "discard" not in obs


def _placers(d):
    """For each card of the discard pile and under the stages (to_dict form), how many
    players count it among the face-down cards they know."""
    return [sum(pid in c["facedown"] for c in d["cities"]) for pid in d["discard"] + d["tucked"]]


def test_each_face_down_card_known_to_its_placer():
    """W-INFO-3: in a game without Halikarnassus, every card of the pile and every stage card
    (discards for coins, 7th cards, cards under stages) is known to exactly one player, the
    one who placed it."""
    rng = random.Random(1)
    st = new_game(3, seed=6, boards=["Gizah A", "Rhodos A", "Ephesos A"])
    while (st.age, st.turn) < (2, 3):
        for seat in st.pending_seats():
            st.apply_action(rng.choice(st.legal_actions(seat)), seat)
    d = st.to_dict()
    assert len(d["discard"]) >= 3 and _placers(d) == [1] * (len(d["discard"]) + len(d["tucked"]))


def test_scenario_face_down_cards_known_to_their_placer():
    """W-INFO-3: a position from the scenario builder (one the rules can reach) has each card
    of the pile and under the stages known to exactly one player, as in a game played to it."""
    st = position(3, ["Gizah A", "Rhodos A", "Ephesos A"], age=2, turn=3, stages=[1, 0, 0])
    d = st.to_dict()
    assert _placers(d) == [1] * (len(d["discard"]) + len(d["tucked"]))


def test_guilds_not_drawn_stay_unknown():
    """W-INFO-4: no observation ever names a guild that was not drawn, from the first turn
    to the end of the game."""
    st = new_game(3, seed=9)
    unused = [g.name for g in D.GUILDS if g.name not in st.guilds()]
    assert len(unused) == 5
    rng = random.Random(9)
    while not st.is_terminal():
        for p in range(3):
            text = json.dumps(st.observation(p))
            assert not any(g in text for g in unused)
        for seat in st.pending_seats():
            st.apply_action(rng.choice(st.legal_actions(seat)), seat)


def _guild_twins():
    """Two 3-player games at Age I turn 1 that differ only in the guilds drawn (the first
    five, the last five): the same boards, the same deal, the same observations."""
    twins = []
    for pick in (lambda n: 0, lambda n: n - 1):
        st = new_game(3, seed=1, boards=["Gizah A", "Rhodos A", "Ephesos A"],
                      explicit_chance=True)
        while st.is_chance_node():
            out = st.chance_outcomes()
            st.apply_action(out[pick(len(out)) if st.phase == "guild" else 0][0])
        twins.append(st)
    return twins


def test_determinization_does_not_know_the_guilds():
    """W-INFO-4, W-INFO-2: the guilds drawn are unknown to every player until seen, so a
    determinization for a player (an information state built from its own observations)
    draws them anew: two games that differ only in their guilds look the same to seat 0, and
    its determinizations of either do not always hold that game's guilds."""
    a, b = _guild_twins()
    assert a.guilds() != b.guilds()
    assert all(a.observation(p) == b.observation(p) for p in range(3))
    for st in (a, b):
        draws = {tuple(sv.determinize(st, 0, seed).guilds()) for seed in range(20)}
        assert draws != {tuple(st.guilds())}


def test_free_city_pile_is_face_down():
    """W-INFO-5: the Free City's pile is unseen by both players (redealing what either cannot
    see changes it); the card P1 draws is seen by P1 only, then by P2 when P1's hand passes
    to it."""
    st = new_game(2, seed=11, explicit_chance=True)
    while st.is_chance_node() and st.phase != "draw":
        st.apply_action(st.chance_outcomes()[0][0])
    seven = st.hand(0)
    st.settle()
    assert st.phase == "turn" and len(st.hand(0)) == 8
    (drawn,) = set(st.hand(0)) - set(seven)
    assert drawn in st.observation(0)["hand"]
    assert drawn not in json.dumps(st.observation(1))
    for p in (0, 1):
        piles = {tuple(sv.determinize(st, p, s).to_dict()["deck"]) for s in range(10)}
        assert len(piles) > 1
    p2_views = {tuple(sorted(sv.determinize(st, 1, s).hand(0))) for s in range(10)}
    assert len(p2_views) > 1                                        # P2 does not see P1's hand
    own = next(n for n in st.hand(0) if n != drawn)
    st.apply_action(act("discard", own), 0)                          # P1, for itself
    fc = next(a for a in st.legal_actions(2) if sv.decode_turn_action(a)[1] not in (own, drawn))
    st.apply_action(fc, 2)                                           # P1, for the Free City
    st.apply_action(st.legal_actions(1)[0], 1)
    while st.is_chance_node():
        st.settle()
    assert drawn in st.hand(1) and drawn in st.observation(1)["hand"]


def test_the_decisions_of_a_game():
    """W-DEC-1, W-END-3: a turn's decision is a card of the hand, a use (build, stage,
    discard; free for Olympia A) and a payment; the Free City controller decides for two
    seats; Halikarnassus picks a card of the pile or none (Babylon B's 7th card: a turn action,
    test_halikarnassus_before_babylon_then_the_age_ends); boards are dealt by chance unless
    given; at the end nobody decides anything (wildcards and copies are computed)."""
    st = new_game(3, seed=2, explicit_chance=True)
    assert st.is_chance_node() and st.phase == "board"
    st = new_game(3, seed=2, boards=["Gizah A", "Rhodos B", "Olympia A"])
    assert [st.board(i)[:2] for i in range(3)] == [("Gizah", "A"), ("Rhodos", "B"),
                                                    ("Olympia", "A")]
    for seat in range(3):
        for a in st.legal_actions(seat):
            use, name, left, right = sv.decode_turn_action(a)
            assert use in ("build", "stage", "discard") and name in st.hand(seat)
            assert left >= 0 and right >= 0
    st = position(3, ["Olympia A", "Gizah A", "Babylon A"], age=1, turn=3, stages=[2, 0, 0],
                  olympia_free=[True, False, False], hands=[["Workshop"], [], []])
    uses = _uses(st, 0)
    assert "free" in uses and uses <= {"build", "stage", "discard", "free"}
    assert "free" not in _uses(st, 1)
    st = new_game(2, seed=2)
    assert st.pending_seats() == [0, 1, 2] and st.decider(2) == st.controller() == 0
    st = position(3, ["Halikarnassus A", "Gizah A", "Babylon A"], age=2, turn=3,
                  cities=[["Foundry", "Ore Vein"], [], []], hands=[["Temple"], [], []],
                  discard=["Altar"], stages=[1, 0, 0])
    commit_all(st, {0: act("stage", "Temple")})
    picks = st.legal_actions(0)
    assert sv.HALI_NONE in picks
    assert set(picks) - {sv.HALI_NONE} == {sv.HALI_BASE + D.NAMES.index(n)
                                           for n in st.discard_pile() if n not in st.city(0)}
    st = position(3, ["Gizah A", "Babylon A", "Rhodos A"], phase="over")
    assert st.is_terminal() and st.pending_seats() == []
    assert all(st.legal_actions(i) == [] for i in range(3))
