"""``duel train``: retrain the planning search's learned evaluator (see :mod:`duelpy.train`).

Registered in :mod:`duelpy.cli` with ``main.add_command(train)``.
"""
from __future__ import annotations

from pathlib import Path

import click


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--games", "-n", type=click.IntRange(100, 10**8), default=200_000,
              show_default=True, help="Playout-policy games to generate (about 1 s per 10,000).")
@click.option("--per-game", type=click.IntRange(1, 64), default=6, show_default=True,
              help="Decision nodes sampled from each game.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=1, show_default=True,
              help="Seed of the games and the held-out split: the same seed gives the same "
                   "weights.")
@click.option("--c", "c", type=click.FloatRange(0, min_open=True, max=1e6), default=1.0,
              show_default=True, help="Inverse L2 strength of the logistic fit.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .npz file to write (the package's own file is "
                   "duelcore/value_weights.npz).")
@click.option("--overwrite", is_flag=True, help="Replace --out if it exists.")
def train(games, per_game, seed, c, out, overwrite):
    """Retrain the learned evaluator of the planning search (plan:value=...).

    Generates GAMES games of the playout policy in the core, fits one logistic block per
    Age, prints the held-out log-loss and accuracy per Age, and writes the weights. Needs
    scikit-learn (pip install "duel[train]").

    \b
    Example (the shipped weights):
      duel train --games 200000 --seed 1 --out value_weights.npz
    """
    try:
        from duelpy.train import fit_value, save_value_weights
        import sklearn  # noqa: F401
    except ImportError:
        raise click.ClickException("duel train needs scikit-learn: pip install scikit-learn "
                                   "(or, in the checkout, pip install '.[train]')") from None
    if not c == c:
        raise click.BadParameter(f"{c!r} is not a number", param_hint="--c")
    if out.suffix != ".npz":
        raise click.BadParameter(f"{out}: the weights file must end in .npz",
                                 param_hint="--out")
    if out.is_dir():
        raise click.BadParameter(f"{out} is a folder", param_hint="--out")
    if not out.parent.is_dir():
        raise click.BadParameter(f"{out.parent} is not a folder", param_hint="--out")
    if out.exists() and not overwrite:
        raise click.ClickException(f"{out} exists; give --overwrite to replace it")
    click.echo(f"generating {games:,} games (seed {seed}) and fitting...", err=True)
    report = fit_value(games, seed=seed, per_game=per_game, c=c)
    for age, (loss, acc) in enumerate(zip(report.log_loss, report.accuracy), start=1):
        click.echo(f"Age {age}: held-out log-loss {loss:.4f} (0.5 everywhere: "
                   f"{report.base_log_loss:.4f}), accuracy {acc:.1%}")
    save_value_weights(report.weights, out)
    click.echo(f"wrote {out} ({report.rows:,} training rows)")
