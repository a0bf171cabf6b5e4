"""Balance studies for 7 Wonders: games between agents under the rules (the *control*) and
under *treatments* (a wonder board or side forced, a card removed), reported as win rates by
wonder board and side, by side and by seat, with 95% intervals.

>>> from duelpy.seven.study import Arm, run_study, study_tables
>>> frame = run_study(4, ["greedy"] * 4, games=200, seed=1,
...                   arms=[Arm.make(remove=["Scientists Guild"])])     # doctest: +SKIP
>>> study_tables(frame)["Control"]["seat"]                               # doctest: +SKIP

Games are played in compiled code (:func:`duelcore.seven.play_games_detail`), in chunks (so a
long study shows progress and can use several threads: the core releases the GIL).  Game
``g`` of every arm has the same seed, hence the same deal of boards and cards wherever the
treatment leaves them alone (common random numbers); chunking and threads never change the
games.  A win is the game's win (highest VP, then most coins, W-END-2); a shared win counts
as a fraction (1/k for each of k winners).  Intervals of a rate are 95% Wilson intervals; the
change of a seat's win rate under a treatment is the mean of the paired per-game differences
with a normal 95% interval.

Treatments (not rules; see :func:`duelcore.seven.new_state`):

* ``sides="A"`` / ``"B"``: every board on that side (W-SETUP-4's options);
* ``boards``: a board, or a board and side, forced on seats (``{0: "Rhodos B"}``);
* ``remove``: cards left out of the game; a removed guild is never drawn, and each copy of a
  removed Age card is replaced by a spare copy of the same Age (a copy marked for more
  players) drawn from the game's seed, so every Age still deals 7 cards a player (W-AGE-2).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import pandas as pd

from duelcore import seven as _core

from duelpy.base.errors import StudyError
from duelpy.base.game import ChunkTask
from duelpy.base.study import SeatReport, SeatStudySpec
from duelpy.base.seat_tables import (change_interval as _change_interval, check_study_numbers,
                                    independent_change, markdown_table as _markdown_table,
                                    paired_change, pct as _pct, study_file_head, summarise)
from duelpy.base.stats import proportion_ci as _wilson  # noqa: F401 - for the tests
from duelpy.base.tables import Column, print_table
from duelpy.seven.agents import lineup as _lineup, parse_agent
from duelpy.run.backends import FuturesBackend
from duelpy.run.runner import Chunks, play_chunks
from duelpy.seven.batch import EMPTY, chunk_rows, play_chunk
from duelpy.seven.names import resolve_board, resolve_card


@dataclass(frozen=True)
class Arm:
    """One arm of a study: a name and its set-up (``sides``: None, "A" or "B"; ``boards``:
    ``((seat, "Board [side]"), ...)``; ``remove``: card names)."""

    name: str = "Control"
    sides: str | None = None
    boards: tuple = ()
    remove: tuple = field(default_factory=tuple)

    @classmethod
    def make(cls, name=None, sides=None, boards=None, remove=None) -> "Arm":
        """An arm with checked names (cards and boards in any case) and a default name."""
        if sides not in (None, "random", "A", "B"):
            raise ValueError(f"sides must be A or B, not {sides!r}")
        sides = None if sides == "random" else sides
        b = tuple(sorted((int(seat), resolve_board(w)) for seat, w in dict(boards or {}).items()))
        r = tuple(dict.fromkeys(resolve_card(c) for c in (remove or ())))
        if name is None:
            parts = []
            if sides:
                parts.append(f"all side {sides}")
            parts += [f"P{seat + 1} {w}" for seat, w in b]
            if r:
                parts.append("without " + ", ".join(r))
            name = "; ".join(parts) or "Control"
        return cls(name=name, sides=sides, boards=b, remove=r)

    def setup(self, players: int) -> dict:
        """Keyword arguments of ``new_state`` / ``play_games_detail``, checked for
        ``players`` (raises ValueError naming the problem)."""
        seats = 3 if players == 2 else players
        boards = None
        if self.boards:
            boards = [None] * seats
            for seat, w in self.boards:
                if not 0 <= seat < players:
                    raise ValueError(f"seat P{seat + 1}: a {players}-player game has seats "
                                     f"P1..P{players}")
                boards[seat] = w
        kw: dict[str, Any] = {"sides": self.sides or "random", "boards": boards,
              "remove": list(self.remove) or None}
        _core.new_state(players, 0, **kw)        # the core's own checks (unknown, too few...)
        return kw


def chunk_size(agents) -> int:
    """Games per chunk of a batch: about 4,000 MCTS iterations per seat, at most 500 games."""
    cost = sum(int(a.split(":")[1]) if a.startswith("mcts:") else 1 for a in agents)
    return max(1, min(500, 4000 // max(1, cost // max(1, len(agents)))))


_games_per_chunk = chunk_size          # the spec's field chunk_size hides the name


def games_frame(players: int, agents, games: int, seed: int = 0, sides=None, boards=None,
                remove=None, lineups=None, jobs: int = 1, progress=None) -> pd.DataFrame:
    """One row per (game, seat) (:func:`duelpy.seven.batch.chunk_rows`: ``game``, ``seat``,
    ``agent``, ``board``, ``side``, ``vp`` and VP by category, ``coins``, ``win``); the Free
    City's seat 2 (in the 2-player variant) is left out.

    ``agents``: one description per seat, or with ``lineups`` (one list of indices into
    ``agents`` per game) any number.  The games are played in chunks on ``jobs`` threads by
    the one runner; ``progress(done, games)`` is called after each chunk.  Raises ValueError
    for a bad agent or set-up, KeyboardInterrupt (after the workers stopped) on Ctrl-C."""
    agents = [str(a) for a in agents]
    agents = _lineup(agents, players) if lineups is None else [parse_agent(a) for a in agents]
    setup = {"sides": sides, "boards": boards, "remove": remove}
    task = ChunkTask("seven", players, tuple(agents), "fixed" if lineups is None else "lineups",
                     setup, seed, 0, 0, extra={"lineups": lineups})
    if games == 0 or lineups is not None and len(lineups) < games:
        play_chunk(replace(task, hi=0, seating="fixed"))      # the core's own checks
        if lineups is not None and len(lineups) < games:
            raise ValueError(f"lineups must give one line-up per game ({games})")
        return chunk_rows(task, dict(EMPTY))
    parts: dict = {}

    def save(job, raw) -> int:
        parts[job[0]] = chunk_rows(replace(task, lo=job[0], hi=job[1]), raw)
        n = len(raw["winners"])
        if progress:
            progress(sum(len(p) for p in parts.values()) // players, games)
        return n

    backend = FuturesBackend(play_chunk, jobs, processes=False)
    try:
        outcome = play_chunks(backend, Chunks(games, chunk_size(agents)), save,
                              task=lambda job: replace(task, lo=job[0], hi=job[1]))
    finally:
        backend.close()
    if outcome.interrupted:
        raise KeyboardInterrupt
    return pd.concat([parts[lo] for lo in sorted(parts)], ignore_index=True)


def run_study(players: int, agents, games: int, seed: int = 0, arms=(), control: bool = True,
              jobs: int = 1, progress=None) -> pd.DataFrame:
    """The games of a study: the control arm (the rules) unless ``control`` is False, then
    each of ``arms`` (:class:`Arm`), ``games`` games each on the same seeds.  Returns
    :func:`games_frame`'s rows with an ``arm`` column (first column).  ``progress(done,
    total)`` counts games over all arms.  Raises ValueError for a bad agent or arm."""
    arms = ([Arm()] if control else []) + list(arms)
    if not arms:
        raise ValueError("a study needs at least one arm")
    names = [a.name for a in arms]
    if len(set(names)) != len(names):
        raise ValueError(f"two arms have the same name: {names}")
    setups = [a.setup(players) for a in arms]       # every arm checked before any game
    agents = _lineup(list(agents) if not isinstance(agents, str) else agents, players)
    total = games * len(arms)
    frames = []
    for i, (arm, kw) in enumerate(zip(arms, setups)):
        cb = None if progress is None else (lambda d, _g, i=i: progress(i * games + d, total))
        f = games_frame(players, agents, games, seed, jobs=jobs, progress=cb, **kw)
        f.insert(0, "arm", arm.name)
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def same_boards(frame: pd.DataFrame, arm: str, control: str = "Control") -> bool:
    """True if every seat of every game has the same board and side in both arms (as when
    the treatment only removes cards: the same seeds deal the same boards)."""
    a = frame[frame["arm"] == control].set_index(["game", "seat"])[["board", "side"]]
    b = frame[frame["arm"] == arm].set_index(["game", "seat"])[["board", "side"]]
    return a.index.equals(b.index) and a.equals(b)


def change(frame: pd.DataFrame, arm: str, control: str = "Control",
           by=("board", "side")) -> pd.DataFrame:
    """The change of the win rate by ``by`` from ``control`` to ``arm``.  When the two arms
    deal the same boards and sides to every seat of every game (:func:`same_boards`), it is
    :func:`paired_change`; otherwise the difference of the two rates with a normal 95%
    interval for independent samples.  Columns ``games`` (of the treatment), ``control``,
    ``treatment`` (rates), ``change``, ``ci_low``, ``ci_high``; a group absent from either
    arm is left out.  ``attrs["paired"]`` says which."""
    by = list(by)
    if same_boards(frame, arm, control):
        out = paired_change(frame, arm, control, by)
        out.attrs["paired"] = True
        return out
    out = independent_change(frame, arm, control, by)
    out.attrs["paired"] = False
    return out


def study_tables(frame: pd.DataFrame) -> dict:
    """Per arm: ``board_side``, ``side`` and ``seat`` tables (:func:`summarise`), and for each
    arm but the first, ``change_seat`` (:func:`paired_change` by seat against the first arm)
    and ``change_board_side`` (:func:`change` by board and side)."""
    arms = list(dict.fromkeys(frame["arm"]))
    out = {}
    for arm in arms:
        f = frame[frame["arm"] == arm]
        t = {"board_side": summarise(f, ["board", "side"]), "side": summarise(f, ["side"]),
             "seat": summarise(f, ["seat"])}
        if arm != arms[0]:
            t["change_seat"] = paired_change(frame, arm, arms[0], "seat")
            t["change_board_side"] = change(frame, arm, arms[0])
        out[arm] = t
    return out


def _interval(lo, hi) -> str:
    return f"{100 * lo:.1f}%–{100 * hi:.1f}%"


def display_rows(table: pd.DataFrame, kind: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of strings of a :func:`study_tables` table (``kind``: board_side,
    side, seat, agent, change_seat or change_board_side), for Markdown and the terminal."""
    rows = []
    if kind in ("change_seat", "change_board_side"):
        keys = ["seat"] if kind == "change_seat" else ["board", "side"]
        head = keys + ["games", "control", "treatment", "change", "95% interval"]
        for idx, r in table.iterrows():
            idx = idx if isinstance(idx, tuple) else (idx,)
            first = [f"P{v + 1}" if k == "seat" else str(v) for k, v in zip(keys, idx)]
            rows.append(first + [f"{int(r.games):,}", _pct(r.control), _pct(r.treatment),
                                 f"{100 * r.change:+.1f} pts",
                                 _change_interval(r)])
        return head, rows
    keys = {"board_side": ["board", "side"], "side": ["side"], "seat": ["seat"],
            "agent": ["agent"]}[kind]
    head = keys + ["games", "win rate", "95% interval", "mean VP"]
    for idx, r in table.iterrows():
        idx = idx if isinstance(idx, tuple) else (idx,)
        first = [f"P{v + 1}" if k == "seat" else str(v) for k, v in zip(keys, idx)]
        rows.append(first + [f"{int(r.games):,}", _pct(r.win_rate),
                             _interval(r.ci_low, r.ci_high), f"{r.mean_vp:.1f}"])
    return head, rows


