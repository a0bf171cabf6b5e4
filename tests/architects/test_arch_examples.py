"""The 26 worked examples of RULES-ARCH.md (AE1..AE26), each with the digest's values.

Positions are built in the game's words (:func:`arch_helpers.position`) with explicit chance,
so every card drawn or revealed is named by the test.  Unless said otherwise: 2 players, P0 =
seat 0 (Giza), P1 = seat 1 (Rhodes), no token owned, no stage built.
"""
from fractions import Fraction
from math import comb

import pytest

from duelcore.architects import engine as core
from arch_helpers import chance_table, do, draw, names, position, reveal_any

CENTRAL = core.CENTRAL


def vp(state, seat, cat="total"):
    return state.scores()[seat][cat]


def test_ae1_coins_are_wild_identical_stage():
    """AE1 (A-BUILD-3..6, A-TURN-4): Giza with S1 built holds wood, stone; a coin makes S2 (2=)
    affordable; the payments are {wood, coin} and {stone, coin}, never {wood, stone}; paying
    {stone, coin} discards both, keeps the wood, +5 VP; S3 is then available but not
    affordable."""
    s = position(stages={0: ["S1"]}, tableau={0: ["wood", "stone"]}, tops={0: "coin"})
    assert not s.affordable("S2")
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "pay" and s.stage_choice == "S2"
    assert sorted(names(s)) == ["pay stone, coin", "pay wood, coin"]
    discard = s.discard()
    do(s, "pay stone, coin")
    assert s.tableau(0) == {"wood": 1}
    assert s.discard().get("stone", 0) == discard.get("stone", 0) + 1
    assert s.discard().get("coin", 0) == discard.get("coin", 0) + 1
    assert s.stages(0) == ["S1", "S2"] and vp(s, 0, "wonder") == 4 + 5
    assert s.available_stages(0) == ["S3"]
    assert s.active == 1                          # nothing more to do: P1's turn


def test_ae2_coins_alone_and_a_single_payment():
    """AE2 (A-BUILD-5): Giza with a coin takes a second coin: S1 (2≠) is affordable by coins
    alone and must be built (+4).  Later, with S1, S2 built and wood, wood, clay, a coin makes
    S3 (3≠) affordable: the only payment is {wood, clay, coin}, one wood stays."""
    s = position(tableau={0: ["coin"]}, tops={0: "coin"})
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1"] and s.tableau(0) == {} and vp(s, 0, "wonder") == 4
    s = position(stages={0: ["S1", "S2"]}, tableau={0: ["wood", "wood", "clay"]},
                 tops={0: "coin"})
    assert not s.affordable("S3")
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2", "S3"] and s.tableau(0) == {"wood": 1}


def test_ae3_economy():
    """AE3 (A-BUILD-8): Alexandria with S1 built owns Economy.  (a) A first coin: 0 + 1 +
    e(1) = 2, S2 must be built with the coin doubled (+3, then Alexandria's power); with
    economy_forces_build off it may be left.  (b) With a papyrus, the payments are
    {papyrus, coin} and {coin doubled}, not {papyrus, coin doubled}; {coin doubled} keeps the
    papyrus and uses Economy for the turn."""
    kw = dict(wonders=("Alexandria", "Rhodes"), stages={0: ["S1"]}, tokens={0: ["Economy"]},
              tops={0: "coin"})
    s = position(**kw)
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2"] and vp(s, 0, "wonder") == 4 + 3
    assert s.phase == "alexandria" and s.used() == ["Economy"] and s.tableau(0) == {}
    s = position(economy_forces_build=False, **kw)
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "stage" and names(s) == ["decline", "build S2"]
    do(s, "decline")
    assert s.active == 1 and s.stages(0) == ["S1"] and s.tableau(0) == {"coin": 1}
    kw["tableau"] = {0: ["papyrus"]}
    s = position(**kw)
    do(s, "take left")
    reveal_any(s)
    assert sorted(names(s)) == ["pay coin doubled", "pay papyrus, coin"]
    do(s, "pay coin doubled")
    assert s.tableau(0) == {"papyrus": 1} and s.used() == ["Economy"]


