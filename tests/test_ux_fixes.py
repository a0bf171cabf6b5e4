"""What a new user met first, fixed: the play -> replay sequence of the README, where a
record goes, misspelt names, seat ranges, truncated JSON, the study's last line, unknown keys
in a record's moves, the summary snippet and the move numbers of duel play."""
from __future__ import annotations

import pytest

from cli_helpers import ok, one_error, run


# ------------------------------------------------------- 6. duel study lists each file once
def test_study_lists_each_plot_once(tmp_path):
    out = tmp_path / "st"
    r = ok(run("study", "--p1", "random", "--p2", "random", "--games", "40",
               "--p2-extra-coins", "2", "--workers", "1", "--out", str(out)))
    pngs = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert len(pngs) == 5
    text = "".join(r.output.split())      # stdout and stderr; a long path may be wrapped
    for name in pngs:
        assert text.count(name) == 1, (name, text[-800:])
    last = r.stderr.strip().split("wrote ")[-1]
    assert all(f"plots/{name}" in " ".join(last.split()) for name in pngs)


# ------------------------------------------------------- 4. --seat names the game's seats
@pytest.mark.parametrize("args, seat, words", [
    (["--game", "architects", "--players", "3"], "0", ["--seat", "0", "3-player", "1 to 3"]),
    (["--game", "architects", "--players", "3"], "5", ["--seat", "5", "3-player", "1 to 3"]),
    (["--game", "seven", "--players", "5"], "0", ["--seat", "0", "5-player", "1 to 5"]),
    (["--game", "seven", "--players", "5"], "8", ["--seat", "8", "5-player", "1 to 5"]),
    ([], "0", ["--seat", "0", "7 Wonders Duel", "1 or 2"]),
    ([], "3", ["--seat", "3", "7 Wonders Duel", "1 or 2"]),
])
def test_play_seat_out_of_range_names_the_real_range(tmp_path, args, seat, words):
    r = run("play", *args, "--seat", seat, "--record", str(tmp_path / "g.json"), input="")
    one_error(r, *words)
    assert "1<=x<=7" not in r.output and not (tmp_path / "g.json").exists()


# ------------------------------------------------------- 5. a truncated record: one full line
def _record(game, path):
    if game == "duel":
        ok(run("watch", "--agents", "random", "--seed", "1", "--record", str(path)))
    else:
        ok(run("watch", "--game", game, "--players", "3", "--agents", "random", "--seed", "1",
               "--record", str(path)))


@pytest.mark.parametrize("game", ["duel", "seven", "architects"])
@pytest.mark.parametrize("cut", [100, 7])
def test_a_truncated_record_is_one_complete_line(tmp_path, monkeypatch, game, cut):
    monkeypatch.chdir(tmp_path)
    _record(game, tmp_path / "g.json")
    (tmp_path / "bad.json").write_bytes((tmp_path / "g.json").read_bytes()[:cut])
    for args in (["replay", "bad.json"], ["show", "bad.json"], ["play", "--from", "bad.json"],
                 ["play", "--game", game, "--from", "bad.json"]):
        r = run(*args, input="")
        one_error(r, "bad.json is not valid JSON: unexpected end after line", "cut short?",
                  code=2 if args[0] == "play" else 1)
        assert "starting at)" not in r.stderr and "—" not in r.stderr


def test_json_problem_is_complete_for_each_kind_of_error():
    import json

    from duelpy.base.records import json_problem
    for text, words in (('{"a": 1,}', "expecting property name enclosed in double quotes at "
                                      "line 1, column 9"),
                        ('{"a": 1} x', "more text after the JSON value at line 1, column 10"),
                        ('{"a": "b', "unexpected end after line 1, column 8, inside a string "
                                     "opened at line 1, column 7 (cut short?)"),
                        ('{"a":\n 1', "unexpected end after line 2, column 2 (cut short?)"),
                        ('{"a": tru}', "expecting value at line 1, column 7")):
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            assert json_problem(e) == words, (text, json_problem(e))


# ------------------------------------------------------- 3. misspelt names: did you mean ...
A3 = ["--game", "architects", "--players", "3"]
S3 = ["--game", "seven", "--players", "3"]


