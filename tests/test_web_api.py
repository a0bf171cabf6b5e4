"""``duel serve``'s JSON API through Starlette's test client: every endpoint, the bad-input
cases (always a 4xx with a one-line message, never a 500), isolation and concurrent games."""
from __future__ import annotations

import json
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

import duelcore  # noqa: E402
from duelpy.duel.agents import STRONGEST, RandomAgent  # noqa: E402
from duelpy.duel.records import loads, record_game, replay  # noqa: E402
from duelpy.web.app import create_app  # noqa: E402
from duelpy.web.view import board_view, price_text  # noqa: E402

BASE = "http://127.0.0.1"


@pytest.fixture()
def client():
    app = create_app(hint_seconds=0.05, max_games=6, threads=2)
    with TestClient(app, base_url=BASE) as c:
        yield c


def new_game(c, **body):
    body.setdefault("opponent", "random")
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def settle(c, g):
    """Wait until the AI has replied (the game is the human's turn or over)."""
    for _ in range(200):
        if not g["thinking"]:
            return g
        r = c.get(f"/api/games/{g['id']}", params={"version": g["version"], "wait": 5})
        assert r.status_code == 200, r.text
        g = r.json()
    raise AssertionError("the AI never replied")


def assert_error(r, status, *words):
    assert r.status_code == status, (r.status_code, r.text)
    msg = r.json()["error"]
    assert isinstance(msg, str) and "\n" not in msg and msg
    for w in words:
        assert w.lower() in msg.lower(), (w, msg)
    return msg


def play_out(c, g, choose=lambda moves: moves[0]["id"]):
    g = settle(c, g)
    while not g["result"]:
        r = c.post(f"/api/games/{g['id']}/move", json={"action": choose(g["moves"])})
        assert r.status_code == 200, r.text
        g = settle(c, r.json())
    return g


