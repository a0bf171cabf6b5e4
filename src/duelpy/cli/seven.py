"""7 Wonders on the ``duel`` command line.

``duel simulate``, ``duel study``, ``duel bench``, ``duel play`` and ``duel ladder`` take
``--game seven --players N`` (default ``--game duel``): the Duel commands call
:func:`check_game` first and hand the 7 Wonders case to the ``*_seven`` functions here.
``duel seven watch`` (agents play one game, optionally recorded) and ``duel seven replay``
are the two commands only 7 Wonders has.

Every user error is one line on stderr (``Error: ...``, via the ``duel`` group) and a
non-zero exit status: a player count outside 2..7, ``--players`` with ``--game duel``, an
unknown game, an agent 7 Wonders does not have, a Duel-only flag with ``--game seven`` or a
7 Wonders flag with ``--game duel``.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click
from click.core import ParameterSource

from duelpy.cli.common import EXIT_INTERRUPTED, console, one_line

PLAYERS = click.IntRange(2, 7)
DEFAULT_PLAYERS = 4
GAME_HELP = ("duel: 7 Wonders Duel (2 players); seven: 7 Wonders, the base game (--players N).")
PLAYERS_HELP = ("With --game seven: the number of players, 3-7, or 2 for the Free City "
                "variant [4].")
AGENTS_HELP = ("With --game seven: one agent for every player, or one per player, "
               "comma-separated: random, greedy, mcts[:ITERATIONS[:C]] or "
               "mcts:iterations=N,c=C.")


# ---------------------------------------------------------------- options and dispatch
def game_options(f):
    """``--game`` and ``--players`` for a Duel command."""
    f = click.option("--players", type=PLAYERS, default=None, metavar="N",
                     help=PLAYERS_HELP)(f)
    f = click.option("--game", type=click.Choice(["duel", "seven"], case_sensitive=False),
                     default="duel", show_default=True, help=GAME_HELP)(f)
    return f


def agents_option(default_text: str):
    """``--agents`` (7 Wonders only)."""
    return click.option("--agents", "-a", "seven_agents", default=None, metavar="AGENTS",
                        help=AGENTS_HELP + f" [{default_text}]")


SIDES = click.Choice(["random", "A", "B"], case_sensitive=False)


def setup_options(f):
    """``--sides`` and ``--remove`` (7 Wonders only): the set-up of every game."""
    f = click.option("--remove", "remove", multiple=True, metavar="CARD[,CARD]",
                     help="With --game seven: leave these cards out of the game (a removed "
                          "Age card's copies are replaced by spare copies of its Age).")(f)
    f = click.option("--sides", type=SIDES, default=None,
                     help="With --game seven: wonder sides, random (the rules) or all A or "
                          "all B [random].")(f)
    return f


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                              ParameterSource.ENVIRONMENT)


def _flag(ctx: click.Context, name: str) -> str:
    for p in ctx.command.params:
        if p.name == name:
            return max(p.opts, key=len)
    return f"--{name.replace('_', '-')}"


def check_game(ctx: click.Context, game: str, players, seven_only=(), duel_only=()):
    """The player count for ``game`` (None for Duel), or a one-line UsageError:
    ``--players`` or a 7 Wonders flag (``seven_only``, parameter names) with ``--game
    duel``, a Duel-only flag (``duel_only``) with ``--game seven``."""
    game = game.lower()
    if game == "duel":
        if players is not None:
            raise click.UsageError("--players is for --game seven: 7 Wonders Duel is a "
                                   "2-player game", ctx=ctx)
        for name in seven_only:
            if _given(ctx, name):
                raise click.UsageError(f"{_flag(ctx, name)} is for --game seven", ctx=ctx)
        return None
    for name in duel_only:
        if _given(ctx, name):
            raise click.UsageError(f"{_flag(ctx, name)} is a 7 Wonders Duel option; it does "
                                   f"not apply to --game seven", ctx=ctx)
    return DEFAULT_PLAYERS if players is None else players


def _agents(text, players: int, hint: str = "--agents") -> list[str]:
    from duelpy.seven.agents import SevenAgentError, lineup
    try:
        return lineup(text, players)
    except SevenAgentError as e:
        raise click.BadParameter(str(e), param_hint=hint) from None


def _arm(hint: str, **kw):
    from duelpy.seven.study import Arm
    try:
        return Arm.make(**kw)
    except ValueError as e:
        raise click.BadParameter(one_line(e), param_hint=hint) from None


def _check_arm(arm, players: int, hint: str):
    try:
        arm.setup(players)
    except ValueError as e:
        raise click.BadParameter(one_line(e), param_hint=hint) from None


def _removals(values) -> list[list[str]]:
    """``--remove`` values: each one arm (or one set-up), cards separated by commas."""
    return [[c.strip() for c in v.split(",") if c.strip()] for v in values]


class _Progress:
    """A rich progress bar on stderr (nothing when disabled)."""

    def __init__(self, total: int, enabled: bool, what: str = "games"):
        self.bar = None
        if enabled and total > 0:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self.bar = Progress(TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                console=console(stderr=True), transient=False)
            self.task = self.bar.add_task(what, total=total)

    def __enter__(self):
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done)


def _interrupted(what: str):
    click.echo(f"\n{what}: interrupted, nothing written", err=True)
    sys.exit(EXIT_INTERRUPTED)


def _print_rows(con, head, rows, title=""):
    from duelpy.base.tables import Column, print_table
    left = {"board", "side", "seat", "agent", "arm"}
    keys = 0                # the leading key columns (board, side...) repeat in every part
    while keys < len(head) and head[keys] in left:
        keys += 1
    print_table(con, [Column(h, [r[i] for r in rows], "left" if h in left else "right")
                      for i, h in enumerate(head)], title=title, keys=max(keys, 1))


# ---------------------------------------------------------------- simulate
def simulate_seven(players, agents, games, seed, jobs, sides, remove, out, overwrite, quiet):
    """``duel simulate --game seven``: GAMES games, a table per seat (and per agent)."""
    from duelpy.base.output import OutputError, TableWriter
    from duelpy.seven.study import display_rows, games_frame, summarise
    lineup = _agents(agents or "random", players)
    arm = _arm("--remove", sides=sides, remove=(_removals(remove) or [[]])[0])
    if len(remove) > 1:
        raise click.BadParameter("give one --remove (cards separated by commas); a study "
                                 "compares several", param_hint="--remove")
    _check_arm(arm, players, "--remove" if remove else "--sides")
    writer = None
    if out is not None:
        try:
            writer = TableWriter(out, overwrite=overwrite)
        except OutputError as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
    t0 = time.perf_counter()
    try:
        with _Progress(games, not quiet) as bar:
            frame = games_frame(players, lineup, games, seed, jobs=jobs, progress=bar,
                                **arm.setup(players))
    except KeyboardInterrupt:
        if writer is not None:
            writer.abort()
        _interrupted("duel simulate")
    seconds = time.perf_counter() - t0
    if writer is not None:
        try:
            writer.write(frame.set_index("game"))
            writer.close()
        except (OSError, ValueError) as e:
            writer.abort()
            raise click.ClickException(f"cannot write {out}: {one_line(e)}") from None
    if quiet:
        return
    con = console()
    variant = " (Free City variant)" if players == 2 else ""
    con.print(f"{games:,} games of 7 Wonders, {players} players{variant}: "
              f"{', '.join(lineup)}", highlight=False)
    setup = [f"sides {sides}" if sides not in (None, "random") else "",
             f"without {', '.join(arm.remove)}" if arm.remove else ""]
    con.print(f"seed {seed}" + "".join(f", {s}" for s in setup if s)
              + f"; {seconds:.2f} s, {games / max(seconds, 1e-9):,.0f} games/s", highlight=False)
    head, rows = display_rows(summarise(frame, ["seat"]), "seat")
    head.insert(1, "agent")
    for r, seat in zip(rows, range(players)):
        r.insert(1, lineup[seat])
    _print_rows(con, head, rows, "Win rate by seat (a shared win counts 1/k; 95% intervals)")
    if len(set(lineup)) > 1:
        head, rows = display_rows(summarise(frame, ["agent"]), "agent")
        _print_rows(con, head, rows, "Win rate by agent")
    if writer is not None:
        console(stderr=True).print(f"wrote {len(frame):,} rows (one per game and seat) to "
                                   f"{out}", highlight=False)


# ---------------------------------------------------------------- study
def study_seven(players, agents, games, seed, jobs, name, sides, force_sides, force_wonders,
                remove, out_dir, overwrite, csv, quiet):
    """``duel study --game seven``: the control arm and one arm per treatment, on the same
    seeds; the report (tables by board and side, side, seat; changes by seat) is printed
    and, with --out, written as report.md with the games (games.parquet)."""
    from duelpy.seven.study import (TITLES, display_rows, report_markdown, run_study,
                                    study_tables)
    lineup = _agents(agents or "greedy", players)
    arms = []
    for s in force_sides:
        arms.append(_arm("--force-side", sides=s))
    for text in force_wonders:
        seat, board = _forced_seven(text, players)
        arms.append(_arm("--force-wonder", boards={seat: board}))
    for cards in _removals(remove):
        arms.append(_arm("--remove", remove=cards))
    for arm, hint in zip(arms, ["--force-side"] * len(force_sides)
                         + ["--force-wonder"] * len(force_wonders)
                         + ["--remove"] * len(remove)):
        _check_arm(arm, players, hint)
    control = _arm("--sides", name="Control", sides=sides)
    names = [control.name] + [a.name for a in arms]
    if len(set(names)) != len(names):
        raise click.UsageError("two treatments are the same")
    if out_dir is not None:
        out_dir = Path(out_dir)
        if out_dir.exists() and not out_dir.is_dir():
            raise click.BadParameter(f"{out_dir} is a file", param_hint="--out")
        if (out_dir / "report.md").exists() and not overwrite:
            raise click.BadParameter(f"{out_dir} already holds a study: pass --overwrite to "
                                     f"replace it", param_hint="--out")
    total = games * (1 + len(arms))
    try:
        with _Progress(total, not quiet) as bar:
            frame = run_study(players, lineup, games, seed, arms=[control] + arms,
                              control=False, jobs=jobs, progress=bar)
    except KeyboardInterrupt:
        _interrupted("duel study")
    command = _command_line()
    md = report_markdown(frame, players, lineup, seed, command=command)
    if name:
        md = md.replace("# 7 Wonders study", f"# {name}", 1)
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            frame.to_parquet(out_dir / "games.parquet", index=False)
            if csv:
                frame.to_csv(out_dir / "games.csv", index=False)
            (out_dir / "report.md").write_text(md, encoding="utf-8")
        except OSError as e:
            raise click.ClickException(f"cannot write {out_dir}: {one_line(e)}") from None
    if quiet:
        return
    con = console()
    con.print(f"[bold]{name or '7 Wonders study'}[/]: {players} players, "
              f"{', '.join(lineup)}, {games:,} games per arm, seed {seed}", highlight=False)
    for arm, tables in study_tables(frame).items():
        con.print(f"\n[bold underline]{arm}[/]", highlight=False)
        for kind, t in tables.items():
            head, rows = display_rows(t, kind)
            _print_rows(con, head, rows, TITLES[kind])
    if out_dir is not None:
        written = ["games.parquet"] + (["games.csv"] if csv else []) + ["report.md"]
        console(stderr=True).print(f"wrote {len(frame):,} rows to {out_dir}: "
                                   f"{', '.join(written)}", highlight=False)


def _forced_seven(text: str, players: int):
    """``p1=Rhodos B`` (or ``Rhodos B``: seat P1) as (seat index, board text)."""
    seat_text, eq, board = text.partition("=")
    if not eq:
        seat_text, board = "p1", text
    seat_text = seat_text.strip().lower().lstrip("p")
    if not seat_text.isdigit() or not 1 <= int(seat_text) <= players:
        raise click.BadParameter(f"{text!r}: write the seat and the wonder, e.g. "
                                 f"'p1=Rhodos B' (seats p1..p{players})",
                                 param_hint="--force-wonder")
    return int(seat_text) - 1, board.strip()


def _command_line() -> str:
    import shlex
    return "duel " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else ""


# ---------------------------------------------------------------- bench
def bench_seven(players, games, iterations, repeat, jobs):
    """``duel bench --game seven``: random games/s and MCTS iterations/s on one core, the
    state size and the signature of 10,000 games from a fixed seed."""
    import statistics
    from concurrent.futures import ThreadPoolExecutor

    from rich.table import Table

    from duelcore import seven as core
    from duelpy.cli.bench import _measure
    seed = 20261130
    console(stderr=True).print(f"duel bench --game seven: {repeat} runs of {games:,} random "
                               f"{players}-player games and {iterations:,} MCTS iterations "
                               f"(Ctrl-C stops)", highlight=False)
    sig = _measure(core.random_games, players, 10_000, seed)
    runs = [_measure(core.random_games, players, games, seed + k) for k in range(repeat)]
    mcts = [_measure(core.mcts_speed, players, iterations, k) for k in range(repeat)]
    med = statistics.median
    table = Table(title=f"duel bench --game seven --players {players} (median of {repeat})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("random games / s (1 core)",
                  f"{med([r['games'] / r['seconds'] for r in runs]):,.0f}")
    table.add_row("decisions / s (1 core)",
                  f"{med([r['moves'] / r['seconds'] for r in runs]):,.0f}")
    table.add_row("MCTS iterations / s (first decision of a game)", f"{med(mcts):,.0f}")
    table.add_row("state size (bytes)", str(core.state_size()))
    if jobs > 1:
        def multi(k):
            per = max(1, games // jobs)
            t0 = time.perf_counter()
            with ThreadPoolExecutor(jobs) as pool:
                list(pool.map(lambda j: core.random_games(players, per, seed + 1000 * k + j),
                              range(jobs)))
            return per * jobs / (time.perf_counter() - t0)
        rate = med([_measure(multi, k) for k in range(repeat)])
        single = med([r['games'] / r['seconds'] for r in runs])
        table.add_row(f"random games / s ({jobs} workers)", f"{rate:,.0f} ({rate / single:.2f}x)")
    table.add_row(f"signature (10,000 games, seed {seed})", str(sig["signature"]))
    console().print(table)


# ---------------------------------------------------------------- play
_PLAY_HELP = """\
Type a move by its number or its name ('build lumber yard', 'stage altar', 'discard baths';
a part of the name is enough when it names one legal move). Commands:
  moves      list your legal moves
  board      show the position (your hand only)
  quit       stop; the record is saved
  help       this text"""


def _match_action(state, seat: int, line: str):
    """The legal action of ``seat`` that ``line`` names (a number from the list, the whole
    text, or a part naming one action); raises ValueError with the reason."""
    from duelcore import seven as core
    legal = state.legal_actions(seat)
    if line.isdigit():
        k = int(line)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise ValueError(f"{k} is not a move number: your moves are 1 to {len(legal)}")
    text = " ".join(line.lower().split())
    names = [core.action_to_string(a).lower() for a in legal]
    exact = [a for a, n in zip(legal, names) if n == text]
    if exact:
        return exact[0]
    words = text.split()
    hits = [a for a, n in zip(legal, names) if all(w in n for w in words)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = ", ".join(core.action_to_string(a) for a in hits[:4])
        raise ValueError(f"{line!r} names {len(hits)} moves ({shown}{', ...' * (len(hits) > 4)})"
                         f": say which")
    raise ValueError(f"{line!r} is not one of your legal moves")


def _print_moves(con, state, seat):
    from rich.columns import Columns
    from rich.text import Text

    from duelcore import seven as core
    legal = state.legal_actions(seat)
    who = "the Free City's" if state.players == 2 and seat == 2 else "your"
    con.print(Text(f"Choose {who} move (a number or a name):", style="bold"))
    con.print(Columns([Text(f"{k:>3}  {core.action_to_string(a)}")
                       for k, a in enumerate(legal, 1)], padding=(0, 3), column_first=True))


def _public_changes(before, after, seats, skip) -> list[str]:
    """What everyone saw a seat do in the last turn (W-INFO-1): the card it built, a stage,
    or a discard; with coins."""
    lines = []
    for i in range(seats):
        if i in skip:
            continue
        new = [c for c in after.city(i) if c not in before.city(i)]
        st0, st1 = before.board(i)[2], after.board(i)[2]
        parts = [f"built {', '.join(new)}"] if new else []
        if st1 > st0:
            parts.append(f"built stage {st1}")
        if not parts:
            parts.append("discarded a card")
        name = "Free City" if after.players == 2 and i == 2 else f"P{i + 1}"
        lines.append(f"{name}: {'; '.join(parts)} (coins {before.coins(i)} -> "
                     f"{after.coins(i)})")
    return lines


def play_seven(players, opponent, iterations, seat, seed, record_path, overwrite, ctx):
    """``duel play --game seven``: you hold one seat, agents the others (``--opponent``:
    one agent for all, or one per other player; default mcts, 1,000 iterations)."""
    import secrets
    from datetime import datetime

    from rich.text import Text

    from duelcore import seven as core
    from duelpy.base.output import OutputError, check_new_file
    from duelpy.seven import new_game, record_of, render_text, save_record

    if seat > players:
        raise click.BadParameter(f"{seat} is not a seat of a {players}-player game (1 to "
                                 f"{players})", param_hint="--seat")
    from duelpy.seven.agents import SevenAgentError, lineup, split_agents, with_iterations
    text = opponent if _given(ctx, "opponent") else "mcts"
    try:
        others = lineup([with_iterations(a, iterations) for a in split_agents(text)],
                        players - 1)
    except SevenAgentError as e:
        raise click.BadParameter(str(e), param_hint="--opponent") from None
    if iterations is not None and not any(a.startswith("mcts") for a in others):
        raise click.BadParameter(f"--iterations applies to searching agents only (mcts), not "
                                 f"{', '.join(sorted(set(others)))}", param_hint="--opponent")
    human = seat - 1
    agents = others[:human] + ["you"] + others[human:]
    if seed is None:
        seed = secrets.randbelow(2**32)
    if record_path is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        record_path = Path(f"seven-game-{seed}-{stamp}.json")
    try:
        check_new_file(record_path, overwrite)
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint="--record") from None
    con = console()
    state = new_game(players, seed=seed)
    moves: list = []
    variant = " (Free City variant: you also play the Free City on the turns you control it)" \
        if players == 2 else ""
    con.print(Text(f"7 Wonders, {players} players{variant} — you are P{seat}, against "
                   f"{', '.join(a for a in agents if a != 'you')}. Seed {seed}.", style="bold"))
    con.print(f"The game record will be saved to {record_path}. Type 'help' for commands; "
              f"Ctrl-C stops the game.", highlight=False)
    stopped = None
    k = 0
    try:
        while not state.is_terminal():
            start = state.clone()
            for s in state.pending_seats():
                if state.decider(s) != human:
                    k += 1
                    a = core.choose_action(state, s, agents[state.decider(s)],
                                           seed * 1_000_003 + k)
                    state.apply_action(a, s)
                    moves.append((s, a))
                    continue
                con.print(render_text(state, seat=human), highlight=False)
                _print_moves(con, state, s)
                while True:
                    try:
                        line = click.prompt(f"P{seat}", default="", show_default=False,
                                            prompt_suffix="> ").strip()
                    except click.exceptions.Abort as e:
                        stopped = ("Ctrl-C" if isinstance(e.__context__, KeyboardInterrupt)
                                   else "end of input")
                        click.echo()
                        break
                    word = line.lower()
                    if not line:
                        continue
                    if word in ("help", "?"):
                        click.echo(_PLAY_HELP)
                    elif word in ("board", "b"):
                        con.print(render_text(state, seat=human), highlight=False)
                    elif word in ("moves", "m", "list"):
                        _print_moves(con, state, s)
                    elif word in ("quit", "exit", "q"):
                        stopped = "quit"
                        break
                    else:
                        try:
                            a = _match_action(state, s, line)
                        except ValueError as e:
                            click.echo(f"{one_line(e)} (type 'moves' for the list, 'help' for "
                                       f"commands)", err=True)
                            continue
                        state.apply_action(a, s)
                        moves.append((s, a))
                        click.echo(f"you play: {core.action_to_string(a)}")
                        break
                if stopped:
                    break
            if stopped:
                break
            if state.phase != start.phase or state.turn != start.turn or state.age != start.age:
                for line in _public_changes(start, state, state.seats, skip={human}):
                    con.print(f"  {line}", highlight=False)
    except KeyboardInterrupt:
        stopped = "Ctrl-C"
        click.echo()
    if state.is_terminal():
        from duelpy.seven import result
        con.print(render_text(state), highlight=False)
        res = result(state)
        verdict = ("You win!" if res["winners"] == [human] else
                   "Shared victory." if human in res["winners"] else "You lose.")
        con.print(Text(f"Scores: {', '.join(str(s['total']) for s in res['scores'][:players])}"
                       f" VP. {verdict}", style="bold"))
    else:
        click.echo(f"Game stopped ({stopped}) after {len(moves)} moves.")
    if not moves:
        click.echo("No move was played: no game record written.")
    else:
        try:
            save_record(record_path, record_of(players, seed, moves, state=state))
        except OSError as e:
            raise click.ClickException(f"cannot save the game record to {record_path}: "
                                       f"{e.strerror or one_line(e)}") from None
        click.echo(f"Game record saved to {record_path} (duel seven replay {record_path}).")
    if stopped == "Ctrl-C":
        sys.exit(EXIT_INTERRUPTED)


# ---------------------------------------------------------------- ladder
def ladder_seven(players, agents, games, seed, iterations, jobs, out_dir, overwrite, anchor,
                 no_plot, quiet):
    """``duel ladder --game seven``: GAMES N-player games over rotated line-ups, rated by
    Bradley–Terry over who finished ahead (see :mod:`duelpy.seven.ladder`)."""
    from rich.console import Console

    from duelpy.ladder.run import LadderError, print_ladder, write_plot
    from duelpy.seven.agents import SevenAgentError
    from duelpy.seven.ladder import agent_table, check_agents, play_ladder, rate
    if not agents:
        raise click.UsageError("name at least 2 agents, e.g. 'duel ladder --game seven "
                               "--players 4 random greedy mcts:200 --games 40'")
    try:
        names = check_agents(agents, iterations)
    except SevenAgentError as e:
        raise click.BadParameter(str(e), param_hint="AGENT") from None
    if games is None:
        raise click.UsageError("give the number of games: --games N (each an N-player game)")
    if out_dir is not None:
        out_dir = Path(out_dir)
        if out_dir.exists() and not out_dir.is_dir():
            raise click.BadParameter(f"{out_dir} is a file", param_hint="--out")
        if (out_dir / "ladder.md").exists() and not overwrite:
            raise click.BadParameter(f"{out_dir} already holds a ladder: pass --overwrite to "
                                     f"replace it", param_hint="--out")
    try:
        with _Progress(games, not quiet) as bar:
            frame = play_ladder(players, names, games, seed, jobs=jobs, progress=bar)
    except KeyboardInterrupt:
        _interrupted("duel ladder")
    try:
        ratings, h2h, pw = rate(frame, names, anchor=anchor)
    except LadderError as e:
        raise click.BadParameter(str(e), param_hint="--anchor") from None
    except ValueError as e:
        raise click.ClickException(f"cannot rate these games: {one_line(e)}") from None
    ratings.attrs["anchor"] = ratings.attrs.get("anchor", "")
    table = agent_table(frame, names)
    if out_dir is not None:
        from duelpy.ladder.run import to_markdown
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            frame.to_parquet(out_dir / "games.parquet", index=False)
            pw.to_parquet(out_dir / "pairwise.parquet", index=False)
            ratings.to_csv(out_dir / "ratings.csv", index=False)
            h2h.to_csv(out_dir / "head_to_head.csv", index=False)
            md = to_markdown(ratings, h2h, command=_command_line())
            md = md.replace("# Rating ladder", f"# Rating ladder: 7 Wonders, {players} "
                                               f"players, {games:,} games", 1)
            (out_dir / "ladder.md").write_text(md + "\n" + _agent_md(table), encoding="utf-8")
            if not no_plot:
                write_plot(ratings, h2h, out_dir / "ladder.png")
        except OSError as e:
            raise click.ClickException(f"cannot write {out_dir}: {one_line(e)}") from None
    if quiet:
        return
    con = Console()
    con.print(f"7 Wonders ladder: {players} players, {games:,} games, seed {seed}; seat s of "
              f"game g holds agent (g + s) mod {len(names)}", highlight=False)
    print_ladder(ratings, h2h, con)
    head = ["agent", "seats", "win rate", "95% interval", "mean VP", "mean place"]
    rows = [[r.agent, f"{r.seats:,}", f"{100 * r.win_rate:.1f}%",
             f"{100 * r.ci_low:.1f}%–{100 * r.ci_high:.1f}%", f"{r.mean_vp:.1f}",
             f"{r.mean_place:.2f}"] for r in table.itertuples()]
    _print_rows(con, head, rows, "Game results (a shared win counts 1/k)")
    con.print("In the ratings and head to head, games and W-S-L count pairwise comparisons "
              "(two seats of different agents in one game).", highlight=False)
    if out_dir is not None:
        written = ["games.parquet", "pairwise.parquet", "ratings.csv", "head_to_head.csv",
                   "ladder.md"] + ([] if no_plot else ["ladder.png"])
        console(stderr=True).print(f"wrote {games:,} games to {out_dir}: "
                                   f"{', '.join(written)}", highlight=False)


def _agent_md(table) -> str:
    lines = ["## Game results", "", "A shared win counts 1/k; 95% Wilson intervals.", "",
             "| agent | seats | win rate | 95% interval | mean VP | mean place |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in table.itertuples():
        lines.append(f"| {r.agent} | {r.seats:,} | {100 * r.win_rate:.1f}% | "
                     f"{100 * r.ci_low:.1f}%–{100 * r.ci_high:.1f}% | {r.mean_vp:.1f} | "
                     f"{r.mean_place:.2f} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- duel seven ...
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def seven():
    """7 Wonders (the base game) commands that 7 Wonders Duel has no equivalent of.

    The others take --game seven: duel simulate, study, bench, play and ladder.

    \b
    Examples:
      duel seven watch --players 4 --agents mcts:1000,greedy,greedy,greedy --record g.json
      duel seven replay g.json
      duel simulate --game seven --players 5 --agents greedy --games 2000
    """


@seven.command()
@click.option("--players", "-n", type=PLAYERS, default=DEFAULT_PLAYERS, show_default=True,
              help="Players (2 = the Free City variant).")
@click.option("--agents", "-a", default="greedy", show_default=True,
              help=AGENTS_HELP.replace("With --game seven: one", "One"))
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True)
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game record (JSON) here.")
@click.option("--overwrite", is_flag=True, help="Replace an existing --record file.")
def watch(players, agents, seed, record, overwrite):
    """Agents play one game; print the final position and the scores.

    \b
    Example:
      duel seven watch -n 4 -a mcts:1000,greedy,greedy,greedy --record game.json
    """
    from duelpy.seven import play_game, record_of, render_text, save_record
    if record is not None and record.exists() and not overwrite:
        raise click.BadParameter(f"{record} exists; give --overwrite to replace it",
                                 param_hint="--record")
    st, moves = play_game(players, _agents(agents, players), seed=seed)
    click.echo(render_text(st))
    if record is not None:
        try:
            save_record(record, record_of(players, seed, moves, state=st))
        except OSError as e:
            raise click.ClickException(f"cannot write {record}: {e.strerror}") from None


@seven.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def replay(file):
    """Replay a 7 Wonders game record (checked move by move) and print the final position.

    \b
    Example:
      duel seven replay game.json
    """
    from duelpy.seven import RecordError, load_record, render_text, replay as replay_record
    try:
        st = replay_record(load_record(file))
    except RecordError as e:
        raise click.ClickException(one_line(e)) from None
    click.echo(render_text(st))
