"""The pages in docs/ (and the README's links and commands) stay true to the code.

- Every ```python block of docs/*.md runs as written, in a fresh namespace, in a temporary
  folder (they may write files), and prints something. The README's own blocks are run by
  tests/test_readme.py the same way.
- A block that is deliberately not run (it needs a cluster, or takes minutes) is fenced
  ```python no-run``` instead of ```python```: its test is reported as skipped, with the page
  and the block's number, so the skips stay visible. Keep them few.
- Every `duel ...` line of a ```bash block, and every complete `duel ...` command written in
  inline code, parses with the real command line (click's parser: commands, flags, types,
  ranges and choices) without running. Each command the docs name exists, and each command of
  `duel --help` is documented in docs/cli.md.
- A small set of the documented commands runs for real with tiny sizes.
- Every relative link and image points to a file that exists, and every #anchor to a heading
  of its page; every repository path written in code (`tests/...`, `src/...`) exists.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from duelpy.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def fenced(page: Path):
    """(info string, body) of each fenced block of a page, in order."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(page.read_text("utf-8"))]


def prose(page: Path) -> str:
    """The page without its fenced blocks."""
    return FENCE.sub("", page.read_text("utf-8"))


# --- the pages themselves --------------------------------------------------------------------

def test_the_docs_pages_exist_and_link_back_to_the_readme():
    assert len(DOCS) >= 8
    for page in DOCS:
        text = page.read_text("utf-8")
        assert text.startswith("# "), f"{rel(page)}: starts with its title"
        first_paragraph = text.split("\n\n")[1]
        assert len(first_paragraph) > 150, f"{rel(page)}: a one-paragraph summary first"
        assert "](../README.md)" in text, f"{rel(page)}: links back to the README"


def test_the_readme_lists_every_docs_page():
    text = README.read_text("utf-8")
    for page in DOCS:
        assert f"](docs/{page.name})" in text, f"README's table of pages misses {page.name}"


# --- python blocks ---------------------------------------------------------------------------

PY_BLOCKS = [(page, k, info, body) for page in DOCS
             for k, (info, body) in enumerate(b for b in fenced(page) if b[0].startswith("python"))]


@pytest.mark.parametrize("page,k,info,body", PY_BLOCKS,
                         ids=[f"{p.name}-{k + 1}" for p, k, _, _ in PY_BLOCKS])
def test_docs_python_block_runs(page, k, info, body, tmp_path, monkeypatch, capsys):
    if "no-run" in info.split():
        pytest.skip(f"{rel(page)} python block {k + 1} is marked no-run")
    assert info == "python", f"{rel(page)}: unknown fence {info!r} (python or python no-run)"
    monkeypatch.chdir(tmp_path)
    exec(compile(body, f"{rel(page)} python block {k + 1}", "exec"), {"__name__": "docs"})
    out = capsys.readouterr().out
    assert out.strip(), "the example prints nothing"
    assert not re.search(r"\bnan\b", out, re.I), f"the example prints NaN:\n{out}"


def test_no_run_blocks_are_few():
    skipped = [(p, k) for p, k, info, _ in PY_BLOCKS if "no-run" in info.split()]
    assert len(skipped) <= 3, skipped


# --- commands --------------------------------------------------------------------------------

def bash_command_lines(page: Path) -> list[str]:
    """The `duel ...` lines of a page's bash blocks (continuations joined, comments dropped)."""
    lines = []
    for info, body in fenced(page):
        if info != "bash":
            continue
        for line in body.replace("\\\n", " ").splitlines():
            if line.strip().startswith("duel "):
                lines.append(line.strip())
    return lines


PLACEHOLDER = re.compile(r"…|\||\[|\bAGENT\b|\bFILE\b|\bDIR\b|\bN\b|\bK\b|\bS\b|\bJ\b|\bW\b|"
                         r"HOST:PORT|SEAT=|TOKEN\b|CARD\b|\bA\b|\bB\b$")


def inline_commands(page: Path) -> list[str]:
    """Complete `duel ...` commands written in inline code (schematic ones with placeholders
    such as AGENT, FILE, N, [..] or … are left out)."""
    found = []
    for span in re.findall(r"`([^`]+)`", prose(page)):
        span = " ".join(span.split())
        if span.startswith("duel ") and " --" in span and not PLACEHOLDER.search(span):
            found.append(span)
    return found


def words(line: str) -> list[str]:
    return shlex.split(line, comments=True)[1:]


def parse(args: list[str]) -> click.Context:
    """Parse a command line as `duel` would, without running it."""
    ctx = cli.make_context("duel", list(args))
    command = cli
    while isinstance(command, click.Group):
        rest = [*ctx._protected_args, *ctx.args]
        name, command, rest = command.resolve_command(ctx, rest)
        ctx = command.make_context(name, rest, parent=ctx)
    return ctx


COMMAND_LINES = sorted({(rel(p), line) for p in PAGES
                        for line in [*bash_command_lines(p), *inline_commands(p)]})


def test_the_docs_show_commands():
    assert len(COMMAND_LINES) >= 40


def agents_of(ctx: click.Context) -> list[str]:
    """The agent descriptions written on a parsed command line (not the defaults)."""
    found = []
    for name in ("p1", "p2", "opponent", "agents"):
        value = ctx.params.get(name)
        if value and ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
            found += list(value) if isinstance(value, tuple) else [value]
    return found


