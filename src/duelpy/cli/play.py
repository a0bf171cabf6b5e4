"""``duel play``: a game against an agent in the terminal.

Registered in :mod:`duelpy.cli.main`.  Whenever a decision is yours the board is drawn again,
with why it is yours (a draft pick, a new Age, who begins the next Age, Play Again, a
progress token, a card to destroy or revive) and your legal moves.  While the opponent
searches, a "thinking…" line shows its iterations and the move it prefers so far
(:mod:`duelpy.duel.thinking`).  Ctrl-C (at the prompt or while the opponent thinks) and the end
of input both stop the game and keep its record, also before any move (a record of no moves,
which replay, show and play --from accept); a record is never written over an existing file
without --overwrite or a yes at the prompt, and a game with no move replaces no file.
"""
from __future__ import annotations

from pathlib import Path

import click
from rich.columns import Columns
from rich.text import Text

from duelcore import ACTION_LAYOUT as L, data, search
from duelpy.base.game import SetupError
from duelpy.base.interrupt import exit_interrupted
from duelpy.base.specs import parse_spec
from duelpy.cli.common import (EXIT_INTERRUPTED, FloatRange, IntRange, board_width, console,
                               free_name, one_line, plural, result_line, seed_and_record,
                               vp_table)
from duelpy.cli.info import explain
from duelpy.cli.options import (flag_of, game_options, given, param_name, resolve_game,
                                setup_flags, setup_values)
from duelpy.cli.play_seven import play_seven
from duelpy.cli.prompt import read_move
from duelpy.cli.records import game_of_record
from duelpy.architects.play import play_architects
from duelpy.duel.agents import AGENT_KINDS, STRONGEST, AgentSpecError, parse_agent
from duelpy.duel.notation import (NUM_DECISION_ACTIONS, action_name,
                                  legal_moves, parse_action)
from duelpy.duel.records import GameRecord, RecordError, load, replay
from duelpy.duel.render import render
from duelpy.duel.thinking import Thinking

_one_line = one_line


def _move_note(state, action) -> str:
    """Cost or gain of a legal move for the player to move, asked of the State."""
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


def match_move(state, line: str) -> int:
    """The legal action that ``line`` names at the prompt: an action id (the number beside a
    move in the list) or a name (:func:`duelpy.duel.notation.parse_action`).  A number that
    is not one of the legal ids is refused with them (Duel does not number its moves 1 to
    N, as the seat games do).  Raises ValueError with the reason."""
    try:
        return parse_action(state, line)
    except ValueError as e:
        text = line.strip().lstrip("#")
        if not text.isdigit():
            raise
        ids = [a for a, _ in legal_moves(state)]
        shown = ", ".join(map(str, ids[:8])) + (", ..." if len(ids) > 8 else "")
        raise ValueError(f"{one_line(e)}; the numbers of your moves are the action ids in "
                         f"the list ({shown}), not 1 to {len(ids)}") from None


def _print_moves(console, state):
    items = []
    for a, name in legal_moves(state):
        note = _move_note(state, a)
        t = Text(f"{a:>4}  {name}")
        if note:
            t.append(f" ({note})", style="dim")
        items.append(t)
    console.print(Text("Your moves (type the number beside a move, its action id, or its "
                       "name):", style="bold"))
    console.print(Columns(items, padding=(0, 3), column_first=True))


_PLAY_HELP = """\
Type a move by the number beside it in the list or by its name: 12, build Lumber Yard,
'wonder Pyramids with Altar', 'discard altar', 'token Law', 'pick Sphinx', 'start P2'.
The numbers are the moves' action ids (the same in every position, in hints and in game
records), not 1 to N as in 7 Wonders and Architects. A shorter name is enough when it names
one legal move. Commands:
  moves      list your legal moves with their costs
  board      show the board
  hint       what the strongest search would play here, with its visit shares
  undo       take back your previous decision (and the opponent's replies)
  save FILE  save the game so far as a record (JSON)
  info NAME  what a card, wonder or progress token does
  quit       stop; the record is saved (also with no move played)
  help       this text"""


