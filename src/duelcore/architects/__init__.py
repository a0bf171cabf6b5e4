"""duelcore.architects: the Cython rules engine of 7 Wonders Architects (2..7 players).

The rules, the state (``engine.pxd``), chance, invariants, agents and batch runs live in
:mod:`duelcore.architects.engine`; the component tables in :mod:`duelcore.architects.data`.
"""