@pytest.mark.parametrize("page,line", COMMAND_LINES)
def test_a_documented_command_parses(page, line, monkeypatch):
    """The flags, their types and ranges, and the agents named (Duel's, 7 Wonders' or
    Architects')."""
    import duelpy
    from duelpy.architects import agents as arch_agents
    from duelpy.seven import agents as seven_agents
    monkeypatch.chdir(ROOT)      # paths such as docs/weights/... are relative to the checkout
    try:
        ctx = parse(words(line))
    except click.exceptions.UsageError as e:
        pytest.fail(f"{page}: {line}\n  {e.format_message()}")
    seven = ctx.params.get("game") == "seven" or ctx.command_path.startswith("duel seven")
    for text in agents_of(ctx):
        if ctx.params.get("game") == "architects":
            for agent in arch_agents.split_agents(text):
                arch_agents.parse_agent(agent)
            continue
        for agent in (seven_agents.split_agents(text) if seven else [text]):
            (seven_agents.parse_agent if seven else duelpy.parse_agent)(agent)


def command_names(group: click.Group, prefix: str = "") -> list[str]:
    names = []
    for name, command in group.commands.items():
        names.append(prefix + name)
        if isinstance(command, click.Group):
            names += command_names(command, f"{prefix}{name} ")
    return names


def test_every_command_named_in_the_docs_exists():
    known = set(command_names(cli))
    for page in PAGES:
        for span in re.findall(r"`duel ([a-z][a-z ]*)", prose(page)):
            first = span.split()[0]
            assert first in known, f"{rel(page)}: `duel {span}`"
            if first == "seven" and len(span.split()) > 1:
                assert " ".join(span.split()[:2]) in known, f"{rel(page)}: `duel {span}`"


@pytest.mark.parametrize("name", command_names(cli))
def test_every_command_is_documented_with_a_working_help(name):
    assert f"duel {name}" in (ROOT / "docs" / "cli.md").read_text("utf-8")
    r = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert r.exit_code == 0 and "Usage:" in r.output, r.output


# the documented commands, run for real with tiny sizes (the docs' sizes are in comments)
REAL_RUNS = [
    "simulate --games 20 --p1 mcts:iterations=20 --p2 greedy --out games.csv",  # --games 1000
    "simulate --games 200 --start-coins 7,9 --jobs 2 --out coins.parquet -q",   # 100000
    "agents",
    "study --p1 greedy --p2 greedy --games 40 --p2-extra-coins 2 --ban-token Philosophy"
    " --force-wonder 'p1=The Pyramids' --switch-centred-pawn --out out --no-plots -q",
    "study {root}/docs/example-study/study.toml --p1 greedy --p2 greedy --games 16"
    " --out my-study --no-plots -q",                                            # mcts, 2400
    "ladder random greedy mcts:iterations=20 --games 4 --seed 2026 --out ladder --no-plot -q",
    "bench --games 100 --iterations 100 --repeat 1",
    "bench --game seven --players 4 --games 100 --iterations 100 --repeat 1",
    "simulate --game seven --players 7 --games 6 --agents random",
    "study --game seven --players 4 --games 8 --seed 1 --remove 'Scientists Guild' --out sides4",
    "ladder --game seven --players 4 random greedy mcts:20 --games 4 --out ladder7 -q",
    "seven watch --players 4 --agents mcts:30,greedy,greedy,greedy --record game.json",
    "seven replay game.json",
    "train --games 200 --seed 1 --out value_weights.npz",                       # 200000
]


def test_documented_commands_run_with_tiny_sizes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for line in REAL_RUNS:
        r = runner.invoke(cli, shlex.split(line.format(root=ROOT)))
        assert r.exit_code == 0, f"duel {line}\n{r.output}"
    assert (tmp_path / "games.csv").exists() and (tmp_path / "sides4" / "report.md").exists()


def test_play_then_replay_and_show(tmp_path, monkeypatch):
    import duelpy
    monkeypatch.chdir(tmp_path)
    first = duelpy.new_game(seed=42).legal_actions()[0]
    runner = CliRunner()
    r = runner.invoke(cli, shlex.split("play --opponent greedy --seed 42 --record my-game.json"),
                      input=f"{first}\n")              # one move, then the end of input
    assert r.exit_code == 0 and (tmp_path / "my-game.json").exists(), r.output
    for line in ("replay my-game.json", "show my-game.json --move 2 --plain"):
        r = runner.invoke(cli, shlex.split(line))
        assert r.exit_code == 0, f"duel {line}\n{r.output}"


# --- links and paths -------------------------------------------------------------------------

def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.lower(), flags=re.U)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", prose(page), re.M):
        s = slug(heading)
        out.add(s if s not in seen else f"{s}-{seen[s]}")
        seen[s] = seen.get(s, 0) + 1
    return out


LINKS = [(page, target) for page in PAGES
         for target in re.findall(r"\]\(([^)\s]+)\)", prose(page))
         if not re.match(r"[a-z]+:", target)]


def test_the_docs_have_links():
    assert len(LINKS) >= 50


@pytest.mark.parametrize("page,target", LINKS, ids=[f"{p.name}->{t}" for p, t in LINKS])
def test_a_relative_link_points_to_a_file_and_heading(page, target):
    path, _, anchor = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    assert file.exists(), f"{rel(page)}: {target} -> no such file"
    if anchor and file.suffix == ".md":
        assert anchor in anchors(file), f"{rel(page)}: {target} -> no such heading"


def test_repository_paths_in_the_docs_exist():
    pattern = re.compile(r"`((?:src|tests|bench|docs)/[\w./*-]+\.[a-z]+|\.ci/run)`")
    for page in PAGES:
        for path in pattern.findall(page.read_text("utf-8")):
            assert list(ROOT.glob(path)), f"{rel(page)}: `{path}` does not exist"
