"""Micro-benchmark loops of the Duel core, timed inside compiled code (typed stub)."""
from duelcore.duel.engine import State

def copy_loop(states: list[State], n: int) -> int:
    """Copy a pool state into a scratch state ``n`` times."""

def legal_loop(states: list[State], n: int) -> int:
    """Generate the legal actions of pool states ``n`` times; the total action count."""

def apply_loop(states: list[State], actions: list[int], n: int) -> int:
    """Copy a pool state and apply its action ``n`` times."""

def cost_loop(states: list[State], n: int) -> int:
    """Solve the coin cost of every card and wonder for the player to move, ``n`` times."""
