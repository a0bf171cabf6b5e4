"""7 Wonders positions as data are safe (issue 30): a position that loads is one the rules can
reach and is playable; one that is not is refused with the field and the rule named.

* The failures measured in issue 30, one test each: the undealt cards of a turn-6 deck, 55
  military VP, 3 defeats in Age I, cards under a board whatever the stages, the phases deal,
  board, guild, halikarnassus and seventh written on a mid-game position; each is refused with
  a field and a reason (before this work each loaded, and broke when played on).
* Strict types: floats, NaN, huge integers, bools for integers, strings for booleans, repeated
  card ids and unknown keys are refused, naming the field.
* The checks table (STATE_CHECKS): every code names its field and its rule (W-...).
* Every state of random games (2..7 players, explicit and sampled chance, forced boards so
  that Halikarnassus and Babylon B play, a study treatment) passes the checks and round-trips.
* Defence in depth: states that break the preconditions (written straight into the struct by a
  test-only hook) end cleanly in release, and abort with the precondition's code in the debug
  build.
"""
from __future__ import annotations

import json
import math
import re
import signal
import subprocess
import sys

import pytest

from duelcore import seven as sv
from duelcore import seven_data as D

import seven_fuzz_helpers as fz


def refused(d, field, *words):
    """``state_from_dict(d)`` raises StateFormatError naming ``field`` (and ``words``)."""
    with pytest.raises(sv.StateFormatError) as info:
        sv.state_from_dict(d)
    e = info.value
    assert e.field == field, f"field {e.field!r}, expected {field!r}: {e}"
    assert str(e).startswith(f"{field}: ") and "\n" not in str(e)
    assert re.search(r"W-[A-Z]", str(e)), f"no rule id in {e}"
    for w in words:
        assert w.lower() in str(e).lower(), f"{w!r} not in {str(e)!r}"
    return e


def states(players, seed, explicit=False, boards=None, stage_bias=0.5):
    """Every state of a random game (seat by seat)."""
    return fz._game(players, seed, explicit, boards, stage_bias=stage_bias)


def first(players, seed, pred, **kw):
    """The first state of a random game for which ``pred(state)`` holds."""
    for st in states(players, seed, **kw):
        if pred(st):
            return st
    raise AssertionError("no such state in this game")


def fresh(d):
    return json.loads(json.dumps(d))


# ---------------------------------------------------------------- the failures of issue 30
def test_issue_undealt_cards_at_turn_six():
    """A 3-player Age I, turn-6 position whose deck still holds Age I cards was accepted; after
    one joint turn the Age ended, the new deck overwrote the old one and those cards vanished
    (state_check 4; a debug build aborted).  Refused: the deck holds cards only while they are
    dealt (W-AGE-2)."""
    st = first(3, 2, lambda s: s.phase == "turn" and s.age == 1 and s.turn == 6
               and s.pending_seats() == [0, 1, 2] and len(s.to_dict()["discard"]) >= 2)
    d = st.to_dict()
    moved = d["discard"][:2]
    d["discard"] = d["discard"][2:]
    d["deck"] = moved                           # every card still in exactly one place
    assert all(D.PHYSICAL[p][1] == 1 for p in moved)
    refused(d, "deck", "W-AGE-2", "only while they are dealt")


def test_issue_military_vp_and_defeats():
    """55 military VP, and 3 defeat tokens in Age I before any military was scored, were
    accepted.  Refused: the tokens are those of the Ages scored (W-MIL-1, W-MIL-2)."""
    d = first(4, 3, lambda s: s.phase == "turn" and s.age == 2).to_dict()
    bad = fresh(d)
    bad["cities"][1]["military_vp"] = 55
    refused(bad, "cities[1].military_vp", "W-MIL-2", "-6 to 18")
    bad = fresh(d)                              # Age II: only Age I scored, 2 tokens at most
    bad["cities"][1]["military_vp"] = 6
    refused(bad, "cities[1].military_vp", "W-MIL-1", "1 Age(s) scored")
    d = first(3, 3, lambda s: s.phase == "turn" and s.age == 1).to_dict()
    d["cities"][0]["defeats"] = 3
    d["cities"][0]["military_vp"] = -3
    refused(d, "cities[0].defeats", "W-MIL-1", "0 Age(s) scored")


