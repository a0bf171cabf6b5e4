"""Positions as data are safe (issue 14): a position that loads is playable; one that is not
is refused with the field named.

* The examples of issue 14, one test each: each is refused with the right field.
* Strict types: floats, NaN, huge integers, bools for integers and strings for booleans are
  refused, naming the field.
* Defence in depth: states that break the preconditions (written straight into the struct by
  a test-only hook) are handled without reading or writing outside the state in release, and
  abort with the precondition's code in the debug build.
* The corpus of real positions covers every phase, in explicit-chance and sampled mode.
* Fuzzing (``fuzz_helpers``): real positions mutated in 1-3 fields are refused with a
  ``StateFormatError`` or fully playable (random play to the end with ``state.check()`` after
  every action; the built-in agents return legal actions).  A quick version (hypothesis, and a
  fixed set of seeded mutants) runs by default; the long campaign (``slow``, 200,000 mutants by
  default, ``DUEL_FUZZ_MUTANTS``) runs the cases in forked worker processes with a timeout per
  case, so that a crash or a hang is reported with its mutant instead of ending the run.
"""
from __future__ import annotations

import json
import math
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import subprocess
import sys
import time
import traceback
from collections import Counter, deque

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import duelcore
from duelcore import StateFormatError, data, new_game, search, state_from_dict

import fuzz_helpers as fz

PLAYER = {"coins": 7, "city": [], "wonders": [], "progress_tokens": []}


def refused(d, field, *words):
    """``state_from_dict(d)`` raises StateFormatError naming ``field`` (and ``words``)."""
    with pytest.raises(StateFormatError) as info:
        state_from_dict(d)
    e = info.value
    assert e.field == field, f"field {e.field!r}, expected {field!r}: {e}"
    assert str(e).startswith(f"{field}: ") and "\n" not in str(e)
    for w in words:
        assert w.lower() in str(e).lower(), f"{w!r} not in {str(e)!r}"
    return e


def explicit_states(seed=1, **options):
    """Every state of a random game with explicit chance."""
    import random
    rng = random.Random(seed)
    state = new_game(seed, explicit_chance=True, **options)
    while True:
        yield state.clone()
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


# ---------------------------------------------------------------- the examples of issue 14
def test_issue_draft_picks_8():
    """new_game(seed=1).to_dict() with draft.picks = 8: the pick order would be read out of
    bounds; refused (R-SETUP-5)."""
    d = new_game(seed=1).to_dict()
    assert d["phase"] == "draft"
    d["draft"]["picks"] = 8
    refused(d, "draft.picks", "R-SETUP-5")


def test_issue_reveal_with_nothing_to_reveal():
    """The first Age I decision with phase "reveal" while nothing waits to be revealed."""
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    assert d["phase"] == "play" and d["reveal_queue"] == []
    d["phase"] = "reveal"
    refused(d, "reveal_queue", "needs a card waiting to be revealed")


def test_issue_draft_revealed_holding_all_12_wonders():
    """draft.revealed with all 12 wonders: the 4th pick never returned; refused."""
    d = new_game(seed=1).to_dict()
    d["draft"]["revealed"] = list(data.WONDER_NAMES)
    refused(d, "draft.revealed", "12 wonders revealed")


def test_issue_law_owned_while_tokens_are_laid_out():
    """A set-up position (tokens being laid out) where a player already owns Law: Law would be
    drawn onto the board as well."""
    state = next(s for s in explicit_states(1) if s.phase == "setup_tokens")
    d = state.to_dict()
    assert "Law" not in d["board_tokens"]
    d["players"][1]["progress_tokens"] = ["Law"]
    refused(d, "players[1].progress_tokens", "before Age I")


def test_issue_readme_minimal_position_age_0():
    """``{"version": 1, "age": 0, "players": [P, P]}``: the default phase 'play' needs an Age,
    so it is refused with that reason (a set-up position names its set-up phase)."""
    e = refused({"version": 1, "age": 0, "players": [PLAYER, PLAYER]}, "phase", "(the default)",
                "setup_tokens")
    assert "age is 0" in e.reason
    # with its set-up phase it is a playable position: the set-up, the draft and a whole game
    for phase in ("setup_first_player", "setup_tokens"):
        state = state_from_dict({"version": 1, "age": 0, "phase": phase,
                                 "players": [PLAYER, PLAYER]})
        assert fz.evaluate(state.to_dict()) == "accepted"


