"""Setup and chance: R-SETUP-1..7, R-CHANCE-1, R-CHANCE-2 (guild backs), worked example E8 (the
wonder draft)."""
import random

import pytest

import duelcore
from rules_helpers import (
    AGE_CARDS, GUILDS, L, LAYOUT_FACE_DOWN, TOKEN_NAMES, WONDER_NAMES, act,
    chance_first, chance_token, chance_wonder, discard, guild_back, pick, reveal,
    resolve_chance, state,
)


def _wonders_of(s, p):
    return sorted(WONDER_NAMES[w] for w, _ in s.wonders(p))


def test_start_coins():
    """R-SETUP-1: each player starts with 7 coins."""
    s = duelcore.new_game(5)
    assert (s.coins(0), s.coins(1)) == (7, 7)


def test_start_pawn_and_military_tokens():
    """R-SETUP-2: the Conflict pawn starts on the centre (0); the four military tokens are on
    the track (a 2-coin and a 5-coin token on each side)."""
    s = duelcore.new_game(5)
    assert s.pawn == 0
    assert s.to_dict()["military_tokens"] == [[2, 5], [2, 5]]


def test_five_board_tokens_at_random():
    """R-SETUP-3, R-CHANCE-1: 5 of the 10 progress tokens are drawn at random (uniformly) and
    laid on the board; the other 5 are set aside."""
    s = duelcore.new_game(5, explicit_chance=True)
    assert s.phase == "setup_tokens" and s.is_chance_node()
    assert s.current_player() == duelcore.CHANCE_PLAYER
    chosen = ["Law", "Economy", "Urbanism", "Theology", "Masonry"]
    for k, t in enumerate(chosen):
        outs = s.chance_outcomes()
        assert len(outs) == 10 - k
        assert all(abs(p - 1 / (10 - k)) < 1e-12 for _, p in outs)
        assert chance_token(t) in [a for a, _ in outs]
        act(s, chance_token(t))
    d = s.to_dict()
    assert sorted(d["board_tokens"]) == sorted(chosen)
    assert sorted(d["aside_tokens"]) == sorted(set(TOKEN_NAMES) - set(chosen))
    assert s.phase == "draft_reveal"


def test_first_player_at_random():
    """R-SETUP-4, R-CHANCE-1: P1 is chosen at random: a chance node with two outcomes of
    probability 1/2; the chosen player picks first in the draft and begins Age I."""
    s = duelcore.new_game(5, first_player=None, explicit_chance=True)
    assert s.phase == "setup_first_player"
    assert sorted(s.chance_outcomes()) == [(chance_first(0), 0.5), (chance_first(1), 0.5)]
    act(s, chance_first(1))
    assert s.first_player == 1
    rng = random.Random(0)
    resolve_chance(s, rng)
    assert s.phase == "draft" and s.current_player() == 1
    while s.phase != "play":
        s.apply_action(s.legal_actions()[0])
        resolve_chance(s, rng)
    assert s.age == 1 and s.current_player() == 1


@pytest.mark.parametrize("first", [0, 1])
def test_e8_wonder_draft(first):
    """R-SETUP-5, E8 (seed 001), R-CHANCE-1: 4 of the 12 wonders are revealed at random; P1
    takes 1, P2 takes 2, P1 takes the last (forced); 4 more are revealed; P2 takes 1, P1 takes
    2, P2 takes the last.  Each player has 4 wonders; the other 4 take no part."""
    p1, p2 = first, 1 - first
    s = duelcore.new_game(9, first_player=first, explicit_chance=True)
    for t in ("Law", "Economy", "Urbanism", "Theology", "Masonry"):
        act(s, chance_token(t))
    group1 = ["The Pyramids", "The Colossus", "The Sphinx", "Piraeus"]
    for k, w in enumerate(group1):
        assert s.phase == "draft_reveal"
        outs = s.chance_outcomes()
        assert len(outs) == 12 - k and all(abs(p - 1 / (12 - k)) < 1e-12 for _, p in outs)
        act(s, chance_wonder(w))
    assert s.phase == "draft"
    assert sorted(s.legal_actions()) == sorted(pick(w) for w in group1)
    assert s.current_player() == p1
    act(s, pick("The Sphinx"))
    assert s.current_player() == p2
    act(s, pick("Piraeus"))
    assert s.current_player() == p2, "P2 takes 2 (two consecutive picks)"
    act(s, pick("The Pyramids"))
    # P1 takes the last one (forced): no decision, the next group is revealed
    assert s.phase == "draft_reveal"
    assert _wonders_of(s, p1) == ["The Colossus", "The Sphinx"]
    assert _wonders_of(s, p2) == ["Piraeus", "The Pyramids"]
    group2 = ["The Mausoleum", "The Appian Way", "Circus Maximus", "The Great Library"]
    for k, w in enumerate(group2):
        outs = s.chance_outcomes()
        assert len(outs) == 8 - k, "drawn from the 8 wonders not yet revealed"
        assert not {a for a, _ in outs} & {chance_wonder(x) for x in group1}
        act(s, chance_wonder(w))
    assert s.phase == "draft" and s.current_player() == p2
    act(s, pick("The Appian Way"))
    assert s.current_player() == p1
    act(s, pick("The Mausoleum"))
    assert s.current_player() == p1
    act(s, pick("Circus Maximus"))
    assert _wonders_of(s, p1) == ["Circus Maximus", "The Colossus", "The Mausoleum",
                                  "The Sphinx"]
    assert _wonders_of(s, p2) == ["Piraeus", "The Appian Way", "The Great Library",
                                  "The Pyramids"]
    # Age I is dealt, then P1 begins (R-AGE-2)
    assert s.phase == "reveal" and s.age == 1
    resolve_chance(s, random.Random(1))
    assert s.phase == "play" and s.current_player() == p1