def test_issue_military_tokens_and_shields():
    """A victory needs shields, a defeat a neighbour with shields, and every victory is a
    neighbour's defeat (W-MIL-1)."""
    from duelpy.seven import scenario

    def tokens(military):
        return scenario(4, seed=1, age=2, turn=1, cities={0: ["Barracks"]}, military=military)

    st = tokens(None)                           # by default: what the shields gave in Age I
    assert [st.military(i) for i in range(4)] == [(2, 0), (-1, 1), (0, 0), (-1, 1)]
    for military, field, words in (
            ([(2, 0), (-1, 1), (1, 0), (-2, 2)], "cities[2].military_vp", "without shields"),
            ([(2, 0), (-1, 1), (-1, 1), (-1, 1)], "cities[2].defeats", "neither neighbour"),
            ([(2, 0), (0, 0), (0, 0), (0, 0)], "cities", "do not balance")):
        with pytest.raises(sv.StateFormatError) as info:
            tokens(military)
        assert info.value.field == field and words in str(info.value), str(info.value)
        assert "W-MIL-1" in str(info.value)


def test_issue_cards_under_a_board_whatever_the_stages():
    """Any number of cards under the boards was accepted; one card lies under each built
    stage (W-WON-1)."""
    d = first(4, 1, lambda s: s.phase == "turn" and s.age == 2 and len(s.to_dict()["discard"])
              >= 1).to_dict()
    d["tucked"].append(d["discard"].pop())
    refused(d, "tucked", "W-WON-1", "stages built")


@pytest.mark.parametrize("phase", ["deal", "board", "guild"])
def test_issue_chance_phases_on_a_mid_game_position(phase):
    """phase deal or board on a mid-game position was a chance node with no outcome (stuck);
    guild or board broke state_check after one step.  Refused."""
    d = first(5, 4, lambda s: s.phase == "turn" and s.age == 2 and s.turn == 3).to_dict()
    d["phase"] = phase
    e = refused(d, "phase" if phase != "deal" else "turn")
    assert "W-AGE-1" in str(e)
    # even with the counters a deal has (turn 0, a deal position): the deal needs its cards
    if phase == "deal":
        d["turn"] = 0
        d["deal_pos"] = 3
        refused(d, "cities[0].hand", "W-AGE-2")


@pytest.mark.parametrize("phase,field", [("seventh", "turn"),
                                         ("halikarnassus", "cities[0].hand")])
def test_issue_choice_phases_on_a_mid_game_position(phase, field):
    """phase seventh or halikarnassus on a turn position made the greedy agent return an
    illegal action.  Refused: the pick and the 7th card come after a turn has resolved, and
    have their seat and their cards."""
    d = first(4, 6, lambda s: s.phase == "turn" and s.age == 1 and s.turn == 3
              and s.pending_seats() == [0, 1, 2, 3]).to_dict()
    d["phase"] = phase
    refused(d, field)
    if phase == "seventh":
        d["turn"] = 6
        refused(d, "seventh_seat", "W-WON-5")


def _pick_and_seventh():
    """A real position of phase halikarnassus and one of phase seventh."""
    found = {}
    for seed in range(60):
        for st in states(3 + seed % 3, 100 + seed, boards=["Halikarnassus B", "Babylon B"]
                         + [None] * (1 + seed % 3), stage_bias=0.8):
            if st.phase in ("halikarnassus", "seventh"):
                found.setdefault(st.phase, st)
        if len(found) == 2:
            return found
    raise AssertionError(found)


def test_pick_and_seventh_card_need_their_seat_and_cards():
    found = _pick_and_seventh()
    d = found["halikarnassus"].to_dict()
    bad = fresh(d)
    bad["hali_seat"] = (d["hali_seat"] + 1) % d["players"]
    refused(bad, "hali_seat", "W-WON-6")
    bad = fresh(d)
    bad["hali_seat"] = None
    refused(bad, "hali_seat", "W-WON-6")
    bad = fresh(d)
    q = d["hali_seat"] if d["players"] > 2 else found["halikarnassus"].decider(d["hali_seat"])
    bad["cities"][q]["facedown"] = []
    refused(bad, f"cities[{q}].facedown", "whole discard pile")
    d = found["seventh"].to_dict()
    bad = fresh(d)
    bad["seventh_seat"] = (d["seventh_seat"] + 1) % d["players"]
    refused(bad, "seventh_seat", "W-WON-5")
    bad = fresh(d)
    bad["seventh_card"] = None
    refused(bad, "seventh_card", "W-WON-5")
    bad = fresh(d)
    bad["phase"] = "turn"
    with pytest.raises(sv.StateFormatError):
        sv.state_from_dict(bad)


