"""The one runner: chunks of games played on a backend, each handed over as it finishes,
stoppable at any moment without losing a finished game.

:func:`play_chunks` is what ``duel simulate``, ``duel study`` and ``duel ladder`` (of every
game) run.  A *job* is a tuple whose last two items are ``lo, hi``: games ``lo .. hi - 1`` of
something (an arm, a pairing, a run); the backend's worker function plays it and returns the
arrays of the games it finished (every game, or after a stop only the first ones).  The
caller's ``save(job, result)`` writes them and returns how many games they hold.

Stopping, in order of urgency:

* ``stop`` set (the first Ctrl-C under :func:`duelpy.base.interrupt.sigint_stops`, or the
  caller): no new chunk starts, the chunks under way stop at once (the core's stop flag, the
  workers' :data:`~duelpy.run.backends.STOP`) and return their finished games, which are
  saved; the run ends with reason ``"Ctrl-C"``.
* KeyboardInterrupt (a second Ctrl-C, or Ctrl-C without ``sigint_stops``): the same, but the
  runner waits at most a few seconds for the chunks under way; a further KeyboardInterrupt
  saves only what has already come back.
* A worker that died (a lost process or Ray node): what finished is saved, the rest is left
  for a resume.
"""
from __future__ import annotations

import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from duelpy.base.interrupt import clear_core, sigint_stops, stop_core
from duelpy.base.specs import close_matches
from duelpy.run.backends import STOP, check_ray_address, make_backend
from duelpy.run.folder import RunFolder
from duelpy.run.progress import Progress

__all__ = ["RunOutcome", "play_chunks", "Chunks", "Gaps", "run_jobs", "check_run_options",
           "run_spec"]

#: Seconds the runner waits for the chunks under way after a stop (Ctrl-C again: less).
STOP_WAIT = 120.0


@dataclass
class RunOutcome:
    """How a :func:`play_chunks` run ended: ``games`` finished in this run, ``chunks`` played
    whole, ``reason`` None when every job was played, else why not (``"Ctrl-C"``,
    ``"stopped after N chunks (max_chunks)"``, ``"a worker died (...)"``), and ``left`` the
    jobs (whole or the unplayed rest of a stopped chunk) not played."""

    games: int = 0
    chunks: int = 0
    reason: str | None = None
    left: list = field(default_factory=list)
    error: OSError | None = None        # the write that failed, when one did

    @property
    def interrupted(self) -> bool:
        return self.reason is not None


def finished(raw: dict) -> int:
    """How many games a chunk's result holds (the length of its ``winner`` array, or of
    ``winners``)."""
    return len(raw["winner"] if "winner" in raw else raw["winners"])


class Chunks:
    """Jobs ``(*key, lo, hi)`` covering games ``0 .. total - 1`` in chunks of ``size`` games
    (the size may be changed between chunks, e.g. to aim at a time per chunk).  Used as the
    ``todo`` of :func:`play_chunks` (``bool(todo)``, ``todo.popleft()``)."""

    def __init__(self, total: int, size: int, key: tuple = (), start: int = 0):
        self.total, self.size, self.key, self.next_lo = total, max(1, size), key, start

    def __bool__(self) -> bool:
        return self.next_lo < self.total

    def popleft(self) -> tuple:
        lo = self.next_lo
        hi = min(self.total, lo + self.size)
        self.next_lo = hi
        return (*self.key, lo, hi)

    def rest(self) -> list:
        return [(*self.key, self.next_lo, self.total)] if self else []


