"""``duel study``: a Monte Carlo balance study of any game with treatments, a report (and,
for Duel, plots).

Registered in :mod:`duelpy.cli.main`; also runnable as ``python -m duelpy.cli.study``.
"""
from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

import click
from rich.console import Console

from duelpy.base.game import SetupError
from duelpy.base.interrupt import exit_interrupted, wrapping_up
from duelpy.base.specs import split_agents
from duelpy.cli.common import IntRange, one_line
from duelpy.cli.options import (agents_option, cluster_options, game_options, given,
                                resolve_game, setup_flags, setup_values)
from duelpy.study.run import PREVIOUS, StudyError, StudyInterrupted, load_spec, run_study


def _check_agent(game, players: int, text: str, hint: str) -> None:
    """click.BadParameter naming ``hint`` (exit 2) if ``text`` is no agent of ``game``."""
    try:
        game.lineup([text], players)
    except ValueError as e:
        raise click.BadParameter(one_line(e), param_hint=hint) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"],
                                 "max_content_width": 100})
@click.argument("study_file", required=False,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "-o", "out_dir", default=None,
              type=click.Path(file_okay=False, path_type=Path),
              help="Output folder: data, report and plots (created if needed); required.")
@click.option("--games", "-n", type=IntRange(1, 10**9), default=None,
              help="Games per arm (control and each treatment) [file or 1000].")
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=None,
              help="Base seed [file or 0].")
@click.option("--p1", "p1", default=None, metavar="AGENT",
              help="Agent in P1's seat in even games: random, greedy, mcts:iterations=N,c=C "
                   "[file or random].")
@click.option("--p2", "p2", default=None, metavar="AGENT", help="The other agent.")
@click.option("--alternate/--no-alternate", default=None,
              help="Swap seats every other game [file or on].")
@click.option("--name", default=None, help="Title of the report.")
@cluster_options
@click.option("--chunk-size", type=IntRange(1, 10**7), default=None,
              help="Games per saved chunk (default: about 5 s of one core, at most 1/16 of "
                   "an arm's games).")
@click.option("--resume", is_flag=True, help="Complete the study in --out, keeping its games.")
@click.option("--overwrite", is_flag=True,
              help="Replace a study already in --out (kept in --out/previous-study until the "
                   "new one has finished).")
