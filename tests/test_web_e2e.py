"""``duel serve`` end to end in a real headless Chromium (the system's browser, driven by
playwright): a whole game of each game of the registry (7 Wonders Duel, 7 Wonders, 7 Wonders
Architects) played by
tapping the board, at a desktop's 1280×860 and a phone's 390×844 (no element wider than the
phone's screen; every legal move reachable by tapping the board), the final score checked
against the downloaded record's replay, the record loaded in the replay viewer, and Ctrl-C
while the AI thinks.  Screenshots go to the test's temporary folder, or to ``$DUEL_SHOTS``
(``DUEL_SHOTS=docs pytest ...`` makes the screenshots of ``docs/``)."""
from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import duelcore
from duelpy.duel.records import load, loads, replay
from duelpy.architects.records import load_record as arch_load
from duelpy.seven.records import load_record as seven_load
from duelpy.web.view import price_text
from web_helpers import chromium_path, running_server

sync_api = pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def server():
    with running_server("--hint-seconds", "0.2") as (proc, url):
        yield url


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True)
        yield b
        b.close()


def open_page(browser, url, size=DESKTOP, touch=False):
    ctx = browser.new_context(viewport=size, accept_downloads=True, has_touch=touch,
                              is_mobile=touch, device_scale_factor=1)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']", state="attached")
    pg.expected_errors = []                      # texts of console errors a test expects
    pg.touch = touch
    return pg


@pytest.fixture()
def pages(browser, server):
    """A factory of pages (each in its own browser context); checked for script errors."""
    made = []

    def make(size=DESKTOP, touch=False, url=None):
        pg = open_page(browser, url or server, size, touch)
        made.append(pg)
        return pg

    yield make
    for pg in made:
        unexpected = [e for e in pg.errors if not any(x in e for x in pg.expected_errors)]
        pg.context.close()
        assert not unexpected, unexpected        # no script error, no failed request


@pytest.fixture()
def page(pages):
    return pages()


def shots_dir(tmp_path) -> Path:
    d = os.environ.get("DUEL_SHOTS")
    return Path(d) if d else tmp_path


def wait_js(pg, expr, timeout=30_000):
    """Wait until the JavaScript expression ``expr`` is true in the page (polled from here:
    the page's Content-Security-Policy forbids playwright's eval-based wait_for_function)."""
    end = time.monotonic() + timeout / 1000
    while not pg.evaluate(f"() => !!({expr})"):
        assert time.monotonic() < end, f"timed out waiting for {expr}"
        time.sleep(0.05)


def dataset(pg, key):
    return pg.evaluate(f"document.body.dataset.{key}")


def settle(pg, timeout=30_000):
    """Wait until it is the person's decision or the game is over."""
    pg.wait_for_selector("body[data-your-turn='1'][data-thinking='0'], body[data-over='1']",
                         state="attached", timeout=timeout)


def act(pg, do):
    """Run ``do()`` (a tap, click or key) and wait for the game to change and be the
    person's again (or over)."""
    v = dataset(pg, "version")
    do()
    pg.wait_for_selector(f"body:not([data-version='{v}'])", state="attached", timeout=30_000)
    settle(pg)


def tap(pg, locator):
    if pg.touch:
        locator.scroll_into_view_if_needed()
        locator.tap()
    else:
        locator.click()


def no_overflow(pg):
    """No element of the page sticks out of the viewport sideways, and the page does not
    scroll sideways."""
    got = pg.evaluate("""() => {
      const vw = document.documentElement.clientWidth, bad = [];
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (!r.width && !r.height) continue;
        if (r.right > vw + 1 || r.left < -1 || r.width > vw + 1)
          bad.push(`${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
      return {sw: document.documentElement.scrollWidth, vw, bad: bad.slice(0, 8)};
    }""")
    assert got["sw"] <= got["vw"] and not got["bad"], got


def game_json(pg):
    return pg.evaluate("JSON.parse(JSON.stringify(S.game))")


