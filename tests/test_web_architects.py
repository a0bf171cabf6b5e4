"""``duel serve``'s API for 7 Wonders Architects: a new game (2..7 players, seat, wonder, A-OPT
options, agents), whole games played through the API to the end and checked against the
core's replay of the record, bad requests (400 naming what was wrong, the game unchanged),
undo, replays, and A-INFO: the JSON the page receives never holds the central top for a seat
that has not looked at it, nor another seat's Halicarnassus window."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from duelcore.architects import engine as core  # noqa: E402
from duelpy.architects import new_game, play_game, record_of, replay  # noqa: E402
from duelpy.web.app import create_app  # noqa: E402
from duelpy.web.architects import arch_view, seat_names  # noqa: E402

BASE = "http://127.0.0.1"


@pytest.fixture()
def app():
    return create_app(max_games=8, threads=1)


@pytest.fixture()
def client(app):
    with TestClient(app, base_url=BASE) as c:
        yield c


def new(c, **body):
    body = {"game": "architects", "opponent": "random", **body}
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def assert_error(r, status, *words):
    assert r.status_code == status, (r.status_code, r.text)
    msg = r.json()["error"]
    assert isinstance(msg, str) and msg and "\n" not in msg
    for w in words:
        assert w.lower() in msg.lower(), (w, msg)
    return msg


def wait_turn(c, g):
    """The view once it is the person's decision or the game is over."""
    for _ in range(2000):
        if g["result"] or (g["decisions"] and not g["thinking"]):
            return g
        g = c.get(f"/api/games/{g['id']}", params={"version": g["version"], "wait": 5}).json()
    raise AssertionError("the AI seats never finished")


def play_out(c, g, each=None, pick=lambda ds, k: ds[k % len(ds)]):
    """Play the person's decisions (legal ones, from the view) to the end of the game;
    ``each(view)`` is called at every decision of the person."""
    k = 0
    g = wait_turn(c, g)
    while not g["result"]:
        assert k < 500, "the game does not end"
        if each:
            each(g)
        d = pick(g["decisions"], k)
        r = c.post(f"/api/games/{g['id']}/move", json={"action": d["id"], "version": g["version"]})
        assert r.status_code == 200, r.text
        g = wait_turn(c, r.json())
        k += 1
    return g


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("players,seat,opponent", [(2, 1, "random"), (3, 2, "greedy"),
                                                   (5, 5, "random"), (7, 3, "greedy")])
def test_a_whole_game_through_the_api_matches_the_core(client, players, seat, opponent):
    g = new(client, players=players, seat=seat, seed=11, opponent=opponent)
    assert g["game"] == "architects" and g["players"] == players and g["you"] == seat - 1
    assert len(g["seats"]) == players and g["seats"][seat - 1]["you"]
    assert all(len(s["stages"]) == 5 for s in g["seats"])
    g = play_out(client, g)
    rec = json.loads(client.get(f"/api/games/{g['id']}/record").text)
    final = replay(rec)                                    # every move and the result checked
    assert [s["total"] for s in g["result"]["scores"]] == [s["total"] for s in final.scores()]
    assert g["result"]["scores"] == final.scores()         # VP by category (A-END-3)
    assert g["result"]["winners"] == final.winners()
    assert len(g["log"]) == len(rec["moves"]) == g["n_moves"]
    assert [e["text"] for e in g["log"]] == [m[2] for m in rec["moves"]]
    assert rec["agents"][seat - 1] == "you"
    assert g["can_undo"] is False and g["decisions"] == []


def test_moves_by_name_and_the_rule_options(client):
    g = new(client, players=3, seed=5, wonder="the colossus of rhodes", free_order=True,
            wonder_power_optional=True, economy_forces_build=True)
    assert g["seats"][0]["wonder"] == "Rhodes"
    assert g["options"] == {"free_order": True, "wonder_power_optional": True}
    names = [d["text"] for d in g["decisions"]]
    assert names == ["take left", "take right", "take central"]
    r = client.post(f"/api/games/{g['id']}/move", json={"move": "  TAKE   Central "})
    assert r.status_code == 200, r.text
    assert r.json()["log"][0]["text"] == "take central"
    rec = json.loads(client.get(f"/api/games/{g['id']}/record").text)
    assert rec["setup"]["free_order"] is True and rec["setup"]["wonders"][0] == "Rhodes"


