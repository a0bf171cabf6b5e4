"""Pieces every game and every command share: the agent-spec grammar and option tables
(:mod:`~duelpy.base.specs`), Ctrl-C handling (:mod:`~duelpy.base.interrupt`), safe output
files (:mod:`~duelpy.base.output`), terminal tables (:mod:`~duelpy.base.tables`) and
confidence intervals (:mod:`~duelpy.base.stats`)."""
