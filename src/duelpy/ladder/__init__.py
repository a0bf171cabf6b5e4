"""Rating ladders: a round robin between agents, rated by a Bradley–Terry fit on the Elo
scale (see :func:`run_ladder`)."""
from duelpy.ladder.run import (  # noqa: F401
    LadderError, LadderInterrupted, LadderResult, LadderSpec, fit_ratings, head_to_head,
    head_to_head_matrix, read_ladder, run_ladder, write_plot,
)