# ---------------------------------------------------------------- bad requests
def test_bad_requests_are_400s_naming_what_was_wrong_and_change_nothing(client):
    post = lambda body: client.post("/api/games", json={"game": "architects", **body})  # noqa: E731
    assert_error(post({"players": 8}), 400, "players", "2 to 7")
    assert_error(post({"players": 1}), 400, "players")
    assert_error(post({"players": "3"}), 400, "players")
    assert_error(post({"players": 3, "seat": 4}), 400, "seat")
    assert_error(post({"opponent": "alphazero"}), 400, "opponent", "alphazero")
    assert_error(post({"opponent": "plan"}), 400, "opponent", "plan")
    assert_error(post({"opponent": "mcts:99999"}), 400, "iterations")
    assert_error(post({"free_order": "yes"}), 400, "free_order")
    assert_error(post({"sides": "A"}), 400, "unknown field", "sides")
    assert_error(post({"wonder": "Gizah"}), 400, "wonder", "Giza")
    assert_error(post({"seed": "-3"}), 400, "seed")
    g = new(client, players=3, seed=2)
    gid, v = g["id"], g["version"]
    move = lambda body: client.post(f"/api/games/{gid}/move", json=body)  # noqa: E731
    assert_error(move({"action": 3}), 400, "not legal", "take left")     # decline: no pick
    assert_error(move({"action": 10 ** 7}), 400, "action")
    assert_error(move({"action": "take left"}), 400, "action")
    assert_error(move({"move": "take the cat"}), 400, "take the cat", "legal")
    assert_error(move({"move": ""}), 400, "move")
    assert_error(move({"move": "take left", "action": 0}), 400, "either")
    assert_error(move({"move": "take left", "seat": 0}), 400, "unknown field")
    assert_error(move({"move": "take left", "version": v + 5}), 409, "moved on")
    after = client.get(f"/api/games/{gid}").json()
    assert after["version"] == v and after["n_moves"] == 0 and after["log"] == []
    assert after["decisions"] == g["decisions"]
    assert_error(client.post(f"/api/games/{gid}/hint"), 400, "Duel")


def test_a_move_when_it_is_not_your_decision_is_a_409(client):
    g = new(client, players=4, seat=4, seed=3, opponent="mcts:3000")   # the AI begins
    r = client.post(f"/api/games/{g['id']}/move", json={"move": "take left"})
    if not r.json().get("decisions"):                  # the AI seats may have finished
        assert_error(r, 409, "not your decision")
    client.delete(f"/api/games/{g['id']}")


def test_there_is_no_undo_it_would_show_hidden_cards(app, client):
    """Each take turns up a hidden card (the next top; the central card): going back would let
    the person see what their seat may not (A-INFO), so an Architects game has no undo."""
    g = wait_turn(client, new(client, players=3, seed=4))
    g = wait_turn(client, client.post(f"/api/games/{g['id']}/move",
                                      json={"move": "take left"}).json())
    assert g["log"][0]["seat"] == 0 and len(g["log"]) >= 3 and g["can_undo"] is False
    assert_error(client.post(f"/api/games/{g['id']}/undo"), 409, "no undo", "A-INFO")
    assert client.get(f"/api/games/{g['id']}").json()["n_moves"] == g["n_moves"]


# ---------------------------------------------------------------- replays
def test_records_replay_in_the_viewer(client):
    st, moves = play_game(4, ["greedy"] * 4, seed=3)
    rec = record_of(4, 3, moves, agents=["greedy"] * 4, state=st)
    s = client.post("/api/replays", json=rec)
    assert s.status_code == 201, s.text
    s = s.json()
    assert s["game"] == "architects" and s["n_moves"] == len(moves)
    assert s["moves"][0]["name"] == rec["moves"][0][2]
    end = client.get(f"/api/replays/{s['id']}/positions/{len(moves)}").json()
    assert end["result"]["scores"] == st.scores() and end["result"]["winners"] == st.winners()
    mid = client.get(f"/api/replays/{s['id']}/positions/5").json()
    assert mid["last"].endswith(rec["moves"][4][2]) and mid["decisions"] == []
    assert_error(client.get(f"/api/replays/{s['id']}/positions/{len(moves) + 1}"), 404, "positions")
    for k in ("-1", "abc", "1.5", "+3", "%20-1"):      # not a number: a 404, never a 500
        assert_error(client.get(f"/api/replays/{s['id']}/positions/{k}"), 404,
                     f"positions are numbered 0 to {len(moves)}")
    bad = dict(rec, result={"winners": [0], "totals": [99, 0, 0, 0]})
    assert_error(client.post("/api/replays", json=bad), 400, "result")
    bad = dict(rec, moves=rec["moves"][:3] + [[rec["moves"][3][0], 999, "take nothing"]])
    assert_error(client.post("/api/replays", json=bad), 400, "move 4")
    assert_error(client.post("/api/replays", json=dict(rec, players=9)), 400, "players")


