"""duel seven ...: the 7 Wonders commands (simulate, study, bench, play, replay) and their
one-line errors."""
import json

from click.testing import CliRunner

from duelpy.cli import main


def run(*args):
    return CliRunner().invoke(main, ["seven", *args])


def test_simulate_and_study():
    r = run("simulate", "-n", "3", "-g", "30", "--seed", "1")
    assert r.exit_code == 0 and "win_rate" in r.output
    r = run("study", "-n", "4", "-g", "40", "-a", "random", "--by", "board-side")
    assert r.exit_code == 0 and "Gizah" in r.output and "ci_high" in r.output
    r = run("study", "-n", "3", "-g", "20", "-a", "random", "--sides", "B", "--by", "side")
    assert r.exit_code == 0 and "A " not in r.output.splitlines()[-1]


def test_play_record_replay(tmp_path):
    path = tmp_path / "g.json"
    r = run("play", "-n", "2", "-a", "greedy,random", "--record", str(path))
    assert r.exit_code == 0 and "Free City" in r.output
    assert json.loads(path.read_text())["game"] == "seven"
    r = run("replay", str(path))
    assert r.exit_code == 0 and "winners" in r.output
    path.write_text('{"game": "seven"}')
    r = run("replay", str(path))
    assert r.exit_code == 1 and r.output.strip().startswith("error:") and "Traceback" not in r.output


def test_bad_flags_one_line():
    for args, msg in ((("simulate", "-n", "8"), "not in the range"),
                      (("simulate", "-a", "alpha"), "unknown agent"),
                      (("simulate", "-n", "3", "-a", "random,greedy"), "give 1 or 3 agents")):
        r = run(*args)
        assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output


def test_bench():
    r = run("bench", "-n", "3", "-g", "200", "--mcts-iterations", "100")
    assert r.exit_code == 0 and "random games/s" in r.output and "iterations/s" in r.output
