"""What every game's study spec shares: arms (the control and the treatments) played on the
same ``games`` seeds, laid out in chunks for the runner, and what a resume must match."""
from __future__ import annotations

__all__ = ["ArmsOnSameGames"]


class ArmsOnSameGames:
    """A mixin for a study spec with ``games`` (per arm), ``arms`` (names, control first)
    and ``to_dict()`` (with ``name`` and ``chunk_size``, which a resume may change)."""

    games: int

    @property
    def arms(self) -> list[str]:            # the spec's own
        raise AttributeError("a study spec names its arms")

    def to_dict(self) -> dict:              # the spec's own
        raise AttributeError("a study spec gives its data")

    @property
    def total_games(self) -> int:
        """Games in all arms: ``games`` x the arms."""
        return self.games * len(self.arms)

    def identity(self) -> dict:
        """What must match for ``resume``: everything that changes a game or the arms."""
        d = self.to_dict()
        del d["name"], d["chunk_size"]
        return d

    def jobs(self, chunk: int) -> list[tuple[int, int, int]]:
        """(arm, lo, hi) of every chunk, game-major so that every arm advances together."""
        return [(arm, lo, min(self.games, lo + chunk))
                for lo in range(0, self.games, chunk) for arm in range(len(self.arms))]
