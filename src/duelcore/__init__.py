"""duelcore: the Cython cores of the games, one package per game.

``duelcore.duel`` is 7 Wonders Duel, ``duelcore.seven`` 7 Wonders, and ``duelcore.common`` what
every game's core shares (the Ctrl-C stop flag, the monotonic clock, bit helpers, the RNG).
The names below are 7 Wonders Duel's, as they always were (``duelcore.new_game``,
``duelcore.State``, ...).  The flat module names of before stay importable, as aliases of the
very same modules: ``duelcore.engine``, ``duelcore.search``, ``duelcore.kernels`` and
``duelcore.data`` are ``duelcore.duel.*``; ``duelcore.seven_data`` is ``duelcore.seven.data``.
"""


def _stale_flat_builds() -> list[str]:
    """Compiled modules of the flat layout left in this folder by an old in-place build: they
    would shadow the alias modules (an old ``engine`` beside the new one)."""
    import importlib.machinery
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.join(here, name + suffix) for name in ("engine", "search", "kernels")
            for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if os.path.exists(os.path.join(here, name + suffix))]


if _stale_flat_builds():
    raise ImportError("stale compiled modules of the old flat duelcore layout shadow the new "
                      "ones; delete them and rebuild: " + " ".join(_stale_flat_builds()))

from duelcore.duel import *  # noqa: E402,F401,F403  (the rules engine's public names)
from duelcore.duel import __all__  # noqa: E402,F401
from duelcore import data, engine  # noqa: E402,F401  (loaded by `import duelcore`, as before)