def markdown_table(head, rows) -> str:
    """A Markdown table of strings, the board, side and seat columns left-aligned."""
    return _markdown_table(head, rows, {"board", "side", "seat"})


TITLES = {"board_side": "Win rate by wonder board and side", "side": "Win rate by side",
          "seat": "Win rate by seat",
          "change_seat": "Change of each seat's win rate against the control (paired "
                         "on the same games)",
          "change_board_side": "Change of each board and side's win rate against the "
                               "control (paired when both arms deal the same boards)"}


def report_markdown(frame: pd.DataFrame, players: int, agents, seed: int,
                    command: str | None = None) -> str:
    """The study's report in Markdown: set-up, then per arm the tables of
    :func:`study_tables`."""
    arms = list(dict.fromkeys(frame["arm"]))
    games = frame[frame["arm"] == arms[0]]["game"].nunique()
    parts = ["# 7 Wonders study", "",
             f"- {players} players{' (Free City variant)' if players == 2 else ''}; agents "
             f"{', '.join(agents)}; {games:,} games per arm, seed {seed} (the same seeds in "
             f"every arm)",
             "- win = highest VP, then most coins (W-END-2); a shared win counts 1/k; 95% "
             "Wilson intervals; a change is the mean paired per-game difference"]
    if command:
        parts.append(f"- reproduce: `{command}`")
    tables = study_tables(frame)
    for arm in arms:
        parts += ["", f"## {arm}"]
        for kind, t in tables[arm].items():
            head, rows = display_rows(t, kind)
            parts += ["", f"### {TITLES[kind]}", "", markdown_table(head, rows)]
    return "\n".join(parts) + "\n"