@pytest.mark.parametrize("command, args, wrong, right", [
    ("simulate", A3 + ["--force-wonder", "p1=Gizah"], "Gizah", "'Giza'"),
    ("play", A3 + ["--force-wonder", "p2=Gizah"], "Gizah", "'Giza'"),
    ("study", A3 + ["--force-wonder", "p1=Gizah"], "Gizah", "'Giza'"),
    ("simulate", A3 + ["--force-wonder", "p1=Pyramids of Gizah"], "Gizah", "'Giza'"),
    ("simulate", A3 + ["--ban-token", "Economie"], "Economie", "'Economy'"),
    ("study", S3 + ["--force-wonder", "p1=Giza"], "Giza", "'Gizah'"),
    ("study", S3 + ["--force-wonder", "p1=Halicarnassus B"], "Halicarnassus", "'Halikarnassus'"),
    ("simulate", S3 + ["--remove", "Scientist Guild"], "Scientist Guild", "'Scientists Guild'"),
    ("simulate", S3 + ["--agents", "grdy"], "grdy", "'greedy'"),
    ("simulate", A3 + ["--agents", "random,grdy,greedy"], "grdy", "'greedy'"),
    ("simulate", S3 + ["--agents", "mcts:iteratons=5"], "iteratons", "'iterations'"),
    ("simulate", A3 + ["--agents", "mcts:iteratons=5"], "iteratons", "'iterations'"),
    ("simulate", ["--force-wonder", "p1=The Pyramid"], "The Pyramid", "'The Pyramids'"),
    ("simulate", ["--ban-token", "Lw"], "Lw", "'Law'"),
    ("study", ["--ban-token", "Lw"], "--ban-token", "'Law'"),
    ("study", ["--force-wonder", "p2=The Pyramid"], "--force-wonder", "'The Pyramids'"),
])
def test_a_misspelt_name_is_refused_with_the_games_spelling(tmp_path, command, args, wrong,
                                                            right):
    extra = {"simulate": ["--games", "2", "-q"], "study": ["--games", "2", "--out",
                                                          str(tmp_path / "st")],
             "play": ["--record", str(tmp_path / "g.json")]}[command]
    r = run(command, *args, *extra, input="")
    one_error(r, wrong, "did you mean", right)
    assert not (tmp_path / "st").exists() and not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("study, wrong, right", [
    ('game = "architects"\nplayers = 3\n[[treatment]]\nwonders = {p1 = "Gizah"}\n',
     "Gizah", "'Giza'"),
    ('game = "seven"\nplayers = 3\n[[treatment]]\nboards = {p1 = "Rodos"}\n',
     "Rodos", "'Rhodos'"),
    ('game = "seven"\nplayers = 3\n[[treatment]]\nremove = ["Scientist Guild"]\n',
     "Scientist Guild", "'Scientists Guild'"),
    ('[[treatment]]\nbanned_tokens = ["Lw"]\n', "Lw", "'Law'"),
])
def test_a_misspelt_name_in_a_study_file(tmp_path, study, wrong, right):
    path = tmp_path / "s.toml"
    path.write_text("games = 2\n" + study)
    r = run("study", str(path), "--out", str(tmp_path / "st"))
    one_error(r, wrong, "did you mean", right, code=1)
    assert not (tmp_path / "st").exists()


def test_architects_wonder_names_that_stay_accepted():
    from duelpy.architects.game import resolve_wonder
    for text, name in (("giza", "Giza"), (" GIZA ", "Giza"), ("The Giza", "Giza"),
                       ("Colossus of Rhodes", "Rhodes"), (3, "Giza")):
        assert resolve_wonder(text) == name


# ------------------------------------------------------- 7. unknown keys in a record's moves
def _tampered(tmp_path, game, change):
    import json
    _record(game, tmp_path / "g.json")
    rec = json.loads((tmp_path / "g.json").read_text())
    change(rec)
    (tmp_path / "t.json").write_text(json.dumps(rec))
    return tmp_path / "t.json"


def _extra_in_move(rec):
    m = rec["moves"][2]
    if isinstance(m, dict):
        m["comment"] = "nice"
    else:
        m.append("nice")


