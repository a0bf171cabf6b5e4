"""7 Wonders on the command line: ``duel simulate|study|bench|play|ladder --game seven
--players N`` and ``duel seven watch|replay``.  Every user error is one line on stderr
(``Error: ...``), never a traceback; ``--game duel`` (the default) keeps the Duel commands
as they were."""
import json

import pandas as pd
import pytest

from duelcore import seven as sv
from cli_helpers import ok, one_error, run
from duelpy.seven import load_record, replay


# ---------------------------------------------------------------- simulate
def test_simulate_seven_prints_seats_and_agents_and_writes_rows(tmp_path):
    out = tmp_path / "g.parquet"
    r = ok(run("simulate", "--game", "seven", "--players", "4", "--games", "40",
               "--agents", "greedy,random,random,random", "--seed", "3", "--out", str(out)))
    assert "40 games of 7 Wonders, 4 players" in r.output
    assert "Win rate by seat" in r.output and "Win rate by agent" in r.output
    df = pd.read_parquet(out)
    assert len(df) == 160 and set(df["seat"]) == {0, 1, 2, 3}
    assert abs(df.groupby("game")["win"].sum() - 1).max() < 1e-9      # one win per game
    assert (df[df.seat == 0]["agent"] == "greedy").all()
    # the Free City variant: two players' rows, the same rows with --jobs 2
    a = tmp_path / "a.csv"
    b = tmp_path / "b.csv"
    ok(run("simulate", "--game", "seven", "--players", "2", "--games", "30", "--quiet",
           "--out", str(a)))
    ok(run("simulate", "--game", "seven", "--players", "2", "--games", "30", "--quiet",
           "--jobs", "2", "--out", str(b)))
    assert a.read_text() == b.read_text() and set(pd.read_csv(a)["seat"]) == {0, 1}


def test_simulate_seven_set_up_options():
    r = ok(run("simulate", "--game", "seven", "--players", "3", "--games", "20", "--agents",
               "greedy", "--sides", "B", "--remove", "scientists guild, altar"))
    text = " ".join(r.output.split())
    assert "sides B, without Scientists Guild, Altar" in text


@pytest.mark.parametrize("args, words", [
    (["--game", "seven", "--players", "8"], ["--players 8", "2 to 7 players"]),
    (["--game", "seven", "--players", "1"], ["--players", "1"]),
    (["--players", "4"], ["--players does not apply to --game duel", "2-player game"]),
    (["--game", "chess"], ["--game", "chess", "duel", "seven"]),
    (["--game", "seven", "--p1", "greedy"], ["--p1", "2-player games", "--agents"]),
    (["--game", "seven", "--ban-token", "Law"], ["--ban-token", "does not apply to --game "
                                                 "seven"]),
    (["--agents", "greedy,random,random"], ["--agents", "2 agents"]),
    (["--sides", "A"], ["--sides", "does not apply to --game duel"]),
    (["--game", "seven", "--agents", "plan"], ["plan", "Duel agent", "not available"]),
    (["--game", "seven", "--agents", "minimax"], ["unknown agent", "minimax"]),
    (["--game", "seven", "--agents", "mcts:iterations=50,seconds=1"],
     ["seconds", "not available for 7 Wonders"]),
    (["--game", "seven", "--agents", "mcts:0"], ["iterations", "from 1 to 100,000,000"]),
    (["--game", "seven", "--players", "3", "--agents", "greedy,random"],
     ["1 agent or 3", "got 2"]),
    (["--game", "seven", "--remove", "Nothing"], ["--remove", "unknown card"]),
    (["--game", "seven", "--players", "3", "--remove", "Mine"], ["not in the 3-player game"]),
    (["--game", "seven", "--players", "7", "--remove", "Altar"], ["too few spare copies"]),
    (["--game", "seven", "--out", "x.txt"], ["--out", ".parquet or .csv"]),
])
def test_simulate_bad_input_is_one_line(args, words):
    one_error(run("simulate", "--games", "5", *args), *words)