@pytest.mark.parametrize("bad", [17.9, math.nan, math.inf, 2 ** 64, -1, 20, True, "3", None,
                                 [3]])
def test_issue_reveal_queue_float_nan_overflow(bad):
    """A float in reveal_queue was truncated (17.9 -> 17); NaN or an overflow raised a bare
    TypeError/OverflowError.  Each is now a StateFormatError naming the entry."""
    state = next(s for s in explicit_states(3) if s.phase == "reveal"
                 and not s.to_dict()["dealing"])
    d = state.to_dict()
    d["reveal_queue"] = d["reveal_queue"] + [bad]
    refused(d, f"reveal_queue[{len(d['reveal_queue']) - 1}]", "slot")
    d = state.to_dict()
    d["reveal_queue"][0] = float(d["reveal_queue"][0])          # 11.0 is not a slot either
    refused(d, "reveal_queue[0]", "integer")


@pytest.mark.parametrize("path", [("replay",), ("options", "explicit_chance"),
                                  ("options", "first_game_wonders")])
@pytest.mark.parametrize("bad", ["false", "true", 0, 1, None, "no"])
def test_issue_false_string_for_booleans(path, bad):
    """"false" used to be read as true for booleans; a boolean is true or false only."""
    d = new_game(seed=1).to_dict()
    where = d
    for k in path[:-1]:
        where = where[k]
    where[path[-1]] = bad
    refused(d, ".".join(path), "true or false")


def test_wonder_built_flag_is_a_boolean():
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d["players"][0]["wonders"][0]["built"] = "false"
    refused(d, "players[0].wonders[0].built", "true or false")


# ---------------------------------------------------------------- strict types elsewhere
@pytest.mark.parametrize("key, bad", [("pawn", 1.0), ("pawn", True), ("to_move", 1.5),
                                      ("to_move", "1"), ("dealing", math.nan), ("age", 1.0),
                                      ("rng", 2 ** 64), ("rng", -1), ("n_decisions", 70000),
                                      ("chooser", False), ("version", 1.0), ("version", True)])
def test_integers_are_integers(key, bad):
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d[key] = bad
    refused(d, key)


@pytest.mark.parametrize("key, bad", [("winner", True), ("winner", 1.0), ("winner", "1"),
                                      ("phase", ["play"]), ("phase", 5), ("victory", None),
                                      ("destroy_colour", 0), ("pending", ["token", "token"]),
                                      ("pending", [["token"]]), ("options", []),
                                      ("draft", {"picks": 8, "extra": 1})])
def test_other_fields_are_strict(key, bad):
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d[key] = bad
    e = pytest.raises(StateFormatError, state_from_dict, d).value
    assert e.field.startswith(key), e


def test_coins_and_military_tokens_are_integers():
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d["players"][1]["coins"] = 7.9
    refused(d, "players[1].coins", "integer")
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d["military_tokens"] = [[2.0, 5], [2, 5]]
    refused(d, "military_tokens[0][0]")
    d["military_tokens"] = [[2, 2], [2, 5]]
    refused(d, "military_tokens[0][1]", "twice")


def test_names_are_names_or_ids():
    """A card is named or given by its id; a bool, a float or a list is neither."""
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    for bad in (True, 3.0, ["Altar"], 73, -1):
        d["discard_pile"] = [bad]
        refused(d, "discard_pile[0]")
    d["discard_pile"] = [[[[[[[["deep"]]]]]]]]
    e = refused(d, "discard_pile[0]")
    assert len(str(e)) < 200                    # a short, one-line message


def test_duplicates_and_unknown_keys():
    d = new_game(seed=1).to_dict()
    d["draft"]["offer"] = d["draft"]["offer"] + d["draft"]["offer"][:1]
    refused(d, "draft.offer[4]", "twice")
    d = new_game(seed=1).to_dict()
    d["options"]["explicit"] = True
    refused(d, "options.explicit", "did you mean")
    d = new_game(seed=1).to_dict()
    d["options"]["banned_tokens"] = ["Law", "Law"]
    refused(d, "options.banned_tokens[1]", "twice")


# ---------------------------------------------------------------- a few position checks
def test_pending_choice_is_refused():
    """A choice granted by an action has its own phase: nothing is ever pending at rest."""
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d["pending"] = ["token"]
    refused(d, "pending", "R-TURN-2")


def test_dealing_outside_a_new_age_is_refused():
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d["dealing"] = 1
    refused(d, "dealing")