def side_study(players: int = 4, agents=None, games: int = 1000, seed: int = 0,
               sides=None) -> pd.DataFrame:
    """Win rate by board and side (W-SETUP-4) for ``players`` equal agents (default greedy)."""
    agents = agents or ["greedy"] * players
    return summarise(games_frame(players, agents, games, seed, sides=sides), ["board", "side"])


# ---------------------------------------------------------------- the study file and runner
_TOP_KEYS = ("name", "games", "seed", "chunk_size", "players", "agents", "options", "treatment")
_ARM_KEYS = ("sides", "boards", "remove")


def _arm_from(table, where: str, name=None) -> Arm:
    if not isinstance(table, dict):
        raise StudyError(f"{where} must be a table of {', '.join(_ARM_KEYS)}")
    unknown = sorted(set(table) - set(_ARM_KEYS) - {"name"})
    if unknown:
        raise StudyError(f"{where}: unknown key {unknown[0]!r} (keys: name, "
                         f"{', '.join(_ARM_KEYS)})")
    boards = table.get("boards") or {}
    if not isinstance(boards, dict):
        raise StudyError(f"{where}.boards must be a table such as {{ p1 = \"Rhodos B\" }}")
    seats = {}
    for key, board in boards.items():
        k = str(key).strip().lower().lstrip("p")
        if not k.isdigit() or not 1 <= int(k) <= 7:
            raise StudyError(f"{where}.boards: {key!r} is not a seat (p1..p7)")
        seats[int(k) - 1] = board
    remove = table.get("remove") or []
    if isinstance(remove, str):
        remove = [remove]
    try:
        return Arm.make(name=table.get("name", name), sides=table.get("sides"), boards=seats,
                        remove=list(remove))
    except ValueError as e:
        raise StudyError(f"{where}: {e}") from None


