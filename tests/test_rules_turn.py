"""Ages and turns: R-AGE-1..3, R-TURN-1..3, R-LAYOUT-1, R-DISCARD-1, R-DEC-1, worked examples E4
and E9."""
import random

import pytest

import duelcore
from rules_helpers import (
    CARD_NAMES, L, LAYOUT_AVAILABLE_AT_START, LAYOUT_COVERED_BY, LAYOUT_FACE_DOWN, act,
    age1_start, build, built, card_names, destroy, discard, layout, player, resolve_chance, reveal,
    revive, start, state, wonder,
)


# ---------------------------------------------------------------- layouts
def _expected_available(age, lay):
    """Slots available by R-LAYOUT-1: not taken, face up, every covering slot empty."""
    return sorted(slot for slot, c in enumerate(lay)
                  if c not in (None, "face_down")
                  and all(lay[u] is None for u in LAYOUT_COVERED_BY[age][slot]))


def _check_layout(s):
    d = s.to_dict()
    lay = d["layout"]
    avail = _expected_available(s.age, lay)
    assert card_names(s.available_cards()) == sorted(lay[i] for i in avail)
    for slot, c in enumerate(lay):
        if c == "face_down":
            assert slot in LAYOUT_FACE_DOWN[s.age]
            assert any(lay[u] is not None for u in LAYOUT_COVERED_BY[s.age][slot]), \
                "an uncovered face-down card is turned face up before the next turn (R-TURN-2)"


