"""Science and progress tokens from pairs: R-SCI-1..3, worked example E7, Scientific Supremacy."""
from rules_helpers import (
    SYMBOLS, act, build, card_names, chance_token, layout, player, reveal, revive, state, token,
    token_names, wonder,
)

BOARD = ["Agriculture", "Philosophy", "Law", "Urbanism", "Mathematics"]

# one card of each of five symbols: wheel, quill, mortar, set_square, sundial
FIVE = ["Apothecary", "Scriptorium", "Pharmacist", "Workshop", "Academy"]


def sym(name):
    return SYMBOLS.index(name)


def test_e7_first_card_counts_then_pair_grants_a_token():
    """E7 (seed 001), R-SCI-2: the first card of a symbol counts toward the different symbols;
    the second card of the same symbol makes a pair: the player immediately chooses a progress
    token still on the board, which stays in their city; the pair still counts as one symbol."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=10, city=["Scriptorium"]),
              board_tokens=BOARD)
    assert s.science_symbols(0)[sym("quill")] == 1
    act(s, build("Library"))
    assert s.phase == "choose_token"
    assert s.current_player() == 0
    assert sorted(s.legal_actions()) == sorted(token(t) for t in BOARD), \
        "the choice is among the board tokens only, and there is no pass (mandatory)"
    act(s, token("Philosophy"))
    assert token_names(s.progress_tokens(0)) == ["Philosophy"]
    assert sorted(token_names(s.board_tokens())) == sorted(set(BOARD) - {"Philosophy"})
    assert s.science_symbols(0)[sym("quill")] == 2
    assert sum(1 for k in s.science_symbols(0) if k) == 1, "a pair counts as one symbol"
    assert s.phase == "play" and s.current_player() == 1


def test_pair_with_no_token_left():
    """R-SCI-2: if no progress token is left on the board, the pair gives nothing and the turn
    passes."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=10, city=["Scriptorium"]),
              board_tokens=[])
    act(s, build("Library"))
    assert s.phase == "play" and s.current_player() == 1
    assert s.progress_tokens(0) == []


def test_pair_token_is_chosen_before_the_reveal():
    """R-SCI-2, R-TURN-2: P1 takes the last card covering a face-down card and makes a pair:
    the token is chosen first (no chance node yet); only then is the card turned face up, and
    then the turn passes."""
    lay = layout(1, {0: "Theater", 1: "Altar", 6: "Apothecary", 7: "Tavern", 8: "Baths"})
    s = state(age=1, layout=lay, explicit=True, board_tokens=BOARD,
              p1=player(coins=20, city=["School"]))
    assert lay[2] == "face_down"
    act(s, build("Apothecary"))
    assert s.phase == "choose_token"
    assert not s.is_chance_node()
    assert s.to_dict()["layout"][2] == "face_down"
    act(s, token("Law"))
    assert s.is_chance_node() and s.phase == "reveal"
    act(s, reveal("Stable"))
    assert s.phase == "play" and s.current_player() == 1
    assert s.to_dict()["layout"][2] == "Stable"
    assert "Stable" in card_names(s.available_cards())


def test_six_different_symbols_win():
    """R-SCI-3, E7: a player who holds 6 different science symbols wins at once (Scientific
    Supremacy), here with the 6th green card."""
    s = state(age=3, avail=["Observatory", "Palace"], p1=player(coins=20, city=FIVE))
    assert sum(1 for k in s.science_symbols(0) if k) == 5
    act(s, build("Observatory"))
    assert s.is_terminal()
    r = s.result()
    assert (r["winner"], r["victory"]) == (0, "scientific")
    assert s.returns() == [1.0, -1.0]


def test_six_symbols_for_p2():
    """R-SCI-3: Scientific Supremacy works for P2 as well."""
    s = state(age=3, avail=["Observatory", "Palace"], to_move=1, p2=player(coins=20, city=FIVE))
    act(s, build("Observatory"))
    assert (s.result()["winner"], s.result()["victory"]) == (1, "scientific")


def test_five_symbols_and_a_pair_do_not_win():
    """R-SCI-3, E7: a pair counts as one symbol: 5 different symbols and a pair is not 6."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=20, city=FIVE),
              board_tokens=["Philosophy"])
    act(s, build("Library"))
    assert not s.is_terminal()
    assert s.phase == "choose_token"


def test_law_as_sixth_symbol_from_a_pair():
    """R-SCI-3, R-SCI-1: Law is a science symbol: with 5 different symbols, a pair that hands
    the player Law (the 6th symbol) wins at once."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=20, city=FIVE),
              board_tokens=["Law", "Philosophy"])
    act(s, build("Library"), token("Law"))
    assert s.is_terminal()
    assert (s.result()["winner"], s.result()["victory"]) == (0, "scientific")
    assert s.science_symbols(0)[sym("law")] == 1