def test_ae4_economy_once_per_turn_and_its_reset():
    """AE4 (A-BUILD-8, A-TOK-2, A-TURN-5): Rhodes with Economy and Jewellery takes a coin;
    Jewellery's pick brings a second coin before any build; S1 and S2 are both affordable;
    S1 paid with {coin doubled} leaves 1 coin and e = 0, so S2 stays unbuilt.  At P0's next
    turn Economy is usable again and S2 must be built whatever the main pick brings."""
    s = position(wonders=("Rhodes", "Giza"), tokens={0: ["Economy", "Jewellery"]},
                 tops={0: "coin", 1: "coin"})
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "pick" and s.pending() == ["Jewellery"]
    do(s, "take right")
    reveal_any(s)
    assert s.phase == "stage" and names(s) == ["build S1", "build S2"]
    do(s, "build S1")
    assert sorted(names(s)) == ["pay coin doubled", "pay coin, coin"]
    do(s, "pay coin doubled")
    assert s.stages(0) == ["S1"] and s.tableau(0) == {"coin": 1}
    assert s.active == 1                                  # S2 (1 < 2) is not built
    assert s.shields(0) == 1                              # Rhodes S1's shield (A-WON-7)
    do(s, "take central")
    draw(s, "red0")
    assert s.active == 0 and s.used() == []
    do(s, "take central")
    draw(s, "blue3")
    assert s.stages(0) == ["S1", "S2"] and s.tableau(0) == {"blue3": 1}


def test_ae5_engineering():
    """AE5 (A-BUILD-9): Giza with S1 built holds a wood and takes a stone: without
    Engineering S2 (2=) is not affordable; with it Σg = 2 and S2 is built with {wood, stone},
    +5 VP."""
    s = position(stages={0: ["S1"]}, tableau={0: ["wood"]}, tops={0: "stone"})
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1"] and s.active == 1
    s = position(stages={0: ["S1"]}, tableau={0: ["wood"]}, tops={0: "stone"},
                 tokens={0: ["Engineering"]})
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2"] and s.tableau(0) == {} and vp(s, 0, "wonder") == 9


def test_ae6_a_science_set_choice():
    """AE6 (A-TOK-3, A-SCI-2, -4): P0 owns Science, holds tablet, gear; the row is Urbanism,
    Decor, Culture.  A tablet puts Science on the list; its pick takes P1's compass (which
    triggers nothing: Science is used).  With tablet x2, gear, compass both the tablet pair
    and the triple are possible; P0 takes the pair, then Culture; the refill draws each of the
    11 stack tokens with probability 1/11."""
    s = position(tokens={0: ["Science"]}, tableau={0: ["tablet", "gear"]},
                 tops={0: "tablet", 1: "compass"}, row=("Urbanism", "Decor", "Culture"))
    do(s, "take left")
    reveal_any(s)
    assert s.pending() == ["Science"]
    do(s, "take right")
    reveal_any(s)
    assert s.pending() == [] and s.used() == ["Science"]
    assert s.phase == "set" and names(s) == ["set tablet pair", "set triple"]
    do(s, "set tablet pair")
    assert s.tableau(0) == {"gear": 1, "compass": 1}
    assert s.phase == "token" and "token Culture" in names(s) and "token stack" in names(s)
    do(s, "token Culture")
    table = chance_table(s)
    assert len(table) == 11 and all(p == pytest.approx(1 / 11) for p in table.values())
    assert table["Culture"] == pytest.approx(1 / 11)


def test_ae7_two_player_battle():
    """AE7 (A-MIL): 1 of 3 conflict tokens on battle; P0 (Rhodes, S1) holds red0, red1: 3
    shields.  P1 (Giza) takes the red2 on top of the Rhodes deck: the battle is pending; at
    the end of P1's turn 3 vs 1: P0 takes 2 tokens (+6), P1 none; horned cards are discarded
    and the tokens return to peace: P0 has 2 shields, P1 0.  The table of pairs of A-MIL-5."""
    s = position(wonders=("Rhodes", "Giza"), active=1, stages={0: ["S1"]},
                 tableau={0: ["red0", "red1"]}, tops={0: "red2"}, turned=1)
    assert s.shields(0) == 3
    do(s, "take right")
    assert s.conflict() == (3, 3, True)
    reveal_any(s)
    assert s.active == 0 and s.conflict() == (3, 0, False)
    assert s.military_tokens(0) == 2 and s.military_tokens(1) == 0
    assert vp(s, 0, "military") == 6
    assert s.tableau(0) == {"red0": 1} and s.tableau(1) == {}
    assert s.shields(0) == 2 and s.shields(1) == 0
    pairs = {(1, 0): 1, (2, 0): 2, (2, 1): 2, (3, 2): 1, (4, 2): 2, (2, 2): 0, (0, 0): 0,
             (3, 1): 2}
    for (a, b), want in pairs.items():
        assert core.two_player_battle(a, b) == want, (a, b)