def test_reachable_pick_and_seventh_card_positions_load_and_agents_stay_legal():
    """The real positions of phase halikarnassus and seventh load, and every agent returns a
    legal action there."""
    seen = set()
    for seed in range(40):
        for st in states(3 + seed % 3, 100 + seed, boards=["Halikarnassus B", "Babylon B"]
                         + [None] * (1 + seed % 3), stage_bias=0.8):
            if st.phase in ("halikarnassus", "seventh"):
                seen.add(st.phase)
                back = sv.state_from_dict(fresh(st.to_dict()))
                assert back == st
                seat = back.pending_seats()[0]
                for agent in ("random", "greedy", "mcts:10"):
                    assert sv.choose_action(back, seat, agent, 1) in back.legal_actions(seat)
        if seen == {"halikarnassus", "seventh"}:
            break
    assert seen == {"halikarnassus", "seventh"}


def test_halikarnassus_action_base_is_exported():
    """The Halikarnassus actions are HALI_BASE + card name id, and HALI_NONE."""
    import duelpy.seven as dp
    assert dp.HALI_BASE == sv.HALI_BASE and dp.HALI_NONE == sv.HALI_BASE + len(D.NAMES)
    assert dp.action_to_string(dp.HALI_BASE + D.NAMES.index("Altar")) == \
        "take Altar from the discard"
    assert dp.STATE_CHECKS is sv.STATE_CHECKS and dp.check_message is sv.check_message


# ---------------------------------------------------------------- more position checks
def test_hand_sizes_follow_the_turn():
    d = first(4, 7, lambda s: s.phase == "turn" and s.age == 1 and s.turn == 2
              and s.pending_seats() == [0, 1, 2, 3]).to_dict()
    bad = fresh(d)
    bad["discard"].append(bad["cities"][2]["hand"].pop())
    refused(bad, "cities[2].hand", "W-AGE-3")
    bad = fresh(d)
    bad["turn"] = 3
    refused(bad, "cities[0].hand", "W-AGE-3")


def test_earlier_age_cards_are_never_in_a_hand():
    d = first(3, 8, lambda s: s.phase == "turn" and s.age == 2 and s.turn == 1
              and s.pending_seats() == [0, 1, 2]).to_dict()
    old = next(p for p in d["discard"] if D.PHYSICAL[p][1] == 1)
    d["discard"].remove(old)
    d["discard"].append(d["cities"][1]["hand"].pop())
    d["cities"][1]["hand"].append(old)
    refused(d, "cities[1].hand", "earlier Age")


def test_a_commitment_is_a_legal_action_of_a_card_in_the_hand():
    st = first(3, 9, lambda s: s.phase == "turn" and s.age == 1 and s.turn == 2
               and s.pending_seats() == [0, 1, 2])
    a = st.legal_actions(0)[0]
    st.apply_action(a, 0)
    d = st.to_dict()
    assert sv.state_from_dict(fresh(d)) == st
    bad = fresh(d)
    bad["commit_card"][0] = None
    refused(bad, "commit_card[0]", "W-TURN-1")
    bad = fresh(d)
    use, name, l, r = sv.decode_turn_action(a)
    bad["commit"][0] = sv.encode_turn_action("build", name, 15, 15)
    refused(bad, "commit[0]", "not legal")
    bad = fresh(d)
    for i in (1, 2):                            # every seat committed: the turn had resolved
        b = st.clone()
        bad["commit"][i] = b.legal_actions(i)[0]
        name = sv.decode_turn_action(bad["commit"][i])[1]
        bad["commit_card"][i] = next(p for p in bad["cities"][i]["hand"]
                                     if D.NAMES[D.PHYSICAL[p][0]] == name)
    refused(bad, "commit", "W-TURN-3")


def test_what_a_player_remembers_must_fit_the_hands():
    """The MCTS deals the cards a player cannot see from what it remembers (W-INFO-2): a
    memory that does not fit the hands is refused (it would lose cards in the redeal)."""
    d = first(4, 10, lambda s: s.phase == "turn" and s.age == 1 and s.turn == 3
              and s.pending_seats() == [0, 1, 2, 3]).to_dict()
    bad = fresh(d)
    bad["seen"][0][2] = list(bad["cities"][3]["hand"])      # a packet seat 0 never held
    refused(bad, "seen[0]")
    bad = fresh(d)
    bad["seen"][1] = [[] for _ in range(4)]                 # forgets its own hand
    refused(bad, "seen[1]", "the last one it saw")
    bad = fresh(d)
    bad["seen"][2][0].append(bad["deck"][0] if bad["deck"] else 147)
    with pytest.raises(sv.StateFormatError):
        sv.state_from_dict(bad)


