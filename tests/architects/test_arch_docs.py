"""docs/architects.md: its Python example runs as written, and its commands are real."""
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "architects.md"


def test_the_python_example_runs(tmp_path, monkeypatch, capsys):
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for k, block in enumerate(blocks):
        exec(compile(block, f"docs/architects.md python block {k + 1}", "exec"), {})
    assert capsys.readouterr().out.strip()


def test_the_docs_name_every_option_flag():
    from duelpy.architects.interface import SETUP_OPTIONS
    text = DOC.read_text(encoding="utf-8")
    for o in SETUP_OPTIONS:
        assert o.flag in text, o.flag
