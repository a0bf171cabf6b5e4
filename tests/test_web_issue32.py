"""``duel serve``'s API after issue 32: the server's side of its 14 bugs (strict integers,
versions on moves, seeds as strings, long names in records, replaced games, undo at the end,
friendly opponent names, a search stopped when nobody watches) and 7 Wonders in the page's
API (2..7 seats, the Free City, payments, simultaneous turns revealed together, replays)."""
from __future__ import annotations

import asyncio
import json
import time

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from duelcore import seven as _core  # noqa: E402
from duelpy.duel.agents import STRONGEST  # noqa: E402
from duelpy.duel.records import record_game  # noqa: E402
from duelpy.seven.game import play_game  # noqa: E402
from duelpy.seven.records import record_of, replay as seven_replay  # noqa: E402
from duelpy.web.app import create_app  # noqa: E402
from duelpy.web.games import agent_label  # noqa: E402

BASE = "http://127.0.0.1"


@pytest.fixture()
def client():
    app = create_app(hint_seconds=0.05, max_games=8, threads=2)
    with TestClient(app, base_url=BASE) as c:
        yield c


def assert_error(r, status, *words):
    assert r.status_code == status, (r.status_code, r.text)
    msg = r.json()["error"]
    assert isinstance(msg, str) and "\n" not in msg and msg
    for w in words:
        assert w.lower() in msg.lower(), (w, msg)
    return r.json()


def new(c, **body):
    body.setdefault("opponent", "random")
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def settle(c, g, until=lambda g: not g["thinking"]):
    for _ in range(400):
        if until(g):
            return g
        g = c.get(f"/api/games/{g['id']}", params={"version": g["version"], "wait": 5}).json()
    raise AssertionError("the AI never replied")


# ---------------------------------------------------------------- bug 1: strict integers
@pytest.mark.parametrize("bad", ["²", "٣", "9" * 5000, "1²", "+1", " 1", "0x1", "1.0"])
def test_bug1_a_version_that_is_not_ascii_digits_is_a_400_not_a_500(client, bad):
    g = new(client)
    assert_error(client.get(f"/api/games/{g['id']}", params={"version": bad, "wait": 1}), 400,
                 "version")


@pytest.mark.parametrize("bad", ["²", "9" * 5000, "٣", "-1", "1e3"])
def test_bug1_a_replay_position_that_is_not_ascii_digits_is_a_404_not_a_500(client, bad):
    rec = record_game("random", "random", seed=3)
    s = client.post("/api/replays", json=json.loads(rec.dumps())).json()
    assert_error(client.get(f"/api/replays/{s['id']}/positions/{bad}"), 404, "positions")


# ---------------------------------------------------------------- bug 2: moves carry a version
def test_bug2_a_move_made_on_an_old_version_is_refused(client):
    g = settle(client, new(client, seat=1, seed=4))
    old = g["version"]
    first = g["moves"][0]["id"]
    r = client.post(f"/api/games/{g['id']}/move", json={"action": first, "version": old})
    assert r.status_code == 200
    g2 = settle(client, r.json())
    still_legal = [m["id"] for m in g2["moves"]]
    r = client.post(f"/api/games/{g['id']}/move", json={"action": still_legal[0], "version": old})
    assert_error(r, 409, "the game has moved on")
    assert_error(client.post(f"/api/games/{g['id']}/undo", json={"version": old}), 409, "moved on")
    assert_error(client.post(f"/api/games/{g['id']}/move", json={"action": 1, "version": "x"}),
                 400, "version")
    r = client.post(f"/api/games/{g['id']}/move",
                    json={"action": still_legal[0], "version": g2["version"]})
    assert r.status_code == 200


# ---------------------------------------------------------------- bug 5: seeds
def test_bug5_seeds_as_strings_keep_every_digit_and_2_64_minus_1_is_taken(client):
    g = new(client, seed="9007199254740993")
    assert g["seed"] == "9007199254740993"
    rec = client.get(f"/api/games/{g['id']}/record").text
    assert json.loads(rec)["seed"] == 9007199254740993
    top = 2 ** 64 - 1
    assert new(client, seed=str(top))["seed"] == str(top)
    assert new(client, seed=top)["seed"] == str(top)
    msg = assert_error(client.post("/api/games", json={"opponent": "random",
                                                       "seed": "100000000000000000000000"}),
                       400, "seed", "too large")
    assert "e+" not in msg["error"]
    assert_error(client.post("/api/games", json={"opponent": "random", "seed": "12a"}), 400,
                 "seed")
    assert_error(client.post("/api/games", json={"opponent": "random", "seed": 1.5}), 400, "seed")
    assert new(client, game="seven", players=3, seed=str(top), opponent="random")["seed"] == str(top)