def test_choice_phases_need_something_to_choose():
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    for phase, field in (("destroy", "phase"), ("revive", "phase"), ("library", "library_offer"),
                         ("library_draw", "phase"), ("choose_token", "phase"),
                         ("choose_start", "phase"), ("guilds", "guild_slots")):
        d["phase"] = phase
        refused(d, field)


def test_military_tokens_follow_the_pawn():
    """R-MIL-2: a token in a zone the pawn has entered is gone; hand-made positions that leave
    military_tokens out get exactly those of the zones not entered."""
    d = new_game(seed=1, first_game_wonders=True).to_dict()
    d["pawn"] = 4
    refused(d, "military_tokens", "R-MIL-2")
    del d["military_tokens"]
    assert state_from_dict(d).to_dict()["military_tokens"] == [[2, 5], [5]]
    d["pawn"] = -7
    assert state_from_dict(d).to_dict()["military_tokens"] == [[], [2, 5]]


def test_every_state_of_random_games_passes_the_checks():
    """The position checks never refuse a reachable position (every option, both modes)."""
    import random
    for seed, options in enumerate(fz.CORPUS_OPTIONS * 2):
        options = options[0]
        rng = random.Random(seed)
        state = new_game(seed, **options)
        while True:
            state.check()
            assert state_from_dict(state.to_dict()) == state
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_state_checks_table_names_every_code():
    """Every check has a field and a reason; the position checks carry a rule id or say what
    they need."""
    checks = duelcore.engine.STATE_CHECKS
    assert sorted(checks) == list(range(1, 73))
    for code, (field, reason) in checks.items():
        assert field and reason and "\n" not in reason
    # the position checks name their rule, except those of study options (banned tokens,
    # forced wonders) and the generic ones (a legal action, an outcome, a result when over)
    unnamed = {code for code, (field, reason) in checks.items()
               if code >= 15 and "R-" not in reason}
    assert unnamed <= {25, 34, 62, 63, 67, 68}, unnamed


# ---------------------------------------------------------------- defence in depth
def _phase(name):
    return duelcore.PHASE_NAMES.index(name)


#: broken states written straight into the struct (duelcore.engine._unchecked_copy): the
#: examples of issue 14 and a few more; no public function can make them
BROKEN = {
    "draft picks 8": ("new_game(1)", dict(draft_pick=8)),
    "reveal with nothing to reveal": ("new_game(1, first_game_wonders=True)",
                                      dict(phase=_phase("reveal"))),
    "all 12 wonders revealed": ("new_game(1)", dict(wonders_seen=0xFFF)),
    "a draft reveal with nothing left": ("new_game(1, explicit_chance=True, first_player=0)",
                                         dict(phase=_phase("draft_reveal"), wonders_seen=0xFFF)),
    "age 0 in play": ("new_game(1)", dict(phase=_phase("play"), age=0)),
    "forced pick from an empty offer": ("new_game(1)", dict(draft_pick=3, draft_offer=0)),
    "library draw with nothing aside": ("new_game(1, first_game_wonders=True)",
                                        dict(phase=_phase("library_draw"), aside_tokens=0)),
    "guild backs with every slot placed": ("new_game(1, first_game_wonders=True)",
                                           dict(phase=_phase("guilds"), guild_slots=0xFFFFF)),
    "player 7 to move": ("new_game(1, first_game_wonders=True)", dict(to_move=7)),
    "age 9": ("new_game(1, first_game_wonders=True)", dict(age=9)),
    "phase 200": ("new_game(1, first_game_wonders=True)", dict(phase=200)),
    "choose_token with no token": ("new_game(1, first_game_wonders=True)",
                                   dict(phase=_phase("choose_token"), board_tokens=0)),
}


def _broken(name):
    make, fields = BROKEN[name]
    return duelcore.engine._unchecked_copy(eval(make, {"new_game": new_game}), **fields)


@pytest.mark.skipif(duelcore.engine.DEBUG, reason="the debug build aborts on these (below)")
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_state_is_handled_safely_in_release(name):
    """A state that breaks the preconditions (only a test can make one): check() names it;
    legal actions and chance outcomes stay in range; a playout in the core (settle, chance
    sampling, apply, the flow) ends instead of reading or writing outside the state."""
    # (no assertion below shows a State: its repr reads names by fields that are out of range)
    state = _broken(name)
    with pytest.raises(AssertionError):
        state.check()
    actions = state.legal_actions() + [a for a, _ in state.chance_outcomes()]
    if not all(0 <= a < duelcore.NUM_DISTINCT_ACTIONS for a in actions):
        pytest.fail(f"actions out of range: {actions}")
    end = search.random_playout_from(state, 1)       # ends, or stops where nothing is legal
    if not (end.is_terminal() or not end.legal_actions()):
        pytest.fail("the playout stopped at a node with legal actions")
    for _ in range(200):                             # from Python: legal actions only
        legal = state.legal_actions()
        if state.is_terminal() or not legal:
            break
        state.apply_action(legal[0])
    if name != "phase 200":                          # to_dict names the phase
        with pytest.raises(ValueError):              # it never passes the checks
            state_from_dict(_broken(name).to_dict())


