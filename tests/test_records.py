"""Game records (duelpy.duel.records): seed + options + decisions reproduce the game; save/load
round-trips; a malformed, truncated or tampered record fails with a RecordError naming the
field or move number and the reason."""
from __future__ import annotations

import json

import pytest

import duelcore
from duelcore import search
from duelpy.duel.agents import GreedyAgent, RandomAgent
from duelpy.duel.notation import action_name
from duelpy.duel.records import (
    DEFAULT_OPTIONS, FORMAT, VERSION, GameRecord, RecordError, from_dict, load, loads,
    record_game, replay, save,
)


@pytest.fixture(scope="module")
def finished():
    """A finished game (greedy vs random) and its record as data."""
    rec = record_game("greedy", "random", seed=5)
    return rec, rec.to_dict()


def tampered(d, change):
    d = json.loads(json.dumps(d))
    change(d)
    return d


def refused(d, *words, field=None, move=None):
    with pytest.raises(RecordError) as info:
        from_dict(d)
    e = info.value
    assert isinstance(e, ValueError)
    for w in words:
        assert w.lower() in str(e).lower(), f"{w!r} not in {str(e)!r}"
    if field is not None:
        assert e.field == field
    if move is not None:
        assert e.move == move and str(e).startswith(f"move {move}:")
    return e


# ---------------------------------------------------------------- reproduction
def test_seed_and_decisions_reproduce_the_game():
    seed = 12
    state = duelcore.new_game(seed)
    agents = [GreedyAgent(), RandomAgent()]
    for seat in (0, 1):
        agents[seat].reset(search.agent_seed(seed, seat))
    rec = GameRecord(seed=seed)
    states = [state.clone()]
    while not state.is_terminal():
        rec.play(state, agents[state.current_player()].select_action(state))
        states.append(state.clone())
    assert rec.result == json.loads(json.dumps(state.result()))
    again = replay(rec, states=True)
    assert again == states                                  # every position, equal by value
    assert replay(rec) == state
    assert replay(rec, upto=10) == states[10]


def test_save_load_round_trip(tmp_path, finished):
    rec, d = finished
    path = save(rec, tmp_path / "game.json")
    text = path.read_text()
    data = json.loads(text)
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["seed"] == 5 and data["players"] == ["greedy", "random"]
    assert data["options"] == DEFAULT_OPTIONS
    assert [m["id"] for m in data["moves"]] == rec.moves
    assert all(m["name"] == action_name(m["id"]) for m in data["moves"])
    assert data["moves"][0]["player"] == "P1"
    assert data["result"]["total"] == replay(rec).result()["total"]
    back = load(path)
    assert back == rec
    assert back.to_dict() == d
    bom = tmp_path / "bom.json"                 # saved by a Windows editor: a leading BOM
    bom.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load(bom) == rec
    bom.unlink()
    assert replay(back).is_terminal()
    assert list(tmp_path.iterdir()) == [path]                 # no temporary file left


@pytest.mark.parametrize("options", [
    {"first_game_wonders": True},
    {"centred_pawn": "begins", "start_coins": (5, 9)},
    {"first_player": None},
    {"banned_tokens": ("Law", "Economy"), "forced_wonders": ("The Sphinx", None)},
])
def test_rule_options_are_recorded(tmp_path, options):
    rec = record_game("random", "greedy", seed=3, **options)
    back = load(rec.save(tmp_path / "g.json"))
    assert back == rec
    expected = dict(DEFAULT_OPTIONS)
    expected.update(json.loads(json.dumps(options)))
    assert back.options == expected
    direct = duelcore.new_game(3, **options)
    for a in rec.moves:
        direct.apply_action(a)
    assert replay(back) == direct


def test_explicit_chance_records_the_chance_outcomes(tmp_path):
    rec = record_game("random", "random", seed=8, explicit_chance=True)
    back = load(rec.save(tmp_path / "c.json"))
    players = [m["player"] for m in back.to_dict()["moves"]]
    assert "chance" in players and "P1" in players
    assert replay(back).is_terminal()


