"""Every rule of RULES-ARCH.md (A-...) that the worked examples do not already pin, one test
each, in the game's words; and the options of A-OPT, each on its own."""
import random

import pytest

from duelcore.architects import data
from duelcore.architects import engine as core
from duelpy.architects import new_game
from arch_helpers import chance_table, do, draw, names, position, reveal_any

CENTRAL = core.CENTRAL


# ---------------------------------------------------------------- components and set-up
def test_components():
    """A-COMP-1: 235 cards (7 wonder decks of 25, a central deck of 60), 15 progress tokens
    of 14 types, 7 wonders of 5 stages; the kinds' totals of the data table."""
    assert len(data.DECKS) == 7 and all(sum(d) == 25 for d in data.DECKS.values())
    assert sum(data.CENTRAL) == 60
    assert sum(sum(d) for d in data.DECKS.values()) + 60 == 235
    assert sum(data.TOKEN_COPIES.values()) == 15 and len(data.TOKENS) == 14
    assert all(len(v) == 5 for v in data.STAGE_VP.values())


@pytest.mark.parametrize("players", range(2, 8))
def test_the_decks_in_play(players):
    """A-COMP-2, A-SETUP-3, A-SETUP-4, A-SETUP-5, A-SETUP-6, A-SETUP-7, A-SETUP-9,
    A-SETUP-10, A-SETUP-11: N wonder decks and C (25N + 60
    cards), every wonder deck face up (its top visible), C face down, an empty discard, 3
    face-up tokens and 12 in the stack, the conflict tokens of the table, the cat in the
    middle, empty tableaux, seat 0 to play."""
    s = new_game(players, seed=players)
    total = sum(s.deck_size(i) for i in range(players)) + s.deck_size(CENTRAL)
    assert total == 25 * players + 60
    assert all(s.deck_top(i) is not None for i in range(players))
    assert s.central_top() is None and s.knowers() == []
    assert s.discard() == {}
    assert sum(s.row().values()) == 3 and sum(s.stack().values()) == 12
    assert s.conflict() == ({2: 3, 3: 3, 4: 4, 5: 5, 6: 6, 7: 6}[players], 0, False)
    assert s.cat is None
    assert all(s.tableau(i) == {} and s.tokens(i) == {} and s.stages(i) == []
               for i in range(players))
    assert s.active == 0 and s.phase == "main" and s.turns == 1


def test_player_count():
    """A-SETUP-1: 2..7 players; any other count is an error (a ValueError, one line)."""
    for bad in (0, 1, 8, -2, "3", 3.0, True):
        with pytest.raises(ValueError, match="2 to 7"):
            core.new_state(bad)
    with pytest.raises(ValueError, match="2 to 7"):
        new_game(8)


def test_wonders_random_or_given():
    """A-SETUP-2: each seat a different wonder, at random (CH1: each ordered choice with
    probability (7-N)!/7!), or given by the caller per seat (the others at random); a wonder
    given twice or unknown is an error."""
    seen = set()
    for seed in range(60):
        s = new_game(7, seed=seed)
        w = [s.wonder(i) for i in range(7)]
        assert sorted(w) == sorted(data.WONDERS)
        seen.add(w[0])
    assert seen == set(data.WONDERS)
    s = new_game(3, seed=1, wonders=[None, "giza", None])
    assert s.wonder(1) == "Giza" and len({s.wonder(i) for i in range(3)}) == 3
    s = new_game(3, seed=1, wonders={0: "Rhodes"})
    assert s.wonder(0) == "Rhodes"
    with pytest.raises(ValueError, match="two seats"):
        new_game(3, wonders=["Giza", "Giza", None])
    with pytest.raises(ValueError, match="unknown wonder"):
        new_game(3, wonders=["Atlantis", None, None])
    with pytest.raises(ValueError, match="one entry per seat"):
        new_game(3, wonders=["Giza"])
    e = core.new_state(2, 0, explicit_chance=True)
    assert [p for _, p in e.chance_outcomes()] == [pytest.approx(1 / 7)] * 7


