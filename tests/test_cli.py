"""The ``duel`` command line, driven with click's CliRunner: play (through stdin), simulate,
replay, show; every error is one line on stderr with a non-zero exit code, never a traceback."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import duelcore
import duelpy
from duelcore import search
from duelpy.duel.agents import parse_agent
from duelpy.cli.main import main
from duelpy.duel.notation import action_name
from duelpy.duel.records import load, record_game


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input)


def assert_ok(r):
    assert r.exit_code == 0, (r.output, r.exception)
    assert "Traceback" not in r.output


def assert_error(r, code, *words):
    """Exit code ``code``; stderr is one line naming ``words``; no traceback."""
    assert r.exit_code == code, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("Error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], r.stderr   # (after a progress bar)
    for w in words:
        assert w.lower() in errors[0].lower(), (w, errors[0])
    assert "Traceback" not in r.output
    return errors[0]


def human_moves(seed, seat, opponent, chooser=lambda legal: legal[0], **options):
    """The human's decisions (by choosing ``chooser(legal)``) in the game the CLI will play
    against ``opponent`` (reset as the CLI does), and the final state."""
    state = duelcore.new_game(seed, **options)
    agent = parse_agent(opponent)
    agent.reset(search.agent_seed(seed, 2 - seat))
    mine = []
    while not state.is_terminal():
        if state.current_player() == seat - 1:
            a = chooser(state.legal_actions())
            mine.append(a)
        else:
            a = agent.select_action(state)
        state.apply_action(a)
    return mine, state


@pytest.fixture()
def game_file(tmp_path):
    rec = record_game("greedy", "random", seed=5)
    return rec, rec.save(tmp_path / "game.json")


# ---------------------------------------------------------------- help
@pytest.mark.parametrize("command", [[], ["simulate"], ["play"], ["replay"], ["show"],
                                     ["bench"], ["agents"], ["study"]])
def test_every_help_has_an_example(command):
    r = run(command + ["--help"])
    assert_ok(r)
    assert "Example" in r.output and "duel " in r.output.split("Example")[1]


# ---------------------------------------------------------------- simulate
@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_simulate_writes_the_table_and_prints_confidence_intervals(tmp_path, suffix):
    out = tmp_path / f"games.{suffix}"
    r = run(["simulate", "--games", "30", "--p1", "greedy", "--p2", "random", "--seed", "3",
             "--out", str(out)])
    assert_ok(r)
    assert "95% CI" in r.output and "greedy wins" in r.output
    df = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
    assert len(df) == 30 and {"winner", "p1", "p2", "vp_total_p1"} <= set(df.columns)
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


@pytest.mark.parametrize("args, words", [
    (["--games", "0"], ["--games", "0"]),
    (["--p1", "foo"], ["unknown agent", "foo"]),
    (["--p2", "mcts:iterations=0"], ["iterations"]),
    (["--p1", "mcts:depth=3"], ["unknown option", "depth"]),
    (["--out", "x.txt"], ["--out", ".parquet or .csv"]),
    (["--out", "no/such/folder/x.csv"], ["no such folder"]),
    (["--jobs", "0"], ["--jobs"]),
    (["--bogus"], ["--bogus"]),
])
def test_simulate_bad_input(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    r = run(["simulate", "--games", "5"] + args)
    assert_error(r, 2, *words)
    assert list(tmp_path.iterdir()) == []                     # nothing written


def test_simulate_leaves_no_half_written_file(tmp_path, monkeypatch):
    """The disk fills while the table is written: no half-written games.csv, but every
    finished game is kept and --resume writes the table (issue 29)."""
    from duelpy.base.output import TableWriter
    out = tmp_path / "games.csv"
    real_write = TableWriter.write

    def write_then_fill_the_disk(self, df):
        real_write(self, df.iloc[:2])                          # some rows, then the disk fills
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(TableWriter, "write", write_then_fill_the_disk)
    r = run(["simulate", "--games", "5", "--out", str(out)])
    assert_error(r, 1, "cannot write", "No space left", "--resume")
    assert [p.name for p in tmp_path.iterdir()] == [".games.csv.run"]   # the games are kept
    monkeypatch.setattr(TableWriter, "write", real_write)
    assert_ok(run(["simulate", "--games", "5", "--out", str(out), "--resume"]))
    assert len(pd.read_csv(out)) == 5 and [p.name for p in tmp_path.iterdir()] == [out.name]


def test_simulate_a_full_disk_while_saving_games_keeps_the_rest(tmp_path, monkeypatch):
    """ENOSPC while a chunk of finished games is saved: the chunks saved before stay, the
    error says so, and --resume plays only what is missing (the same games as a clean run)."""
    from duelpy.run.folder import RunFolder
    out = tmp_path / "g.parquet"
    real = RunFolder.write_chunk
    calls = [0]

    def fill_on_the_third(self, df, key, lo, hi):
        calls[0] += 1
        if calls[0] == 3:
            raise OSError(28, "No space left on device")
        real(self, df, key, lo, hi)

    monkeypatch.setattr("duelpy.duel.match.MAX_CHUNK", 7)
    monkeypatch.setattr(RunFolder, "write_chunk", fill_on_the_third)
    r = run(["simulate", "--games", "60", "--p1", "greedy", "--seed", "9", "--out", str(out)])
    assert_error(r, 1, "No space left", "--resume")
    monkeypatch.setattr(RunFolder, "write_chunk", real)
    assert_ok(run(["simulate", "--games", "60", "--p1", "greedy", "--seed", "9", "--out",
                   str(out), "--resume"]))
    expected = duelpy.play_match("greedy", "random", games=60, seed=9)
    pd.testing.assert_frame_equal(pd.read_parquet(out).set_index("game"), expected)


def test_simulate_refuses_an_existing_file_unless_overwrite(tmp_path):
    out = tmp_path / "games.csv"
    out.write_text("precious\n")
    r = run(["simulate", "--games", "4", "--out", str(out)])
    assert_error(r, 2, "already exists", "--overwrite")
    assert out.read_text() == "precious\n"
    r = run(["simulate", "--games", "4", "--out", str(out), "--overwrite"])
    assert_ok(r)
    assert len(pd.read_csv(out)) == 4


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_simulate_streams_the_same_table_as_play_match(tmp_path, suffix, monkeypatch):
    """Chunk by chunk (forced small here) the file holds the table play_match returns."""
    import duelpy.duel.match
    monkeypatch.setattr(duelpy.duel.match, "MAX_CHUNK", 7)
    out = tmp_path / f"g.{suffix}"
    r = run(["simulate", "--games", "60", "--p1", "greedy", "--seed", "9", "--jobs", "2",
             "--out", str(out), "--quiet"])
    assert_ok(r)
    assert r.output == ""                                       # --quiet: nothing but errors
    expected = duelpy.play_match("greedy", "random", games=60, seed=9)
    if suffix == "csv":
        assert out.read_text() == expected.to_csv()
    else:           # ``game`` is a column of the file (issue 29: df.game works), as in the CSV
        got = pd.read_parquet(out)
        assert list(got.columns)[0] == "game" and list(got["game"]) == list(range(60))
        pd.testing.assert_frame_equal(got.set_index("game"), expected)


def test_simulate_rule_options(tmp_path):
    out = tmp_path / "g.parquet"
    r = run(["simulate", "--games", "6", "--p1", "greedy", "--start-coins", "7,12",
             "--ban-token", "law", "--force-wonder", "p2=The Great Library",
             "--centred-pawn", "begins", "--out", str(out)])
    assert_ok(r)
    assert "rules:" in r.output and "start coins 7/12" in r.output
    expected = duelpy.play_match("greedy", "random", games=6, start_coins=(7, 12),
                                 banned_tokens=("Law",), centred_pawn="begins",
                                 forced_wonders=(None, "The Great Library"))
    got = pd.read_parquet(out).set_index("game")
    pd.testing.assert_frame_equal(got, expected)
    assert all("The Great Library" in w for w in got["wonders_drafted_p2"])
    assert (got["coins_p2"] != duelpy.play_match("greedy", "random", games=6)["coins_p2"]).any()


@pytest.mark.parametrize("args, words", [
    (["--start-coins", "7"], ["--start-coins", "7,9"]),
    (["--start-coins", "7,-2"], ["--start-coins"]),
    (["--ban-token", "Lawyer"], ["--ban-token", "Lawyer"]),
    (["--force-wonder", "p3=Zeus"], ["--force-wonder", "p3"]),
    (["--force-wonder", "p1=The Pyramids,p1=Zeus"], ["--force-wonder", "twice"]),
    (["--force-wonder", "p1=The Pyramids", "--force-wonder", "p1=The Colossus"],
     ["--force-wonder", "two wonders"]),
])
def test_simulate_bad_rule_options(tmp_path, args, words):
    assert_error(run(["simulate", "--games", "2"] + args), 2, *words)


def test_simulate_summary_keeps_rates_and_vp_apart():
    r = run(["simulate", "--games", "40", "--p1", "greedy", "--seed", "1"])
    assert_ok(r)
    out = r.output
    outcomes, vp = out.split("final VP")
    assert "mean VP" not in out
    for line in outcomes.splitlines():
        if "wins" in line or "victories" in line:
            assert line.count("%") == 2, line                  # rate and its interval
    p1 = next(line for line in vp.splitlines() if line.strip().startswith("P1"))
    assert "%" not in p1 and re.search(r"\d+\.\d\d – \d+\.\d\d", p1)


def test_simulate_rate_is_the_same_in_the_bar_and_the_summary():
    r = run(["simulate", "--games", "3000", "--jobs", "2", "--seed", "4"])
    assert_ok(r)
    bar = re.findall(r"([\d,.]+) games/s", r.stderr)
    summary = re.findall(r"([\d,.]+) games/s", r.stdout)
    assert bar and summary and bar[-1] == summary[-1], (bar, summary)


def test_simulate_tables_at_80_columns_cut_no_name():
    long_agent = "mcts:iterations=3,c=1.25,rollout=greedy"
    r = CliRunner(env={"COLUMNS": "80"}).invoke(
        main, ["simulate", "--games", "4", "--p1", long_agent, "--p2", "greedy"])
    assert_ok(r)
    assert "…" not in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80
    assert "mcts:iterations=3,c=1.25,rollout=greedy wins" in " ".join(r.output.split()) \
        or all(part in r.output for part in long_agent.split(","))


def test_unknown_command():
    assert_error(run(["bogus"]), 2, "bogus")


def test_bare_duel_prints_the_help():
    r = run([])
    assert_ok(r)
    assert r.output.startswith("Usage: ") and "Commands:" in r.output
    assert "Error" not in r.output
    for command in ("simulate", "play", "replay", "show", "study", "bench", "agents"):
        assert f"  {command} " in r.output


# ---------------------------------------------------------------- play
def test_play_a_whole_game_through_stdin(tmp_path):
    seed = 11
    mine, final = human_moves(seed, 1, "greedy", chooser=lambda legal: legal[-1])
    # type some moves by name (in capitals, without "The"), the others by number
    lines = [action_name(a).upper().replace("THE ", "") if k % 2 else str(a)
             for k, a in enumerate(mine)]
    path = tmp_path / "me.json"
    r = run(["play", "--opponent", "greedy", "--seed", str(seed), "--record", str(path)],
            input="\n".join(lines) + "\n")
    assert_ok(r)
    assert "you are P1, against greedy" in r.output
    assert "P2 (greedy) plays: " in r.output
    assert f"Game record saved to {path}" in r.output
    res = final.result()
    assert f"{res['total'][0]} to {res['total'][1]} VP" in r.output
    rec = load(path)
    assert rec.players == ["you", "greedy"] and rec.seed == seed
    assert rec.result == json.loads(json.dumps(res))
    assert [m["id"] for m in rec.to_dict()["moves"] if m["player"] == "P1"] == mine


def test_play_in_seat_two_against_mcts(tmp_path):
    seed = 4
    opponent = "mcts:iterations=30"
    mine, final = human_moves(seed, 2, opponent)
    path = tmp_path / "seat2.json"
    r = run(["play", "--opponent", "mcts", "--iterations", "30", "--seat", "2", "--seed",
             str(seed), "--record", str(path)], input="\n".join(map(str, mine)) + "\n")
    assert_ok(r)
    assert "you are P2" in r.output
    assert r.output.index("P1 (mcts:iterations=30") < r.output.index("P2> ")
    assert load(path).result is not None
    assert load(path).players == ["mcts:iterations=30,c=1.4", "you"]


def test_play_commands(tmp_path, monkeypatch):
    seed = 7
    state = duelcore.new_game(seed)
    first = state.legal_actions()[0]
    saved = tmp_path / "mid.json"
    empty = tmp_path / "empty.json"
    script = ["help", "board", "moves", "hint", action_name(first), f"save {saved}", "undo",
              "undo", "save", f"save {empty}", "quit"]
    here = tmp_path / "cwd"         # a fresh working folder (a bare "save" writes there)
    here.mkdir()
    monkeypatch.chdir(here)
    r = CliRunner().invoke(main, ["play", "--opponent", "greedy", "--seed", str(seed),
                                  "--hint-iterations", "60"], input="\n".join(script) + "\n")
    assert_ok(r)
    out = r.output
    assert "save FILE" in out and "undo" in out                       # help
    assert out.count("Military track") >= 2                           # board
    assert "Your moves" in out and f"{first:>4}  {action_name(first)}" in out
    assert re.search(r"The \w+ search \(60 iterations\) would play: pick ", out)
    assert re.search(r"\d+\.\d% of visits", out)
    assert f"P1 (you) play: {action_name(first)}" in out
    assert f"game saved to {saved}" in out
    assert load(saved).moves[0] == first
    assert "undone: back to your decision before move 1" in out
    assert "nothing to undo" in out
    assert "save needs a file name" in r.stderr
    assert load(empty).moves == []                 # saved after the undos: no move
    assert "Game record saved to duel-game-7-" in out               # the default record
    (default,) = Path(here).iterdir()
    assert default.name.startswith("duel-game-7-") and load(default).moves == []


def test_typing_garbage_at_the_prompt(tmp_path):
    path = tmp_path / "g.json"
    state = duelcore.new_game(7)
    r = run(["play", "--opponent", "random", "--seed", "7", "--record", str(path)],
            input="xyzzy\n\n!!!\npick\nbuild Palace\n99999\nColossuss\n")   # then end of input
    assert_ok(r)
    err = r.stderr
    assert "no legal move is called 'xyzzy'" in err
    assert "could be any of: pick" in err                         # ambiguous
    assert "'build Palace' is not legal here" in err and "draft" in err
    assert "out of range" in err
    assert "pick The Colossus" in err or "Colossus" not in str(state.to_dict()["draft"])
    assert "Traceback" not in r.output
    assert "Game stopped (end of input) after 0 moves" in r.output
    assert load(path).moves == []                  # the record of a game with no move


@pytest.mark.parametrize("args, words", [
    (["--seat", "3"], ["--seat", "3"]),
    (["--opponent", "bogus"], ["--opponent", "bogus"]),
    (["--opponent", "greedy", "--iterations", "5"], ["searching agents only", "mcts"]),
    (["--iterations", "5", "--seconds", "1"], ["not both"]),
    (["--iterations", "0"], ["--iterations"]),
    (["--seed", "-1"], ["--seed"]),
    (["--record", "no/such/folder/g.json"], ["no such folder"]),
])
def test_play_bad_flags(args, words):
    assert_error(run(["play"] + args, input="quit\n"), 2, *words)


# ---------------------------------------------------------------- replay / show
def test_replay_prints_the_game(game_file):
    rec, path = game_file
    r = run(["replay", str(path)])
    assert_ok(r)
    for k, a in enumerate(rec.moves):
        assert re.search(rf"^\s*{k + 1}\. P[12]\s+{re.escape(action_name(a))}$", r.output, re.M)
    for title in ("Wonder draft", "Age I", "Age II", "Age III"):
        assert title in r.output
    total = rec.result["total"]
    assert f"Result: P{rec.result['winner'] + 1} wins" in r.output
    assert f"{total[0]} to {total[1]} VP" in r.output


def test_replay_step_by_step(game_file):
    rec, path = game_file
    r = run(["replay", str(path), "--step"], input="\n\n\nq\n")
    assert_ok(r)
    assert r.output.count("Military track") == 5                 # the start, then 4 moves
    assert "   5. " not in r.output
    assert f"stopped after move 4 of {len(rec.moves)}" in r.output


def test_show_a_position(game_file):
    rec, path = game_file
    k = 25
    r = run(["show", str(path), "--move", str(k), "--plain", "--width", "120"])
    assert_ok(r)
    assert f"after move {k} of {len(rec.moves)}: {action_name(rec.moves[k - 1])}" in r.output
    from duelpy.duel.records import replay
    from duelpy.duel.render import render_text
    assert render_text(replay(rec, upto=k), width=120) in r.output
    r = run(["show", str(path), "--move", "0"])
    assert_ok(r)
    assert "(the start)" in r.output and "Wonder draft" in r.output
    r = run(["show", str(path)])
    assert_ok(r)
    assert "Game over" in r.output


@pytest.mark.parametrize("command", ["replay", "show"])
def test_replay_and_show_bad_files(tmp_path, game_file, command):
    rec, path = game_file
    assert_error(run([command, str(tmp_path / "missing.json")]), 1, "missing.json",
                 "no such file")
    assert_error(run([command, str(tmp_path)]), 1, "folder")
    truncated = tmp_path / "truncated.json"
    truncated.write_text(path.read_text()[:300])
    assert_error(run([command, str(truncated)]), 1, "truncated.json", "JSON")
    d = json.loads(path.read_text())
    d["moves"][4]["name"] = "build Palace"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(d))
    assert_error(run([command, str(tampered)]), 1, "move 5", "does not match")
    d = json.loads(path.read_text())
    d["version"] = 99
    (tmp_path / "v99.json").write_text(json.dumps(d))
    assert_error(run([command, str(tmp_path / "v99.json")]), 1, "version")
    deep = tmp_path / "deep.json"                      # issue 14: hostile files, one line
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert_error(run([command, str(deep)]), 1, "deep.json", "nested")
    digits = tmp_path / "digits.json"
    digits.write_text('{"format": "duel-record", "seed": ' + "7" * 5000 + "}")
    assert_error(run([command, str(digits)]), 1, "digits.json", "5,000 characters")
    assert_error(run([command, "/dev/zero"]), 1, "too large")


def test_show_move_out_of_range(game_file):
    rec, path = game_file
    assert_error(run(["show", str(path), "--move", str(len(rec.moves) + 1)]), 2, "--move")
    assert_error(run(["show", str(path), "--move", "-1"]), 2, "--move")
    assert_error(run(["show", str(path), "--move", "two"]), 2, "--move")


@pytest.mark.parametrize("args", [
    ["simulate", "--games", "5", "--out", "/proc/x.csv"],
    ["play", "--opponent", "greedy", "--seed", "3", "--record", "/proc/rec.json"],
])
def test_unwritable_output_is_refused_before_any_game(args):
    result = CliRunner().invoke(main, args, input="quit\n")
    assert result.exit_code == 2
    assert "cannot write there" in result.output and "Traceback" not in result.output
    assert "7 Wonders Duel" not in result.output          # no game was started


def test_mcts_with_a_tiny_tree_is_refused():
    result = CliRunner().invoke(main, ["simulate", "--games", "2", "--p1", "mcts:max_nodes=1"])
    assert result.exit_code == 2 and "max_nodes" in result.output