@pytest.mark.parametrize("first", [0, 1])
def test_first_game_wonders(first):
    """R-SETUP-7: the option of the rulebook's first-game wonder sets skips the draft: P1 has
    The Pyramids, The Great Lighthouse, The Temple of Artemis, The Statue of Zeus; P2 Circus
    Maximus, Piraeus, The Appian Way, The Colossus."""
    s = duelcore.new_game(3, first_player=first, first_game_wonders=True)
    assert s.phase == "play" and s.age == 1 and s.current_player() == first
    assert _wonders_of(s, first) == sorted(["The Pyramids", "The Great Lighthouse",
                                            "The Temple of Artemis", "The Statue of Zeus"])
    assert _wonders_of(s, 1 - first) == sorted(["Circus Maximus", "Piraeus", "The Appian Way",
                                                "The Colossus"])


def test_draft_is_the_default():
    """R-SETUP-7: the first-game sets are an option, not the default: a new game starts with
    the draft."""
    assert duelcore.new_game(3).phase == "draft"


def _discard_game(seed):
    """A game (sampled chance) where every turn discards the first available card: all three
    Ages are played out.  Returns the 20 cards laid out in each Age."""
    s = duelcore.new_game(seed, first_player=None)
    rng = random.Random(seed)
    seen = {1: set(), 2: set(), 3: set()}
    while not s.is_terminal():
        if s.age:
            for c in s.to_dict()["layout"]:
                if c not in (None, "face_down", "face_down_guild"):
                    seen[s.age].add(c)
        acts = s.legal_actions()
        if s.phase == "play":
            acts = [a for a in acts if L["DISCARD_BASE"] <= a < L["WONDER_BASE"]]
        s.apply_action(rng.choice(acts))
    # the last card of Age III was seen before it was taken
    return seen, s


def test_each_age_lays_out_20_cards_with_3_guilds_in_age_3():
    """R-SETUP-6, R-CHANCE-1: 3 cards of each Age's deck are removed unseen (Age I 23 -> 20,
    Age II 23 -> 20, Age III 20 -> 17) and exactly 3 of the 7 guilds join Age III: each Age
    lays out exactly 20 cards; which cards are removed varies from game to game; removed cards
    never reach the discard pile."""
    removed = {1: set(), 2: set(), 3: set()}
    guilds_used = set()
    for seed in range(12):
        seen, s = _discard_game(seed)
        assert len(seen[1]) == 20 and seen[1] <= set(AGE_CARDS[1])
        assert len(seen[2]) == 20 and seen[2] <= set(AGE_CARDS[2])
        assert len(seen[3]) == 20
        g = seen[3] & set(GUILDS)
        assert len(g) == 3
        assert len(seen[3] - g) == 17 and seen[3] - g <= set(AGE_CARDS[3])
        guilds_used |= g
        for a in (1, 2, 3):
            removed[a] |= set(AGE_CARDS[a]) - seen[a]
        assert len(s.discard_pile()) == 60, "only the 60 cards laid out were discarded"
    assert all(len(removed[a]) > 3 for a in (1, 2, 3)), "the removed cards vary"
    assert len(guilds_used) > 3, "the guilds vary"


def test_age_1_dealing_is_uniform():
    """R-CHANCE-1, R-SETUP-6: each card dealt face up for Age I comes uniformly from the Age I
    cards not yet seen (23 at first, then 22...)."""
    s = duelcore.new_game(1, first_game_wonders=True, explicit_chance=True)
    for t in ("Law", "Economy", "Urbanism", "Theology", "Masonry"):
        act(s, chance_token(t))
    assert s.phase == "reveal" and s.age == 1
    outs = s.chance_outcomes()
    assert sorted(a for a, _ in outs) == sorted(reveal(c) for c in AGE_CARDS[1])
    assert all(abs(p - 1 / 23) < 1e-12 for _, p in outs)
    act(s, reveal("Tavern"))
    outs = s.chance_outcomes()
    assert len(outs) == 22 and reveal("Tavern") not in [a for a, _ in outs]
    assert all(abs(p - 1 / 22) < 1e-12 for _, p in outs)


def _age_3_guild_placement():
    """An explicit-chance position at the start of Age III, before the guild backs are placed."""
    s = state(age=2, avail=["Rostrum"], explicit=True)
    act(s, discard("Rostrum"))
    return s


