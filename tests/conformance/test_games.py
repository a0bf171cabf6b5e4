"""One conformance suite for every game of the registry (as OpenSpiel's random_sim_test and
pgx's api_test): a new game passes it before anything else.

Random play keeps every invariant of the core after every step; clones are equal and
independent; positions survive ``to_dict`` / ``state_from_dict``; an illegal action is refused
and changes nothing; the seed decides the game; a record replays to its game; no search agent
reads what its seat cannot see; batch chunks make result rows with VP by category; and Ctrl-C
keeps every finished game of simulate, study and ladder, and stops bench, for every game.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pandas as pd
import pytest

from duelpy.base.game import ChunkTask, Game
from duelpy.games import GAMES, get_game
from sigint_helpers import EXIT_BOUND, Child

#: (game, players): every game at its default and at its smallest and largest counts.
CASES = sorted({(g.name, n) for g in GAMES.values()
                for n in (g.default_players, g.players.start, g.players.stop - 1)})
NAMES = sorted(GAMES)


def _same(game: Game, a, b) -> bool:
    return a.to_dict() == b.to_dict()


def _step(game: Game, state, rng: random.Random) -> None:
    """One random step: a chance outcome drawn by its probability, or every deciding seat's
    random legal action (seat by seat)."""
    outcomes = game.chance_outcomes(state)
    if outcomes:
        actions, probs = zip(*outcomes)
        game.apply(state, None, rng.choices(actions, probs)[0])
        return
    for seat in game.decision_seats(state):
        legal = game.legal_actions(state, seat)
        assert legal == sorted(set(legal)) and legal, (seat, legal)
        game.apply(state, seat, rng.choice(legal))


def _play(game: Game, players: int, seed: int, check=None, limit: int = 5000):
    state = game.new_state(seed, players)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        _step(game, state, rng)
        steps += 1
        assert steps < limit, "the game never ends"
        if check is not None:
            check(state, steps)
    return state


def _mid_game(game: Game, players: int, seed: int, steps: int = 12):
    state = game.new_state(seed, players)
    rng = random.Random(seed)
    for _ in range(steps):
        _step(game, state, rng)
    return state


@pytest.mark.parametrize("name, players", CASES)
def test_random_play_keeps_every_invariant(name, players):
    game = get_game(name)

    def check(state, step):
        assert game.check(state) is None, game.check(state)
        if step % 7 == 0:
            c = state.clone()
            assert _same(game, c, state)
            back = game.state_from_dict(state.to_dict())
            assert _same(game, back, state)
            if not c.is_terminal():                  # a clone is independent
                _step(game, c, random.Random(step))
                assert not _same(game, c, state) or c.is_terminal()

    for seed in range(6):
        final = _play(game, players, seed, check)
        res = game.result(final)
        assert res["winners"] and all(0 <= w < players for w in res["winners"])
        total = res["vp"]["total"]
        assert len(total) == players
        for i in range(players):
            assert sum(v[i] for c, v in res["vp"].items() if c != "total") == total[i]


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_action_changes_nothing(name):
    game = get_game(name)
    state = _mid_game(game, game.default_players, 3)
    before = state.to_dict()
    seat = game.decision_seats(state)[0]
    legal = game.legal_actions(state, seat)
    for bad in (-1, max(legal) + 1, 10**6):
        if bad in legal:
            continue
        with pytest.raises(ValueError):
            game.apply(state, seat, bad)
        assert state.to_dict() == before
    with pytest.raises(ValueError):
        game.parse_action(state, seat, "no such move at all")
    assert state.to_dict() == before


@pytest.mark.parametrize("name", NAMES)
def test_the_seed_decides_the_game(name):
    game = get_game(name)
    a = _play(game, game.default_players, 41)
    b = _play(game, game.default_players, 41)
    assert _same(game, a, b)
    c = _play(game, game.default_players, 42)
    assert not _same(game, a, c)


@pytest.mark.parametrize("name", NAMES)
def test_a_record_replays_to_its_game(name, tmp_path):
    game = get_game(name)
    n = game.default_players
    state, rec = game.play_record(game.lineup(["greedy"], n), n, 5)
    assert state.is_terminal()
    path = tmp_path / "game.json"
    game.save_record(rec, path)
    again = game.replay_record(game.load_record(path))
    assert _same(game, again, state)


@pytest.mark.parametrize("name", NAMES)
def test_no_search_agent_reads_what_its_seat_cannot_see(name):
    game = get_game(name)
    state = _mid_game(game, game.default_players, 8, steps=3)
    seat = game.decision_seats(state)[0]
    other = game.hidden_variant(state, seat, 11)
    assert not _same(game, other, state)            # the hidden part really differs
    for agent in game.search_agents:
        assert game.choose(state, seat, agent, 3) == game.choose(other, seat, agent, 3), agent


@pytest.mark.parametrize("name", NAMES)
def test_chunks_make_rows_with_vp_by_category(name):
    game = get_game(name)
    n = game.default_players
    lineup = tuple(game.lineup(["random"], n))
    task = ChunkTask(name, n, lineup, "fixed", game.check_setup(n, {}), 9, 10, 16)
    raw = game.play_chunk(task)
    rows = game.rows(task, raw)
    assert sorted(set(rows["game"])) == list(range(10, 16))
    cats = [c for c in game.vp_categories if c != "total"]
    vp_columns = [c for c in rows.columns if c.startswith("vp_") and "total" not in c]
    assert len(vp_columns) >= len(cats) * (2 if name == "duel" else 1), list(rows.columns)
    again = game.rows(task, game.play_chunk(replace(task)))
    pd.testing.assert_frame_equal(rows, again)                  # the same games again


# ---------------------------------------------------------------- Ctrl-C in every command
def _long(name: str, command: str) -> list[str]:
    game = ["--game", name] + (["--players", "3"] if name != "duel" else [])
    if command == "simulate":
        return ["simulate", "--games", "100000000", "--jobs", "2", *game]
    if command == "study":
        return ["study", "--games", "100000000", "--workers", "2", "--no-plots", *game]
    if command == "ladder":
        return ["ladder", "random", "greedy", "--games", "100000000", "--workers", "2", *game]
    return ["bench", "--games", "100000000", "--repeat", "1", *game]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("command", ["simulate", "study", "ladder", "bench"])
def test_ctrl_c_keeps_every_finished_game(name, command, tmp_path):
    args = _long(name, command)
    out = tmp_path / ("g.parquet" if command == "simulate" else "run")
    if command != "bench":
        args += ["--out", str(out)]
    child = Child(args, tmp_path)
    child.wait_for("Ctrl-C")
    child.busy(1.5)
    seconds, code, stdout, stderr = child.interrupt()
    assert code == 130, (code, stdout, stderr)
    assert seconds < EXIT_BOUND, seconds
    assert "Traceback" not in stderr
    if command == "simulate":
        df = pd.read_parquet(out)
        assert len(df) > 0 and df["game"].is_monotonic_increasing
    elif command in ("study", "ladder"):
        chunks = list((out / "chunks").glob("*.parquet"))
        assert chunks, stderr
        assert sum(len(pd.read_parquet(p)) for p in chunks) > 0
        assert "--resume" in stdout + stderr
