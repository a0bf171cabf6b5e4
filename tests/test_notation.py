"""Move notation (duelpy.duel.notation): every action has a name that parses back to it; short
forms resolve among the legal actions only when they name one; unknown, ambiguous and
illegal moves raise specific ValueErrors with close matches."""
from __future__ import annotations

import random

import pytest

import duelcore
from play_helpers import first_position as find_state
from duelpy.duel.notation import (
    NUM_ACTIONS, NUM_DECISION_ACTIONS, AmbiguousActionError, IllegalMoveError, NotationError,
    UnknownActionError, action_name, legal_moves, parse_action,
)


def names(state):
    return {action_name(a) for a in state.legal_actions()}


# ---------------------------------------------------------------- names
def test_every_action_has_a_distinct_name_that_parses_back():
    seen = set()
    for a in range(NUM_ACTIONS):
        name = action_name(a)
        assert name == duelcore.action_to_string(a)
        assert name not in seen
        seen.add(name)
        assert parse_action(None, name) == a
        assert parse_action(None, "  " + name.upper().replace(" ", "   ") + " ") == a
        assert parse_action(None, name.replace("The ", "")) == a


@pytest.mark.parametrize("text, expected", [
    ("build Lumber Yard", "build Lumber Yard"),
    ("discard Altar", "discard Altar"),
    ("wonder The Pyramids with Altar", "wonder The Pyramids with Altar"),
    ("wonder pyramids with altar", "wonder The Pyramids with Altar"),
    ("token Law", "token Law"),
    ("destroy Glassworks", "destroy Glassworks"),
    ("revive Baths", "revive Baths"),
    ("pick The Sphinx", "pick The Sphinx"),
    ("PICK sphinx", "pick The Sphinx"),
    ("start P2", "start P2"),
    ("build glass-blower", "build Glass-Blower"),
    ("build  Glass Blower", "build Glass-Blower"),
])
def test_complete_names_without_a_state(text, expected):
    assert action_name(parse_action(None, text)) == expected