# ---------------------------------------------------------------- pages and meta
def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "/static/app.js" in r.text and "http" not in r.text.split("<body>")[0].replace(
        'content="width=device-width', "")                       # nothing from a CDN
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("app.js", "style.css", "favicon.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    assert_error(client.get("/static/../app.py"), 404)
    assert_error(client.get("/no/such/page"), 404, "no such page")


def test_meta_lists_the_agents_and_the_card_texts(client):
    m = client.get("/api/meta").json()
    names = [a["name"] for a in m["agents"]]
    assert {"random", "greedy", "mcts"} <= set(names)
    assert [a for a in m["agents"] if a["strongest"]][0]["budget"] == "seconds"
    assert len(m["cards"]) == len(duelcore.data.CARDS)
    assert m["cards"]["Lumber Yard"]["text"] == "produces 1 wood"
    assert m["wonders"]["The Pyramids"]["vp"] == 9
    assert m["study"] is False
    assert m["first_game_wonders"][0][0] == "The Pyramids"


# ---------------------------------------------------------------- a whole game
def test_whole_game_against_random_matches_the_core(client):
    g = new_game(client, seat=1, seed=11)
    assert g["you"] == "P1" and g["phase"] == "draft" and g["to_move"] == "P1"
    assert g["moves"] and all(m["kind"] == "pick" for m in g["moves"])
    g = play_out(client, g, choose=lambda ms: ms[-1]["id"])
    rec_text = client.get(f"/api/games/{g['id']}/record")
    assert rec_text.status_code == 200
    assert "attachment" in rec_text.headers["content-disposition"]
    rec = loads(rec_text.text)                     # the same record format the CLI writes
    final = replay(rec)
    assert final.result() == {**g["result"], "vp": final.result()["vp"]}
    assert g["result"]["total"] == final.result()["total"]
    assert g["result"]["vp"] == final.result()["vp"]
    assert rec.players == ["you", "random"] and rec.seed == 11
    assert len(g["log"]) == len(rec.moves)
    assert [e["id"] for e in g["log"]] == rec.moves
    assert all(e["why"] for e in g["log"] if e["who"] != "you")     # the AI's moves explained
    assert_error(client.post(f"/api/games/{g['id']}/move", json={"action": 12}), 409, "over")
    assert_error(client.post(f"/api/games/{g['id']}/hint"), 409)


def test_seat_two_the_ai_moves_first_and_options_reach_the_core(client):
    g = new_game(client, seat=2, seed=5, first_game_wonders=True, centred_pawn="begins",
                 start_coins=[5, 9])
    g = settle(client, g)
    assert g["you"] == "P2" and g["to_move"] == "P2"
    assert g["log"] and g["log"][0]["player"] == "P1"
    rec = loads(client.get(f"/api/games/{g['id']}/record").text)
    assert rec.options["first_game_wonders"] is True and rec.options["centred_pawn"] == "begins"
    assert rec.options["start_coins"] == [5, 9]
    start = rec.new_game()
    assert start.phase == "play" and start.coins(0) == 5 and start.coins(1) == 9


def test_view_prices_and_effects_come_from_the_core(client):
    g = settle(client, new_game(client, seat=1, seed=3, first_game_wonders=True))
    st_ = duelcore.new_game(3, first_game_wonders=True)
    avail = [s for s in g["layout"] if s["available"]]
    assert {s["card"] for s in avail} == {duelcore.data.CARD_NAMES[c]
                                         for c in st_.available_cards()}
    for s in avail:
        c = duelcore.data.CARD_NAMES.index(s["card"])
        total, trade = st_.card_cost(0, c)
        assert (s["price"]["total"], s["price"]["traded"]) == (total, trade)
        assert s["price"]["coins"] == total - trade
        for m in s["moves"]:
            after = st_.clone()
            after.apply_action(m["id"])
            assert m["effect"]["coins"] == after.coins(0) - st_.coins(0)
    faces = {s["face"] for s in g["layout"]}
    assert faces == {"up", "back"}
    assert all(s["card"] is None for s in g["layout"] if s["face"] == "back")
    text = json.dumps(g)
    assert '"rng"' not in text                       # the chance RNG never leaves the server


def test_price_text_words_a_trade_breakdown():
    row = lambda r, u, p: {"resource": r, "units": u, "price": p}   # noqa: E731
    b = {"chain": False, "coins": 0, "total": 5, "traded": 5,
         "buy": [row("clay", 1, 3), row("papyrus", 1, 2)]}
    assert price_text(b) == "5 coins = 1 clay × 3 + 1 papyrus × 2"
    b = {"chain": False, "coins": 1, "total": 7, "traded": 6, "buy": [row("stone", 2, 3)]}
    assert price_text(b) == "7 coins = 1 printed + 2 stone × 3"
    b = {"chain": False, "coins": 1, "total": 1, "traded": 0, "buy": []}
    assert price_text(b) == "1 coin (printed)"
    free = {"chain": False, "coins": 0, "total": 0, "traded": 0, "buy": []}
    assert price_text(free) == "free"
    chain = {**free, "chain": True}
    assert price_text(chain, "Baths") == "free (chain from Baths)"
    assert price_text(chain) == "free (chain)"


def _build_first(g):
    """A chain build if there is one, else the cheapest build (or, one time in three, the
    first move, a discard: so that later prices need several resources)."""
    if g["phase"] != "play":
        return g["moves"][0]["id"]
    builds = [(not s["price"]["chain"], s["price"]["total"], m["id"])
              for s in g["layout"] if s["available"] for m in s["moves"] if m["kind"] == "build"]
    best = min(builds) if builds else None
    if best and (not best[0] or g["n_moves"] % 3):
        return best[2]
    return g["moves"][0]["id"]


def _check_price(state, p, price, card=None, wonder=None):
    """One price of the view against the core (R-BUILD-2, R-TRADE-1..4)."""
    data = duelcore.data
    if wonder is None:
        b = state.trade_breakdown(p, card)
        total, trade = state.card_cost(p, data.CARD_NAMES.index(card))
    else:
        b = state.trade_breakdown(p, wonder, wonder=True)
        total, trade = state.wonder_cost(p, data.WONDER_NAMES.index(wonder))
    assert {k: price[k] for k in b} == b                 # the core's breakdown, as it is
    assert (price["total"], price["traded"]) == (total, trade)
    assert price["coins"] + sum(r["units"] * r["price"] for r in price["buy"]) == total
    assert price["affordable"] == (total <= state.coins(p))
    if price["chain"]:
        assert wonder is None and total == 0 and price["buy"] == []
        assert price["chain_from"] in data.CARD_NAMES, price
        giver = data.CARDS[data.CARD_NAMES.index(price["chain_from"])]
        assert data.CARD_NAMES.index(price["chain_from"]) in state.city(p)
        assert giver.chain_gives == data.CARDS[data.CARD_NAMES.index(card)].chain_from
    else:
        assert price["chain_from"] is None
    assert price["text"] == price_text(b, price["chain_from"])
    return b


def test_prices_are_the_cores_trade_breakdown(client):
    """At every decision of a whole game, each available card's price (and each unbuilt
    wonder's) is ``State.trade_breakdown`` of the position, summing to the price."""
    g = new_game(client, seat=1, seed=6)
    seen = {"chain": 0, "bought": 0, "printed+bought": 0, "two resources": 0, "wonders": 0}
    g = settle(client, g)
    while not g["result"]:
        if g["phase"] == "play":
            state = replay(loads(client.get(f"/api/games/{g['id']}/record").text))
            assert state.current_player() == 0 and state.n_decisions == g["n_decisions"]
            for s in g["layout"]:
                if not s["available"]:
                    assert "price" not in s
                    continue
                b = _check_price(state, 0, s["price"], card=s["card"])
                seen["chain"] += b["chain"]
                seen["bought"] += bool(b["buy"])
                seen["printed+bought"] += bool(b["buy"] and b["coins"])
                seen["two resources"] += len(b["buy"]) > 1
                build = [m for m in s["moves"] if m["kind"] == "build"]
                if build:
                    assert build[0]["note"] == s["price"]["text"]
            for w in g["players"][0]["wonders"]:
                assert ("price" in w) == (not w["built"])
                if not w["built"]:
                    _check_price(state, 0, w["price"], wonder=w["name"])
                    seen["wonders"] += 1
            assert all("price" not in w for w in g["players"][1]["wonders"])
        r = client.post(f"/api/games/{g['id']}/move", json={"action": _build_first(g)})
        assert r.status_code == 200, r.text
        g = settle(client, r.json())
    assert all(seen.values()), seen


def test_move_by_name_and_illegal_moves(client):
    g = settle(client, new_game(client, seat=1, seed=4))
    gid = g["id"]
    name = g["moves"][0]["name"]
    assert_error(client.post(f"/api/games/{gid}/move", json={"move": "build Palace"}), 400,
                 "palace")
    assert_error(client.post(f"/api/games/{gid}/move", json={"move": "xyzzy"}), 400, "xyzzy")
    illegal = next(a for a in range(1192) if a not in [m["id"] for m in g["moves"]])
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": illegal}), 400,
                 "not legal")
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": 5000}), 400, "action")
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": "12"}), 400, "action")
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": True}), 400, "action")
    assert_error(client.post(f"/api/games/{gid}/move", json={}), 400, "either")
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": 1, "move": "x"}), 400)
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": 1, "x": 1}), 400,
                 "unknown field 'x'")
    same = client.get(f"/api/games/{gid}").json()
    assert same["version"] == g["version"] and same["n_moves"] == g["n_moves"]  # unchanged
    r = client.post(f"/api/games/{gid}/move", json={"move": name})
    assert r.status_code == 200 and r.json()["log"][-1]["name"] == name


