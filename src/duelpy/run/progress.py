"""The progress bar every long command shows on stderr: games done of the total, games per
second, optional live detail (the decisions of games under way), elapsed time and ETA."""
from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress as _Rich, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

__all__ = ["Progress", "rate_text"]


def rate_text(games: int, seconds: float) -> str:
    """Games per second as the bar and the summaries show it ("1,234 games/s")."""
    r = games / seconds if seconds > 0 else 0.0
    return f"{r:,.0f} games/s" if r >= 100 else f"{r:,.2f} games/s"


class Progress:
    """A rich progress bar on stderr; does nothing when ``enabled`` is false.

    ``total`` games, ``done`` of them already finished (a resumed run); use as a context
    manager, then :meth:`advance` (games just finished), :meth:`update` (the count so far),
    :meth:`live` (a short text after the rate) and :meth:`say` (a line above the bar)."""

    def __init__(self, total: int, enabled: bool = True, done: int = 0,
                 console: Console | None = None, what: str = "games"):
        self.bar: _Rich | None = None
        self.t0 = self.t_last = time.perf_counter()
        self.done0 = self.done = done
        if not enabled or total <= 0:
            return
        self.bar = _Rich(TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(),
                         TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[live]}"),
                         TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                         console=console or Console(stderr=True), transient=False)
        self.task = self.bar.add_task(what, total=total, completed=done, rate="", live="")

    def __enter__(self) -> "Progress":
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.t0

    def rate(self) -> str:
        """Games per second up to the last update (the figure the bar shows)."""
        return rate_text(self.done - self.done0, self.t_last - self.t0)

    def advance(self, k: int) -> None:
        self.update(self.done + k)

    def update(self, done: int, live: str | None = None) -> None:
        self.done = done
        self.t_last = time.perf_counter()
        if self.bar is not None:
            fields: dict[str, Any] = {"rate": self.rate()}
            if live is not None:
                fields["live"] = live
            self.bar.update(self.task, completed=done, **fields)

    def live(self, text: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, live=text)

    def say(self, text: str) -> None:
        if self.bar is not None:
            self.bar.console.print(text, highlight=False)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
