"""7 Wonders Architects on the command line and in its Python face: ``duel simulate | study |
ladder | bench | play | watch | replay | show | agents --game architects --players N``, the
notation, the rendering and game records.  Every user error is one line (``Error: ...``, a
ValueError subclass from Python), a non-zero exit, the state unchanged."""
import json

import pandas as pd
import pytest

from duelcore.architects import engine as core
from duelpy.architects import (RecordError, load_record, new_game, parse_action,
                               record_of, render_text, replay, save_record)
from duelpy.architects.game import play_game
from cli_helpers import ok, one_error, run


GAME = ["--game", "architects"]


# ---------------------------------------------------------------- the Python face
def test_notation_reads_what_it_writes():
    """Every legal decision's name parses back to it; case and spacing are ignored; a
    payment's cards in any order; Alexandria's deck by its wonder."""
    s = new_game(3, seed=8)
    import random
    rng = random.Random(8)
    seen = set()
    while not s.is_terminal():
        for a in s.legal_actions():
            name = s.action_to_string(a)
            assert parse_action(s, name) == a
            assert parse_action(s, "  " + name.upper() + " ") == a
            seen.add(name.split()[0])
            if name.startswith("pay ") and "," in name:
                parts = name[4:].split(", ")
                assert parse_action(s, "pay " + ", ".join(reversed(parts))) == a
        s.apply_action(rng.choice(s.legal_actions()))
    assert {"take", "pay"} <= seen
    before = new_game(2, seed=1)
    d = before.to_dict()
    for bad in ("take middle", "", "pay wood", "token Economy", "build S5"):
        with pytest.raises(core.IllegalActionError):
            parse_action(before, bad)
    assert before.to_dict() == d
    with pytest.raises(core.IllegalActionError):
        before.apply_action(999)
    with pytest.raises(core.IllegalActionError):
        before.apply_action(-1)
    assert before.to_dict() == d


def test_render_shows_the_table_as_a_seat_may_see_it():
    """The text names the decks (sizes and visible tops), the central deck, the tokens, the
    conflict tokens and the cat, every seat's wonder, stages, cards and tokens; a seat sees
    the central top only if it looked at it (A-INFO-2)."""
    s = new_game(3, seed=2)
    text = render_text(s)
    for w in ("central deck: 60 cards", "progress tokens: face up", "conflict: 0 of 3",
              "cat: middle", "P1 ", "P2 ", "P3 ", "deck: 25 cards, top", "P1 (" ):
        assert w in text, (w, text)
    from arch_helpers import position
    p = position(central_top="coin", knowers=[1], cat=1)
    assert "known: coin" in render_text(p) and "known" not in render_text(p, seat=0)
    assert "known: coin" in render_text(p, seat=1)


def test_set_up_errors_are_one_line():
    """A-SETUP-1, A-SETUP-2: a bad player count, an unknown wonder or token, an option of
    another game: one-line ValueErrors."""
    for kw, words in (({"players": 1}, "2 to 7"), ({"players": 3, "wonders": ["Zeus", None,
                      None]}, "unknown wonder"),
                      ({"players": 3, "removed_tokens": ["Law"]}, "unknown progress token"),
                      ({"players": 3, "centred_pawn": "begins"}, "not an option"),
                      ({"players": 3, "free_order": "yes"}, "true or false")):
        with pytest.raises(ValueError) as e:
            new_game(**kw)
        assert words in str(e.value) and "\n" not in str(e.value)


