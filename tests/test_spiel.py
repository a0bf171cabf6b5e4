"""The OpenSpiel-style game object and the observation tensor."""
import random

import numpy as np
import pytest

import duelcore
from duelcore import data
from duelpy.duel.spiel import _BLOCKS, OBSERVATION_SIZE, load_game, observation_tensor

_N_CARDS, _N_WONDERS, _N_TOKENS = len(data.CARDS), len(data.WONDERS), len(data.TOKENS)
_CARD_ID = {n: i for i, n in enumerate(data.CARD_NAMES)}
_WONDER_ID = {n: i for i, n in enumerate(data.WONDER_NAMES)}
_TOKEN_ID = {n: i for i, n in enumerate(data.TOKEN_NAMES)}
_PHASES = duelcore.PHASE_NAMES


def reference_observation(state, player):
    """Reference (slow, obviously correct) encoding from to_dict: what ``player`` (0 or 1) can see, as a float32 vector of shape ``(OBSERVATION_SIZE,)``.

    The blocks are, in order: Age, phase, whether ``player`` is to move, Play Again pending,
    each layout slot (taken / face down / face up), each card's visible place, coins (/10),
    the pawn toward the opponent (/9), the military tokens, wonders, progress tokens (the Great
    Library draw only for its builder), and science symbols.  The cards removed from the
    Ages and the cards still face down are not in it: nobody knows them.

    Raises
    ------
    ValueError
        If ``player`` is not 0 or 1.
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    d = state.to_dict()
    me, opp = d["players"][player], d["players"][1 - player]
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    blocks, off = {}, 0
    for name, n in _BLOCKS:
        blocks[name] = out[off:off + n]
        off += n
    blocks["age"][d["age"]] = 1
    blocks["phase"][_PHASES.index(d["phase"])] = 1
    blocks["me_to_move"][0] = float(state.current_player() == player)
    blocks["replay"][0] = float(d["replay"])
    cards = blocks["cards"].reshape(_N_CARDS, 6)
    available = set(state.available_cards())
    for slot, entry in enumerate(d["layout"]):
        if entry is None:
            blocks["slots"][4 * slot] = 1
        elif entry == "face_down":
            blocks["slots"][4 * slot + 1] = 1
        elif entry == "face_down_guild":
            blocks["slots"][4 * slot + 2] = 1
        else:
            blocks["slots"][4 * slot + 3] = 1
            c = _CARD_ID[entry]
            cards[c, 0 if c in available else 1] = 1
    for col, who in ((2, me), (3, opp)):
        for name in who["city"]:
            cards[_CARD_ID[name], col] = 1
    for name in d["discard_pile"]:
        cards[_CARD_ID[name], 4] = 1
    for who in (me, opp):
        for w in who["wonders"]:
            if w["card"] is not None:
                cards[_CARD_ID[w["card"]], 5] = 1
    blocks["coins"][:] = (me["coins"] / 10, opp["coins"] / 10)
    blocks["pawn"][0] = (d["pawn"] if player == 0 else -d["pawn"]) / 9
    tok = d["military_tokens"]
    blocks["military_tokens"][:] = (2 in tok[1 - player], 5 in tok[1 - player],
                                    2 in tok[player], 5 in tok[player])
    wonders = blocks["wonders"].reshape(_N_WONDERS, 5)
    for col, who in ((0, me), (2, opp)):
        for w in who["wonders"]:
            wonders[_WONDER_ID[w["name"]], col + int(w["built"])] = 1
    for name in d["draft"]["offer"]:
        wonders[_WONDER_ID[name], 4] = 1
    tokens = blocks["tokens"].reshape(_N_TOKENS, 4)
    for col, names in ((0, d["board_tokens"]), (1, me["progress_tokens"]),
                       (2, opp["progress_tokens"])):
        for name in names:
            tokens[_TOKEN_ID[name], col] = 1
    if d["phase"] == "library" and d["to_move"] == player:
        for name in d["library_offer"]:
            tokens[_TOKEN_ID[name], 3] = 1
    sym = blocks["symbols"].reshape(2, 7)
    sym[0] = np.asarray(state.science_symbols(player)) / 2
    sym[1] = np.asarray(state.science_symbols(1 - player)) / 2
    return out




def test_core_observation_matches_the_reference():
    """The core's encoding equals the readable one built from to_dict, over whole games."""
    for seed in range(30):
        s = duelcore.new_game(seed, explicit_chance=seed % 3 == 0)
        rnd = random.Random(seed)
        while True:
            for p in (0, 1):
                np.testing.assert_array_equal(observation_tensor(s, p), reference_observation(s, p))
            if s.is_terminal():
                break
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rnd.choices(actions, probs)[0])
            else:
                s.apply_action(rnd.choice(s.legal_actions()))


def test_game_object_plays_a_game_with_chance_nodes():
    game = load_game("duel")
    state = game.new_initial_state(5)
    rnd = random.Random(5)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert len(actions) <= game.max_chance_outcomes()
            state.apply_action(rnd.choices(actions, probs)[0])
        else:
            decisions += 1
            assert max(state.legal_actions()) < game.num_decision_actions()
            state.apply_action(rnd.choice(state.legal_actions()))
    assert decisions <= game.max_game_length()
    assert sum(state.returns()) == game.utility_sum()
    assert game.num_players() == 2 and game.num_distinct_actions() == 1309


def test_max_game_length_bounds_random_games():
    game = load_game("duel", {"explicit_chance": False})
    for seed in range(200):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s.apply_action(random.Random(seed * 1000 + s.n_decisions).choice(s.legal_actions()))
        assert s.n_decisions <= game.max_game_length()


def test_bad_game_names_and_parameters():
    with pytest.raises(ValueError, match="unknown game"):
        load_game("chess")
    with pytest.raises(ValueError, match="centred_pawn"):
        load_game("duel", {"centred_pawn": "sideways"})


def test_observation_is_public_and_perspective_aware():
    s = duelcore.new_game(3)
    rnd = random.Random(3)
    while s.n_decisions < 25:
        s.apply_action(rnd.choice(s.legal_actions()))
    o0, o1 = observation_tensor(s, 0), observation_tensor(s, 1)
    assert o0.shape == o1.shape == (OBSERVATION_SIZE,) and o0.dtype == np.float32
    assert not np.array_equal(o0, o1)            # each sees itself first
    # hidden information (the state's RNG, i.e. the face-down cards) changes nothing
    d = s.to_dict()
    d["rng"] = (d["rng"] + 12345) % 2 ** 64
    t = duelcore.state_from_dict(d)
    assert t != s and np.array_equal(observation_tensor(t, 0), o0)
    with pytest.raises(ValueError):
        observation_tensor(s, 2)
