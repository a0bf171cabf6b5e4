"""Every Age card, every guild and every wonder stage of 7 Wonders, built in a position and
checked against its printed effect (W-CARD-1..9, W-WON-1..8, W-PROD-1, W-TRADE-4, W-SCI-2).

The printed effects are the digest's; seven_data's transcription of them is checked row by row
in test_seven_data.py.  Seven players, seat 0 builds; its left neighbour (seat 1) holds
Sawmill, Foundry, Quarry, Brickyard and Loom, its right neighbour (seat 6) Lumber Yard, Stone
Pit, Clay Pool, Ore Vein, Glassworks and Press, so every cost can be bought."""
import pytest

from duelcore import seven as sv
from duelcore import seven_data as D
from seven_helpers import commit_all, position

LEFT = ["Sawmill", "Foundry", "Quarry", "Brickyard", "Loom"]
RIGHT = ["Lumber Yard", "Stone Pit", "Clay Pool", "Ore Vein", "Glassworks", "Press"]
GUILDS = [g.name for g in D.GUILDS]
#: the turn of each Age at which the neighbours can hold their cards: a city plays one card a
#: turn (W-TURN-5), so Age II's 4 cards of LEFT need turn 5; in Age I, the neighbours hold
#: 5 cards of Age I at turn 6 (LEFT_AGE1 and RIGHT_AGE1: every resource of an Age I cost)
TURN = {1: 6, 2: 5, 3: 1}
LEFT_AGE1 = ["Loom"]
RIGHT_AGE1 = ["Lumber Yard", "Clay Pool", "Ore Vein", "Glassworks", "Press"]


def seven_position(board="Gizah A", own=(), hand=(), stages=0, guilds=None, age=3, discard=(),
                   extra=None, turn=None):
    """Seven players, seat 0 on ``board`` holding ``hand`` (cards of ``age``), at a turn of
    that Age where its neighbours can hold their cards (a position the rules reach)."""
    name = board.split()[0]
    others = [b for b in D.BOARD_NAMES if b != name]
    boards = [board] + [f"{b} A" for b in others]
    left, right = (LEFT_AGE1, RIGHT_AGE1) if age == 1 else (LEFT, RIGHT)
    cities = [list(own), left, [], [], [], [], right]
    if extra:
        for seat, cards in extra.items():
            cities[seat] = cities[seat] + list(cards)
    return position(7, boards, age=age, turn=turn or TURN[age], cities=cities,
                    hands=[list(hand)] + [[]] * 6, stages=[stages, 0, 0, 0, 0, 0, 0],
                    coins=[30, 3, 3, 3, 3, 3, 3], guilds=guilds or GUILDS[:9], discard=discard)


def build_it(st, name):
    """Build ``name`` for seat 0 with its cheapest offered payment; everyone else discards."""
    acts = [a for a in st.legal_actions(0) if sv.decode_turn_action(a)[:2] == ("build", name)]
    assert acts, f"{name} cannot be built"
    a = min(acts, key=lambda x: sum(sv.decode_turn_action(x)[2:]))
    _, _, l, r = sv.decode_turn_action(a)
    commit_all(st, {0: a})
    return l + r


CARD_IDS = [f"{c.age}-{c.name}" for c in D.CARDS]