def test_undo_goes_back_to_your_previous_decision(client):
    g = settle(client, new_game(client, seat=1, seed=8))
    assert g["can_undo"] is False
    assert_error(client.post(f"/api/games/{g['id']}/undo"), 409, "nothing to undo")
    first = g["moves"][0]["id"]
    g1 = settle(client, client.post(f"/api/games/{g['id']}/move",
                                     json={"action": first}).json())
    g2 = settle(client, client.post(f"/api/games/{g['id']}/move",
                                     json={"action": g1["moves"][0]["id"]}).json())
    assert g2["n_moves"] > g1["n_moves"]
    u = client.post(f"/api/games/{g['id']}/undo").json()
    assert u["n_moves"] == g1["n_moves"] and u["to_move"] == "P1"
    assert [m["id"] for m in u["moves"]] == [m["id"] for m in g1["moves"]]
    assert u["log"] == g1["log"]
    u = client.post(f"/api/games/{g['id']}/undo").json()
    assert u["n_moves"] == 0 and not u["can_undo"]
    rec = loads(client.get(f"/api/games/{g['id']}/record").text)
    assert rec.moves == []


def wait_for(cond, timeout=10.0) -> float:
    """Poll ``cond()`` every 5 ms; the seconds it took to become true."""
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, "the condition never became true"
        time.sleep(0.005)
    return time.monotonic() - t0


def searching(game) -> bool:
    """True once the game's current search has begun (it runs under the game's token)."""
    return game.agent.stop is game.stop


