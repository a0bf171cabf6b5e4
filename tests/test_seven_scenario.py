"""The scenario builder (issue 30): a position from a seed, a player count and the parts one
cares about; the rest is dealt consistently and the position passes every check (W-SETUP,
W-AGE, W-WON-1, W-MIL-1, W-INFO-2, W-FREE)."""
from __future__ import annotations

import random

import pytest

from duelcore import seven as sv
from duelcore import seven_data as D
from duelpy.seven import scenario


def _age(pid):
    return D.PHYSICAL[pid][1]


def _played_to_the_end(st, seed=0):
    """Random play to the end with the invariants after every action."""
    rng = random.Random(seed)
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        else:
            seat = st.pending_seats()[0]
            st.apply_action(rng.choice(st.legal_actions(seat)), seat)
        assert st.state_check() == 0
    return st


@pytest.mark.parametrize("players", range(2, 8))
def test_every_player_count_every_age_and_turn(players):
    """At every player count (2: the Free City), Age and turn: a valid position with the
    turn's hand sizes, every card of the earlier Ages played, and a game that plays on."""
    seats = 3 if players == 2 else players
    for age in (1, 2, 3):
        for turn in range(1, 7):
            st = scenario(players, seed=100 * age + turn, age=age, turn=turn)
            assert st.check_message() is None
            assert (st.phase, st.age, st.turn, st.players, st.seats) == \
                ("turn", age, turn, players, seats)
            d = st.to_dict()
            controller = st.controller()
            for i in range(players):
                assert len(d["cities"][i]["hand"]) == 8 - turn + (i == controller)
                assert all(_age(p) == age for p in d["cities"][i]["hand"])
            assert len(d["deck"]) == (7 - turn if players == 2 else 0)
            placed = d["discard"] + d["tucked"] + d["built"]
            n = 3 if players == 2 else players          # the Free City: the 3-player deck
            assert sum(_age(p) == age for p in placed) == seats * (turn - 1)
            assert sum(_age(p) < age for p in placed) == 7 * n * (age - 1)
            assert len(set(st.board(i)[0] for i in range(seats))) == seats
    _played_to_the_end(scenario(players, seed=3, age=2, turn=4), seed=players)


@pytest.mark.parametrize("players", range(2, 8))
def test_the_parts_given_are_there(players):
    """Boards and sides, cities, coins, stages, a seat's hand, the Age and turn."""
    seats = 3 if players == 2 else players
    boards = ["Gizah B", "Rhodos"] + [None] * (seats - 2)
    st = scenario(players, seed=7, age=3, turn=2, boards=boards, sides="A",
                  cities={0: ["Lumber Yard", "Quarry", "Library"], 1: ["Barracks"]},
                  coins={0: 11, 1: 0}, stages={0: 2, 1: 1},
                  hands={1: ["Gardens", "Pantheon"]})
    assert st.check_message() is None
    assert st.board(0) == ("Gizah", "B", 2) and st.board(1) == ("Rhodos", "A", 1)
    assert all(st.board(i)[1] == "A" for i in range(1, seats))
    assert set(st.city(0)) == {"Lumber Yard", "Quarry", "Library"}
    assert st.city(1) == ["Barracks"]
    assert st.coins(0) == 11 and st.coins(1) == 0 and st.coins(2) == 3
    assert {"Gardens", "Pantheon"} <= set(st.hand(1))
    d = st.to_dict()
    assert len(d["tucked"]) == 3                       # one card under each stage (W-WON-1)
    # a card under a stage is known to its owner; a discard to one player (W-INFO-3)
    own = set(d["cities"][0]["facedown"]) | set(d["cities"][1]["facedown"])
    assert own - set(d["discard"]) == set(d["tucked"])
    known = [p for c in d["cities"][:players] for p in c["facedown"]]
    assert sorted(known) == sorted(d["tucked"] + d["discard"])
    _played_to_the_end(st, seed=players)


def test_the_free_city():
    """players = 2: seat 2 is the Free City; the controller holds the card it drew; the pile
    holds 7 - t cards; the Free City's city and stages can be given; it has no hand."""
    for age, turn in ((1, 1), (1, 4), (2, 1), (2, 6), (3, 3)):
        st = scenario(2, seed=turn, age=age, turn=turn, boards=[None, None, "Olympia A"],
                      cities={2: ["Clay Pool"] if age > 1 else []},
                      stages={2: 0 if (age, turn) == (1, 1) else 1},
                      hands=[[], []])
        c = st.controller()
        assert c == (0 if (turn % 2 == 1) == (age != 2) else 1)
        assert len(st.hand(c)) == 9 - turn and len(st.hand(1 - c)) == 8 - turn
        assert st.hand(2) == st.hand(c)                    # the Free City plays from it
        d = st.to_dict()
        assert len(d["deck"]) == 7 - turn and d["cities"][2]["hand"] == []
        assert st.board(2) == ("Olympia", "A", 0 if (age, turn) == (1, 1) else 1)
        assert st.check_message() is None
        _played_to_the_end(st, seed=turn)
    with pytest.raises(ValueError, match="one entry per seat"):
        scenario(2, hands=[[], [], []])


