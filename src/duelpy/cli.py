"""The ``duel`` command line: simulate, play, replay, show (and bench).

Errors are reported as one line on stderr with a non-zero exit code (2 for bad usage, 1 for
anything else): bad flags, bad agent descriptions, unreadable files and malformed records never
end in a traceback.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from duelpy.agents import AgentSpecError, parse_agent


class _AgentType(click.ParamType):
    name = "AGENT"

    def convert(self, value, param, ctx):
        try:
            return parse_agent(value)
        except AgentSpecError as e:
            self.fail(str(e), param, ctx)


AGENT = _AgentType()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class DuelGroup(click.Group):
    """A click group whose errors are one line on stderr (no usage block, no traceback)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("Error: aborted", err=True)
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


def _check_writable(path: Path, hint: str):
    """Refuse, before any game is played, an output file that cannot be written."""
    import tempfile
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        raise click.BadParameter(f"{folder}: no such folder", param_hint=hint)
    if path.is_dir():
        raise click.BadParameter(f"{path}: is a folder", param_hint=hint)
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".duel-check-"):
            pass
    except OSError as e:
        raise click.BadParameter(f"{folder}: cannot write there ({e.strerror})",
                                 param_hint=hint) from None


def _write_table(df, out: Path):
    """Write ``df`` to ``out`` (.parquet or .csv) through a temporary file, so that a failed
    or interrupted write leaves neither a partial ``out`` nor the temporary file."""
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise click.BadParameter(f"{out}: the file must end in .parquet or .csv", param_hint="--out")
    tmp = out.with_name(out.name + ".part")
    try:
        if suffix == ".parquet":
            df.to_parquet(tmp)
        else:
            df.to_csv(tmp)
        tmp.replace(out)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, (OSError, ValueError, ImportError)):
            raise click.ClickException(f"cannot write {out}: {_one_line(e)}") from None
        raise


@main.command()
@click.option("--games", "-n", type=click.IntRange(1, 10**9), default=10000, show_default=True,
              help="Number of games.")
@click.option("--p1", "agent_a", type=AGENT, default="random", show_default=True,
              help="Agent in P1's seat in even games: random, greedy, mcts:iterations=N,c=C ...")
@click.option("--p2", "agent_b", type=AGENT, default="random", show_default=True,
              help="The other agent.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Base seed (game i's seed is derived from it and i).")
@click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Parallel workers.")
@click.option("--alternate/--no-alternate", default=True, show_default=True,
              help="Swap seats every other game.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the per-game table (.parquet or .csv).")
def simulate(games, agent_a, agent_b, seed, jobs, alternate, out):
    """Play GAMES games between two agents and summarise the outcomes.

    \b
    Example:
      duel simulate --games 1000 --p1 mcts:iterations=200 --p2 greedy --out games.parquet
    """
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    from rich.table import Table

    from duelpy.match import play_match
    from duelpy.report import summary

    if out is not None:
        if out.suffix.lower() not in (".parquet", ".csv"):
            raise click.BadParameter(f"{out}: the file must end in .parquet or .csv",
                                     param_hint="--out")
        _check_writable(out, "--out")
    console = Console(stderr=True)
    t0 = time.perf_counter()
    with Progress(TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, transient=False) as bar:
        task = bar.add_task("games", total=games, rate="")

        def progress(k):
            bar.advance(task, k)
            done = bar.tasks[0].completed
            bar.update(task, rate=f"{done / max(time.perf_counter() - t0, 1e-9):,.0f} games/s")

        df = play_match(agent_a, agent_b, games=games, seed=seed, alternate=alternate,
                        jobs=jobs, progress=progress)
    elapsed = time.perf_counter() - t0
    table = Table(title=f"{games:,} games, {agent_a.name} vs {agent_b.name}, seed {seed} "
                        f"({elapsed:.2f} s, {games / elapsed:,.0f} games/s)")
    for col in ("outcome", "count", "rate", "95% CI"):
        table.add_column(col, justify="left" if col == "outcome" else "right")
    for label, row in summary(df).iterrows():
        is_vp = label.startswith("mean VP")
        rate = f"{row['rate']:.2f}" if is_vp else f"{100 * row['rate']:.1f}%"
        ci = (f"{row['ci_low']:.2f} – {row['ci_high']:.2f}" if is_vp else
              f"{100 * row['ci_low']:.1f} – {100 * row['ci_high']:.1f}%")
        table.add_row(label, f"{int(row['count']):,}", rate, ci)
    Console().print(table)
    if out is not None:
        _write_table(df, out)
        console.print(f"wrote {len(df):,} games to {out}")


