"""The page's side of issue 32's bugs, each in a real headless Chromium: two tabs of one game,
hints and typed moves, replay titles and failed uploads, seeds, huge names, a new game over
an unfinished one, errors that stay, a server that stops, the opponent's name and thinking
clock, and a closed tab that stops its game's search."""
# ruff: noqa: F811  (the fixtures of test_web_e2e, imported to be shared)
from __future__ import annotations

import json
import signal
import time
import urllib.request

import pytest

from duelpy.duel.records import load, record_game
from web_helpers import running_server
from test_web_e2e import (DESKTOP, PHONE, act, browser, dataset, no_overflow, open_page,  # noqa: F401
                          page, pages, server, settle, start, wait_js)

sync_api = pytest.importorskip("playwright.sync_api")


def api(url, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data, {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=30))


def game_id(pg):
    return pg.evaluate("location.hash").split("=", 1)[1]


# ---------------------------------------------------------------- bug 2
def test_bug2_a_stale_tab_is_told_the_game_has_moved_on_and_reloads(pages, server):
    a = pages()
    start(a, "duel", seed=3, agent="random")
    settle(a)
    b = pages(url=server + "#game=" + game_id(a))
    b.wait_for_selector("body[data-view='game']", state="attached")
    settle(b)
    b.evaluate("S.polling++")                 # tab B stops following: a stale tab
    b.expected_errors.append("status of 409")
    act(a, lambda: a.locator("#game-board [data-move]").first.click())
    va = dataset(a, "version")
    assert dataset(b, "version") != va
    # B still shows the old draft: its move is refused, and B reloads the game
    b.locator("#game-board [data-move]").first.click()
    b.locator("#flash", has_text="the game has moved on").wait_for()
    b.wait_for_selector(f"body[data-version='{va}']", state="attached")
    assert len(a.evaluate("S.game.log")) == len(b.evaluate("S.game.log"))


def test_two_tabs_follow_each_other(pages, server):
    a = pages()
    start(a, "duel", seed=6, agent="random")
    settle(a)
    b = pages(url=server + "#game=" + game_id(a))
    settle(b)
    act(a, lambda: a.locator("#game-board [data-move]").first.click())
    b.wait_for_selector(f"body[data-version='{dataset(a, 'version')}']", state="attached")


# ---------------------------------------------------------------- bug 3
def test_bug3_a_typed_move_clears_the_hint_and_gives_the_keys_back(page):
    pg = page
    start(pg, "duel", seed=8, agent="random")
    settle(pg)
    pg.keyboard.press("h")
    pg.locator("#hint h3", has_text="Hint:").wait_for(timeout=30_000)
    name = pg.inner_text("#hint h3").split("Hint: ", 1)[1]
    pg.keyboard.press("/")
    pg.keyboard.type(name)
    act(pg, lambda: pg.keyboard.press("Enter"))
    assert pg.locator("#hint").is_hidden()
    assert pg.evaluate("document.activeElement.id") != "move-text"
    assert pg.input_value("#move-text") == ""
    act(pg, lambda: pg.keyboard.press("1"))            # the keys work on the board again


# ---------------------------------------------------------------- bug 4, 6 and 11
def test_bug4_a_replay_title_escapes_names_once(page, tmp_path):
    d = json.loads(record_game("random", "random", seed=2).dumps())
    d["players"] = ["Tom & Jerry", "<b>Bob</b>"]
    f = tmp_path / "r.json"
    f.write_text(json.dumps(d))
    page.click("#nav-replay")
    page.set_input_files("#replay-file", str(f))
    page.wait_for_selector("#replay-main:not([hidden])")
    title = page.inner_text("#r-title")
    assert "Tom & Jerry vs <b>Bob</b>" in title and "&amp;" not in title


@pytest.mark.parametrize("size", [DESKTOP, PHONE])
def test_bug6_a_huge_name_is_refused_and_a_long_one_does_not_widen_the_page(pages, tmp_path,
                                                                           size):
    pg = pages(size)
    pg.expected_errors.append("status of 400")
    d = json.loads(record_game("random", "random", seed=2).dumps())
    d["players"][0] = "x" * 1_000_000
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(d))
    pg.click("#nav-replay")
    pg.set_input_files("#replay-file", str(f))
    pg.locator("#replay-error", has_text="at most 100").wait_for()
    d["players"][0] = "W" * 100
    f.write_text(json.dumps(d))
    pg.set_input_files("#replay-file", str(f))
    pg.wait_for_selector("#replay-main:not([hidden])")
    pg.keyboard.press("End")
    pg.locator("#replay-result .result-score").wait_for()
    no_overflow(pg)