@pytest.mark.skipif(not duelcore.engine.DEBUG, reason="needs the debug build (DUEL_DEBUG=1)")
@pytest.mark.parametrize("name", ["reveal with nothing to reveal", "draft picks 8",
                                  "library draw with nothing aside", "age 0 in play"])
def test_broken_state_aborts_in_debug(name):
    """The debug build aborts with the broken precondition's code (or state_check's)."""
    code = ("import duelcore, duelcore.search as s; from duelcore import new_game; "
            f"make, fields = {BROKEN[name]!r}; "
            "st = duelcore.engine._unchecked_copy(eval(make), **fields); "
            "st.legal_actions(); s.random_playout_from(st, 1); print('no abort')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == -signal.SIGABRT, (r.returncode, r.stdout, r.stderr)
    assert re.search(r"duelcore: (broken precondition|state_check failed with code) \d+",
                     r.stderr), r.stderr


# ---------------------------------------------------------------- the corpus
def test_corpus_covers_every_phase():
    phases = fz.corpus_phases()
    assert {p for m, p in phases if m == "explicit"} == set(duelcore.PHASE_NAMES)
    assert {p for m, p in phases if m == "sampled"} >= {"draft", "play", "choose_token",
                                                        "choose_start", "over"}
    # a position of the corpus loads and plays as it is
    for text in fz.corpus()[::20]:
        assert fz.evaluate(json.loads(text), mcts_iterations=5) == "accepted"


# ---------------------------------------------------------------- quick fuzzing
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fuzz_mutants_quick(data_):
    """Hypothesis mutants of real positions: refused with a field, or fully playable."""
    texts = fz.corpus()
    chooser = fz.DrawChooser(data_, st)
    d, changes = fz.mutate(json.loads(chooser.choice(texts)), chooser)
    note(f"changes: {changes}")
    fz.evaluate(d, seed=len(changes))


def test_fuzz_seeded_mutants_quick():
    """300 mutants of the long campaign (mutants 0..299): the same guarantee, and the mix
    holds both refused and playable mutants."""
    outcomes = Counter()
    for i in range(300):
        d, changes = fz.mutant(i)
        try:
            outcomes[fz.evaluate(d, seed=i).split(":")[0]] += 1
        except AssertionError as e:
            raise AssertionError(f"mutant {i} ({changes}): {e}\n{json.dumps(d)}") from None
    assert outcomes["accepted"] >= 15 and outcomes["refused"] >= 100, outcomes


# ---------------------------------------------------------------- the long campaign
CASE_TIMEOUT = 120.0        # seconds for one mutant (a few ms normally)


def _worker(conn, indices):
    """Evaluate mutants one by one, announcing each before it starts."""
    for i in indices:
        conn.send(("start", i))
        try:
            d, _ = fz.mutant(i)
            conn.send(("done", i, fz.evaluate(d, seed=i)))
        except BaseException as e:              # noqa: BLE001 - reported to the parent
            conn.send(("fail", i, "".join(traceback.format_exception_only(type(e), e))[:3000]))
    conn.send(("end",))
    conn.close()


def _alone(i):
    """Mutant i in a fresh child: 'ok', 'fail ...', 'signal N' or 'hang'."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_worker, args=(child, [i]))
    proc.start()
    child.close()
    result = "hang"
    deadline = time.monotonic() + CASE_TIMEOUT
    while time.monotonic() < deadline:
        if parent.poll(1.0):
            try:
                msg = parent.recv()
            except EOFError:
                break
            if msg[0] == "done":
                result = "ok"
            elif msg[0] == "fail":
                result = "fail " + msg[2]
            elif msg[0] == "end":
                break
        elif not proc.is_alive():
            break
    if proc.is_alive():
        proc.kill()
    proc.join()
    if result == "hang" and proc.exitcode is not None and proc.exitcode < 0:
        result = f"signal {-proc.exitcode}"
    return result


def run_campaign(n, workers=2, chunk=2000, report=print):
    """Mutants 0..n-1 in forked worker processes; returns (outcomes, failures).

    Each worker announces a mutant before evaluating it, so when a worker dies (a signal) or
    stops answering for CASE_TIMEOUT seconds (a hang) that mutant is recorded, the worker is
    replaced and the campaign goes on; the mutant is then run again alone to see whether it
    fails by itself.
    """
    ctx = multiprocessing.get_context("fork")
    todo = deque(range(i, min(i + chunk, n)) for i in range(0, n, chunk))
    active = {}                 # conn -> [process, remaining indices, current, started]
    outcomes = Counter()
    failures = []
    done = 0
    t0 = time.monotonic()

    def launch(indices):
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(child, list(indices)))
        proc.start()
        child.close()
        active[parent] = [proc, deque(indices), None, time.monotonic()]

    def lost(conn, what):
        proc, rest, current, _ = active.pop(conn)
        if proc.is_alive():
            proc.kill()
        proc.join()
        if what == "died":
            what = f"signal {-proc.exitcode}" if proc.exitcode and proc.exitcode < 0 \
                else f"exit {proc.exitcode}"
        if current is not None:
            d, changes = fz.mutant(current)
            failures.append({"mutant": current, "what": what, "alone": _alone(current),
                             "changes": changes, "position": d})
            outcomes["crash" if what != "hang" else "hang"] += 1
            while rest and rest[0] <= current:
                rest.popleft()
        if rest:
            todo.appendleft(rest)

    while todo or active:
        while todo and len(active) < workers:
            launch(todo.popleft())
        ready = multiprocessing.connection.wait(list(active), timeout=5.0)
        for conn in ready:
            try:
                msg = conn.recv()
            except EOFError:
                lost(conn, "died")
                continue
            entry = active[conn]
            if msg[0] == "start":
                entry[2], entry[3] = msg[1], time.monotonic()
            elif msg[0] == "end":
                active.pop(conn)[0].join()
            else:
                i = msg[1]
                entry[2] = None
                while entry[1] and entry[1][0] <= i:
                    entry[1].popleft()
                done += 1
                if msg[0] == "done":
                    outcomes[msg[2].split(":")[0]] += 1
                    if ":" in msg[2]:
                        outcomes[msg[2]] += 1           # refusals counted by field too
                else:
                    d, changes = fz.mutant(i)
                    failures.append({"mutant": i, "what": msg[2], "changes": changes,
                                     "position": d})
                    outcomes["fail"] += 1
                if done % 20000 == 0:
                    report(f"{done:,} mutants in {time.monotonic() - t0:.0f} s: "
                           f"{outcomes['accepted']:,} playable, {outcomes['refused']:,} refused,"
                           f" {len(failures)} failures")
        now = time.monotonic()
        for conn, (proc, rest, current, started) in list(active.items()):
            if current is not None and now - started > CASE_TIMEOUT:
                lost(conn, "hang")
            elif not proc.is_alive() and not conn.poll():
                lost(conn, "died")
    return outcomes, failures


@pytest.mark.slow
def test_fuzz_campaign_forked(tmp_path):
    """The long campaign: DUEL_FUZZ_MUTANTS mutants (default 200,000) in forked workers; no
    crash, hang, abort, stuck state or illegal agent action.  Failures are written with their
    mutant to DUEL_FUZZ_OUT (default: the test's tmp dir)."""
    n = int(os.environ.get("DUEL_FUZZ_MUTANTS", "200000"))
    workers = int(os.environ.get("DUEL_FUZZ_WORKERS", "2"))
    t0 = time.monotonic()
    outcomes, failures = run_campaign(n, workers=workers)
    out = os.environ.get("DUEL_FUZZ_OUT") or str(tmp_path / "fuzz")
    os.makedirs(out, exist_ok=True)
    by_field = {k: v for k, v in outcomes.items() if ":" in k}
    summary = {"mutants": n, "seconds": round(time.monotonic() - t0),
               "accepted": outcomes["accepted"], "refused": outcomes["refused"],
               "failures": len(failures), "refused_by_field": dict(Counter(by_field).most_common())}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, "failures.json"), "w") as f:
        json.dump(failures, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "refused_by_field"}))
    assert not failures, (f"{len(failures)} of {n} mutants broke the guarantee (all in {out}); "
                          f"first: {json.dumps(failures[0])[:4000]}")
