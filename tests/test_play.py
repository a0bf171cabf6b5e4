"""``duel play`` (issue 11): the board and the reason whenever the decision is yours, a live
"thinking…" line, Ctrl-C and end of input alike, records never written over a file or empty.
"""
from __future__ import annotations

import re
import subprocess

import pytest
from click.testing import CliRunner

import duelcore
from duelcore import search
from duelpy.duel.agents import STRONGEST, GreedyAgent, MCTSAgent, parse_agent
from duelpy.cli.main import main
from duelpy.cli.play import why_yours
from duelpy.duel.notation import action_name
from duelpy.duel.records import load, record_game
from duelpy.duel.thinking import Thinking
from sigint_helpers import EXIT_BOUND, Child


def run(args, input=None, env=None):
    return CliRunner(env=env).invoke(main, args, input=input)


def script(seed, seat, opponent="greedy", chooser=lambda legal: legal[-1]):
    """The human's decisions and their phases in the game the CLI plays (seat 1 or 2)."""
    state = duelcore.new_game(seed)
    agent = parse_agent(opponent)
    agent.reset(search.agent_seed(seed, 2 - seat))
    mine, phases = [], []
    while not state.is_terminal():
        if state.current_player() == seat - 1:
            a = chooser(state.legal_actions())
            mine.append(a)
            phases.append(state.phase)
        else:
            a = agent.select_action(state)
        state.apply_action(a)
    return mine, phases


def test_every_decision_of_yours_redraws_the_board_and_says_why(tmp_path):
    seed = 28                  # P1 (last legal move each time) meets every kind of decision
    mine, phases = script(seed, 1)
    assert {"draft", "choose_start", "destroy", "library", "revive"} <= set(phases)
    r = run(["play", "--opponent", "greedy", "--seed", str(seed), "--record",
             str(tmp_path / "g.json")], input="\n".join(map(str, mine)) + "\n")
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.count("Military track") == len(mine) + 1       # each decision, and the end
    heading = "Your moves (type the number beside a move, its action id, or its name):"
    assert out.count(heading) == len(mine)
    for words in ("Wonder draft, group 1 of 2: you pick first",
                  "Wonder draft, group 2 of 2: you pick two wonders in a row",
                  "your second pick in a row",
                  "Age I begins: you begin.",
                  "so you choose who begins Age II",
                  "choose one of your opponent's",
                  "The Great Library: choose one of the progress tokens",
                  "The Mausoleum: choose a card from the discard pile",
                  "Play Again: it is your turn again."):
        assert words in " ".join(out.split()), words


def test_why_yours_names_the_age_and_who_chose():
    state = duelcore.new_game(2)
    g = GreedyAgent()
    g.reset(1)
    seen = {}
    before = last = None
    while not state.is_terminal():
        p = state.current_player()
        seen.setdefault((state.phase, state.age), why_yours(state, before, last, p))
        before, last = state.clone(), g.select_action(state)
        state.apply_action(last)
    texts = " ".join(seen.values())
    assert "Age I begins" in texts and "Age II begins" in texts and "Age III begins" in texts
    assert re.search(r"Age (II|III) begins: you begin \((you chose to|your opponent chose)\)",
                     texts)


def test_an_existing_record_is_never_replaced(tmp_path):
    good = tmp_path / "good.json"
    record_game("greedy", "random", seed=5).save(good)
    before = good.read_text()
    r = run(["play", "--opponent", "greedy", "--record", str(good)], input="")
    assert r.exit_code == 2 and "already exists" in r.stderr and "--overwrite" in r.stderr
    assert "7 Wonders Duel" not in r.output
    # --overwrite, then end of input at once: no move, so nothing is written over it
    r = run(["play", "--opponent", "greedy", "--record", str(good), "--overwrite"], input="")
    assert r.exit_code == 0, r.output
    assert f"No move was played: {good} kept as it was" in r.output
    assert good.read_text() == before