def start(pg, game="duel", seed=None, **opts):
    pg.click("#nav-new")
    pg.check(f"input[name=game][value={game}]")
    if game == "duel":
        pg.check(f"input[name=agent][value={opts.get('agent', 'random')}]")
        if "seconds" in opts:
            pg.fill("#seconds", str(opts["seconds"]))
        if "seat" in opts:
            pg.check(f"input[name=seat][value='{opts['seat']}']")
    else:
        pg.select_option("#s-players", str(opts.get("players", 4)))
        pg.check(f"input[name=s-agent][value={opts.get('agent', 'random')}]")
    if seed is not None:
        pg.fill("#seed", str(seed))
    v = pg.evaluate("S.game ? S.game.id : ''")
    pg.click("#start")
    if pg.locator("#confirm-new").is_visible():         # an unfinished game: abandon it
        pg.click("#confirm-abandon")
    wait_js(pg, f"S.game && S.game.id !== '{v}'")
    pg.wait_for_selector("body[data-view='game'][data-version]", state="attached")


# ---------------------------------------------------------------- reachability by taps
def duel_reachable(pg):
    """Every legal move of the position can be made by tapping the board: in the Age's play,
    an available card, then a move of its sheet; otherwise a tile on the board.  Each target
    is at least 44 px both ways."""
    g = game_json(pg)
    want = {m["id"] for m in g["moves"]}
    got = set()
    if g["phase"] == "play":
        cards = pg.locator("#game-board .card.available")
        for i in range(cards.count()):
            c = cards.nth(i)
            box = c.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
            tap(pg, c)
            pg.wait_for_selector("#decision [data-move]")
            for b in pg.locator("#decision [data-move]").all():
                bb = b.bounding_box()
                assert bb["height"] >= 44, bb
                assert bb["x"] >= 0 and bb["x"] + bb["width"] <= pg.viewport_size["width"] + 1
                got.add(int(b.get_attribute("data-move")))
            tap(pg, pg.locator("#cancel-sel"))
            pg.wait_for_selector("#decision .prices")
    else:
        for b in pg.locator("#game-board [data-move]").all():
            bb = b.bounding_box()
            assert bb["height"] >= 44 and bb["width"] >= 44, bb
            got.add(int(b.get_attribute("data-move")))
    assert got == want, (g["phase"], sorted(want - got), sorted(got - want))


def seven_reachable(pg):
    """Every legal action of every seat the person decides for is a button of the sheet of
    a card of the hand shown on the board (or a tile, for Halikarnassus)."""
    g = game_json(pg)
    want = {(d["seat"], m["id"]) for d in g["decisions"] for c in d["cards"] for m in c["moves"]}
    got = set()
    for t in pg.locator("#game-board .choice-tile[data-move]").all():
        got.add((int(t.get_attribute("data-seat")), int(t.get_attribute("data-move"))))
    cards = pg.locator("#game-board .hand-card.available")
    for i in range(cards.count()):
        c = cards.nth(i)
        box = c.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        tap(pg, c)
        pg.wait_for_selector("#decision [data-move]")
        for b in pg.locator("#decision [data-move]").all():
            assert b.bounding_box()["height"] >= 44
            got.add((int(b.get_attribute("data-seat")), int(b.get_attribute("data-move"))))
        tap(pg, pg.locator("#cancel-sel"))
        pg.wait_for_selector("body:not(.sheet-open)", state="attached")
    assert got == want, (sorted(want - got), sorted(got - want))


# ---------------------------------------------------------------- a whole game, by taps
def duel_step(pg, k):
    if dataset(pg, "phase") == "play":
        cards = pg.locator("#game-board .card.available")
        tap(pg, cards.nth(k % cards.count()))
        pg.wait_for_selector("#decision button.move")
        buttons = pg.locator("#decision button.move")
        act(pg, lambda: tap(pg, buttons.nth(k % buttons.count())))
    else:
        tiles = pg.locator("#game-board [data-move]")
        act(pg, lambda: tap(pg, tiles.nth(k % tiles.count())))


