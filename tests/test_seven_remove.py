"""The "remove a card" study treatment of the 7 Wonders core (new_state(remove=...)).

Not a rule: a study takes a card out of the game.  A removed guild is never drawn (the N+2
guilds of W-SETUP-3 come from the others).  Each copy of a removed Age card in the player
count's deck (W-SETUP-2) is replaced by a spare copy of the same Age (one marked for more
players), so every Age still deals exactly 7 cards to each player (W-AGE-2) and every game
still has 3 x 6 turns.  The decks are public (W-CHANCE-2), so determinization keeps them.
"""
import json
import random

import pytest

from duelcore import seven as sv
from duelcore import seven_data as D

NAME = {i: D.PHYSICAL[i][0] for i in range(len(D.PHYSICAL))}


def _names(ids):
    return {D.NAMES[NAME[i]] for i in ids}


def _everything(d):
    """Every physical card placed somewhere in a to_dict position."""
    ids = set(d["deck"]) | set(d["discard"]) | set(d["tucked"]) | set(d["built"])
    for c in d["cities"]:
        ids |= set(c["hand"])
    return ids


def _play_random(st, rng, check):
    while not st.is_terminal():
        for seat in st.pending_seats():
            st.apply_action(rng.choice(st.legal_actions(seat)), seat)
            check(st)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_removed_cards_never_appear_and_ages_deal_7_per_player(players):
    """W-AGE-2 with the treatment: 7N cards per Age, none of them removed, spares of the
    right Age; W-SETUP-3: N+2 guilds, none removed; every game ends after 3 x 6 turns."""
    remove = ["Altar", "Arena", "Scientists Guild", "Lumber Yard"]
    for seed in range(12):
        st = sv.new_state(players, seed=seed, remove=remove)
        assert st.removed() == sorted(remove, key=D.NAMES.index)
        added = st.to_dict()["added"]
        for pid in added:
            nm, age, mark = D.PHYSICAL[pid]
            assert mark > players and D.NAMES[nm] not in remove
        # as many spares per Age as copies removed from that Age's deck
        for age in (1, 2, 3):
            gone = [p for p, (nm, a, m) in enumerate(D.PHYSICAL)
                    if a == age and m <= players and D.NAMES[nm] in remove and nm < 65]
            assert len([p for p in added if D.PHYSICAL[p][1] == age]) == len(gone)
        seen_turns = set()

        def check(s):
            assert s.state_check() == 0
            d = s.to_dict()
            assert not _names(_everything(d)) & set(remove)
            if s.phase == "turn" and s.turn == 1:
                hands = [c["hand"] for c in d["cities"][:players]]
                assert all(len(h) == 7 for h in hands)
                assert all(D.PHYSICAL[p][1] == s.age for h in hands for p in h)
            seen_turns.add((s.age, s.turn))
        check(st)
        assert len(st.guilds()) == players + 2 and "Scientists Guild" not in st.guilds()
        _play_random(st, random.Random(seed), check)
        assert {(a, t) for a in (1, 2, 3) for t in range(1, 7)} <= seen_turns
        assert sv.state_from_dict(json.loads(json.dumps(st.to_dict()))) == st


def test_free_city_variant_uses_the_3_player_deck_less_the_removed_cards():
    st = sv.new_state(2, seed=4, remove=["Baths", "Craftsmens Guild"])
    assert all(D.PHYSICAL[p][2] > 3 for p in st.to_dict()["added"])
    _play_random(st, random.Random(4), lambda s: s.state_check() == 0 or pytest.fail())
    assert "Craftsmens Guild" not in st.guilds() and len(st.guilds()) == 5


def test_spares_are_drawn_from_the_seed_and_vary_between_seeds():
    a = sv.new_state(3, seed=1, remove=["Altar"])
    assert a == sv.new_state(3, seed=1, remove=["Altar"])
    drawn = {tuple(sv.new_state(3, seed=s, remove=["Altar"]).added_cards()) for s in range(40)}
    assert len(drawn) > 5                     # a uniform draw among Age I's 28 spare copies


def test_rules_game_unchanged_without_removal():
    """No treatment: the same game as before (the bench signature of the random games)."""
    r = sv.random_games(3, 300, 20261130)
    assert sv.new_state(4, seed=9).to_dict()["added"] == []
    assert sv.new_state(4, seed=9).removed() == []
    assert r == sv.random_games(3, 300, 20261130) | {"seconds": r["seconds"]}


