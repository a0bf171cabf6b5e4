"""End of the game: R-END-1, R-END-2 (civilian victory, tie-break, shared victory)."""
from rules_helpers import act, build, built, destroy, discard, player, state, token, wonder


def test_game_ends_when_the_last_card_of_age_3_is_taken():
    """R-END-1: without supremacy, the game ends when the last card of Age III is taken."""
    s = state(age=3, avail=["Palace", "Obelisk"], p1=player(coins=9), p2=player(coins=3))
    act(s, discard("Palace"))
    assert not s.is_terminal()
    act(s, discard("Obelisk"))
    assert s.is_terminal()
    assert s.phase == "over"
    assert s.legal_actions() == []
    r = s.result()
    assert r["victory"] == "civilian"
    assert r["vp"]["coins"] == [3, 1]         # 11 // 3, 5 // 3
    assert (r["winner"], r["total"]) == (0, [3, 1])


def test_game_ends_after_the_choice_of_the_last_card():
    """R-END-1, R-AGE-2: the game ends after any choice the last card grants: a pair made with
    the last card of Age III lets the player choose a token (Philosophy, 7 VP) first."""
    s = state(age=3, avail=["Study"], p1=player(coins=20, city=["Academy"]),
              board_tokens=["Philosophy", "Agriculture"])
    act(s, build("Study"))
    assert not s.is_terminal() and s.phase == "choose_token"
    act(s, token("Philosophy"))
    assert s.is_terminal()
    assert s.result()["vp"]["tokens"] == [7, 0]


def test_last_card_used_for_statue_of_zeus():
    """R-END-1: the last card of Age III tucked under The Statue of Zeus: its destroy choice is
    made, then the game ends (its Play Again, if Theology, is lost)."""
    s = state(age=3, avail=["Palace"], p1=player(coins=20, wonders=["The Statue of Zeus"],
                                                 tokens=["Theology"]),
              p2=player(city=["Quarry", "Clay Pool"]))
    act(s, wonder("The Statue of Zeus", "Palace"))
    assert s.phase == "destroy"
    act(s, destroy("Quarry"))
    assert s.is_terminal()
    assert s.result()["victory"] in ("civilian", "shared")


def test_civilian_victory_vp_breakdown():
    """R-END-2: each player adds military VP, VP of blue, green, yellow and purple cards, of
    built wonders, of progress tokens, and 1 VP per full 3 coins; most VP wins."""
    p1 = player(coins=10 - 2, city=["Palace", "Academy", "Port", "Magistrates Guild",
                                    "Theater", "Lumber Yard"],
                wonders=[built("The Pyramids"), "The Sphinx"],
                tokens=["Philosophy", "Mathematics"])
    p2 = player(coins=20, city=["Obelisk", "Workshop", "Lighthouse", "Walls"],
                wonders=[built("The Colossus"), built("The Appian Way")],
                tokens=["Agriculture"])
    s = state(age=3, avail=["Pretorium"], pawn=3, military_tokens=[[2, 5], [5]], p1=p1, p2=p2)
    act(s, discard("Pretorium"))         # P1: +2 coins -> 10
    r = s.result()
    assert r["vp"] == {
        "blue": [7 + 3, 5],
        "green": [3, 1],
        "yellow": [3, 3],
        "purple": [2, 0],                # Magistrates: P1's 2 blue cards (P2 has 1)
        "wonders": [9, 3 + 3],
        "tokens": [7 + 3 * 2, 4],
        "coins": [3, 6],
        "military": [5, 0],
    }
    assert r["total"] == [10 + 3 + 3 + 2 + 9 + 13 + 3 + 5, 5 + 1 + 3 + 0 + 6 + 4 + 6 + 0]
    assert (r["winner"], r["victory"]) == (0, "civilian")
    assert s.returns() == [1.0, -1.0]


def test_coins_vp_full_sets_of_three():
    """R-END-2: 1 VP per full 3 coins (8 coins: 2 VP; 2 coins: 0 VP)."""
    s = state(age=1, avail=["Theater"], p1=player(coins=8), p2=player(coins=2))
    assert s.vp()["coins"] == [2, 0]


def test_tie_on_vp_blue_decides():
    """R-END-2: totals tied at 7: P1 has 0 blue VP (wonder 3 + Agriculture 4), P2 7 blue VP
    (Palace): P2 wins (civilian)."""
    s = state(age=3, avail=["Pretorium"],
              p1=player(coins=0, wonders=[built("The Hanging Gardens")],
                        tokens=["Agriculture"]),
              p2=player(coins=2, city=["Palace"]))
    act(s, discard("Pretorium"))
    r = s.result()
    assert r["total"] == [7, 7]
    assert (r["winner"], r["victory"]) == (1, "civilian")
    assert s.returns() == [-1.0, 1.0]


def test_tie_on_vp_and_blue_is_shared():
    """R-END-2: tied VP (9 each) and tied blue VP (3 each): the victory is shared (a draw)."""
    s = state(age=3, avail=["Pretorium"],
              p1=player(coins=0, city=["Theater"], wonders=[built("The Sphinx")]),
              p2=player(coins=2, city=["Altar"],
                        wonders=[built("The Great Lighthouse"), built("Piraeus")]))
    act(s, discard("Pretorium"))
    r = s.result()
    assert r["total"] == [9, 9]
    assert r["vp"]["blue"] == [3, 3]
    assert (r["winner"], r["victory"]) == (None, "shared")
    assert s.returns() == [0.0, 0.0]
    assert s.is_terminal()


def test_age_3_end_is_not_a_next_age():
    """R-END-1, R-AGE-3: after Age III there is no next Age and no choice of a first player."""
    s = state(age=3, avail=["Pretorium"], pawn=2)
    act(s, discard("Pretorium"))
    assert s.is_terminal() and s.age == 3
    assert s.current_player() == -4
