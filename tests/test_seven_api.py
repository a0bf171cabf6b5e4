"""The Python surface of 7 Wonders (duelpy.seven): set-up options and their errors, illegal
actions (a reason, the state unchanged), joint turns, value semantics, to_dict /
state_from_dict, records, rendering, chance outcomes, information sets (W-SETUP, W-TURN,
W-CHANCE, W-INFO)."""
import json
import re
import pickle

import pytest

from duelcore import seven as sv
from duelpy.seven import (
    IllegalActionError, RecordError, StateFormatError, choose_action, load_record, new_game,
    parse_action, play_game, record_of, render_text, replay, result, save_record,
    state_from_dict,
)


@pytest.mark.parametrize("bad", [0, 1, 8, "3", 3.0, None])
def test_player_count_outside_two_to_seven(bad):
    """W-SETUP-1: one clear error."""
    with pytest.raises(ValueError, match="players must be 2..7"):
        new_game(bad)


@pytest.mark.parametrize("kw,msg", [
    ({"boards": ["Atlantis", None, None]}, "unknown wonder board 'Atlantis'"),
    ({"boards": ["Rhodos C", None, None]}, "unknown side 'C'"),
    ({"boards": ["Rhodos", "Rhodos", None]}, "given twice"),
    ({"boards": ["Rhodos"]}, "one entry per seat"),
    ({"sides": "C"}, "sides must be"),
    ({"seed": -1}, "seed must be"),
])
def test_bad_setup(kw, msg):
    with pytest.raises(ValueError, match=msg):
        new_game(3, **kw)


def test_sides_and_boards_options():
    """W-SETUP-4: all A, all B, or chosen boards and sides."""
    for side in "AB":
        g = new_game(5, seed=3, sides=side)
        assert {g.board(i)[1] for i in range(5)} == {side}
    g = new_game(3, seed=3, boards=["Gizah B", "Rhodos", None])
    assert g.board(0)[:2] == ("Gizah", "B") and g.board(1)[0] == "Rhodos"
    assert len({g.board(i)[0] for i in range(3)}) == 3


def test_start_of_game():
    """W-SETUP-5, W-AGE-2: 3 coins each, 7 cards each; Free City: 8 for the controller."""
    for n in range(3, 8):
        g = new_game(n, seed=n)
        assert [g.coins(i) for i in range(n)] == [3] * n
        assert [len(g.hand(i)) for i in range(n)] == [7] * n
        assert len(g.guilds()) == n + 2
    g = new_game(2, seed=1)
    assert g.seats == 3 and g.controller() == 0 and g.decider(2) == 0
    assert [len(g.hand(0)), len(g.hand(1)), g.coins(2)] == [8, 7, 3]
    assert len(g.guilds()) == 5


