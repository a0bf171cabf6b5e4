"""Fuzzing of 7 Wonders positions as data (issue 30): real positions, mutated in 1-3 places.

The corpus is made of real positions: states of random games at 2..7 players (2 is the Free
City variant) played with ``new_state(players, seed, explicit_chance=...)``, so every phase
appears (board, guild, deal, draw, turn with some seats committed, halikarnassus, seventh,
over): boards are forced on some games so that Halikarnassus and Babylon B play, stage actions
are preferred half of the time so that their powers trigger, and a few games carry a study
treatment (``remove``) or ``all_pairs``.  Positions made by the scenario builder
(:func:`duelpy.seven.scenario`) join them.

A mutation picks a place anywhere in the position dict and changes it: a value seen at that
place in another position (each is valid alone), a card id moved from one list to another
(deck, discard pile, tucked, built, a hand, what a player knows or remembers) or swapped, a
change in the game's words that keeps most invariants (one more stage over a card of the pile,
a card of the pile built, a built card moved to another city, another board, coins, military
tokens, Olympia's free build), a nudged number, a flipped boolean, an extra, a repeated or a missing list entry, a deleted
key, a value of the wrong type (floats, NaN, huge integers, "false", nested lists ...).  The
same code makes a mutant from hypothesis draws (the quick tests, which shrink) and from a
seeded ``random.Random`` (the long campaign, where mutant number ``i`` is rebuilt from ``i``
alone).

:func:`evaluate` states the guarantee: ``state_from_dict`` either refuses the mutant with a
``StateFormatError`` naming a field and a rule, or returns a state that is fully playable.
"""
from __future__ import annotations

import copy
import functools
import json
import math
import multiprocessing
import multiprocessing.connection
import random
import re
import time
import traceback
from collections import Counter, deque

from duelcore import seven as sv
from duelcore import seven_data as D
from mutation_helpers import (DrawChooser, RandomChooser, nudged, retyped,  # noqa: F401
                              norm_path as _norm, walk as _walk)

PER_KEY = 6             # positions kept per (players, mode, phase)
MAX_STEPS = 4000        # actions in a game from any position: every game ends far sooner
GAMES_PER_COUNT = 10    # corpus games per player count
WEIRD = (None, True, False, 0, -1, 1, 2, 3, 6, 7, 8, 147, 148, 255, 65536, 2 ** 31, 2 ** 63,
         2 ** 64, -2 ** 63, 10 ** 30, 0.5, 17.9, 7.0, math.nan, math.inf, -math.inf, "false",
         "true", "", "0", "7", "x" * 60, "turn", "Rhodos", "Altar", [], {}, [[]], [None],
         {"board": None}, [1, 2, 3], [[0, 1], [2]])
#: the places that hold card ids: a card moved between them keeps the multiset of ids
ID_LISTS = ("deck", "discard", "tucked", "built", "hand", "facedown", "seen", "added")


# ---------------------------------------------------------------- the corpus
def _game(players: int, seed: int, explicit: bool, boards=None, remove=None,
          all_pairs: bool = False, stage_bias: float = 0.5):
    """Every state of one random game (decisions seat by seat: mid-turn states too)."""
    rng = random.Random(seed)
    st = sv.new_state(players, seed=seed, explicit_chance=explicit, boards=boards,
                      remove=remove, all_pairs=all_pairs)
    yield st.clone()
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        else:
            seat = rng.choice(st.pending_seats())
            legal = st.legal_actions(seat)
            stages = [a for a in legal
                      if a < sv.NUM_TURN_ACTIONS and sv.decode_turn_action(a)[0] == "stage"]
            st.apply_action(rng.choice(stages) if stages and rng.random() < stage_bias
                            else rng.choice(legal), seat)
        yield st.clone()