# ---------------------------------------------------------------- bug 6: a huge name
def test_bug6_a_record_with_a_huge_player_name_is_refused(client):
    d = json.loads(record_game("random", "random", seed=2).dumps())
    d["players"][0] = "x" * 1_000_000
    assert_error(client.post("/api/replays", json=d), 400, "name", "at most 100")
    d["players"][0] = "Tom & Jerry"
    s = client.post("/api/replays", json=d)
    assert s.status_code == 201 and s.json()["players"][0] == "Tom & Jerry"


# ---------------------------------------------------------------- bug 8: a replaced game
def test_bug8_a_game_replaced_by_a_new_one_says_so_and_names_its_successor(client):
    a = new(client, seed=1)
    b = new(client, seed=2, replaces=a["id"])
    r = client.get(f"/api/games/{a['id']}")
    body = assert_error(r, 404, "abandoned", "new game was started")
    assert body["replaced_by"] == b["id"]
    c2 = new(client, seed=3)                      # no "replaces": the other game stays
    assert client.get(f"/api/games/{b['id']}").status_code == 200
    assert client.delete(f"/api/games/{c2['id']}").status_code == 200
    body = assert_error(client.get(f"/api/games/{c2['id']}"), 404, "deleted")
    assert "replaced_by" not in body


# ---------------------------------------------------------------- bug 9: undo at the end
def test_bug9_undo_is_refused_once_the_game_is_over(client):
    g = settle(client, new(client, seat=1, seed=11))
    while not g["result"]:
        r = client.post(f"/api/games/{g['id']}/move",
                        json={"action": g["moves"][0]["id"], "version": g["version"]})
        g = settle(client, r.json())
    assert g["can_undo"] is False
    assert_error(client.post(f"/api/games/{g['id']}/undo"), 409, "over")
    assert client.get(f"/api/games/{g['id']}").json()["result"] == g["result"]


# ---------------------------------------------------------------- bug 13: friendly names
def test_bug13_the_opponent_has_a_friendly_name_and_a_thinking_clock(client):
    assert agent_label(f"{STRONGEST}:seconds=2") == "Strong (plan, 2 s)"
    assert agent_label("random") == "Beginner (random)"
    assert agent_label("mcts:iterations=500") == "Medium (mcts, 500 iterations)"
    g = new(client, seat=2, seed=1, opponent=f"{STRONGEST}:seconds=2")
    assert g["opponent_label"] == "Strong (plan, 2 s)" and g["budget"]["seconds"] == 2
    assert g["thinking"] is True
    time.sleep(0.3)
    g2 = client.get(f"/api/games/{g['id']}").json()
    assert g2["thinking_elapsed"] >= 0.2
    assert "Strong (plan, 2 s)" in g2["players_names"]
    meta = client.get("/api/meta").json()
    assert any(a["label"].startswith("Strong") for a in meta["agents"])


# ---------------------------------------------------------------- bug 14: the score sheet
def test_bug14_vp_zones_and_the_score_sheet_in_the_rulebooks_words(client):
    meta = client.get("/api/meta").json()
    assert meta["vp_names"]["blue"].startswith("Civilian")
    assert meta["vp_names"]["coins"].startswith("Treasury")
    g = new(client)
    assert [z[1] for z in g["military"]["vp_zones"]] == [2, 5, 10]
    seven = next(x for x in meta["games"] if x["name"] == "seven")
    assert seven["vp_names"]["civilian"].startswith("Civilian")


