"""The Python surface of duelcore and bad input (issue 2 items 10-12, "Bad input").

Illegal actions raise ``IllegalActionError`` (a ``ValueError``) naming the action and the reason
and leave the state unchanged; ``new_game`` rejects bad options naming them; ``state_from_dict``
rejects malformed or impossible positions with a ``StateFormatError`` whose ``.field`` names the
offending field; states are values (equality, hash, pickle, copy); ``result()``,
``action_to_string``, ``legal_actions_mask`` and ``current_player()`` keep their contracts.
"""
from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

import duelcore
from duelcore import (
    IllegalActionError, State, StateFormatError, action_to_string, new_game, state_from_dict,
)
from play_helpers import (
    CARD_AGE, CARD_ID, CARD_NAMES, CARDS, L, NUM_ACTIONS, NUM_DECISION_ACTIONS, TOKEN_ID,
    TOKEN_NAMES, WONDER_ID, WONDER_NAMES, build, discard, wonder_action,
)

#: Age I cards with no cost at all (RULES.md, Age I table: "free").
FREE_AGE_I = {"Lumber Yard", "Clay Pool", "Quarry", "Theater", "Altar", "Tavern", "Guard Tower"}


# ---------------------------------------------------------------- helpers
def start(seed=3, **options):
    """Age I, first turn: P1 (player 0) to move, first-game wonders (R-SETUP-7)."""
    return new_game(seed, first_game_wonders=True, **options)


def find_state(pred, n_games=400, **options):
    """The first state of random games (seeds 0, 1, ...) for which ``pred(state)`` holds."""
    for seed in range(n_games):
        rng = random.Random(seed)
        state = new_game(seed, **options)
        while True:
            if pred(state):
                return state
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such state in the random games")


def assert_refused(state, action, *words, exc=IllegalActionError):
    """``action`` is refused with ``exc``; the message names the action and ``words``; the
    state is unchanged.  Returns the exception."""
    before = state.clone()
    d_before = state.to_dict()
    with pytest.raises(exc) as info:
        state.apply_action(action)
    e = info.value
    if exc is IllegalActionError:
        assert isinstance(e, ValueError)
        assert e.action == action
        assert str(action) in str(e), f"the message does not name the action: {e}"
        assert e.reason and e.reason in str(e)
    for w in words:
        assert w.lower() in str(e).lower(), f"{w!r} not in the message {str(e)!r}"
    assert state == before, "a refused action changed the state"
    assert state.to_dict() == d_before
    return e


def free_slot_cards(d):
    """Cards of the layout uncovered now (R-LAYOUT-1)."""
    from play_helpers import free_slots
    return [d["layout"][s] for s in free_slots(d["age"], d["layout"])
            if d["layout"][s] not in (None, "face_down", "face_down_guild")]


def covered_cards(d):
    avail = set(free_slot_cards(d))
    return [x for x in d["layout"] if x not in (None, "face_down", "face_down_guild")
            and x not in avail]


# ---------------------------------------------------------------- illegal actions
@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 10 ** 9, -(10 ** 12), 2 ** 70])
def test_out_of_range_action(action):
    state = start()
    assert_refused(state, action, "out of range")


@pytest.mark.parametrize("action", ["abc", 1.5, None, [12], "12"])
def test_non_integer_action_is_a_type_error(action):
    state = start()
    before = state.clone()
    with pytest.raises(TypeError):
        state.apply_action(action)
    assert state == before


def test_numpy_integer_action_is_accepted():
    state = start()
    a = state.legal_actions()[0]
    ref = state.clone()
    ref.apply_action(a)
    state.apply_action(np.int64(a))
    assert state == ref


@pytest.mark.parametrize("base", ["CHANCE_FIRST_BASE", "CHANCE_WONDER_BASE", "CHANCE_TOKEN_BASE",
                                  "CHANCE_CARD_BASE"])
def test_chance_outcome_at_a_decision_node(base):
    state = start()
    assert not state.is_chance_node()
    assert_refused(state, L[base], "chance")


def test_decision_at_a_chance_node():
    state = new_game(0, explicit_chance=True)
    assert state.is_chance_node()
    d = state.to_dict()
    assert_refused(state, build(0), "chance")
    assert_refused(state, L["DRAFT_BASE"], "chance")
    # a chance outcome of the wrong kind at a chance node
    assert d["phase"] == "setup_tokens"
    assert_refused(state, L["CHANCE_CARD_BASE"], "chance")