def _opponent(opponent: str, iterations, seconds):
    """The opponent of ``duel play``: ``--opponent`` with the budget flags (which must not
    repeat or contradict the description's own budget); MCTS gets 5000 iterations unless
    told otherwise."""
    def bad(msg):
        return click.BadParameter(msg, param_hint="--opponent")

    try:
        kind, opts = parse_spec(opponent, AGENT_KINDS, "agent", AgentSpecError)
    except AgentSpecError as e:
        raise bad(str(e)) from None
    flags = {k: v for k, v in (("iterations", iterations), ("seconds", seconds))
             if v is not None}
    if len(flags) == 2:
        raise click.UsageError("--iterations and --seconds: give one budget, not both")
    budget = [k for k in ("iterations", "seconds") if k in opts]
    if flags:
        if "iterations" not in kind.option_names:
            searchers = [k for k, v in AGENT_KINDS.items() if "iterations" in v.option_names]
            raise bad(f"--iterations and --seconds apply to searching agents only "
                      f"({', '.join(searchers)}), not {kind.name}")
        (flag, value), = flags.items()
        if budget:
            raise bad(f"--{flag} {value} conflicts with {budget[0]}={opts[budget[0]]} in "
                      f"'{opponent.strip()}': give the budget once")
        opts[flag] = value
    elif "iterations" in kind.option_names and not budget:
        opts["iterations"] = 5000
    try:
        return kind.make(**opts)
    except AgentSpecError as e:
        raise bad(str(e)) from None


_ROMAN = {1: "I", 2: "II", 3: "III"}


def why_yours(state, before, last_action, human: int) -> str:
    """Why the decision at ``state`` is ``human``'s, in a sentence.

    ``before`` is the position before the last move (None at the start) and
    ``last_action`` that move.
    """
    d = state.to_dict()
    phase = state.phase
    again = before is not None and before.current_player() == human
    if phase == "draft":
        picks = d["draft"]["picks"]
        group, j = picks // 4 + 1, picks % 4
        what = {0: "you pick first from these four wonders",
                1: "you pick two wonders in a row: this is the first",
                2: "your second pick in a row",
                3: "the last wonder of this group is yours"}[j]
        return f"Wonder draft, group {group} of 2: {what}."
    if phase == "choose_start":
        age = state.age
        if (state.pawn < 0 and human == 0) or (state.pawn > 0 and human == 1):
            why = "the Conflict pawn is on your side (the weaker military)"
        else:
            why = f"the Conflict pawn is centred and you took the last card of Age " \
                  f"{_ROMAN.get(age - 1, age - 1)}"
        return f"End of Age {_ROMAN.get(age - 1, age - 1)}: {why}, so you choose who begins " \
               f"Age {_ROMAN.get(age, age)}."
    if phase == "choose_token":
        return "You have a pair of identical scientific symbols: choose a progress token " \
               "from the board."
    if phase == "library":
        return "The Great Library: choose one of the progress tokens drawn for you."
    if phase == "destroy":
        colour = d.get("destroy_colour") or ""
        return f"{_built_wonder(last_action) or action_name(last_action)}: choose one of your " \
               f"opponent's {colour} cards to put in the discard pile."
    if phase == "revive":
        return "The Mausoleum: choose a card from the discard pile to build for free."
    if phase == "play":
        if before is None or before.age != state.age or before.phase == "choose_start":
            chooser = d.get("chooser")
            by = "" if chooser in (None, -1) or state.age == 1 else \
                (" (you chose to)" if chooser == human else " (your opponent chose)")
            return f"Age {_ROMAN.get(state.age, state.age)} begins: you begin{by}."
        if again:
            return "Play Again: it is your turn again."
        return "Your turn: take a card to build it, discard it for coins, or build a wonder " \
               "with it."
    return "Your decision."


def _built_wonder(action) -> str:
    """'You built The Statue of Zeus' for a wonder action, else ''."""
    if action is not None and L["WONDER_BASE"] <= action < L["TOKEN_BASE"]:
        return f"You built {data.WONDER_NAMES[(action - L['WONDER_BASE']) // len(data.CARDS)]}"
    return ""


def _thinking_text(th, who: str) -> str:
    p = th.progress()
    text = f"{who} is thinking… {p['seconds']:.1f} s"
    if p["budget"]:
        text += f" (budget {p['budget']:,} iterations)"
    if p["best"] is not None:
        tree = f" of tree 1 of {th.threads}" if th.threads > 1 else ""
        text += f" · best after {p['sample']:,}{tree}: {action_name(p['best'])} " \
                f"({100 * p['share']:.0f}% of visits)"
    return text


