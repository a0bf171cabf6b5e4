"""Ctrl-C for long runs: stop the searches and batch runs at once, keep what is finished.

The core has a process-wide stop flag that every ``nogil`` search and batch loop checks
(:func:`duelcore.search.interrupt`).  Work runs in worker threads; while
:func:`sigint_stops` is active, the first Ctrl-C sets the returned :class:`StopFlag` and the
core's flag (so the loops end within milliseconds) instead of raising KeyboardInterrupt in
the middle of whatever the main thread is doing (a file being written, say).  The command
then saves what is finished and exits with 130.  A second Ctrl-C stops waiting for the work
under way; :func:`wrapping_up` keeps presses that come while the command writes what it kept
and prints how to resume from cutting that short.

A core without the stop flag still stops: the runners check the StopFlag between chunks
and between decisions.
"""
from __future__ import annotations

import os
import sys
import time
import signal
import threading
from contextlib import contextmanager

from duelcore import search

__all__ = ["StopFlag", "sigint_stops", "wrapping_up", "core_has_stop_flag", "stop_core",
           "clear_core", "exit_interrupted"]

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


def core_has_stop_flag() -> bool:
    """True if the compiled core has the Ctrl-C stop flag (``duelcore.search.interrupt``)."""
    return hasattr(search, "interrupt") and hasattr(search, "clear_interrupt")


def stop_core() -> None:
    """Set the core's stop flag: every running search and batch loop ends soon."""
    if core_has_stop_flag():
        search.interrupt()


def clear_core() -> None:
    """Clear the core's stop flag (before new work)."""
    if core_has_stop_flag():
        search.clear_interrupt()


class StopFlag:
    """Set by Ctrl-C while :func:`sigint_stops` is active (or by :meth:`set`).

    ``event`` is a threading.Event for the runners; ``hurry`` is set by a second Ctrl-C (stop
    waiting for the work under way, keep what has come back); ``presses`` counts Ctrl-C.
    """

    def __init__(self):
        self.event = threading.Event()
        self.hurry = threading.Event()
        self.presses = 0

    def set(self) -> None:
        self.event.set()
        stop_core()

    def is_set(self) -> bool:
        return self.event.is_set()

    def __bool__(self) -> bool:
        return self.is_set()


@contextmanager
def sigint_stops(hard_after: int = 2):
    """Within the block, Ctrl-C sets a :class:`StopFlag` (and the core's stop flag) instead
    of raising, the second one also its ``hurry``; the ``hard_after``-th Ctrl-C raises
    KeyboardInterrupt.  Outside the main
    thread it only yields a flag.  The core's flag is cleared on entry and on exit."""
    flag = StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    clear_core()
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum, frame):
        flag.presses += 1
        flag.set()
        if flag.presses >= 2:
            flag.hurry.set()
        if flag.presses >= hard_after:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)
        clear_core()


@contextmanager
def wrapping_up(hard_after: int = 3):
    """While a command that a Ctrl-C stopped writes what it kept and prints how to resume:
    more presses (a user pressing twice, a terminal sending it again) are counted and do not
    interrupt that; the ``hard_after``-th raises KeyboardInterrupt.  Outside the main thread
    it does nothing."""
    with sigint_stops(hard_after=hard_after):
        yield


def exit_interrupted(code: int = EXIT_INTERRUPTED, wait: float = 0.5):
    """Exit with ``code`` after Ctrl-C, at once.

    The caller has written and closed its files and printed what it had to.  A search thread
    still running (a core without the stop flag) would keep the interpreter from exiting
    (concurrent.futures joins its workers at exit, daemon or not), and tearing down numpy,
    pandas and pyarrow takes a second or more on a busy machine: after ``wait`` seconds for
    the other threads, a real process (stdout is a file descriptor) flushes its output and
    ends at once.  Elsewhere (click's test runner) it raises SystemExit as usual.
    """
    deadline = time.monotonic() + wait
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    for t in others:
        t.join(max(0.0, deadline - time.monotonic()))
    try:
        sys.stdout.fileno()
        real = True
    except (AttributeError, OSError, ValueError):       # io.UnsupportedOperation is OSError
        real = False
    if real:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