# ---------------------------------------------------------------- study
def test_study_seven_arms_report_and_paired_seeds(tmp_path):
    out = tmp_path / "study"
    r = ok(run("study", "--game", "seven", "--players", "4", "--games", "60", "--seed", "2",
               "--agents", "greedy", "--force-side", "B", "--force-wonder", "p2=rhodos b",
               "--remove", "Scientists Guild", "--out", str(out), "--csv",
               "--name", "Four players"))
    assert "Four players" in r.output and "Win rate by wonder board and side" in r.output
    report = (out / "report.md").read_text()
    for heading in ("# Four players", "## Control", "## all side B", "## P2 Rhodos B",
                    "## without Scientists Guild", "### Win rate by seat",
                    "### Win rate by side", "### Change of each seat's win rate"):
        assert heading in report, heading
    df = pd.read_parquet(out / "games.parquet")
    assert len(pd.read_csv(out / "games.csv")) == len(df) == 4 * 60 * 4
    arm = {a: f for a, f in df.groupby("arm")}
    assert (arm["all side B"]["side"] == "B").all()
    p2 = arm["P2 Rhodos B"]
    assert (p2[p2.seat == 1][["board", "side"]] == ["Rhodos", "B"]).all().all()
    assert not (arm["Control"][arm["Control"].seat == 1]["board"] == "Rhodos").all()
    # same seeds: the removal arm deals the same boards as the control
    c = arm["Control"].set_index(["game", "seat"])
    t = arm["without Scientists Guild"].set_index(["game", "seat"])
    assert (c["board"] == t["board"]).all() and (c["side"] == t["side"]).all()
    one_error(run("study", "--game", "seven", "--games", "5", "--out", str(out)),
              "already holds a study", "--overwrite", code=1)


def test_study_seven_control_sides_and_every_game_needs_out(tmp_path):
    r = ok(run("study", "--game", "seven", "--players", "3", "--games", "30", "--agents",
               "random", "--sides", "A", "--out", str(tmp_path / "s")))
    assert "Win rate by seat" in r.output and " B " not in r.output.split("Win rate by side")[1]
    one_error(run("study", "--games", "5"), "Missing option", "--out")
    one_error(run("study", "--game", "seven", "--games", "5"), "Missing option", "--out")


@pytest.mark.parametrize("args, words", [
    (["--force-wonder", "p5=Rhodos"], ["--force-wonder", "p1..p4"]),
    (["--force-wonder", "p1=Atlantis"], ["unknown wonder board", "Atlantis"]),
    (["--remove", "Nothing"], ["--remove", "unknown card"]),
    (["--ban-token", "Law"], ["--ban-token", "does not apply to --game seven"]),
    (["--p2-extra-coins", "2"], ["--p2-extra-coins", "does not apply to --game seven"]),
    (["--force-side", "B", "--force-side", "B"], ["--force-side", "B is given twice"]),
    (["--players", "9"], ["--players", "9"]),
])
def test_study_seven_bad_input_is_one_line(args, words, tmp_path):
    one_error(run("study", "--game", "seven", "--games", "5", "--out", str(tmp_path / "s"),
                  *args), *words, code=2)