@pytest.mark.parametrize("size", [pytest.param("desktop", marks=pytest.mark.slow), "phone"])
def test_duel_a_whole_game_by_tapping_the_board(pages, tmp_path, size):
    phone = size == "phone"
    pg = pages(SIZES[size], touch=phone)
    seed = 21 if phone else 5
    start(pg, "duel", seed=seed, agent="random")
    settle(pg)
    assert dataset(pg, "phase") == "draft"
    assert "Beginner (random)" in pg.inner_text("#status-bar")
    labels = pg.locator(".zone-label").all_inner_texts()              # bug 14
    assert {"2 VP", "5 VP", "10 VP"} <= set(labels)
    moves, seen = 0, set()
    shots = shots_dir(tmp_path)
    while dataset(pg, "over") != "1":
        assert moves < 300, "the game does not end"
        phase = dataset(pg, "phase")
        if phone and (phase not in seen or moves % 9 == 0):
            no_overflow(pg)
            duel_reachable(pg)
            seen.add(phase)
        if phase == "play" and "prices" not in seen and not phone:
            check_prices(pg)
            seen.add("prices")
        if moves == 14:
            pg.evaluate("scrollTo(0, 0)")
            pg.screenshot(path=shots / f"serve-duel-{size}.png", full_page=not phone)
        duel_step(pg, moves)
        moves += 1
    pg.wait_for_selector("#game-result:not([hidden]) .result-score")
    if phone:
        no_overflow(pg)
    assert pg.locator("#btn-undo").is_disabled()                       # bug 9
    assert "Civilian buildings" in pg.inner_text("#game-result")       # bug 14
    pg.screenshot(path=tmp_path / "final.png", full_page=True)
    shown = pg.locator("#game-result .result-score")
    p1 = int(shown.locator(".result-total-p1").inner_text())
    p2 = int(shown.locator(".result-total-p2").inner_text())
    winner = shown.get_attribute("data-winner")

    with pg.expect_download() as dl:
        pg.click("#btn-record")
    path = tmp_path / "game.json"
    dl.value.save_as(path)
    rec = load(path)                                  # checks every move and the result
    result = replay(rec).result()
    assert [p1, p2] == result["total"]
    assert winner == ("none" if result["winner"] is None else str(result["winner"]))
    assert rec.players[0] == "you" and rec.seed == seed
    assert pg.locator("#log li:not(.age-sep)").count() == len(rec.moves)
    if phone:
        assert "phone" in size and set(seen) >= {"draft", "play"}
        return

    # the replay viewer: load the downloaded file, step with the keys
    pg.click("#nav-replay")
    pg.set_input_files("#replay-file", str(path))
    pg.wait_for_selector("#replay-main:not([hidden])")
    pg.locator("#r-where", has_text="the start").wait_for()
    pg.keyboard.press("ArrowRight")
    first = rec.to_dict()["moves"][0]["name"]
    pg.locator("#r-where", has_text=f"after move 1 of {len(rec.moves)}: {first}").wait_for()
    pg.keyboard.press("End")
    n = len(rec.moves)
    pg.locator("#r-where", has_text=f"after move {n} of {n}").wait_for()
    end = pg.locator("#replay-result .result-score")
    assert int(end.locator(".result-total-p1").inner_text()) == result["total"][0]
    assert int(end.locator(".result-total-p2").inner_text()) == result["total"][1]


def check_prices(pg):
    """Your first move of Age I: every available card's price is on the page with its
    trading breakdown, as the core gives it (``State.trade_breakdown`` of the position,
    replayed from the game's record); selecting a card shows it again."""
    base = pg.url.split("#")[0]
    gid = pg.evaluate("location.hash").split("=", 1)[1]
    with urllib.request.urlopen(f"{base}api/games/{gid}/record", timeout=30) as r:
        state = replay(loads(r.read().decode("utf-8")))
    p = state.current_player()
    names = duelcore.data.CARD_NAMES
    want = {names[c]: price_text(state.trade_breakdown(p, c)) for c in state.available_cards()}
    shown = pg.locator("#decision .prices .price-text")
    got = {shown.nth(i).get_attribute("data-card"): shown.nth(i).inner_text()
           for i in range(shown.count())}
    assert got == want
    name = next(iter(want))
    pg.locator(f"#game-board .card.available[data-card='{name}']").click()
    sel = pg.locator(f"#decision .price-text[data-card='{name}']")
    sel.wait_for()
    assert sel.inner_text() == want[name]
    pg.keyboard.press("Escape")
    pg.locator("#decision .prices").wait_for()


@pytest.mark.parametrize("size,players", [pytest.param("desktop", 4, marks=pytest.mark.slow),
                                          ("phone", 2),
                                          pytest.param("phone", 7, marks=pytest.mark.slow)])