def test_an_unfinished_game(tmp_path):
    rec, state = GameRecord.start(seed=4, players=["you", "greedy"])
    for _ in range(10):
        rec.play(state, state.legal_actions()[0])
    assert rec.result is None
    back = load(rec.save(tmp_path / "half.json"))
    assert back.result is None and len(back.moves) == 10
    assert replay(back) == state
    rec.truncate(4)
    assert replay(rec) == replay(back, upto=4)


def test_save_to_a_missing_folder(tmp_path, finished):
    with pytest.raises(OSError):
        save(finished[0], tmp_path / "no" / "game.json")
    assert list(tmp_path.iterdir()) == []


def test_replay_arguments(finished):
    rec, d = finished
    assert replay(d) == replay(rec)
    with pytest.raises(RecordError, match="upto"):
        replay(rec, upto=len(rec.moves) + 1)
    with pytest.raises(TypeError):
        replay("game.json")


# ---------------------------------------------------------------- malformed files
def test_not_json(tmp_path, finished):
    text = finished[0].dumps()
    for bad in (text[: len(text) // 2], "", "{", "not json at all", "\x00\x01"):
        path = tmp_path / "bad.json"
        path.write_text(bad)
        with pytest.raises(RecordError) as info:
            load(path)
        assert "JSON" in str(info.value) or "empty" in str(info.value)
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="text"):
        load(tmp_path / "bin.json")
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.json")
    with pytest.raises(IsADirectoryError):
        load(tmp_path)


def test_not_a_record():
    with pytest.raises(RecordError, match="object"):
        loads("[1, 2, 3]")
    refused({"format": "something else", "version": 1}, "format", field="format")
    refused({"game": "seven", "format": 1}, "7 Wonders record: duel replay and duelpy.seven.load_record read it",
            field="format")


def test_wrong_version(finished):
    refused(tampered(finished[1], lambda d: d.update(version=2)), "version 1", "not 2",
            field="version")
    refused(tampered(finished[1], lambda d: d.pop("version")), field="version")


@pytest.mark.parametrize("key", ["seed", "options", "moves", "result"])
def test_missing_field(finished, key):
    refused(tampered(finished[1], lambda d: d.pop(key)), "missing", field=key)


@pytest.mark.parametrize("key, value", [
    ("seed", -1), ("seed", "5"), ("seed", 1.5), ("seed", True), ("seed", 2 ** 64),
    ("options", []), ("moves", {}), ("result", 3), ("players", ["a"]),
])
def test_bad_field_types(finished, key, value):
    e = refused(tampered(finished[1], lambda d: d.update({key: value})))
    assert e.field == key


@pytest.mark.parametrize("option, value, words", [
    ("start_coins", [7], "start_coins"),
    ("centred_pawn", "sometimes", "centred_pawn"),
    ("first_player", 2, "first_player"),
    ("first_game_wonders", "yes", "true or false"),
    ("banned_tokens", ["Alchemy"], "Alchemy"),
    ("forced_wonders", ["The Sphinx", "The Sphinx"], "forced"),
    ("house_rule", 1, "unknown rule option"),
])
def test_bad_options(finished, option, value, words):
    e = refused(tampered(finished[1], lambda d: d["options"].update({option: value})), words)
    assert e.field == f"options.{option}"


def test_an_illegal_move_names_its_number(finished):
    rec, d = finished
    # swap two moves of the same player: the first becomes illegal or the game diverges
    e = refused(tampered(d, lambda d: d["moves"].pop(20)))
    assert e.move is not None or e.field == "result"
    e = refused(tampered(d, lambda d: d["moves"].__setitem__(
        0, {"player": "P1", "id": 12 + 60, "name": action_name(72)})), "illegal", move=1)
    assert "draft" in str(e)
    refused(tampered(d, lambda d: d["moves"].append(d["moves"][-1])), "over",
            move=len(rec.moves) + 1)


def test_a_name_that_does_not_match_its_id(finished):
    d = finished[1]
    k = 30
    e = refused(tampered(d, lambda d: d["moves"][k].update(name="build Palace")),
                "build Palace", "does not match", move=k + 1)
    assert e.field == f"moves[{k}].name"
    refused(tampered(d, lambda d: d["moves"][k].update(id="12")), "id", move=k + 1)
    refused(tampered(d, lambda d: d["moves"][k].update(id=99999)), "id", move=k + 1)
    refused(tampered(d, lambda d: d["moves"][k].pop("name")), "name", move=k + 1)
    refused(tampered(d, lambda d: d["moves"].__setitem__(k, 7)), "object", move=k + 1)


def test_a_move_by_the_wrong_player(finished):
    d = finished[1]
    other = {"P1": "P2", "P2": "P1"}[d["moves"][3]["player"]]
    refused(tampered(d, lambda d: d["moves"][3].update(player=other)), "turn", move=4)


def test_a_result_that_does_not_match_the_replay(finished):
    d = finished[1]
    refused(tampered(d, lambda d: d["result"].update(winner=1 - d["result"]["winner"])),
            "replay gives", field="result")
    refused(tampered(d, lambda d: d["result"]["vp"]["blue"].__setitem__(0, 99)),
            field="result")
    refused(tampered(d, lambda d: d.update(result=None)), "game is over", field="result")
    refused(tampered(d, lambda d: d.update(moves=d["moves"][:-5])), "not over",
            field="result")
    refused(tampered(d, lambda d: d.update(seed=6)))           # another deal: fails somewhere


def test_fuzzed_records_fail_cleanly(finished):
    """Any value in any field: a RecordError (never a KeyError, TypeError... from deep inside)."""
    d = finished[1]
    junk = [None, True, -1, 0, 1.5, "", "x", [], {}, [None], {"id": 1}, 2 ** 70]
    paths = [("seed",), ("options",), ("moves",), ("result",), ("players",), ("format",),
             ("options", "start_coins"), ("options", "banned_tokens"),
             ("options", "forced_wonders"), ("options", "first_player"),
             ("result", "winner"), ("result", "total"), ("result", "vp")]
    paths += [("moves", k, f) for k in (0, 9, 40) for f in ("id", "name", "player")]
    paths += [("moves", k) for k in (0, 15)]
    for path in paths:
        for value in junk:
            bad = json.loads(json.dumps(d))
            target = bad
            for key in path[:-1]:
                target = target[key]
            if target[path[-1]] == value:
                continue
            target[path[-1]] = value
            try:
                from_dict(bad)
            except RecordError:
                pass
            else:                                   # only harmless changes may load
                harmless = {(("options",), "{}"), (("options", "forced_wonders"), "null"),
                             (("options", "first_player"), "null")}
                assert (path, json.dumps(value)) in harmless, (path, value)


def test_record_from_other_rules_is_refused_with_that_reason():
    import duelcore
    from duelpy.duel import records as records
    rec = records.record_game("random", "random", seed=3)
    d = rec.to_dict()
    assert d["rules_version"] == duelcore.RULES_VERSION
    d["rules_version"] = duelcore.RULES_VERSION + 1
    with pytest.raises(records.RecordError, match="rules version"):
        records.from_dict(d)


def test_a_result_changed_only_in_vp_categories_names_the_category():
    from duelpy.duel import records as records
    d = records.record_game("greedy", "random", seed=3).to_dict()
    d["result"]["vp"]["blue"] = [0, 0]
    with pytest.raises(records.RecordError, match=r"vp\.blue \(record \[0, 0\]"):
        records.from_dict(d)


# ---------------------------------------------------------------- hostile files (issue 14.4)
@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, ["nested more than"]),
    ('{"a": ' + "[" * 17 + "]" * 17 + "}", ["nested more than 16"]),
    ('{"seed": ' + "9" * 5000 + "}", ["5,000 characters"]),
    ('{"seed": -' + "1" * 300 + "}", ["300 characters"]),
    ('{"seed": 1.' + "5" * 300 + "}", ["characters"]),
    ('{"seed": NaN}', ["NaN"]),
    ('{"seed": -Infinity}', ["Infinity"]),
    ('{"x": "' + "a" * (1 << 20) + '"}', ["too large"]),
])
def test_hostile_json_is_a_record_error_before_parsing(text, words):
    with pytest.raises(RecordError) as info:
        loads(text)
    assert "\n" not in str(info.value)
    for w in words:
        assert w in str(info.value)