def test_card_not_available():
    state = start()
    d = state.to_dict()
    name = covered_cards(d)[0]
    c = CARD_ID[name]
    for a in (build(c), discard(c), wonder_action(WONDER_ID["The Pyramids"], c)):
        assert_refused(state, a, name, "not available")
    # a card that is not in the layout at all (an Age II card)
    assert_refused(state, build(CARD_ID["Sawmill"]), "Sawmill", "not available")


def test_card_the_player_cannot_afford():
    d = start().to_dict()
    d["players"][0]["coins"] = 0
    state = state_from_dict(d)
    name = next(x for x in free_slot_cards(d) if x not in FREE_AGE_I)
    assert_refused(state, build(CARD_ID[name]), name, "afford")
    # a wonder the player cannot afford (no production, no coins)
    c = CARD_ID[free_slot_cards(d)[0]]
    assert_refused(state, wonder_action(WONDER_ID["The Pyramids"], c), "The Pyramids", "afford")
    # discarding stays legal (R-TURN-1)
    assert discard(CARD_ID[name]) in state.legal_actions()


def test_wonder_not_owned():
    state = start()
    d = state.to_dict()
    c = CARD_ID[free_slot_cards(d)[0]]
    for name in ("The Colossus", "The Sphinx"):       # the opponent's; out of the game
        assert_refused(state, wonder_action(WONDER_ID[name], c), name)


def test_wonder_already_built():
    d = start().to_dict()
    in_layout = {x for x in d["layout"] if x not in (None, "face_down", "face_down_guild")}
    spare = next(n for n in CARD_NAMES if CARD_AGE[n] == 1 and n not in in_layout)
    d["players"][0]["coins"] = 100
    d["players"][0]["wonders"][0].update(built=True, card=spare)
    state = state_from_dict(d)
    name = d["players"][0]["wonders"][0]["name"]
    c = CARD_ID[free_slot_cards(d)[0]]
    assert_refused(state, wonder_action(WONDER_ID[name], c), name, "already built")


def test_wrong_kind_of_decision():
    # a build during the draft
    state = new_game(0)
    assert state.phase == "draft"
    assert_refused(state, build(0), "draft")
    # a wonder not on offer in the draft
    d = state.to_dict()
    off = next(w for w in WONDER_NAMES if w not in d["draft"]["offer"])
    assert_refused(state, WONDER_ID[off], off)
    # a draft pick during play
    assert_refused(start(), L["DRAFT_BASE"], "play")


def test_token_not_on_the_board():
    state = find_state(lambda s: s.phase == "choose_token")
    d = state.to_dict()
    name = next(t for t in TOKEN_NAMES if t not in d["board_tokens"])
    assert_refused(state, L["TOKEN_BASE"] + TOKEN_ID[name], name)
    assert_refused(state, build(0), "choose_token")


def test_destroy_a_card_not_in_the_opponents_city():
    state = find_state(lambda s: s.phase == "destroy")
    d = state.to_dict()
    theirs = set(d["players"][1 - d["to_move"]]["city"])
    name = next(n for n in CARD_NAMES if n not in theirs)
    assert_refused(state, L["DESTROY_BASE"] + CARD_ID[name], name)


def test_revive_a_card_not_in_the_discard_pile():
    state = find_state(lambda s: s.phase == "revive")
    d = state.to_dict()
    name = next(n for n in CARD_NAMES if n not in d["discard_pile"])
    assert_refused(state, L["REVIVE_BASE"] + CARD_ID[name], name, "discard pile")


def test_apply_after_the_game_is_over():
    state = find_state(lambda s: s.is_terminal())
    for a in (0, build(0), L["START_BASE"], L["CHANCE_CARD_BASE"], -1, NUM_ACTIONS):
        assert_refused(state, a, "over")


# ---------------------------------------------------------------- new_game options
@pytest.mark.parametrize("kwargs, option", [
    ({"seed": -1}, "seed"),
    ({"first_player": 2}, "first_player"),
    ({"first_player": -1}, "first_player"),
    ({"first_player": True}, "first_player"),
    ({"first_player": "P1"}, "first_player"),
    ({"centred_pawn": "x"}, "centred_pawn"),
    ({"centred_pawn": None}, "centred_pawn"),
    ({"start_coins": (-1, 7)}, "start_coins"),
    ({"start_coins": (7, -1)}, "start_coins"),
    ({"start_coins": "abc"}, "start_coins"),
    ({"start_coins": (7,)}, "start_coins"),
    ({"start_coins": (7, 7, 7)}, "start_coins"),
    ({"start_coins": (7.5, 7)}, "start_coins"),
    ({"start_coins": None}, "start_coins"),
])
def test_new_game_bad_option(kwargs, option):
    with pytest.raises((ValueError, TypeError)) as info:
        new_game(**kwargs)
    assert option in str(info.value), f"{info.value!r} does not name {option}"