def test_unlimited_military_tokens():
    """A-SETUP-8: the supply of military victory tokens is unlimited: a battle still gives
    tokens when 28 are already out."""
    s = position(players=3, wonders=("Giza", "Rhodes", "Babylon"), mvt={0: 14, 1: 14},
                 tableau={0: ["red0"], 1: ["red2"]}, tops={0: "red1"}, turned=2)
    do(s, "take left")
    reveal_any(s)
    assert sum(s.military_tokens(i) for i in range(3)) > 28


# ---------------------------------------------------------------- the turn
def test_turn_order_and_a_quiet_start():
    """A-TURN-1, A-TURN-5, A-DEC-1: seats play in the order 0, 1, ..., N-1, 0, ...; every
    turn starts with the main pick, nothing pending (no pick, no token used)."""
    s = new_game(4, seed=5)
    last_turn, last_active = s.turns, s.active
    rng = random.Random(5)
    while not s.is_terminal():
        if s.turns != last_turn:
            assert s.active == (last_active + 1) % 4
            assert s.phase == "main" or s.active != last_active
            last_turn, last_active = s.turns, s.active
        if s.phase == "main":
            assert s.pending() == [] and s.used() == []
        s.apply_action(rng.choice(s.legal_actions()))


def test_no_available_deck_takes_nothing():
    """A-TURN-3, A-END-2: 3 players; seat 0 takes the last card of its own deck D0; seat 1's
    decks (D1, D0, C) are now empty while D2 holds cards: seat 1 takes nothing and seat 2
    plays."""
    s = position(players=3, wonders=("Giza", "Rhodes", "Babylon"),
                 tops={0: "blue3", 1: None, 2: "blue3"}, sizes={0: 1, 1: 0, 2: 3},
                 central_size=0)
    assert names(s) == ["take left", "take right"]
    do(s, "take left")
    assert not s.is_terminal() and s.active == 2 and s.tableau(1) == {}
    assert s.turns == 3


def test_empty_decks_stay_empty_and_the_discard_is_out():
    """A-TURN-5, A-SETUP-5: a deck, once empty, stays empty; the discard pile only grows
    (no rule takes a card from it)."""
    s = new_game(3, seed=9)
    rng = random.Random(9)
    empty, disc = set(), 0
    while not s.is_terminal():
        for d in list(range(3)) + [CENTRAL]:
            if d in empty:
                assert s.deck_size(d) == 0
            elif s.deck_size(d) == 0:
                empty.add(d)
        now = sum(s.discard().values())
        assert now >= disc
        disc = now
        s.apply_action(rng.choice(s.legal_actions()))


# ---------------------------------------------------------------- arrival and order
def test_arrival_order_reveal_cat_horns_tokens():
    """A-ARR-1, A-CAT-1, A-MIL-2, A-CARD-6: a blue2cat taken brings the cat at once (from
    another player too); a red1 turns a conflict token; the card enters the taker's tableau
    and never moves to another player; the wonder deck's new top is then revealed (CH4)."""
    s = position(cat=1, tops={0: "blue2cat", 1: "red1"})
    do(s, "take left")
    assert s.cat == 0 and s.tableau(0) == {"blue2cat": 1}
    assert s.chance_kind == "top" and s.deck_top(0) is None
    draw(s, "wood")
    assert s.deck_top(0) == "wood"
    do(s, "take left")                                 # P1 takes its own deck's red1
    assert s.conflict()[1] == 1 and s.tableau(1) == {"red1": 1}


