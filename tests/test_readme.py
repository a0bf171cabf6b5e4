"""The README's Python examples run as written (each ```python block, in a fresh namespace,
in a temporary folder since they write files)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_readme_python_block_runs(k, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(BLOCKS[k], f"README.md python block {k + 1}", "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out.strip(), "the example prints nothing"


def test_readme_documents_the_commands():
    text = README.read_text(encoding="utf-8")
    for command in ("duel simulate", "duel play", "duel replay", "duel show"):
        assert command in text
    # the two set-up commands, exactly
    assert 'pip install . && duel simulate --games 100000 --p1 random --p2 random' in text
    assert 'pip install -e ".[test]" && python -m pytest' in text


def test_the_python_api_for_notebooks():
    import duelpy
    for name in ("new_game", "play_match", "simulate", "summarise", "parse_action", "action_name",
                 "NotationError", "GameRecord", "RecordError", "save", "load", "replay",
                 "record_game", "render", "render_text"):
        assert hasattr(duelpy, name), name
    df = duelpy.simulate(6, "greedy", "random", seed=2, jobs=2, start_coins=(9, 7))
    assert df.shape[0] == 6 and list(df["p1"][:2]) == ["greedy", "random"]
    assert df.equals(duelpy.simulate(6, "greedy", "random", seed=2, start_coins=(9, 7)))
    summary = duelpy.summarise(df)
    assert {"rate", "ci_low", "ci_high"} <= set(summary.columns)
    for bad in (dict(games=0), dict(games=5, house_rule=1), dict(games=5, p1="nobody")):
        with pytest.raises(ValueError):
            duelpy.simulate(**bad)
