"""``duel bench``: engine throughput and the behaviour signature."""
from __future__ import annotations

import click

from duelpy.cli.seven import check_game, game_options


def _measure(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a worker thread (the core releases the GIL, so the timing
    is the same), so that Ctrl-C stops the bench at once: the core's stop flag ends the
    loop, and the process exits with 130 whatever the loop does."""
    import threading

    from duelpy.base.interrupt import clear_core, exit_interrupted, stop_core
    out: dict = {}

    def work():
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as e:      # noqa: BLE001 - raised again below
            out["error"] = e

    clear_core()
    t = threading.Thread(target=work, daemon=True, name="duel-bench")
    t.start()
    try:
        while t.is_alive():
            t.join(0.1)
    except KeyboardInterrupt:
        stop_core()
        click.echo("\nduel bench: interrupted", err=True)
        exit_interrupted()
    if "error" in out:
        raise out["error"]
    return out["value"]


@click.command()
@click.option("--games", "-n", type=click.IntRange(100, 10**8), default=100_000, show_default=True,
              help="Random games to time (the signature always uses 10,000 games from a fixed seed).")
@click.option("--iterations", type=click.IntRange(100, 10**8), default=50_000, show_default=True,
              help="MCTS iterations to time from the opening of Age I.")
@click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Also measure the throughput of this many workers (threads).")
@click.option("--repeat", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Runs of each measurement; the median is reported.")
@game_options
def bench(games, iterations, jobs, repeat, game, players):
    """Measure the engine on one core: random games and decisions per second, MCTS
    iterations per second, the state size, and the signature of a fixed seed set.

    With --game seven: the 7 Wonders core at --players N (random games [20,000] and
    MCTS iterations [2,000] from the first decision of a game).

    \b
    Example:
      duel bench --games 200000 --jobs 2
      duel bench --game seven --players 7 --games 20000
    """
    ctx = click.get_current_context()
    n = check_game(ctx, game, players)
    if n is not None:
        from duelpy.cli.seven import _given, bench_seven
        return bench_seven(n, games if _given(ctx, "games") else 20_000,
                           iterations if _given(ctx, "iterations") else 2_000, repeat, jobs)
    import statistics

    from rich.console import Console
    from rich.table import Table

    import duelcore
    from duelpy.duel import benchmark as benchmark

    Console(stderr=True).print(f"duel bench: {repeat} runs of {games:,} random games and "
                               f"{iterations:,} MCTS iterations (Ctrl-C stops)",
                               highlight=False)
    sig_games = 10_000
    sig = _measure(benchmark.random_games, sig_games)["signature"]
    runs = [_measure(benchmark.random_games, games) for _ in range(repeat)]
    searches = {"mcts": {"kind": "mcts"}, "plan": {"kind": "plan"},
                "hand": {"kind": "plan", "policy": "hand"}}
    rates = {name: [] for name in searches}
    for _ in range(repeat):     # interleaved, so that the ratios compare the same moments
        for name, options in searches.items():
            rates[name].append(_measure(benchmark.mcts_rate, iterations,
                                        **options)["iterations_per_s"])
    med = lambda xs: statistics.median(xs)  # noqa: E731
    table = Table(title=f"duel bench (median of {repeat})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("random games / s (1 core)", f"{med([r['games_per_s'] for r in runs]):,.0f}")
    table.add_row("decisions / s (1 core)", f"{med([r['decisions_per_s'] for r in runs]):,.0f}")
    table.add_row("MCTS iterations / s, round-1 mcts (Age I opening)",
                  f"{med(rates['mcts']):,.0f}")
    for name, label in (("plan", "planning search plan"), ("hand", "plan:policy=hand")):
        ratio = med([x / m for x, m in zip(rates[name], rates["mcts"])])
        table.add_row(f"MCTS iterations / s, {label} (Age I opening)",
                      f"{med(rates[name]):,.0f} ({ratio:.2f}x mcts)")
    table.add_row("state size (bytes)", str(duelcore.state_size()))
    if jobs > 1:
        multi = [_measure(benchmark.random_games, games, jobs=jobs) for _ in range(repeat)]
        single = med([r["games_per_s"] for r in runs])
        rate = med([r["games_per_s"] for r in multi])
        table.add_row(f"random games / s ({jobs} workers)", f"{rate:,.0f} ({rate / single:.2f}x)")
    table.add_row(f"signature ({sig_games:,} games, seed {benchmark.SIGNATURE_SEED})", sig)
    Console().print(table)