@pytest.mark.parametrize("game", ["duel", "seven", "architects"])
def test_an_unknown_key_in_a_move_is_refused_with_the_move_number(tmp_path, game):
    path = _tampered(tmp_path, game, _extra_in_move)
    for command in ("replay", "show"):
        r = run(command, str(path))
        one_error(r, "t.json", "move 3", *(["'comment'"] if game == "duel" else []), code=1)
    r = run("play", "--from", str(path), input="")
    one_error(r, "--from", "move 3")


@pytest.mark.parametrize("game", ["duel", "seven", "architects"])
def test_an_unknown_record_key_is_refused(tmp_path, game):
    path = _tampered(tmp_path, game, lambda rec: rec.update(comment="nice"))
    one_error(run("replay", str(path)), "t.json", "unknown record key", "comment", code=1)


def test_duel_records_as_every_version_wrote_them_still_load(tmp_path):
    """Version 1 is the only version written; its moves had player, id and name from the
    start, and a record without rules_version, players or a move's player still loads."""
    import json

    from duelpy.duel.records import from_dict, record_game
    d = record_game("greedy", "random", seed=4).to_dict()
    assert set(d) == {"format", "version", "rules_version", "seed", "options", "players",
                      "moves", "result"}
    assert all(set(m) == {"player", "id", "name"} for m in d["moves"])
    old = json.loads(json.dumps(d))
    del old["rules_version"], old["players"]
    for m in old["moves"]:
        del m["player"]
    assert from_dict(old).moves == from_dict(d).moves


# ------------------------------------------------------- 1, 2. play -> quit -> replay
GAMES = {"duel": [], "seven": ["--game", "seven", "--players", "3"],
         "architects": ["--game", "architects", "--players", "3"]}
OPPONENT = {"duel": "greedy", "seven": "random", "architects": "random"}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("stop", ["quit\n", ""])              # quit, or the end of input
def test_quit_before_any_move_writes_a_record_that_replays(tmp_path, monkeypatch, game, stop):
    monkeypatch.chdir(tmp_path)
    r = ok(run("play", *GAMES[game], "--opponent", OPPONENT[game], "--seed", "42",
               "--record", "my-game.json", input=stop))
    assert "Game record saved to my-game.json" in r.output
    r = ok(run("replay", "my-game.json"))
    assert "0 moves" in r.output
    ok(run("show", "my-game.json"))
    ok(run("show", "my-game.json", "--move", "0"))
    r = ok(run("play", "--from", "my-game.json", "--opponent", OPPONENT[game], "--record",
               "again.json", input="quit\n"))
    assert "Seed 42" in r.output and "Game record saved to again.json" in r.output


@pytest.mark.parametrize("game", list(GAMES))
def test_the_default_record_is_where_the_help_says(tmp_path, monkeypatch, game):
    monkeypatch.chdir(tmp_path)
    r = ok(run("play", *GAMES[game], "--opponent", OPPONENT[game], "--seed", "42",
               input="quit\n"))
    (path,) = tmp_path.iterdir()
    stem = "duel" if game == "duel" else game
    assert path.name.startswith(f"{stem}-game-42-") and path.suffix == ".json"
    assert f"The game record will be saved to {path.name}" in r.output
    assert f"Game record saved to {path.name}" in r.output
    ok(run("replay", path.name))
    text = " ".join(ok(run("play", "--help")).output.split())
    assert "GAME-game-SEED-TIME.json in the current folder" in text
    assert "duel-game-42-20261203-181500.json" in text and (
        stem == "duel" or f"{stem}-game-..." in text)


def test_a_game_with_no_move_replaces_no_file(tmp_path):
    good = tmp_path / "good.json"
    ok(run("watch", "--game", "architects", "--players", "3", "--agents", "random",
           "--record", str(good)))
    before = good.read_text()
    r = ok(run("play", *GAMES["architects"], "--record", str(good), "--overwrite",
               input="quit\n"))
    assert f"{good} kept as it was" in r.output and good.read_text() == before