@pytest.mark.parametrize("seed", ["abc", 1.5, None])
def test_new_game_bad_seed_type_names_the_option(seed):
    """The docstring: "ValueError, TypeError -- for an option outside the values above,
    naming it"."""
    with pytest.raises((ValueError, TypeError)) as info:
        new_game(seed)
    assert "seed" in str(info.value), f"{info.value!r} does not name seed"


def test_new_game_unknown_keyword():
    with pytest.raises(TypeError):
        new_game(0, colour="red")


def test_new_game_good_options():
    for kw in ({}, {"first_player": None}, {"first_player": 1}, {"centred_pawn": "begins"},
               {"first_game_wonders": True}, {"start_coins": (0, 1000)},
               {"explicit_chance": True}):
        state = new_game(12, **kw)
        state.check()


# ---------------------------------------------------------------- state_from_dict
def base_dict():
    return start().to_dict()


def rejected(d, field):
    with pytest.raises(StateFormatError) as info:
        state_from_dict(d)
    e = info.value
    assert isinstance(e, ValueError)
    assert e.field == field or e.field.startswith(field), \
        f"field {e.field!r} (message {str(e)!r}), expected {field!r}"
    assert e.field in str(e)
    return e


def test_from_dict_accepts_the_base_position():
    d = base_dict()
    assert state_from_dict(d).to_dict() == d


def test_from_dict_minimal_hand_written_position():
    """Only version, age, layout and players are required (docstring)."""
    d = base_dict()
    minimal = {"version": d["version"], "age": 1, "layout": d["layout"],
               "players": [{"coins": 7, "city": [], "wonders": [], "progress_tokens": []},
                           {"coins": 7, "city": [], "wonders": [], "progress_tokens": []}]}
    state = state_from_dict(minimal)
    state.check()
    assert state.phase == "play" and state.current_player() == 0 and state.pawn == 0
    assert state.legal_actions()


def test_from_dict_not_a_dict():
    for bad in (None, [], "x", 3):
        with pytest.raises(StateFormatError):
            state_from_dict(bad)


def test_from_dict_wrong_version():
    d = base_dict()
    for v in (0, 2, "1", None):
        d["version"] = v
        rejected(d, "version")
    del d["version"]
    rejected(d, "version")


def test_from_dict_unknown_card_name():
    d = base_dict()
    d["players"][0]["city"] = ["Nonexistent Card"]
    e = rejected(d, "players[0].city")
    assert "Nonexistent Card" in str(e)
    d = base_dict()
    d["layout"][14] = "Lumber Yardd"
    rejected(d, "layout[14]")
    d = base_dict()
    d["discard_pile"] = ["Nope"]
    rejected(d, "discard_pile")


def test_from_dict_card_in_two_places():
    d = base_dict()
    name = d["layout"][14]
    d["players"][1]["city"] = [name]
    e = rejected(d, "players[1].city")
    assert name in str(e)
    d = base_dict()
    d["discard_pile"] = [d["layout"][15]]
    rejected(d, "discard_pile")
    d = base_dict()
    spare = next(n for n in CARD_NAMES if CARD_AGE[n] == 1 and n not in d["layout"])
    d["players"][0]["city"] = [spare]
    d["players"][1]["city"] = [spare]
    rejected(d, "players[1].city")


@pytest.mark.parametrize("pawn", [10, -10, 100])
def test_from_dict_pawn_off_the_track(pawn):
    d = base_dict()
    d["pawn"] = pawn
    rejected(d, "pawn")


def test_from_dict_pawn_on_a_capital_in_a_running_game():
    d = base_dict()
    d["pawn"] = 9
    rejected(d, "pawn")


def test_from_dict_negative_coins():
    d = base_dict()
    d["players"][0]["coins"] = -1
    rejected(d, "players[0].coins")
    d = base_dict()
    d["players"][1]["coins"] = "7"
    rejected(d, "players[1].coins")


@pytest.mark.parametrize("n", [19, 21, 0])
def test_from_dict_layout_with_wrong_number_of_slots(n):
    d = base_dict()
    d["layout"] = (d["layout"] + ["face_down"] * 5)[:n]
    rejected(d, "layout")