# ---------------------------------------------------------------- bug 7: nobody watches
def test_bug7_a_game_nobody_watches_any_more_stops_its_search_and_goes_on_when_asked():
    """A page follows the game with long polls; once none is under way for
    ``unwatched_seconds`` (the tab was closed) the AI's search stops; asking for the game
    again starts it afresh."""
    app = create_app(threads=2, unwatched_seconds=0.3)
    mgr = app.state.games
    with TestClient(app, base_url=BASE) as c:
        g = new(c, seat=2, seed=1, opponent=f"{STRONGEST}:seconds=30")
        r = c.get(f"/api/games/{g['id']}", params={"version": g["version"], "wait": 0.3})
        assert r.json()["thinking"] is True                      # it was followed
        t0 = time.monotonic()
        while mgr.pool.pending and time.monotonic() - t0 < 5:
            time.sleep(0.05)
        took = time.monotonic() - t0
        assert mgr.pool.pending == 0 and took < 1.0, took
        game = mgr.games[g["id"]]
        assert game.paused and not game.thinking
        v = c.get(f"/api/games/{g['id']}").json()               # the tab is back
        assert v["thinking"] is True and v["paused"] is False
        assert mgr.pool.pending == 1
        c.delete(f"/api/games/{g['id']}")


def test_an_api_client_that_never_long_polls_is_not_paused(client):
    g = new(client, seat=2, seed=3, opponent="mcts:iterations=3000")
    time.sleep(0.8)
    g = settle(client, client.get(f"/api/games/{g['id']}").json())
    assert g["log"] and not g["paused"]


# ---------------------------------------------------------------- the rule events
def test_the_log_tells_the_automatic_draft_pick_and_what_a_move_touched(client):
    g = settle(client, new(client, seat=1, seed=21))
    for _ in range(4):
        g = settle(client, client.post(f"/api/games/{g['id']}/move",
                                       json={"action": g["moves"][0]["id"]}).json())
    events = [e for entry in g["log"] for e in entry["events"]]
    assert any("automatically" in e for e in events), events
    assert any("Age I begins" in e for e in events), events
    assert all(entry["touched"]["kind"] == "pick" for entry in g["log"][:3])


# ---------------------------------------------------------------- 7 Wonders
def play_seven(c, g, pick=lambda moves: moves[0]):
    """Play the person's seats until the end: every decision through the API with the
    version (the Free City's too when the person controls it)."""
    n = 0
    while not g["result"]:
        assert n < 400
        if g["decisions"]:
            d = g["decisions"][0]
            moves = [m for card in d["cards"] for m in card["moves"]]
            r = c.post(f"/api/games/{g['id']}/move",
                       json={"action": pick(moves)["id"], "seat": d["seat"],
                             "version": g["version"]})
            if r.status_code == 409:                     # an AI seat moved meanwhile
                assert "moved on" in r.json()["error"]
                g = c.get(f"/api/games/{g['id']}").json()
                continue
            assert r.status_code == 200, r.text
            g = r.json()
            n += 1
        else:
            g = c.get(f"/api/games/{g['id']}", params={"version": g["version"],
                                                        "wait": 5}).json()
    return g


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_seven_a_whole_game_matches_the_core(client, players):
    g = new(client, game="seven", players=players, seed=5, opponent="greedy")
    assert g["game"] == "seven" and g["players"] == players
    assert g["seats"] == players + (players == 2)
    you = g["cities"][0]
    assert you["you"] and you["hand"] and len(you["hand"]) >= 7
    for other in g["cities"][1:]:
        assert other["hand"] is None                         # W-INFO: not the others' hands
    g = play_seven(client, g)
    rec = json.loads(client.get(f"/api/games/{g['id']}/record").text)
    final = seven_replay(rec)                                 # every move checked
    assert [s["total"] for s in g["result"]["scores"]] == [s["total"] for s in final.scores()]
    assert g["result"]["winners"] == final.winners()
    assert all(e["kind"] == "turn" or e["kind"] in _core.PHASES for e in g["log"])
    turns = [e for e in g["log"] if e["kind"] == "turn"]
    assert len(turns) == 18
    assert all(len(e["actions"]) == g["seats"] for e in turns)   # revealed together
    assert g["can_undo"] is False
    if players == 2:
        assert g["free_city"] == 2 and g["cities"][2]["name"] == "Free City"


def test_seven_the_turn_is_revealed_together_and_hides_face_down_cards(client):
    g = new(client, game="seven", players=3, seed=8, opponent="greedy")
    d = g["decisions"][0]
    assert d["seat"] == 0 and g["log"] == []
    moves = [m for card in d["cards"] for m in card["moves"]]
    assert {m["use"] for m in moves} >= {"build", "discard"}
    # the AI seats may have committed, but nothing of theirs is shown before the reveal
    g = settle(client, g)
    assert g["log"] == [] and g["committed"] == {}
    disc = next(m for m in moves if m["use"] == "discard")
    g = client.post(f"/api/games/{g['id']}/move",
                    json={"action": disc["id"], "seat": 0, "version": g["version"]}).json()
    g = settle(client, g, until=lambda g: g["log"])
    turn = g["log"][0]
    assert len(turn["actions"]) == 3 and turn["actions"][0]["card"] == disc["card"]
    for a in turn["actions"][1:]:                      # the others' face-down cards
        if a["use"] == "discard":
            assert "card" not in a and "discards a card" in a["text"]
        if a["use"] == "stage":
            assert "card" not in a and a["text"].startswith("builds a wonder stage")