@functools.lru_cache(maxsize=None)
def corpus() -> tuple:
    """The real positions, as JSON text (a tuple, so it is shared and cannot be changed)."""
    kept: dict = {}
    rng = random.Random(30)
    for players in range(2, 8):
        seats = 3 if players == 2 else players
        for g in range(GAMES_PER_COUNT):
            seed = 1000 * players + g
            boards = None
            if g % 3:
                boards = [None] * seats
                boards[g % seats] = "Halikarnassus " + "AB"[g % 2]
                boards[(g + 1) % seats] = "Babylon B"
            remove = ["Altar", "Spies Guild"] if g == 4 and players < 7 else None
            explicit = g % 2 == 0
            for st in _game(players, seed, explicit, boards, remove, all_pairs=g == 5):
                key = (players, "explicit" if explicit else "sampled", st.phase)
                bucket = kept.setdefault(key, [])
                d = st.to_dict()
                if len(bucket) < PER_KEY:
                    bucket.append(d)
                elif rng.random() < 0.1:
                    bucket[rng.randrange(PER_KEY)] = d
    positions = [d for key in sorted(kept) for d in kept[key]]
    positions += [st.to_dict() for st in scenario_positions()]
    return tuple(json.dumps(d) for d in positions)


def scenario_positions() -> list:
    """A few positions of the scenario builder (every player count, several Ages and turns)."""
    try:
        from duelpy.seven import scenario
    except ImportError:
        return []
    out = []
    for players in range(2, 8):
        for age, turn in ((1, 1), (2, 3), (3, 6)):
            out.append(scenario(players, seed=players * 10 + age, age=age, turn=turn))
    return out


def corpus_phases() -> set:
    """(players, phase) pairs the corpus covers."""
    return {(json.loads(t)["players"], json.loads(t)["phase"]) for t in corpus()}


@functools.lru_cache(maxsize=None)
def value_pool() -> dict:
    """Values seen at each (normalised) place of the corpus positions, plus every name the
    place can hold: {path: [values]}."""
    pool: dict = {}
    for text in corpus():
        for path, v in _walk(json.loads(text)):
            pool.setdefault(_norm(path), {}).setdefault(json.dumps(v, sort_keys=True), v)
    ids = list(range(len(D.PHYSICAL)))
    extra = {
        ("phase",): list(sv.PHASES),
        ("age",): [0, 1, 2, 3],
        ("turn",): list(range(7)),
        ("setup_pos",): list(range(10)),
        ("hali_seat",): [None] + list(range(7)),
        ("seventh_seat",): [None] + list(range(7)),
        ("seventh_card",): [None] + ids,
        ("guilds", "*"): [g.name for g in D.GUILDS],
        ("forced_board", "*"): list(D.BOARD_NAMES) + [None],
        ("forced_side", "*"): ["A", "B", None],
        ("cities", "*", "board"): list(D.BOARD_NAMES),
        ("cities", "*", "side"): ["A", "B"],
        ("cities", "*", "stages"): [0, 1, 2, 3, 4],
        ("cities", "*", "military_vp"): list(range(-6, 19)),
        ("cities", "*", "defeats"): list(range(7)),
        ("cities", "*", "city", "*"): list(D.NAMES),
        ("deck", "*"): ids, ("discard", "*"): ids, ("tucked", "*"): ids, ("built", "*"): ids,
        ("cities", "*", "hand", "*"): ids, ("cities", "*", "facedown", "*"): ids,
        ("seen", "*", "*", "*"): ids,
        ("commit_card", "*"): [None] + ids,
    }
    for path, values in extra.items():
        for v in values:
            pool.setdefault(path, {}).setdefault(json.dumps(v, sort_keys=True), v)
    return {path: list(vals.values()) for path, vals in pool.items()}


# ---------------------------------------------------------------- mutations
OPERATIONS = ("plausible", "plausible", "plausible", "plausible", "move", "move", "move",
              "swap", "nudge", "nudge", "insert", "repeat", "delete", "weird", "retype",
              "semantic", "semantic", "semantic", "semantic")
SEMANTIC = ("stage", "build", "city", "board", "coins", "military", "olympia")