def test_undo_while_the_ai_thinks_stops_its_search(client):
    mgr = client.app.state.games
    g = new_game(client, seat=1, seed=2, opponent=f"{STRONGEST}:seconds=30")
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/move", json={"action": g["moves"][0]["id"]}).json()
    assert r["thinking"] is True
    game = mgr.games[gid]
    wait_for(lambda: searching(game))
    token = game.stop
    assert_error(client.post(f"/api/games/{gid}/move", json={"action": 1}), 409, "not your turn")
    assert_error(client.post(f"/api/games/{gid}/hint"), 409, "not your turn")
    u = client.post(f"/api/games/{gid}/undo").json()
    assert u["n_moves"] == 0 and u["thinking"] is False and u["to_move"] == "P1"
    assert token.is_set
    took = wait_for(lambda: mgr.pool.pending == 0)
    assert took < 1.0, f"the 30 s search ran {took:.2f} s after the undo"
    g = client.get(f"/api/games/{gid}", params={"version": u["version"], "wait": 0.3}).json()
    assert g["n_moves"] == 0                     # its move was thrown away
    # the next search has a fresh token: it runs on, until the game is abandoned
    r = client.post(f"/api/games/{gid}/move", json={"action": g["moves"][0]["id"]}).json()
    assert r["thinking"] is True
    wait_for(lambda: searching(game))
    time.sleep(0.3)
    assert mgr.pool.pending == 1 and not game.stop.is_set
    assert client.delete(f"/api/games/{gid}").status_code == 200
    assert wait_for(lambda: mgr.pool.pending == 0) < 1.0


def test_hint_gives_the_visit_shares_of_the_strongest_agent(client):
    g = settle(client, new_game(client, seat=1, seed=6))
    h = client.post(f"/api/games/{g['id']}/hint")
    assert h.status_code == 200, h.text
    h = h.json()
    legal = {m["id"] for m in g["moves"]}
    assert h["action"] in legal and h["iterations"] > 0
    assert h["agent"].startswith(STRONGEST) and "seconds=0.05" in h["agent"]
    shares = [m["share"] for m in h["moves"]]
    assert all(m["id"] in legal for m in h["moves"])
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1.0 + 1e-9


def test_an_ai_move_is_explained_with_its_search(client):
    g = new_game(client, seat=2, seed=1, opponent="mcts:iterations=300")
    g = settle(client, g)
    e = g["log"][0]
    assert e["who"].startswith("mcts") and "300 iterations" in e["why"]
    assert e["shares"]["moves"][0]["share"] > 0


# ---------------------------------------------------------------- bad requests
def test_new_game_bad_input(client):
    post = lambda body, **kw: client.post("/api/games", json=body, **kw)  # noqa: E731
    assert_error(post({"seat": 3}), 400, "seat")
    assert_error(post({"seat": "1"}), 400, "seat")
    assert_error(post({"opponent": "alphazero"}), 400, "unknown agent")
    assert_error(post({"opponent": "mcts:seconds=100000"}), 400, "seconds")
    assert_error(post({"opponent": "mcts:threads=4"}), 400, "threads")
    assert_error(post({"opponent": "mcts:iterations=50000000"}), 400, "iterations")
    assert_error(post({"opponent": 7}), 400, "opponent")
    assert_error(post({"seed": -1}), 400, "seed")
    assert_error(post({"seed": 2 ** 64}), 400, "seed")
    assert_error(post({"centred_pawn": "sideways"}), 400, "centred_pawn")
    assert_error(post({"start_coins": [7]}), 400, "start_coins")
    assert_error(post({"start_coins": [7, 100]}), 400, "start_coins")
    assert_error(post({"first_game_wonders": "yes"}), 400, "first_game_wonders")
    assert_error(post({"colour": "red"}), 400, "unknown field 'colour'")
    assert_error(client.post("/api/games", content=b"[1, 2]",
                             headers={"content-type": "application/json"}), 400, "object")
    assert_error(client.post("/api/games", content=b"{oops",
                             headers={"content-type": "application/json"}), 400, "JSON")
    assert_error(client.post("/api/games", content=b"seat=1",
                             headers={"content-type": "application/x-www-form-urlencoded"}),
                 415, "application/json")
    assert_error(client.post("/api/games", content=b"\xff\xfe",
                             headers={"content-type": "application/json"}), 400, "JSON")
    big = b'{"opponent": "' + b"x" * 2_100_000 + b'"}'
    assert_error(client.post("/api/games", content=big,
                             headers={"content-type": "application/json"}), 413, "too large")
    assert client.get("/api/meta").status_code == 200