def test_from_dict_face_down_card_uncovered_but_not_revealed():
    d = base_dict()
    # Age I: slot 9 (face down) is covered by slots 14 and 15 (R-LAYOUT-1)
    assert d["layout"][9] == "face_down"
    d["layout"][14] = None
    d["layout"][15] = None
    rejected(d, "layout[9]")


def test_from_dict_face_up_slot_marked_face_down():
    d = base_dict()
    d["layout"][0] = "face_down"           # Age I slot 0 is dealt face up
    rejected(d, "layout[0]")


def test_from_dict_taken_slot_still_covered():
    d = base_dict()
    d["layout"][0] = None                  # slot 0 is covered by slots 2 and 3
    rejected(d, "layout[0]")


def test_from_dict_more_than_4_wonders():
    d = base_dict()
    d["players"][0]["wonders"].append({"name": "The Sphinx", "built": False, "card": None})
    rejected(d, "players[0].wonders")


def test_from_dict_wonder_owned_twice():
    d = base_dict()
    d["players"][1]["wonders"][0] = dict(d["players"][0]["wonders"][0])
    rejected(d, "players[1].wonders")


def test_from_dict_unknown_wonder_and_token():
    d = base_dict()
    d["players"][0]["wonders"][0]["name"] = "The Eiffel Tower"
    rejected(d, "players[0].wonders[0]")
    d = base_dict()
    d["board_tokens"] = ["Alchemy"]
    rejected(d, "board_tokens")


def test_from_dict_card_of_the_wrong_age_in_the_layout():
    d = base_dict()
    d["layout"][14] = "Sawmill"            # Age II
    rejected(d, "layout[14]")
    d = base_dict()
    d["layout"][15] = "Builders Guild"     # a guild, Age III
    rejected(d, "layout[15]")


def test_from_dict_unbuilt_wonder_when_seven_are_built():
    """R-WONDER-3: when the 7th wonder is built the last one leaves the game; a position with 7
    built wonders and an unbuilt one still owned is impossible."""
    d = base_dict()
    in_layout = set(d["layout"])
    spares = iter(n for n in CARD_NAMES if n not in in_layout and CARD_AGE[n] == 1)
    for p in (0, 1):
        for w in d["players"][p]["wonders"]:
            w.update(built=True, card=next(spares, None))
    d["players"][1]["wonders"][0].update(built=False, card=None)
    with pytest.raises(StateFormatError):
        state_from_dict(d)


# ---------------------------------------------------------------- to_dict round trips
def _differing_bytes(a, b):
    x, y = a.__reduce__()[1][0], b.__reduce__()[1][0]
    return [i for i in range(len(x)) if x[i] != y[i]]


def test_roundtrip_after_a_card_is_taken():
    """state_from_dict(to_dict()) == state once a card has left the layout (any game)."""
    state = find_state(lambda s: s.phase == "play")        # a drafted game, default options
    state.apply_action(discard(CARD_ID[free_slot_cards(state.to_dict())[0]]))
    back = state_from_dict(state.to_dict())
    assert back.to_dict() == state.to_dict()
    assert back == state, f"equal to_dict, unequal states: bytes {_differing_bytes(back, state)}"
    assert hash(back) == hash(state)


def test_roundtrip_first_game_wonders():
    """The first-game option (R-SETUP-7) survives to_dict -> state_from_dict."""
    state = start()
    back = state_from_dict(state.to_dict())
    assert back.to_dict() == state.to_dict()
    assert back == state, f"equal to_dict, unequal states: bytes {_differing_bytes(back, state)}"


@pytest.mark.parametrize("phase", ["choose_token", "destroy", "revive", "library"])
def test_roundtrip_choice_before_the_reveal(phase):
    """R-TURN-2: a choice granted by an action is made before the newly uncovered face-down
    cards are revealed, so such a position has cards waiting in the reveal queue."""
    state = find_state(lambda s: s.phase == phase and s.to_dict()["reveal_queue"], 2000)
    d = state.to_dict()
    back = state_from_dict(d)
    assert back.to_dict() == d


def test_roundtrip_game_over_with_cards_waiting_to_be_revealed():
    """A supremacy ends the game at once (R-MIL-3, R-SCI-3), possibly with uncovered face-down
    cards never revealed."""
    state = find_state(lambda s: s.is_terminal() and s.to_dict()["reveal_queue"], 3000)
    d = state.to_dict()
    back = state_from_dict(d)
    assert back.to_dict() == d
    assert back.result() == state.result()