def test_seven_a_whole_game_by_tapping_the_board(pages, tmp_path, size, players):
    phone = size == "phone"
    pg = pages(SIZES[size], touch=phone)
    start(pg, "seven", seed=9, players=players, agent="random")
    settle(pg)
    assert dataset(pg, "game") == "seven"
    shots = shots_dir(tmp_path)
    k = 0
    while dataset(pg, "over") != "1":
        assert k < 200, "the game does not end"
        if phone and k % 8 == 0:
            no_overflow(pg)
            seven_reachable(pg)
        if k == 9 and players in (4, 2):
            pg.evaluate("scrollTo(0, 0)")
            pg.screenshot(path=shots / f"serve-seven-{size}.png", full_page=not phone)
        cards = pg.locator("#game-board .hand-card.available, #game-board .choice-tile[data-move]")
        first = cards.nth(k % cards.count())
        if first.get_attribute("data-move") is not None:        # Halikarnassus: a tile
            act(pg, lambda: tap(pg, first))
        else:
            tap(pg, first)
            pg.wait_for_selector("#decision button.move")
            buttons = pg.locator("#decision button.move")
            act(pg, lambda: tap(pg, buttons.nth(k % buttons.count())))
        k += 1
    pg.wait_for_selector("#game-result:not([hidden]) .result-score")
    if phone:
        no_overflow(pg)
    assert pg.locator("#btn-undo").is_disabled()
    assert "Civilian structures" in pg.inner_text("#game-result")
    with pg.expect_download() as dl:
        pg.click("#btn-record")
    path = tmp_path / "seven.json"
    dl.value.save_as(path)
    rec = seven_load(path)                            # every move and the result checked
    totals = [int(x) for x in pg.locator("#game-result .result-total").all_inner_texts()]
    assert totals[:players] == rec["result"]["totals"][:players]
    assert pg.locator("#log li.turn .turn-head", has_text="Turn").count() == 18
    if not phone:
        pg.click("#nav-replay")
        pg.set_input_files("#replay-file", str(path))
        pg.wait_for_selector("#replay-main:not([hidden])")
        pg.keyboard.press("End")
        n = len(rec["moves"])
        pg.locator("#r-where", has_text=f"after move {n} of {n}").wait_for()
        shown = [int(x) for x in pg.locator("#replay-result .result-total").all_inner_texts()]
        assert shown[:players] == rec["result"]["totals"]


def arch_reachable(pg):
    """Every legal decision of the person is a button on the board, at least 44 px high and
    inside the screen, named as the core names it."""
    g = game_json(pg)
    want = {m["id"]: m["text"] for m in g["decisions"]}
    got = {}
    for b in pg.locator("#game-board [data-move]").all():
        bb = b.bounding_box()
        assert bb["height"] >= 44 and bb["width"] >= 44, bb
        assert bb["x"] >= 0 and bb["x"] + bb["width"] <= pg.viewport_size["width"] + 1
        got[int(b.get_attribute("data-move"))] = b.locator(".m-text").inner_text()
    assert got == want


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_architects_a_whole_game_by_tapping_the_board(pages, tmp_path, size):
    phone = size == "phone"
    pg = pages(SIZES[size], touch=phone)
    start(pg, "architects", seed=7, players=2, agent="random")
    settle(pg)
    assert dataset(pg, "game") == "architects"
    g = game_json(pg)
    assert g["central"]["top"] is None                # A-INFO: face down
    assert "Central deck" in pg.inner_text("#game-board")
    shots = shots_dir(tmp_path)
    k, phases = 0, set()
    while dataset(pg, "over") != "1":
        assert k < 300, "the game does not end"
        phase = dataset(pg, "phase")
        if phase not in phases or k % 10 == 0:
            if phone:
                no_overflow(pg)
            arch_reachable(pg)
            phases.add(phase)
        if k == 12:
            pg.evaluate("scrollTo(0, 0)")
            pg.screenshot(path=shots / f"serve-architects-{size}.png", full_page=not phone)
        buttons = pg.locator("#game-board button.move")
        act(pg, lambda: tap(pg, buttons.nth(k % buttons.count())))
        k += 1
    pg.wait_for_selector("#game-result:not([hidden]) .result-score")
    if phone:
        no_overflow(pg)
    assert pg.locator("#btn-undo").is_hidden()        # no undo in Architects (A-INFO)
    assert "take central" in pg.get_attribute("#move-text", "placeholder")
    assert pg.locator("#move-text").is_disabled()       # the game is over
    assert "Progress tokens" in pg.inner_text("#game-result")
    with pg.expect_download() as dl:
        pg.click("#btn-record")
    path = tmp_path / "architects.json"
    dl.value.save_as(path)
    rec = arch_load(path)                             # every move and the result checked
    totals = [int(x) for x in pg.locator("#game-result .result-total").all_inner_texts()]
    assert totals == rec["result"]["totals"]
    assert pg.locator("#log li").count() == len(rec["moves"])
    assert "main" in phases
    if not phone:
        pg.click("#nav-replay")
        pg.set_input_files("#replay-file", str(path))
        pg.wait_for_selector("#replay-main:not([hidden])")
        pg.keyboard.press("ArrowRight")
        first = rec["moves"][0][2]
        pg.locator("#r-where", has_text=f"after move 1 of {len(rec['moves'])}").wait_for()
        assert first in pg.inner_text("#r-where")
        pg.keyboard.press("End")
        n = len(rec["moves"])
        pg.locator("#r-where", has_text=f"after move {n} of {n}").wait_for()
        shown = [int(x) for x in pg.locator("#replay-result .result-total").all_inner_texts()]
        assert shown == rec["result"]["totals"]


