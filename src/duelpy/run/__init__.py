"""The one runner under every command that plays many games (simulate, study, ladder):
chunks of games on local threads, processes or Ray (:mod:`~duelpy.run.backends`), handed
over as they finish and stoppable without losing a finished game
(:mod:`~duelpy.run.runner`), saved in a resumable output folder (:mod:`~duelpy.run.folder`),
with a progress bar (:mod:`~duelpy.run.progress`)."""