def test_to_dict_is_json_safe():
    state = find_state(lambda s: s.age == 2 and s.phase == "play")
    d = state.to_dict()
    text = json.dumps(d)
    assert json.loads(text) == d
    back = state_from_dict(json.loads(text))
    assert back.to_dict() == d
    assert back.legal_actions() == state.legal_actions()
    assert back.result() == state.result()


def test_roundtrip_at_setup_and_draft():
    for state in (new_game(4, explicit_chance=True), new_game(4)):
        while state.age == 0:
            d = state.to_dict()
            back = state_from_dict(d)
            assert back.to_dict() == d and back == state
            if state.is_chance_node():
                state.apply_action(state.legal_actions()[0])
            else:
                state.apply_action(state.legal_actions()[-1])


# ---------------------------------------------------------------- values
def test_state_cannot_be_made_directly():
    with pytest.raises(TypeError):
        State()


def test_states_compare_by_value():
    a, b = new_game(5), new_game(5)
    assert a == b and not (a != b) and a is not b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1 and {a: 1}[b] == 1
    assert new_game(5) != new_game(6)
    assert a != 5 and a != "state" and a != a.to_dict()
    x = a.legal_actions()[0]
    a.apply_action(x)
    b.apply_action(x)
    assert a == b and hash(a) == hash(b)


def test_pickle_and_copy():
    state = find_state(lambda s: s.age == 2 and s.phase == "play")
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(state, protocol=proto))
        assert back == state and hash(back) == hash(state)
        assert back.to_dict() == state.to_dict()
        assert back.legal_actions() == state.legal_actions()
    for c in (copy.copy(state), copy.deepcopy(state), state.clone()):
        assert c == state and c is not state
        c.apply_action(c.legal_actions()[0])
        assert c != state


def test_unpickling_a_corrupt_state_fails():
    state = start()
    fn, (payload,) = state.__reduce__()
    with pytest.raises(ValueError):
        fn(payload[:-1])
    with pytest.raises(ValueError):
        fn(b"\xff" * len(payload))


def test_result_structure():
    state = start()
    res = state.result()
    assert set(res) == {"winner", "victory", "vp", "total"}
    assert res["winner"] is None and res["victory"] == "none"
    assert tuple(res["vp"]) == duelcore.VP_CATEGORIES
    assert set(duelcore.VP_CATEGORIES) == {"blue", "green", "yellow", "purple", "wonders", "tokens",
                                           "coins", "military"}
    for v in res["vp"].values():
        assert isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)
    assert res["vp"]["coins"] == [2, 2]           # 7 coins each: 1 VP per full 3 coins
    assert res["total"] == [2, 2]
    assert state.returns() == [0.0, 0.0]
    assert state.vp() == res["vp"]
    end = find_state(lambda s: s.is_terminal())
    res = end.result()
    assert res["victory"] in duelcore.VICTORY_NAMES and res["victory"] != "none"
    assert res["total"] == [sum(v[p] for v in res["vp"].values()) for p in (0, 1)]


def test_action_to_string_every_action():
    names = [action_to_string(a) for a in range(NUM_ACTIONS)]
    assert all(isinstance(n, str) and n for n in names)
    assert len(set(names[:NUM_DECISION_ACTIONS])) == NUM_DECISION_ACTIONS
    assert len(set(names)) == NUM_ACTIONS
    state = start()
    assert [state.action_to_string(a) for a in range(NUM_ACTIONS)] == names
    assert action_to_string(build(CARD_ID["Lumber Yard"])) == "build Lumber Yard"
    w, c = WONDER_ID["The Sphinx"], CARD_ID["Baths"]
    assert "The Sphinx" in names[wonder_action(w, c)] and "Baths" in names[wonder_action(w, c)]
    for a in (-1, NUM_ACTIONS):
        with pytest.raises(ValueError):
            action_to_string(a)


