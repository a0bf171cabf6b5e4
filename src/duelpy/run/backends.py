"""Where chunks of games are played: local threads, local processes or a Ray cluster.

Every backend plays *jobs* with one worker function (``work(job) -> result``, given when the
backend is made: the game's chunk player) and offers the same small interface:
``submit(job) -> handle``, ``wait(handles, timeout) -> finished handles``, ``ready(handle)``,
``result(handle)``, ``cancel_queued(handles)``, ``stop_workers()``, ``abandon(handles)``,
``close()``, plus ``capacity`` (workers), ``kind`` (for messages) and ``lost_worker_errors``
(the exceptions that mean a worker died).

Stopping: :data:`STOP` is the stop event of the chunks under way in this process; the worker
functions check it between games (and the core's stop flag inside its loops).  A worker
process gets SIGINT from the terminal (or from :meth:`FuturesBackend.stop_workers`) and its
handler sets both, so its chunk returns the games it finished.
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os
import signal
import socket
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from duelpy.base.interrupt import stop_core

__all__ = ["STOP", "FuturesBackend", "RayBackend", "make_backend", "cpu_count",
           "check_ray_address"]

#: Set when the chunks under way in this process must stop (Ctrl-C): a chunk returns the
#: games it finished.  Cleared by the runner before new work.
STOP = threading.Event()


def _worker_sigint(signum, frame):
    """Ctrl-C in a worker process (the terminal sends it to the whole process group): stop
    the chunk under way, which returns the games it finished."""
    STOP.set()
    stop_core()


def _worker_init():
    signal.signal(signal.SIGINT, _worker_sigint)


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class FuturesBackend:
    """Local workers: threads when the games run inside the core (it releases the GIL),
    processes otherwise (Python agents hold the GIL)."""

    def __init__(self, work: Callable[[Any], Any], workers: int, processes: bool):
        self.work = work
        self.capacity = workers
        self.kind = "processes" if processes else "threads"
        self.pool: cf.Executor
        if processes:
            self.pool = cf.ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn"),
                                               initializer=_worker_init)
        else:
            self.pool = cf.ThreadPoolExecutor(workers, thread_name_prefix="duel-run")

    def submit(self, job):
        return self.pool.submit(self.work, job)

    def wait(self, handles, timeout):
        done, _ = cf.wait(handles, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    @staticmethod
    def ready(handle) -> bool:
        return handle.done()

    @staticmethod
    def result(handle):
        return handle.result()

    def cancel_queued(self, handles) -> None:
        for h in handles:
            h.cancel()              # a chunk under way is stopped by stop_workers

    def stop_workers(self) -> None:
        """Ask the chunks under way to stop (threads share the stop flags; processes get
        SIGINT, which their handler turns into the same flags)."""
        processes = getattr(self.pool, "_processes", None) or {}
        for proc in list(processes.values()):
            try:
                os.kill(proc.pid, signal.SIGINT)
            except (OSError, AttributeError):
                pass

    def abandon(self, handles) -> None:
        self.cancel_queued(handles)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    lost_worker_errors: tuple = (BrokenProcessPool,)


def check_ray_address(address: str, error: type[Exception] = ValueError) -> None:
    """Fail fast (one line, ``error``) if nothing answers at a Ray address host:port."""
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise error(f"Ray address {address!r}: expected 'auto', host:port or ray://host:port")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=5):
            pass
    except OSError as e:
        raise error(f"cannot reach the Ray cluster at {address}: "
                    f"{e.strerror or e.__class__.__name__}") from None


class RayBackend:
    """A Ray cluster: ``address`` None starts a local Ray instance (unless this process is
    already connected to one), 'auto' joins the running cluster, host:port that one."""

    def __init__(self, work: Callable[[Any], Any], workers: int | None, address: str | None,
                 cpus_per_task: int, error: type[Exception] = ValueError):
        try:
            import ray                          # optional and heavy: imported when asked for
        except ImportError:
            raise error("the Ray backend needs Ray: pip install ray (or, in the duel "
                        "checkout, pip install '.[ray]')") from None
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address not in (None, "auto"):
                check_ray_address(address, error)
            kwargs: dict = dict(include_dashboard=False, log_to_driver=False,
                                logging_level="ERROR")
            if address is None:
                kwargs["num_cpus"] = workers or cpu_count()
            else:
                kwargs["address"] = address
            try:
                ray.init(**kwargs)
            except Exception as e:      # noqa: BLE001 - ConnectionError, RuntimeError...
                msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise error(f"cannot reach the Ray cluster at {address or 'local'}: "
                            f"{msg}") from None
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.capacity = max(1, cpus // cpus_per_task)
        self.kind = f"ray ({cpus} CPUs)"
        self.remote = ray.remote(num_cpus=cpus_per_task, max_retries=3)(work)
        from ray.exceptions import RayError
        self.lost_worker_errors = (RayError,)

    def submit(self, job):
        return self.remote.remote(job)

    def wait(self, handles, timeout):
        done, _ = self.ray.wait(handles, num_returns=1, timeout=timeout)
        if done:    # take every other finished one too
            more, _ = self.ray.wait(handles, num_returns=len(handles), timeout=0)
            done = list({*done, *more})
        return done

    def ready(self, handle) -> bool:
        done, _ = self.ray.wait([handle], timeout=0)
        return bool(done)

    def result(self, handle):
        return self.ray.get(handle)

    def cancel_queued(self, handles) -> None:
        """Ray does not tell queued tasks from running ones: let them all finish."""

    def stop_workers(self) -> None:
        """Ray tasks run elsewhere: the chunks under way finish (Ctrl-C again abandons)."""

    def abandon(self, handles) -> None:
        for h in handles:
            try:
                self.ray.cancel(h, force=True)
            except Exception:       # noqa: BLE001 - already finished
                pass

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def make_backend(work: Callable[[Any], Any], *, backend: str = "local",
                 workers: int | None = None, address: str | None = None,
                 processes: bool = False, cpus_per_task: int = 1, chunks: int | None = None,
                 error: type[Exception] = ValueError):
    """The backend that plays ``work(job)``: ``backend`` "local" (threads, or ``processes``)
    or "ray".  Local workers default to every core this process may use, and never exceed
    ``chunks`` (the jobs to play).  Raises ``error`` for an unreachable Ray cluster."""
    if backend == "ray":
        return RayBackend(work, workers, address, cpus_per_task, error)
    n = workers or cpu_count()
    if chunks is not None:
        n = min(n, chunks)
    return FuturesBackend(work, max(1, n), processes)