def test_brackets_inside_strings_do_not_count_as_depth(finished):
    d = json.loads(json.dumps(finished[1]))
    d["players"] = ["[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{", ']]]]}}}} \\" [']
    assert loads(json.dumps(d)).players == d["players"]


def test_an_endless_or_huge_file_is_refused_without_reading_it_all(tmp_path):
    with pytest.raises(RecordError, match="too large"):
        load("/dev/zero")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 << 20) + b"{}")
    with pytest.raises(RecordError, match="too large"):
        load(big)


def _mutants(text: str):
    """Text-level mutations of a record (hypothesis strategy)."""
    from hypothesis import strategies as st
    n = len(text)
    cut = st.integers(0, n).map(lambda k: text[:k])
    insert = st.tuples(st.integers(0, n), st.sampled_from(
        ["[", "{", "]", "}", ",", '"', "\\", "-", "1e400", "9" * 50, "null", "NaN", "\x00",
         "\ud800", "é", " " * 3])).map(lambda a: text[:a[0]] + a[1] + text[a[0]:])
    replace = st.tuples(st.integers(0, max(0, n - 1)), st.characters()).map(
        lambda a: text[:a[0]] + a[1] + text[a[0] + 1:])
    return st.one_of(cut, insert, replace)


def _values():
    from hypothesis import strategies as st
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**80, 2**80),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
    return st.recursive(leaf, lambda c: st.one_of(st.lists(c, max_size=3),
                                                  st.dictionaries(st.text(max_size=6), c,
                                                                  max_size=3)), max_leaves=6)