def test_extra_picks_come_before_sets_and_payments():
    """A-ORDER-1, A-ORDER-2 (a): the picks a card triggers come before any set or payment
    after its arrival (AE4): with a tablet and gear held, a compass with Science owned
    first offers Science's pick."""
    s = position(tokens={0: ["Science"]}, tableau={0: ["tablet", "gear"]},
                 tops={0: "compass", 1: "blue3"})
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "pick" and names(s) == ["take left", "take right", "take central",
                                             "decline"]


def test_a_set_is_formed_at_once():
    """A-ORDER-2 (c), A-SCI-1, A-SCI-2: a set is formed as soon as one exists: tablet and
    gear held, a compass arrives: the triple is formed (three different symbols) and a
    token is taken before anything else."""
    s = position(tableau={0: ["tablet", "gear"]}, tops={0: "compass"})
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "token" and s.tableau(0) == {}
    assert s.discard()["compass"] >= 1


def test_power_before_architecture():
    """A-ORDER-2 (e), A-TOK-3: a stage's power resolves before the Architecture pick of the
    same build: Alexandria builds S2 owning Architecture: its power first, then the pick."""
    s = position(wonders=("Alexandria", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tokens={0: ["Architecture"]}, tops={0: "coin", 1: "wood"})
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "alexandria" and s.pending() == []
    do(s, "take deck P2 (Giza)")
    reveal_any(s)
    assert s.phase == "pick" and s.pending() == ["Architecture"]


def test_a_token_never_acts_retroactively():
    """A-ORDER-3, A-TOK-4: a token taken during a turn works from that moment: Babylon's S2
    power gives Architecture, which does not pick for the S2 built just before."""
    s = position(wonders=("Babylon", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tops={0: "coin"}, row=("Architecture", "Decor", "Tactics"))
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "token"
    do(s, "token Architecture")
    reveal_any(s)
    assert s.tokens(0) == {"Architecture": 1} and s.pending() == [] and s.active == 1


def test_free_order():
    """A-ORDER-4, A-OPT free_order: with a pending pick and an affordable stage the player
    chooses what to resolve next; a declined pick leaves the list; the turn ends when none
    is left."""
    s = position(tokens={0: ["Jewellery"]}, tableau={0: ["wood"]}, tops={0: "stone"},
                 free_order=True)
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "order" and names(s) == ["next Jewellery pick", "next build"]
    do(s, "next build")
    assert s.stages(0) == ["S1"] and s.pending() == ["Jewellery"]
    assert s.phase == "pick"
    do(s, "decline")
    assert s.active == 1 and s.used() == []
    s = position(tokens={0: ["Jewellery"]}, tableau={0: ["wood"]}, tops={0: "stone"})
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "pick"                           # the canonical order: the pick first


def test_free_order_can_keep_greens_for_later():
    """A-ORDER-4, A-ORDER-2 (c): under free_order a player holding tablet, gear who gets a
    compass (Science pending) may take the pick before forming the set."""
    s = position(tokens={0: ["Science"]}, tableau={0: ["tablet", "gear"]},
                 tops={0: "compass", 1: "tablet"}, free_order=True)
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "order" and "next set" in names(s)
    do(s, "next Science pick")
    do(s, "take right")
    reveal_any(s)
    assert s.phase == "set" and names(s) == ["set tablet pair", "set triple"]


# ---------------------------------------------------------------- cards
def test_card_kinds_score_only_as_the_rules_say():
    """A-CARD-1, A-CARD-2, A-CARD-3, A-CARD-4, A-CARD-5, A-END-3: grey, coin, green and red
    cards score nothing; blue3 3 VP, blue2cat 2 VP; every red card shows one shield."""
    s = position(tableau={0: ["wood", "coin", "tablet", "red0", "red1", "red2", "blue3",
                              "blue2cat"]})
    sc = s.scores()[0]
    assert sc["blue"] == 5 and sc["total"] == 5 and s.shields(0) == 3


def test_stages_costs_and_availability():
    """A-BUILD-1, A-BUILD-2, A-BUILD-10: five stages with the same costs on every wonder
    (2≠, 2=, 3≠, 3=, 4≠); at the start S1 is available on every wonder, S2 too on Rhodes;
    a complete wonder has nothing more to build."""
    assert data.STAGE_COSTS == ((2, False), (2, True), (3, False), (3, True), (4, False))
    for w in data.WONDERS:
        s = new_game(2, seed=0, wonders=[w, None])
        assert s.available_stages(0) == (["S1", "S2"] if w == "Rhodes" else ["S1"])
    s = position(stages={0: ["S1", "S2", "S3", "S4", "S5"]}, tops={0: "coin"})
    assert s.available_stages(0) == []


def test_payments_are_exact_multisets():
    """A-BUILD-3, A-BUILD-4, A-BUILD-6: every payment is worth exactly the cost, as a
    multiset of kinds; a stage is affordable exactly when a payment exists (random
    tableaux, with and without Economy and Engineering)."""
    rng = random.Random(1)
    for _ in range(300):
        toks = [t for t in ("Economy", "Engineering") if rng.random() < 0.4]
        tab = [rng.choice(data.KINDS[:6]) for _ in range(rng.randint(0, 6))]
        st = rng.choice([[], ["S1"], ["S1", "S2"], ["S1", "S2", "S3"],
                         ["S1", "S2", "S3", "S4"]])
        s = position(stages={0: st}, tableau={0: tab}, tokens={0: toks}, tops={0: "blue3"})
        for stage in s.available_stages(0):
            pays = s.payments(stage)
            assert bool(pays) == s.affordable(stage), (tab, toks, stage)
            k = dict(zip(data.STAGES, (2, 2, 3, 3, 4)))[stage]
            for pid in pays:
                g, c, d = core.payment_cards(pid)
                assert sum(g) + c + d == k
                if "Engineering" not in toks:
                    if stage in ("S2", "S4"):
                        assert sum(1 for x in g if x) <= 1
                    else:
                        assert max(g) <= 1


def test_building_is_mandatory_and_paid_cards_are_discarded():
    """A-BUILD-5, A-BUILD-7: an affordable stage must be built (no decline), its cards go
    to the discard pile and its VP count."""
    s = position(tableau={0: ["wood"]}, tops={0: "stone"})
    do(s, "take left")
    reveal_any(s)
    assert s.stages(0) == ["S1"] and s.discard().get("wood") and s.scores()[0]["wonder"] == 4


def test_engineering_on_every_stage_or_once_per_turn():
    """A-BUILD-9, A-OPT engineering_once_per_turn: Engineering relaxes every stage (S1 with
    {wood, wood}, then S2 with {wood, stone} in one turn); with the option only the first
    stage of the turn is relaxed."""
    kw = dict(wonders=("Rhodes", "Giza"), tokens={0: ["Engineering"]},
              tableau={0: ["wood", "wood", "wood"]}, tops={0: "stone"})
    for once, built in ((False, ["S1", "S2"]), (True, ["S1"])):
        s = position(engineering_once_per_turn=once, **kw)
        do(s, "take left")
        reveal_any(s)
        assert names(s) == ["build S1", "build S2"]
        do(s, "build S1")
        assert sorted(names(s)) == ["pay wood, stone", "pay wood, wood"]
        do(s, "pay wood, wood")
        assert s.stages(0) == built and s.active == 1


def test_coins_may_replace_grey_cards():
    """A-BUILD-6, A-OPT coins_only_when_needed: a coin may be paid where a grey card could
    (AE25); with the option only the payments with the fewest coins are legal."""
    s = position(tableau={0: ["wood", "coin"]}, tops={0: "stone"}, stages={0: ["S1"]})
    do(s, "take left")
    reveal_any(s)
    assert sorted(names(s)) == ["pay stone, coin", "pay wood, coin"]


def test_economy_optional():
    """A-BUILD-8, A-OPT economy_forces_build: a stage only Economy makes affordable may be
    left; once left it is not offered again that turn (here a later coin makes it
    affordable without Economy: then it must be built)."""
    s = position(wonders=("Giza", "Rhodes"), stages={0: ["S1"]}, tokens={0: ["Economy",
                 "Jewellery"]}, tops={0: "coin", 1: "coin"}, economy_forces_build=False)
    do(s, "take left")
    reveal_any(s)
    assert s.phase == "pick"
    do(s, "decline")
    assert names(s) == ["decline", "build S2"]
    do(s, "decline")
    assert s.active == 1 and s.stages(0) == ["S1"]


# ---------------------------------------------------------------- wonder powers
def test_ephesus_giza_rhodes():
    """A-WON-3, A-WON-4, A-WON-7: Ephesus's power takes C's top (S2, S3, S4); Giza has no
    power and the most VP (30); Rhodes's S1 and S4 each add a shield for good."""
    assert data.POWER_STAGES["Giza"] == () and sum(data.STAGE_VP["Giza"]) == 30
    s = position(wonders=("Ephesus", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tops={0: "coin"})
    do(s, "take left")
    reveal_any(s)
    assert s.chance_kind == "central"
    draw(s, "blue3")
    assert s.tableau(0) == {"blue3": 1}
    s = position(wonders=("Rhodes", "Giza"), stages={0: ["S1", "S2", "S3", "S4"]})
    assert s.shields(0) == 2


def test_alexandria_and_halicarnassus_decks():
    """A-WON-1, A-WON-5, A-TWO-3: with 2 players Alexandria's "any deck" is one of the three
    decks; Halicarnassus searches its own deck or the opponent's (a non-empty one)."""
    s = position(wonders=("Alexandria", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tops={0: "coin"})
    do(s, "take left")
    reveal_any(s)
    assert names(s) == ["take deck P1 (Alexandria)", "take deck P2 (Giza)",
                        "take deck central"]
    s = position(wonders=("Halicarnassus", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tops={0: "coin", 1: None}, sizes={1: 0})
    do(s, "take left")
    reveal_any(s)
    assert s.chance_kind == "window"                  # one deck only: searched at once


def test_halicarnassus_small_deck():
    """A-WON-5, CH8: a deck of fewer than 5 cards is taken whole into the window; the cards
    put back are not taken (they trigger nothing)."""
    s = position(wonders=("Halicarnassus", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tokens={0: ["Urbanism"]}, tops={0: "coin", 1: "wood"},
                 unders={1: {"clay": 2}})
    do(s, "take left")
    reveal_any(s)
    do(s, "search right")
    draw(s, "clay", "clay")
    assert s.phase == "hali_keep" and s.window() == {"wood": 1, "clay": 2}
    do(s, "keep wood")
    assert s.pending() == ["Urbanism"]                 # the kept card is taken
    assert s.deck_size(1) == 2


def test_powers_optional():
    """A-WON-8, A-OPT wonder_power_optional: powers are compulsory; with the option
    Alexandria, Ephesus and Halicarnassus may be declined."""
    for w, phase in (("Alexandria", "alexandria"), ("Ephesus", "ephesus"),
                     ("Halicarnassus", "hali_deck")):
        s = position(wonders=(w, "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                     tops={0: "coin"}, wonder_power_optional=True)
        do(s, "take left")
        reveal_any(s)
        assert s.phase == phase and "decline" in names(s)
        do(s, "decline")
        assert s.active == 1
        s = position(wonders=(w, "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                     tops={0: "coin"})
        do(s, "take left")
        reveal_any(s)
        assert "decline" not in names(s)


def test_a_card_taken_by_a_power_is_taken():
    """A-WON-9: a card taken through a power triggers extra-card tokens and moves the cat
    (Alexandria takes a blue2cat and a Urbanism-owner's clay)."""
    s = position(wonders=("Alexandria", "Giza"), stages={0: ["S1"]}, tableau={0: ["coin"]},
                 tokens={0: ["Urbanism"]}, tops={0: "coin", 1: "clay"}, cat=1)
    do(s, "take left")
    reveal_any(s)
    do(s, "take deck P2 (Giza)")
    reveal_any(s)
    assert s.pending() == ["Urbanism"] and s.tableau(0) == {"clay": 1}


# ---------------------------------------------------------------- science and tokens
def test_token_choices():
    """A-SCI-4, A-TOK-1, A-CHANCE-1 CH7: a token taken is any face-up one or the stack's top
    unseen; a face-up one taken is replaced at once from the stack; owned tokens are public
    and kept."""
    s = position(tableau={0: ["gear"]}, tops={0: "gear"}, row=("Decor", "Tactics", "Economy"))
    do(s, "take left")
    reveal_any(s)
    assert names(s) == ["token Decor", "token Economy", "token Tactics", "token stack"]
    do(s, "token stack")
    t = chance_table(s)
    assert s.chance_kind == "blind" and len(t) == 11 and t["Culture"] == pytest.approx(2 / 12)
    draw(s, "Culture")
    assert s.tokens(0) == {"Culture": 1} and sum(s.row().values()) == 3


def test_extra_card_tokens_once_per_turn():
    """A-TOK-2, A-TOK-3: each extra-card token gives at most one pick per turn; the pick is
    from the player's three decks; declining leaves the token unused (AE13)."""
    s = position(tokens={0: ["Crafts"]}, tops={0: "glass", 1: "papyrus"},
                 stages={0: ["S1", "S2", "S3"]})
    do(s, "take left")
    reveal_any(s)
    do(s, "take right")
    reveal_any(s)
    assert s.pending() == [] and s.tableau(0) == {"glass": 1, "papyrus": 1}


def test_end_of_game_tokens():
    """A-TOK-1 data table, A-END-3: Culture 4 / 12, Decor 6 when complete, Education 2 per
    token, Politics 1 per blue2cat, Strategy 1 per military token."""
    s = position(tokens={0: ["Culture"]})
    assert s.scores()[0]["progress"] == 4
    s = position(tokens={0: ["Decor"]}, stages={0: ["S1", "S2", "S3", "S4", "S5"]},
                 tops={0: "blue3"}, row=("Tactics", "Economy", "Science"))
    assert s.scores()[0]["progress"] == 6
    s = position(tokens={0: ["Strategy", "Politics"]}, mvt={0: 3},
                 tableau={0: ["blue2cat", "blue2cat"]})
    assert s.scores()[0]["progress"] == 3 + 2


# ---------------------------------------------------------------- military
def test_shields():
    """A-MIL-1, A-MIL-7: shields = red cards + Rhodes S1, S4 + 2 with Tactics; a military
    token is 3 VP."""
    s = position(wonders=("Rhodes", "Giza"), stages={0: ["S1"]},
                 tableau={0: ["red0", "red2"]}, tokens={0: ["Tactics"]}, mvt={0: 1},
                 row=("Decor", "Economy", "Science"), turned=2)
    assert s.shields(0) == 2 + 1 + 2 and s.scores()[0]["military"] == 3


def test_battle_at_the_end_of_the_turn():
    """A-MIL-2, A-MIL-3, A-MIL-6, A-TURN-6: the take that turns the last token makes a
    battle pending; it is fought at the end of the turn with the shields of that moment
    (a red0 taken later that turn counts); then horned cards go and tokens return to
    peace; red0 cards stay."""
    s = position(tokens={0: ["Propaganda"]}, tableau={1: ["red0", "red1"]},
                 tops={0: "red2", 1: "red0"}, turned=1)
    do(s, "take left")
    reveal_any(s)
    assert s.conflict() == (3, 3, True)
    do(s, "take right")                                 # Propaganda: a red0, 2 vs 2 shields
    reveal_any(s)
    assert s.military_tokens(0) == 0 and s.military_tokens(1) == 0
    assert s.tableau(0) == {"red0": 1} and s.tableau(1) == {"red0": 1}


def test_three_players_battle():
    """A-MIL-4: with 3 players the two neighbours are the two others; a token for each with
    strictly fewer shields."""
    s = position(players=3, wonders=("Giza", "Rhodes", "Babylon"),
                 tableau={0: ["red0"], 1: ["red2"]}, tops={0: "red1"}, turned=2)
    do(s, "take left")
    reveal_any(s)
    assert [s.military_tokens(i) for i in range(3)] == [2, 1, 0]


def test_two_player_battle_rule():
    """A-MIL-5, A-TWO-2: 2 players: 1 token for more shields, 2 for at least twice (2
    shields against 0), not the neighbour rule (which would count the opponent twice)."""
    s = position(tableau={0: ["red0"], 1: ["red1"]}, tops={0: "red2"}, turned=1)
    do(s, "take left")
    reveal_any(s)
    assert s.military_tokens(0) == 2 and s.military_tokens(1) == 0    # 2 vs 1
    s = position(tableau={0: ["red0", "red0"], 1: ["red1", "red0"]}, tops={0: "red2"},
                 turned=1)
    do(s, "take left")
    reveal_any(s)
    assert s.military_tokens(0) == 1 and s.military_tokens(1) == 0    # 3 vs 2


# ---------------------------------------------------------------- the cat
def test_the_cat_look_and_knowledge():
    """A-CAT-1, A-CAT-2, A-CAT-3, A-CAT-4, A-TURN-2, A-INFO-2, CH6: a cat won during a turn
    gives no look before its holder's next turn; the holder looks at C's top at the start
    of its turn (automatic) and keeps knowing it while it stays on top, even after losing
    the cat; a holder who finds a top someone already knows learns it without chance; the
    cat is worth 2 VP to its holder."""
    s = position(tops={0: "blue2cat", 1: "blue2cat"},
                 unders={0: {"wood": 1, "blue2cat": 1, "stone": 3}, 1: {"wood": 2, "stone": 3}})
    do(s, "take left")
    assert s.cat == 0 and s.chance_kind == "top"          # won mid-turn: no look now
    draw(s, "wood")
    do(s, "take left")                                    # P1's blue2cat: the cat moves
    assert s.cat == 1
    reveal_any(s)
    assert s.active == 0 and not s.is_chance_node()       # P0 lost the cat: no look
    do(s, "take left")
    draw(s, "blue2cat")
    assert s.chance_kind == "look"                        # P1 holds it at its turn start
    draw(s, "gear")
    assert s.knowers() == [1] and s.central_top(1) == "gear" and s.central_top(0) is None
    assert s.scores()[1]["cat"] == 2
    do(s, "take left")
    reveal_any(s)
    assert s.active == 0 and s.knowers() == [1]
    do(s, "take left")                                    # P0 takes the blue2cat on D0
    assert s.cat == 0 and s.knowers() == [1]              # P1 still knows the top
    reveal_any(s)
    do(s, "take left")                                    # P1's turn (no look: no cat)
    reveal_any(s)
    assert s.active == 0 and not s.is_chance_node()       # P0 learns the known top
    assert s.knowers() == [0, 1] and s.central_top(0) == "gear"


def test_a_second_looker_learns_the_same_card():
    """A-CAT-4, CH6: a holder whose look finds a top someone already knows learns that card:
    no chance node."""
    s = position(cat=1, central_top="coin", knowers=[0], active=0)
    do(s, "take left")
    reveal_any(s)
    assert s.active == 1 and not s.is_chance_node() and s.knowers() == [0, 1]
    assert s.central_top(1) == "coin"


# ---------------------------------------------------------------- end of the game
def test_the_end():
    """A-END-1, A-END-2, A-END-4, A-END-5, A-TWO-4: the game ends at the end of the turn in
    which a wonder is completed (nobody else plays), or when no deck holds a card; the
    highest score wins, then the most stages, else shared; with more players a full
    ranking by (VP, stages), equal pairs sharing a place."""
    s = position(players=3, wonders=("Giza", "Rhodes", "Babylon"),
                 stages={0: ["S1", "S2", "S3", "S4"]}, tableau={0: ["wood", "stone", "clay"],
                                                              1: ["blue3"], 2: ["blue3"]},
                 tops={0: "glass"})
    do(s, "take left")
    reveal_any(s)
    assert s.is_terminal() and s.turns == 1
    assert s.winners() == [0] and s.ranking() == [1, 2, 2]
    r = new_game(5, seed=3)
    rng = random.Random(3)
    while not r.is_terminal():
        r.apply_action(rng.choice(r.legal_actions()))
    done = any(len(r.stages(i)) == 5 for i in range(5))
    empty = all(r.deck_size(d) == 0 for d in list(range(5)) + [CENTRAL])
    assert done or empty
    assert abs(sum(r.returns()) - 1) < 1e-9


def test_two_players():
    """A-TWO-1: with 2 players a seat's left deck is its own and its right deck the
    opponent's: both choose among the same three decks."""
    s = new_game(2, seed=1)
    assert s.deck_of(0) == (0, 1, CENTRAL) and s.deck_of(1) == (1, 0, CENTRAL)


# ---------------------------------------------------------------- chance, information, decisions
def test_chance_laws():
    """A-CHANCE-1, A-CHANCE-2: every chance event draws one item uniformly from a public
    multiset (n_k / n); a reveal draws from the deck's remaining cards; nothing else is
    random (the same seed and decisions give the same game)."""
    s = position(tops={0: "coin"}, unders={0: {"wood": 3, "blue3": 1}})
    do(s, "take left")
    assert chance_table(s) == {"wood": pytest.approx(0.75), "blue3": pytest.approx(0.25)}
    a = new_game(4, seed=11)
    b = new_game(4, seed=11)
    rng1, rng2 = random.Random(2), random.Random(2)
    while not a.is_terminal():
        a.apply_action(rng1.choice(a.legal_actions()))
        b.apply_action(rng2.choice(b.legal_actions()))
    assert a == b


def test_information():
    """A-INFO-1, A-INFO-3, A-INFO-4: public are the tableaux, tokens, stages, the row and
    the stack's size, conflict tokens, the discard, every deck's size, every wonder deck's
    top and the make-up of every deck; the window is its player's for one decision; no
    deck order is stored (the state holds counts only)."""
    s = new_game(3, seed=4)
    for d in (0, 1, 2, CENTRAL):
        assert sum(s.deck_cards(d).values()) == s.deck_size(d)
    d = s.to_dict()
    assert set(d["central"]) == {"top", "knowers", "under"}
    assert all(isinstance(v, int) for v in d["central"]["under"].values())
    assert core.state_size() < 1024


def test_single_option_decisions_are_not_asked():
    """A-DEC-2: a decision with a single legal option is applied without asking: every
    decision node offers at least two actions."""
    for players in (2, 5):
        s = new_game(players, seed=21)
        rng = random.Random(21)
        while not s.is_terminal():
            legal = s.legal_actions()
            assert len(legal) >= 2
            s.apply_action(rng.choice(legal))


def test_science_with_no_token_left():
    """A-SCI-3: no set is formed when no token is left (AE22); A-SCI-2: several sets in one
    turn (a pair, then the triple from what is left)."""
    s = position(tokens={0: ["Science"]}, tableau={0: ["tablet", "tablet", "gear"]},
                 tops={0: "compass", 1: "compass"})
    do(s, "take left")
    reveal_any(s)
    do(s, "take right")
    reveal_any(s)
    assert s.phase == "set"
