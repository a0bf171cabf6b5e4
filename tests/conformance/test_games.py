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
import signal
import time
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


def _saved_games(command: str, out) -> int:
    """Finished games on disk: simulate's table and its run folder, or a study's or ladder's
    chunks (rows, for 7 Wonders one per seat)."""
    if command == "simulate":
        folder = out.with_name(f".{out.name}.run") / "chunks"
    else:
        folder = out / "chunks"
    return sum(len(pd.read_parquet(p)) for p in folder.glob("*.parquet"))


def _wait_for_saved(command: str, out, child) -> None:
    """Wait until at least one finished chunk is readable on disk (or the child exits)."""
    child.wait_until(lambda: _saved_games(command, out) > 0)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("command", ["simulate", "study", "ladder", "bench"])
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_keeps_every_finished_game(name, command, presses, tmp_path):
    """Ctrl-C (once, or twice 100 ms apart: issue 29) stops within the bound, exits with 130
    and keeps every finished game."""
    if command == "bench" and presses == 2:
        pytest.skip("bench keeps no games")
    args = _long(name, command)
    out = tmp_path / ("g.parquet" if command == "simulate" else "run")
    if command != "bench":
        args += ["--out", str(out)]
    child = Child(args, tmp_path)
    child.wait_for("Ctrl-C")
    if command == "bench":
        child.busy(0.5)
    else:
        _wait_for_saved(command, out, child)
    if presses == 2:
        child.proc.send_signal(signal.SIGINT)
        time.sleep(0.1)
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
    if command != "bench":
        assert _saved_games(command, out) > 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("command", ["simulate", "study", "ladder"])
def test_a_killed_run_keeps_its_games_and_resume_continues(name, command, tmp_path):
    """A kill -9 mid-run leaves the finished games on disk; the same command with --resume
    keeps them and goes on (issue 29)."""
    args = _long(name, command)
    out = tmp_path / ("g.parquet" if command == "simulate" else "run")
    args += ["--out", str(out)]
    child = Child(args, tmp_path)
    child.wait_for("Ctrl-C")
    # Kill only once a chunk is on disk: CPU time alone does not say a chunk finished on a
    # loaded machine (a 7 Wonders ladder chunk can take longer than a second).
    _wait_for_saved(command, out, child)
    child.proc.kill()
    child.proc.wait()
    before = _saved_games(command, out)
    assert before > 0
    resumed = Child(args + ["--resume"], tmp_path)
    resumed.wait_for("Ctrl-C")
    resumed.wait_until(lambda: _saved_games(command, out) > before)
    seconds, code, stdout, stderr = resumed.interrupt()
    assert code == 130 and "Traceback" not in stderr, stderr
    assert _saved_games(command, out) > before


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("command", ["study", "ladder"])
def test_a_full_disk_keeps_the_finished_games_and_resume_completes(name, command, tmp_path,
                                                                   monkeypatch):
    """Issue 29: ENOSPC while a chunk is saved stops the run with every earlier chunk on
    disk, and --resume completes it with the games an uninterrupted run gives."""
    from click.testing import CliRunner

    from duelpy.cli.main import main
    from duelpy.run.folder import RunFolder
    real = RunFolder.write_chunk
    calls = [0]

    def fill_on_the_third(self, df, key, lo, hi):
        calls[0] += 1
        if calls[0] == 3:
            raise OSError(28, "No space left on device")
        real(self, df, key, lo, hi)

    game = ["--game", name] + (["--players", "3"] if name != "duel" else [])
    args = ({"study": ["study", "--games", "24", "--chunk-size", "4", "--workers", "1",
                       "--no-plots"],
             "ladder": ["ladder", "random", "greedy", "--games", "24", "--chunk-size", "4",
                        "--workers", "1", "--no-plot"]}[command] + game)
    monkeypatch.setattr(RunFolder, "write_chunk", fill_on_the_third)
    r = CliRunner().invoke(main, args + ["--out", str(tmp_path / "a"), "-q"])
    assert r.exit_code == 1 and "No space left" in r.output + r.stderr, r.output
    assert "--resume" in r.output + r.stderr
    monkeypatch.setattr(RunFolder, "write_chunk", real)
    assert len(list((tmp_path / "a" / "chunks").glob("*.parquet"))) == 2
    r = CliRunner().invoke(main, args + ["--out", str(tmp_path / "a"), "-q", "--resume"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, args + ["--out", str(tmp_path / "b"), "-q"])
    assert r.exit_code == 0, r.output
    a = pd.read_parquet(tmp_path / "a" / "games.parquet")
    b = pd.read_parquet(tmp_path / "b" / "games.parquet")
    pd.testing.assert_frame_equal(a, b)
