"""Monte Carlo balance studies: a control arm and treatments played on the same seeds,
saved in chunks, reported with 95% intervals (see :func:`run_study`)."""
from duelpy.study.run import (  # noqa: F401
    CONTROL, StudyError, StudyInterrupted, StudyResult, StudySpec, Treatment, load_spec,
    read_games, run_study,
)
