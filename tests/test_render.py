"""Drawing a position (duelpy.duel.render): the layout as its pyramid with hidden cards and costs
for the player to move, cities by colour, wonders, coins, the military track, tokens, science,
whose turn and the pending decision, the discard pile; plain text has no escape codes."""
from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import duelcore
from play_helpers import first_position as play_until
from duelcore import data
from duelpy.duel.render import render, render_text, slot_positions

WIDE = 220          # wide enough that no card name is shortened


def layout_lines(text):
    """The lines of the layout panel (between its title and its bottom border)."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "layout" in line and line.startswith("╭"))
    bottom = next(i for i in range(top + 1, len(lines)) if lines[i].startswith("╰"))
    return lines[top + 1:bottom]


# ---------------------------------------------------------------- geometry
@pytest.mark.parametrize("age", [1, 2, 3])
def test_slot_positions_follow_the_covering(age):
    lay = data.LAYOUTS[age - 1]
    x = slot_positions(age)
    assert len(x) == sum(lay.rows) == 20
    start = 0
    for n in lay.rows:
        row = x[start:start + n]
        assert row == sorted(row) and len(set(row)) == n          # left to right, no overlap
        start += n
    for s, covers in enumerate(lay.covered_by):
        for c in covers:
            assert abs(x[s] - x[c]) == 0.5, (age, s, c)          # half a card apart
        if len(covers) == 2:
            assert x[s] == (x[covers[0]] + x[covers[1]]) / 2


def test_slot_positions_bad_age():
    with pytest.raises(ValueError):
        slot_positions(0)


# ---------------------------------------------------------------- the layout
def test_age_one_layout_is_a_pyramid_with_hidden_cards_and_costs():
    state = duelcore.new_game(3, first_game_wonders=True)
    text = render_text(state, width=WIDE)
    assert "\x1b" not in text
    assert all(len(line) <= WIDE for line in text.splitlines())
    d = state.to_dict()
    lines = layout_lines(text)
    assert len(lines) == 2 * len(data.LAYOUTS[0].rows)             # a name line, a cost line
    assert sum(line.count("[face down]") for line in lines) == d["layout"].count("face_down") == 8
    # row 0 at the top, the last row (the available cards) at the bottom
    row_of = {}
    start = 0
    for r, n in enumerate(data.LAYOUTS[0].rows):
        for s in range(start, start + n):
            row_of[s] = r
        start += n
    for s, name in enumerate(d["layout"]):
        if name not in (None, "face_down"):
            assert name in lines[2 * row_of[s]], (s, name)
    # each available card: its colour and its cost for the player to move, under its name
    p = state.current_player()
    for c in state.available_cards():
        name = data.CARD_NAMES[c]
        total, _ = state.card_cost(p, c)
        row = next(r for r in range(0, len(lines), 2) if name in lines[r])
        col = lines[row].index(name)
        below = lines[row + 1][col:].split("  ")[0].strip()
        cost = "free" if total == 0 else f"{total}c" + (" ✗" if total > state.coins(p) else "")
        assert below == f"{data.CARDS[c].colour} {cost}", (name, below)
    assert f"costs for P1 ({state.coins(0)} coins)" in text


@pytest.mark.parametrize("age", [2, 3])
def test_later_ages_have_their_own_shape(age):
    state = play_until(lambda s: s.age == age and s.phase == "play")
    lines = layout_lines(render_text(state, width=WIDE))
    assert len(lines) == 2 * len(data.LAYOUTS[age - 1].rows)
    assert f"Age {'I' * age}" in render_text(state, width=WIDE)


def test_costs_are_for_the_player_to_move():
    state = play_until(lambda s: s.phase == "play" and s.current_player() == 1
                       and any(s.card_cost(0, c)[0] != s.card_cost(1, c)[0]
                               for c in s.available_cards()))
    text = render_text(state, width=WIDE)
    assert "costs for P2" in text and "P2  ◀ to move" in text
    lines = layout_lines(text)
    for c in state.available_cards():
        name = data.CARD_NAMES[c]
        total, _ = state.card_cost(1, c)
        row = next(r for r in range(0, len(lines), 2) if name in lines[r])
        below = lines[row + 1][lines[row].index(name):].split("  ")[0]
        assert ("free" if total == 0 else f"{total}c") in below


def test_narrow_width_shortens_names_but_keeps_the_lines_short():
    state = play_until(lambda s: s.age == 3 and s.phase == "play")
    for width in (60, 80, 100):
        text = render_text(state, width=width)
        assert max(len(line) for line in text.splitlines()) <= width


# ---------------------------------------------------------------- the rest of the table
def test_cities_by_colour_wonders_coins_science_tokens_and_discard_pile():
    state = play_until(lambda s: s.age == 3 and any(b for q in (0, 1) for _, b in s.wonders(q))
                       and s.progress_tokens(0) and s.discard_pile())
    text = render_text(state, width=WIDE)
    for q in (0, 1):
        panel = player_panel(text, q)
        assert re.search(rf"coins\s+{state.coins(q)}\b", panel)
        for c in state.city(q):
            card = data.CARDS[c]
            line = next(line for line in panel.splitlines() if card.name in line)
            assert card.colour in line                     # listed on its colour's line
        for w, built in state.wonders(q):
            mark = "✓" if built else "·"
            assert f"{mark} {data.WONDER_NAMES[w]}" in panel
        for t in state.progress_tokens(q):
            assert data.TOKEN_NAMES[t] in panel
        symbols = [s for s, n in zip(data.SYMBOLS, state.science_symbols(q)) if n]
        for s in symbols:
            assert s in panel
    assert "Discard pile (%d): " % len(state.discard_pile()) in text
    for c in state.discard_pile():
        assert data.CARD_NAMES[c] in text.split("Discard pile")[1].replace("\n", " ")
    for t in state.board_tokens():
        assert data.TOKEN_NAMES[t] in text.split("Progress tokens on the board:")[1]


def player_panel(text, q):
    """Column of player q's panel (P1 left, P2 right) as text."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("╭─ P1"))
    mid = lines[top].index("╮") + 1
    out = []
    for line in lines[top:]:
        part = line[:mid] if q == 0 else line[mid:]
        out.append(part)
        if part.strip().startswith("╰") and q == 0:
            break
    return "\n".join(out)