def test_ae8_battle_with_four_players():
    """AE8 (A-MIL-4): shields 3, 1, 1, 0 at seats 0..3: seat 0 beats both neighbours (2
    tokens), seat 2 beats seat 3 (1 token), ties and losses give nothing: 6, 0, 3, 0 VP."""
    s = position(players=4, wonders=("Giza", "Rhodes", "Babylon", "Ephesus"),
                 tableau={0: ["red0", "red0"], 1: ["red1"], 2: ["red2"]}, tops={0: "red1"},
                 turned=3)
    do(s, "take left")
    assert s.conflict()[2]
    reveal_any(s)
    assert [s.military_tokens(i) for i in range(4)] == [2, 0, 1, 0]
    assert [vp(s, i, "military") for i in range(4)] == [6, 0, 3, 0]


def test_ae9_extra_horns_are_lost_propaganda():
    """AE9 (A-MIL-2, A-TOK-3): 2 of 3 tokens on battle; P0 owns Propaganda and takes a red2:
    only the last token turns, the second horn is lost, a battle is pending.  Propaganda's
    pick takes a red1, which turns nothing and triggers nothing; its shield counts in the
    battle at the end of the turn, then both horned cards are discarded."""
    s = position(tokens={0: ["Propaganda"]}, tableau={1: ["red2"]},
                 tops={0: "red2", 1: "red1"}, turned=2)
    do(s, "take left")
    reveal_any(s)
    assert s.conflict() == (3, 3, True) and s.pending() == ["Propaganda"]
    do(s, "take right")
    assert s.pending() == [] and s.used() == ["Propaganda"] and s.conflict() == (3, 3, True)
    assert s.shields(0) == 2
    reveal_any(s)
    assert s.active == 1 and s.military_tokens(0) == 2      # 2 vs 1 (P1's red2)
    assert s.tableau(0) == {} and s.tableau(1) == {} and s.conflict() == (3, 0, False)


def _window_law(deck: dict, k: int):
    """{multiset of the k cards drawn: probability} when drawing them one at a time."""
    out: dict = {}

    def go(left, drawn, p):
        if len(drawn) == k:
            key = tuple(sorted(drawn))
            out[key] = out.get(key, 0) + p
            return
        n = sum(left.values())
        for kind, c in left.items():
            if c:
                go({**left, kind: c - 1}, drawn + [kind], p * Fraction(c, n))
    go(dict(deck), [], Fraction(1))
    return out


def test_ae10_the_halicarnassus_power():
    """AE10 (A-WON-5, CH8, CH9): P0 (Halicarnassus, S1) holds papyrus, stone, clay and takes
    a papyrus: S2 (2=) is built with {papyrus, papyrus} (+3) and the power follows.  P0
    searches the right deck (9 cards: glass on top; wood x2, coin x2, blue2cat, tablet, red0
    x2 under it): the window is the glass plus 4 draws; at least one coin with probability
    11/14; {wood, coin, red0, tablet} with probability 4/35.  P0 keeps the coin; the 8-card
    deck is shuffled, its new top glass 1/8, wood 2/8, coin 1/8, blue2cat 1/8, tablet 1/8,
    red0 2/8.  The coin arrives: S3 (3≠) is built with {stone, clay, coin} (+6); S4 (3=) is
    not affordable.  The turn earned 9 VP."""
    under = {"wood": 2, "coin": 2, "blue2cat": 1, "tablet": 1, "red0": 2}
    s = position(wonders=("Halicarnassus", "Giza"), stages={0: ["S1"]},
                 tableau={0: ["papyrus", "stone", "clay"]}, tops={0: "papyrus", 1: "glass"},
                 unders={1: under})
    before = vp(s, 0, "wonder")
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2"] and s.phase == "hali_deck"
    assert names(s) == ["search left", "search right"]
    do(s, "search right")
    assert s.chance_kind == "window" and s.window() == {"glass": 1}
    law = _window_law(under, 4)
    assert sum(p for m, p in law.items() if "coin" in m) == Fraction(11, 14)
    assert law[tuple(sorted(["wood", "coin", "red0", "tablet"]))] == Fraction(4, 35)
    assert Fraction(2 * 2 * 2 * 1, comb(8, 4)) == Fraction(4, 35)
    assert chance_table(s) == {k: pytest.approx(v / 8) for k, v in under.items()}
    draw(s, "wood", "coin", "red0", "tablet")
    assert s.phase == "hali_keep"
    assert names(s) == ["keep wood", "keep glass", "keep coin", "keep tablet", "keep red0"]
    do(s, "keep coin")
    assert s.chance_kind == "top"
    assert chance_table(s) == {"glass": pytest.approx(1 / 8), "wood": pytest.approx(2 / 8),
                               "coin": pytest.approx(1 / 8), "blue2cat": pytest.approx(1 / 8),
                               "tablet": pytest.approx(1 / 8), "red0": pytest.approx(2 / 8)}
    draw(s, "wood")
    assert s.stages(0) == ["S1", "S2", "S3"] and s.tableau(0) == {}
    assert vp(s, 0, "wonder") - before == 9 and s.active == 1