def arch_sheet(pg, locator, *want):
    """Tap ``locator`` on the board: the sheet opens at the bottom of the phone's screen
    with each text of ``want``; close it with its button."""
    tap(pg, locator)
    pg.wait_for_selector("body.sheet-open #decision .ar-detail #cancel-sel")
    box = pg.locator("#decision").bounding_box()
    assert pg.evaluate("getComputedStyle(document.getElementById('decision')).position") == "fixed"
    assert abs(box["y"] + box["height"] - PHONE["height"]) <= 2, box    # a bottom sheet
    shown = " ".join(pg.inner_text("#decision").split())
    for text in want:
        assert " ".join(text.split()) in shown, (text, shown)
    no_overflow(pg)
    tap(pg, pg.locator("#cancel-sel"))
    pg.wait_for_selector("body:not(.sheet-open)", state="attached")
    assert not pg.locator("#decision .ar-detail").count()
    return shown


def test_architects_a_tap_shows_the_rule_text_in_a_sheet_on_a_phone(pages):
    """At a phone's size (390×844, touch), a tap on an Architects deck, card, progress token or
    wonder stage opens the bottom sheet with its rule text from the catalogue (A-TURN-3,
    A-CARD, A-TOK, A-WON), closed by its button or Esc; a decision button still plays its
    move on a tap (it is never taken for a tap on a card)."""
    pg = pages(PHONE, touch=True)
    start(pg, "architects", seed=7, players=2, agent="random")
    settle(pg)
    texts = pg.evaluate("JSON.parse(JSON.stringify(Shell.gmeta('architects').texts))")
    g = game_json(pg)
    you = next(s for s in g["seats"] if s["you"])

    # your left deck: what it is, what taking from it means, its top card
    top = g["decks"][you["left_deck"]]["top"]
    arch_sheet(pg, pg.locator("#game-board .ar-deck.yours").first, texts["decks"]["left"]["text"],
               texts["decks"]["take"]["text"], texts["kinds"][top]["text"])
    # the central deck: the cat's look at its top
    arch_sheet(pg, pg.locator("#game-board .ar-deck.central"), texts["decks"]["central"]["text"])
    # a progress token of the face-up row
    tok = pg.locator("#game-board .ar-table .ar-token[data-token]").first
    name = tok.get_attribute("data-token")
    arch_sheet(pg, tok, f"Progress token: {name}", texts["tokens"][name]["text"])
    # a stage of your wonder with its power (or Giza's none)
    w = you["wonder"]
    power = texts["powers"][w]
    k = next((i for i, s in enumerate(you["stages"]) if s["power"]), 0)
    stage = pg.locator(f"#game-board .you-city .ar-stage[data-seat='{you['seat']}'][data-stage='{k}']")
    arch_sheet(pg, stage, f"stage S{k + 1}", power["text"], texts["stages"]["build"]["text"])

    # a decision button plays its move on a tap, with or without a sheet seen before
    act(pg, lambda: tap(pg, pg.locator("#game-board button.ar-move").first))
    assert game_json(pg)["log"][0]["who"] == "you"
    # a card of your tableau (the card you just took)
    card = pg.locator("#game-board .you-city .ar-tableau [data-kind]").first
    kind = card.get_attribute("data-kind")
    arch_sheet(pg, card, texts["kinds"][kind]["text"], ", ".join(texts["kinds"][kind]["rules"]))
    # the sheet leaves the decision buttons in sight, even under the banner of the AI's move
    tap(pg, pg.locator("#game-board .you-city .ar-stage[data-stage]").first)
    pg.wait_for_selector("body.sheet-open #decision .ar-detail")
    pg.evaluate("window.scrollTo(0, 0)")
    sheet_top = pg.locator("#decision").bounding_box()["y"]
    moves = pg.locator("#game-board button.ar-move")
    assert moves.count()
    for i in range(moves.count()):
        box = moves.nth(i).bounding_box()
        assert box["y"] + box["height"] <= sheet_top, (i, box, sheet_top)
    tap(pg, pg.locator("#cancel-sel"))
    pg.wait_for_selector("body:not(.sheet-open)", state="attached")
    # touch targets of 44 px; the opponent's seat has the whole width (one column)
    for sel in ("#game-board .ar-table .ar-token[data-token]", "#game-board .ar-tableau [data-kind]",
                "#game-board .ar-stage[data-stage]"):
        box = pg.locator(sel).first.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (sel, box)
    board = pg.locator("#game-board").bounding_box()
    other = pg.locator("#game-board .cities .ar-seat").first.bounding_box()
    assert other["width"] >= 0.9 * board["width"], (other, board)
    # Esc closes the sheet too; an open sheet stays open while the game moves on (keepSel)
    tap(pg, card)
    pg.wait_for_selector("body.sheet-open")
    assert pg.evaluate(f"S.views.architects.keepSel(S.game, 'info:kind:{kind}')") is True
    pg.keyboard.press("Escape")
    pg.wait_for_selector("body:not(.sheet-open)", state="attached")
    n = game_json(pg)["n_moves"]
    act(pg, lambda: tap(pg, pg.locator("#game-board button.ar-move").first))
    assert game_json(pg)["n_moves"] > n


