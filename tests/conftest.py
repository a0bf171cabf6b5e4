"""Test settings shared by the whole suite.

Property tests (hypothesis) run derandomized by default, so the default suite does the same
thing on every machine and every run.  ``HYPOTHESIS_PROFILE=random`` draws new examples
instead, with the seed given by ``--hypothesis-seed=N``: the check that the suite passes
whatever the examples (docs/architecture.md shows it, three seeds in a row).
"""
import os

from hypothesis import settings

settings.register_profile("derandomized", derandomize=True, deadline=None,
                          print_blob=True)
settings.register_profile("random", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))