def test_the_page_lists_architects(client):
    meta = client.get("/api/meta").json()
    g = next(x for x in meta["games"] if x["name"] == "architects")
    assert g["players"] == [2, 3, 4, 5, 6, 7] and client.get(g["script"]).status_code == 200
    assert set(g["wonders"]) == set(core.WONDERS)
    assert [s["identical"] for s in g["wonders"]["Giza"]] == [False, True, False, True, False]
    assert {o["name"] for o in g["rule_options"]} == {
        "free_order", "economy_forces_build", "engineering_once_per_turn",
        "coins_only_when_needed", "wonder_power_optional"}
    assert g["vp_names"]["cat"] and list(g["vp_names"])[-1] == "total"


# ---------------------------------------------------------------- the sheet's texts
RULES_DIGEST = "/work/shared/rules/RULES-ARCH.md"


def test_every_kind_token_power_and_deck_has_its_text_in_the_meta(client):
    """What a tap shows in the page's sheet comes with the game's entry of /api/meta: a text
    and the rule ids it says for every card kind (A-CARD), progress token (A-TOK), wonder
    power (A-WON, with its power stages) and deck (A-TURN-3; the cat's look A-CAT-3), taken
    from the core's data tables, so that a kind, token or wonder added later without a
    text fails here instead of showing an empty sheet."""
    import os
    import re

    from duelcore.architects import data

    g = next(x for x in client.get("/api/meta").json()["games"] if x["name"] == "architects")
    t = g["texts"]
    cited = []

    def check(entry, where):
        assert isinstance(entry["text"], str) and len(entry["text"].strip()) > 20, where
        assert entry["rules"] and all(re.fullmatch(r"A-[A-Z]+-\d+", r) for r in entry["rules"])
        cited.extend(entry["rules"])

    assert list(t["kinds"]) == list(data.KINDS)
    for k, e in t["kinds"].items():
        check(e, k)
        assert e["colour"] == data.COLOURS[k]
        assert e["sets_off"] == [tok for tok, ks in data.EXTRA_CARD_TRIGGERS.items() if k in ks]
    assert list(t["tokens"]) == list(data.TOKENS)
    for k, e in t["tokens"].items():
        check(e, k)
    assert list(t["powers"]) == list(data.WONDERS)
    for w, e in t["powers"].items():
        check(e, w)
        assert e["title"].startswith("The ")
        assert e["stages"] == list(data.POWER_STAGES[w])
        assert e["stages"] == [s["stage"] for s in g["wonders"][w] if s["power"]]
    assert set(t["decks"]) == {"take", "left", "right", "central", "other"}
    for d, e in t["decks"].items():
        check(e, d)
    assert set(t["stages"]) == {"different", "identical", "build", "power"}
    for s, e in t["stages"].items():
        check(e, s)
    # a few facts of the texts that the data tables fix
    assert "3 VP" in t["kinds"]["blue3"]["text"] and "cat" in t["kinds"]["blue2cat"]["text"]
    assert "2 horns" in t["kinds"]["red2"]["text"] and "no horn" in t["kinds"]["red0"]["text"]
    assert f"{sum(data.STAGE_VP['Giza'])} in all" in t["powers"]["Giza"]["text"]
    assert "12 VP" in t["tokens"]["Culture"]["text"]
    assert "cat" in t["decks"]["central"]["text"] and "A-CAT-3" in t["decks"]["central"]["rules"]
    for tok, ks in data.EXTRA_CARD_TRIGGERS.items():       # extra-card tokens say so
        assert "may take the top card" in t["tokens"][tok]["text"], tok
    if os.path.exists(RULES_DIGEST):                       # the ids are the digest's
        with open(RULES_DIGEST, encoding="utf-8") as f:
            digest = f.read()
        assert not {r for r in cited if f"**{r}**" not in digest}


# ---------------------------------------------------------------- A-INFO
def _strip_live(raw: bytes) -> dict:
    v = json.loads(raw)
    for k in ("thinking_elapsed", "rate"):
        v.pop(k, None)
    return v


