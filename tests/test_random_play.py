"""Random play (issue 2 item 9): thousands of games with uniformly random legal decisions,
every invariant checked after every action.

After each action (:func:`play_helpers.play_checked`): the engine's ``check()``; each of the 73
cards in at most one place and the cards seen of each Age adding up (R-SETUP-6); coins >= 0
(R-SETUP-1); the pawn within -9..9 (R-MIL); the legal actions sorted, unique, non-empty unless
terminal and each accepted on a clone; a clone equal and independent; ``to_dict`` ->
``state_from_dict`` and pickle round trips; at the end a valid result (R-END) within
``MAX_DECISIONS`` decisions.  Failures are collected per check over all games and reported
together, each with a repro.

Set ``DUEL_RANDOM_GAMES`` to change the number of games of the default run.
"""
from __future__ import annotations

import os
import random

import pytest

import duelcore
from duelcore import new_game
from play_helpers import (
    CARD_AGE, CARD_ID, CARD_NAMES, GUILDS, L, MAX_DECISIONS, OPTION_SETS, TOKEN_ID, WONDER_ID,
    FIRST_GAME_WONDERS, Failures, check_chance_distribution, debug_build, play_checked,
    play_random, sample_chance,
)

N_GAMES = int(os.environ.get("DUEL_RANDOM_GAMES", "500"))
N_SLOW_GAMES = 20_000


def run_games(seeds, options, failures=None, **kw):
    """Play and check the games; fail with every kind of failure found (unless ``failures`` is
    given: then only collect)."""
    collect = failures is not None
    failures = failures if collect else Failures()
    for seed in seeds:
        play_checked(seed, options, failures, **kw)
    if not collect:
        assert not failures, f"\n{failures.report()}"


# ---------------------------------------------------------------- the main runs
def test_random_play():
    """500 games with the default options (DUEL_RANDOM_GAMES; 20,000 in the slow run), every
    check after every action."""
    run_games(range(N_GAMES), {})


OPTION_CASES = [k for k in OPTION_SETS if k != "default"]
EXPLICIT_CASES = ["default", "all_options"] + [k for k in ("treatments",) if k in OPTION_SETS]


@pytest.mark.parametrize("name", OPTION_CASES)
def test_random_play_with_options(name):
    """A few hundred games over the option sets (R-SETUP-4, R-AGE-3, R-SETUP-7, R-SETUP-1)."""
    run_games(range(10_000, 10_000 + 50), OPTION_SETS[name])


@pytest.mark.parametrize("name", EXPLICIT_CASES)
def test_random_play_explicit_chance(name):
    """explicit_chance=True: the test samples every chance outcome itself from
    ``chance_outcomes()`` (whose probabilities must be > 0 and sum to 1)."""
    options = dict(OPTION_SETS[name], explicit_chance=True)
    run_games(range(20_000, 20_000 + 80), options)


def test_random_play_debug_smoke():
    """A short run (200 games, a quarter of them in explicit mode), for the debug build
    (``DUEL_DEBUG=1``: the engine checks its state after every action and aborts on a fault)."""
    print(f"duelcore.engine.DEBUG = {debug_build()}")
    failures = Failures()
    for seed in range(150):
        play_checked(50_000 + seed, {}, failures, try_all=False)
    for seed in range(50):
        play_checked(60_000 + seed, {"explicit_chance": True}, failures, try_all=False)
    assert not failures, f"\n{failures.report()}"


@pytest.mark.slow
def test_random_play_many():
    """20,000+ games: default options, then every option set and explicit chance."""
    failures = Failures()
    run_games(range(100_000, 100_000 + N_SLOW_GAMES), {}, failures, try_all=False)
    for i, name in enumerate(OPTION_SETS):
        run_games(range(200_000 + 1000 * i, 200_000 + 1000 * i + 500), OPTION_SETS[name],
                  failures, try_all=False)
        run_games(range(300_000 + 1000 * i, 300_000 + 1000 * i + 300),
                  dict(OPTION_SETS[name], explicit_chance=True), failures, try_all=False)
    assert not failures, f"\n{failures.report()}"