def test_ae11_the_game_ends_on_a_fifth_stage_tie_on_vp():
    """AE11 (A-END-1, -4): P0 (Giza, S1-S4: 22 VP, one blue3) completes S5 with wood, stone,
    clay and a glass (+8): 33 VP; P1 (Alexandria, S1-S3, blue3 x2, blue2cat x3, the cat, 2
    military tokens) has 33.  The game ends at the end of P0's turn; 5 stages beat 3: P0
    wins.  With the same stages the victory is shared."""
    s = position(wonders=("Giza", "Alexandria"), stages={0: ["S1", "S2", "S3", "S4"],
                                                        1: ["S1", "S2", "S3"]},
                 tableau={0: ["blue3", "wood", "stone", "clay"],
                          1: ["blue3", "blue3", "blue2cat", "blue2cat", "blue2cat"]},
                 cat=1, mvt={1: 2}, tops={0: "glass"})
    assert vp(s, 1) == 33
    do(s, "take left")
    reveal_any(s)
    assert s.is_terminal() and vp(s, 0) == 33 and vp(s, 1) == 33
    assert s.winners() == [0] and s.returns() == [1.0, 0.0] and s.ranking() == [1, 2]
    # the same stages: shared (the decks run out, A-END-2)
    s = position(wonders=("Giza", "Rhodes"), active=1, stages={0: ["S1"], 1: ["S1"]},
                 tops={0: "blue3", 1: "blue3"}, sizes={0: 1, 1: 1}, central_size=0)
    do(s, "take left")
    assert s.is_terminal() and vp(s, 0) == vp(s, 1) == 7
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5] and s.ranking() == [1, 1]


def test_ae12_a_battle_on_the_last_turn():
    """AE12 (A-END-1, A-MIL-3): P0 (Giza, S1-S4) owns Propaganda and holds wood, stone,
    clay, red0; 2 of 3 tokens turned; P1 has 1 shield.  A red1 turns the last token;
    Propaganda's pick draws a coin from C; S5 is built; at the end of the turn the battle
    (2 vs 1: +6 VP) comes first, then the game ends and those VP count."""
    s = position(stages={0: ["S1", "S2", "S3", "S4"]}, tokens={0: ["Propaganda"]},
                 tableau={0: ["wood", "stone", "clay", "red0"], 1: ["red2"]},
                 tops={0: "red1"}, turned=2)
    do(s, "take left")
    reveal_any(s)
    assert s.conflict()[2] and s.pending() == ["Propaganda"]
    do(s, "take central")
    draw(s, "coin")
    assert s.is_terminal() and s.stages(0) == ["S1", "S2", "S3", "S4", "S5"]
    assert s.military_tokens(0) == 2 and vp(s, 0, "military") == 6
    assert s.tableau(0) == {"red0": 1}


