"""The ``duel`` command line (entry point :func:`main`)."""
from duelpy.cli.main import main  # noqa: F401