# ---------------------------------------------------------------- determinism
@pytest.mark.parametrize("name", ["default", "all_options"])
def test_same_seed_same_decisions_same_game(name):
    """Same seed and same decisions: same game, state by state (auto chance mode)."""
    options = OPTION_SETS[name]
    for seed in range(150):
        rng = random.Random(seed)
        state = new_game(seed, **options)
        decisions, states = [], [state.clone()]
        while not state.is_terminal():
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            decisions.append(a)
            states.append(state.clone())
        replay = new_game(seed, **options)
        assert replay == states[0]
        for k, a in enumerate(decisions):
            replay.apply_action(a)
            assert replay == states[k + 1], f"seed {seed}: replay differs after {decisions[:k + 1]}"
            assert replay.to_dict() == states[k + 1].to_dict()
        assert replay.result() == state.result()


def test_seed_changes_the_game():
    """Different seeds deal different games (the seed reaches the chance nodes)."""
    deals = {repr([new_game(seed).to_dict()[k] for k in ("draft", "board_tokens")])
             for seed in range(50)}
    assert len(deals) > 40


def test_explicit_game_with_its_own_rng_is_reproducible():
    """explicit_chance: the same actions (decisions and chance outcomes) give the same game."""
    for seed in range(30):
        state, history = play_random(seed, random.Random(seed), explicit_chance=True)
        replay = new_game(seed, explicit_chance=True)
        for a in history:
            replay.apply_action(a)
        assert replay == state


# ---------------------------------------------------------------- explicit == auto
def _guided_outcomes(expl, target):
    """The chance outcomes at ``expl`` that lead towards ``target`` (the auto-mode state at its
    next decision), read from ``target.to_dict()``.  Several when the order is free (tokens,
    wonders, the Great Library draw, the guild backs are sets)."""
    de, dt = expl.to_dict(), target.to_dict()
    phase = de["phase"]
    if phase == "setup_first_player":
        return {L["CHANCE_FIRST_BASE"] + dt["first_player"]}
    if phase == "setup_tokens":
        return {L["CHANCE_TOKEN_BASE"] + TOKEN_ID[x]
                for x in set(dt["board_tokens"]) - set(de["board_tokens"])}
    if phase == "draft_reveal":
        return {L["CHANCE_WONDER_BASE"] + WONDER_ID[x]
                for x in set(dt["draft"]["revealed"]) - set(de["draft"]["revealed"])}
    if phase == "library_draw":
        return {L["CHANCE_TOKEN_BASE"] + TOKEN_ID[x]
                for x in set(dt["library_offer"]) - set(de["library_offer"])}
    if phase == "guilds":
        return {L["CHANCE_SLOT_BASE"] + x
                for x in set(dt["guild_slots"]) - set(de["guild_slots"])}
    assert phase == "reveal", phase
    assert dt["age"] == de["age"]
    slot = de["reveal_queue"][0]
    return {L["CHANCE_CARD_BASE"] + CARD_ID[dt["layout"][slot]]}


def _decision_view(state):
    d = state.to_dict()
    d.pop("rng")
    d["options"].pop("explicit_chance")
    return d


@pytest.mark.parametrize("name", EXPLICIT_CASES)
def test_explicit_mode_with_the_same_chance_outcomes_matches_auto_mode(name):
    """A game played in explicit mode, applying the chance outcomes that the auto game drew,
    passes through the same decision states (all but the RNG and the mode flag)."""
    options = OPTION_SETS[name]
    for seed in range(150):
        rng = random.Random(seed)
        auto = new_game(seed, **options)
        expl = new_game(seed, explicit_chance=True, **options)
        decisions = []
        while True:
            while expl.is_chance_node():
                wanted = _guided_outcomes(expl, auto)
                probs = dict(expl.chance_outcomes())
                ok = sorted(a for a in wanted if probs.get(a, 0) > 0)
                assert ok, (f"seed {seed} after {decisions}: auto mode drew {sorted(wanted)}, "
                            f"not among the outcomes {probs}")
                a = ok[0]
                expl.apply_action(a)
            assert _decision_view(expl) == _decision_view(auto), f"seed {seed} after {decisions}"
            assert expl.legal_actions() == auto.legal_actions()
            assert expl.current_player() == auto.current_player()
            if auto.is_terminal():
                assert expl.is_terminal() and expl.result() == auto.result()
                break
            a = rng.choice(auto.legal_actions())
            decisions.append(a)
            auto.apply_action(a)
            expl.apply_action(a)