@pytest.mark.parametrize("card", D.CARDS, ids=CARD_IDS)
def test_every_card(card):
    """W-CARD-1 (brown and grey: production), W-CARD-2 (blue: VP), W-CARD-3 (red: shields),
    W-CARD-4 (green: one science symbol), W-CARD-5 (Tavern's 5 coins, the trading posts' and
    Marketplace's discounts), W-CARD-6, W-CARD-7: each Age card built, with its effect."""
    st = seven_position(hand=[card.name], age=card.age)       # a hand holds its Age's cards
    before = st.city_info(0)
    left, right = st.city_info(1), st.city_info(6)
    paid = build_it(st, card.name)
    after = st.city_info(0)
    printed = D.parse_cost(card.cost)[0]
    assert card.name in st.city(0)
    assert after["colours"][card.colour] == before["colours"][card.colour] + 1
    kind, _, arg = card.effect.partition(":")
    gain = 0
    if kind == "prod":
        if "/" in arg:
            t = D.PAIRS.index(tuple(arg.split("/")))
            assert after["pairs"][t] == 1
        else:
            units, _, res = arg.rpartition(" ")
            r = D.RESOURCES.index(res)
            assert after["fixed"][r] - before["fixed"][r] == (int(units) if units else 1)
    elif kind == "vp":
        assert st.scores()[0]["civilian"] == int(arg)
    elif kind == "shields":
        assert after["shields"] == int(arg)
    elif kind == "science":
        assert after["science"][arg] == 1 and st.scores()[0]["science"] == 1
    elif kind == "coins":
        gain = int(arg)
    elif kind == "trade":
        assert after["trade"] == {"raw_right": arg == "raw_right", "raw_left": arg == "raw_left",
                                  "manuf": arg == "manuf"}
    elif kind == "choice":
        assert (after["any_raw"], after["any_manuf"]) == ((1, 0) if arg == "raw" else (0, 1))
    elif card.effect == "vineyard":
        gain = left["colours"]["brown"] + right["colours"]["brown"]
    elif card.effect == "bazar":
        gain = 2 * (left["colours"]["grey"] + right["colours"]["grey"])
    elif card.effect in ("haven", "chamber"):
        gain = 0                                   # own city has no brown/grey card
        assert st.scores()[0]["commercial"] == 0
    elif card.effect == "lighthouse":
        gain = 1
        assert st.scores()[0]["commercial"] == 1
    elif card.effect == "arena":
        gain = 0
    else:
        raise AssertionError(card.effect)
    assert st.coins(0) == 30 - printed - paid + gain


@pytest.mark.parametrize("effect,own,gain,vp", [
    ("haven", ["Lumber Yard", "Clay Pit", "Sawmill"], 3, 3),
    ("chamber", ["Glassworks", "Press"], 4, 4),
    ("lighthouse", ["Tavern", "Marketplace"], 3, 3),
])
def test_commercial_cards_count_own_city(effect, own, gain, vp):
    """W-CARD-7: Haven, Chamber of Commerce, Lighthouse count the owner's city (coins once,
    VP at the end); Arena counts built stages."""
    name = {"haven": "Haven", "chamber": "Chamber of Commerce", "lighthouse": "Lighthouse"}[effect]
    st = seven_position(own=own, hand=[name])
    paid = build_it(st, name)
    printed = D.parse_cost(D.card_of_name(D.NAMES.index(name)).cost)[0]
    assert st.coins(0) == 30 - printed - paid + gain
    assert st.scores()[0]["commercial"] == vp


def test_arena_counts_stages():
    """W-CARD-7, W-CARD-9: Arena gives 3 coins per built stage of the owner's board once, and
    1 VP per stage at the end (2 stages: 6 coins, 2 VP)."""
    st = seven_position(hand=["Arena"], stages=2)
    paid = build_it(st, "Arena")
    assert st.coins(0) == 30 - paid + 6 and st.scores()[0]["commercial"] == 2


NEIGHBOUR_EXTRA = {1: ["Altar", "Apothecary", "Barracks", "Tavern"],
                   6: ["Theater", "Baths", "Workshop", "Stockade", "Guard Tower", "Marketplace"]}


