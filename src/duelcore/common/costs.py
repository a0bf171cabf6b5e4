"""Printed costs of the card tables, shared by the games' data modules."""
from __future__ import annotations

__all__ = ["parse_cost"]


def parse_cost(text: str, resources: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
    """Parse a printed cost such as ``"3 coins, 1 clay"`` into ``(coins, units)``, ``units``
    holding one count per name of ``resources`` (in that order); ``""`` is free.

    Raises ``ValueError`` naming the part that is not ``<count> <resource|coin|coins>``.
    """
    coins, units = 0, [0] * len(resources)
    for part in filter(None, (p.strip() for p in text.split(","))):
        count, _, what = part.partition(" ")
        if not count.isdigit():
            raise ValueError(f"bad cost part {part!r} in {text!r}")
        if what in ("coin", "coins"):
            coins += int(count)
        elif what in resources:
            units[resources.index(what)] += int(count)
        else:
            raise ValueError(f"unknown resource {what!r} in {text!r}")
    return coins, tuple(units)
