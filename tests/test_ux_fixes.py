"""What a new user met first, fixed: the play -> replay sequence of the README, where a
record goes, misspelt names, seat ranges, truncated JSON, the study's last line, unknown keys
in a record's moves, the summary snippet and the move numbers of duel play."""
from __future__ import annotations

from cli_helpers import ok, run


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