def think(con, agent, state, who: str, live: bool) -> int:
    """The agent's action at ``state``, with a "thinking…" line if it takes a while.

    On a terminal the line is live (iterations, best move so far); otherwise it is printed
    once.  KeyboardInterrupt stops the search (the core's stop flag) and is raised again.
    """
    th = Thinking(agent, state, view=live).start()
    try:
        if th.wait(0.3):
            return th.result()
        if not live:
            con.print(f"{who} is thinking… (Ctrl-C stops the game)", highlight=False)
            while not th.wait(0.1):
                pass
        else:
            seat = who.split()[0]                  # "P1": the agent is named above
            with con.status(_thinking_text(th, seat), spinner="dots") as status:
                while not th.wait(0.1):
                    status.update(_thinking_text(th, seat))
        return th.result()
    except KeyboardInterrupt:
        th.stop()
        raise


def _saved_game(path: Path, move: int | None) -> GameRecord:
    """The record to continue, cut after ``move`` (its last by default); click errors name
    a bad file or move."""
    try:
        rec = load(path)
    except (OSError, RecordError) as e:
        msg = one_line(e)
        raise click.BadParameter(msg if msg.startswith(f"{path} ") else f"{path}: {msg}",
                                 param_hint="--from") from None
    n = len(rec.moves)
    k = n if move is None else move
    if k > n:
        raise click.BadParameter(f"{path} has moves 0 to {n}, not {k}", param_hint="--move")
    rec.truncate(k)
    if replay(rec).is_terminal():
        raise click.BadParameter(f"the game of {path} is over after move {k}: nothing to "
                                 f"continue (give an earlier --move)", param_hint="--move")
    return rec


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--opponent", default=STRONGEST, show_default=True, metavar="AGENT",
              help="An agent (duel agents lists them), e.g. greedy or "
                   "mcts:iterations=2000,c=1.2; the default is the strongest.")
@click.option("--iterations", type=IntRange(1, 10**8), default=None,
              help="Search iterations per move of a searching opponent (default 5000).")
@click.option("--seconds", type=FloatRange(0, 3600, min_open=True), default=None,
              help="Thinking time per move of a searching opponent, instead of "
                   "--iterations.")
@click.option("--seat", type=int, default=1, show_default=True,
              help="Your seat: 1 (P1, who begins) or 2; with --game seven or architects 1 "
                   "to N (--players).")
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=None,
              help="Game seed (default: a random one, printed).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None,
              help="The game record's file; by default a new one in the current folder "
                   "named after the game, the seed and the time (the pattern is above; the "
                   "name is printed).")
@click.option("--overwrite", is_flag=True, help="Replace an existing --record file.")
@click.option("--from", "from_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Continue a saved game (a record of duel play, duel watch, "
                                 "save FILE...): its seed, rules and moves; you take --seat.")
@click.option("--move", "-k", "from_move", type=IntRange(0), default=None,
              help="With --from: continue after move K (default: after its last move).")
@click.option("--hint-iterations", type=IntRange(1, 10**7), default=5000,
              show_default=True, help="Search iterations of the 'hint' command.")
@click.option("--width", type=IntRange(60, 300), default=None,
              help="Board width in characters (default: the terminal's, at most 120).")