def test_law_held_counts_toward_six():
    """R-SCI-3: a player who owns Law and 4 card symbols wins with the 5th card symbol."""
    s = state(age=3, avail=["Observatory", "Palace"],
              p1=player(coins=20, city=FIVE[:4], tokens=["Law"]))
    act(s, build("Observatory"))
    assert (s.result()["winner"], s.result()["victory"]) == (0, "scientific")


def test_law_from_the_great_library_as_sixth_symbol():
    """R-SCI-3, R-WONDER-6: Law drawn and kept from The Great Library as the 6th symbol wins
    at once."""
    s = state(age=1, avail=["Theater", "Altar"], explicit=True,
              p1=player(coins=30, city=FIVE, wonders=["The Great Library"]),
              aside_tokens=["Law", "Economy", "Theology", "Masonry", "Strategy"])
    act(s, wonder("The Great Library", "Theater"))
    assert s.phase == "library_draw"
    act(s, chance_token("Law"), chance_token("Economy"), chance_token("Theology"))
    assert s.phase == "library"
    act(s, token("Law"))
    assert s.is_terminal()
    assert (s.result()["winner"], s.result()["victory"]) == (0, "scientific")


def test_law_not_sixth_does_not_win():
    """R-SCI-3: Law with 4 card symbols is 5 different symbols: the game goes on."""
    s = state(age=2, avail=["Library", "Rostrum"], p1=player(coins=20, city=FIVE[:4][::-1]),
              board_tokens=["Law"])
    # FIVE[:4] holds quill (Scriptorium): Library makes a pair
    act(s, build("Library"), token("Law"))
    assert not s.is_terminal()
    assert sum(1 for k in s.science_symbols(0) if k) == 5


def test_pair_token_before_play_again_and_end_of_age():
    """R-SCI-2: the pair's token is chosen before the end of the Age: P1's Library as the last
    card of Age II makes a pair; P1 chooses a token, then Age III is dealt."""
    s = state(age=2, avail=["Library"], p1=player(coins=10, city=["Scriptorium"]),
              board_tokens=BOARD)
    act(s, build("Library"))
    assert s.phase == "choose_token" and s.age == 2
    act(s, token("Agriculture"))
    assert s.age == 3
    assert s.coins(0) == 10 + 6


def test_pair_from_a_mausoleum_build():
    """R-SCI-2, R-WONDER-5: a green card built from the discard pile by The Mausoleum makes a
    pair and grants a token."""
    s = state(age=1, avail=["Theater", "Altar"], discard_pile=["Library"],
              p1=player(coins=30, city=["Scriptorium"], wonders=["The Mausoleum"]),
              p2=player(coins=7), board_tokens=["Philosophy", "Law"])
    act(s, wonder("The Mausoleum", "Theater"))
    assert s.phase == "revive"
    act(s, revive("Library"))
    assert s.phase == "choose_token" and s.current_player() == 0
    act(s, token("Philosophy"))
    assert token_names(s.progress_tokens(0)) == ["Philosophy"]
    assert s.current_player() == 1


def test_scientific_supremacy_from_a_mausoleum_build():
    """R-SCI-3, R-WONDER-5: the 6th different symbol from a card built by The Mausoleum wins
    at once."""
    s = state(age=1, avail=["Theater", "Altar"], discard_pile=["Observatory"],
              p1=player(coins=30, city=FIVE, wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Theater"), revive("Observatory"))
    assert (s.result()["winner"], s.result()["victory"]) == (0, "scientific")


def test_pair_token_before_play_again():
    """R-SCI-2, R-WONDER-2: the pair's token is chosen before Play Again: The Mausoleum built
    while owning Theology revives Library (a pair with Scriptorium): token first, then the same
    player plays again."""
    s = state(age=2, avail=["Rostrum", "Courthouse", "Temple"], discard_pile=["Library"],
              board_tokens=["Philosophy"],
              p1=player(coins=30, city=["Scriptorium"], wonders=["The Mausoleum"],
                        tokens=["Theology"]))
    act(s, wonder("The Mausoleum", "Rostrum"), revive("Library"))
    assert s.phase == "choose_token" and s.current_player() == 0
    act(s, token("Philosophy"))
    assert s.phase == "play" and s.current_player() == 0