def test_ae13_extra_picks_chain_once_per_token_per_turn():
    """AE13 (A-TOK-2, -3): P0 owns Urbanism and Jewellery: a wood puts Urbanism on the list;
    its pick takes the coin on the right deck (Jewellery); Jewellery's pick takes the new top
    of its own deck, a clay: Urbanism is used, nothing more.  Three cards.  A declined pick
    leaves its token unused: a wood or clay arriving later that turn offers it again
    (here through Olympia's power, which brings a wood and a coin at once)."""
    s = position(tokens={0: ["Urbanism", "Jewellery"]}, tops={0: "wood", 1: "coin"},
                 stages={0: ["S1", "S2", "S3"]})          # nothing to build with them
    do(s, "take left")
    draw(s, "clay")                                     # the own deck's new top
    assert s.pending() == ["Urbanism"]
    do(s, "take right")
    reveal_any(s)
    assert s.pending() == ["Jewellery"]
    do(s, "take left")
    reveal_any(s)
    assert s.tableau(0) == {"wood": 1, "clay": 1, "coin": 1}
    assert s.active == 1 and s.used() == []              # the turn is over
    s = position(wonders=("Olympia", "Giza"), stages={0: ["S1"]}, tableau={0: ["papyrus"]},
                 tokens={0: ["Urbanism", "Jewellery"]}, tops={0: "wood", 1: "coin"})
    do(s, "take central")
    draw(s, "papyrus")
    assert s.stages(0) == ["S1", "S2"]
    reveal_any(s)
    assert s.pending() == ["Urbanism", "Jewellery"]
    do(s, "decline")
    assert s.pending() == ["Jewellery"] and s.used() == []
    do(s, "take central")
    draw(s, "clay")
    assert s.pending() == ["Urbanism"] and s.used() == ["Jewellery"]


def test_ae14_a_token_won_mid_turn():
    """AE14 (A-ORDER-2, A-TOK-4): P0 (Giza, S1) holds wood, stone, tablet; the row shows
    Engineering, Science, Strategy.  A tablet makes the pair (step 2) and P0 takes
    Engineering: S2 is then affordable and built with {wood, stone} (+5).  Had P0 taken
    Science, the tablet already taken would not trigger it, and S2 would stay unbuilt."""
    kw = dict(stages={0: ["S1"]}, tableau={0: ["wood", "stone", "tablet"]},
              tops={0: "tablet"}, row=("Engineering", "Science", "Strategy"))
    s = position(**kw)
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "token"
    do(s, "token Engineering")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2"] and vp(s, 0, "wonder") == 9
    s = position(**kw)
    do(s, "take left")
    reveal_any(s)
    do(s, "token Science")
    reveal_any(s)
    assert s.stages(0) == ["S1"] and s.pending() == [] and s.active == 1


def test_ae15_choosing_among_available_stages():
    """AE15 (A-BUILD-2, -5): (a) Ephesus with S1 built (S2, S3, S4 available) holds a papyrus
    and owns Crafts; a papyrus, then Crafts's pick a third: S2 (2=) and S4 (3=) are
    affordable, S3 (3≠) is not; S4 uses all three (+5), S2 two (+3) and the last papyrus
    cannot pay S4; either way Ephesus's power then takes C's top.  (b) Babylon with S1-S3
    holds wood, stone, clay and takes a glass: S5 (needs only S3) is built (+7), S4 (3=) is
    not, and the game goes on."""
    kw = dict(wonders=("Ephesus", "Giza"), stages={0: ["S1"]}, tableau={0: ["papyrus"]},
              tokens={0: ["Crafts"]}, tops={0: "papyrus", 1: "papyrus"})
    for choice, gain, left in (("build S4", 5, {}), ("build S2", 3, {"papyrus": 1})):
        s = position(**kw)
        do(s, "take left")
        reveal_any(s)
        do(s, "take right")
        reveal_any(s)
        assert s.phase == "stage" and names(s) == ["build S2", "build S4"]
        before = vp(s, 0, "wonder")
        do(s, choice)
        assert vp(s, 0, "wonder") - before == gain
        assert s.chance_kind == "central"                 # Ephesus's power (A-WON-3)
        draw(s, "blue3")
        assert s.tableau(0) == {**left, "blue3": 1}
        assert s.active == 1
    s = position(wonders=("Babylon", "Giza"), stages={0: ["S1", "S2", "S3"]},
                 tableau={0: ["wood", "stone", "clay"]}, tops={0: "glass"})
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2", "S3", "S5"] and not s.is_terminal()
    assert s.available_stages(0) == ["S4"]