@setup_flags("play")
@game_options
def play(opponent, iterations, seconds, seat, seed, record_path, overwrite, from_path,
         from_move, hint_iterations, width, game, players, **flags):
    """Play a game against an agent in the terminal.

    Enter a move by the number beside it in the list or by its name; type 'help' at the
    prompt for the commands (moves, board, quit; Duel also hint, undo, save FILE, and Duel
    and 7 Wonders info NAME).  Duel's numbers
    are the moves' action ids (as in hints and records); 7 Wonders and Architects number
    their list 1 to N.  quit, Ctrl-C or the end of input stop the game.

    \b
    The game record is always saved, also when no move was played (a record
    of no moves: duel replay, duel show and duel play --from read it), to
    --record or else to GAME-game-SEED-TIME.json in the current folder, e.g.
    duel-game-42-20261203-181500.json (seven-game-..., architects-game-...).
    It is never written over an existing file without --overwrite, and a
    game with no move replaces no file.

    With --game seven or --game architects: a game with --players N, you in --seat (1 to
    N), every other seat played by --opponent (one agent, or one per other player; default
    mcts with 1,000 iterations, --iterations changes that).

    \b
    Examples:
      duel play --opponent mcts --iterations 5000 --seat 2
      duel play --opponent greedy --seed 42 --record my-game.json
      duel play --game seven --players 4 --opponent greedy,greedy,mcts:500
      duel play --from my-game.json --move 30 --seat 2
    """
    ctx = click.get_current_context()
    g, n = resolve_game(ctx, game, players, "play")
    if from_path is not None:
        found = game_of_record(from_path)    # Duel also when unclear: its loader says why
        if found.name != g.name and found.name != "duel":
            if given(ctx, "game"):
                raise click.BadParameter(f"{from_path} is a {found.title} record, not one of "
                                         f"--game {g.name}", param_hint="--from")
            g, n = resolve_game(ctx, found.name, players, "play")
    if from_move is not None and from_path is None:
        raise click.UsageError("--move is for --from: the saved game to continue")
    if from_path is not None:
        taken = [flag_of(ctx, p) for p in ("seed", "players") if given(ctx, p)]
        taken += [o.flag for o in g.setup_options if given(ctx, param_name(o.flag))]
        if taken:
            raise click.UsageError(f"{taken[0]} comes from the saved game of --from")
    if g.name != "duel":
        for name in ("seconds", "hint_iterations", "width"):
            if given(ctx, name):
                raise click.UsageError(f"--{name.replace('_', '-')} does not apply to "
                                       f"--game {g.name} ({g.title})")
        if g.name == "architects":
            setup = None
            if from_path is None:
                try:
                    setup = g.setup_from_flags("play", setup_values(ctx, g, "play"), n)
                except SetupError as e:
                    raise click.BadParameter(one_line(e), param_hint=e.flag) from None
            return play_architects(n, opponent, iterations, seat, seed, record_path,
                                   overwrite, ctx, setup, from_path, from_move)
        return play_seven(n, opponent, iterations, seat, seed, record_path, overwrite, ctx,
                          from_path, from_move)
    try:
        options = g.setup_from_flags("play", setup_values(ctx, g, "play"), n)
    except SetupError as e:
        raise click.BadParameter(one_line(e), param_hint=e.flag) from None
    if seat not in (1, 2):
        raise click.BadParameter(f"{seat} is not a seat of 7 Wonders Duel (1 or 2)", ctx=ctx,
                                 param_hint="--seat")
    agent = _opponent(opponent, iterations, seconds)
    saved = None if from_path is None else _saved_game(from_path, from_move)
    if saved is not None:
        seed = saved.seed
    seed, record_path = seed_and_record(seed, record_path, overwrite, "duel-game")
    human = seat - 1
    names = ["you", agent.name] if human == 0 else [agent.name, "you"]
    if saved is None:
        rec, state = GameRecord.start(seed, players=names,
                                      first_game_wonders=options["first_game_wonders"],
                                      centred_pawn=options["centred_pawn"])
        history = [state.clone()]                 # history[k]: the position before move k+1
    else:
        rec = GameRecord(seed=saved.seed, options=dict(saved.options), players=names,
                         moves=list(saved.moves))
        history = replay(rec, states=True)
        state = history[-1].clone()
    agent.reset(search.agent_seed(seed, 1 - human))
    hinter = parse_agent(f"{STRONGEST}:iterations={hint_iterations},seed={seed}")
    con = console(width)
    live = con.is_terminal
    bw = board_width(con, width)
    me = f"P{seat}"
    them = f"P{2 - human} ({agent.name})"
    mine: set = set()                              # files this game wrote (may be rewritten)
    con.print(Text(f"7 Wonders Duel — you are {me}, against {agent.name}. Seed {seed}.",
                   style="bold"))
    con.print(f"The game record will be saved to {record_path}. Type 'help' for commands; "
              f"Ctrl-C stops the game.", highlight=False)

    def may_write(path: Path) -> bool:
        """False if ``path`` holds something this game did not write and the user says no."""
        if not path.exists() or path.resolve() in mine:
            return True
        if path.is_dir():
            click.echo(f"{path} is a folder", err=True)
            return False
        try:
            return click.confirm(f"{path} exists: overwrite it?", default=False)
        except click.exceptions.Abort:
            click.echo()
            return False

    def save_record(path: Path) -> bool:
        try:
            rec.save(path, overwrite=True)      # asked first (or a free name)
        except OSError as e:
            click.echo(f"cannot save the game record to {path}: {e.strerror or one_line(e)}",
                       err=True)
            return False
        mine.add(path.resolve())
        return True

    def hint(_arg: str) -> None:
        """The strongest search's advice for this position (Ctrl-C cancels it)."""
        th = Thinking(hinter, state, view=False, call=hinter.search).start()
        try:
            while not th.wait(0.1):
                pass
        except KeyboardInterrupt:
            th.stop()
            click.echo("\nhint cancelled")
            return
        res = th.result()
        total = max(1, sum(res["visits"]))
        ranked = sorted(zip(res["actions"], res["visits"], res["values"]), key=lambda r: -r[1])
        click.echo(f"The {hinter.kind} search ({res['iterations']} iterations) would play: "
                   f"{action_name(res['action'])}")
        for a, n, v in ranked[:5]:
            click.echo(f"  {100 * n / total:5.1f}% of visits  win rate {100 * v:3.0f}%"
                       f"  {a:>4}  {action_name(a)}")

    def undo(_arg: str) -> bool:
        """Back to the position before the human's last decision; True if it moved."""
        nonlocal state
        mine_k = [k for k in range(len(rec.moves)) if history[k].current_player() == human]
        if not mine_k:
            click.echo("nothing to undo: you have not made a decision yet")
            return False
        k = mine_k[-1]
        rec.truncate(k)
        del history[k + 1:]
        state = history[k].clone()
        click.echo(f"undone: back to your decision before move {k + 1}")
        return True

    def save(arg: str) -> None:
        if not arg:
            click.echo("save needs a file name: save my-game.json", err=True)
        elif may_write(Path(arg)) and save_record(Path(arg)):
            click.echo(f"game saved to {arg}")
        elif Path(arg).exists() and Path(arg).resolve() not in mine:
            click.echo(f"not saved: {arg} kept as it was")

    commands = {"info": lambda arg: con.print(explain("duel", arg), highlight=False),
                "hint": hint, "undo": undo, "save": save}
    stopped = None            # "quit", "end of input", "Ctrl-C"
    announce = True
    try:
        while not state.is_terminal():
            p = state.current_player()
            if p != human:
                a = think(con, agent, state, them, live)
                rec.play(state, a)
                history.append(state.clone())
                con.print(Text(f"{them} plays: {action_name(a)}", style="bold magenta"))
                announce = True
                continue
            if announce:
                con.print(render(state, width=bw))
                before = history[-2] if len(history) > 1 else None
                last = rec.moves[-1] if rec.moves else None
                con.print(Text(why_yours(state, before, last, human), style="bold cyan"))
                _print_moves(con, state)
                announce = False
            what, value = read_move(me, _PLAY_HELP, lambda: con.print(render(state, width=bw)),
                                    lambda: _print_moves(con, state),
                                    lambda line: match_move(state, line), commands)
            if what == "stop":
                stopped = value
                break
            if what == "move":
                rec.play(state, value)
                history.append(state.clone())
                click.echo(f"{me} (you) play: {action_name(value)}")
            announce = True
    except KeyboardInterrupt:
        stopped = "Ctrl-C"
        click.echo()
    if state.is_terminal():
        con.print(render(state, width=bw))
        res = state.result()
        con.print(vp_table(res))
        verdict = ("You win!" if res["winner"] == human else
                   "Shared victory." if res["winner"] is None else "You lose.")
        con.print(Text(f"{result_line(res)}. {verdict}", style="bold"))
    else:
        click.echo(f"Game stopped ({stopped}) after {plural(len(rec.moves), 'move')}.")
    if not rec.moves and record_path.exists() and record_path.resolve() not in mine:
        click.echo(f"No move was played: {record_path} kept as it was (a game with no move "
                   f"replaces no file).")
    else:
        target = record_path
        if target.exists() and target.resolve() not in mine and not overwrite:
            target = free_name(record_path)      # appeared during the game: keep it
            click.echo(f"{record_path} appeared during the game; saving to {target} instead")
        if not save_record(target):
            raise click.exceptions.Exit(1)
        click.echo(f"Game record saved to {target} (duel replay {target}).")
    if stopped == "Ctrl-C":
        exit_interrupted(EXIT_INTERRUPTED)