def _semantic(d: dict, c) -> str | None:
    """A change in the game's words that keeps most invariants, so that more mutants load and
    the engine meets cities it rarely builds: one more stage (a card of the pile under it), a
    card of the pile built in a city, a built card moved to another city, another board, other
    coins, other military tokens, Olympia's free build.  None if it does not apply."""
    cities = d.get("cities")
    if not isinstance(cities, list) or not cities or not all(isinstance(x, dict) for x in cities):
        return None
    i = c.integer(0, len(cities) - 1)
    cd = cities[i]
    kind = c.choice(SEMANTIC)
    try:
        if kind == "stage":
            board = D.BOARDS[D.BOARD_NAMES.index(cd["board"])]
            if cd["stages"] >= len(board.a if cd["side"] == "A" else board.b) or not d["discard"]:
                return None
            p = d["discard"].pop(c.integer(0, len(d["discard"]) - 1))
            d["tucked"].append(p)
            cd["stages"] += 1
            if i < d["players"]:
                cd["facedown"].append(p)
            return f"city {i}: stage {cd['stages']} over card {p}"
        if kind == "build":
            if not d["discard"]:
                return None
            p = d["discard"][c.integer(0, len(d["discard"]) - 1)]
            name = D.NAMES[D.PHYSICAL[p][0]]
            if name in cd["city"]:
                return None
            d["discard"].remove(p)
            d["built"].append(p)
            cd["city"].append(name)
            return f"city {i}: builds {name} ({p}) from the pile"
        if kind == "city":
            j = c.integer(0, len(cities) - 1)
            if j == i or not cd["city"]:
                return None
            name = c.choice(cd["city"])
            if name in cities[j]["city"]:
                return None
            cd["city"].remove(name)
            cities[j]["city"].append(name)
            return f"{name} moved from city {i} to city {j}"
        if kind == "board":
            free = [b for b in D.BOARD_NAMES if b not in [x["board"] for x in cities]]
            if not free:
                return None
            cd["board"], cd["side"] = c.choice(free), c.choice(["A", "B"])
            board = D.BOARDS[D.BOARD_NAMES.index(cd["board"])]
            n = len(board.a if cd["side"] == "A" else board.b)
            while cd["stages"] > n:
                cd["stages"] -= 1
                d["discard"].append(d["tucked"].pop())
            return f"city {i}: board {cd['board']} {cd['side']}"
        if kind == "coins":
            cd["coins"] = c.choice((0, 1, 2, 5, 9, 17, 40, 150))
            return f"city {i}: {cd['coins']} coins"
        if kind == "military":
            cd["military_vp"], cd["defeats"] = c.choice(((0, 0), (1, 0), (-1, 1), (2, 0), (4, 0),
                                                         (-2, 2), (6, 0), (8, 1), (0, 2)))
            return f"city {i}: tokens {cd['military_vp']}, {cd['defeats']}"
        cd["olympia_free"] = not cd["olympia_free"]
        return f"city {i}: olympia_free {cd['olympia_free']}"
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def _nudged(v, c):
    return nudged(v, c, (-1, 1, -2, 2, -3, 3, 6, -6, 16), WEIRD)


def _retyped(v, c):
    return retyped(v, c, WEIRD)


def _id_lists(d) -> list:
    """Paths of every list of card ids in the position."""
    out = [(k,) for k in ("deck", "discard", "tucked", "built", "added") if isinstance(
        d.get(k), list)]
    cities = d.get("cities")
    if isinstance(cities, list):
        for i, cd in enumerate(cities):
            if isinstance(cd, dict):
                out += [("cities", i, k) for k in ("hand", "facedown")
                        if isinstance(cd.get(k), list)]
    seen = d.get("seen")
    if isinstance(seen, list):
        for p, row in enumerate(seen):
            if isinstance(row, list):
                out += [("seen", p, k) for k, x in enumerate(row) if isinstance(x, list)]
    return out


def _at(d, path):
    for k in path:
        d = d[k]
    return d