def test_bad_removals_are_one_clear_error():
    with pytest.raises(ValueError, match="unknown card 'Foo'"):
        sv.new_state(3, remove=["Foo"])
    with pytest.raises(ValueError, match="did you mean 'Altar'"):
        sv.new_state(3, remove=["altar"])
    with pytest.raises(ValueError, match=r"Mine is not in the 3-player game .*6\+"):
        sv.new_state(3, remove=["Mine"])
    with pytest.raises(ValueError, match="Age I has too few spare copies"):
        sv.new_state(7, remove=["Altar"])          # at 7 players every copy is in play
    with pytest.raises(ValueError, match="at most 1 of the 10 can be removed"):
        sv.new_state(7, remove=["Scientists Guild", "Builders Guild"])
    assert sv.new_state(7, remove=["Scientists Guild"]).state_check() == 0


def test_positions_with_a_treatment_are_checked():
    d = sv.new_state(4, seed=2, remove=["Altar", "Spies Guild"]).to_dict()
    bad = json.loads(json.dumps(d))
    bad["added"] = []                           # a removed copy not replaced: 27 cards in Age I
    with pytest.raises(sv.StateFormatError):
        sv.state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["removed"] = ["Nowhere"]
    with pytest.raises(sv.StateFormatError, match="removed: unknown card"):
        sv.state_from_dict(bad)
    # a position written before treatments existed (no removed/added keys) still loads
    plain = sv.new_state(4, seed=2).to_dict()
    del plain["removed"], plain["added"]
    assert sv.state_from_dict(plain) == sv.new_state(4, seed=2)
    # a drawn guild that the position says is removed: state_check code 9
    st = sv.new_state(4, seed=2)
    d = st.to_dict()
    d["removed"] = [st.guilds()[0]]
    with pytest.raises(sv.StateFormatError, match="code 9"):
        sv.state_from_dict(d)


def test_determinization_and_observation_keep_the_public_decks():
    remove = ["Altar", "Arena", "Spies Guild"]
    st = sv.new_state(4, seed=5, remove=remove)
    rng = random.Random(5)
    while not st.is_terminal():
        for k in range(6):
            d = sv.determinize(st, 0, k)
            assert d.state_check() == 0 and d.observation(0) == st.observation(0)
            assert not _names(_everything(d.to_dict())) & set(remove)
            assert not set(d.guilds()) & set(remove)
        for seat in st.pending_seats():
            st.apply_action(rng.choice(st.legal_actions(seat)), seat)
    obs = st.observation(1)
    assert obs["removed"] == st.removed() and obs["added"] == st.added_cards()


def test_batches_use_common_random_numbers():
    """Game k of a batch has the same deal whatever the chunking, the line-up or the
    treatment's spares draw (the study's arms are paired)."""
    whole = sv.play_games_detail(4, ["greedy"] * 4, 6, seed=3)
    tail = sv.play_games_detail(4, ["greedy"] * 4, 2, seed=3, first_game=4)
    assert whole["totals"][4:] == tail["totals"] and whole["boards"][4:] == tail["boards"]
    other = sv.play_games_detail(4, ["random", "greedy"], 6, seed=3,
                                 lineups=[[1, 1, 1, 1]] * 6)
    assert other["totals"] == whole["totals"] and other["boards"] == whole["boards"]
    treated = sv.play_games_detail(4, ["greedy"] * 4, 6, seed=3, remove=["Altar"])
    assert treated["boards"] == whole["boards"] and treated["totals"] != whole["totals"]
    with pytest.raises(ValueError, match="line-up 1"):
        sv.play_games_detail(4, ["random", "greedy"], 2, lineups=[[0, 1, 0, 1], [0, 1, 2, 0]])
    with pytest.raises(ValueError, match="too few spare copies"):
        sv.play_games_detail(7, ["random"] * 7, 1, remove=["Altar"])


def test_python_face_and_records_carry_the_removal(tmp_path):
    from duelpy.seven import load_record, new_game, play_game, record_of, replay, save_record
    g = new_game(4, seed=3, remove=["scientists guild", "ALTAR"])
    assert g.removed() == ["Altar", "Scientists Guild"]
    st, moves = play_game(4, ["greedy"] * 4, seed=3, remove=["Altar"])
    assert st.removed() == ["Altar"] and "Altar" not in sum((st.city(i) for i in range(4)), [])
    rec = record_of(4, 3, moves, state=st, remove=["Altar"])
    save_record(tmp_path / "r.json", rec)
    assert replay(load_record(tmp_path / "r.json")) == st
    with pytest.raises(ValueError, match="unknown card"):
        new_game(4, remove=["Nothing"])
