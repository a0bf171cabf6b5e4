"""What a new user met first, fixed: the play -> replay sequence of the README, where a
record goes, misspelt names, seat ranges, truncated JSON, the study's last line, unknown keys
in a record's moves, the summary snippet and the move numbers of duel play."""
from __future__ import annotations

import pytest

from cli_helpers import ok, one_error, run


# ------------------------------------------------------- 6. duel study lists each file once
def test_study_lists_each_plot_once(tmp_path):
    out = tmp_path / "st"
    r = ok(run("study", "--p1", "random", "--p2", "random", "--games", "40",
               "--p2-extra-coins", "2", "--workers", "1", "--out", str(out)))
    pngs = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert len(pngs) == 5
    text = "".join(r.output.split())      # stdout and stderr; a long path may be wrapped
    for name in pngs:
        assert text.count(name) == 1, (name, text[-800:])
    last = r.stderr.strip().split("wrote ")[-1]
    assert all(f"plots/{name}" in " ".join(last.split()) for name in pngs)


# ------------------------------------------------------- 4. --seat names the game's seats
@pytest.mark.parametrize("args, seat, words", [
    (["--game", "architects", "--players", "3"], "0", ["--seat", "0", "3-player", "1 to 3"]),
    (["--game", "architects", "--players", "3"], "5", ["--seat", "5", "3-player", "1 to 3"]),
    (["--game", "seven", "--players", "5"], "0", ["--seat", "0", "5-player", "1 to 5"]),
    (["--game", "seven", "--players", "5"], "8", ["--seat", "8", "5-player", "1 to 5"]),
    ([], "0", ["--seat", "0", "7 Wonders Duel", "1 or 2"]),
    ([], "3", ["--seat", "3", "7 Wonders Duel", "1 or 2"]),
])
def test_play_seat_out_of_range_names_the_real_range(tmp_path, args, seat, words):
    r = run("play", *args, "--seat", seat, "--record", str(tmp_path / "g.json"), input="")
    one_error(r, *words)
    assert "1<=x<=7" not in r.output and not (tmp_path / "g.json").exists()
