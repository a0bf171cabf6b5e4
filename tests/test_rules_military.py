"""Military: R-MIL-1..4, worked example E5, Military Supremacy (R-END-1)."""
import pytest

from rules_helpers import act, build, discard, player, state, wonder


def test_start_of_track():
    """R-SETUP-2, R-MIL-2: the pawn starts centred, with a 2-coin and a 5-coin token on each
    side of the track."""
    s = state(age=1, avail=["Guard Tower", "Palisade"])
    d = s.to_dict()
    assert d["pawn"] == 0
    assert d["military_tokens"] == [[2, 5], [2, 5]]


def test_each_shield_moves_the_pawn_toward_the_opponent():
    """R-MIL-1: each shield moves the Conflict pawn one space toward the opponent's capital:
    P1's Guard Tower moves it to P2's side (+1), P2's Palisade moves it back (0)."""
    s = state(age=1, avail=["Guard Tower", "Palisade"])
    act(s, build("Guard Tower"))
    assert s.pawn == 1
    act(s, build("Palisade"))
    assert s.pawn == 0


def test_two_shields_move_two_spaces():
    """R-MIL-1: Walls shows 2 shields: the pawn moves 2 spaces (P2 pushes toward P1: -2)."""
    s = state(age=2, avail=["Walls", "Rostrum"], to_move=1, p2=player(coins=10))
    act(s, build("Walls"))
    assert s.pawn == -2


def test_e5_token_is_one_shot():
    """E5 (seed 001), R-MIL-2: the pawn stands 2 spaces into the opponent's side; one shield
    moves it to 3, entering the 2-coin zone for the first time: the opponent loses 2 coins and
    the token leaves the game.  The pawn falls back (P2's Walls) and enters again (P1's Parade
    Ground): that costs nothing."""
    s = state(age=2, avail=["Barracks", "Walls", "Parade Ground", "Rostrum"], pawn=2,
              p1=player(coins=30), p2=player(coins=7, city=["Quarry", "Stone Pit"]))
    act(s, build("Barracks"))
    assert s.pawn == 3
    assert s.coins(1) == 5
    assert s.to_dict()["military_tokens"] == [[2, 5], [5]]
    act(s, build("Walls"))
    assert s.pawn == 1
    act(s, build("Parade Ground"))
    assert s.pawn == 3
    assert s.coins(1) == 5, "re-entering the zone costs nothing"
    assert s.to_dict()["military_tokens"] == [[2, 5], [5]]


def test_token_loss_is_capped_at_the_coins_the_player_has():
    """R-MIL-2, R-SETUP-1: the opponent loses at most what they have (1 coin -> 0) and the
    token still leaves the game."""
    s = state(age=1, avail=["Guard Tower", "Theater"], pawn=2, p2=player(coins=1))
    act(s, build("Guard Tower"))
    assert s.coins(1) == 0
    assert s.to_dict()["military_tokens"] == [[2, 5], [5]]


def test_five_coin_token():
    """R-MIL-2: entering distance 6 (zone 6-8) for the first time costs the opponent 5 coins."""
    s = state(age=1, avail=["Guard Tower", "Theater"], pawn=5, military_tokens=[[2, 5], [5]],
              p2=player(coins=9))
    act(s, build("Guard Tower"))
    assert s.pawn == 6
    assert s.coins(1) == 4
    assert s.to_dict()["military_tokens"] == [[2, 5], []]


@pytest.mark.parametrize("coins,left", [(10, 3), (4, 0)])
def test_two_tokens_in_one_push(coins, left):
    """R-MIL-2: one move can cross and trigger both tokens of a side: from 2 to 6 (Arsenal's 3
    shields + 1 from Strategy) the opponent loses 2 + 5 coins (at most what they have)."""
    s = state(age=3, avail=["Arsenal", "Palace"], pawn=2,
              p1=player(coins=30, tokens=["Strategy"]), p2=player(coins=coins))
    act(s, build("Arsenal"))
    assert s.pawn == 6
    assert s.coins(1) == left
    assert s.to_dict()["military_tokens"] == [[2, 5], []]


def test_tokens_on_p1_side():
    """R-MIL-2: the tokens on P1's side are lost by P1 when P2's shields push the pawn there."""
    s = state(age=3, avail=["Arsenal", "Palace"], pawn=-2, to_move=1,
              p1=player(coins=7), p2=player(coins=30))
    act(s, build("Arsenal"))
    assert s.pawn == -5
    assert s.coins(0) == 5
    assert s.to_dict()["military_tokens"] == [[5], [2, 5]]


def test_moving_within_own_side_costs_nothing():
    """R-MIL-2: only entering a zone on the opponent's side with its token takes coins: P1
    pushing the pawn from -4 (P1's side) to -1 costs nobody anything."""
    s = state(age=3, avail=["Arsenal", "Palace"], pawn=-4, military_tokens=[[5], [2, 5]],
              p1=player(coins=30), p2=player(coins=7))
    act(s, build("Arsenal"))
    assert s.pawn == -1
    assert (s.coins(0), s.coins(1)) == (30 - 10, 7)


def test_military_supremacy():
    """R-MIL-3, R-END-1: when the pawn reaches the opponent's capital (9) the pusher wins at
    once: the game is over with a military victory."""
    s = state(age=1, avail=["Guard Tower", "Theater"], pawn=8, military_tokens=[[2, 5], []])
    act(s, build("Guard Tower"))
    assert s.pawn == 9
    assert s.is_terminal()
    r = s.result()
    assert (r["winner"], r["victory"]) == (0, "military")
    assert s.returns() == [1.0, -1.0]
    assert s.legal_actions() == []