def test_military_tokens_follow_the_shields():
    """Unless given, the tokens are those the red cards (by Age) and the stages' shields gave
    at the end of each Age scored (W-MIL-1): WE7's cities at the start of Age III."""
    cities = [["Stockade", "Stables"], ["Barracks", "Walls"], ["Guard Tower", "Archery Range"]]
    st = scenario(3, seed=1, age=3, turn=1, boards=["Rhodos A", "Gizah A", "Babylon A"],
                  cities=cities, stages=[2, 0, 0])
    # Age I: 1 + 2 (stage) = 3 against 1 and 1; Age II: 5 against 3 and 3
    assert [st.military(i) for i in range(3)] == [(1 + 1 + 3 + 3, 0), (-2, 2), (-2, 2)]
    st = scenario(3, seed=1, age=2, turn=1, cities=[["Barracks"], [], []])
    assert [st.military(i) for i in range(3)] == [(2, 0), (-1, 1), (-1, 1)]
    st = scenario(3, seed=1, age=2, turn=1, cities=[["Barracks"], [], []],
                  military=[(0, 0)] * 3)
    assert [st.military(i) for i in range(3)] == [(0, 0)] * 3


def test_seed_makes_the_deal_and_the_parts_stay():
    a = scenario(5, seed=4, age=2, turn=3)
    assert a == scenario(5, seed=4, age=2, turn=3)
    b = scenario(5, seed=5, age=2, turn=3)
    assert a.to_dict()["cities"][0]["hand"] != b.to_dict()["cities"][0]["hand"]
    for seed in range(5):
        st = scenario(4, seed=seed, age=1, turn=2, hands={2: ["Tavern"]},
                      boards=["Babylon B", None, None, None])
        assert "Tavern" in st.hand(2) and st.board(0)[:2] == ("Babylon", "B")


def test_olympia_free_build_and_the_end():
    st = scenario(3, seed=2, age=2, turn=3, boards=["Olympia A", None, None], stages={0: 2})
    assert st.olympia_free(0)
    st = scenario(3, seed=2, age=2, turn=3, boards=["Olympia A", None, None], stages={0: 2},
                  olympia_free={0: False})
    assert not st.olympia_free(0)
    end = scenario(4, seed=3, phase="over", cities={0: ["Palace", "Senate"]})
    assert end.is_terminal() and end.check_message() is None and end.winners()


def test_the_doc_example():
    """docs/seven.md's example."""
    st = scenario(4, seed=1, age=2, turn=3, boards=["Gizah B", "Rhodos A", None, None],
                  cities={0: ["Lumber Yard", "Stone Pit", "Sawmill"], 1: ["Ore Vein", "Loom"]},
                  coins={0: 7}, hands={0: ["Statue", "Library"]}, stages={0: 1})
    assert st.board(0) == ("Gizah", "B", 1) and st.coins(0) == 7 and len(st.hand(0)) == 5
    builds = [t for t in map(sv.action_to_string, st.legal_actions(0))
              if not t.startswith("discard")]
    assert builds == ["build Statue (left 4, right 0)", "build Dispensary (left 4, right 2)",
                      "build Library (left 2, right 0)"]


@pytest.mark.parametrize("kwargs,match", [
    (dict(age=1, hands={0: ["Sawmill"]}), "a hand holds cards of the current Age"),
    (dict(age=2, turn=2, hands={0: ["Altar"]}), "card of Age I"),
    (dict(age=2, turn=1, cities={0: ["Sawmill"]}), "use a later turn"),
    (dict(age=1, cities={0: ["Town Hall"]}), "card of Age III; here a card of Age I or earlier"),
    (dict(age=3, cities={0: ["Mine"]}), "not in the 4-player game"),
    (dict(age=2, cities={0: ["Spies Guild"]}), "guilds come into play in Age III"),
    (dict(age=1, cities={0: ["Altar", "Altar"]}), "a name twice"),
    (dict(hands={0: ["Nothing"]}), "unknown card"),
    (dict(boards=["Gizah", "Gizah", None, None]), "Gizah given twice"),
    (dict(turn=7), "turn must be 1..6"),
    (dict(stages={0: 5}), "0..4"),
    (dict(age=3, guilds=["Altar"]), "not a guild"),
    (dict(age=1, turn=3, hands={0: ["Altar"] * 1 + ["Baths", "Theater", "Tavern", "Pawnshop",
                                                   "Lumber Yard"]}), "holds 5 at turn 3"),
])
def test_bad_arguments_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        scenario(4, seed=1, **kwargs)


def test_a_position_the_rules_cannot_reach_is_refused_by_the_loader():
    """More built cards than a city has played, or tokens the shields cannot give: the
    loader's StateFormatError (a ValueError) names the field and the rule."""
    many = ["Lumber Yard", "Stone Pit", "Clay Pool", "Ore Vein", "Baths", "Altar", "Theater",
            "Sawmill"]
    with pytest.raises(sv.StateFormatError) as e:
        scenario(4, seed=1, age=2, turn=2, cities={0: many})
    assert e.value.field == "cities[0].city" and "W-TURN-5" in str(e.value)
    with pytest.raises(sv.StateFormatError) as e:
        scenario(4, seed=1, age=2, military={0: (1, 0)})
    assert e.value.field == "cities[0].military_vp" and "W-MIL-1" in str(e.value)