def test_study_file_of_seven(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('game = "seven"\nplayers = 3\ngames = 6\n[agents]\nseats = "random"\n'
                 '[[treatment]]\nsides = "B"\n')
    r = ok(run("study", str(f), "--out", str(tmp_path / "s7")))
    assert "all side B" in r.output
    duel = tmp_path / "d.toml"
    duel.write_text("games = 5\n")
    one_error(run("study", str(duel), "--game", "seven", "--out", str(tmp_path / "o")),
              "a study of duel, not of seven", code=1)
    one_error(run("study", "--out", str(tmp_path / "o"), "--force-side", "B"),
              "--force-side", "does not apply to --game duel")


# ---------------------------------------------------------------- bench
def test_bench_seven():
    r = ok(run("bench", "--game", "seven", "--players", "3", "--games", "300",
               "--iterations", "100", "--repeat", "1"))
    assert "random games / s" in r.output and "MCTS iterations / s" in r.output
    sig = sv.random_games(3, 10_000, 20261130)["signature"]
    assert str(sig) in r.output and str(sv.state_size()) in r.output
    one_error(run("bench", "--players", "3"), "--players does not apply to --game duel")


# ---------------------------------------------------------------- play
def test_play_seven_through_stdin(tmp_path):
    """Seat 2 of 3 against greedy, moves by number, by a unique part of the name and by the
    whole text; the record replays to the final position."""
    path = tmp_path / "me.json"
    r = ok(run("play", "--game", "seven", "--players", "3", "--seat", "2", "--opponent",
               "greedy", "--seed", "4", "--record", str(path),
               input="help\nmoves\nboard\nnonsense\n99\n" + "1\n" * 40))
    assert "you are P2, against greedy, greedy" in r.output
    assert "is not one of your legal moves" in r.output and "not a move number" in r.output
    assert "Scores:" in r.output and f"Game record saved to {path}" in r.output
    rec = load_record(path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())     # a leading BOM is allowed
    assert load_record(path) == rec
    final = replay(rec)
    assert final.is_terminal() and rec["result"]["winners"] == final.winners()
    mine = [m for m in rec["moves"] if m[0] == 1]
    assert len(mine) >= 18


def test_play_seven_by_name_and_quit(tmp_path):
    from duelpy.seven import new_game
    g = new_game(4, seed=9)
    first = sv.action_to_string(g.legal_actions(0)[0])
    path = tmp_path / "q.json"
    r = ok(run("play", "--game", "seven", "--players", "4", "--opponent", "random",
               "--seed", "9", "--record", str(path), input=f"{first.upper()}\nquit\n"))
    assert f"you play: {first}" in r.output and "Game stopped (quit)" in r.output
    assert load_record(path)["moves"][0][2] == first
    r = ok(run("play", "--game", "seven", "--players", "4", "--seed", "9", "--record",
               str(tmp_path / "none.json"), input="quit\n"))
    assert "Game record saved to" in r.output                # a record of no moves
    assert load_record(tmp_path / "none.json")["moves"] == []


@pytest.mark.parametrize("args, words", [
    (["--game", "seven", "--players", "3", "--seat", "4"], ["--seat", "4", "3-player"]),
    (["--game", "seven", "--opponent", "plan"], ["--opponent", "plan", "not available"]),
    (["--game", "seven", "--players", "4", "--opponent", "greedy,random"],
     ["--opponent", "1 agent or 3"]),
    (["--game", "seven", "--opponent", "mcts:300", "--iterations", "5"],
     ["give the budget once"]),
    (["--game", "seven", "--opponent", "greedy", "--iterations", "10"],
     ["--iterations", "searching agents only", "greedy"]),
    (["--game", "seven", "--hint-iterations", "5"], ["--hint-iterations", "does not apply"]),
    (["--game", "seven", "--first-game-wonders"], ["--first-game-wonders", "does not apply"]),
    (["--seat", "3"], ["--seat", "3"]),
    (["--players", "3"], ["--players does not apply to --game duel"]),
])
def test_play_bad_flags_seven(args, words):
    one_error(run("play", *args, input="quit\n"), *words)


# ---------------------------------------------------------------- ladder
def test_ladder_seven(tmp_path):
    out = tmp_path / "lad"
    r = ok(run("ladder", "--game", "seven", "--players", "4", "random", "greedy",
               "mcts:20", "--games", "9", "--seed", "1", "--out", str(out), "--no-plot"))
    assert "Rating ladder" in r.output and "Game results" in r.output
    assert sorted(p.name for p in out.iterdir()) == [
        "games.parquet", "head_to_head.csv", "ladder.json", "ladder.md", "ratings.csv"]
    games = pd.read_parquet(out / "games.parquet")
    assert games["game"].nunique() == 9
    # seat s of game g holds agent (g + s) mod 3
    names = ["random", "greedy", "mcts:20"]
    assert all(a == names[(g + s) % 3] for g, s, a in
               games[["game", "seat", "agent"]].itertuples(index=False))
    ratings = pd.read_csv(out / "ratings.csv")
    assert set(ratings["agent"]) == set(names)
    assert ratings.set_index("agent").loc["random", "elo"] == 0          # the anchor
    assert "7 Wonders, 4 players, 3 agents rotated through the seats, 9 games" in \
        (out / "ladder.md").read_text()
    r = ok(run("ladder", "--game", "seven", "--players", "3", "random", "mcts",
               "--iterations", "10", "--games", "4", "--quiet"))


@pytest.mark.parametrize("args, words", [
    (["random"], ["at least 2 agents"]),
    (["random", "random", "--games", "2"], ["given twice", "random"]),
    (["random", "plan", "--games", "2"], ["plan", "not available"]),
    (["random", "greedy"], ["--games"]),
    (["random", "mcts", "--games", "2", "--seconds", "1"], ["seconds", "--iterations"]),
    (["random", "mcts:50", "--games", "2", "--iterations", "9"], ["give the budget once"]),
    (["random", "greedy", "--games", "2", "--players", "1"], ["--players", "1"]),
])
def test_ladder_seven_bad_input(args, words):
    r = run("ladder", "--game", "seven", *args)
    one_error(r, *words, code=r.exit_code if r.exit_code in (1, 2) else 2)


def test_ladder_players_needs_seven():
    one_error(run("ladder", "random", "greedy", "--games", "2", "--players", "4"),
              "--players does not apply to --game duel")


# ---------------------------------------------------------------- duel seven ...
def test_watch_record_replay(tmp_path):
    path = tmp_path / "g.json"
    r = ok(run("seven", "watch", "-n", "2", "-a", "greedy,random", "--record", str(path)))
    assert "Free City" in r.output and "winners: P" in r.output
    assert json.loads(path.read_text())["game"] == "seven"
    r = ok(run("seven", "replay", str(path)))
    assert "winner" in r.output
    r = ok(run("replay", str(path)))                       # the common command reads it too
    assert "7 Wonders" in r.output and "winner" in r.output
    r = ok(run("show", str(path), "--move", "3"))
    assert "after move 3" in r.output
    one_error(run("seven", "watch", "-n", "3", "--record", str(path)), "--record", "exists",
              "--overwrite")
    ok(run("seven", "watch", "-n", "3", "--seed", "1", "--record", str(path), "--overwrite"))
    assert json.loads(path.read_text())["players"] == 3
    path.write_text('{"game": "seven"}')
    one_error(run("seven", "replay", str(path)), "without", code=1)
    one_error(run("seven", "replay", str(tmp_path / "missing.json")), "no such file", code=1)
    one_error(run("seven", "watch", "-a", "alpha"), "unknown agent")


@pytest.mark.parametrize("command", [["simulate"], ["study"], ["bench"], ["play"],
                                     ["ladder"], ["watch"]])
def test_help_shows_a_seven_example(command):
    r = ok(run(*command, "--help"))
    assert "--game seven" in r.output
    assert "duel " in r.output.split("Example")[1]


def test_seven_replay_of_a_deeply_nested_file_is_one_clear_error(tmp_path):
    from duelpy.seven.records import RecordError, load_record
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="nested too deeply"):
        load_record(path)


def test_a_record_without_its_result_is_refused_naming_the_file(tmp_path):
    """Issue 29: a finished game's record with its result removed or null replayed with exit
    0 (Duel's is refused), and the errors did not name the file."""
    path = tmp_path / "g.json"
    ok(run("watch", "--game", "seven", "--players", "3", "--record", str(path)))
    rec = json.loads(path.read_text())
    for broken in ({k: v for k, v in rec.items() if k != "result"}, {**rec, "result": None}):
        path.write_text(json.dumps(broken))
        for command in ("replay", "show"):
            one_error(run(command, str(path)), "g.json", "no result", code=1)