def test_action_layout_constants():
    assert duelcore.NUM_DISTINCT_ACTIONS == NUM_ACTIONS == 1309
    assert L["BUILD_BASE"] == L["DRAFT_BASE"] + 12
    assert L["DISCARD_BASE"] == L["BUILD_BASE"] + 73
    assert L["WONDER_BASE"] == L["DISCARD_BASE"] + 73
    assert L["TOKEN_BASE"] == L["WONDER_BASE"] + 12 * 73
    assert L["DESTROY_BASE"] == L["TOKEN_BASE"] + 10
    assert L["REVIVE_BASE"] == L["DESTROY_BASE"] + 73
    assert L["START_BASE"] == L["REVIVE_BASE"] + 73
    assert L["NUM_DECISION_ACTIONS"] == L["START_BASE"] + 2 == L["CHANCE_FIRST_BASE"]
    assert L["CHANCE_WONDER_BASE"] == L["CHANCE_FIRST_BASE"] + 2
    assert L["CHANCE_TOKEN_BASE"] == L["CHANCE_WONDER_BASE"] + 12
    assert L["CHANCE_CARD_BASE"] == L["CHANCE_TOKEN_BASE"] + 10
    assert L["CHANCE_SLOT_BASE"] == L["CHANCE_CARD_BASE"] + 73      # guild backs (R-CHANCE-2)
    assert NUM_ACTIONS == L["CHANCE_SLOT_BASE"] + 20
    assert len(CARDS) == 73


def test_legal_actions_mask():
    for state in (new_game(1), start(), new_game(1, explicit_chance=True),
                  find_state(lambda s: s.is_terminal())):
        mask = state.legal_actions_mask()
        assert isinstance(mask, np.ndarray)
        assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.bool_
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
    assert not find_state(lambda s: s.is_terminal()).legal_actions_mask().any()


def test_current_player_values():
    assert duelcore.CHANCE_PLAYER == -1 and duelcore.TERMINAL_PLAYER == -4
    # explicit chance: -1 at chance nodes, 0/1 at decisions, -4 at the end
    seen = set()
    for seed in range(5):
        rng = random.Random(seed)
        state = new_game(seed, explicit_chance=True, first_player=None)
        assert state.current_player() == -1
        while not state.is_terminal():
            cp = state.current_player()
            seen.add(cp)
            if state.is_chance_node():
                assert cp == -1
                assert state.legal_actions(0) == state.legal_actions(1) == []
            else:
                assert cp in (0, 1)
                assert state.legal_actions(cp) == state.legal_actions()
                assert state.legal_actions(1 - cp) == []
            state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node()
                               else rng.choices(*zip(*state.chance_outcomes()))[0])
        assert state.current_player() == -4
        assert state.legal_actions() == [] and state.legal_actions(0) == []
        assert state.chance_outcomes() == []
    assert seen == {-1, 0, 1}
    # auto mode never shows a chance node
    for seed in range(5):
        rng = random.Random(seed)
        state = new_game(seed, first_player=None)
        while not state.is_terminal():
            assert state.current_player() in (0, 1) and not state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.current_player() == -4


def test_chance_outcomes_api():
    state = new_game(0, explicit_chance=True, first_player=None)
    outcomes = state.chance_outcomes()
    assert outcomes == [(L["CHANCE_FIRST_BASE"], 0.5), (L["CHANCE_FIRST_BASE"] + 1, 0.5)]
    assert state.legal_actions() == [a for a, _ in outcomes]
    state.apply_action(L["CHANCE_FIRST_BASE"] + 1)
    assert state.first_player == 1 and state.phase == "setup_tokens"
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [L["CHANCE_TOKEN_BASE"] + t for t in range(10)]
    assert all(abs(p - 0.1) < 1e-12 for _, p in outcomes)
    assert start().chance_outcomes() == []


def test_why_illegal_names_the_reason_and_accepts_legal_actions():
    s = new_game(4)
    legal = s.legal_actions()
    assert all(s.why_illegal(a) is None for a in legal)
    assert "out of range" in s.why_illegal(-1)
    assert "not among the wonders on offer" in s.why_illegal(next(a for a in range(12) if a not in legal))
    with pytest.raises(TypeError):
        s.why_illegal("x")


def test_discard_value_is_two_plus_yellow_cards():
    """R-DISCARD-1 (E9): 2 coins + 1 per yellow card in one's own city."""
    s = new_game(4)
    assert s.discard_value(0) == 2 and s.discard_value(1) == 2
    with pytest.raises(ValueError, match="player"):
        s.discard_value(2)


def test_from_dict_refuses_unknown_keys_with_a_suggestion():
    s = new_game(3)
    d = s.to_dict()
    d["players"][0]["coin"] = 5
    with pytest.raises(StateFormatError, match="did you mean 'coins'") as info:
        state_from_dict(d)
    assert info.value.field == "players[0].coin"
    d = s.to_dict()
    d["pwan"] = 3
    with pytest.raises(StateFormatError, match="did you mean 'pawn'"):
        state_from_dict(d)
