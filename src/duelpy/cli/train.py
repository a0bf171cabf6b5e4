"""``duel train``: retrain the planning search's learned evaluator or its fitted playout
policy (see :mod:`duelpy.duel.train`).

Registered in :mod:`duelpy.cli.main` with ``main.add_command(train)``.
"""
from __future__ import annotations

from pathlib import Path

import click
from rich.progress import Progress

from duelpy.cli.common import FloatRange, IntRange, console
from duelpy.duel.train import (TooFewTurns, fit_value, save_policy_weights, save_value_weights,
                               train_policy)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", type=click.Choice(["value", "policy"]), default="value",
              show_default=True,
              help="value: the learned evaluator (plan:value=...), from playout-policy games; "
                   "policy: the fitted playout policy (plan:policy=fitted), from the planning "
                   "search's own choices in self-play.")
@click.option("--games", "-n", type=IntRange(1, 10**8), default=None,
              help="Games to generate. value: playout-policy games, at least 100 (default "
                   "200,000, about 1 s per 10,000); policy: search self-play games (default "
                   "800, about 1 s each on 2 cores at 2,000 iterations).")
@click.option("--iterations", type=IntRange(100, 10**7), default=2000, show_default=True,
              help="policy: the search's iterations per decision in the self-play games.")
@click.option("--jobs", "-j", type=IntRange(1, 256), default=2, show_default=True,
              help="policy: games played at once (threads).")
@click.option("--rounds", type=IntRange(1, 10), default=2, show_default=True,
              help="policy: rounds of expert iteration (round 1 searches with the hand "
                   "policy, each later round with the policy fitted in the round before).")
@click.option("--start", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None,
              help="policy: a weights file to start from: every round then searches with "
                   "the planning search's defaults (move averages, science bonus) and the "
                   "fitted policy, round 1 with these weights (instead of the hand policy).")
@click.option("--per-game", type=IntRange(1, 64), default=6, show_default=True,
              help="value: decision nodes sampled from each game.")
@click.option("--seed", type=IntRange(0, 2**64 - 1), default=1, show_default=True,
              help="Seed of the games and the held-out split: the same seed gives the same "
                   "weights.")
@click.option("--c", "c", type=FloatRange(0, min_open=True, max=1e6), default=1.0,
              show_default=True, help="Inverse L2 strength of the logistic fit.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .npz file to write (the package's own file is "
                   "duelcore/duel/value_weights.npz or duelcore/duel/policy_weights.npz).")
@click.option("--overwrite", is_flag=True, help="Replace --out if it exists.")
def train(model, games, iterations, jobs, rounds, start, per_game, seed, c, out, overwrite):
    """Retrain the planning search's learned evaluator or its fitted playout policy.

    --model value (plan:value=...): generates GAMES games of the playout policy in the
    core, fits one logistic block per Age, prints the held-out log-loss and accuracy per
    Age, and writes the weights. Needs scikit-learn (pip install "duel[train]").

    --model policy (plan:policy=fitted): plays GAMES games of the planning search against
    itself, records at every turn the search's visit share of each action, fits the
    softmax over the turn's actions to them (scipy), and repeats for --rounds rounds, each
    searching with the policy of the round before; prints the held-out cross-entropy and
    how often the policy's top action is the search's, and writes the weights. Ctrl-C
    stops without writing.

    \b
    Examples (the shipped weights):
      duel train --games 200000 --seed 1 --out value_weights.npz
      duel train --model policy --games 500 --iterations 6000 --rounds 2 \\
        --seed 81 --start docs/weights/policy_weights_round5.npz --out policy_weights.npz
    """
    ctx = click.get_current_context()
    only = {"value": ("per_game", "c"), "policy": ("iterations", "jobs", "rounds", "start")}
    for other, names in only.items():
        for name in names:
            if model != other and ctx.get_parameter_source(name) is not \
                    click.core.ParameterSource.DEFAULT:
                flag = "--" + name.replace("_", "-")
                raise click.BadParameter(f"applies only to --model {other}", param_hint=flag)
    if model == "value" and games is not None and games < 100:
        raise click.BadParameter(f"{games} is less than 100 (value needs at least 100 games)",
                                 param_hint="--games")
    try:
        if model == "value":
            import sklearn  # noqa: F401
    except ImportError:
        raise click.ClickException("duel train needs scikit-learn: pip install scikit-learn "
                                   "(or, in the checkout, pip install '.[train]')") from None
    if out.suffix != ".npz":
        raise click.BadParameter(f"{out}: the weights file must end in .npz",
                                 param_hint="--out")
    if out.is_dir():
        raise click.BadParameter(f"{out} is a folder", param_hint="--out")
    if not out.parent.is_dir():
        raise click.BadParameter(f"{out.parent} is not a folder", param_hint="--out")
    if out.exists() and not overwrite:
        raise click.ClickException(f"{out} exists; give --overwrite to replace it")
    if model == "policy":
        _train_policy(games or 800, iterations, jobs, rounds, seed, out, start)
        return
    games = games or 200_000
    click.echo(f"generating {games:,} games (seed {seed}) and fitting...", err=True)
    report = fit_value(games, seed=seed, per_game=per_game, c=c)
    for age, (loss, acc) in enumerate(zip(report.log_loss, report.accuracy), start=1):
        click.echo(f"Age {age}: held-out log-loss {loss:.4f} (0.5 everywhere: "
                   f"{report.base_log_loss:.4f}), accuracy {acc:.1%}")
    save_value_weights(report.weights, out)
    click.echo(f"wrote {out} ({report.rows:,} training rows)")


def _train_policy(games, iterations, jobs, rounds, seed, out, start=None):

    con = console(stderr=True)          # stdout: results only; no bar (nor its last line)
    with Progress(transient=True, console=con, disable=not con.is_terminal) as bar:
        tasks = [bar.add_task(f"round {r + 1}: self-play ({iterations} iterations a decision)",
                              total=games) for r in range(rounds)]
        try:
            report = train_policy(games, seed=seed, iterations=iterations, rounds=rounds,
                                  jobs=jobs, start=start,
                                  progress=lambda r, k: bar.update(tasks[r - 1], completed=k))
        except TooFewTurns as e:
            raise click.ClickException(f"{e} (give more --games)") from None
        except ValueError as e:
            raise click.ClickException(str(e)) from None
    click.echo(f"held-out cross-entropy {report.cross_entropy:.4f} nats (uniform: "
               f"{report.base_cross_entropy:.4f}); top action agrees with the search in "
               f"{report.agreement:.1%} of turns")
    save_policy_weights(report.weights, out)
    click.echo(f"wrote {out} ({report.positions:,} training turns)")