def mutate(d: dict, c, n_max: int = 3) -> tuple[dict, list]:
    """A copy of ``d`` with 1..n_max changes chosen by ``c``; returns (mutant, what changed)."""
    d = copy.deepcopy(d)
    pool = value_pool()
    changes = []
    for _ in range(c.integer(1, n_max)):
        op = c.choice(OPERATIONS)
        if op == "semantic":
            what = _semantic(d, c)
            if what is not None:
                changes.append(what)
                continue
            op = "plausible"
        if op in ("move", "swap"):
            lists = _id_lists(d)
            full = [p for p in lists if _at(d, p)]
            if len(lists) >= 2 and full:
                a = c.choice(full)
                b = c.choice([p for p in lists if p != a])
                src, dst = _at(d, a), _at(d, b)
                x = src.pop(c.integer(0, len(src) - 1))
                if op == "swap" and dst:
                    j = c.integer(0, len(dst) - 1)
                    src.append(dst[j])
                    dst[j] = x
                else:
                    dst.append(x)
                changes.append(f"{op} {x} from {a} to {b}")
                continue
            op = "plausible"
        if c.integer(0, 1):     # any node: a card of a hand, a city's coins, a seen packet ...
            paths = [p for p, _ in _walk(d)] or [("phase",)]
        else:                   # a field of the position, of the options or of a city
            paths = [p for p, _ in _walk(d) if len(p) == 1 or (len(p) == 2 and p[0] in (
                "options", "commit", "commit_card", "forced_board", "forced_side")) or (
                len(p) == 3 and p[0] == "cities")]
            paths += [(k,) for k in ("removed", "added") if k not in d]
        path = c.choice(paths)
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        old = parent[key] if (isinstance(parent, dict) and key in parent) or \
            (isinstance(parent, list) and isinstance(key, int) and key < len(parent)) else None
        norm = _norm(path)
        if op == "delete":
            if isinstance(parent, dict):
                parent.pop(key, None)
            else:
                del parent[key]
            changes.append(f"delete {path}")
            continue
        if op in ("insert", "repeat"):
            target = old if isinstance(old, list) else parent if isinstance(parent, list) else None
            elems = pool.get(norm + ("*",)) if isinstance(old, list) else pool.get(norm)
            if target is not None:
                if op == "repeat" and target:
                    x = c.choice(target)
                else:
                    x = c.choice(elems) if elems and c.integer(0, 3) else (
                        c.choice(target) if target else copy.deepcopy(c.choice(WEIRD)))
                target.insert(c.integer(0, len(target)), copy.deepcopy(x))
                changes.append(f"{op} {x!r} into {path}")
                continue
            op = "plausible"
        if op == "plausible" and pool.get(norm):
            new = copy.deepcopy(c.choice(pool[norm]))
        elif op == "nudge":
            new = _nudged(old, c)
        elif op == "retype":
            new = _retyped(old, c)
        else:
            new = copy.deepcopy(c.choice(WEIRD))
        parent[key] = new
        changes.append(f"{path} = {new!r}")
    return d, changes


def mutant(i: int) -> tuple[dict, list]:
    """Mutant number ``i`` of the long campaign (a function of ``i`` alone)."""
    c = RandomChooser(0x5E7E0000 + i)
    texts = corpus()
    return mutate(json.loads(c.choice(texts)), c)


# ---------------------------------------------------------------- the guarantee
FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])*(\.[^.\s]+(\[\d+\])*)*$")
RULE = re.compile(r"\bW-[A-Z]+")


def field_kind(field: str) -> str:
    """``cities[1].hand[3]`` -> ``cities[*].hand[*]`` (for counting refusals by field)."""
    return re.sub(r"\[\d+\]", "[*]", field)