def test_ae16_rhodes_two_foundations_architecture():
    """AE16 (A-BUILD-5, A-TOK-3): Rhodes reaches the construction step with wood x2, stone:
    S1 {wood, stone} (shield) and S2 {wood, wood} are both affordable; whichever is built,
    the card left cannot pay the other.  With wood x2, stone, clay and Architecture: S2
    {wood, wood}; Architecture's pick takes a blue3; S1 is built with {stone, clay}; no
    second pick (Architecture used); S3 (needs S1 and S2) is available."""
    kw = dict(wonders=("Rhodes", "Giza"), tableau={0: ["wood"]}, tokens={0: ["Urbanism"]},
              tops={0: "wood", 1: "stone"})
    for choice, built in (("build S1", ["S1"]), ("build S2", ["S2"])):
        s = position(**kw)
        do(s, "take left")
        reveal_any(s)
        do(s, "take right")
        reveal_any(s)
        assert names(s) == ["build S1", "build S2"]
        do(s, choice)
        assert s.stages(0) == built and s.active == 1
    s = position(wonders=("Rhodes", "Giza"), tableau={0: ["wood", "stone", "clay"]},
                 tokens={0: ["Architecture"]}, tops={0: "wood", 1: "blue3"})
    do(s, "take left")
    reveal_any(s)
    do(s, "build S2")
    assert s.stages(0) == ["S2"] and s.pending() == ["Architecture"]
    do(s, "take right")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2"] and s.used() == [] and s.active == 1
    assert s.tableau(0) == {"blue3": 1} and s.available_stages(0) == ["S3"]


def test_ae17_olympias_two_cards_then_the_checks():
    """AE17 (A-WON-6, A-ARR-2): Olympia (S1) holds stone, clay and takes a stone: S2
    {stone, stone} (+2); the power takes the top of P0's own deck (glass), then P1's (wood);
    both decks reveal a new top; with clay, glass, wood S3 (3≠) is built (+5); S4 (needs S2,
    S3) becomes available with nothing left to pay for it."""
    s = position(wonders=("Olympia", "Giza"), stages={0: ["S1"]},
                 tableau={0: ["stone", "clay"]}, tops={0: "glass", 1: "wood"})
    do(s, "take central")
    draw(s, "stone")
    assert s.stages(0) == ["S1", "S2"]
    assert s.chance_kind == "top"                   # the own deck's new top (A-ARR-1 step 1)
    reveal_any(s)
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2", "S3"] and s.tableau(0) == {}
    assert s.scores()[0]["wonder"] == 3 + 2 + 5 and s.available_stages(0) == ["S4"]