def _check_clean(fn, arg):
    try:
        fn(arg)
    except RecordError as e:
        assert "\n" not in str(e)


@pytest.mark.parametrize("examples", [pytest.param(150, id="quick"),
                                      pytest.param(20_000, id="long", marks=pytest.mark.slow)])
def test_mutated_record_files_load_or_fail_with_a_record_error(finished, examples):
    from hypothesis import HealthCheck, given, settings
    text = finished[0].dumps()

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(_mutants(text))
    def check(mutant):
        _check_clean(loads, mutant)

    check()


@pytest.mark.parametrize("examples", [pytest.param(150, id="quick"),
                                      pytest.param(20_000, id="long", marks=pytest.mark.slow)])
def test_any_value_anywhere_in_a_record_is_a_record_error_or_loads(finished, examples):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    d = finished[1]
    paths = [(), ("seed",), ("options",), ("moves",), ("result",), ("players",), ("version",),
             ("rules_version",), ("options", "start_coins"), ("options", "centred_pawn"),
             ("options", "banned_tokens"), ("options", "forced_wonders"), ("result", "vp"),
             ("result", "total"), ("moves", 0), ("moves", 3, "id"), ("moves", 3, "name"),
             ("moves", 7, "player"), ("players", 1)]

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(paths), _values())
    def check(path, value):
        bad = json.loads(json.dumps(d))
        if not path:
            bad = value
        else:
            target = bad
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        _check_clean(from_dict, bad)
        try:
            text = json.dumps(bad)
        except ValueError:
            return
        _check_clean(loads, text)

    check()


def test_save_does_not_overwrite_unless_asked(tmp_path):
    """Issue 29: GameRecord.save() overwrote an existing file silently."""
    import pytest
    from duelpy import record_game
    rec = record_game("random", "random", seed=2)
    path = tmp_path / "g.json"
    path.write_text("precious")
    with pytest.raises(FileExistsError, match="overwrite"):
        rec.save(path)
    assert path.read_text() == "precious"
    rec.save(path, overwrite=True)
    assert path.read_text() != "precious"
