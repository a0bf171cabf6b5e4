"""Ctrl-C for every game's core: one process-wide stop flag (typed stub)."""
from types import TracebackType

from typing_extensions import disjoint_base

def interrupt() -> None:
    """Ask every running search and batch run of every game's core to stop now (any thread)."""

def clear_interrupt() -> None:
    """Clear the stop flag set by :func:`interrupt` or by Ctrl-C."""

def interrupted() -> bool:
    """True if the stop flag is set."""

@disjoint_base
class SearchStop:
    """A stop token for one search (``stop=``): :meth:`set` stops that search alone."""

    def __init__(self) -> None: ...
    def set(self) -> None:
        """Ask the searches given this token to stop now."""
    def clear(self) -> None:
        """Let searches given this token run again."""
    @property
    def is_set(self) -> bool:
        """True once :meth:`set` was called (until :meth:`clear`)."""

class _SigintHook:
    """While a core call runs in the main thread, Ctrl-C sets the stop flag."""

    hooked: bool
    def __enter__(self) -> _SigintHook: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool: ...
