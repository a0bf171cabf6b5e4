"""The move prompt of ``duel play`` for the seat games (7 Wonders, Architects): read lines
until a legal move or a stop, answering the commands on the way, and the saved game that
``--from`` continues."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import click
from rich.text import Text

from duelpy.base.specs import split_agents
from duelpy.cli.common import EXIT_INTERRUPTED, one_line, plural

__all__ = ["read_move", "saved_game", "end_of_game", "seat_agents", "announce"]


def read_move(label: str, help_text: str, show_board: Callable[[], Any],
              show_moves: Callable[[], Any], match: Callable[[str], int],
              commands: dict[str, Callable[[str], Any]] | None = None) -> tuple[str, Any]:
    """Prompt ``label> `` until the player names a legal move or stops.

    Answers ``help`` (``help_text``), ``board``, ``moves``, and each word of ``commands``
    (``info NAME``, ``hint``, ...: called with the rest of the line, stripped) on the way; an
    empty line asks again; a line ``match`` refuses (ValueError) is answered with its reason
    on stderr.  Returns ``("move", action)``, ``("again", None)`` when a command returned
    True (it changed the position: show it again), or ``("stop", why)``, why being
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
        elif commands and word.split(" ", 1)[0] in commands:
            if commands[word.split(" ", 1)[0]](line.partition(" ")[2].strip()):
                return "again", None
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


def end_of_game(con: Any, over: bool, board: str, totals: list, winners: list, human: int,
                stopped: str | None, moves: list, record_path: Path,
                save: Callable[[], Any]) -> None:
    """The end of ``duel play`` for a seat game: the final ``board`` and the scores
    (``totals``; you are seat ``human``) when the game is ``over``, else why it stopped;
    then ``save()`` writes the record of ``moves`` to ``record_path``, also with no move (a
    record of no moves), except over an existing file (``--overwrite``): a game with no move
    replaces no file.  A ClickException names a file that cannot be written.  Exits with 130 after Ctrl-C."""
    if over:
        con.print(board, highlight=False)
        verdict = ("You win!" if winners == [human] else
                   "Shared victory." if human in winners else "You lose.")
        con.print(Text(f"Scores: {', '.join(str(v) for v in totals)} VP. {verdict}",
                       style="bold"))
    else:
        click.echo(f"Game stopped ({stopped}) after {plural(len(moves), 'move')}.")
    if not moves and record_path.exists():
        click.echo(f"No move was played: {record_path} kept as it was (a game with no move "
                   f"replaces no file).")
    else:
        try:
            save()
        except OSError as e:
            raise click.ClickException(f"cannot save the game record to {record_path}: "
                                       f"{e.strerror or one_line(e)}") from None
        click.echo(f"Game record saved to {record_path} (duel replay {record_path}).")
    if stopped == "Ctrl-C":
        sys.exit(EXIT_INTERRUPTED)


def seat_agents(players: int, seat: int, opponent: str, opponent_given: bool,
                iterations: int | None, lineup: Callable[[list, int], list],
                with_iterations: Callable[[str, int | None], str],
                error: type[Exception]) -> list[str]:
    """Who plays each seat of ``duel play`` for a seat game: ``"you"`` at ``seat``
    (1-based) and the ``opponent`` agents (one for all, or one per other seat; ``mcts``
    when not given) elsewhere, ``iterations`` given to each ``mcts`` without its own.  click
    errors name a seat outside the game, a bad agent (``error``) or ``--iterations`` with
    no searching agent."""
    if not 1 <= seat <= players:
        raise click.BadParameter(f"{seat} is not a seat of a {players}-player game (1 to "
                                 f"{players})", param_hint="--seat")
    text = opponent if opponent_given else "mcts"
    try:
        others = lineup([with_iterations(a, iterations) for a in split_agents(text)],
                        players - 1)
    except error as e:
        raise click.BadParameter(str(e), param_hint="--opponent") from None
    if iterations is not None and not any(a.startswith("mcts") for a in others):
        raise click.BadParameter(f"--iterations applies to searching agents only (mcts), not "
                                 f"{', '.join(sorted(set(others)))}", param_hint="--opponent")
    return others[:seat - 1] + ["you"] + others[seat - 1:]


def announce(con: Any, title: str, agents: list[str], seed: int, record_path: Path) -> None:
    """The first lines of ``duel play`` for a seat game: ``title`` (the game, the players
    and your seat), the other seats' agents and the seed; where the record will go."""
    con.print(Text(f"{title}, against {', '.join(a for a in agents if a != 'you')}. "
                   f"Seed {seed}.", style="bold"))
    con.print(f"The game record will be saved to {record_path}. Type 'help' for commands; "
              f"Ctrl-C stops the game.", highlight=False)