def test_unbuilt_wonders_show_their_cost_for_the_player_to_move():
    state = duelcore.new_game(3, first_game_wonders=True)
    panel = player_panel(render_text(state, width=WIDE), 0)
    for w, built in state.wonders(0):
        total, _ = state.wonder_cost(0, w)
        assert f"· {data.WONDER_NAMES[w]} {total}c" in panel


def test_military_track_pawn_and_tokens():
    state = play_until(lambda s: s.pawn <= -4 and not s.is_terminal())
    text = render_text(state, width=WIDE)
    track = next(line for line in text.splitlines() if "⌂" in line or "●" in line)
    cells = track[track.index("P1") + 3: track.index("P2")]
    marks = [cells[i + 1] for i in range(0, 19 * 3, 3)]
    assert marks.index("●") - 9 == state.pawn
    d = state.to_dict()
    assert "P2 leads" in text
    expected = f"{abs(state.pawn)} spaces toward P1's capital"
    assert expected in text
    left = "; ".join(f"P{s + 1}'s side: " + (", ".join(f"{v} coins" for v in toks) or "none")
                     for s, toks in enumerate(d["military_tokens"]))
    assert f"Military tokens on {left}." in text
    assert f"({state.vp()['military'][1]} VP now)" in text


def test_header_names_the_player_and_the_decision():
    state = duelcore.new_game(7)
    text = render_text(state)
    assert "Wonder draft" in text and "P1 to move" in text
    for w in state.to_dict()["draft"]["offer"]:
        assert w in text.replace("\n", " ")
    for phase, words in (("choose_token", "progress token"), ("destroy", "discard pile"),
                         ("revive", "The Mausoleum"), ("choose_start", "begins Age"),
                         ("library", "Great Library")):
        s = play_until(lambda st: st.phase == phase)
        text = render_text(s, width=WIDE)
        assert words in text, phase
        assert f"P{s.current_player() + 1} to move" in text


def test_game_over_and_chance_nodes():
    state = play_until(lambda s: s.is_terminal(), seeds=[5])
    text = render_text(state)
    assert "Game over" in text
    res = state.result()
    assert f"{res['total'][0]} to {res['total'][1]} VP" in text
    chance = duelcore.new_game(4, explicit_chance=True)
    assert "chance" in render_text(chance)


def test_render_is_a_rich_renderable_with_colour():
    state = duelcore.new_game(3, first_game_wonders=True)
    buf = io.StringIO()
    Console(file=buf, width=120, force_terminal=True, color_system="truecolor").print(
        render(state, width=120))
    assert "\x1b[" in buf.getvalue()
    with pytest.raises(TypeError):
        render("not a state")