def test_legal_actions_round_trip_in_random_games():
    for seed in range(40):
        rng = random.Random(seed)
        state = duelcore.new_game(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal_moves(state) == [(a, action_name(a)) for a in legal]
            for a in legal:
                name = action_name(a)
                assert parse_action(state, name) == a
                assert parse_action(state, name.lower()) == a
                assert parse_action(state, str(a)) == a
                assert parse_action(state, a) == a
            state.apply_action(rng.choice(legal))


def test_chance_outcomes_have_names_too():
    state = duelcore.new_game(1, explicit_chance=True)
    assert state.is_chance_node()
    for a, _ in state.chance_outcomes():
        assert action_name(a).startswith("chance: ")
        assert parse_action(state, action_name(a)) == a


def test_action_numbers():
    state = duelcore.new_game(7)
    a = state.legal_actions()[0]
    assert parse_action(state, f"  #{a} ") == a
    with pytest.raises(UnknownActionError, match="out of range"):
        parse_action(state, "5000")
    with pytest.raises(UnknownActionError):
        parse_action(None, NUM_ACTIONS)


def test_action_name_range_and_types():
    assert action_name(NUM_DECISION_ACTIONS - 1) == "start P2"
    with pytest.raises(ValueError):
        action_name(NUM_ACTIONS)
    with pytest.raises(ValueError):
        action_name(-1)
    with pytest.raises(TypeError):
        parse_action(None, 1.5)
    with pytest.raises(TypeError):
        parse_action(None, True)
    with pytest.raises(TypeError):
        parse_action("not a state", "build Altar")


# ---------------------------------------------------------------- short forms
def test_short_forms_in_the_draft():
    state = duelcore.new_game(7)
    offer = state.to_dict()["draft"]["offer"]
    for w in offer:
        a = parse_action(state, w.replace("The ", "").lower())
        assert action_name(a) == f"pick {w}"
    with pytest.raises(AmbiguousActionError) as info:
        parse_action(state, "pick")
    assert sorted(info.value.matches) == sorted(names(state))
    assert all(f"pick {w}" in str(info.value) for w in offer)


def test_a_card_name_alone_is_ambiguous_between_build_and_discard():
    state = find_state(lambda s: s.phase == "play" and any(
        action_name(a).startswith("build ") for a in s.legal_actions()))
    build = next(a for a in state.legal_actions() if action_name(a).startswith("build "))
    card = action_name(build)[len("build "):]
    with pytest.raises(AmbiguousActionError) as info:
        parse_action(state, card)
    assert f"build {card}" in info.value.matches and f"discard {card}" in info.value.matches
    assert isinstance(info.value, ValueError)


def test_wonder_without_the_card_when_one_card_fits():
    def one_card(s):
        ws = [action_name(a) for a in s.legal_actions() if action_name(a).startswith("wonder ")]
        return len(ws) == 1
    state = find_state(one_card)
    a = next(a for a in state.legal_actions() if action_name(a).startswith("wonder "))
    wonder = action_name(a)[len("wonder "):].split(" with ")[0]
    assert parse_action(state, "wonder " + wonder.replace("The ", "")) == a


def test_token_destroy_revive_start_by_object_name():
    for phase, verb in (("choose_token", "token"), ("destroy", "destroy"),
                        ("revive", "revive"), ("choose_start", "start")):
        state = find_state(lambda s: s.phase == phase)
        for a in state.legal_actions():
            name = action_name(a)
            assert name.startswith(verb + " ")
            assert parse_action(state, name[len(verb) + 1:].lower()) == a


# ---------------------------------------------------------------- errors
def test_unknown_names_list_close_matches():
    state = find_state(lambda s: s.phase == "play")
    build = next(a for a in state.legal_actions() if action_name(a).startswith("discard "))
    card = action_name(build)[len("discard "):]
    typo = "discard " + card[:-1] + ("x" if card[-1] != "x" else "y")
    with pytest.raises(UnknownActionError) as info:
        parse_action(state, typo)
    assert f"discard {card}" in info.value.matches
    assert f"discard {card}" in str(info.value)
    with pytest.raises(UnknownActionError) as info:
        parse_action(state, "qwertyuiop")
    assert isinstance(info.value, NotationError) and isinstance(info.value, ValueError)
    with pytest.raises(UnknownActionError, match="empty"):
        parse_action(state, "   ")


def test_a_known_move_that_is_not_legal_says_why():
    state = duelcore.new_game(7)                      # the draft
    with pytest.raises(IllegalMoveError) as info:
        parse_action(state, "build Palace")
    e = info.value
    assert isinstance(e, duelcore.IllegalActionError) and isinstance(e, ValueError)
    assert e.action == parse_action(None, "build Palace")
    assert "draft" in e.reason
    with pytest.raises(IllegalMoveError):
        parse_action(state, str(e.action))
    # a card of the layout that is still covered, by its name alone
    state = find_state(lambda s: s.phase == "play" and s.age == 1)
    covered = next(c for c in state.to_dict()["layout"]
                   if c not in (None, "face_down")
                   and parse_action(None, "build " + c) not in state.legal_actions()
                   and parse_action(None, "discard " + c) not in state.legal_actions())
    with pytest.raises(UnknownActionError, match="not available"):
        parse_action(state, covered)


def test_nothing_to_parse_at_the_end():
    rng = random.Random(0)
    state = duelcore.new_game(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(UnknownActionError, match="over"):
        parse_action(state, "Altar")
    with pytest.raises(IllegalMoveError, match="over"):
        parse_action(state, "build Altar")


def test_short_forms_need_a_state():
    with pytest.raises(UnknownActionError) as info:
        parse_action(None, "sphinx")
    assert "pick The Sphinx" in info.value.matches


@pytest.mark.parametrize("text", ["x" * 100_000, "9" * 100_000, "build " + "a" * 500])
def test_an_overlong_move_is_refused_before_any_fuzzy_matching(text):
    from duelpy.duel.notation import UnknownActionError, parse_action
    s = duelcore.new_game(1)
    with pytest.raises(UnknownActionError, match="characters is not a move"):
        parse_action(s, text)
