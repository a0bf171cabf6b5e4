"""``python -m duelpy.cli``: the ``duel`` command."""
import sys

from duelpy.cli.main import main

sys.exit(main())