def test_unknown_ids_methods_and_queries(client):
    for path in ("/api/games/nope", "/api/games/nope/record"):
        assert_error(client.get(path), 404, "no game")
    for path in ("/api/games/nope/move", "/api/games/nope/undo", "/api/games/nope/hint"):
        assert_error(client.post(path, json={"action": 1}), 404, "no game")
    assert_error(client.delete("/api/games/nope"), 404, "no game")
    assert_error(client.get("/api/replays/nope"), 404, "no replay")
    assert_error(client.get("/api/replays/nope/positions/0"), 404, "no replay")
    assert_error(client.put("/api/games"), 405, "not allowed")
    assert_error(client.get("/api/games"), 405)
    g = new_game(client)
    for q in ({"wait": "soon", "version": 0}, {"wait": "-1", "version": 0},
              {"wait": "nan", "version": 0}, {"wait": "1000", "version": 0},
              {"version": "x", "wait": 1}):
        assert_error(client.get(f"/api/games/{g['id']}", params=q), 400, "query parameter")


def test_dns_rebinding_is_refused():
    app = create_app()
    with TestClient(app, base_url="http://evil.example") as c:
        r = c.get("/api/meta")
        assert r.status_code == 400


bodies = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seat", "opponent", "seed", "action", "move", "start_coins",
                         "centred_pawn", "first_game_wonders", "format", "moves", "x"]),
        inner, max_size=5),
    max_leaves=12)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=bodies, where=st.sampled_from(["games", "move", "replays"]))
def test_any_json_body_gets_an_answer_not_a_500(body, where):
    app = create_app(max_games=4)
    with TestClient(app, base_url=BASE, raise_server_exceptions=True) as c:
        if where == "games":
            if isinstance(body, dict):
                body["opponent"] = "random"
            r = c.post("/api/games", content=json.dumps(body),
                       headers={"content-type": "application/json"})
        elif where == "move":
            g = new_game(c)
            r = c.post(f"/api/games/{g['id']}/move", content=json.dumps(body),
                       headers={"content-type": "application/json"})
        else:
            r = c.post("/api/replays", content=json.dumps(body),
                       headers={"content-type": "application/json"})
        assert r.status_code < 500, r.text
        if r.status_code >= 400:
            assert r.json()["error"]