def test_setup_positions():
    """Board and guild phases: the boards dealt so far, nothing else."""
    st = sv.new_state(4, seed=3, explicit_chance=True)
    st.apply_action(st.chance_outcomes()[0][0])
    d = st.to_dict()
    assert d["phase"] == "board" and d["setup_pos"] == 1
    assert sv.state_from_dict(fresh(d)) == st
    d["cities"][2]["board"] = None                          # a seat without a board: null ok
    d["cities"][2]["side"] = None
    assert sv.state_from_dict(fresh(d)) == st
    bad = fresh(d)
    bad["cities"][2]["board"] = "Gizah"
    refused(bad, "cities[2].board", "no board yet")
    bad = fresh(d)
    bad["cities"][0]["coins"] = 4
    refused(bad, "cities[0]", "W-SETUP-5")
    bad = fresh(d)
    bad["guilds"] = ["Spies Guild"]
    refused(bad, "guilds", "W-SETUP-3")
    bad = fresh(d)
    bad["forced_board"][2] = bad["cities"][0]["board"]      # forced, but already dealt
    refused(bad, "forced_board[2]", "W-SETUP-4")


# ---------------------------------------------------------------- strict types
@pytest.mark.parametrize("key,bad", [("age", 1.0), ("age", True), ("turn", "3"), ("turn", None),
                                     ("moves", -1), ("rng", 2 ** 64), ("rng", 1.5),
                                     ("deal_pos", math.nan), ("setup_pos", [0]),
                                     ("players", 4.0), ("format", True)])
def test_integers_are_integers(key, bad):
    d = sv.new_state(4, seed=1).to_dict()
    d[key] = bad
    refused(d, key)


@pytest.mark.parametrize("bad", ["false", "true", 0, 1, None])
def test_booleans_are_booleans(bad):
    d = sv.new_state(4, seed=1).to_dict()
    d["cities"][2]["olympia_free"] = bad
    refused(d, "cities[2].olympia_free", "true or false")
    d = sv.new_state(4, seed=1).to_dict()
    d["options"]["all_pairs"] = bad
    refused(d, "options.all_pairs", "true or false")


def test_card_ids_are_ids_listed_once():
    d = sv.new_state(4, seed=1).to_dict()
    for bad in (3.0, True, 148, -1, "Altar", [3]):
        e = fresh(d)
        e["cities"][1]["hand"][2] = bad
        refused(e, "cities[1].hand[2]", "card id")
    e = fresh(d)
    e["cities"][1]["hand"].append(e["cities"][1]["hand"][0])
    refused(e, "cities[1].hand[7]", "listed twice")
    e = fresh(d)
    e["cities"][1]["hand"].append(e["cities"][2]["hand"][0])
    refused(e, "cities[2].hand", "also in cities[1].hand")
    e = fresh(d)
    e["seen"][0][0] = [[[[["deep"]]]]]
    assert len(str(refused(e, "seen[0][0][0]"))) < 300


def test_names_keys_and_shapes():
    d = sv.new_state(3, seed=1).to_dict()
    e = fresh(d)
    e["cities"][0]["city"] = ["Altar", "Altar"]
    refused(e, "cities[0].city[1]", "W-BUILD-3")
    e = fresh(d)
    e["cities"][0]["city"] = ["Alter"]
    refused(e, "cities[0].city[0]", "did you mean 'Altar'")
    e = fresh(d)
    e["cities"][0]["colour"] = 1
    refused(e, "cities[0].colour", "unknown key")
    e = fresh(d)
    e["phaze"] = "turn"
    refused(e, "phaze", "did you mean 'phase'")
    e = fresh(d)
    del e["seen"]
    refused(e, "seen", "missing key")
    e = fresh(d)
    e["commit"] = [-1, -1]
    refused(e, "commit", "3 entries")
    e = fresh(d)
    e["cities"][1]["board"] = e["cities"][0]["board"]
    refused(e, "cities[1].board", "already seat 0's")
    for bad in ([1, 2], "position", None, 7):
        with pytest.raises(sv.StateFormatError) as info:
            sv.state_from_dict(bad)
        assert info.value.field == "position"


def test_the_error_names_its_field_and_pickles():
    import pickle
    e = sv.StateFormatError("deck", "a reason (W-AGE-2)")
    assert (e.field, e.reason, str(e)) == ("deck", "a reason (W-AGE-2)", "deck: a reason (W-AGE-2)")
    back = pickle.loads(pickle.dumps(e))
    assert (back.field, back.reason) == (e.field, e.reason)
    assert isinstance(e, ValueError)