class Gaps:
    """Jobs ``(*key, lo, hi)`` of at most ``size`` games covering ``0 .. total - 1`` except
    the ranges already ``saved`` (sorted, disjoint), made lazily (a run of 10^12 games lists
    no jobs).  Used as the ``todo`` of :func:`play_chunks`."""

    def __init__(self, total: int, size: int, saved=(), key: tuple = ()):
        self.total, self.size, self.key = total, max(1, size), key
        self.saved = list(saved)
        self.at = 0
        self._skip()

    def _skip(self) -> None:
        while self.saved and self.saved[0][0] <= self.at:
            self.at = max(self.at, self.saved.pop(0)[1])

    def __bool__(self) -> bool:
        return self.at < self.total

    def popleft(self) -> tuple:
        lo = self.at
        hi = min(self.total, lo + self.size, self.saved[0][0] if self.saved else self.total)
        self.at = hi
        self._skip()
        return (*self.key, lo, hi)

    def rest(self) -> list:
        out = []
        while self:
            out.append(self.popleft())
        return out if len(out) < 1000 else out[:1000]


def play_chunks(backend, todo, save: Callable[[tuple, Any], int], *,
                stop: threading.Event | None = None, max_chunks: int | None = None,
                on_progress: Callable[[int], None] | None = None,
                on_tick: Callable[[], None] | None = None, ordered: bool = False,
                tick: float = 0.2, say: Callable[[str], None] | None = None,
                task: Callable[[tuple], Any] | None = None,
                hurry: threading.Event | None = None) -> RunOutcome:
    """Play the jobs of ``todo`` on ``backend`` and ``save`` each as it finishes.

    Parameters
    ----------
    backend
        A backend of :mod:`duelpy.run.backends` (its worker function plays one job).
    todo
        The jobs: a ``collections.deque`` of tuples ``(*key, lo, hi)`` or a :class:`Chunks`.
    save : callable
        ``save(job, result) -> n``: write the result of ``job`` (games ``lo .. lo + n - 1``)
        and return ``n``, the games it holds (fewer than ``hi - lo`` after a stop).
    stop : threading.Event, optional
        Set (from any thread) to stop: nothing new starts, the chunks under way return their
        finished games, which are saved.
    max_chunks : int, optional
        Start at most this many chunks, then end as if stopped.
    on_progress : callable, optional
        ``on_progress(n)`` after ``n`` more games were saved (in the calling thread).
    on_tick : callable, optional
        Called about every ``tick`` seconds while the run goes on.
    ordered : bool
        Save the chunks in the order they were taken from ``todo`` (for a file written in
        game order); the chunks left after a stop are saved in order too, gaps and all.
    say : callable, optional
        ``say(text)`` for the one line printed when a stop begins.
    task : callable, optional
        ``task(job)`` is what the backend's worker receives (default: the job itself).
    hurry : threading.Event, optional
        Set after a stop (a second Ctrl-C): stop waiting for the chunks under way and keep
        what has come back.

    Returns
    -------
    RunOutcome
    """
    inflight: dict = {}
    order: list = []                 # jobs in the order taken (ordered saving)
    ready: dict = {}                 # job -> result, waiting for its turn (ordered saving)
    out = RunOutcome(left=[])
    limit = math.inf if max_chunks is None else max_chunks
    submitted = 0
    cap = 2 * backend.capacity
    stop = stop if stop is not None else threading.Event()
    STOP.clear()
    if not stop.is_set():
        clear_core()

    def keep(job, result):
        n = save(job, result)
        lo, hi = job[-2], job[-1]
        if n < hi - lo:
            out.left.append((*job[:-2], lo + n, hi))
        else:
            out.chunks += 1
        out.games += n
        if n and on_progress is not None:
            on_progress(n)

    def flush(everything: bool = False):
        while order and order[0] in ready:
            job = order.pop(0)
            keep(job, ready.pop(job))
        if everything:
            for job in [j for j in order if j in ready]:
                order.remove(job)
                keep(job, ready.pop(job))

    def collect(handle):
        job = inflight.pop(handle)
        result = backend.result(handle)
        if ordered:
            ready[job] = result
            flush()
        else:
            keep(job, result)

    def harvest():
        """Save whatever has finished; a chunk that failed is left for a resume."""
        for h in [h for h in inflight if backend.ready(h)]:
            job = inflight[h]
            try:
                collect(h)
            except Exception:       # noqa: BLE001
                inflight.pop(h, None)
                out.left.append(job)

    def wind_down(deadline: float):
        STOP.set()                  # chunks under way stop: at once with the core's stop
        stop_core()                 # flag, else at their next decision or their end
        backend.stop_workers()
        backend.cancel_queued(list(inflight))
        try:
            while inflight and time.monotonic() < deadline:
                harvest()
                if hurry is not None and hurry.is_set():
                    break
                if inflight:
                    time.sleep(0.02)
        except KeyboardInterrupt:   # Ctrl-C again: keep only what has come back
            harvest()

    try:
        while True:
            while todo and len(inflight) < cap and submitted < limit and not stop.is_set() \
                    and not out.left:
                job = todo.popleft()
                inflight[backend.submit(job if task is None else task(job))] = job
                order.append(job)
                submitted += 1
            if not inflight:
                break
            for h in backend.wait(list(inflight), timeout=tick):
                collect(h)
            if on_tick is not None:
                on_tick()
            if stop.is_set():
                out.reason = "Ctrl-C"
                if say is not None and inflight:
                    say("[yellow]stopping: saving the games finished (Ctrl-C again stops "
                        "waiting, keeping what has been saved)")
                wind_down(time.monotonic() + STOP_WAIT)
                break
        if out.reason is None and out.left:     # a chunk came back short: a stop in a worker
            out.reason = "stopped by the search stop flag"
        elif out.reason is None and todo:
            out.reason = f"stopped after {submitted} chunks (max_chunks)"
    except KeyboardInterrupt:
        out.reason = "Ctrl-C"
        if say is not None and inflight:
            say("[yellow]stopping: saving the games finished (Ctrl-C again stops at once, "
                "keeping what has been saved)")
        wind_down(time.monotonic() + 5.0)
    except backend.lost_worker_errors as e:
        out.reason = f"a worker died ({type(e).__name__})"
        harvest()
    except OSError as e:            # a chunk could not be saved (a full disk...): what was
        out.reason = f"cannot write: {' '.join(str(e).split())}"    # saved before is kept
        out.error = e
        STOP.set()
        stop_core()
        ordered = False
    finally:
        if ordered:
            flush(everything=True)
        if out.reason is not None:
            out.left.extend(inflight.values())
            backend.abandon(list(inflight))
        STOP.clear()
        clear_core()
    if todo:
        out.left.extend(todo.rest() if isinstance(todo, (Chunks, Gaps)) else list(todo))
    return out