def test_bug11_a_failed_upload_keeps_the_previous_replay_and_says_so(page, tmp_path):
    pg = page
    pg.expected_errors.append("status of 400")
    good = tmp_path / "good.json"
    record_game("greedy", "random", seed=5).save(good)
    pg.click("#nav-replay")
    pg.set_input_files("#replay-file", str(good))
    pg.wait_for_selector("#replay-main:not([hidden])")
    title = pg.inner_text("#r-title")
    junk = tmp_path / "junk.json"
    junk.write_text("this is not JSON")
    pg.set_input_files("#replay-file", str(junk))
    pg.locator("#replay-error", has_text="still showing the previous record").wait_for()
    assert pg.locator("#replay-main").is_visible() and pg.inner_text("#r-title") == title
    d = json.loads(good.read_text())
    d["result"]["total"] = [99, 0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    pg.set_input_files("#replay-file", str(bad))
    pg.locator("#replay-error", has_text="result").wait_for()
    assert "still showing the previous record" in pg.inner_text("#replay-error")
    assert pg.locator("#replay-main").is_visible() and pg.inner_text("#r-title") == title


# ---------------------------------------------------------------- bug 5
def test_bug5_seeds_keep_every_digit(page, tmp_path):
    pg = page
    start(pg, "duel", seed="9007199254740993", agent="random")
    with pg.expect_download() as dl:
        pg.click("#btn-record")
    dl.value.save_as(tmp_path / "g.json")
    assert load(tmp_path / "g.json").seed == 9007199254740993
    start(pg, "duel", seed=str(2 ** 64 - 1), agent="random")
    wait_js(pg, f"S.game && S.game.seed === '{2 ** 64 - 1}'")
    pg.click("#nav-new")
    pg.fill("#seed", "100000000000000000000000")
    pg.click("#start")
    flash = pg.locator("#flash", has_text="too large")
    flash.wait_for()
    assert "e+" not in flash.inner_text()


# ---------------------------------------------------------------- bug 8
def test_bug8_a_new_game_asks_first_and_the_other_tab_follows(pages, server):
    a = pages()
    start(a, "duel", seed=1, agent="random")
    settle(a)
    old = game_id(a)
    b = pages(url=server + "#game=" + old)
    settle(b)
    a.click("#nav-new")
    a.click("#start")
    a.locator("#confirm-new").wait_for()
    assert "not finished" in a.inner_text("#confirm-text")
    a.click("#confirm-keep")                            # keep it: nothing happens
    assert game_id(a) == old and a.locator("#confirm-new").is_hidden()
    a.click("#nav-new")
    a.click("#start")
    a.click("#confirm-abandon")
    wait_js(a, f"location.hash !== '#game={old}'")
    new = game_id(a)
    b.expected_errors.append("status of 404")
    wait_js(b, f"location.hash === '#game={new}'", 30_000)
    b.locator("#flash", has_text="another tab").wait_for()


# ---------------------------------------------------------------- bug 10
def test_bug10_a_typed_move_error_goes_after_a_move_by_click(page):
    pg = page
    pg.expected_errors.append("status of 400")
    start(pg, "duel", seed=4, agent="random")
    settle(pg)
    pg.fill("#move-text", "build the moon")
    pg.press("#move-text", "Enter")
    pg.locator("#move-error", has_text="moon").wait_for()
    act(pg, lambda: pg.locator("#game-board [data-move]").first.click())
    assert pg.inner_text("#move-error") == ""


# ---------------------------------------------------------------- bug 12
def test_bug12_the_page_says_when_the_server_stops(browser):
    with running_server() as (proc, url):
        pg = open_page(browser, url)
        try:
            start(pg, "duel", seed=1, agent="mcts", seconds=30, seat=2)
            pg.wait_for_selector("#thinking:not([hidden])")
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=20)
            pg.wait_for_selector("#offline:not([hidden])", timeout=15_000)
            assert pg.locator("#thinking").is_hidden()
            assert "does not answer" in pg.inner_text("#status")
        finally:
            pg.context.close()


# ---------------------------------------------------------------- bug 13
def test_bug13_the_opponent_is_named_and_its_thinking_is_timed(page):
    pg = page
    start(pg, "duel", seed=2, agent="plan", seconds=0.6, seat=2)
    pg.locator("#thinking-text", has_text="Strong (plan, 0.6 s) is thinking").wait_for()
    assert " s of 0.6 s" in pg.inner_text("#thinking-text")
    assert "Strong (plan, 0.6 s)" in pg.inner_text("#status-bar")
    settle(pg)
    # its second move: the iterations so far, from the rate of its first search
    act_start = dataset(pg, "version")
    pg.locator("#game-board [data-move]").first.click()
    pg.wait_for_selector(f"body:not([data-version='{act_start}'])", state="attached")
    if dataset(pg, "thinking") == "1":
        pg.locator("#thinking-text", has_text="iterations").wait_for(timeout=5000)
    settle(pg)
    assert "MCTS" in pg.locator("#log li.ai .why").first.inner_text()


# ---------------------------------------------------------------- bug 7
def test_bug7_closing_the_tab_stops_its_games_search_within_a_second(browser):
    with running_server() as (proc, url):
        pg = open_page(browser, url)
        start(pg, "duel", seed=3, agent="plan", seconds=15, seat=2)
        pg.wait_for_selector("#thinking:not([hidden])")
        time.sleep(0.5)
        assert api(url, "api/server")["searches"] == 1
        t0 = time.monotonic()
        pg.context.close()
        while api(url, "api/server")["searches"] and time.monotonic() - t0 < 10:
            time.sleep(0.05)
        took = time.monotonic() - t0
        assert api(url, "api/server")["searches"] == 0
        assert took < 1.0, f"the search ran {took:.2f} s after the tab was closed"


# ---------------------------------------------------------------- the opponent's move shown
def test_the_opponents_move_is_highlighted_and_told(page):
    pg = page
    start(pg, "duel", seed=21, agent="random")
    settle(pg)
    act(pg, lambda: pg.locator("#game-board [data-move]").first.click())
    assert pg.locator("#just").is_visible()
    assert "P2 (Beginner (random))" in pg.inner_text("#just")
    assert pg.locator(".just-moved").count() >= 1
    for _ in range(2):
        act(pg, lambda: pg.locator("#game-board [data-move]").first.click())
    assert "automatically" in pg.inner_text("#log")            # the last pick of a round