def _arm_table(arm: Arm) -> dict:
    t: dict = {}
    if arm.sides:
        t["sides"] = arm.sides
    if arm.boards:
        t["boards"] = {f"p{seat + 1}": w for seat, w in arm.boards}
    if arm.remove:
        t["remove"] = list(arm.remove)
    return t


@dataclass(frozen=True)
class SevenStudySpec(SeatStudySpec):
    """A validated 7 Wonders study: ``players`` (2..7; 2 is the Free City variant), one
    canonical agent per seat (``agents``), ``games`` per arm on the same seeds (game g of
    every arm has the same deal wherever the treatment leaves it alone), the ``control`` arm
    (the rules, or all boards on one side) and the ``treatments`` (:class:`Arm`: a side, a
    board at a seat, cards removed).

    The study file::

        game = "seven"
        players = 4
        games = 4000
        [agents]
        seats = ["mcts:200", "greedy", "greedy", "greedy"]   # or one agent for every seat
        [options]
        sides = "random"                                     # the control: random, A or B
        [[treatment]]
        sides = "B"
        [[treatment]]
        boards = { p1 = "Rhodos B" }
        [[treatment]]
        remove = ["Scientists Guild"]
    """

    control: Arm = Arm()

    game: ClassVar[str] = "seven"

    @classmethod
    def make(cls, players: int, agents, games: int = 1000, seed: int = 0, control=None,
             treatments=(), name: str = "", chunk_size: int | None = None) -> "SevenStudySpec":
        """A checked study (StudyError naming the problem)."""
        check_study_numbers(players, games, seed, chunk_size)
        try:
            lineup = _lineup(agents if isinstance(agents, str) else list(agents), players)
        except ValueError as e:
            raise StudyError(f"agents: {e}") from None
        control = control or Arm()
        if control.boards or control.remove:
            raise StudyError("the control plays the rules (only its sides may be set); a "
                             "forced board or a removed card is a treatment")
        arms = [replace(control, name="Control")] + list(treatments)
        names = [a.name for a in arms]
        if len(set(names)) != len(names):
            raise StudyError(f"two arms have the same name: {', '.join(names)}")
        for a in arms:
            try:
                a.setup(players)
            except ValueError as e:
                raise StudyError(f"treatment {a.name!r}: {e}") from None
        return cls(players=players, agents=tuple(lineup), games=games, seed=seed,
                   control=arms[0], treatments=tuple(arms[1:]), name=name,
                   chunk_size=chunk_size)

    def to_dict(self) -> dict:
        return {"name": self.name, "games": self.games, "seed": self.seed,
                "chunk_size": self.chunk_size, "players": self.players,
                "agents": {"seats": list(self.agents)},
                "options": _arm_table(self.control),
                "treatment": [{"name": t.name, **_arm_table(t)} for t in self.treatments]}


    @classmethod
    def from_dict(cls, d: dict, where: str = "study") -> "SevenStudySpec":
        at, players, seats, name, treats = study_file_head(d, where, _TOP_KEYS)
        control = _arm_from(d.get("options", {}), at("options"), name="Control")
        arms = []
        for k, t in enumerate(treats):
            w = at(f"treatment[{k}]")
            arm = _arm_from(t, w)
            if not (arm.sides or arm.boards or arm.remove):
                raise StudyError(f"{w}: a treatment sets at least one of {', '.join(_ARM_KEYS)}")
            arms.append(arm)
        return cls.from_parts(d, players, seats, name, control, arms)

    # ---------------------------------------------------------------- for the study runner
    chunk_rows = staticmethod(chunk_rows)
    games_per_chunk = staticmethod(_games_per_chunk)

    def arm_setup(self, k: int) -> dict:
        return self.arm(k).setup(self.players)

    def report(self, df: pd.DataFrame) -> "SevenReport":
        return SevenReport(self, df)