def test_guild_backs_are_placed_when_age_3_is_laid_out():
    """R-CHANCE-2, R-SETUP-6, R-AGE-1: when Age III is laid out, chance first places the 3 guild
    backs, one slot at a time, uniformly over the slots not yet chosen (1/20, 1/19, 1/18: every
    set of 3 slots has probability 1/C(20,3)); only then are the face-up cards dealt."""
    s = _age_3_guild_placement()
    assert s.phase == "guilds" and s.age == 3 and s.guild_slots() == []
    chosen = []
    for slot, n in ((17, 20), (2, 19), (9, 18)):
        outs = s.chance_outcomes()
        assert sorted(a for a, _ in outs) == [guild_back(x) for x in range(20) if x not in chosen]
        assert all(p == pytest.approx(1 / n) for _, p in outs)
        assert s.action_to_string(guild_back(slot)) == f"chance: guild back in slot {slot}"
        act(s, guild_back(slot))
        chosen.append(slot)
    assert s.phase == "reveal" and s.guild_slots() == [2, 9, 17]
    with pytest.raises(duelcore.IllegalActionError):
        s.clone().apply_action(guild_back(3))            # no 4th guild back


def test_guild_back_reveals_a_guild_and_other_backs_an_age_3_card():
    """R-CHANCE-2, R-CHANCE-1: a slot with a guild back reveals a guild drawn uniformly from the
    guilds not yet seen; any other slot an Age III card drawn uniformly from the Age III cards
    not yet seen; the probabilities sum to 1 and a guild can never come from an Age III back."""
    s = _age_3_guild_placement()
    act(s, guild_back(0), guild_back(1), guild_back(6))      # dealt face up: 0, 1, 5, 6, ...
    queue = s.to_dict()["reveal_queue"]
    assert queue[:4] == [0, 1, 5, 6]

    def outcomes():
        outs = dict(s.chance_outcomes())
        assert sum(outs.values()) == pytest.approx(1.0)
        assert len(set(outs.values())) == 1, "uniform"
        return {duelcore.action_to_string(a)[len("chance: reveal "):] for a in outs}

    guilds = set(GUILDS)
    assert outcomes() == guilds                                # slot 0: a guild back
    with pytest.raises(duelcore.IllegalActionError):
        s.clone().apply_action(reveal("Palace"))
    act(s, reveal("Builders Guild"))
    guilds.discard("Builders Guild")
    assert outcomes() == guilds                                # slot 1: the 6 unseen guilds
    act(s, reveal("Merchants Guild"))
    guilds.discard("Merchants Guild")
    age3 = set(AGE_CARDS[3])
    assert outcomes() == age3                                  # slot 5: an Age III back
    with pytest.raises(duelcore.IllegalActionError):
        s.clone().apply_action(reveal("Scientists Guild"))
    act(s, reveal("Palace"))
    age3.discard("Palace")
    assert outcomes() == guilds                                # slot 6: a guild back
    act(s, reveal("Scientists Guild"))
    assert outcomes() == age3                                  # slot 7: an Age III back


def test_guild_backs_are_public():
    """R-CHANCE-2, R-SETUP-6: both players see which face-down slots hold a guild: the position
    shows a guild back ("face_down_guild") where a guild lies face down and an Age back
    ("face_down") elsewhere; it round-trips through to_dict / state_from_dict."""
    s = _age_3_guild_placement()
    act(s, guild_back(3), guild_back(9), guild_back(16))      # 3, 9, 16 are dealt face down
    resolve_chance(s, random.Random(0))
    d = s.to_dict()
    assert d["guild_slots"] == [3, 9, 16] == s.guild_slots()
    face_down = set(LAYOUT_FACE_DOWN[3])
    for slot, entry in enumerate(d["layout"]):
        if slot in (3, 9, 16):
            assert entry == "face_down_guild"
        elif slot in face_down:
            assert entry == "face_down"
        else:
            assert entry in AGE_CARDS[3]
    assert duelcore.state_from_dict(d) == s


def test_guild_back_positions_are_uniform():
    """R-CHANCE-2, R-SETUP-6: sampled deals: over many games each of the 20 Age III slots holds
    a guild with probability 3/20 (chi-square test of the counts), always exactly 3 of them, and
    the 12 face-up cards dealt at the start of Age III hold 12 * 3/20 = 1.8 guilds on average."""
    scipy_stats = pytest.importorskip("scipy.stats")
    n = 2000
    counts = [0] * 20
    face_up_guilds = 0
    for seed in range(n):
        s = state(age=2, avail=["Rostrum"], rng=seed + 1)
        act(s, discard("Rostrum"))
        slots = s.guild_slots()
        assert len(slots) == 3
        for x in slots:
            counts[x] += 1
        layout = s.to_dict()["layout"]
        face_up_guilds += sum(1 for c in layout if c in GUILDS)
        assert all((c in GUILDS) == (i in slots) for i, c in enumerate(layout)
                   if c not in ("face_down", "face_down_guild", None))
    assert scipy_stats.chisquare(counts).pvalue > 1e-3
    assert abs(face_up_guilds / n - 1.8) < 0.1
