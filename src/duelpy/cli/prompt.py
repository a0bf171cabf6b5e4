"""The move prompt of ``duel play`` for the seat games (7 Wonders, Architects): read lines
until a legal move or a stop, answering the commands on the way, and the saved game that
``--from`` continues."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import click

from duelpy.cli.common import one_line

__all__ = ["read_move", "saved_game"]


def read_move(label: str, help_text: str, show_board: Callable[[], Any],
              show_moves: Callable[[], Any], match: Callable[[str], int],
              info: Callable[[str], Any] | None = None) -> tuple[str, Any]:
    """Prompt ``label> `` until the player names a legal move or stops.

    Answers ``help`` (``help_text``), ``board``, ``moves``, and with ``info`` ``info NAME``
    on the way; an empty line asks again; a line ``match`` refuses (ValueError) is answered
    with its reason on stderr.  Returns ``("move", action)`` or ``("stop", why)``, why being
    ``"quit"``, ``"Ctrl-C"`` or ``"end of input"``."""
    while True:
        try:
            line = click.prompt(label, default="", show_default=False,
                                prompt_suffix="> ").strip()
        except click.exceptions.Abort as e:
            click.echo()
            return "stop", ("Ctrl-C" if isinstance(e.__context__, KeyboardInterrupt)
                            else "end of input")
        word = line.lower()
        if not line:
            continue
        if word in ("help", "?"):
            click.echo(help_text)
        elif word in ("board", "b"):
            show_board()
        elif word in ("moves", "m", "list"):
            show_moves()
        elif info is not None and word.split(" ", 1)[0] == "info":
            info(line[4:])
        elif word in ("quit", "exit", "q"):
            return "stop", "quit"
        else:
            try:
                return "move", match(line)
            except ValueError as e:
                click.echo(f"{one_line(e)} (type 'moves' for the list, 'help' for commands)",
                           err=True)


def saved_game(path: Path, move: int | None, load: Callable[[Path], dict],
               error: type[Exception]) -> tuple[dict, int]:
    """The record in ``path`` (``load``, raising ``error``) to continue, and the number of
    its moves kept (``move``; all by default).  click errors name a bad file, a move past
    the end, or a finished game continued after its last move."""
    try:
        rec = load(path)
    except error as e:
        raise click.BadParameter(one_line(e), param_hint="--from") from None
    n = len(rec["moves"])
    k = n if move is None else move
    if k > n:
        raise click.BadParameter(f"{path} has moves 0 to {n}, not {k}", param_hint="--move")
    if k == n and rec.get("result") is not None:
        raise click.BadParameter(f"the game of {path} is over: nothing to continue (give an "
                                 f"earlier --move)", param_hint="--move")
    return rec, k