@pytest.mark.parametrize("guild", D.GUILDS, ids=lambda g: g.name)
def test_every_guild(guild):
    """W-CARD-8: each guild's VP, counted in both neighbours (never the owner's city) except
    Builders (own + neighbours), Shipowners (own, itself included), Scientists (a wildcard);
    one case each: Builders Guild, Craftsmens Guild, Magistrates Guild, Philosophers Guild,
    Scientists Guild, Shipowners Guild, Spies Guild, Strategists Guild, Traders Guild, Workers
    Guild."""
    own = ["Clay Pit", "Glassworks", "Arsenal", "Academy", "Senate"]
    guilds = [guild.name] + [g for g in GUILDS if g != guild.name][:8]
    # seat 0 has built 3 cards of Age III (Arsenal, Academy, Senate): turn 4 (W-TURN-5)
    st = seven_position(own=own, hand=[guild.name], guilds=guilds, stages=1,
                        extra=NEIGHBOUR_EXTRA, turn=4)
    st2 = position(7, ["Gizah A"] + [f"{b} A" for b in D.BOARD_NAMES if b != "Gizah"], age=3,
                   turn=5, cities=[own + [guild.name], LEFT + NEIGHBOUR_EXTRA[1], [], [], [], [],
                           RIGHT + NEIGHBOUR_EXTRA[6]],
                   stages=[1, 2, 0, 0, 0, 0, 3], defeats=[0, 2, 0, 0, 0, 0, 1], guilds=guilds)
    left, right = st2.city_info(1), st2.city_info(6)
    kind, _, rest = guild.effect.partition(":")
    if kind == "neighbours":
        colour, per = rest.split(":")
        want = int(per) * (left["colours"][colour] + right["colours"][colour])
    else:
        want = {"strategists": 2 + 1, "builders": 1 + 2 + 3, "shipowners": 1 + 1 + 1,
                "scientists": 0}[kind]
    assert st2.scores()[0]["guilds"] == want
    if kind == "scientists":
        # Academy (compass) + a wildcard: best is a second compass, 4 VP
        assert st2.scores()[0]["science"] == 4
    assert st2.scores()[0]["total"] == sum(v for k, v in st2.scores()[0].items() if k != "total")
    paid = build_it(st, guild.name)
    assert st.coins(0) == 30 - paid                             # guilds give no coins


STAGE_IDS = []
STAGE_CASES = []
for b in D.BOARDS:
    for side, stages in (("A", b.a), ("B", b.b)):
        for k, stage in enumerate(stages):
            STAGE_CASES.append((b.name, side, k, stage))
            STAGE_IDS.append(f"{b.name}-{side}{k + 1}")


@pytest.mark.parametrize("board,side,k,stage", STAGE_CASES, ids=STAGE_IDS)
def test_every_wonder_stage(board, side, k, stage):
    """W-WON-1..8: each stage's cost is met with own production and trade, the card goes under
    the board, and the printed effect applies; every stage of both sides of the 7 boards:
    Rhodos, Alexandria, Ephesos, Babylon, Olympia, Halikarnassus, Gizah."""
    # the stage card: a card of Age III (the hand's Age), a guild so that it has one copy
    card = "Builders Guild"
    st = seven_position(board=f"{board} {side}", hand=[card], stages=k, discard=["Baths"])
    before = st.city_info(0)
    vp_before = st.scores()[0]["wonder"]
    acts = [a for a in st.legal_actions(0) if sv.decode_turn_action(a)[:2] == ("stage", card)]
    assert acts
    a = min(acts, key=lambda x: sum(sv.decode_turn_action(x)[2:]))
    paid = sum(sv.decode_turn_action(a)[2:])
    assert paid == sum(st.payment_options(0)[0]) or paid <= sum(st.payment_options(0)[0])
    commit_all(st, {0: a})
    if "discard_build" in stage.effects:
        assert st.phase == "halikarnassus" and st.pending_seats() == [0]
        st.apply_action(sv.HALI_BASE + D.NAMES.index("Baths"), 0)
        assert "Baths" in st.city(0)
    assert st.board(0)[2] == k + 1
    assert card not in st.city(0) and card not in st.discard_pile()
    after = st.city_info(0)
    eff = dict(e.partition(":")[::2] for e in stage.effects)
    assert st.scores()[0]["wonder"] - vp_before == int(eff.get("vp", 0))
    assert st.coins(0) == 30 - paid + int(eff.get("coins", 0))
    assert after["shields"] - before["shields"] == int(eff.get("shields", 0))
    assert after["any_raw"] - before["any_raw"] == (eff.get("choice") == "raw")
    assert after["any_manuf"] - before["any_manuf"] == (eff.get("choice") == "manuf")
    if "trade" in eff:
        assert after["trade"]["raw_left"] and after["trade"]["raw_right"]
    assert after["wild"] - before["wild"] == ("science" in eff)
    assert after["seventh"] == (before["seventh"] or "seventh" in eff)
    assert after["copy_guild"] == ("copy_guild" in eff)
    assert st.olympia_free(0) == ("free_build" in eff)
    # every stage built: no further stage action
    if k + 1 == len(getattr(D.BOARDS[D.BOARD_NAMES.index(board)], side.lower())):
        assert st.payment_options(0) == []