def test_seven_payments_are_the_cores(client):
    """Every payment pair the core offers for a card (W-TRADE-6) that the seat can pay is a
    move of the page, with its coins, and nothing else is."""
    from duelcore import seven_data
    printed = {c.name: seven_data.parse_cost(c.cost)[0] for c in seven_data.CARDS}
    traded = 0
    for seed in range(12):
        g = new(client, game="seven", players=5, seed=seed, opponent="random")
        st = seven_replay(json.loads(client.get(f"/api/games/{g['id']}/record").text))
        for card in g["decisions"][0]["cards"]:
            pays = {(m["left"], m["right"]) for m in card["moves"] if m["use"] == "build"}
            want = {(l, r) for l, r in st.payment_options(0, card["card"])
                    if printed[card["card"]] + l + r <= st.coins(0)}
            assert pays == want, (card["card"], pays, want)
            traded += any(l or r for l, r in pays)
            for m in card["moves"]:
                if m["use"] == "build":
                    assert m["coins"] == printed[card["card"]] + m["left"] + m["right"]
    assert traded, "no trade in these hands"


def test_seven_bad_input(client):
    post = lambda body: client.post("/api/games", json={"game": "seven", **body})  # noqa: E731
    assert_error(post({"players": 8}), 400, "players")
    assert_error(post({"players": 3, "seat": 4}), 400, "seat")
    assert_error(post({"opponent": "plan"}), 400, "opponent")
    assert_error(post({"opponent": "mcts:5000"}), 400, "iterations")
    assert_error(post({"sides": "C"}), 400, "sides")
    assert_error(post({"centred_pawn": "begins"}), 400, "unknown field")
    assert_error(client.post("/api/games", json={"game": "chess"}), 400, "game")
    g = new(client, game="seven", players=3, seed=1)
    gid = g["id"]
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": 99999999, "seat": 0}),
                 400, "action")
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": 0, "seat": 1}), 409,
                 "seat 1")
    assert_error(client.post(f"/api/games/{gid}/move", json={"move": "fly away", "seat": 0}),
                 400, "not a legal move")
    assert_error(client.post(f"/api/games/{gid}/hint"), 400, "Duel")
    m = g["decisions"][0]["cards"][0]["moves"][0]
    r = client.post(f"/api/games/{gid}/move", json={"move": m["text"].upper(), "seat": 0})
    assert r.status_code == 200, r.text


def test_seven_undo_goes_back_to_your_commitment(client):
    g = settle(client, new(client, game="seven", players=4, seed=2, opponent="greedy"))
    m = g["decisions"][0]["cards"][0]["moves"][0]
    g = settle(client, client.post(f"/api/games/{g['id']}/move",
                                   json={"action": m["id"], "seat": 0}).json(),
               until=lambda g: g["decisions"])
    assert len(g["log"]) == 1
    u = settle(client, client.post(f"/api/games/{g['id']}/undo").json(),
               until=lambda g: g["decisions"])
    assert u["log"] == [] and u["decisions"] and u["turn"] == 1


def test_seven_records_replay_in_the_viewer(client):
    st, moves = play_game(4, ["greedy"] * 4, seed=3)
    rec = record_of(4, 3, moves, state=st)
    s = client.post("/api/replays", json=rec)
    assert s.status_code == 201, s.text
    s = s.json()
    assert s["game"] == "seven" and s["n_moves"] == len(moves)
    end = client.get(f"/api/replays/{s['id']}/positions/{len(moves)}").json()
    assert [x["total"] for x in end["result"]["scores"]] == [x["total"] for x in st.scores()]
    assert all(c["hand"] is not None for c in client.get(
        f"/api/replays/{s['id']}/positions/1").json()["cities"][:4])
    for k in ("-1", "abc", "1.5"):                     # not a number: a 404, never a 500
        assert_error(client.get(f"/api/replays/{s['id']}/positions/{k}"), 404,
                     f"positions are numbered 0 to {len(moves)}")
    bad = dict(rec, result={"winners": [0], "totals": [99, 0, 0, 0]})
    assert_error(client.post("/api/replays", json=bad), 400, "result")
    bad = dict(rec, moves=rec["moves"][:3] + [[0, 12345, "build Nothing"]])
    assert_error(client.post("/api/replays", json=bad), 400, "move 4")   # the 4th, numbered from 1


