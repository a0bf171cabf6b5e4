"""The example studies shipped in docs/ reproduce (issue 29: their numbers went stale after a
rules change and nothing noticed).

For each example: the first games of every arm, played again now from the study file, are
the shipped games; the shipped report is the report of the shipped games; and every table
row docs/studies.md quotes from it is in that report.  A rules change that moves the games
fails here until the study is run again (the command is in docs/studies.md).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from duelpy.study.run import load_spec, read_games, run_study

DOCS = Path(__file__).resolve().parents[1] / "docs"
#: (folder, games per arm played again: the plan study's games take 0.6 s each)
EXAMPLES = [("example-study", 12), ("example-study-plan", 3)]


@pytest.mark.parametrize("folder, games", EXAMPLES)
def test_the_first_games_of_every_arm_play_again_the_same(folder, games, tmp_path):
    spec = load_spec(DOCS / folder / "study.toml")
    shipped = read_games(DOCS / folder)
    small = load_spec({**spec.to_dict(), "games": games, "chunk_size": None})
    again, _ = run_study(small, tmp_path / "again", plots=False, workers=2)
    want = shipped[shipped["game"] < games].reset_index(drop=True)
    pd.testing.assert_frame_equal(again.drop(columns="treatment"),
                                  want.drop(columns="treatment"), check_dtype=False)
    assert list(again["treatment"].astype(str)) == list(want["treatment"].astype(str))


@pytest.mark.parametrize("folder", [f for f, _ in EXAMPLES])
def test_the_shipped_report_is_the_report_of_the_shipped_games(folder):
    spec = load_spec(DOCS / folder / "study.toml")
    report = spec.report(read_games(DOCS / folder))
    shipped = (DOCS / folder / "report.md").read_text(encoding="utf-8")
    assert "\n## Plots\n" in shipped                 # the study wrote its plots beside it
    # the plots are links to files, written only by run_study: compare everything before them
    assert report.to_markdown().rstrip() == shipped.split("\n## Plots\n")[0].rstrip()


@pytest.mark.parametrize("folder", [f for f, _ in EXAMPLES])
def test_the_docs_quote_the_report(folder):
    """Every numeric table row of docs/studies.md that names an arm of the study is a row
    of the report (same cells)."""
    report = (DOCS / folder / "report.md").read_text(encoding="utf-8")
    text = (DOCS / "studies.md").read_text(encoding="utf-8")
    section = text[text.index(f"`docs/{folder}/study.toml`"):]      # the example's own part
    section = section[:section.index("\n## ")] if "\n## " in section else section
    rows = [line for line in section.splitlines()
            if line.startswith("| control |") or line.startswith("| P2 +2 coins |")]
    assert rows, "the docs quote no row of this study"
    cells = [[c.strip() for c in r.split("|")[1:-1]] for r in report.splitlines()
             if r.startswith("|")]
    for row in rows:
        quoted = [c.strip() for c in row.split("|")[1:-1]]
        assert any(all(q in rc for q in quoted if q) for rc in cells), row