def test_the_docs_say_what_quit_does():
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    cli = " ".join((root / "docs" / "cli.md").read_text().split())
    assert "A game with no move writes no record" not in cli
    assert "also when no move was played" in " ".join(cli.split())
    for game in ("duel", "seven", "architects"):
        assert f"{game}-game-<seed>-<time>.json" in cli


# ------------------------------------------------------- 9. Duel's move numbers are action ids
def test_duel_play_takes_the_numbers_its_list_shows(tmp_path):
    import duelcore

    from duelpy.duel.notation import legal_moves
    state = duelcore.new_game(42)
    ids = [a for a, _ in legal_moves(state)]
    position = next(k for k in range(1, len(ids) + 1) if k not in ids)     # a 1..N number
    r = ok(run("play", "--opponent", "random", "--seed", "42", "--record",
               str(tmp_path / "g.json"), input=f"{position}\n{ids[-1]}\nquit\n"))
    assert f"{ids[-1]:>4}  " in r.output                          # the list shows the ids
    err = " ".join(r.stderr.split())
    assert f"the numbers of your moves are the action ids in the list ({ids[0]}, " in err
    assert f"not 1 to {len(ids)}" in err
    assert "P1 (you) play: " in r.output
    from duelpy.duel.records import load
    assert load(tmp_path / "g.json").moves[0] == ids[-1]
    text = " ".join(ok(run("play", "--help")).output.split())
    assert "action ids" in text and "1 to N" in text


@pytest.mark.parametrize("game", ["seven", "architects"])
def test_the_seat_games_take_list_numbers_1_to_n(tmp_path, game):
    r = ok(run("play", *GAMES[game], "--opponent", "random", "--seed", "42", "--record",
               str(tmp_path / "g.json"), input="1\nquit\n"))
    assert "  1  " in r.output and "you play: " in r.output


def test_a_truncated_study_record_is_one_complete_line(tmp_path):
    out = tmp_path / "st"
    ok(run("study", "--p1", "random", "--p2", "random", "--games", "10", "--no-plots",
           "--workers", "1", "-q", "--out", str(out)))
    text = (out / "study.json").read_text()
    (out / "study.json").write_text(text[:100])
    r = run("study", "--resume", "--out", str(out))
    one_error(r, "study.json", "not valid JSON: unexpected end after line", "(cut short?)",
              code=1)


# ---------------------------------------------------------------- run folders (new-user check)
def _duel_study(out, *extra):
    return run("study", "--p1", "greedy", "--p2", "greedy", "--games", "8", "--out", str(out),
               "--no-plots", "--quiet", *extra)


def test_a_ladder_never_writes_into_a_study_folder(tmp_path):
    """A ladder's --out naming a study's folder (with or without --overwrite) is refused, and
    the study's games stay as they were."""
    out = tmp_path / "s"
    ok(_duel_study(out, "--p2-extra-coins", "2"))
    before = (out / "games.parquet").read_bytes()
    for extra in ((), ("--overwrite",)):
        one_error(run("ladder", "random", "greedy", "--games", "4", "--out", str(out), *extra),
                  "holds a study", "not a ladder", code=1)
    assert (out / "games.parquet").read_bytes() == before
    lad = tmp_path / "l"
    ok(run("ladder", "random", "greedy", "--games", "4", "--out", str(lad), "--no-plot"))
    one_error(_duel_study(lad), "holds a ladder", "not a study", code=1)


def test_resume_where_there_is_nothing_to_resume_is_refused(tmp_path):
    (tmp_path / "notarun").mkdir()
    (tmp_path / "notarun" / "x.txt").write_text("mine")
    for out in (tmp_path / "notarun", tmp_path / "missing"):
        one_error(_duel_study(out, "--resume"), "no interrupted study to resume", code=1)
        one_error(run("ladder", "random", "greedy", "--games", "4", "--out", str(out),
                      "--resume"), "no interrupted ladder to resume", code=1)
    assert sorted(p.name for p in (tmp_path / "notarun").iterdir()) == ["x.txt"]
    assert not (tmp_path / "missing").exists() or not any((tmp_path / "missing").iterdir())


