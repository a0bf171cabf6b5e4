"""The ``duel`` command line: simulate, play, replay, show (and bench).

Errors are reported as one line on stderr with a non-zero exit code (2 for bad usage, 1 for
anything else): bad flags, bad agent descriptions, unreadable files and malformed records never
end in a traceback.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from duelpy.cli.common import board_width as _board_width, console as _console, one_line
from duelpy.cli.common import result_line as _result_line, vp_table as _vp_table

_one_line = one_line


class DuelGroup(click.Group):
    """A click group whose errors are one line on stderr (no usage block, no traceback)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:     # bare "duel": the help, exit 0
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.exceptions.Abort as e:
            if isinstance(e.__context__, KeyboardInterrupt):        # Ctrl-C at a prompt
                click.echo("\ninterrupted", err=True)
                sys.exit(130)
            click.echo("Error: aborted (end of input)", err=True)
            sys.exit(1)
        except click.ClickException as e:
            hint = ""
            if isinstance(e, click.UsageError) and e.ctx is not None:
                hint = f" (see '{e.ctx.command_path} --help')"
            click.echo(f"Error: {_one_line(e.format_message())}{hint}", err=True)
            sys.exit(e.exit_code)
        except OSError as e:
            click.echo(f"Error: {_one_line(e)}", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)


@click.group(cls=DuelGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duel")
def main():
    """duel: a fast 7 Wonders Duel simulator.

    \b
    Examples:
      duel simulate --games 100000 --p1 random --p2 random
      duel play --opponent mcts --iterations 5000
      duel replay game.json
      duel show game.json --move 20
      duel study study.toml --out results
      duel bench --games 200000 --jobs 2
    """


# ---------------------------------------------------------------- duel agents
@main.command()
def agents():
    """List every agent with its options, their defaults and allowed values.

    An agent is written KIND or KIND:option=value,option=value; each option at most once.

    \b
    Example:
      duel agents
      duel simulate --p1 mcts:iterations=2000,c=1.2 --p2 greedy
    """
    from duelpy.duel.agents import AGENT_KINDS
    from duelpy.base.tables import Column, print_table

    console = _console()
    console.print("Agents are written KIND or KIND:option=value,option=value "
                  "(e.g. mcts:iterations=2000,c=1.4); each option at most once.")
    for kind in AGENT_KINDS.values():
        console.print()
        console.print(f"[bold]{kind.name}[/]: {kind.help}")
        if kind.options:
            print_table(console, [
                Column("option", [o.name for o in kind.options], "left"),
                Column("default", [o.shown_default() for o in kind.options], "left", wrap=True),
                Column("meaning (values)", [f"{o.help} ({o.domain})" for o in kind.options],
                       "left", wrap=True)])
        for group in kind.conflicts:
            console.print(f"  give {' or '.join(group)}, not both")


# ---------------------------------------------------------------- shared helpers
def _load_record(path: Path):
    """Load a record for a command; any failure is a one-line ClickException."""
    from duelpy.duel.records import RecordError, load
    try:
        return load(path)
    except FileNotFoundError:
        raise click.ClickException(f"{path}: no such file") from None
    except IsADirectoryError:
        raise click.ClickException(f"{path}: is a folder, not a game record") from None
    except PermissionError:
        raise click.ClickException(f"{path}: permission denied") from None
    except RecordError as e:
        raise click.ClickException(f"{path}: not a valid game record: {e}") from None
    except OSError as e:
        raise click.ClickException(f"{path}: cannot read: {_one_line(e)}") from None


# ---------------------------------------------------------------- duel replay / show
@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--step", is_flag=True,
              help="Show the board after each move and wait for Enter (q to stop).")
@click.option("--width", type=click.IntRange(60, 300), default=None,
              help="Board width in characters.")
