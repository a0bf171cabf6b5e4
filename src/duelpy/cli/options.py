"""Command-line options made from the games' own tables: ``--game`` and ``--players`` from
the registry, and one flag per set-up option (:class:`duelpy.base.game.SetupOption`) that
some game takes in a command.  A flag given for a game that does not take it is refused,
naming the game and the flag; nothing here lists one game's flags by hand.
"""
from __future__ import annotations

from typing import Any, Callable

import click
from click.core import ParameterSource

from duelpy.base.game import Game, SetupOption
from duelpy.cli.common import IntRange
from duelpy.games import GAMES, get_game

__all__ = ["game_options", "setup_flags", "resolve_game", "setup_values", "given",
           "param_name", "agents_option", "flag_of", "cluster_options"]

#: The player counts any game takes (each game checks its own).
PLAYERS = click.INT      # checked against the game by resolve_game (a Duel: no --players)


def param_name(flag: str) -> str:
    """The click parameter name of a set-up flag (``--ban-token`` -> ``setup_ban_token``)."""
    return "setup_" + flag.lstrip("-").replace("-", "_")


def _games_help() -> str:
    return "; ".join(f"{g.name}: {g.title} ({_players_text(g)})" for g in GAMES.values())


def _players_text(g: Game) -> str:
    lo, hi = g.players.start, g.players.stop - 1
    return f"{lo} players" if lo == hi else f"{lo}-{hi} players, default {g.default_players}"


def game_options(f: Callable) -> Callable:
    """``--game`` (every game of the registry) and ``--players``."""
    f = click.option("--players", type=PLAYERS, default=None, metavar="N",
                     help="Players per game, for games with a choice: "
                          + ", ".join(f"{g.name} {_players_text(g)}" for g in GAMES.values()
                                      if len(g.players) > 1) + ".")(f)
    f = click.option("--game", type=click.Choice(list(GAMES), case_sensitive=False),
                     default="duel", show_default=True, help=_games_help() + ".")(f)
    return f


def _flags(command: str) -> dict[str, list[tuple[Game, SetupOption]]]:
    out: dict[str, list[tuple[Game, SetupOption]]] = {}
    for g in GAMES.values():
        for o in g.setup_options:
            if command in o.commands:
                out.setdefault(o.flag, []).append((g, o))
    return out


def setup_flags(command: str) -> Callable[[Callable], Callable]:
    """A decorator adding one flag per set-up option any game takes in ``command`` (a flag
    two games share is one option; its help names the games)."""
    def deco(f: Callable) -> Callable:
        for flag, owners in reversed(list(_flags(command).items())):
            first = owners[0][1]
            if len(owners) == 1:
                text = f"{owners[0][0].name}: {first.help}"
            else:
                text = " | ".join(f"{g.name}: {o.help}" for g, o in owners)
            kw: dict[str, Any] = {"help": text, "default": None}
            if first.is_flag:
                kw.update(is_flag=True, default=None)
            elif first.multiple:
                kw.update(multiple=True, default=(), metavar=first.metavar or None)
            else:
                kw.update(metavar=first.metavar or None)
            if first.choices and all(o.choices for _, o in owners):
                choices = list(dict.fromkeys(c for _, o in owners for c in o.choices))
                kw["type"] = click.Choice(choices, case_sensitive=False)
            f = click.option(flag, param_name(flag), **kw)(f)
        return f
    return deco


def given(ctx: click.Context, name: str) -> bool:
    """True if the parameter ``name`` was given on the command line (or the environment)."""
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                              ParameterSource.ENVIRONMENT)


def flag_of(ctx: click.Context, name: str) -> str:
    """The longest spelling of parameter ``name``'s flag (``--start-coins``)."""
    for p in ctx.command.params:
        if p.name == name:
            return max(p.opts, key=len)
    return f"--{name.replace('_', '-')}"


def resolve_game(ctx: click.Context, name: str, players: int | None, command: str,
                 two_player_flags: tuple = ()) -> tuple[Game, int]:
    """The game and its player count, or a one-line UsageError: an unknown game, a player
    count the game is not played with, a set-up flag the game does not take in ``command``
    (named with the game), or a flag of ``two_player_flags`` (parameter names, such as the
    seat agents ``--p1``) with more than 2 players."""
    game = get_game(name)
    if players is None:
        players = game.default_players
    elif len(game.players) == 1:
        raise click.UsageError(f"--players does not apply to --game {game.name}: {game.title} "
                               f"is a {game.players.start}-player game", ctx=ctx)
    elif players not in game.players:
        raise click.UsageError(f"--players {players}: {game.title} is played by "
                               f"{game.players.start} to {game.players.stop - 1} players",
                               ctx=ctx)
    mine = {o.flag for o in game.setup_options if command in o.commands}
    for flag in _flags(command):
        if flag not in mine and given(ctx, param_name(flag)):
            raise click.UsageError(f"{flag} does not apply to --game {game.name} "
                                   f"({game.title})", ctx=ctx)
    for name_ in two_player_flags:
        if players != 2 and given(ctx, name_):
            raise click.UsageError(f"{flag_of(ctx, name_)} is for 2-player games; with "
                                   f"{players} players give --agents", ctx=ctx)
    return game, players


def setup_values(ctx: click.Context, game: Game, command: str) -> dict[str, Any]:
    """The set-up flags given for ``game`` in ``command``, by option name (multiple flags as
    tuples; only those given)."""
    out: dict[str, Any] = {}
    for o in game.setup_options:
        if command in o.commands and given(ctx, param_name(o.flag)):
            value = out[o.name] = ctx.params[param_name(o.flag)]
            if isinstance(value, tuple):        # a repeated flag: each value once
                twice = sorted({v for v in value if value.count(v) > 1}, key=str)
                if twice:
                    raise click.BadParameter(f"{twice[0]} is given twice", param_hint=o.flag)
    return out


def agents_option(default_text: str) -> Callable[[Callable], Callable]:
    """``--agents``: one agent for every seat, or one per seat, comma-separated."""
    return click.option("--agents", "-a", "agents", default=None, metavar="AGENTS",
                        help="One agent for every seat, or one per seat, comma-separated "
                             "(see duel agents --game GAME)" + f" [{default_text}].")


def cluster_options(f: Callable) -> Callable:
    """``--workers``, ``--backend`` and ``--address``: where a study's or ladder's chunks
    run."""
    f = click.option("--address", default=None,
                     help="Ray cluster: 'auto' (the running one) or host:port; none starts a "
                          "local Ray instance.")(f)
    f = click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True, help="Local threads/processes or a Ray cluster.")(f)
    f = click.option("--workers", "-j", type=IntRange(1, 1024), default=None,
                     help="Workers (default: every local core; with --backend ray and no "
                          "--address, the local Ray instance's CPUs).")(f)
    return f