def test_explicit_chance_probabilities():
    """W-CHANCE-1: exact probabilities, summing to 1, at every chance node."""
    g = new_game(3, seed=0, explicit_chance=True)
    seen = set()
    while g.is_chance_node():
        out = g.chance_outcomes()
        assert abs(sum(p for _, p in out) - 1) < 1e-12
        seen.add(g.phase)
        if g.phase == "board":
            assert len(out) == 2 * (7 - sum(g.board(i)[0] is not None for i in range(3)))
        a = out[len(out) // 2][0]
        g.apply_action(a)
    assert seen == {"board", "guild", "deal"} and g.phase == "turn"
    # deal: copies / remaining
    g = new_game(4, seed=0, boards=["Gizah A", "Rhodos A", "Babylon A", "Olympia A"],
                 explicit_chance=True)
    while g.phase != "deal":
        g.apply_action(g.chance_outcomes()[0][0])
    probs = dict((sv.action_to_string(a), p) for a, p in g.chance_outcomes())
    assert probs["card Lumber Yard"] == pytest.approx(2 / 28)
    assert probs["card Clay Pit"] == pytest.approx(1 / 28)


def test_illegal_action_leaves_state_unchanged():
    g = new_game(4, seed=2)
    before = g.clone()
    hand = g.hand(0)
    missing = next(n for n in ("Palace", "Senate", "Walls") if n not in hand)
    cases = [
        (0, sv.encode_turn_action("build", missing), "not in the hand"),
        (7, g.legal_actions(0)[0], "seat must be"),
        (0, -5, "not an action id"),
        (0, sv.HALI_NONE, "not a turn action"),
    ]
    for seat, a, msg in cases:
        with pytest.raises(IllegalActionError, match=msg):
            g.apply_action(a, seat)
        assert g == before
    a = g.legal_actions(0)[0]
    g.apply_action(a, 0)
    with pytest.raises(IllegalActionError, match="already committed"):
        g.apply_action(a, 0)
    with pytest.raises(IllegalActionError, match="chance node"):
        new_game(3, explicit_chance=True).apply_action(a, 0)


def test_illegal_payment_names_the_offers():
    """W-TRADE-6: a payment not offered is refused with the offered ones."""
    from seven_helpers import position
    st = position(3, ["Babylon A", "Olympia A", "Alexandria A"], age=2,
                  cities=[["West Trading Post"], ["Glassworks"], ["Lumber Yard"]],
                  hands=[["Temple"], [], []], coins=[9, 3, 3])
    with pytest.raises(IllegalActionError, match=r"not an offered payment; offered: \(0, 4\)"):
        st.apply_action(sv.encode_turn_action("build", "Temple", 2, 2), 0)
    st = position(3, ["Babylon A", "Olympia A", "Alexandria A"], age=2,
                  cities=[["West Trading Post"], ["Glassworks"], ["Lumber Yard"]],
                  hands=[["Temple"], [], []], coins=[2, 3, 3])
    with pytest.raises(IllegalActionError, match="costs 3 coins, the city holds 2"):
        st.apply_action(sv.encode_turn_action("build", "Temple", 3, 0), 0)


def test_apply_actions_joint_and_atomic():
    g = new_game(3, seed=4)
    acts = [g.legal_actions(i)[0] for i in range(3)]
    bad = list(acts)
    bad[2] = sv.encode_turn_action("build", "Palace")
    before = g.clone()
    with pytest.raises(IllegalActionError, match="seat 2"):
        g.apply_actions(bad)
    assert g == before
    with pytest.raises(IllegalActionError, match="one action for each"):
        g.apply_actions(acts[:2])
    g.apply_actions(acts)
    assert g.turn == 2
    h = before.clone()
    for i in range(3):
        h.apply_action(acts[i], i)
    assert h == g


def test_simultaneous_commitments_are_unseen():
    """W-TURN-1, -2: legality is judged on the start of the turn; a seat's commitment changes
    nothing that the others can see until all have committed."""
    g = new_game(3, seed=8)
    views = [g.legal_actions(i) for i in range(3)]
    g.apply_action(views[0][0], 0)
    assert g.legal_actions(1) == views[1] and g.legal_actions(2) == views[2]
    assert g.coins(0) == 3 and g.pending_seats() == [1, 2]


def test_value_semantics():
    g = new_game(5, seed=1)
    h = g.clone()
    assert h == g and hash(h) == hash(g)
    h.apply_action(h.legal_actions(0)[0], 0)
    assert h != g
    assert pickle.loads(pickle.dumps(g)) == g


def test_to_dict_round_trip_and_errors():
    st, _ = play_game(4, ["random"] * 4, seed=3)
    for g in (new_game(4, seed=1), new_game(2, seed=2), st):
        d = json.loads(json.dumps(g.to_dict()))
        assert state_from_dict(d) == g
    d = new_game(3, seed=1).to_dict()
    bad = dict(d, colour=1)
    with pytest.raises(StateFormatError, match="unknown key"):
        state_from_dict(bad)
    bad = {k: v for k, v in d.items() if k != "deck"}
    with pytest.raises(StateFormatError, match="missing key"):
        state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["cities"][0]["coins"] = -1
    with pytest.raises(StateFormatError):
        state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["cities"][0]["hand"].append(bad["cities"][1]["hand"][0])
    with pytest.raises(StateFormatError, match="state_check code 3"):
        state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["cities"][0]["board"] = "Atlantis"
    with pytest.raises(StateFormatError, match="unknown board"):
        state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["players"] = 9
    with pytest.raises(StateFormatError, match="players must be 2..7"):
        state_from_dict(bad)
    with pytest.raises(StateFormatError):
        state_from_dict([1, 2])


def test_records(tmp_path):
    st, moves = play_game(3, ["greedy", "random", "random"], seed=5)
    rec = record_of(3, 5, moves, state=st)
    path = tmp_path / "g.json"
    save_record(path, rec)
    assert replay(load_record(path)) == st
    assert len(rec["moves"]) == st.moves
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="bad.json is not valid JSON: expecting property"):
        load_record(tmp_path / "bad.json")
    broken = json.loads(json.dumps(rec))
    broken["moves"][3][1] = broken["moves"][3][1] ^ 1           # the 4th move (numbered from 1)
    with pytest.raises(RecordError, match="move 4: "):
        replay(broken)
    broken = json.loads(json.dumps(rec))
    broken["result"]["winners"] = [9]
    with pytest.raises(RecordError, match="differs"):
        replay(broken)
    with pytest.raises(RecordError, match="bad set-up"):
        replay(dict(rec, players=9))
    with pytest.raises(RecordError, match="unknown record key"):
        replay(dict(rec, extra=1))
    for name, data, words in (("empty.json", b"", "empty file"),
                              ("bom.json", b"\xef\xbb\xbf", "empty file"),
                              ("utf16.json", "{}".encode("utf-16"), "not UTF-8 text"),
                              ("half.json", b'{"game": ', "")):
        (tmp_path / name).write_bytes(data)
        if name == "half.json":                # the whole problem, with its place, in a line
            with pytest.raises(RecordError, match=re.escape(
                    "half.json is not valid JSON: unexpected end after line 1, column 8 (cut "
                    "short?)")):
                load_record(tmp_path / name)
            continue
        with pytest.raises(RecordError, match=re.escape(f"{name}: {words}")):
            load_record(tmp_path / name)
    with pytest.raises(RecordError, match="7 Wonders Duel record: replay it with duel replay"):
        replay({"format": "duel-record", "version": 1, "moves": []})


