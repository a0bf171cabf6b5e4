"""The README is the front page: its Python examples run as written (each ```python block, in
a fresh namespace, in a temporary folder since they write files, and each prints something),
it names the commands and the two set-up commands exactly, and it stays short. A block fenced
```python no-run``` would be skipped visibly, as in tests/test_docs.py (which also checks the
README's links and `duel` command lines)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
FENCES = re.findall(r"^```(python[^\n]*)\n(.*?)^```", TEXT, re.M | re.S)


def test_the_readme_has_python_examples():
    assert len(FENCES) >= 2


@pytest.mark.parametrize("k", range(len(FENCES)))
def test_readme_python_block_runs(k, tmp_path, monkeypatch, capsys):
    info, block = FENCES[k]
    if "no-run" in info.split():
        pytest.skip(f"README.md python block {k + 1} is marked no-run")
    monkeypatch.chdir(tmp_path)
    exec(compile(block, f"README.md python block {k + 1}", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert out.strip(), "the example prints nothing"
    assert not re.search(r"\bnan\b", out, re.I), f"the example prints NaN:\n{out}"


def test_readme_documents_the_commands():
    for command in ("duel simulate", "duel play", "duel replay", "duel show", "duel study",
                    "duel bench", "duel serve", "duel watch", "--game seven"):
        assert command in TEXT, command
    # the two set-up commands, exactly, after the line that makes the virtual environment
    venv = "python -m venv .venv && . .venv/bin/activate"
    main_job = "pip install . && duel simulate --games 100000 --p1 random --p2 random"
    tests = 'pip install -e ".[test]" && python -m pytest'
    assert venv in TEXT and main_job in TEXT and tests in TEXT
    assert TEXT.index(venv) < TEXT.index(main_job) < TEXT.index(tests)
    assert 'pip install -e ".[test,interop]"' in TEXT


def test_the_readme_is_a_front_page():
    assert len(TEXT.splitlines()) < 300
    for job in ("duel bench --game seven --players 4", "duel bench\n", "duel study"):
        assert job in TEXT, job


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