def check_run_options(*, backend: str, executor: str, workers, max_chunks, address,
                      error: type[Exception] = ValueError, progress: bool = False,
                      console=None) -> dict:
    """Check the options every chunked run takes (one-line ``error`` naming the bad one);
    returns them as the keywords of :func:`run_spec` (the Ray address stripped)."""
    if backend not in ("local", "ray"):
        raise error(f"backend must be 'local' or 'ray', not {backend!r}"
                    f"{close_matches(backend, ('local', 'ray'))}")
    if executor not in ("auto", "threads", "processes"):
        raise error(f"executor must be 'auto', 'threads' or 'processes', not {executor!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= 4096):
        raise error(f"workers must be an integer from 1 to 4,096, not {workers!r}")
    if max_chunks is not None and (isinstance(max_chunks, bool) or
                                   not isinstance(max_chunks, int) or max_chunks < 0):
        raise error(f"max_chunks must be a non-negative integer, not {max_chunks!r}")
    if address is not None:
        if backend != "ray":
            raise error("a Ray address needs the Ray backend (--backend ray)")
        if not isinstance(address, str) or not address.strip():
            raise error(f"Ray address must be 'auto' or host:port, not {address!r}")
        address = address.strip()
        if address != "auto":
            check_ray_address(address, error)
    return dict(backend=backend, executor=executor, workers=workers, max_chunks=max_chunks,
                address=address, progress=progress, console=console, error=error)


def run_jobs(jobs: list, *, folder: RunFolder | None, fresh: bool, work: Callable,
             task: Callable[[tuple], Any], rows: Callable[[tuple, Any], Any],
             make_backend: Callable[[int], Any], manifest: dict | None, overwrite: bool,
             total: int, progress: bool, console=None, max_chunks: int | None = None,
             created: bool = False, error: type[Exception] = ValueError,
             what: str = "games") -> tuple[dict, RunOutcome, int]:
    """Play every job of ``jobs`` ((key, lo, hi) tuples) not already saved in ``folder``,
    saving each finished chunk there (or, with no folder, in memory).

    ``task(job)`` is what the backend's worker ``work`` receives; ``rows(job, raw)`` makes
    the chunk's table.  ``make_backend(n_chunks)`` builds the backend (it may raise
    ``error``: the folder is then removed if ``created``).  ``fresh``: a new run (nothing on
    disk counts); ``manifest``: what to record for it.

    Returns ``(parts, outcome, done)``: the chunk tables made in this run ({job: DataFrame}),
    how the run ended and the games saved before it began (a resume).
    """
    saved = {} if folder is None or fresh else folder.saved(jobs)
    done = sum(b - a for ranges in saved.values() for a, b in ranges)
    todo = deque(part for j in jobs for part in RunFolder.missing(j, saved.get(j, ())))
    parts: dict = {}
    outcome = RunOutcome(left=[])
    try:                                          # the Ray connection is checked here
        backend = make_backend(len(todo)) if todo else None
    except error:
        if folder is not None:
            folder.remove_if_created(created)     # leave no trace of a run never begun
        raise
    try:
        if folder is not None:
            folder.begin(manifest, overwrite)
        if todo:
            assert backend is not None
            bar = Progress(total, progress, done, console, what)
            where = (backend.kind if backend.kind.startswith("ray")
                     else f"{backend.capacity} {backend.kind}")
            bar.say(f"playing {total - done:,} games in {len(todo):,} chunks on {where}: "
                    f"Ctrl-C stops and keeps every finished game")

            def save(job, raw) -> int:
                n = finished(raw)
                if n:
                    lo = job[-2]
                    part = (*job[:-2], lo, lo + n)
                    df = rows(part, raw)
                    if folder is not None:
                        folder.write_chunk(df, *part)
                    parts[part] = df
                return n

            with bar, sigint_stops(hard_after=3) as flag:
                outcome = play_chunks(backend, todo, save, stop=flag.event,
                                      max_chunks=max_chunks, on_progress=bar.advance,
                                      say=bar.say, task=task, hurry=flag.hurry)
    finally:
        if backend is not None:
            backend.close()
    return parts, outcome, done


def run_spec(spec, jobs: list, folder: RunFolder | None, manifest: dict | None, *,
             work: Callable, executor: str, backend: str, workers, address, overwrite: bool,
             progress: bool, console, max_chunks: int | None, created: bool,
             error: type[Exception]) -> tuple[dict, RunOutcome, int]:
    """:func:`run_jobs` for a study or ladder ``spec`` (its ``task``, ``rows``,
    ``total_games``; ``processes()`` says whether its agents need worker processes,
    ``cpus_per_task()`` the cores a chunk uses): threads unless ``executor`` or the agents
    ask for processes, or Ray with ``backend="ray"``."""
    def make(n_chunks: int):
        procs = executor == "processes" or (executor == "auto" and spec.processes())
        return make_backend(work, backend=backend, workers=workers, address=address,
                            processes=procs, cpus_per_task=spec.cpus_per_task(),
                            chunks=n_chunks, error=error)
    return run_jobs(jobs, folder=folder, fresh=manifest is not None, work=work, task=spec.task,
                    rows=spec.rows, make_backend=make, manifest=manifest, overwrite=overwrite,
                    total=spec.total_games, progress=progress, console=console,
                    max_chunks=max_chunks, created=created, error=error)