def replay(file, step, width):
    """Print a recorded game move by move (checks that it replays to its result).

    \b
    Examples:
      duel replay game.json
      duel replay game.json --step
    """
    from rich.text import Text

    from duelpy.duel.notation import action_name
    from duelpy.duel.records import DEFAULT_OPTIONS, replay as replay_record
    from duelpy.duel.render import render

    rec = _load_record(file)
    states = replay_record(rec, states=True)
    console = _console(width)
    bw = _board_width(console, width)
    options = {k: v for k, v in rec.options.items() if v != DEFAULT_OPTIONS[k]}
    console.print(Text(f"{file}: seed {rec.seed}, P1 = {rec.players[0]}, P2 = "
                       f"{rec.players[1]}, {len(rec.moves)} moves", style="bold"))
    if options:
        console.print("Rule options: " + ", ".join(f"{k}={v}" for k, v in options.items()))
    if step:
        console.print(render(states[0], width=bw))
    section = None
    for k, a in enumerate(rec.moves):
        before = states[k]
        age = before.age
        title = f"Age {'I' * age if age < 4 else age}" if age else "Wonder draft"
        if title != section:
            console.print(Text(title, style="bold underline"))
            section = title
        p = before.current_player()
        who = f"P{p + 1}" if p in (0, 1) else "chance"
        console.print(f"{k + 1:4}. {who:<6} {action_name(a)}")
        if step:
            console.print(render(states[k + 1], width=bw))
            try:
                key = click.prompt("Enter: next move, q: stop", default="",
                                   show_default=False, prompt_suffix=" ")
            except click.exceptions.Abort:
                click.echo(f"\nstopped after move {k + 1} of {len(rec.moves)}")
                return
            if key.strip().lower() in ("q", "quit"):
                click.echo(f"stopped after move {k + 1} of {len(rec.moves)}")
                return
    final = states[-1]
    if final.is_terminal():
        res = final.result()
        console.print(_vp_table(res))
        console.print(Text(f"Result: {_result_line(res)}", style="bold"))
    else:
        console.print(Text(f"The game is not over after {len(rec.moves)} moves.", style="bold"))


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--move", "-k", "move", type=int, default=None,
              help="Show the position after move K (0: the start; default: the last move).")
@click.option("--width", type=click.IntRange(60, 300), default=None,
              help="Board width in characters.")
@click.option("--plain", is_flag=True, help="Plain text, no colours.")
def show(file, move, width, plain):
    """Draw the position of a recorded game after move K.

    \b
    Examples:
      duel show game.json --move 20
      duel show game.json            # the final position
    """
    from duelpy.duel.notation import action_name
    from duelpy.duel.records import replay as replay_record
    from duelpy.duel.render import render, render_text

    rec = _load_record(file)
    n = len(rec.moves)
    if move is None:
        move = n
    if not 0 <= move <= n:
        raise click.BadParameter(f"{move} is not a move of this game: it has moves 0 to {n}",
                                 param_hint="--move")
    state = replay_record(rec, upto=move)
    console = _console(width)
    bw = _board_width(console, width)
    last = f": {action_name(rec.moves[move - 1])}" if move else " (the start)"
    header = f"{file}, after move {move} of {n}{last}"
    if plain:
        click.echo(header)
        click.echo(render_text(state, width=bw), nl=False)
    else:
        console.print(header, style="bold")
        console.print(render(state, width=bw))


from duelpy.cli.bench import bench  # noqa: E402
from duelpy.cli.play import play  # noqa: E402
from duelpy.cli.simulate import simulate  # noqa: E402
from duelpy.cli.study import study  # noqa: E402
from duelpy.cli.ladder import ladder  # noqa: E402
from duelpy.web.command import serve  # noqa: E402
from duelpy.cli.seven import seven  # noqa: E402  (7 Wonders: duel seven ...)
from duelpy.cli.train import train  # noqa: E402

main.add_command(simulate)
main.add_command(play)
main.add_command(bench)
main.add_command(study)
main.add_command(ladder)
main.add_command(serve)
main.add_command(seven)
main.add_command(train)

if __name__ == "__main__":
    sys.exit(main(prog_name="duel"))
