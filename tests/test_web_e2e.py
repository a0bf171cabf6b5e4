"""``duel serve`` end to end in a real headless Chromium (the system's browser, driven by
playwright): a whole game played by clicks and keys against ``random``, the final score
checked against ``State.result()`` of the downloaded record, the record loaded in the replay
viewer, screenshots saved in the test's temporary folder, and Ctrl-C while the AI thinks."""
from __future__ import annotations

import json
import signal
import threading
import time
import urllib.request

import pytest

import duelcore
from duelpy.duel.records import load, loads, record_game, replay
from duelpy.web.view import price_text
from web_helpers import chromium_path, running_server

sync_api = pytest.importorskip("playwright.sync_api")


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


@pytest.fixture()
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1360, "height": 1000}, accept_downloads=True)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(server)
    pg.wait_for_selector("body[data-ready='1']")
    pg.expected_errors = []                      # texts of console errors a test expects
    yield pg
    ctx.close()
    unexpected = [e for e in errors if not any(x in e for x in pg.expected_errors)]
    assert not unexpected, unexpected            # no script error, no failed request


def dataset(pg, key):
    return pg.evaluate(f"document.body.dataset.{key}")


def settle(pg):
    """Wait until the game is the human's turn or over (the AI has replied)."""
    pg.wait_for_selector("body[data-version][data-thinking='0']", state="attached",
                         timeout=30_000)


def act(pg, do):
    """Run ``do()`` (a click or key) and wait for the game to change and the AI to reply."""
    v = dataset(pg, "version")
    do()
    pg.wait_for_selector(f"body:not([data-version='{v}'])", state="attached", timeout=30_000)
    settle(pg)


def test_whole_game_by_clicks_against_random(page, tmp_path):
    pg = page
    pg.check("input[name=agent][value=random]")
    pg.fill("#seed", "21")
    pg.click("#start")
    settle(pg)
    assert dataset(pg, "phase") == "draft"
    pg.screenshot(path=tmp_path / "draft.png", full_page=True)

    # hint (the strongest agent's visit shares), then a move and undo by keys
    pg.click("#btn-hint")
    pg.locator("#hint h3", has_text="Hint:").wait_for(timeout=30_000)
    assert pg.locator("#hint .hint-table tr").count() >= 1
    act(pg, lambda: pg.keyboard.press("1"))
    n_log = pg.locator("#log li:not(.age-sep)").count()
    assert n_log >= 1
    act(pg, lambda: pg.keyboard.press("u"))
    assert pg.locator("#log li:not(.age-sep)").count() == 0

    play_to_the_end(pg, tmp_path, "random", 21)


@pytest.mark.slow
def test_whole_game_against_the_strongest_agent(page, tmp_path):
    pg = page
    pg.check("input[name=agent][data-budget=seconds]")     # the strongest, with a budget
    pg.fill("#seconds", "0.2")
    pg.fill("#seed", "5")
    pg.click("#start")
    settle(pg)
    play_to_the_end(pg, tmp_path, "mcts:seconds=0.2", 5)
    assert "iterations" in pg.locator("#log li.ai .why").first.inner_text()


def play_to_the_end(pg, tmp_path, opponent, seed):
    """Play by clicks and keys until the game ends; check the score shown against the
    downloaded record's ``State.result()``; replay the record in the viewer."""
    moves = 0
    prices_checked = False
    while dataset(pg, "over") != "1":
        assert moves < 300, "the game does not end"
        if dataset(pg, "phase") == "play":
            if not prices_checked:
                check_prices(pg, tmp_path)
                prices_checked = True
            if moves % 3 == 0:                              # by keys: label, then B or D
                pg.keyboard.press("1")
                pg.wait_for_selector("#decision button.move")
                key = "b" if pg.locator("#decision button.move", has_text="Build").count() \
                    else "d"
                act(pg, lambda: pg.keyboard.press(key))
            else:                                           # by clicks: card, then a move
                pg.locator("#game-board .card.available").first.click()
                pg.wait_for_selector("#decision button.move")
                act(pg, lambda: pg.locator("#decision button.move").first.click())
        else:
            act(pg, lambda: pg.locator("#decision button.move").first.click())
        moves += 1

    pg.wait_for_selector("#game-result:not([hidden]) .result-score")
    pg.screenshot(path=tmp_path / "final.png", full_page=True)
    assert (tmp_path / "final.png").stat().st_size > 10_000
    shown = pg.locator("#game-result .result-score")
    p1 = int(shown.locator(".result-total-p1").inner_text())
    p2 = int(shown.locator(".result-total-p2").inner_text())
    winner = shown.get_attribute("data-winner")
    victory = shown.get_attribute("data-victory")

    with pg.expect_download() as dl:
        pg.click("#btn-record")
    path = tmp_path / "game.json"
    dl.value.save_as(path)
    rec = load(path)                                  # checks every move and the result
    result = replay(rec).result()
    assert [p1, p2] == result["total"]
    assert winner == ("none" if result["winner"] is None else str(result["winner"]))
    assert victory == result["victory"]
    assert rec.players[0] == "you" and rec.players[1].startswith(opponent.split(":")[0])
    assert rec.seed == seed
    assert pg.locator("#log li:not(.age-sep)").count() == len(rec.moves)

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
    pg.keyboard.press("Home")
    pg.locator("#r-where", has_text="the start").wait_for()
    pg.screenshot(path=tmp_path / "replay.png", full_page=True)


def check_prices(pg, tmp_path):
    """Your first move of Age I: every available card's price is on the page with its
    trading breakdown, as the core gives it (``State.trade_breakdown`` of the position,
    replayed from the game's record); selecting a card shows it again."""
    base = pg.url.split("#")[0]
    gid = pg.evaluate("location.hash").split("=", 1)[1]
    with urllib.request.urlopen(f"{base}api/games/{gid}/record", timeout=30) as r:
        state = replay(loads(r.read().decode("utf-8")))
    p = state.current_player()
    assert state.age == 1 and p == 0
    names = duelcore.data.CARD_NAMES
    want = {}
    for c in state.available_cards():
        b = state.trade_breakdown(p, c)
        assert not b["chain"]                       # no chain in Age I
        want[names[c]] = price_text(b)
    shown = pg.locator("#decision .prices .price-text")
    assert shown.count() == len(want)
    got = {shown.nth(i).get_attribute("data-card"): shown.nth(i).inner_text()
           for i in range(shown.count())}
    assert got == want
    traded = [n for n, text in want.items() if " × " in text]
    assert traded, want                             # Age I: someone has to buy a resource
    row = pg.locator("#decision .prices li", has_text=traded[0])
    assert row.is_visible()
    pg.screenshot(path=tmp_path / "prices.png", full_page=True)
    pg.locator(f"#game-board .card.available[data-card='{traded[0]}']").click()
    sel = pg.locator(f"#decision .price-text[data-card='{traded[0]}']")
    sel.wait_for()
    assert sel.inner_text() == want[traded[0]] and sel.is_visible()
    pg.keyboard.press("Escape")
    pg.locator("#decision .prices").wait_for()


def test_replay_viewer_refuses_a_tampered_record(page, tmp_path):
    rec = record_game("greedy", "greedy", seed=4)
    d = json.loads(rec.dumps())
    d["result"]["total"] = [99, 0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    page.expected_errors.append("status of 400")        # the refused upload
    page.click("#nav-replay")
    page.set_input_files("#replay-file", str(bad))
    page.locator("#replay-error", has_text="result").wait_for()
    assert "result" in page.inner_text("#replay-error")
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
        assert elapsed < 5, elapsed                 # not the 30 s of the search
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