def test_push_to_the_capital_loots_the_tokens_it_passes():
    """R-MIL-2, R-MIL-3 (issue 9's example): the pawn at +5 (the 2-coin token of P2's side
    already gone), P2 holding 7 coins, P1 owning Strategy builds Pretorium (3 shields + 1): the
    pawn moves one space at a time, passes the 5-coin zone and loots its token before reaching
    P2's capital, so P1 wins by Military Supremacy and P2 ends with 2 coins."""
    s = state(age=3, avail=["Pretorium", "Palace"], pawn=5, military_tokens=[[2, 5], [5]],
              p1=player(coins=30, tokens=["Strategy"]), p2=player(coins=7))
    act(s, build("Pretorium"))
    assert s.pawn == 9 and s.is_terminal()
    assert (s.result()["winner"], s.result()["victory"]) == (0, "military")
    assert s.coins(1) == 2
    assert s.to_dict()["military_tokens"] == [[2, 5], []]


def test_military_supremacy_by_p2_overshooting():
    """R-MIL-3: P2's Arsenal (3 shields) from -7 reaches P1's capital; the pawn stops there."""
    s = state(age=3, avail=["Arsenal", "Palace"], pawn=-7, to_move=1,
              military_tokens=[[], [2, 5]], p2=player(coins=30))
    act(s, build("Arsenal"))
    assert s.pawn == -9
    assert (s.result()["winner"], s.result()["victory"]) == (1, "military")
    assert s.returns() == [-1.0, 1.0]


def test_military_supremacy_before_anything_else():
    """R-MIL-3, R-WONDER-2: The Statue of Zeus's shield reaching the capital ends the game at
    once: no card of the opponent is destroyed, no Play Again, no token choice."""
    s = state(age=1, avail=["Theater", "Altar"], pawn=8, military_tokens=[[2, 5], []],
              p1=player(coins=20, wonders=["The Statue of Zeus"]),
              p2=player(city=["Lumber Yard"]))
    act(s, wonder("The Statue of Zeus", "Theater"))
    assert s.is_terminal()
    assert s.result()["victory"] == "military"
    assert s.to_dict()["discard_pile"] == []


def test_military_supremacy_on_last_card_of_age():
    """R-MIL-3, R-END-1: Military Supremacy with the last card of an Age still wins at once
    (the next Age is not dealt)."""
    s = state(age=1, avail=["Guard Tower"], pawn=8, military_tokens=[[2, 5], []])
    act(s, build("Guard Tower"))
    assert s.is_terminal() and s.age == 1
    assert s.result()["victory"] == "military"


@pytest.mark.parametrize("pawn,vp", [
    (0, [0, 0]), (1, [2, 0]), (2, [2, 0]), (3, [5, 0]), (5, [5, 0]), (6, [10, 0]), (8, [10, 0]),
    (-1, [0, 2]), (-2, [0, 2]), (-3, [0, 5]), (-5, [0, 5]), (-6, [0, 10]), (-8, [0, 10]),
])
def test_military_vp(pawn, vp):
    """R-MIL-4: the player whose military leads scores 2 VP at distance 1-2, 5 VP at 3-5 and 10
    VP at 6-8; the other scores 0; a centred pawn scores 0 for both."""
    s = state(age=1, avail=["Theater", "Altar"], pawn=pawn, military_tokens=[[], []])
    assert s.vp()["military"] == vp


def test_military_vp_at_the_end_of_the_game():
    """R-MIL-4, R-END-2: at the end of Age III the military VP count for the civilian victory:
    P2 leads by 3 (5 VP) and wins 5 + 0 to 0 + 0 (coins 2 each: 0 VP)."""
    s = state(age=3, avail=["Palace"], pawn=-3, military_tokens=[[5], [2, 5]],
              p1=player(coins=2), p2=player(coins=0))
    act(s, discard("Palace"))      # P1 takes 2 + 0 coins: 4 coins, 1 VP
    r = s.result()
    assert r["vp"]["military"] == [0, 5]
    assert r["total"] == [1, 5]
    assert (r["winner"], r["victory"]) == (1, "civilian")


def test_wonder_shields_do_not_count_strategy():
    """R-MIL-1, R-SCI-4: The Colossus moves the pawn 2 spaces, even for an owner of Strategy."""
    s = state(age=1, avail=["Theater", "Altar"],
              p1=player(coins=20, tokens=["Strategy"], wonders=["The Colossus"]))
    act(s, wonder("The Colossus", "Theater"))
    assert s.pawn == 2


def test_military_supremacy_from_a_mausoleum_build():
    """R-MIL-3, R-WONDER-5: a red card built by The Mausoleum can reach the capital: the
    builder wins at once."""
    from rules_helpers import revive
    s = state(age=1, avail=["Theater", "Altar"], pawn=7, military_tokens=[[2, 5], []],
              discard_pile=["Walls"], p1=player(coins=30, wonders=["The Mausoleum"]))
    act(s, wonder("The Mausoleum", "Theater"), revive("Walls"))
    assert s.pawn == 9
    assert (s.result()["winner"], s.result()["victory"]) == (0, "military")


def test_push_across_the_centre_into_a_zone():
    """R-MIL-1, R-MIL-2: a push from P1's side across the centre (-1 to 3, Arsenal + Strategy)
    enters P2's 2-coin zone: P2 loses 2 coins."""
    s = state(age=3, avail=["Arsenal", "Palace"], pawn=-1,
              p1=player(coins=30, tokens=["Strategy"]), p2=player(coins=7))
    act(s, build("Arsenal"))
    assert s.pawn == 3
    assert s.coins(1) == 5
    assert s.to_dict()["military_tokens"] == [[2, 5], [5]]