def test_age_1_layout_at_the_start():
    """R-AGE-1, R-LAYOUT-1: Age I lays out 20 cards in rows of 2-3-4-5-6; slots 2, 3, 4, 9-13
    are face down; the 6 cards of the last row (slots 14-19) are available at the start."""
    s = age1_start(seed=2)
    lay = s.to_dict()["layout"]
    assert [i for i, c in enumerate(lay) if c == "face_down"] == LAYOUT_FACE_DOWN[1]
    assert all(c in CARD_NAMES for i, c in enumerate(lay) if i not in LAYOUT_FACE_DOWN[1])
    assert card_names(s.available_cards()) == sorted(lay[i] for i in
                                                     LAYOUT_AVAILABLE_AT_START[1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_layouts_of_the_three_ages(seed):
    """R-AGE-1, R-LAYOUT-1, R-TURN-2: through a whole game (random discards), each Age starts
    with its face-down slots and its available slots (Age I: 14-19; Age II and III: 18, 19),
    and after every turn a card is available exactly when every slot covering it is empty;
    face-down cards are turned up as soon as they are uncovered."""
    rng = random.Random(seed)
    s = age1_start(seed=seed)
    ages_started = []
    while not s.is_terminal():
        if s.phase == "play":
            lay = s.to_dict()["layout"]
            if lay.count(None) == 0:
                ages_started.append(s.age)
                assert [i for i, c in enumerate(lay) if c in ("face_down", "face_down_guild")] \
                    == LAYOUT_FACE_DOWN[s.age]
                assert _expected_available(s.age, lay) == LAYOUT_AVAILABLE_AT_START[s.age]
            _check_layout(s)
            acts = [a for a in s.legal_actions() if L["DISCARD_BASE"] <= a < L["WONDER_BASE"]]
            s.apply_action(rng.choice(acts))
        elif s.is_chance_node():
            resolve_chance(s, rng)
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert ages_started == [1, 2, 3]


def test_e4_reveal():
    """E4 (seed 001), R-TURN-2: a face-down card covered by two available cards (slot 9 under
    slots 14 and 15 of Age I) stays face down and unavailable after one of them is taken; when
    the second is taken it is turned face up at once (a chance node before the next turn) and
    becomes available."""
    s = age1_start(seed=4)
    lay = s.to_dict()["layout"]
    c14, c15 = lay[14], lay[15]
    act(s, discard(c14))
    assert not s.is_chance_node()
    assert s.to_dict()["layout"][9] == "face_down"
    assert s.current_player() == 1
    act(s, discard(c15))
    assert s.is_chance_node() and s.phase == "reveal"
    outs = s.chance_outcomes()
    unseen = [a for a, _ in outs]
    assert all(s.to_dict()["layout"].count(CARD_NAMES[a - L["CHANCE_CARD_BASE"]]) == 0
               for a in unseen)
    target = unseen[0]
    act(s, target)
    name = CARD_NAMES[target - L["CHANCE_CARD_BASE"]]
    assert s.to_dict()["layout"][9] == name
    assert name in card_names(s.available_cards())
    assert s.phase == "play" and s.current_player() == 0


def test_e4_hand_written():
    """E4, R-TURN-2: the same in a written position: Age I slot 2 is covered by slots 5 and 6."""
    lay = layout(1, {0: "Theater", 1: "Altar", 5: "Tavern", 6: "Baths", 7: "Stable",
                     8: "Garrison"})
    s = state(age=1, layout=lay, explicit=True)
    act(s, discard("Tavern"))
    assert not s.is_chance_node() and s.to_dict()["layout"][2] == "face_down"
    act(s, discard("Baths"))
    assert s.phase == "reveal"
    act(s, reveal("Quarry"))
    assert "Quarry" in card_names(s.available_cards())
    assert s.to_dict()["layout"][3] == "face_down", "slot 3 is still covered by slot 7"


# ---------------------------------------------------------------- turns
def test_p1_begins_age_1_and_players_alternate():
    """R-AGE-2: P1 begins Age I; the players alternate turns."""
    for first in (0, 1):
        s = age1_start(seed=6, first_player=first)
        assert s.current_player() == first
        lay = s.to_dict()["layout"]
        act(s, discard(lay[14]))
        assert s.current_player() == 1 - first
        act(s, discard(lay[16]))
        assert s.current_player() == first


def test_the_three_actions():
    """R-TURN-1, R-DEC-1: on a turn the player takes an available card and builds it (if they
    can pay), discards it, or tucks it under one of their unbuilt wonders they can pay for."""
    s = state(age=1, avail=["Tavern", "Baths"],
              p1=player(coins=2, wonders=["The Sphinx", built("The Pyramids"), "The Colossus"]))
    # The Sphinx: 1 clay, 1 stone, 2 glass = 8 coins (not affordable); Colossus 8 too
    assert sorted(s.legal_actions()) == sorted([build("Tavern"), build("Baths"),
                                                discard("Tavern"), discard("Baths")])
    s = state(age=1, avail=["Tavern", "Baths"],
              p1=player(coins=8, wonders=["The Sphinx", built("The Pyramids"), "The Colossus"]))
    assert sorted(s.legal_actions()) == sorted(
        [build("Tavern"), build("Baths"), discard("Tavern"), discard("Baths"),
         wonder("The Sphinx", "Tavern"), wonder("The Sphinx", "Baths"),
         wonder("The Colossus", "Tavern"), wonder("The Colossus", "Baths")])


def test_discarding_is_always_legal():
    """R-TURN-1: discarding is always legal, so a player with 0 coins is never stuck."""
    s = state(age=3, avail=["Palace", "Pretorium"], p1=player(coins=0))
    assert sorted(s.legal_actions()) == sorted([discard("Palace"), discard("Pretorium")])


def test_only_available_cards_can_be_taken():
    """R-TURN-1: a card still covered cannot be taken."""
    lay = layout(1, {0: "Theater", 1: "Altar", 5: "Tavern", 6: "Baths", 7: "Stable",
                     8: "Garrison"})
    s = state(age=1, layout=lay)
    assert card_names(s.available_cards()) == ["Baths", "Garrison", "Stable", "Tavern"]
    with pytest.raises(duelcore.IllegalActionError):
        s.apply_action(discard("Theater"))


@pytest.mark.parametrize("yellow,coins", [([], 2), (["Tavern"], 3),
                                          (["Tavern", "Forum", "Brewery"], 5)])
def test_e9_discard_coins(yellow, coins):
    """R-DISCARD-1, E9 (seed 000): discarding gives 2 coins + 1 per yellow card in one's own
    city (the opponent's yellow cards do not count); the card goes to the discard pile, which
    is public."""
    s = state(age=3, avail=["Palace", "Obelisk"], p1=player(coins=0, city=yellow),
              p2=player(city=["Wood Reserve", "Stone Reserve"]))
    act(s, discard("Palace"))
    assert s.coins(0) == coins
    assert s.to_dict()["discard_pile"] == ["Palace"]
    assert card_names(s.discard_pile()) == ["Palace"]
    assert s.current_player() == 1


def test_play_again_comes_after_the_reveal():
    """R-TURN-3, R-TURN-2: Play Again: the same player takes another turn, after the reveal of
    the cards the action uncovered."""
    lay = layout(1, {0: "Theater", 1: "Altar", 6: "Tavern", 7: "Baths", 8: "Stable"})
    s = state(age=1, layout=lay, explicit=True, p1=player(coins=20, wonders=["The Sphinx"]))
    act(s, wonder("The Sphinx", "Tavern"))
    assert s.phase == "reveal"
    act(s, reveal("Quarry"))
    assert s.phase == "play" and s.current_player() == 0
    assert "Quarry" in card_names(s.available_cards())


def test_play_again_is_lost_at_the_end_of_an_age():
    """R-TURN-3, R-AGE-2, R-AGE-3: a Play Again earned with the last card of an Age is lost:
    P1 takes the last card of Age I for The Sphinx; P2 (weaker military) chooses who begins
    Age II and names P2: P2 plays."""
    s = state(age=1, avail=["Tavern"], pawn=1, p1=player(coins=20, wonders=["The Sphinx"]))
    act(s, wonder("The Sphinx", "Tavern"))
    assert s.age == 2 and s.phase == "choose_start"
    assert s.current_player() == 1
    assert not s.replay
    act(s, start(1))
    assert s.phase == "play" and s.current_player() == 1


def test_play_again_lost_with_centred_pawn():
    """R-TURN-3, R-AGE-3: the replay does not carry into the next Age: with the pawn centred
    the last player (P1) chooses, and may let P2 begin."""
    s = state(age=1, avail=["Tavern"], p1=player(coins=20, wonders=["The Sphinx"]))
    act(s, wonder("The Sphinx", "Tavern"))
    assert s.phase == "choose_start" and s.current_player() == 0
    act(s, start(1))
    assert s.current_player() == 1


def test_age_ends_after_the_choices_of_its_last_action():
    """R-AGE-2: an Age ends once the action that took its 20th card has fully resolved,
    including its choices: The Mausoleum with the last card of Age II builds a discarded card
    first, then Age III is dealt."""
    s = state(age=2, avail=["Rostrum"], discard_pile=["Tavern"],
              p1=player(coins=20, wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Rostrum"))
    assert s.age == 2 and s.phase == "revive"
    act(s, revive("Tavern"))
    assert s.age == 3
    assert s.coins(0) == 20 - 10 + 4


# ---------------------------------------------------------------- who begins the next Age
@pytest.mark.parametrize("pawn,last,chooser", [
    (2, 0, 1), (2, 1, 1), (-3, 0, 0), (-3, 1, 0), (0, 0, 0), (0, 1, 1),
])
def test_who_chooses_the_next_first_player(pawn, last, chooser):
    """R-AGE-3: the player with the weaker military (the pawn on their side) chooses who
    begins the next Age; with the pawn centred, the player who took the last card chooses.
    The chooser may name either player."""
    mil = [[2, 5], [5]] if pawn >= 3 else ([[5], [2, 5]] if pawn <= -3 else [[2, 5], [2, 5]])
    for named in (0, 1):
        s = state(age=1, avail=["Theater"], pawn=pawn, to_move=last, military_tokens=mil)
        act(s, discard("Theater"))
        assert s.age == 2 and s.phase == "choose_start"
        assert s.current_player() == chooser
        assert s.legal_actions() == [start(0), start(1)]
        act(s, start(named))
        assert s.phase == "play" and s.current_player() == named


def test_next_age_is_laid_out_before_the_choice():
    """R-AGE-3, R-CHANCE-2: first the next Age's 20 cards are laid out (the 3 guild backs of
    Age III placed, then its 12 face-up cards seen), then the first player is chosen."""
    s = state(age=2, avail=["Rostrum"], explicit=True)
    act(s, discard("Rostrum"))
    for _ in range(3):
        assert s.phase == "guilds"
        s.apply_action(s.legal_actions()[0])
    n = 0
    while s.is_chance_node():
        assert s.phase == "reveal"
        s.apply_action(s.legal_actions()[0])
        n += 1
    assert n == 12
    assert s.phase == "choose_start" and s.age == 3
    lay = s.to_dict()["layout"]
    assert sum(1 for c in lay if c not in (None, "face_down", "face_down_guild")) == 12


@pytest.mark.parametrize("last", [0, 1])
def test_centred_pawn_begins_option(last):
    """R-AGE-3 (option centred_pawn='begins', seed 000's reading): with the pawn centred the
    player who took the last card simply begins the next Age (no choice)."""
    s = state(age=1, avail=["Theater"], to_move=last, options={"centred_pawn": "begins"})
    act(s, discard("Theater"))
    assert s.age == 2 and s.phase == "play"
    assert s.current_player() == last


def test_centred_pawn_begins_option_with_a_weaker_player():
    """R-AGE-3 (option centred_pawn='begins'): when the pawn is not centred the weaker player
    still chooses."""
    s = state(age=1, avail=["Theater"], to_move=0, pawn=-1, options={"centred_pawn": "begins"})
    act(s, discard("Theater"))
    assert s.phase == "choose_start" and s.current_player() == 0
    s = state(age=1, avail=["Theater"], to_move=0, pawn=1, options={"centred_pawn": "begins"})
    act(s, discard("Theater"))
    assert s.phase == "choose_start" and s.current_player() == 1


def test_centred_pawn_option_new_game():
    """R-AGE-3: new_game(centred_pawn='begins') keeps seed 000's reading as an option."""
    s = duelcore.new_game(1, centred_pawn="begins")
    assert s.to_dict()["options"]["centred_pawn"] == "begins"
    assert duelcore.new_game(1).to_dict()["options"]["centred_pawn"] == "chooses"


# ---------------------------------------------------------------- decisions and chance
from play_helpers import PHASE_ACTION_RANGES as DECISION_RANGES  # noqa: E402
CHANCE_PHASES = {
    "setup_first_player": (L["CHANCE_FIRST_BASE"], L["CHANCE_WONDER_BASE"]),
    "setup_tokens": (L["CHANCE_TOKEN_BASE"], L["CHANCE_CARD_BASE"]),
    "draft_reveal": (L["CHANCE_WONDER_BASE"], L["CHANCE_TOKEN_BASE"]),
    "reveal": (L["CHANCE_CARD_BASE"], L["CHANCE_SLOT_BASE"]),
    "guilds": (L["CHANCE_SLOT_BASE"], L["NUM_ACTIONS"]),
    "library_draw": (L["CHANCE_TOKEN_BASE"], L["CHANCE_CARD_BASE"]),
}


def test_decisions_and_chance_nodes_in_random_games():
    """R-DEC-1, R-CHANCE-1: every decision (wonder pick, card action, token, destroy, revive,
    Great Library, who begins) is an action of the player to move, in its own range; chance
    decides P1, the draft wonders, the board tokens, the cards turned face up and the Great
    Library draw, and the Age III guild backs (R-CHANCE-2), with probabilities summing to 1;
    the game always ends."""
    rng = random.Random(99)
    phases = set()
    for seed in range(40):
        s = duelcore.new_game(seed, first_player=None, explicit_chance=True)
        steps = 0
        while not s.is_terminal():
            phases.add(s.phase)
            acts = s.legal_actions()
            assert acts
            if s.is_chance_node():
                lo, hi = CHANCE_PHASES[s.phase]
                outs = s.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                assert all(lo <= a < hi for a, _ in outs)
                s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
            else:
                assert s.current_player() in (0, 1)
                lo, hi = DECISION_RANGES[s.phase]
                assert all(lo <= a < hi for a in acts), s.phase
                s.apply_action(rng.choice(acts))
            steps += 1
            assert steps < 2000
        assert s.current_player() == duelcore.TERMINAL_PLAYER
        assert s.result()["victory"] in ("civilian", "military", "scientific", "shared")
    assert {"draft", "play", "choose_token", "choose_start", "setup_first_player",
            "setup_tokens", "draft_reveal", "reveal", "guilds"} <= phases


# ---------------------------------------------------------------- choices come before the reveal
def _over_face_down(p1, **kw):
    """Age I: slot 2 (face down) is covered only by slot 6 (Tavern) now."""
    lay = layout(1, {0: "Theater", 1: "Altar", 6: "Tavern", 7: "Baths", 8: "Stable"})
    return state(age=1, layout=lay, explicit=True, p1=p1, **kw)


def test_destroy_choice_before_the_reveal():
    """R-TURN-2, R-WONDER-4: the card to destroy (The Statue of Zeus) is chosen before the
    face-down card uncovered by the action is turned face up."""
    s = _over_face_down(player(coins=20, wonders=["The Statue of Zeus"]),
                        p2=player(city=["Quarry"]))
    act(s, wonder("The Statue of Zeus", "Tavern"))
    assert s.phase == "destroy" and not s.is_chance_node()
    assert s.to_dict()["layout"][2] == "face_down"
    act(s, destroy("Quarry"))
    assert s.phase == "reveal"
    act(s, reveal("Lumber Yard"))
    assert s.phase == "play" and s.current_player() == 1


def test_revive_choice_before_the_reveal():
    """R-TURN-2, R-WONDER-5: the card built from the discard pile (The Mausoleum) is chosen
    before the reveal."""
    s = _over_face_down(player(coins=20, wonders=["The Mausoleum"]), discard_pile=["Palace"])
    act(s, wonder("The Mausoleum", "Tavern"))
    assert s.phase == "revive"
    act(s, revive("Palace"))
    assert s.phase == "reveal"


def test_great_library_choice_before_the_reveal():
    """R-TURN-2, R-WONDER-6: the Great Library token is drawn and chosen before the reveal."""
    s = _over_face_down(player(coins=20, wonders=["The Great Library"]),
                        aside_tokens=["Agriculture", "Economy", "Law", "Masonry", "Theology"])
    act(s, wonder("The Great Library", "Tavern"))
    assert s.phase == "library_draw"
    resolve_chance(s, random.Random(0))
    assert s.phase == "library"
    assert s.to_dict()["layout"][2] == "face_down"
    act(s, s.legal_actions()[0])
    assert s.phase == "reveal"