def test_result_and_rendering():
    st, _ = play_game(2, ["random", "random"], seed=6)
    r = result(st)
    assert r["free_city"] == 2 and len(r["scores"]) == 3
    for s in r["scores"]:
        assert s["total"] == sum(v for k, v in s.items() if k != "total")
    assert set(r["winners"]) <= {0, 1}                       # the Free City never wins
    text = render_text(st)
    assert "Free City" in text and "winners" in text
    with pytest.raises(ValueError, match="not over"):
        result(new_game(3))
    g = new_game(3, seed=1)
    mine = render_text(g, seat=0)
    hands = [line for line in mine.splitlines() if line.strip().startswith("hand:")]
    assert hands == ["    hand: " + ", ".join(g.hand(0))]        # only seat 0's hand (W-INFO-2)
    assert render_text(g).count("hand:") == 3 and "P1 (seat 0)" in mine


def test_parse_action():
    g = new_game(3, seed=1)
    a = g.legal_actions(0)[-1]
    assert parse_action(g, 0, sv.action_to_string(a)) == a
    with pytest.raises(IllegalActionError, match="not a legal action"):
        parse_action(g, 0, "build Nothing")


def test_determinization_keeps_what_the_player_knows():
    """W-INFO-1..3: own hand, cities, coins, own face-down cards and what the player saw stay;
    every card stays in exactly one place."""
    g = new_game(4, seed=11)
    for _ in range(3):                                        # three turns of random play
        g.apply_actions([g.legal_actions(i)[0] for i in range(4)])
    for seed in range(20):
        d = sv.determinize(g, 1, seed)
        assert d.state_check() == 0
        assert d.hand(1) == g.hand(1)
        assert [d.city(i) for i in range(4)] == [g.city(i) for i in range(4)]
        assert [d.coins(i) for i in range(4)] == [g.coins(i) for i in range(4)]
        # a hand seat 1 held (turn 2: the one now at seat 3, two passes on) keeps its cards
        # within what seat 1 saw in it
        seen = g.seen_hands(1)
        for q in range(4):
            held = [s for s in seen if s and set(g.hand(q)) <= set(s)]
            if held:
                assert set(d.hand(q)) <= set(held[0]) | set(g.hand(q))


def test_mcts_ignores_hidden_cards():
    """DESIGN: two states that differ only in cards seat 0 cannot see give the agent the same
    decision for the same seed."""
    g = new_game(4, seed=12)
    g.apply_actions([g.legal_actions(i)[-1] for i in range(4)])
    other = sv.determinize(g, 0, 99)
    assert other != g
    assert choose_action(g, 0, "mcts:150", seed=5) == choose_action(other, 0, "mcts:150", seed=5)


def test_agents_choose_legal_actions():
    g = new_game(2, seed=13)
    for agent in ("random", "greedy", "mcts:30"):
        for seat in g.pending_seats():
            assert choose_action(g, seat, agent, seed=1) in g.legal_actions(seat)
    with pytest.raises(ValueError, match="unknown agent"):
        choose_action(g, 0, "alphazero")


def test_observation_is_the_information_set():
    """W-INFO: a player's observation is the same in every position that differs only in what
    it cannot see, and differs when its own hand differs."""
    for players in (2, 4, 6):
        g = new_game(players, seed=21)
        for _ in range(4):
            for seat in g.pending_seats():
                g.apply_action(g.legal_actions(seat)[-1], seat)
        g.apply_action(g.legal_actions(1)[0], 1)              # seat 1 commits, unseen by 0
        obs = g.observation(0)
        assert 1 not in obs["committed"]
        for seed in range(5):
            d = sv.determinize(g, 0, seed)
            assert d.observation(0) == obs
        others = [sv.determinize(g, 1, seed).observation(0) for seed in range(5)]
        assert any(o != obs for o in others) or players == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_determinization_at_every_turn(players):
    """W-INFO: at every turn of random games, redealing what each player cannot see keeps every
    invariant (state_check) and that player's observation; in the Free City variant the
    controller's hand holds a card drawn from the pile that the other player never saw."""
    import random
    for g in range(4):
        st = new_game(players, seed=100 + g)
        rng = random.Random(g)
        while not st.is_terminal():
            if st.phase == "turn":
                for p in range(players):
                    d = sv.determinize(st, p, rng.randrange(1 << 30))
                    assert d.state_check() == 0
                    assert d.observation(p) == st.observation(p)
            for seat in st.pending_seats():
                st.apply_action(rng.choice(st.legal_actions(seat)), seat)