def test_ae18_babylons_token():
    """AE18 (A-WON-2, CH7): the row shows Decor, Tactics, Education and the stack holds the
    other 12 (both Cultures).  Babylon (S1) holds a coin and takes a coin: S2 {coin, coin}
    (0 VP) and a token: blind, Culture has probability 2/12; P0 takes Tactics (+2 shields at
    once); the refill shows a Culture with probability 2/12."""
    kw = dict(wonders=("Babylon", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
              tops={0: "coin"})
    s = position(**kw)
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1", "S2"] and s.scores()[0]["wonder"] == 3
    assert names(s) == ["token Decor", "token Education", "token Tactics", "token stack"]
    blind = s.clone()
    do(blind, "token stack")
    assert chance_table(blind)["Culture"] == pytest.approx(2 / 12)
    do(s, "token Tactics")
    assert s.shields(0) == 2
    assert chance_table(s)["Culture"] == pytest.approx(2 / 12)


def test_ae19_the_cat():
    """AE19 (A-CAT): P1 takes a blue2cat: the cat goes to P1; then P0's blue2cat brings it
    to P0.  At the start of P0's next turn P0 looks at C's top (a blue3).  P0 takes from its
    own deck; P1 takes from C and gets that blue3, a blind draw in P1's information (3 blue3
    among 50: 3/50).  At P0's next turn P0 looks at the new top; at the end the holder
    scores +2."""
    under = {"wood": 6, "stone": 6, "clay": 6, "glass": 6, "coin": 6, "blue3": 3,
             "blue2cat": 6, "red0": 6, "tablet": 5}
    s = position(active=1, tops={0: "blue2cat", 1: "blue2cat"}, central_under=under)
    assert s.deck_size(CENTRAL) == 50
    do(s, "take left")
    assert s.cat == 1
    reveal_any(s)
    do(s, "take left")
    assert s.cat == 0
    reveal_any(s)
    do(s, "take central")
    draw(s, "red0")
    assert s.chance_kind == "look"                  # the start of P0's turn (A-CAT-3)
    assert chance_table(s)["blue3"] == pytest.approx(3 / 49)
    draw(s, "blue3")
    assert s.central_top(0) == "blue3" and s.central_top(1) is None and s.knowers() == [0]
    assert s.deck_cards(CENTRAL)["blue3"] == 3 and s.deck_size(CENTRAL) == 49
    do(s, "take left")
    reveal_any(s)
    # P1 does not know the top: for P1 a take from C is a draw from C's make-up
    view = core.hidden_variant(s, 1, 5)
    assert view.central_top(0) != s.central_top(0) or view.rng != s.rng
    assert Fraction(s.deck_cards(CENTRAL)["blue3"], s.deck_size(CENTRAL)) == Fraction(3, 49)
    do(s, "take central")                            # no chance node: the top is fixed
    assert s.tableau(1).get("blue3") == 1 and s.knowers() == []
    reveal_any(s)
    assert s.chance_kind == "look"
    draw(s, "coin")
    assert s.cat == 0 and s.scores()[0]["cat"] == 2 and s.scores()[1]["cat"] == 0


def test_ae20_scoring():
    """AE20 (A-END-3, tokens): Olympia S1-S3 (10), blue3 x2 (6), blue2cat x3 (6), 2 military
    tokens (6), the cat (2), Strategy (+2), Education (4 tokens: +8), Politics (+3), Decor
    (unfinished: +4): 47.  With both Cultures as well: Education +12 and Culture +12: 63."""
    kw = dict(wonders=("Olympia", "Giza"), stages={0: ["S1", "S2", "S3"]},
              tableau={0: ["blue3", "blue3", "blue2cat", "blue2cat", "blue2cat"]},
              mvt={0: 2}, cat=0, row=("Tactics", "Economy", "Science"))
    s = position(tokens={0: ["Strategy", "Education", "Politics", "Decor"]}, **kw)
    sc = s.scores()[0]
    assert sc == {"wonder": 10, "blue": 12, "military": 6, "cat": 2, "progress": 17,
                  "total": 47}
    s = position(tokens={0: ["Strategy", "Education", "Politics", "Decor", "Culture",
                             "Culture"]}, **kw)
    assert s.scores()[0]["total"] == 63 and s.scores()[0]["progress"] == 2 + 12 + 3 + 4 + 12


def test_ae21_the_decks_run_out():
    """AE21 (A-END-2, A-TWO-4): C and P0's own deck are empty; P1's deck holds one red0.
    P0's only available deck is the right one: the main pick takes the red0 (a single
    option, applied without asking, A-DEC-2); no deck holds a card: the game ends."""
    s = position(active=1, tops={0: None, 1: "red0"}, sizes={0: 0, 1: 1},
                 central_under={"blue3": 1})
    assert names(s) == ["take left", "take central"]
    do(s, "take central")
    draw(s, "blue3")
    assert s.is_terminal() and s.tableau(0) == {"red0": 1}
    assert all(s.deck_size(d) == 0 for d in (0, 1, CENTRAL))
    assert s.winners() == [1]                        # blue3 (3 VP) against nothing


def test_ae22_science_with_no_token_left():
    """AE22 (A-SCI-3): every token is owned; P0 holds tablet x2: no set is formed, both
    cards stay, nothing happens."""
    toks0 = ["Architecture", "Crafts", "Culture", "Culture", "Decor", "Economy", "Education"]
    toks1 = ["Engineering", "Jewellery", "Politics", "Propaganda", "Science", "Strategy",
             "Tactics", "Urbanism"]
    s = position(tokens={0: toks0, 1: toks1}, row=(), tableau={0: ["tablet"]},
                 tops={0: "tablet"})
    do(s, "take left")
    reveal_any(s)
    assert s.tableau(0) == {"tablet": 2} and s.active == 1


def test_ae23_chance_at_setup():
    """AE23 (A-CHANCE): Giza and Rhodes: the Giza deck's first top is a coin with
    probability 3/25 and never a red2; a first draw from C: coin 1/10, blue2cat 2/15, red2
    1/30, every other kind 1/15; both Cultures in the first face-up row 1/35; a wonder drawn
    at random: each ordered choice (7 - N)!/7!."""
    s = core.new_state(2, 0, wonders=["Giza", "Rhodes"], explicit_chance=True)
    assert s.chance_kind == "top"
    t = chance_table(s)
    assert t["coin"] == pytest.approx(3 / 25) and "red2" not in t
    draw(s, "coin")
    while s.chance_kind == "top":
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.chance_kind == "row"
    # both Cultures among the 3 face-up tokens: the law of three draws
    law = {}

    def go(stack, shown, p):
        if len(shown) == 3:
            c = shown.count("Culture")
            law[c] = law.get(c, 0) + p
            return
        n = sum(stack.values())
        for t_, c in stack.items():
            if c:
                go({**stack, t_: c - 1}, shown + [t_], p * Fraction(c, n))
    stack = {k: Fraction(v) * 1 for k, v in chance_table(s).items()}
    assert stack["Culture"] == pytest.approx(2 / 15)
    go({t_: 2 if t_ == "Culture" else 1 for t_ in stack}, [], Fraction(1))
    assert law[2] == Fraction(13, comb(15, 3)) == Fraction(1, 35)
    reveal_any(s)
    assert s.phase == "main"
    do(s, "take central")
    t = chance_table(s)
    assert t["coin"] == pytest.approx(1 / 10) and t["blue2cat"] == pytest.approx(2 / 15)
    assert t["red2"] == pytest.approx(1 / 30)
    assert all(t[k] == pytest.approx(1 / 15) for k in t if k not in ("coin", "blue2cat",
                                                                       "red2"))
    w = core.new_state(3, 0, explicit_chance=True)
    assert w.chance_kind == "wonder" and len(w.chance_outcomes()) == 7
    w.apply_action(w.chance_outcomes()[0][0])
    assert [p for _, p in w.chance_outcomes()] == [pytest.approx(1 / 6)] * 6


def test_ae24_alexandria_at_four_players():
    """AE24 (A-WON-1): seat 0 (Alexandria) builds S2; its power may take the top of D0, D3,
    D1, D2 or C; it takes the blue3 on top of D2, whose new top is revealed for seats 2 and
    3, who share that deck."""
    s = position(players=4, wonders=("Alexandria", "Giza", "Rhodes", "Babylon"),
                 stages={0: ["S1"]}, tableau={0: ["coin"]}, tops={0: "coin", 2: "blue3"})
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "alexandria"
    assert names(s) == ["take deck P1 (Alexandria)", "take deck P2 (Giza)",
                        "take deck P3 (Rhodes)", "take deck P4 (Babylon)", "take deck central"]
    do(s, "take Rhodes deck")
    assert s.tableau(0) == {"blue3": 1}
    assert s.chance_kind == "top" and s.deck_top(2) is None
    assert s.deck_of(2)[0] == 2 and s.deck_of(3)[1] == 2


def test_ae25_paying_with_coins_by_choice():
    """AE25 (A-BUILD-6): Giza (nothing built) holds a wood and owns Jewellery; it takes a
    stone, Jewellery's pick brings a coin: S1 (2≠) has three payments {wood, stone},
    {wood, coin}, {stone, coin}; with coins_only_when_needed only {wood, stone}."""
    kw = dict(tableau={0: ["wood"]}, tokens={0: ["Jewellery"]}, tops={0: "stone", 1: "coin"})
    s = position(**kw)
    do(s, "take left")
    reveal_any(s)
    do(s, "take right")
    reveal_any(s)
    assert sorted(names(s)) == ["pay stone, coin", "pay wood, coin", "pay wood, stone"]
    s = position(coins_only_when_needed=True, **kw)
    do(s, "take left")
    reveal_any(s)
    do(s, "take right")
    reveal_any(s)
    assert s.stages(0) == ["S1"] and s.tableau(0) == {"coin": 1}


def test_ae26_economy_forces_the_last_stage():
    """AE26 (A-BUILD-8, A-END-1): Giza (S1-S4) owns Economy, holds wood, stone and trails
    P1 by 10 VP; a coin: 2 kinds + 1 + e(1) = 4, so S5 must be built with {wood, stone,
    coin doubled} (+8); the game ends and P0 loses.  With economy_forces_build off, P0 may
    leave S5 unbuilt and play on."""
    kw = dict(stages={0: ["S1", "S2", "S3", "S4"], 1: ["S1", "S2", "S3", "S4"]},
              tokens={0: ["Economy"]}, tableau={0: ["wood", "stone"], 1: ["blue3", "blue2cat"]},
              cat=1, mvt={1: 2}, tops={0: "coin"})
    s = position(**kw)
    assert vp(s, 0) == 22 and vp(s, 1) == 32                # 10 VP behind
    do(s, "take left")
    reveal_any(s)
    assert s.is_terminal() and s.stages(0) == ["S1", "S2", "S3", "S4", "S5"]
    assert vp(s, 0) == 30 and s.winners() == [1]
    s = position(economy_forces_build=False, **kw)
    do(s, "take left")
    reveal_any(s)
    assert names(s) == ["decline", "build S5"]
    do(s, "decline")
    assert not s.is_terminal() and s.active == 1