# ---------------------------------------------------------------- replays
def test_replay_viewer_endpoints():
    app = create_app()
    rec = record_game("greedy", "random", seed=9)
    with TestClient(app, base_url=BASE) as c:
        r = c.post("/api/replays", content=rec.dumps(),
                   headers={"content-type": "application/json"})
        assert r.status_code == 201, r.text
        s = r.json()
        assert s["n_moves"] == len(rec.moves) and s["result"] == rec.result
        assert [m["id"] for m in s["moves"]] == rec.moves
        assert c.get(f"/api/replays/{s['id']}").json()["n_moves"] == len(rec.moves)
        states = replay(rec, states=True)
        for k in (0, 1, len(rec.moves) // 2, len(rec.moves)):
            v = c.get(f"/api/replays/{s['id']}/positions/{k}").json()
            assert v["k"] == k and v["n_decisions"] == states[k].n_decisions
            assert [p["coins"] for p in v["players"]] == [states[k].coins(0), states[k].coins(1)]
            assert v["moves"] == []
        assert v["result"]["total"] == rec.result["total"]
        assert_error(c.get(f"/api/replays/{s['id']}/positions/{len(rec.moves) + 1}"), 404,
                     "positions 0 to")
        assert_error(c.get(f"/api/replays/{s['id']}/positions/-1"), 404)
        # tampered records are refused with the record module's reason
        d = json.loads(rec.dumps())
        d["moves"][3]["id"] = 1000
        assert_error(c.post("/api/replays", json=d), 400, "move 4", "does not match")
        d = json.loads(rec.dumps())
        d["result"]["total"] = [0, 0]
        assert_error(c.post("/api/replays", json=d), 400, "result")
        assert_error(c.post("/api/replays", json={"format": "chess"}), 400, "format")


def test_the_great_library_offer_is_shown_only_to_the_chooser():
    state = duelcore.new_game(2)
    agent = RandomAgent(2)
    while state.phase != "library":
        state.apply_action(agent.select_action(state))
    chooser = state.current_player()
    offer = state.to_dict()["library_offer"]
    assert offer
    assert board_view(state, viewer=chooser)["library_offer"] == offer
    assert board_view(state, viewer=1 - chooser)["library_offer"] == []
    assert board_view(state, viewer=1 - chooser)["moves"] == []


# ---------------------------------------------------------------- study
def test_study_report_and_plots(tmp_path):
    (tmp_path / "plots").mkdir()
    (tmp_path / "report.md").write_text("# My study\n\nP1 wins 56%.\n")
    (tmp_path / "report.html").write_text("<html><body><img src='plots/a.png'></body></html>")
    (tmp_path / "plots" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    (tmp_path / "secret.txt").write_text("no")
    app = create_app(study_dir=tmp_path)
    with TestClient(app, base_url=BASE) as c:
        info = c.get("/api/study").json()
        assert info["title"] == "My study" and info["plots"] == ["plots/a.png"] and info["html"]
        assert c.get("/study/report.html").text.startswith("<html>")
        assert c.get("/study/plots/a.png").headers["content-type"] == "image/png"
        assert c.get("/api/meta").json()["study"] is True
        for bad in ("secret.txt", "../README.md", "plots/../secret.txt", "plots/b.png"):
            assert_error(c.get(f"/study/{bad}"), 404)
    with TestClient(create_app(), base_url=BASE) as c:
        assert_error(c.get("/api/study"), 404, "--study")
    with pytest.raises(ValueError, match="no study report"):
        create_app(study_dir=tmp_path / "plots")


# ---------------------------------------------------------------- isolation and limits
def test_concurrent_games_are_isolated(client):
    results, errors = {}, []

    def player(seed):
        try:
            g = new_game(client, seat=1 + seed % 2, seed=seed)
            g = play_out(client, g, choose=lambda ms: ms[len(ms) // 2]["id"])
            results[seed] = (g["id"], g["result"])
        except Exception as e:              # reported below
            errors.append(e)

    threads = [threading.Thread(target=player, args=(s,)) for s in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len({gid for gid, _ in results.values()}) == 5
    for seed, (gid, result) in results.items():
        rec = loads(client.get(f"/api/games/{gid}/record").text)
        assert rec.seed == seed and replay(rec).result()["total"] == result["total"]


def test_game_limit_drops_the_least_recently_used_idle_game():
    app = create_app(max_games=2)
    with TestClient(app, base_url=BASE) as c:
        a = settle(c, new_game(c, seed=1))
        b = settle(c, new_game(c, seed=2))
        c.get(f"/api/games/{a['id']}")                 # a is now the most recently seen
        new_game(c, seed=3)
        assert c.get(f"/api/games/{a['id']}").status_code == 200
        assert_error(c.get(f"/api/games/{b['id']}"), 404, "no game")


def test_game_limit_refuses_when_every_game_is_thinking():
    app = create_app(max_games=1, threads=1)
    with TestClient(app, base_url=BASE) as c:
        g = new_game(c, seat=2, seed=1, opponent="mcts:seconds=1")
        assert g["thinking"]
        assert_error(c.post("/api/games", json={"opponent": "random"}), 503, "try again")


def test_abandoning_a_game_stops_its_search_and_no_other():
    """DELETE sets the game's own stop token: its 30 s search ends at once (the search thread
    is free again), while another game's search runs its whole budget; the core's
    process-wide stop flag is not touched."""
    app = create_app(threads=2, max_games=4)
    mgr = app.state.games
    with TestClient(app, base_url=BASE) as c:
        a = new_game(c, seat=2, seed=1, opponent=f"{STRONGEST}:seconds=30")
        t_b = time.monotonic()
        b = new_game(c, seat=2, seed=2, opponent=f"{STRONGEST}:seconds=3")
        ga, gb = mgr.games[a["id"]], mgr.games[b["id"]]
        wait_for(lambda: searching(ga) and searching(gb))
        token = ga.stop
        assert c.delete(f"/api/games/{a['id']}").status_code == 200
        assert token.is_set and not gb.stop.is_set
        took = wait_for(lambda: mgr.pool.pending == 1)
        assert took < 1.0, f"the abandoned game's search ran {took:.2f} s more"
        assert not duelcore.search.interrupted()
        assert_error(c.get(f"/api/games/{a['id']}"), 404, "no game")
        g = c.get(f"/api/games/{b['id']}").json()
        assert g["thinking"] is True                    # b's search goes on ...
        g = settle(c, g)
        assert time.monotonic() - t_b >= 3.0            # ... for its whole budget
        assert g["log"][0]["who"].startswith(STRONGEST) and g["log"][0]["shares"]["iterations"]


def test_abandoning_a_game_stops_its_hint():
    app = create_app(threads=2, hint_seconds=30)
    mgr = app.state.games
    with TestClient(app, base_url=BASE) as c:
        g = settle(c, new_game(c, seat=1, seed=6))
        answer = {}
        asking = threading.Thread(
            target=lambda: answer.update(r=c.post(f"/api/games/{g['id']}/hint")))
        asking.start()
        wait_for(lambda: mgr.pool.pending == 1)
        time.sleep(0.2)
        assert c.delete(f"/api/games/{g['id']}").status_code == 200
        took = wait_for(lambda: mgr.pool.pending == 0)
        assert took < 1.0, f"the abandoned game's hint ran {took:.2f} s more"
        asking.join(10)
        assert_error(answer["r"], 404, "abandoned")


def test_stopping_the_server_stops_its_searches_and_no_other():
    app = create_app(threads=2)
    mgr = app.state.games
    with TestClient(app, base_url=BASE) as c:
        games = [new_game(c, seat=2, seed=s, opponent=f"{STRONGEST}:seconds=30") for s in (1, 2)]
        wait_for(lambda: all(searching(mgr.games[g["id"]]) for g in games))
        t0 = time.monotonic()
    took = wait_for(lambda: mgr.pool.pending == 0) + (time.monotonic() - t0)
    assert took < 2.0, f"searches ran {took:.2f} s after the server stopped"
    assert not duelcore.search.interrupted()          # later searches in the process run
    s = duelcore.new_game(1)
    assert duelcore.search.mcts_search(s, iterations=200, seed=1)["iterations"] == 200


def test_guild_backs_are_drawn_where_the_core_says():
    """Age III: a face-down guild shows the guild back (R-CHANCE-2), other backs the Age's."""
    seen = 0
    for seed in range(12):
        state = duelcore.new_game(seed)
        agent = RandomAgent(seed)
        while (state.age < 3 or state.phase != "play") and not state.is_terminal():
            state.apply_action(agent.select_action(state))
        if state.is_terminal():
            continue
        layout = state.to_dict()["layout"]
        view = board_view(state)["layout"]
        for slot, entry in zip(view, layout):
            want = {"face_down_guild": "guild_back", "face_down": "back", None: "taken"}.get(
                entry, "up")
            assert slot["face"] == want, (seed, slot, entry)
            assert slot["card"] == (entry if want == "up" else None)
        seen += sum(e == "face_down_guild" for e in layout)
    if hasattr(duelcore.State, "guild_slots"):      # a core with public guild backs
        assert seen > 0


# ---------------------------------------------------------------- the command's errors
def test_serve_command_errors_are_one_line(tmp_path):
    import socket

    from click.testing import CliRunner

    from duelpy.cli.main import main

    def run(*args):
        r = CliRunner().invoke(main, ["serve", *args])
        assert r.exit_code != 0 and "Traceback" not in r.output, r.output
        lines = [ln for ln in r.stderr.strip().splitlines() if ln.startswith("Error: ")]
        assert len(lines) == 1, r.stderr
        return r.exit_code, lines[0]

    code, msg = run("--study", str(tmp_path / "nowhere"))
    assert code == 2 and "no such folder" in msg
    code, msg = run("--study", str(tmp_path))
    assert code == 2 and "no study report" in msg
    code, msg = run("--port", "70000")
    assert code == 2 and "--port" in msg
    code, msg = run("--host", "no-such-host.invalid")
    assert "unknown host" in msg
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        code, msg = run("--port", str(busy.getsockname()[1]))
        assert code == 1 and "cannot listen" in msg and "--port 0" in msg


@pytest.mark.parametrize("path", ["/api/games", "/api/replays"])
def test_a_deeply_nested_body_is_a_400_not_a_500(client, path):
    body = "[" * 100_000 + "]" * 100_000
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nested" in r.json()["error"]


def test_serve_refuses_nan_budgets():
    from click.testing import CliRunner
    from duelpy.cli.main import main

    for flag in ("--hint-seconds", "--max-seconds"):
        r = CliRunner().invoke(main, ["serve", flag, "nan"])
        assert r.exit_code == 2 and "not a number" in r.output
