"""What a ladder is: its game, agents (with the budget applied), games and seed, validated
(:class:`LadderSpec`), and how its games are laid out in chunks for the runner.

Duel (2 players): every pair of agents (a *pairing*) plays ``games`` games on the same seeds;
game ``g`` of every pairing has the seed ``game_seeds(seed, ...)[g // 2]`` and the pairing's
first agent sits in P1's seat when ``g`` is even, so each seed is played twice with the seats
swapped.  7 Wonders (N players): ``games`` games in which the agents rotate through the seats
(game g, seat s: agent (g + s) mod K); the results are the pairwise comparisons of who
finished ahead (:func:`duelpy.seven.ladder.pairwise`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from duelpy.base.errors import LadderError
from duelpy.base.game import ChunkTask
from duelpy.games import get_game

__all__ = ["LadderSpec", "resolve_agents", "check_budget"]

_MAX_SEED = 2**64 - 1


def check_budget(seconds, iterations) -> tuple[str | None, float | int | None]:
    """``("seconds", s)``, ``("iterations", n)`` or ``(None, None)``; LadderError for a bad
    or double budget."""
    if seconds is not None and iterations is not None:
        raise LadderError("give either seconds or iterations per move, not both")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or not math.isfinite(seconds) or not 0 < seconds <= 3600:
            raise LadderError(f"seconds per move must be a number in (0, 3600], not {seconds!r}")
        return "seconds", float(seconds)
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) \
                or not 1 <= iterations <= 100_000_000:
            raise LadderError(f"iterations per move must be an integer from 1 to "
                              f"100,000,000, not {iterations!r}")
        return "iterations", int(iterations)
    return None, None


def resolve_agents(agents, seconds=None, iterations=None, game: str = "duel"
                   ) -> list[tuple[str, str, bool]]:
    """The ladder's agents with the budget applied: ``[(spec, name, budgeted), ...]``.

    ``spec`` is the description the games are played with, ``name`` the agent's own name
    (the key of every table) and ``budgeted`` whether the budget was given to it (False for
    agents that take none, such as ``random`` and ``greedy``).

    Raises
    ------
    LadderError
        Fewer than 2 agents, an unknown or malformed agent, an agent given twice (two specs
        with the same name), a spec that has its own budget when a ladder budget is given,
        or a bad budget.
    """
    g = get_game(game)
    key, value = check_budget(seconds, iterations)
    if isinstance(agents, str) or not isinstance(agents, (list, tuple)):
        raise LadderError("agents must be a list of agent descriptions like "
                          "['random', 'greedy', 'mcts:iterations=200']")
    if len(agents) < 2:
        raise LadderError(f"a ladder needs at least 2 agents, got {len(agents)}")
    out: list[tuple[str, str, bool]] = []
    seen: dict[str, str] = {}
    for text in agents:
        if not isinstance(text, str):
            raise LadderError(f"an agent is a description like 'mcts:iterations=200', "
                              f"not {type(text).__name__}")
        text = " ".join(text.split())
        try:
            name = g.agent_name(text)
        except ValueError as e:
            msg = str(e).removeprefix(f"{text!r}: ")    # some errors quote the text already
            if repr(text) in msg:                       # and some name it inside
                raise LadderError(msg) from None
            raise LadderError(f"agent {text!r}: {msg}") from None
        spec, budgeted = text, False
        if key is not None:
            try:
                with_budget = g.with_budget(text, key, value)
            except ValueError as e:
                raise LadderError(str(e)) from None
            if with_budget is not None:
                spec, budgeted = with_budget, True
                name = g.agent_name(spec)
        if name in seen:
            same = "" if seen[name] == text else f" (as {seen[name]!r} and {text!r})"
            raise LadderError(f"agent {name!r} is given twice{same}; each agent plays "
                              f"once on a ladder")
        seen[name] = text
        out.append((spec, name, budgeted))
    return out


@dataclass(frozen=True)
class LadderSpec:
    """A validated ladder.

    Attributes
    ----------
    agents : tuple of str
        The agents' descriptions as played (the budget applied).
    names : tuple of str
        The agents' names (the key of every table).
    games : int
        Duel: games per pairing (every pair of agents); 7 Wonders: games in all.
    seed : int
        Base seed, 0 .. 2**64 - 1.
    seconds, iterations : float or int or None
        The budget per decision given to every search agent (at most one of them).
    budgeted : tuple of bool
        Whether each agent took the budget.
    game : str
        The game ("duel", "seven").
    players : int
        Players per game (Duel: 2).
    """

    agents: tuple
    names: tuple
    games: int
    seed: int = 0
    seconds: float | None = None
    iterations: int | None = None
    budgeted: tuple = ()
    game: str = "duel"
    players: int = 2
    setup: dict = field(default_factory=dict)

    @classmethod
    def build(cls, agents, games, seed=0, seconds=None, iterations=None, game: str = "duel",
              players: int | None = None) -> "LadderSpec":
        """Validate the arguments of ``run_ladder``; LadderError (one line) otherwise."""
        try:
            g = get_game(game)
        except ValueError as e:
            raise LadderError(str(e)) from None
        players = g.default_players if players is None else players
        if isinstance(players, bool) or not isinstance(players, int) or players not in g.players:
            raise LadderError(f"{g.title} is played by {g.players.start} to "
                              f"{g.players.stop - 1} players, not {players!r}")
        resolved = resolve_agents(agents, seconds, iterations, g.name)
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 10**9:
            what = "games per pairing" if g.name == "duel" else "games"
            raise LadderError(f"{what} must be an integer from 1 to 1,000,000,000, "
                              f"not {games!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED:
            raise LadderError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        key, value = check_budget(seconds, iterations)
        return cls(agents=tuple(r[0] for r in resolved), names=tuple(r[1] for r in resolved),
                   games=games, seed=seed,
                   seconds=value if key == "seconds" else None,
                   iterations=int(value) if key == "iterations" and value is not None else None,
                   budgeted=tuple(r[2] for r in resolved), game=g.name, players=players)

    @property
    def pairings(self) -> list[tuple[int, ...]]:
        """Duel: (i, j) with i < j for every pair of agents, in order.  7 Wonders: one
        group, every agent (rotated through the seats)."""
        k = len(self.agents)
        if self.game != "duel":
            return [tuple(range(k))]
        return [(i, j) for i in range(k) for j in range(i + 1, k)]

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    @property
    def rows_per_game(self) -> int:
        return 1 if self.game == "duel" else self.players

    @property
    def budget(self) -> str:
        """'0.1 s per move', '200 iterations per move' or 'as given per agent'."""
        if self.seconds is not None:
            return f"{self.seconds:g} s per move"
        if self.iterations is not None:
            return f"{self.iterations:,} iterations per move"
        return "as given per agent"

    def to_dict(self) -> dict:
        d = {"agents": list(self.agents), "games": self.games, "seed": self.seed,
             "seconds": self.seconds, "iterations": self.iterations}
        if self.game != "duel":
            d.update(game=self.game, players=self.players)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "LadderSpec":
        # the agents were saved with the budget applied: rebuild from the saved specs as they
        # are, then restore the budget fields
        game = d.get("game", "duel")
        base = cls.build(list(d["agents"]), d["games"], d.get("seed", 0), game=game,
                         players=d.get("players"))
        key, value = check_budget(d.get("seconds"), d.get("iterations"))
        g = get_game(game)
        return cls(agents=base.agents, names=base.names, games=base.games, seed=base.seed,
                   seconds=value if key == "seconds" else None,
                   iterations=int(value) if key == "iterations" and value is not None else None,
                   budgeted=tuple(key is not None and g.has_budget(a, key)
                                  for a in base.agents),
                   game=base.game, players=base.players)

    # ---------------------------------------------------------------- for the runner
    def default_chunk_sizes(self) -> list[int]:
        """Games per chunk of each pairing: about 5 s of one core, at most 5,000 and at most
        1/8 of the pairing's games, at least 1."""
        g = get_game(self.game)
        out = []
        for group in self.pairings:
            cost = sum(g.decision_cost(self.agents[i]) for i in group) / len(group)
            cost = g.decisions_per_game(self.players) * cost + 1e-4
            out.append(max(1, min(5000, math.ceil(self.games / 8), int(5.0 / cost))))
        return out

    def jobs(self, chunks: list[int]) -> list[tuple[int, int, int]]:
        """(pairing, lo, hi) of every chunk, ordered by first game so that every pairing
        advances together."""
        jobs = [(p, lo, min(self.games, lo + chunks[p]))
                for p in range(len(self.pairings)) for lo in range(0, self.games, chunks[p])]
        return sorted(jobs, key=lambda j: (j[1], j[0]))

    def task(self, job: tuple) -> ChunkTask:
        pairing, lo, hi = job
        group = self.pairings[pairing]
        agents = tuple(self.agents[i] for i in group)
        seating = "pairs" if self.game == "duel" else "rotate"
        return ChunkTask(self.game, self.players, agents, seating, dict(self.setup), self.seed,
                         lo, hi)

    def processes(self) -> bool:
        return get_game(self.game).needs_processes(self.agents)

    def cpus_per_task(self) -> int:
        return get_game(self.game).cpus_per_task(self.agents)

    def rows(self, job: tuple, raw: dict) -> pd.DataFrame:
        pairing = job[0]
        group = self.pairings[pairing]
        g = get_game(self.game)
        names = [self.names[i] for i in group]
        df = g.rows(self.task(job), raw, names)
        if self.game == "duel":
            df.insert(0, "agent_b", names[1])
            df.insert(0, "agent_a", names[0])
            df.insert(0, "pairing", pd.array([pairing] * len(df), dtype="int16"))
        return df

    def finish_table(self, df: pd.DataFrame) -> pd.DataFrame:
        if self.game != "duel":
            return df.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)
        df = df.sort_values(["pairing", "game"], kind="stable").reset_index(drop=True)
        df["victory"] = pd.Categorical(df["victory"].astype(str),
                                       categories=["civilian", "military", "scientific",
                                                   "shared"])
        return df

    def comparisons(self, games: pd.DataFrame) -> pd.DataFrame:
        """The pairwise results the ratings are fitted to (columns p1, p2, winner)."""
        return get_game(self.game).comparisons(games)