def test_records_replay_and_refuse_bad_ones(tmp_path):
    """A record is seed + set-up + decisions; it replays to the game, and a malformed or
    inconsistent one is refused with a RecordError naming the problem."""
    st, moves = play_game(3, ["greedy", "random", "mcts:30"], seed=4, free_order=True)
    rec = record_of(3, 4, moves, setup={"free_order": True}, agents=["greedy", "random",
                                                                      "mcts:30"])
    path = tmp_path / "g.json"
    save_record(path, rec)
    assert replay(load_record(path)) == st
    assert rec["result"]["winners"] == st.winners()
    bad = []
    r = json.loads(json.dumps(rec))
    r["moves"][3][2] = "take nowhere"
    bad.append((r, "is"))
    r = json.loads(json.dumps(rec))
    r["moves"][2][0] = (r["moves"][2][0] + 1) % 3
    bad.append((r, "decision"))
    r = json.loads(json.dumps(rec))
    r["result"]["totals"][0] += 1
    bad.append((r, "differs"))
    r = json.loads(json.dumps(rec))
    r["players"] = 9
    bad.append((r, "2 to 7"))
    r = json.loads(json.dumps(rec))
    r["extra"] = 1
    bad.append((r, "unknown"))
    r = json.loads(json.dumps(rec))
    r["setup"] = {"centred_pawn": "x"}
    bad.append((r, "not an option"))
    for r, words in bad:
        with pytest.raises(RecordError) as e:
            replay(r)
        assert words in str(e.value), (words, str(e.value))
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(tmp_path / "x.json")


# ---------------------------------------------------------------- the commands
def test_simulate_prints_the_seat_and_victory_tables_and_writes_rows(tmp_path):
    """duel simulate --game architects --players 4: the seat, wonder (victory) and VP
    tables; --out rows per game and seat with VP by category."""
    out = tmp_path / "g.parquet"
    r = ok(run("simulate", *GAME, "--players", "4", "--games", "300", "--out", str(out),
               "--agents", "greedy,random,random,random"))
    for w in ("Win rate by seat", "Win rate by wonder", "Mean VP by category", "greedy"):
        assert w in r.output, w
    df = pd.read_parquet(out)
    assert len(df) == 1200 and {"vp_wonder", "vp_blue", "vp_military", "vp_cat",
                                "vp_progress", "stages", "win", "wonder"} <= set(df.columns)
    assert abs(df["win"].sum() - 300) < 1e-9


@pytest.mark.parametrize("args, words", [
    (["--players", "8"], ["--players"]),
    (["--players", "1"], ["--players"]),
    (["--force-wonder", "p1=Atlantis"], ["unknown wonder"]),
    (["--force-wonder", "p9=Giza"], ["seat"]),
    (["--ban-token", "Law"], ["unknown progress token"]),
    (["--start-coins", "7,9"], ["does not apply"]),
    (["--alternate"], ["does not apply"]),
    (["--agents", "plan"], ["duel agent"]),
    (["--agents", "greedy,greedy"], ["give 1 agent or 4"]),
])
def test_simulate_bad_input_is_one_line(args, words):
    one_error(run("simulate", *GAME, "--games", "5", *args), *words)


def test_simulate_set_up_flags():
    """--force-wonder, --ban-token and each rule option (A-OPT) reach the games."""
    r = ok(run("simulate", *GAME, "--players", "3", "--games", "40", "--force-wonder",
               "p2=Giza", "--ban-token", "Economy", "--free-order", "--economy-optional",
               "--engineering-once-per-turn", "--coins-only-when-needed",
               "--wonder-power-optional"))
    assert "free_order=True" in r.output and "Giza" in r.output


def test_study_treatments_and_report(tmp_path):
    """duel study --game architects: a forced wonder, a removed token and a rule option are
    treatments on the same seeds; the report gives win rates by wonder and seat with 95%
    intervals and the paired changes."""
    out = tmp_path / "st"
    ok(run("study", *GAME, "--players", "3", "--games", "40", "--force-wonder", "p1=Rhodes",
           "--ban-token", "Culture", "--wonder-power-optional", "--out", str(out), "--quiet",
           "--no-plots"))
    df = pd.read_parquet(out / "games.parquet")
    assert set(df["arm"]) == {"Control", "P1 Rhodes", "without Culture",
                              "wonder_power_optional=true"}
    assert (df[(df["arm"] == "P1 Rhodes") & (df["seat"] == 0)]["wonder"] == "Rhodes").all()
    md = (out / "report.md").read_text()
    assert "Win rate by wonder" in md and "95% interval" in md and "Change of each" in md
    f = tmp_path / "s.toml"
    f.write_text('game = "architects"\nplayers = 2\ngames = 20\n[agents]\nseats = "random"\n'
                 '[options]\nfree_order = true\n[[treatment]]\nwonders = { p2 = "Giza" }\n')
    ok(run("study", str(f), "--out", str(tmp_path / "st2"), "--quiet"))
    f.write_text('game = "architects"\nplayers = 2\n[options]\nwonders = { p1 = "Giza" }\n')
    one_error(run("study", str(f), "--out", str(tmp_path / "st3")), "treatment", code=1)