# ---------------------------------------------------------------- shared helpers
def _console(width=None):
    from rich.console import Console
    return Console(width=width, highlight=False)


def _board_width(console, width):
    return width or max(60, min(console.width, 120))


def _load_record(path: Path):
    """Load a record for a command; any failure is a one-line ClickException."""
    from duelpy.records import RecordError, load
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


def _result_line(result) -> str:
    if result is None:
        return "not over"
    total = result["total"]
    if result["winner"] is None:
        return f"shared victory, {total[0]} to {total[1]} VP"
    return (f"P{result['winner'] + 1} wins ({result['victory']} victory), "
            f"{total[0]} to {total[1]} VP")


def _vp_table(result):
    from rich.table import Table
    t = Table(title="Victory points", title_justify="left")
    t.add_column("")
    t.add_column("P1", justify="right")
    t.add_column("P2", justify="right")
    for cat, (a, b) in result["vp"].items():
        t.add_row(cat, str(a), str(b))
    t.add_row("total", str(result["total"][0]), str(result["total"][1]), style="bold")
    return t


def _move_note(state, action) -> str:
    """Cost or gain of a legal move for the player to move, asked of the State."""
    from duelpy.notation import NUM_DECISION_ACTIONS
    from duelcore import ACTION_LAYOUT as L, data
    p = state.current_player()
    if p not in (0, 1) or action >= NUM_DECISION_ACTIONS:
        return ""
    if L["BUILD_BASE"] <= action < L["DISCARD_BASE"]:
        total, _ = state.card_cost(p, action - L["BUILD_BASE"])
        return "free" if total == 0 else f"{total} coin{'s' * (total != 1)}"
    if L["WONDER_BASE"] <= action < L["TOKEN_BASE"]:
        total, _ = state.wonder_cost(p, (action - L["WONDER_BASE"]) // len(data.CARDS))
        return "free" if total == 0 else f"{total} coin{'s' * (total != 1)}"
    if L["DISCARD_BASE"] <= action < L["WONDER_BASE"]:
        return f"+{state.discard_value(p)} coins"
    return ""


def _print_moves(console, state):
    from rich.columns import Columns
    from rich.text import Text

    from duelpy.notation import legal_moves
    items = []
    for a, name in legal_moves(state):
        note = _move_note(state, a)
        t = Text(f"{a:>4}  {name}")
        if note:
            t.append(f" ({note})", style="dim")
        items.append(t)
    console.print(Text("Your moves (type a number or a name):", style="bold"))
    console.print(Columns(items, padding=(0, 3), column_first=True))


_PLAY_HELP = """\
Type a move by its number or its name: 12, build Lumber Yard, 'wonder Pyramids with Altar',
'discard altar', 'token Law', 'pick Sphinx', 'start P2'. A shorter name is enough when it
names one legal move. Commands:
  moves      list your legal moves with their costs
  board      show the board
  hint       what the MCTS would play here, with its visit shares
  undo       take back your previous decision (and the opponent's replies)
  save FILE  save the game so far as a record (JSON)
  quit       stop; the record is saved
  help       this text"""


# ---------------------------------------------------------------- duel play
def _opponent(opponent: str, iterations, seconds):
    text = opponent.strip()
    if iterations is not None or seconds is not None:
        if not text.lower().startswith("mcts"):
            raise click.BadParameter("--iterations and --seconds apply to --opponent mcts only",
                                     param_hint="--opponent")
        extra = []
        if iterations is not None:
            extra.append(f"iterations={iterations}")
        if seconds is not None:
            extra.append(f"seconds={seconds}")
        text += ("," if ":" in text else ":") + ",".join(extra)
    elif text.lower().startswith("mcts") and "iterations" not in text.lower() \
            and "seconds" not in text.lower():
        text += ("," if ":" in text else ":") + "iterations=5000"
    try:
        return parse_agent(text)
    except AgentSpecError as e:
        raise click.BadParameter(str(e), param_hint="--opponent") from None


@main.command()
@click.option("--opponent", default="mcts", show_default=True, metavar="AGENT",
              help="mcts, greedy, random, or a description like mcts:iterations=2000,c=1.2.")
@click.option("--iterations", type=click.IntRange(1, 10**8), default=None,
              help="MCTS iterations per move (default 5000).")
@click.option("--seconds", type=click.FloatRange(0, 3600, min_open=True), default=None,
              help="MCTS thinking time per move, instead of --iterations.")
@click.option("--seat", type=click.IntRange(1, 2), default=1, show_default=True,
              help="Your seat: 1 (P1, who begins) or 2.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Game seed (default: a random one, printed).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None,
              help="Save the game record here (default: duel-game-<seed>-<time>.json).")
@click.option("--first-game-wonders", is_flag=True,
              help="Skip the draft: the rulebook's first-game wonders.")
@click.option("--centred-pawn", type=click.Choice(["chooses", "begins"]), default="chooses",
              show_default=True, help="Centred pawn at the end of an Age: the last player "
                                      "chooses who begins, or begins.")
@click.option("--hint-iterations", type=click.IntRange(1, 10**7), default=5000,
              show_default=True, help="MCTS iterations of the 'hint' command.")
@click.option("--width", type=click.IntRange(60, 300), default=None,
              help="Board width in characters (default: the terminal's, at most 120).")
def play(opponent, iterations, seconds, seat, seed, record_path, first_game_wonders,
         centred_pawn, hint_iterations, width):
    """Play a game against an agent in the terminal.

    Enter moves by number or by name; type 'help' at the prompt for the commands (moves,
    board, hint, undo, save FILE, quit). The game record is saved at the end.

    \b
    Examples:
      duel play --opponent mcts --iterations 5000 --seat 2
      duel play --opponent greedy --seed 42 --record my-game.json
    """
    import secrets
    from datetime import datetime

    from rich.text import Text

    from duelcore import search
    from duelpy.agents import MCTSAgent
    from duelpy.notation import NotationError, action_name
    from duelpy.records import GameRecord
    from duelpy.render import render

    agent = _opponent(opponent, iterations, seconds)
    if seed is None:
        seed = secrets.randbelow(2**32)
    if record_path is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        record_path = Path(f"duel-game-{seed}-{stamp}.json")
    _check_writable(record_path, "--record")
    human = seat - 1
    names = ["you", agent.name] if human == 0 else [agent.name, "you"]
    rec, state = GameRecord.start(seed, players=names, first_game_wonders=first_game_wonders,
                                  centred_pawn=centred_pawn)
    agent.reset(search.agent_seed(seed, 1 - human))
    hinter = MCTSAgent(iterations=hint_iterations, seed=seed)
    history = [state.clone()]                     # history[k]: the position before move k+1
    console = _console(width)
    bw = _board_width(console, width)
    me = f"P{seat}"
    console.print(Text(f"7 Wonders Duel — you are {me}, against {agent.name}. Seed {seed}.",
                       style="bold"))
    console.print(f"The game record will be saved to {record_path}. Type 'help' for commands.")

    def save_record(path):
        try:
            rec.save(path)
        except OSError as e:
            click.echo(f"cannot save the game record to {path}: {e.strerror or _one_line(e)}",
                       err=True)
            return False
        return True

    show = True
    quit_early = False
    while not state.is_terminal():
        p = state.current_player()
        if p != human:
            try:
                a = agent.select_action(state)
            except KeyboardInterrupt:
                click.echo("\n(interrupted)")
                quit_early = True
                break
            rec.play(state, a)
            history.append(state.clone())
            console.print(Text(f"P{p + 1} ({agent.name}) plays: {action_name(a)}",
                               style="bold magenta"))
            show = True
            continue
        if show:
            console.print(render(state, width=bw))
            _print_moves(console, state)
            show = False
        try:
            line = click.prompt(f"{me}", default="", show_default=False, prompt_suffix="> ")
        except click.exceptions.Abort:
            click.echo("\n(end of input)")
            quit_early = True
            break
        line = line.strip()
        word, _, arg = line.partition(" ")
        word = word.lower()
        if not line:
            continue
        if word in ("help", "?"):
            click.echo(_PLAY_HELP)
        elif word in ("board", "b"):
            console.print(render(state, width=bw))
        elif word in ("moves", "m", "list"):
            _print_moves(console, state)
        elif word == "hint":
            res = hinter.search(state)
            total = max(1, sum(res["visits"]))
            ranked = sorted(zip(res["actions"], res["visits"], res["values"]),
                            key=lambda r: -r[1])
            click.echo(f"MCTS ({res['iterations']} iterations) would play: "
                       f"{action_name(res['action'])}")
            for a, n, v in ranked[:5]:
                click.echo(f"  {100 * n / total:5.1f}% of visits  win rate {100 * v:3.0f}%  "
                           f"{a:>4}  {action_name(a)}")
        elif word == "undo":
            mine = [k for k in range(len(rec.moves)) if history[k].current_player() == human]
            if not mine:
                click.echo("nothing to undo: you have not made a decision yet")
                continue
            k = mine[-1]
            rec.truncate(k)
            del history[k + 1:]
            state = history[k].clone()
            click.echo(f"undone: back to your decision before move {k + 1}")
            show = True
        elif word == "save":
            if not arg.strip():
                click.echo("save needs a file name: save my-game.json", err=True)
            elif save_record(Path(arg.strip())):
                click.echo(f"game saved to {arg.strip()}")
        elif word in ("quit", "exit", "q"):
            quit_early = True
            break
        else:
            try:
                from duelpy.notation import parse_action
                a = parse_action(state, line)
            except NotationError as e:
                click.echo(f"{_one_line(e)} (type 'moves' for the list, 'help' for commands)",
                           err=True)
                continue
            rec.play(state, a)
            history.append(state.clone())
            click.echo(f"{me} (you) play: {action_name(a)}")
    if state.is_terminal():
        console.print(render(state, width=bw))
        res = state.result()
        console.print(_vp_table(res))
        verdict = ("You win!" if res["winner"] == human else
                   "Shared victory." if res["winner"] is None else "You lose.")
        console.print(Text(f"{_result_line(res)}. {verdict}", style="bold"))
    elif quit_early:
        click.echo(f"Game stopped after {len(rec.moves)} moves.")
    if not save_record(record_path):
        raise click.exceptions.Exit(1)
    click.echo(f"Game record saved to {record_path} (duel replay {record_path}).")


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

    from duelpy.notation import action_name
    from duelpy.records import DEFAULT_OPTIONS, replay as replay_record
    from duelpy.render import render

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
    from duelpy.notation import action_name
    from duelpy.records import replay as replay_record
    from duelpy.render import render, render_text

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


from duelpy.cli_bench import bench  # noqa: E402
from duelpy.cli_study import study  # noqa: E402
from duelpy.cli_ladder import ladder  # noqa: E402
from duelpy.web.command import serve  # noqa: E402

main.add_command(bench)
main.add_command(study)
main.add_command(ladder)
main.add_command(serve)

if __name__ == "__main__":
    sys.exit(main(prog_name="duel"))
