"""What the ``duel`` commands share: the AGENT parameter type, the rule-option flags,
one-line errors and consoles."""
from __future__ import annotations

import click

from duelpy.duel.agents import AgentSpecError, parse_agent

__all__ = ["AGENT", "one_line", "rule_options", "options_from_flags", "console",
           "board_width", "result_line", "vp_table", "EXIT_INTERRUPTED"]

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


class _AgentType(click.ParamType):
    name = "AGENT"

    def convert(self, value, param, ctx):
        try:
            return parse_agent(value)
        except AgentSpecError as e:
            self.fail(str(e), param, ctx)


AGENT = _AgentType()


def one_line(text) -> str:
    """``text`` with its whitespace (newlines too) collapsed: an error message on one line."""
    return " ".join(str(text).split())


def console(width=None, stderr: bool = False):
    """A rich console (``width`` None: the terminal's, or 80 when piped)."""
    from rich.console import Console
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
    from rich.table import Table
    t = Table(title="Victory points", title_justify="left")
    t.add_column("")
    t.add_column("P1", justify="right")
    t.add_column("P2", justify="right")
    for cat, (a, b) in result["vp"].items():
        t.add_row(cat, str(a), str(b))
    t.add_row("total", str(result["total"][0]), str(result["total"][1]), style="bold")
    return t


def _coins(ctx, param, value):
    if value is None:
        return None
    try:
        a, b = (int(x) for x in value.replace(" ", "").split(","))
    except ValueError:
        raise click.BadParameter(f"{value!r}: write P1's and P2's coins as 7,9") from None
    return [a, b]


def rule_options(f):
    """The rule-option flags of ``duel simulate`` (as the control flags of ``duel study``):
    --centred-pawn, --start-coins, --first-game-wonders, --ban-token, --force-wonder."""
    decorators = [
        click.option("--centred-pawn", type=click.Choice(["chooses", "begins"]), default=None,
                     help="Centred pawn at the end of an Age: the last player chooses who "
                          "begins [chooses], or begins."),
        click.option("--start-coins", callback=_coins, default=None, metavar="P1,P2",
                     help="Starting coins, e.g. 7,9 [7,7]."),
        click.option("--first-game-wonders", is_flag=True, default=None,
                     help="No draft: the rulebook's first-game wonders."),
        click.option("--ban-token", "ban_tokens", multiple=True, metavar="TOKEN",
                     help="Keep a progress token off the board (repeatable)."),
        click.option("--force-wonder", "force_wonders", multiple=True, metavar="SEAT=WONDER",
                     help="Force a wonder into a player's draft, e.g. 'p1=The Pyramids' "
                          "(repeatable)."),
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def options_from_flags(centred_pawn, start_coins, first_game_wonders, ban_tokens,
                       force_wonders) -> dict:
    """Keyword arguments of ``new_game`` from the rule-option flags, checked (names matched
    regardless of case and spacing); click.BadParameter naming the flag otherwise."""
    from duelpy.cli.study import _forced
    from duelpy.study.run import StudyError, _normalise_options, game_options

    opts = {}
    if centred_pawn is not None:
        opts["centred_pawn"] = centred_pawn
    if start_coins is not None:
        opts["start_coins"] = start_coins
    if first_game_wonders:
        opts["first_game_wonders"] = True
    if ban_tokens:
        opts["banned_tokens"] = list(ban_tokens)
    if force_wonders:
        forced = {}
        for text in force_wonders:
            for seat, wonder in _forced(text).items():
                if seat in forced:
                    raise click.BadParameter(f"two wonders forced to {seat.upper()}",
                                             param_hint="--force-wonder")
                forced[seat] = wonder
        opts["forced_wonders"] = forced
    flag = {"centred_pawn": "--centred-pawn", "start_coins": "--start-coins",
            "first_game_wonders": "--first-game-wonders", "banned_tokens": "--ban-token",
            "forced_wonders": "--force-wonder"}
    try:
        canon = _normalise_options(opts, "options")
    except StudyError as e:
        msg = str(e)
        hint = next((v for k, v in flag.items() if k in msg), "rule options")
        msg = msg.split(": ", 1)[1] if msg.startswith("options") and ": " in msg else msg
        raise click.BadParameter(msg.replace("options.", ""), param_hint=hint) from None
    return game_options(canon)