def test_ladder_bench_agents_watch_replay_show(tmp_path):
    """duel ladder / bench / agents / watch / replay / show with --game architects."""
    r = ok(run("ladder", *GAME, "--players", "3", "random", "greedy", "--games", "30",
               "--quiet", "--out", str(tmp_path / "lad")))
    assert (tmp_path / "lad" / "ratings.csv").exists()
    r = ok(run("bench", *GAME, "--players", "2", "--games", "1000", "--iterations", "200",
               "--repeat", "1"))
    assert "random games / s" in r.output and "signature" in r.output
    r = ok(run("agents", *GAME))
    assert "mcts" in r.output and "greedy" in r.output
    rec = tmp_path / "w.json"
    r = ok(run("watch", *GAME, "--players", "3", "--agents", "greedy,random,mcts:20",
               "--record", str(rec)))
    assert "Result:" in r.output
    r = ok(run("replay", str(rec)))
    assert "7 Wonders Architects" in r.output and "take" in r.output
    r = ok(run("show", str(rec), "--move", "3"))
    assert "after move 3" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "architects", "format": 1, "players": 2, "seed": 1,
                               "moves": [[0, 999, "x"]]}))
    one_error(run("replay", str(bad)), code=1)


def test_play_in_the_terminal(tmp_path):
    """duel play --game architects: moves by number or name, quit saves the record."""
    rec = tmp_path / "p.json"
    r = ok(run("play", *GAME, "--players", "2", "--opponent", "greedy", "--seed", "3",
               "--record", str(rec), input="moves\ntake left\n1\nbogus\n2\nquit\n"))
    assert "you play: take left" in r.output and "not one of your legal moves" in r.output
    loaded = load_record(rec)
    assert loaded["moves"] and loaded["agents"][0] == "you"
    one_error(run("play", *GAME, "--players", "2", "--seat", "3"), "seat")


def test_play_continues_a_saved_game(tmp_path):
    """duel play --game architects --from FILE [--move K]: the record's players, seed and
    rules, its first K moves kept; flags that would change them, a K past the end and a
    finished game are refused with one line."""
    rec = tmp_path / "p.json"
    ok(run("play", *GAME, "--players", "3", "--opponent", "greedy", "--seed", "5",
           "--free-order", "--record", str(rec), input="1\n1\nquit\n"))
    saved = load_record(rec)
    n = len(saved["moves"])
    assert n >= 2 and saved["setup"] == {"free_order": True}
    again = tmp_path / "q.json"
    ok(run("play", "--from", str(rec), "--move", "1", "--opponent", "greedy",   # the game
           "--record", str(again), input="quit\n"))                             # is read
    one_error(run("play", "--game", "seven", "--from", str(rec)), "Architects record")
    cont = load_record(again)
    assert (cont["players"], cont["seed"], cont["setup"]) == (3, 5, {"free_order": True})
    assert cont["moves"][:1] == saved["moves"][:1]
    one_error(run("play", *GAME, "--from", str(rec), "--seed", "9"), "--seed")
    one_error(run("play", *GAME, "--from", str(rec), "--move", str(n + 1)), "--move")
    done = tmp_path / "done.json"
    ok(run("watch", *GAME, "--players", "2", "--agents", "random", "--record", str(done)))
    one_error(run("play", *GAME, "--from", str(done)), "over")
