"""``duel agents``: every agent of a game with its options, defaults and allowed values,
read from the game's own table."""
from __future__ import annotations

import click

from duelpy.base.tables import Column, print_table
from duelpy.cli.common import console
from duelpy.cli.options import game_options, resolve_game


@click.command()
@game_options
def agents(game, players):
    """List every agent with its options, their defaults and allowed values.

    An agent is written KIND or KIND:option=value,option=value; each option at most once.

    \b
    Example:
      duel agents
      duel agents --game seven
      duel simulate --p1 mcts:iterations=2000,c=1.2 --p2 greedy
    """
    g, _ = resolve_game(click.get_current_context(), game, players, "agents")
    con = console()
    con.print(f"Agents of {g.title} are written KIND or KIND:option=value,option=value "
              f"(e.g. mcts:iterations=2000,c=1.4); each option at most once.")
    for kind in g.agent_kinds.values():
        con.print()
        con.print(f"[bold]{kind.name}[/]: {kind.help}")
        if kind.options:
            print_table(con, [
                Column("option", [o.name for o in kind.options], "left"),
                Column("default", [o.shown_default() for o in kind.options], "left", wrap=True),
                Column("meaning (values)", [f"{o.help} ({o.domain})" for o in kind.options],
                       "left", wrap=True)])
        for group in kind.conflicts:
            con.print(f"  give {' or '.join(group)}, not both")