@pytest.mark.slow
def test_whole_game_against_the_strongest_agent(page, tmp_path):
    pg = page
    start(pg, "duel", seed=5, agent="plan", seconds=0.2)
    settle(pg)
    k = 0
    while dataset(pg, "over") != "1":
        duel_step(pg, k)
        k += 1
    assert "iterations" in pg.locator("#log li.ai .why").first.inner_text()


def test_replay_viewer_refuses_a_tampered_record(page, tmp_path):
    from duelpy.duel.records import record_game
    rec = record_game("greedy", "greedy", seed=4)
    d = json.loads(rec.dumps())
    d["result"]["total"] = [99, 0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    page.expected_errors.append("status of 400")        # the refused upload
    page.click("#nav-replay")
    page.set_input_files("#replay-file", str(bad))
    page.locator("#replay-error", has_text="result").wait_for()
    assert page.locator("#replay-main").is_hidden()
    good = tmp_path / "good.json"
    rec.save(good)
    page.set_input_files("#replay-file", str(good))
    page.wait_for_selector("#replay-main:not([hidden])")
    assert page.inner_text("#replay-error") == ""


def test_ctrl_c_stops_the_server_while_the_ai_thinks():
    with running_server() as (proc, url):
        body = json.dumps({"seat": 2, "opponent": "mcts:seconds=30"}).encode()
        req = urllib.request.Request(url + "api/games", body,
                                     {"Content-Type": "application/json"})
        game = json.load(urllib.request.urlopen(req, timeout=30))
        assert game["thinking"] is True

        def long_poll():                            # a page waiting for the AI's move
            try:
                urllib.request.urlopen(f"{url}api/games/{game['id']}?version="
                                       f"{game['version']}&wait=30", timeout=40).read()
            except Exception:
                pass

        poller = threading.Thread(target=long_poll, daemon=True)
        poller.start()
        time.sleep(0.5)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        elapsed = time.monotonic() - t0
        print(f"stopped {elapsed:.2f} s after Ctrl-C")
        assert elapsed < 1.0, elapsed               # not the 30 s of the search
        assert proc.returncode == 0
        assert "stopped" in proc.stdout.read()
        assert "Traceback" not in proc.stderr.read()


def test_ctrl_c_stops_the_server_when_its_output_is_no_longer_read():
    """A server whose output pipe was closed (the program that started it is gone) still stops
    cleanly on Ctrl-C, instead of failing on its last message."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "duelpy.cli", "serve", "--port", "0",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        url = proc.stdout.readline().split()[2]
        assert url.startswith("http://"), url
        urllib.request.urlopen(url + "api/meta", timeout=30).read()     # it is serving
        proc.stdout.close()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        assert proc.returncode == 0, proc.stderr.read()
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