def test_resume_with_another_game_is_refused(tmp_path):
    out = tmp_path / "s"
    ok(_duel_study(out))
    report = (out / "report.md").read_text()
    one_error(run("study", "--game", "architects", "--games", "8", "--out", str(out),
                  "--resume"), "holds a study of duel, not of architects", code=1)
    assert (out / "report.md").read_text() == report


@pytest.mark.parametrize("game, flags", [
    ("duel", ["--p1", "greedy", "--p2", "greedy", "--p2-extra-coins", "2"]),
    ("seven", ["--game", "seven", "--players", "3", "--remove", "Scientists Guild"]),
    ("architects", ["--game", "architects", "--players", "2", "--force-wonder", "p1=Giza"]),
])
def test_the_same_study_command_again_with_resume_completes_it(tmp_path, game, flags):
    """Repeating the command with --resume (as for simulate) does not add its treatment flags a
    second time; a different treatment is still refused as a different study."""
    out = tmp_path / game
    args = ["study", "--games", "8", "--out", str(out), "--no-plots", "--quiet", *flags]
    ok(run(*args))
    ok(run(*args, "--resume"))
    if game == "duel":
        one_error(run(*[a if a != "2" else "3" for a in args], "--resume"),
                  "holds a different study", code=1)


def test_a_seven_record_with_a_seed_beyond_64_bits_or_a_bool_action_is_refused(tmp_path):
    """7 Wonders records are checked as Architects' are: the seed within 0..2**64-1 (it
    wrapped to the seed modulo 2**64), seats and actions integers, not booleans."""
    import json
    path = tmp_path / "s.json"
    ok(run("watch", "--game", "seven", "--players", "3", "--agents", "random", "--seed", "5",
           "--record", str(path)))
    rec = json.loads(path.read_text())
    big = dict(rec, seed=2**64 + 5)
    (tmp_path / "big.json").write_text(json.dumps(big))
    one_error(run("replay", str(tmp_path / "big.json")), "seed", "2**64 - 1", code=1)
    seat = dict(rec, moves=[[True] + rec["moves"][0][1:]] + rec["moves"][1:])
    (tmp_path / "bool.json").write_text(json.dumps(seat))
    one_error(run("replay", str(tmp_path / "bool.json")), "move 1", code=1)


def test_simulate_over_an_interrupted_run_points_to_resume(tmp_path):
    """The table of an interrupted run exists beside its run folder: simulate without
    --resume names the interrupted run and --resume, not only --overwrite."""
    out = tmp_path / "x.parquet"
    out.write_bytes(b"PAR1")                               # what Ctrl-C left (rows so far)
    run_dir = tmp_path / ".x.parquet.run"
    run_dir.mkdir()
    (run_dir / "simulate.json").write_text("{}")
    one_error(run("simulate", "--games", "10", "--out", str(out)), "interrupted run",
              "--resume")


def test_seven_rendering_names_the_seats_waited_for_as_players():
    """The board's 'waiting for' line names players as the rest of the board does (P1..,
    the Free City), not 0-based seat numbers."""
    from duelpy.seven import new_game, render_text
    assert render_text(new_game(3, seed=1)).splitlines()[1].endswith("(P1, P2, P3)")
    assert render_text(new_game(2, seed=1)).splitlines()[1].endswith("(P1, P2, Free City)")


def test_a_folder_holding_games_of_no_known_run_is_refused(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "games.parquet").write_bytes(b"PAR1 somebody's games")
    one_error(_duel_study(out), "games.parquet of no known study", "--overwrite", code=1)
    one_error(run("ladder", "random", "greedy", "--games", "4", "--out", str(out)),
              "games.parquet of no known ladder", code=1)
    assert (out / "games.parquet").read_bytes() == b"PAR1 somebody's games"


# --- the reader of stdout goes away (duel ... | head): exit 141 quietly, as shell tools do