# ---------------------------------------------------------------- chance distribution
def _age3_reveal_nodes(n_games=40):
    """Age III reveal nodes of explicit games (chance sampled by the test)."""
    for seed in range(n_games):
        rng = random.Random(seed)
        state = new_game(seed, explicit_chance=True)
        while not state.is_terminal():
            if state.is_chance_node():
                if state.phase == "reveal" and state.age == 3:
                    yield seed, state
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_chance_outcomes_are_a_distribution():
    """Every chance node lists outcomes of probability > 0 summing to 1 (R-CHANCE-1)."""
    for seed, state in _age3_reveal_nodes(10):
        check_chance_distribution(state)
    for seed in range(10):
        rng = random.Random(seed)
        state = new_game(seed, explicit_chance=True, first_player=None)
        while not state.is_terminal():
            if state.is_chance_node():
                check_chance_distribution(state)
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_guild_backs_decide_what_a_reveal_can_show():
    """R-SETUP-6, R-CHANCE-2: exactly 3 guilds in Age III, on the slots with a guild back.  At
    every Age III reveal of random games, a guild-back slot offers exactly the unseen guilds and
    any other slot exactly the unseen Age III cards, uniformly; a guild revealed on an Age back
    (or an Age III card on a guild back) is refused and leaves the state unchanged."""
    checked = 0
    base = L["CHANCE_CARD_BASE"]
    for seed, state in _age3_reveal_nodes():
        d = state.to_dict()
        seen = {c for pd in d["players"] for c in pd["city"]} | set(d["discard_pile"]) \
            | {w["card"] for pd in d["players"] for w in pd["wonders"] if w["card"]} \
            | {x for x in d["layout"] if x not in (None, "face_down", "face_down_guild")}
        slot = d["reveal_queue"][0]
        guild_back = slot in d["guild_slots"]
        assert d["layout"][slot] == ("face_down_guild" if guild_back else "face_down")
        pool = set(GUILDS) if guild_back else {c for c in CARD_NAMES if CARD_AGE[c] == 3
                                                and c not in GUILDS}
        outcomes = state.chance_outcomes()
        assert {CARD_NAMES[a - base] for a, _ in outcomes} == pool - seen, f"seed {seed}"
        assert all(abs(p - 1 / len(outcomes)) < 1e-12 for _, p in outcomes)
        wrong = next(iter((set(CARD_NAMES[66:]) if not guild_back else
                           {c for c in CARD_NAMES if CARD_AGE[c] == 3 and c not in GUILDS})
                          - seen))
        before = state.clone()
        with pytest.raises(duelcore.IllegalActionError):
            state.apply_action(base + CARD_ID[wrong])
        assert state == before
        checked += 1
    assert checked > 100


def test_first_game_wonders_option():
    """R-SETUP-7: the rulebook's first-game wonder sets, no draft."""
    for seed in range(20):
        for fp in (0, 1):
            d = new_game(seed, first_game_wonders=True, first_player=fp).to_dict()
            assert d["age"] == 1 and d["phase"] == "play" and d["to_move"] == fp
            assert {w["name"] for w in d["players"][fp]["wonders"]} == FIRST_GAME_WONDERS[0]
            assert {w["name"] for w in d["players"][1 - fp]["wonders"]} == FIRST_GAME_WONDERS[1]


def test_start_coins_option():
    for c0, c1 in ((7, 10), (0, 0), (12, 3)):
        d = new_game(1, start_coins=(c0, c1)).to_dict()
        assert [p["coins"] for p in d["players"]] == [c0, c1]


def test_games_are_bounded():
    """No game needs more than MAX_DECISIONS decisions (also checked in every run)."""
    longest = 0
    for seed in range(300):
        state, history = play_random(seed, random.Random(seed))
        longest = max(longest, state.n_decisions)
    assert longest <= MAX_DECISIONS


def test_auto_mode_chance_frequencies():
    """The seeded sampler follows R-CHANCE-1: P1 drawn 50/50, each token on the board with
    probability 5/10, each Age I card face up in the first layout with probability 12/23
    (tolerance: 5 standard deviations)."""
    n = 4000
    firsts, tokens, dealt = 0, {t: 0 for t in TOKEN_ID}, {}
    for seed in range(n):
        d = new_game(seed, first_player=None, first_game_wonders=True).to_dict()
        firsts += d["first_player"] == 0
        for t in d["board_tokens"]:
            tokens[t] += 1
        for x in d["layout"]:
            if x != "face_down":
                dealt[x] = dealt.get(x, 0) + 1

    def close(count, p):
        return abs(count - n * p) <= 5 * (n * p * (1 - p)) ** 0.5

    assert close(firsts, 0.5), firsts
    assert all(close(c, 0.5) for c in tokens.values()), tokens
    assert len(dealt) == 23 and all(close(c, 12 / 23) for c in dealt.values()), dealt