@click.option("--csv", "csv", is_flag=True, help="Also write games.csv.")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, no report on the terminal.")
@agents_option("greedy")
@setup_flags("study")
@game_options
def study(study_file, out_dir, games, seed, p1, p2, alternate, name, workers, backend, address,
          chunk_size, resume, overwrite, csv, no_plots, quiet, agents, game, players, **flags):
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
    treatment's change of every seat's win rate on the same seeds (report.md).  A study file
    for 7 Wonders starts with game = "seven" and players = N.

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
    g, n = resolve_game(ctx, game, players, "study", two_player_flags=("p1", "p2"))
    if g.name != "duel" and given(ctx, "alternate"):
        raise click.UsageError(f"--alternate does not apply to --game {g.name} ({g.title})")
    if out_dir is None:
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params
                                                         if p.name == "out_dir"))
    err = Console(stderr=True)
    try:
        flag_setup = g.setup_from_flags("study", setup_values(ctx, g, "study"), n)
    except SetupError as e:
        raise click.BadParameter(one_line(e), param_hint=e.flag) from None
    try:
        spec = None
        base: dict = {}
        if study_file is not None:
            base = load_spec(study_file).to_dict()
            file_game = load_spec(study_file).game
            if given(ctx, "game") and file_game != g.name:
                raise StudyError(f"{study_file} is a study of {file_game}, not of {g.name}")
            g, n = resolve_game(ctx, file_game, None if file_game == "duel" else
                                base.get("players", players), "study")
        elif resume and (Path(out_dir) / "study.json").is_file():
            # flags given with --resume change the study in the folder, not the defaults
            saved_game = None
            try:
                saved = json.loads((Path(out_dir) / "study.json").read_text())
                base = saved["spec"]
                saved_game = saved.get("game", "duel")
            except (OSError, ValueError, KeyError, TypeError):
                base = {}               # run_study reports the unreadable study record
            if saved_game is not None:
                if given(ctx, "game") and saved_game != g.name:
                    raise StudyError(f"{out_dir} holds a study of {saved_game}, not of "
                                     f"{g.name}: resume it without --game, or choose another "
                                     f"folder")
                try:
                    g, n = resolve_game(ctx, saved_game, base.get("players"), "study")
                except click.UsageError:
                    base = {}
        # an agent given by a flag is checked here, so that its error names the flag
        for hint, texts in (("--p1", [p1]), ("--p2", [p2]),
                            ("--agents", split_agents(agents) if agents is not None else [])):
            for text in texts:
                if text is not None:
                    _check_agent(g, n, text, hint)
        flags_given = (games, seed, p1, p2, alternate, name, chunk_size, agents)
        treatments = flag_setup["treatment"] or flag_setup["options"]
        if study_file is not None or any(f is not None for f in flags_given) or treatments \
                or given(ctx, "game") or given(ctx, "players"):
            d = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                 for k, v in base.items()}
            d.setdefault("agents", {})
            d["options"] = {**base.get("options", {}), **flag_setup["options"]}
            saved_treatments = list(base.get("treatment", []))
            d["treatment"] = saved_treatments + flag_setup["treatment"]
            for key, value in (("games", games), ("seed", seed), ("name", name),
                               ("chunk_size", chunk_size)):
                if value is not None:
                    d[key] = value
            if g.name == "duel":
                if agents is not None:
                    texts = split_agents(agents)
                    if p1 is not None or p2 is not None:
                        raise click.UsageError("give the agents either with --agents or with "
                                               "--p1 and --p2")
                    p1, p2 = (texts * 2)[:2] if len(texts) == 1 else (texts + [None])[:2]
                    if len(texts) > 2:
                        raise click.BadParameter("7 Wonders Duel takes 1 or 2 agents",
                                                 param_hint="--agents")
                for key, value in (("p1", p1), ("p2", p2), ("alternate", alternate)):
                    if value is not None:
                        d["agents"][key] = value
            else:
                d["game"] = g.name
                d["players"] = n
                if agents is not None or p1 is not None or p2 is not None:
                    d["agents"] = {"seats": split_agents(agents) if agents is not None
                                   else [p1 or "greedy", p2 or "greedy"]}
                elif "seats" not in d["agents"]:
                    d["agents"] = {"seats": "greedy"}
            if resume and saved_treatments and flag_setup["treatment"]:
                # the same command again with --resume: its treatments are in the folder
                mine = load_spec(dict(d, treatment=flag_setup["treatment"])).to_dict()
                d["treatment"] = saved_treatments + [
                    t for t, m in zip(flag_setup["treatment"], mine["treatment"])
                    if m not in saved_treatments]
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
        with wrapping_up():              # a second Ctrl-C now: the --resume line first
            err.print(f"[yellow]{e}[/]: duel study --resume --out {out_dir}", highlight=False,
                      soft_wrap=True)
            if (Path(out_dir) / PREVIOUS).is_dir():
                err.print(f"the study it replaces is kept in {Path(out_dir) / PREVIOUS} until "
                          f"this one finishes", highlight=False)
            if e.reason == "Ctrl-C":
                exit_interrupted()
        sys.exit(1)
    except KeyboardInterrupt:            # e.g. while the report and plots are written
        with wrapping_up():
            err.print(f"[yellow]interrupted; every finished game is kept[/]: duel study "
                      f"--resume --out {out_dir} completes the study and its report",
                      highlight=False, soft_wrap=True)
        sys.exit(130)
    if not quiet:
        if "plots" in inspect.signature(result.report.print).parameters:
            result.report.print(Console(), plots=False)     # the last line lists them
        else:
            result.report.print(Console())
    written = [f for f in ("games.parquet", "games.csv", "report.md", "report.html")
               if (Path(out_dir) / f).exists()]
    written += [f"plots/{p.name}" for p in result.report.plots.values()]
    if not quiet:
        df = result.games
        n_games = len(df.drop_duplicates(["arm", "game"])) if "seat" in df else len(df)
        err.print(f"wrote {n_games:,} games to {out_dir}: {', '.join(written)}",
                  highlight=False)


if __name__ == "__main__":
    study()