@pytest.mark.parametrize("args", [
    ["agents"],                                             # rich output
    ["simulate", "--games", "20", "--p1", "random", "--p2", "random"],
    ["simulate", "--game", "architects", "--players", "3", "--games", "20"],
])
def test_broken_pipe_exits_141_without_a_message(args):
    import os
    import subprocess
    import sys
    r, w = os.pipe()
    os.close(r)                             # no reader: the first write fails with EPIPE
    try:
        proc = subprocess.run([sys.executable, "-m", "duelpy.cli", *args], stdout=w,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
    assert proc.returncode == 141, proc.stderr
    assert "Error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert "Exception ignored" not in proc.stderr, proc.stderr


# ------------------------------------------------------- a new user's bad input (2026-12-07)
@pytest.mark.parametrize("args, words", [
    (["simulate", "--games", "10", "--resume"], ["--resume needs --out"]),
    (["simulate", "--players", "9"], ["--players does not apply to --game duel"]),
    (["simulate", "--game", "architects", "--players", "1"], ["--players 1", "2 to 7"]),
    (["simulate", "--games", "10", "--force-wonder", "p1=Giza"],
     ["--force-wonder", "unknown wonder 'Giza'", "choose from", "The Pyramids"]),
    (["study", "--games", "10", "--p2-extra-coins", "-100", "--out", "x"],
     ["--p2-extra-coins", "-100", "P2 would start with -93 coins"]),
    (["study", "--games", "4", "--ban-token", "Economy", "--ban-token", "Economy", "--out", "x"],
     ["--ban-token", "Economy is given twice"]),
    (["ladder", "random", "random", "--games", "10"], ["'random' is given twice"]),
    (["ladder", "--game", "architects", "--players", "2", "random", "mctz", "--games", "4"],
     ["unknown agent 'mctz'", "did you mean 'mcts'"]),
    (["simulate", "--game", "architects", "--agents", "mcts:foo=1"],
     ["option 'foo'", "(iterations, c, playout)"]),
    (["simulate", "--game", "architects", "--agents", "mcts:100:0.5:bogus"],
     ["'bogus'", "not a playout policy", "sharp, lite, greedy, model"]),
    (["simulate", "--game", "architects", "--agents", "mcts:50:lte"],
     ["'lte' is neither C", "did you mean 'lite'"]),
    (["simulate", "--games", "abc"], ["--games", "'abc' is not a valid integer."]),
    (["serve", "--hint-seconds", "x"], ["--hint-seconds", "'x' is not a valid float."]),
    (["play", "--seconds", "nan"], ["'--seconds'", "'nan' is not a number"]),
    (["study", "--out", "s", "--p1", "mcts:iterations=0", "--games", "4"],
     ["--p1", "iterations must be an integer from 1"]),
    (["study", "--out", "s", "--p2", "bogus", "--games", "4"], ["--p2", "unknown agent 'bogus'"]),
    (["study", "--out", "s", "--game", "architects", "--agents", "mcts:iterations=0",
      "--games", "4"], ["--agents", "iterations must be an integer from 1"]),
])
def test_bad_input_is_usage(args, words, tmp_path, monkeypatch):
    """Each is bad usage: one line naming the flag or the part that is wrong, exit 2, and
    nothing written."""
    monkeypatch.chdir(tmp_path)
    one_error(run(*args), *words, code=2)
    assert list(tmp_path.iterdir()) == []


def test_ladder_error_names_the_agent_once(tmp_path):
    r = run("ladder", "mctz", "random", "--games", "2")
    one_error(r, "unknown agent 'mctz'", code=2)
    assert r.stderr.lower().count("mctz") == 1


@pytest.mark.parametrize("game, record, words", [
    ("seven", {"game": "seven", "format": 99, "players": 3, "seed": 1, "sides": "random",
               "moves": []}, ["format 1, not 99"]),
    ("architects", {"game": "architects", "format": 99, "players": 2, "seed": 1, "moves": []},
     ["format 1, not 99"]),
    ("architects", {"game": "seven", "format": 1, "players": 2, "seed": 1, "moves": []},
     ["not a 7 Wonders Architects record", "'seven'"]),
])
def test_record_format_message_says_what_it_found(game, record, words):
    if game == "seven":
        from duelpy.seven.records import RecordError, replay
    else:
        from duelpy.architects.records import RecordError, replay
    with pytest.raises(RecordError) as e:
        replay(record)
    for w in words:
        assert w in str(e.value), str(e.value)