# ---------------------------------------------------------------- the checks table
def test_state_checks_table_names_every_code_with_its_rule():
    checks = sv.STATE_CHECKS
    assert sorted(checks) == list(range(1, 48))
    for code, (field, reason) in checks.items():
        assert field and reason and "\n" not in reason
        assert re.search(r"\(W-[A-Z]+", reason) or "W-" in reason, (code, reason)
    assert sv.STATE_CHECK_MESSAGES[22] == checks[22][1]
    assert checks[22][0] == "tucked" and "W-WON-1" in checks[22][1]


def test_every_state_of_random_games_passes_the_checks():
    """The position checks never refuse a reachable position: every phase, every player
    count, explicit and sampled chance, Halikarnassus and Babylon B, a study treatment."""
    phases = set()
    for players in range(2, 8):
        seats = 3 if players == 2 else players
        for g in range(4):
            boards = [None] * seats
            boards[g % seats] = "Halikarnassus " + "AB"[g % 2]
            boards[(g + 1) % seats] = "Babylon B"
            remove = ["Altar"] if g == 3 and players < 7 else None
            for k, st in enumerate(fz._game(players, 77 * players + g, g % 2 == 0, boards,
                                            remove)):
                phases.add(st.phase)
                assert st.check_message() is None, (players, g, st.phase, st.check_message())
                if k % 7 == 0:
                    assert sv.state_from_dict(fresh(st.to_dict())) == st
    assert phases == set(sv.PHASES)


# ---------------------------------------------------------------- defence in depth
def _turn_state(players=4):
    return first(players, 11, lambda s: s.phase == "turn" and s.age == 1 and s.turn == 2
                 and len(s.pending_seats()) == (3 if players == 2 else players))


def _ph(name):
    return sv.PHASES.index(name)


#: broken states written straight into the struct (duelcore.seven._unchecked_copy); no public
#: function makes one
BROKEN = {
    "seventh card without a card": (4, dict(phase=_ph("seventh"), seventh_seat=0,
                                            seventh_card=255)),
    "pick without a seat": (4, dict(phase=_ph("halikarnassus"), hali_seat=255)),
    "pick of a seat out of range": (4, dict(phase=_ph("halikarnassus"), hali_seat=9)),
    "deal with an empty deck": (4, dict(phase=_ph("deal"), deck=[])),
    "turn with empty hands": (4, dict(hands=[[], [], [], []])),
    "draw from an empty pile": (2, dict(phase=_ph("draw"), deck=[])),
    "board phase in an Age": (4, dict(phase=_ph("board"), setup_pos=0)),
    "every seat committed": (3, dict(commit=[5, 5, 5])),
}


def _broken(name):
    players, fields = BROKEN[name]
    return sv._unchecked_copy(_turn_state(players), **fields)


@pytest.mark.skipif(sv.DEBUG, reason="the debug build aborts on these (below)")
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_state_ends_cleanly_in_release(name):
    """A state that breaks the preconditions (only a test can make one): the checks name it;
    actions stay in range; playouts in the core end instead of reading or writing outside the
    state or looping; the agents return no action out of range; from Python, play stops."""
    st = _broken(name)
    assert st.check_message() is not None
    acts = [a for s in range(st.seats) for a in st.legal_actions(s)]
    acts += [a for a, _ in st.chance_outcomes()]
    assert all(0 <= a < sv.NUM_ACTIONS for a in acts)
    for agent in ("random", "greedy", "mcts:5"):
        end = sv._playout(st, agent, 1)
        assert end.is_terminal()
    for _ in range(300):
        if st.is_terminal():
            break
        if st.is_chance_node():
            out = st.chance_outcomes()
            if not out:
                break
            st.apply_action(out[0][0])
            continue
        pend = [s for s in st.pending_seats() if st.legal_actions(s)]
        if not pend:
            break
        st.apply_action(st.legal_actions(pend[0])[0], pend[0])
    with pytest.raises(sv.StateFormatError):
        sv.state_from_dict(_broken(name).to_dict())


@pytest.mark.skipif(not sv.DEBUG, reason="needs the debug build (DUEL_DEBUG=1)")
@pytest.mark.parametrize("name", ["seventh card without a card", "pick without a seat",
                                  "deal with an empty deck", "turn with empty hands",
                                  "draw from an empty pile"])
def test_broken_state_aborts_in_debug(name):
    """The debug build aborts with the broken precondition's code."""
    code = ("import sys; sys.path.insert(0, 'tests'); import test_seven_positions as t; "
            "from duelcore import seven as sv; "
            f"st = t._broken({name!r}); sv._playout(st, 'random', 1); print('no abort')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == -signal.SIGABRT, (r.returncode, r.stdout, r.stderr[-2000:])
    assert re.search(r"seven: (broken precondition|state_check failed with code) \d+",
                     r.stderr), r.stderr[-2000:]