class SevenReport(SeatReport):
    """The report of a 7 Wonders study: :func:`study_tables` as Markdown (``report.md``)
    and rich tables."""

    def markdown(self) -> str:
        md = report_markdown(self.frame, self.spec.players, list(self.spec.agents),
                             self.spec.seed, self.command)
        return md.replace("# 7 Wonders study", f"# {self.spec.name}", 1) if self.spec.name \
            else md

    def print(self, console) -> None:
        s = self.spec
        console.print(f"[bold]{s.name or '7 Wonders study'}[/]: {s.players} players, "
                      f"{', '.join(s.agents)}, {s.games:,} games per arm, seed {s.seed}",
                      highlight=False)
        left = {"board", "side", "seat", "agent", "arm"}
        for arm, tables in study_tables(self.frame).items():
            console.print(f"\n[bold underline]{arm}[/]", highlight=False)
            for kind, t in tables.items():
                head, rows = display_rows(t, kind)
                keys = 0
                while keys < len(head) and head[keys] in left:
                    keys += 1
                print_table(console, [Column(h, [r[i] for r in rows],
                                             "left" if h in left else "right")
                                      for i, h in enumerate(head)],
                            title=TITLES[kind], keys=max(keys, 1))


def print_rows(con, head, rows, title="") -> None:
    """Rows of strings (:func:`display_rows`) as a rich table; the leading key columns
    (board, side, seat, agent, arm) are left-aligned and repeat in every part of a wide
    table."""
    left = {"board", "side", "seat", "agent", "arm"}
    keys = 0
    while keys < len(head) and head[keys] in left:
        keys += 1
    print_table(con, [Column(h, [r[i] for r in rows], "left" if h in left else "right")
                      for i, h in enumerate(head)], title=title, keys=max(keys, 1))


class SimulationSummary:
    """What ``duel simulate --game seven`` prints: the win rate of each seat (and of each
    agent when they differ) with 95% Wilson intervals and the mean VP."""

    def __init__(self, lineup, players: int, seed: int, seating: str, setup: dict):
        self.lineup, self.players, self.seed, self.setup = list(lineup), players, seed, setup
        self.frames: list[pd.DataFrame] = []

    def add(self, df: pd.DataFrame) -> "SimulationSummary":
        self.frames.append(df[["game", "seat", "agent", "vp", "win"]])
        return self

    def print(self, con, games: int, total: int, speed: str) -> None:
        frame = pd.concat(self.frames, ignore_index=True)
        variant = " (Free City variant)" if self.players == 2 else ""
        title = f"{games:,} games" + (f" of {total:,} (interrupted)" if games < total else "")
        con.print(f"{title} of 7 Wonders, {self.players} players{variant}: "
                  f"{', '.join(self.lineup)}", highlight=False)
        sides = self.setup.get("sides")
        remove = self.setup.get("remove")
        extra = [f"sides {sides}" if sides not in (None, "random") else "",
                 f"without {', '.join(remove)}" if remove else ""]
        con.print(f"seed {self.seed}" + "".join(f", {s}" for s in extra if s) + f"; {speed}",
                  highlight=False)
        head, rows = display_rows(summarise(frame, ["seat"]), "seat")
        head.insert(1, "agent")
        for r, seat in zip(rows, range(self.players)):
            r.insert(1, self.lineup[seat])
        print_rows(con, head, rows, "Win rate by seat (a shared win counts 1/k; 95% intervals)")
        if len(set(self.lineup)) > 1:
            head, rows = display_rows(summarise(frame, ["agent"]), "agent")
            print_rows(con, head, rows, "Win rate by agent")
