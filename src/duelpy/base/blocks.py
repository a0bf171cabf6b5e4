"""Flat observation vectors made of named blocks (the PettingZoo and OpenSpiel observations of
7 Wonders and Architects): where each block starts, and the vector's length."""
from __future__ import annotations

__all__ = ["block_offsets"]


def block_offsets(blocks: list[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """``({name: first index}, total length)`` of ``blocks``, a list of ``(name, size)`` in
    vector order."""
    pos, at = {}, 0
    for name, size in blocks:
        pos[name] = at
        at += size
    return pos, at
