"""``duel study``: a Monte Carlo balance study with treatments, a report and plots.

Registered in :mod:`duelpy.cli.main` with ``from duelpy.cli.study import study`` and
``main.add_command(study)``; also runnable as ``python -m duelpy.cli.study``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from duelpy.cli.seven import SIDES, agents_option, check_game, game_options, study_seven

_SEATS = {"p1": 0, "p2": 1}


def _coins(ctx, param, value):
    if value is None:
        return None
    try:
        a, b = (int(x) for x in value.replace(" ", "").split(","))
    except ValueError:
        raise click.BadParameter(f"{value!r}: write P1's and P2's coins as 7,9") from None
    return [a, b]


def _forced(value: str, hint: str = "--force-wonder"):
    """``p1=The Pyramids`` or ``p1=The Pyramids,p2=Zeus`` as {seat: wonder}."""
    from duelpy.base.specs import parse_pairs
    if "=" not in value and ":" in value:
        value = value.replace(":", "=", 1)         # p1:The Pyramids
    try:
        return parse_pairs(value, tuple(_SEATS), value, click.BadParameter, what="")
    except click.BadParameter as e:
        raise click.BadParameter(f"{e.message} (write the seat and the wonder, e.g. "
                                 f"'p1=The Pyramids')", param_hint=hint) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"],
                                 "max_content_width": 100})
@click.argument("study_file", required=False,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "-o", "out_dir", default=None,
              type=click.Path(file_okay=False, path_type=Path),
              help="Output folder: data, report and plots (created if needed); required "
                   "with --game duel.")
@click.option("--games", "-n", type=click.IntRange(1, 10**9), default=None,
              help="Games per arm (control and each treatment) [file or 1000].")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Base seed [file or 0].")
@click.option("--p1", "p1", default=None, metavar="AGENT",
              help="Agent in P1's seat in even games: random, greedy, mcts:iterations=N,c=C "
                   "[file or random].")
@click.option("--p2", "p2", default=None, metavar="AGENT", help="The other agent.")
@click.option("--alternate/--no-alternate", default=None,
              help="Swap seats every other game [file or on].")
@click.option("--name", default=None, help="Title of the report.")
@click.option("--centred-pawn", type=click.Choice(["chooses", "begins"]), default=None,
              help="Control rule when the pawn is centred at the end of an Age.")
@click.option("--start-coins", callback=_coins, default=None, metavar="P1,P2",
              help="Control's starting coins, e.g. 7,7.")
@click.option("--first-game-wonders", is_flag=True, default=None,
              help="Control: no draft, the rulebook's first-game wonders.")
@click.option("--force-wonder", "force_wonders", multiple=True, metavar="SEAT=WONDER",
              help="Treatment: force a wonder into a player's draft, e.g. "
                   "'p1=The Pyramids' (repeatable: one treatment each); with --game seven "
                   "a board, and optionally its side, at a seat, e.g. 'p2=Rhodos B'.")
@click.option("--ban-token", "ban_tokens", multiple=True, metavar="TOKEN",
              help="Treatment: ban a progress token from the board (repeatable).")
@click.option("--p2-extra-coins", "extra_coins", multiple=True,
              type=click.IntRange(-1000, 1000), metavar="N",
              help="Treatment: P2 starts with N more coins (repeatable).")
@click.option("--switch-centred-pawn", is_flag=True, default=False,
              help="Treatment: the other centred-pawn rule.")
@click.option("--workers", "-j", type=click.IntRange(1, 1024), default=None,
              help="Workers (default: every local core; with --backend ray and no --address, "
                   "the local Ray instance's CPUs).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Local threads/processes or a Ray cluster.")
@click.option("--address", default=None,
              help="Ray cluster: 'auto' (the running one) or host:port; none starts a local "
                   "Ray instance.")
@click.option("--chunk-size", type=click.IntRange(1, 10**7), default=None,
              help="Games per saved chunk (default: about 5 s of one core, at most 1/16 of "
                   "an arm's games).")
@click.option("--resume", is_flag=True, help="Complete the study in --out, keeping its games.")
@click.option("--overwrite", is_flag=True,
              help="Replace a study already in --out (kept in --out/previous-study until the "
                   "new one has finished).")
@click.option("--csv", "csv", is_flag=True, help="Also write games.csv.")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, no report on the terminal.")
@game_options
@agents_option("greedy")
@click.option("--sides", type=SIDES, default=None,
              help="With --game seven: the control's wonder sides [random].")
@click.option("--force-side", "force_sides", multiple=True, type=click.Choice(["A", "B"]),
              help="With --game seven, treatment: every board on this side (repeatable: one "
                   "treatment each).")
@click.option("--remove", "remove", multiple=True, metavar="CARD[,CARD]",
              help="With --game seven, treatment: leave these cards out of the game "
                   "(repeatable: one treatment each).")
def study(study_file, out_dir, games, seed, p1, p2, alternate, name, centred_pawn, start_coins,
          first_game_wonders, force_wonders, ban_tokens, extra_coins, switch_centred_pawn,
          workers, backend, address, chunk_size, resume, overwrite, csv, no_plots, quiet,
          game, players, seven_agents, sides, force_sides, remove):
    """Run a Monte Carlo balance study: GAMES games of two agents under the control rules and
    under each treatment, on the same seeds; write the per-game table (Parquet), a report
    (report.md, report.html, printed here) and plots (PNG) into --out.

    STUDY_FILE is a TOML study (flags given here override it; treatment flags add arms).
    Ctrl-C keeps every finished game: --resume completes the study.

    \b
    Examples:
      duel study --p1 mcts:iterations=200 --p2 mcts:iterations=200 --games 2400 \\
          --p2-extra-coins 2 --ban-token Philosophy --out p2-coins
      duel study study.toml --out results --backend ray --address auto
      duel study --resume --out results
      duel study --game seven --players 4 --games 4000 --force-side B --remove 'Scientists Guild'

    With --game seven the control is the rules with --players N and --agents (greedy by
    default); --force-side, --force-wonder 'p1=Rhodos B' and --remove CARD add treatments.
    The report gives the win rate by wonder board and side, by side and by seat, and each
    treatment's change of every seat's win rate on the same seeds; --out (optional) gets
    games.parquet and report.md.

    \b
    Study file:
      name = "Does P2 need two more coins?"
      games = 2400
      seed = 1
      [agents]
      p1 = "mcts:iterations=200"
      p2 = "mcts:iterations=200"
      [[treatment]]
      name = "P2 +2 coins"
      p2_extra_coins = 2
    """
    ctx = click.get_current_context()
    n = check_game(ctx, game, players,
                   seven_only=("seven_agents", "sides", "force_sides", "remove"),
                   duel_only=("p1", "p2", "alternate", "centred_pawn", "start_coins",
                              "first_game_wonders", "ban_tokens", "extra_coins",
                              "switch_centred_pawn", "backend", "address", "chunk_size",
                              "resume", "no_plots"))
    if n is not None:
        if study_file is not None:
            raise click.UsageError("a study file is for --game duel; give the 7 Wonders "
                                   "study as options")
        return study_seven(n, seven_agents, 1000 if games is None else games,
                           0 if seed is None else seed, workers or 1, name, sides,
                           force_sides, force_wonders, remove, out_dir, overwrite, csv, quiet)
    if out_dir is None:
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params
                                                         if p.name == "out_dir"))
    from rich.console import Console

    from duelpy.base.interrupt import exit_interrupted
    from duelpy.study.run import PREVIOUS, StudyError, StudyInterrupted, load_spec, run_study

    err = Console(stderr=True)
    try:
        spec = None
        base: dict = {}
        if study_file is not None:
            base = load_spec(study_file).to_dict()
        elif resume and (Path(out_dir) / "study.json").is_file():
            # flags given with --resume change the study in the folder, not the defaults
            try:
                base = json.loads((Path(out_dir) / "study.json").read_text())["spec"]
            except (OSError, ValueError, KeyError, TypeError):
                base = {}               # run_study reports the unreadable study record
        flags = (games, seed, p1, p2, alternate, name, centred_pawn, start_coins,
                 first_game_wonders, chunk_size)
        treatments = force_wonders or ban_tokens or extra_coins or switch_centred_pawn
        if study_file is not None or any(f is not None for f in flags) or treatments:
            d = dict(base)
            d["agents"] = dict(base.get("agents", {}))
            d["options"] = dict(base.get("options", {}))
            d["treatment"] = list(base.get("treatment", []))
            for key, value in (("games", games), ("seed", seed), ("name", name),
                               ("chunk_size", chunk_size)):
                if value is not None:
                    d[key] = value
            for key, value in (("p1", p1), ("p2", p2), ("alternate", alternate)):
                if value is not None:
                    d["agents"][key] = value
            for key, value in (("centred_pawn", centred_pawn), ("start_coins", start_coins),
                               ("first_game_wonders", first_game_wonders)):
                if value is not None:
                    d["options"][key] = value
            for f in force_wonders:
                d["treatment"].append({"forced_wonders": _forced(f)})
            for t in ban_tokens:
                d["treatment"].append({"banned_tokens": [t]})
            for n in extra_coins:
                d["treatment"].append({"name": f"P2 {n:+d} coins", "p2_extra_coins": n})
            if switch_centred_pawn:
                now = d["options"].get("centred_pawn", "chooses")
                d["treatment"].append({"centred_pawn": "begins" if now == "chooses"
                                       else "chooses"})
            spec = load_spec(d)
        elif not resume:
            raise StudyError("no study given: pass a study file or options "
                             "(see duel study --help), or --resume")
        result = run_study(spec, out_dir, workers=workers, backend=backend, address=address,
                           resume=resume, overwrite=overwrite, csv=csv, plots=not no_plots,
                           progress=not quiet, console=err)
    except StudyError as e:
        raise click.ClickException(str(e)) from None
    except StudyInterrupted as e:
        err.print(f"[yellow]{e}[/]: duel study --resume --out {out_dir}", highlight=False)
        if (Path(out_dir) / PREVIOUS).is_dir():
            err.print(f"the study it replaces is kept in {Path(out_dir) / PREVIOUS} until this "
                      f"one finishes", highlight=False)
        if e.reason == "Ctrl-C":
            exit_interrupted()
        sys.exit(1)
    except KeyboardInterrupt:            # e.g. while the report and plots are written
        err.print(f"[yellow]interrupted; every finished game is kept[/]: duel study --resume "
                  f"--out {out_dir} completes the study and its report", highlight=False)
        sys.exit(130)
    if not quiet:
        result.report.print(Console())
    written = ["games.parquet"] + (["games.csv"] if csv else []) + ["report.md", "report.html"]
    written += [f"plots/{p.name}" for p in result.report.plots.values()]
    if not quiet:
        err.print(f"wrote {len(result.games):,} games to {out_dir}: {', '.join(written)}",
                  highlight=False)


if __name__ == "__main__":
    study()