def test_the_page_never_receives_the_central_top_a_seat_has_not_looked_at(app, client):
    """At every decision of the person through a whole game (several games, 2 and 3 players),
    the JSON sent to the page is the same byte for byte when the true state is replaced by
    the core's ``hidden_variant`` for the person's seat (the central top drawn afresh from
    the central deck's make-up): the page's data cannot depend on a top the seat has not
    looked at.  When it has looked (as the cat's holder), the top is shown; and the games
    pass through positions where another seat looked at a top the person does not know."""
    seen = {"other_knows": 0, "differs": 0, "you_know": 0}

    def each(view):
        game = app.state.games.games[view["id"]]
        st, you = game.state, game.human
        raw = client.get(f"/api/games/{view['id']}").content
        sent = _strip_live(raw)
        if you in st.knowers():
            assert sent["central"]["top"] == st.central_top(you) is not None
            seen["you_know"] += 1
            return
        assert sent["central"]["top"] is None
        if st.knowers():
            seen["other_knows"] += 1
        real = st.clone()
        try:
            for k in range(4):
                game.state = core.hidden_variant(real, you, seed=k)
                if game.state.central_top() != real.central_top():
                    seen["differs"] += 1
                game._cache = (None, "")
                assert _strip_live(client.get(f"/api/games/{view['id']}").content) == sent
        finally:
            game.state = real
            game._cache = (None, "")

    for players, seed in ((2, 1), (2, 6), (3, 2)):
        play_out(client, new(client, players=players, seed=seed, opponent="greedy"), each=each,
                 pick=lambda ds, k: ds[-1] if len(ds) == 3 and k % 3 == 0 else ds[0])
    assert seen["other_knows"] and seen["differs"] and seen["you_know"], seen


def test_another_seats_halicarnassus_window_is_never_shown():
    """A-INFO-3: the cards a Halicarnassus search turned up are shown to the searching seat
    only, during its decision; the view for any other seat has no window."""
    found = 0
    for seed in range(60):
        st = new_game(3, seed, wonders=["Halicarnassus", None, None])
        while not st.is_terminal():
            if st.phase == "hali_keep":
                found += 1
                names = seat_names(3, 1, ["x", None, "x"])
                for viewer in range(3):
                    v = arch_view(st, human=viewer, names=names)
                    if viewer == st.active:
                        assert v["window"] == st.window() and v["window"]
                        assert all(d["text"].startswith("keep") for d in v["decisions"])
                    else:
                        assert v["window"] == {} and v["decisions"] == []
            st.apply_action(core.choose_action(st, "greedy", st.moves))
        if found >= 5:
            break
    assert found, "no Halicarnassus search in these games"


# ---------------------------------------------------------------- the AI's searches
def test_deleting_a_game_stops_its_mcts_seats_at_once():
    """The AI seats' searches run under the game's stop token: deleting the game (or its tab
    closing) ends the search under way within a second."""
    import time
    app = create_app(threads=1)
    mgr = app.state.games
    with TestClient(app, base_url=BASE) as c:
        g = new(c, players=7, seat=7, seed=2, opponent="mcts:5000")   # six AI seats first
        time.sleep(0.2)
        assert mgr.pool.pending == 1
        c.delete(f"/api/games/{g['id']}")
        t0 = time.monotonic()
        while mgr.pool.pending and time.monotonic() - t0 < 5:
            time.sleep(0.02)
        assert mgr.pool.pending == 0 and time.monotonic() - t0 < 1.0
        assert_error(c.get(f"/api/games/{g['id']}"), 404, "abandoned")


# ---------------------------------------------------------------- any body, never a 500
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_values = st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() \
    | st.text(max_size=12) | st.sampled_from(["take left", "Giza", "mcts:10", "greedy", "²"])
_bodies = st.dictionaries(st.sampled_from(
    ["players", "seat", "opponent", "seed", "wonder", "free_order", "wonder_power_optional",
     "action", "move", "version", "x"]), _values, max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=_bodies, where=st.sampled_from(["games", "move"]))
def test_any_body_gets_a_4xx_not_a_500(client, body, where):
    send = lambda path, b: client.post(path, content=json.dumps(b),  # noqa: E731
                                       headers={"content-type": "application/json"})
    if where == "games":
        r = send("/api/games", {"game": "architects", **body})
    else:
        g = new(client, players=2, seed=1)
        r = send(f"/api/games/{g['id']}/move", body)
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert r.json()["error"] and "\n" not in r.json()["error"]
    if r.status_code in (200, 201):
        client.delete(f"/api/games/{r.json()['id']}")