def test_server_status_counts_the_searches(client):
    s = client.get("/api/server").json()
    assert s == {"searches": 0, "games": 0, "thinking": 0}


def test_the_page_loads_each_games_view_module(client):
    meta = client.get("/api/meta").json()
    names = {g["name"]: g for g in meta["games"]}
    assert set(names) == {"duel", "seven", "architects"}
    for g in names.values():
        assert client.get(g["script"]).status_code == 200
    assert names["seven"]["players"] == [2, 3, 4, 5, 6, 7]
    assert "Lumber Yard" in names["seven"]["cards"] and "Rhodos" in names["seven"]["boards"]


def test_wait_returns_when_the_page_has_gone():
    from duelpy.web.games import GameManager

    async def run():
        mgr = GameManager(threads=1, unwatched_seconds=0.05)
        gone = {"n": 0}

        async def disconnected():
            gone["n"] += 1
            return gone["n"] > 2

        from duelpy.web.games import Session
        s = Session("x")
        s.ai_due = lambda: False
        t0 = time.monotonic()
        await mgr.wait(s, 0, 10, disconnected)
        assert time.monotonic() - t0 < 2 and s.watchers == 0 and s.followed
        mgr.close()

    asyncio.run(run())


# ---------------------------------------------------------------- any body, never a 500
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_bodies = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats()
    | st.text(max_size=12) | st.sampled_from(["seven", "duel", "²", "9" * 30, "A", "random"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["game", "players", "seat", "opponent", "seed", "sides", "replaces",
                         "action", "move", "version", "remove", "x"]), inner, max_size=6),
    max_leaves=10)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=_bodies, where=st.sampled_from(["games", "seven-move", "duel-move", "undo",
                                            "seven-replay"]))
def test_any_body_on_the_new_fields_gets_a_4xx_not_a_500(body, where):
    app = create_app(max_games=4)
    with TestClient(app, base_url=BASE, raise_server_exceptions=True) as c:
        send = lambda path, b: c.post(path, content=json.dumps(b),  # noqa: E731
                                      headers={"content-type": "application/json"})
        if where == "games":
            r = send("/api/games", body)
        elif where in ("seven-move", "duel-move", "undo"):
            g = new(c, game="seven", players=3) if where == "seven-move" else new(c)
            r = send(f"/api/games/{g['id']}/{'undo' if where == 'undo' else 'move'}", body)
        else:
            _, moves = play_game(3, ["random"] * 3, seed=1)
            rec = record_of(3, 1, moves[:5])
            if isinstance(body, dict):
                rec.update({k: v for k, v in body.items() if k in ("players", "seed", "x")})
            r = send("/api/replays", rec)
        assert r.status_code < 500, r.text
        if r.status_code >= 400:
            assert r.json()["error"] and "\n" not in r.json()["error"]


def test_seven_a_game_nobody_watches_stops_its_ai_seats():
    """7 Wonders: the AI seats decide one seat a search job, so a closed tab stops them
    between two decisions (the core's 7 Wonders search has no stop token)."""
    app = create_app(threads=1, unwatched_seconds=0.3)
    mgr = app.state.games
    with TestClient(app, base_url=BASE) as c:
        g = new(c, game="seven", players=7, seed=2, opponent="mcts:1000")
        c.get(f"/api/games/{g['id']}", params={"version": g["version"], "wait": 0.3})
        t0 = time.monotonic()
        game = mgr.games[g["id"]]
        while (game.thinking or mgr.pool.pending) and time.monotonic() - t0 < 10:
            time.sleep(0.05)
        took = time.monotonic() - t0
        assert game.paused and mgr.pool.pending == 0, took
        assert took < 1.5, f"the AI seats went on {took:.2f} s"
        done = len(game.moves)
        assert done < 6                                   # not every seat decided
        v = c.get(f"/api/games/{g['id']}").json()        # back: the seats go on
        assert v["thinking"] is True
        c.delete(f"/api/games/{g['id']}")
