"""The ``duel`` command line: simulate, play, replay, show (and bench).

Errors are reported as one line on stderr with a non-zero exit code (2 for bad usage, 1 for
anything else): bad flags, bad agent descriptions, unreadable files and malformed records never
end in a traceback.
"""
from __future__ import annotations

import os
import sys

import click

from duelpy.cli.agents import agents
from duelpy.cli.bench import bench
from duelpy.cli.common import one_line as _one_line, remember_invocation
from duelpy.cli.ladder import ladder
from duelpy.cli.play import play
from duelpy.cli.records import replay, seven, show, watch
from duelpy.cli.simulate import simulate
from duelpy.cli.study import study
from duelpy.cli.train import train
from duelpy.web.command import serve


EXIT_BROKEN_PIPE = 141     # 128 + SIGPIPE: what a shell tool reports when its reader has gone


def _broken_pipe() -> None:
    """The reader of stdout has gone (``duel ... | head``): exit quietly with 141, as shell tools
    do, and without Python's "Exception ignored" line when stdout is flushed at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(EXIT_BROKEN_PIPE)


class DuelGroup(click.Group):
    """A click group whose errors are one line on stderr (no usage block, no traceback)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        remember_invocation(sys.argv[1:] if args is None else list(args))
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
        except BrokenPipeError:
            _broken_pipe()
        except SystemExit as e:                 # rich's own answer to a broken pipe: exit 1
            if isinstance(e.__context__, BrokenPipeError):
                _broken_pipe()
            raise
        except OSError as e:
            click.echo(f"Error: {_one_line(e)}", err=True)
            sys.exit(1)
        try:                                    # the buffered tail of stdout, while it can fail
            sys.stdout.flush()
        except BrokenPipeError:
            _broken_pipe()
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)


@click.group(cls=DuelGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duel")
def main():
    """duel: fast simulators of 7 Wonders Duel, 7 Wonders and 7 Wonders Architects
    (--game duel|seven|architects), with MCTS agents, balance studies, rating ladders and
    benchmarks.

    \b
    Examples:
      duel simulate --games 100000 --p1 random --p2 random
      duel play --opponent mcts --iterations 5000
      duel replay game.json
      duel show game.json --move 20
      duel study study.toml --out results
      duel bench --games 200000 --jobs 2
      duel simulate --game seven --players 4 --agents mcts:200,greedy --games 100
      duel watch --game seven --players 4 --agents greedy --record g.json
      duel simulate --game architects --players 4 --games 100000
    """


for _command in (simulate, play, replay, show, watch, agents, bench, study, ladder, serve, train,
                 seven):
    main.add_command(_command)

if __name__ == "__main__":
    sys.exit(main(prog_name="duel"))