def evaluate(d, seed: int = 0, mcts_iterations: int = 20) -> str:
    """``"refused:<field>"`` or ``"accepted"``; raises AssertionError if the guarantee breaks.

    Refused: ``state_from_dict`` raised ``StateFormatError`` whose ``.field`` names a field and
    whose message is one line naming a rule (W-...).  Any other exception breaks the guarantee.
    Accepted: the invariants and the position checks hold; the position round-trips through
    ``to_dict``; every player's observation and the text rendering work; at the first decision
    node the built-in agents (random, greedy, MCTS with ``mcts_iterations``) return legal
    actions; playouts in the core
    (random and greedy agents, ``_playout``) end with the invariants intact; and random play to
    the end from Python keeps ``state_check() == 0`` after every action, with a legal action
    for every pending seat, an outcome at every chance node, and the random and greedy agents
    choosing legal actions at every decision.
    """
    try:
        state = sv.state_from_dict(d)
    except sv.StateFormatError as e:
        assert isinstance(e.field, str) and FIELD.match(e.field), f"bad field {e.field!r}: {e}"
        msg = str(e)
        assert msg.startswith(e.field + ": ") and "\n" not in msg and len(msg) < 700, repr(msg)
        assert RULE.search(msg), f"no rule id in {msg!r}"
        return "refused:" + field_kind(e.field)
    assert state.state_check() == 0, f"state_check {state.state_check()}"
    assert state.check_message() is None, state.check_message()
    back = sv.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert back == state, "the accepted position does not round-trip through to_dict"
    for agent in ("random", "greedy"):
        end = sv.engine._playout(state, agent, seed)
        assert end.is_terminal(), f"the {agent} playout in the core did not end the game"
        assert end.state_check() == 0, f"the {agent} playout ends with state_check " \
                                       f"{end.state_check()}"
    from duelpy.seven import render_text
    for p in range(state.players):                  # the views of a position never fail
        state.observation(p)
    assert render_text(state)
    rng = random.Random(seed)
    first_decision = True
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps <= MAX_STEPS, f"no end after {MAX_STEPS} actions"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes, f"a chance node ({state.phase}) with nothing to draw"
            state.apply_action(rng.choice(outcomes)[0])
        else:
            pending = state.pending_seats()
            assert pending, f"a decision node ({state.phase}) with no seat to decide"
            seat = rng.choice(pending)
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} has no legal action in phase {state.phase!r}"
            agents = ["random", "greedy"] + ([f"mcts:{mcts_iterations}"] if first_decision
                                             else [])
            for k, agent in enumerate(agents):
                a = sv.choose_action(state, seat, agent, seed + k)
                assert a in legal, f"{agent} chose {a}, not legal for seat {seat} in " \
                                   f"{state.phase!r}"
            first_decision = False
            state.apply_action(rng.choice(legal), seat)
        code = state.state_check()
        assert code == 0, f"state_check {code} after an action (phase {state.phase!r})"
    assert state.pending_seats() == [] and state.legal_actions(0) == []
    r = state.returns()
    assert len(r) == state.players and abs(sum(r) - 1.0) < 1e-9, r
    return "accepted"


# ---------------------------------------------------------------- the long campaign
CASE_TIMEOUT = 120.0        # seconds for one mutant (tens of ms normally)


def _worker(conn, indices):
    """Evaluate mutants one by one, announcing each before it starts."""
    for i in indices:
        conn.send(("start", i))
        try:
            d, _ = mutant(i)
            conn.send(("done", i, evaluate(d, seed=i)))
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


def run_campaign(n, workers=2, chunk=2000, first=0, report=print):
    """Mutants first..first+n-1 in forked worker processes; returns (outcomes, failures).

    Each worker announces a mutant before evaluating it, so when a worker dies (a signal, e.g.
    the debug build's abort) or stops answering for CASE_TIMEOUT seconds (a hang) that mutant
    is recorded, the worker is replaced and the campaign goes on; the mutant is then run again
    alone to see whether it fails by itself.
    """
    corpus()                    # built once, before the fork: every worker shares it
    value_pool()
    ctx = multiprocessing.get_context("fork")
    last = first + n
    todo = deque(range(i, min(i + chunk, last)) for i in range(first, last, chunk))
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
            d, changes = mutant(current)
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
                    d, changes = mutant(i)
                    failures.append({"mutant": i, "what": msg[2], "changes": changes,
                                     "position": d})
                    outcomes["fail"] += 1
                if done % 10000 == 0:
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