def test_save_asks_before_replacing_a_file(tmp_path):
    other = tmp_path / "other.json"
    other.write_text("keep me\n")
    first = duelcore.new_game(7).legal_actions()[0]
    lines = [str(first), f"save {other}", "n", f"save {other}", "y", "quit"]
    r = run(["play", "--opponent", "greedy", "--seed", "7", "--record",
             str(tmp_path / "g.json")], input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("exists: overwrite it?") == 2
    assert "not saved: " in r.output
    assert load(other).moves[0] == first                      # the yes replaced it
    assert load(tmp_path / "g.json").moves[0] == first        # the record at the end


def test_the_thinking_line_shows_iterations_and_the_best_move(tmp_path):
    """On a terminal (rich told so by TTY_COMPATIBLE) the opponent's search shows live."""
    r = run(["play", "--opponent", "mcts:iterations=80000", "--seat", "2", "--seed", "3",
             "--record", str(tmp_path / "x.json")], input="",
            env={"TTY_COMPATIBLE": "1", "COLUMNS": "120"})
    assert r.exit_code == 0, r.output
    text = r.output
    assert "P1 is thinking… " in text and "(budget 80,000 iterations)" in text
    m = re.search(r"best after ([\d,]+): (pick [A-Za-z ]+?) \((\d+)% of visits\)", text)
    assert m, text[-2000:]


def test_thinking_decides_exactly_as_the_agent():
    state = duelcore.new_game(9)
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    for make in (lambda: MCTSAgent(iterations=5000, seed=4),
                 lambda: MCTSAgent(iterations=6000, threads=2, seed=4),
                 lambda: MCTSAgent(iterations=2500, rollout="greedy", seed=4),
                 lambda: parse_agent(f"{STRONGEST}:iterations=2500,seed=4")):
        a, b = make(), make()
        th = Thinking(a, state).start()
        assert th.wait(120)
        assert th.result() == b.select_action(state)
        assert a._rng == b._rng                                 # the RNG advanced alike
        p = th.progress()
        if p["best"] is not None:                                # the view: a true prefix
            from duelpy.duel.agents import _next64
            _, seed = _next64(make()._rng)
            res = search.mcts_search(state, iterations=p["sample"], seed=seed,
                                     **a._search_options())
            best = max(zip(res["visits"], res["values"], [-x for x in res["actions"]]))
            assert p["best"] == -best[2]


# ---------------------------------------------------------------- Ctrl-C, end of input
def test_ctrl_c_at_the_prompt_stops_and_keeps_the_record(tmp_path):
    seed = 11
    mine, _ = script(seed, 1)
    child = Child(["play", "--opponent", "greedy", "--seed", str(seed), "--record",
                   str(tmp_path / "g.json")], tmp_path, stdin=subprocess.PIPE)
    child.send("\n".join(map(str, mine[:3])) + "\n")
    child.wait_for(f"P1 (you) play: {action_name(mine[2])}", stream="stdout")
    child.wait_for("P1> ", stream="stdout")
    seconds, code, out, err = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (code, seconds, out, err)
    assert "Game stopped (Ctrl-C)" in out and "Traceback" not in err
    assert load(tmp_path / "g.json").moves[:1] == mine[:1]


def test_end_of_input_is_handled_like_ctrl_c(tmp_path):
    seed = 11
    mine, _ = script(seed, 1)
    r = run(["play", "--opponent", "greedy", "--seed", str(seed), "--record",
             str(tmp_path / "g.json")], input="\n".join(map(str, mine[:3])) + "\n")
    assert r.exit_code == 0
    assert "Game stopped (end of input)" in r.output
    assert load(tmp_path / "g.json").moves[:1] == mine[:1]


@pytest.mark.parametrize("budget", [
    "mcts:iterations=100000000",                 # a decision of minutes
    "mcts:seconds=3000,threads=2",
])
def test_ctrl_c_while_the_opponent_thinks(tmp_path, budget):
    child = Child(["play", "--opponent", budget, "--seat", "2", "--seed", "3", "--record",
                   str(tmp_path / "g.json")], tmp_path, stdin=subprocess.PIPE)
    child.wait_for("is thinking", stream="stdout")
    child.busy(1.0)
    seconds, code, out, err = child.interrupt()
    assert code == 130 and seconds < EXIT_BOUND, (code, seconds, out, err)
    assert "Game stopped (Ctrl-C) after 0 moves" in out
    assert "Game record saved to" in out                   # a record of no moves
    assert "Traceback" not in err
    assert load(tmp_path / "g.json").moves == []


def test_play_continues_a_saved_game_from_a_move(tmp_path):
    """Issue 29: duel play --from game.json [--move K] continues a saved game (you take
    --seat), and info NAME explains a card, wonder or token."""
    from duelpy import load, record_game
    saved = tmp_path / "saved.json"
    record_game("greedy", "random", seed=4).save(saved)
    out = tmp_path / "next.json"
    r = CliRunner().invoke(main, ["play", "--from", str(saved), "--move", "20", "--opponent",
                                  "greedy", "--record", str(out)],
                           input="info the pyramids\ninfo lumber\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert "The Pyramids (wonder): costs 3 stone, 1 papyrus; 9 VP" in r.output
    assert "Lumber Yard (Age 1, brown)" in r.output
    rec, old = load(out), load(saved)
    assert rec.seed == old.seed and rec.moves[:20] == old.moves[:20] and len(rec.moves) > 20
    for args, words in ((["--move", "3"], "--move is for --from"),
                        (["--from", str(saved), "--seed", "3"], "--seed comes from"),
                        (["--from", str(saved), "--centred-pawn", "begins"], "--centred-pawn"),
                        (["--from", str(saved)], "is over"),
                        (["--from", str(saved), "--move", "999"], "moves 0 to"),
                        (["--from", str(tmp_path / "none.json")], "--from")):
        r = CliRunner().invoke(main, ["play", *args], input="quit\n")
        assert r.exit_code == 2 and words in r.output, (args, r.output)


def test_play_seven_continues_a_saved_game(tmp_path):
    from duelpy.seven import load_record
    saved = tmp_path / "s.json"
    assert CliRunner().invoke(main, ["watch", "--game", "seven", "--players", "3",
                                     "--record", str(saved)]).exit_code == 0
    out = tmp_path / "n.json"
    r = CliRunner().invoke(main, ["play", "--game", "seven", "--from", str(saved), "--move",
                                  "9", "--opponent", "greedy", "--record", str(out)],
                           input="info rhodos\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Rhodos (The Colossus of Rhodes" in r.output
    rec, old = load_record(out), load_record(saved)
    assert rec["moves"][:9] == old["moves"][:9] and len(rec["moves"]) > 9
