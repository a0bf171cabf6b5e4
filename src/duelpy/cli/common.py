"""What the ``duel`` commands share: one-line errors, consoles and Duel's result lines."""
from __future__ import annotations

import math
import secrets
import shlex
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from rich.console import Console
from rich.table import Table

from duelpy.base.output import OutputError, check_new_file

__all__ = ["one_line", "console", "board_width", "result_line", "vp_table",
           "EXIT_INTERRUPTED", "free_name", "seed_and_record", "plural",
           "remember_invocation", "resume_command", "IntRange", "FloatRange"]


class IntRange(click.IntRange):
    """``click.IntRange`` that calls a bad value "not a valid integer" (click says "integer
    range", which reads as if a range were expected); the bounds message is click's."""

    name = "integer"


class FloatRange(click.FloatRange):
    """``click.FloatRange`` that calls a bad value "not a valid float" and refuses ``nan``
    (which passes click's bounds, as every comparison with it is false)."""

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        rv = super().convert(value, param, ctx)
        if math.isnan(rv):
            self.fail(f"{value!r} is not a number", param, ctx)
        return rv


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130

_invocation: list[str] | None = None        # the arguments of this ``duel`` command, as typed


def remember_invocation(args: list[str]) -> None:
    """Keep the command's arguments (after ``duel``) for :func:`resume_command`."""
    global _invocation
    _invocation = [str(a) for a in args]


def resume_command(fallback: str) -> str:
    """The command that continues an interrupted run: the arguments as typed, without
    ``--overwrite``, with ``--resume``; ``fallback`` when they are not known (the command was
    called from Python, not through ``duel``)."""
    if _invocation is None:
        return fallback
    args = [a for a in _invocation if a != "--overwrite"]
    if "--resume" not in args:
        args.append("--resume")
    return "duel " + shlex.join(args)


def one_line(text) -> str:
    """``text`` with its whitespace (newlines too) collapsed: an error message on one line."""
    return " ".join(str(text).split())


def console(width=None, stderr: bool = False):
    """A rich console (``width`` None: the terminal's, or 80 when piped)."""
    return Console(width=width, highlight=False, stderr=stderr)


def board_width(con, width) -> int:
    """Width of a board drawing: ``width``, or the console's between 60 and 120."""
    return width or max(60, min(con.width, 120))


def result_line(result) -> str:
    """'P1 wins (civilian victory), 64 to 42 VP' (or 'not over')."""
    if result is None:
        return "not over"
    total = result["total"]
    if result["winner"] is None:
        return f"shared victory, {total[0]} to {total[1]} VP"
    return (f"P{result['winner'] + 1} wins ({result['victory']} victory), "
            f"{total[0]} to {total[1]} VP")


def vp_table(result):
    """The final VP by category of both players, as a rich table."""
    t = Table(title="Victory points", title_justify="left")
    t.add_column("")
    t.add_column("P1", justify="right")
    t.add_column("P2", justify="right")
    for cat, (a, b) in result["vp"].items():
        t.add_row(cat, str(a), str(b))
    t.add_row("total", str(result["total"][0]), str(result["total"][1]), style="bold")
    return t


def free_name(path: Path) -> Path:
    """``path``, or ``name-1.json``, ``name-2.json`` ... (the first that does not exist)."""
    k = 1
    candidate = path
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
        k += 1
    return candidate


def seed_and_record(seed: int | None, record_path: Path | None, overwrite: bool,
                    stem: str) -> tuple[int, Path]:
    """The seed of a game played in the terminal (a random one if None) and where its
    record goes: ``--record`` if given (checked before the game: click.BadParameter naming
    --record), else ``<stem>-<seed>-<time>.json``, made unique if that name is taken."""
    if seed is None:
        seed = secrets.randbelow(2**32)
    if record_path is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return seed, free_name(Path(f"{stem}-{seed}-{stamp}.json"))
    try:
        check_new_file(record_path, overwrite)
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint="--record") from None
    return seed, record_path


def plural(n: int, word: str) -> str:
    """``"1 move"``, ``"3 moves"``, ``"1,200 moves"``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"
