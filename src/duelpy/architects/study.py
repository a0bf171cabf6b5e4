"""Balance studies of 7 Wonders Architects: games between agents under the rules (the
*control*) and under *treatments* -- a wonder forced at a seat, a progress token left out of
the game, each rule option of A-OPT -- reported as win rates by wonder and by seat with 95%
Wilson intervals, mean VP by category, and each treatment's change of every seat's win rate
on the same games.

Game ``g`` of every arm has the same seed, hence the same chance wherever the treatment leaves
it alone (common random numbers); chunks and workers never change the games.  A win is the
game's win (VP, then stages, A-END-4); a shared win counts 1/k.  The change of a seat's win
rate under a treatment is the mean of the paired per-game differences with a normal 95%
interval; the change of a wonder's win rate is paired when both arms deal the same wonders
to every seat of every game, else the difference of two independent rates.

The study file::

    game = "architects"
    players = 4
    games = 2000
    [agents]
    seats = "mcts:200"                 # or one agent per seat
    [options]                          # the control's rules (A-OPT)
    free_order = false
    [[treatment]]
    wonders = { p1 = "Giza" }          # a wonder forced at a seat
    [[treatment]]
    removed_tokens = ["Economy"]       # a progress token left out
    [[treatment]]
    economy_forces_build = false       # a rule option
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import pandas as pd

from duelcore.architects import engine as _core

from duelpy.architects.agents import lineup as _lineup
from duelpy.architects.batch import chunk_rows
from duelpy.architects.game import SETUP_KEYS, check_setup
from duelpy.base.errors import StudyError
from duelpy.base.study import SeatReport, SeatStudySpec
from duelpy.base.seat_tables import (change_interval as _change_interval, check_study_numbers,
                                    independent_change, markdown_table as _markdown_table,
                                    paired_change, pct as _pct, study_file_head, summarise)
from duelpy.base.tables import Column, print_table

__all__ = ["Arm", "ArchitectsStudySpec", "ArchitectsReport", "SimulationSummary",
           "summarise", "paired_change", "change", "study_tables", "chunk_size",
           "RULE_KEYS"]

#: The rule options of A-OPT (a study's control may set them; each is also a treatment).
RULE_KEYS = tuple(_core.RULE_DEFAULTS)


@dataclass(frozen=True)
class Arm:
    """One arm of a study: a name and its set-up (:func:`duelpy.architects.game.check_setup`
    keywords: ``wonders`` per seat, ``removed_tokens``, rule options), stored as sorted
    items so that an arm is hashable."""

    name: str = "Control"
    items: tuple = ()

    @property
    def setup(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.items}

    @classmethod
    def make(cls, players: int, setup: dict, name: str | None = None) -> "Arm":
        """An arm with its set-up checked for ``players`` (ValueError naming the problem)
        and a default name."""
        kw = check_setup(players, setup)
        if name is None:
            parts = []
            for i, w in enumerate(kw.get("wonders", ())):
                if w:
                    parts.append(f"P{i + 1} {w}")
            if kw.get("removed_tokens"):
                parts.append("without " + ", ".join(kw["removed_tokens"]))
            parts += [f"{k}={str(kw[k]).lower()}" for k in RULE_KEYS if k in kw]
            name = "; ".join(parts) or "Control"
        items = tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                             for k, v in kw.items()))
        return cls(name=name, items=items)


def chunk_size(agents) -> int:
    """Games per chunk: about 4,000 MCTS iterations per seat, at most 500 games."""
    cost = sum(int(a.split(":")[1]) if a.startswith("mcts:") else
               (20 if a == "greedy" else 1) for a in agents)
    return max(1, min(500, 4000 // max(1, cost // max(1, len(agents)))))


_games_per_chunk = chunk_size          # the spec's field chunk_size hides the name


# ---------------------------------------------------------------- tables
def vp_table(frame: pd.DataFrame, by="wonder") -> pd.DataFrame:
    """Mean VP by category grouped by ``by``."""
    cols = [c for c in frame.columns if c.startswith("vp_")] + ["vp"]
    return frame.groupby(by)[cols].mean()


def _same_wonders(frame: pd.DataFrame, arm: str, control: str) -> bool:
    a = frame[frame["arm"] == control].set_index(["game", "seat"])["wonder"]
    b = frame[frame["arm"] == arm].set_index(["game", "seat"])["wonder"]
    return a.index.equals(b.index) and a.equals(b)


def change(frame: pd.DataFrame, arm: str, control: str = "Control") -> pd.DataFrame:
    """The change of each wonder's win rate from ``control`` to ``arm``: paired when the
    arms deal the same wonders, else the difference of two independent rates (normal 95%
    interval).  ``attrs["paired"]`` says which."""
    if _same_wonders(frame, arm, control):
        out = paired_change(frame, arm, control, "wonder")
        out.attrs["paired"] = True
        return out
    out = independent_change(frame, arm, control, "wonder")
    out.attrs["paired"] = False
    return out


def study_tables(frame: pd.DataFrame) -> dict:
    """Per arm: ``wonder`` and ``seat`` tables (:func:`summarise`), ``vp`` (mean VP by
    category and wonder); for each arm but the first, ``change_seat`` and
    ``change_wonder`` against the first arm."""
    arms = list(dict.fromkeys(frame["arm"]))
    out = {}
    for arm in arms:
        f = frame[frame["arm"] == arm]
        t = {"wonder": summarise(f, "wonder"), "seat": summarise(f, "seat"),
             "vp": vp_table(f)}
        if arm != arms[0]:
            t["change_seat"] = paired_change(frame, arm, arms[0], "seat")
            t["change_wonder"] = change(frame, arm, arms[0])
        out[arm] = t
    return out


TITLES = {"wonder": "Win rate by wonder", "seat": "Win rate by seat",
          "vp": "Mean VP by category and wonder",
          "change_seat": "Change of each seat's win rate against the control (paired on "
                         "the same games)",
          "change_wonder": "Change of each wonder's win rate against the control"}


def display_rows(table: pd.DataFrame, kind: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of strings of a :func:`study_tables` table."""
    rows = []
    key = {"wonder": "wonder", "seat": "seat", "vp": "wonder", "change_seat": "seat",
           "change_wonder": "wonder", "agent": "agent"}[kind]

    def first(v):
        return f"P{v + 1}" if key == "seat" else str(v)
    if kind == "vp":
        cats = [c for c in table.columns]
        head = [key] + [{"vp_wonder": "stages"}.get(c, c.removeprefix("vp_")) if c != "vp"
                        else "total" for c in cats]
        for idx, r in table.iterrows():
            rows.append([first(idx)] + [f"{r[c]:.1f}" for c in cats])
        return head, rows
    if kind.startswith("change"):
        head = [key, "games", "control", "treatment", "change", "95% interval"]
        for idx, r in table.iterrows():
            rows.append([first(idx), f"{int(r.games):,}", _pct(r.control), _pct(r.treatment),
                         f"{100 * r.change:+.1f} pts", _change_interval(r)])
        return head, rows
    head = [key, "games", "win rate", "95% interval", "mean VP"]
    for idx, r in table.iterrows():
        rows.append([first(idx), f"{int(r.games):,}", _pct(r.win_rate),
                     f"{100 * r.ci_low:.1f}%–{100 * r.ci_high:.1f}%", f"{r.mean_vp:.1f}"])
    return head, rows


def markdown_table(head, rows) -> str:
    """A Markdown table of strings, the wonder, seat, agent and arm columns left-aligned."""
    return _markdown_table(head, rows, {"wonder", "seat", "agent", "arm"})



def print_rows(con, head, rows, title="") -> None:
    left = {"wonder", "seat", "agent", "arm"}
    print_table(con, [Column(h, [r[i] for r in rows], "left" if h in left else "right")
                      for i, h in enumerate(head)], title=title, keys=1)


# ---------------------------------------------------------------- the study spec
_TOP_KEYS = ("name", "games", "seed", "chunk_size", "players", "agents", "options",
             "treatment")


def _arm_from(players: int, table, where: str, name=None, control=False) -> Arm:
    if not isinstance(table, dict):
        raise StudyError(f"{where} must be a table of {', '.join(SETUP_KEYS)}")
    t = dict(table)
    nm = t.pop("name", name)
    if nm is not None and not isinstance(nm, str):
        raise StudyError(f"{where}.name must be a string, not {nm!r}")
    allowed = RULE_KEYS if control else SETUP_KEYS
    unknown = sorted(set(t) - set(allowed))
    if unknown:
        extra = " (a forced wonder or a removed token is a treatment)" if control else ""
        raise StudyError(f"{where}: unknown key {unknown[0]!r} (keys: name, "
                         f"{', '.join(allowed)}){extra}")
    if "wonders" in t and isinstance(t["wonders"], dict):
        seats = {}
        for key, w in t["wonders"].items():
            k = str(key).strip().lower().lstrip("p")
            if not k.isdigit() or not 1 <= int(k) <= players:
                raise StudyError(f"{where}.wonders: {key!r} is not a seat (p1..p{players})")
            seats[int(k) - 1] = w
        t["wonders"] = seats
    try:
        return Arm.make(players, t, nm)
    except ValueError as e:
        raise StudyError(f"{where}: {e}") from None


def _arm_table(arm: Arm) -> dict:
    t: dict = {}
    for k, v in arm.items:
        if k == "wonders":
            t["wonders"] = {f"p{i + 1}": w for i, w in enumerate(v) if w}
        else:
            t[k] = list(v) if isinstance(v, tuple) else v
    return t


@dataclass(frozen=True)
class ArchitectsStudySpec(SeatStudySpec):
    """A validated Architects study: ``players`` (2..7), one canonical agent per seat,
    ``games`` per arm on the same seeds, the ``control`` arm (the rules, or rule options of
    A-OPT) and the ``treatments`` (:class:`Arm`).  See the module doc for the file."""

    control: Arm = Arm()

    game: ClassVar[str] = "architects"

    @classmethod
    def make(cls, players: int, agents, games: int = 1000, seed: int = 0, control=None,
             treatments=(), name: str = "", chunk_size: int | None = None
             ) -> "ArchitectsStudySpec":
        """A checked study (StudyError naming the problem)."""
        check_study_numbers(players, games, seed, chunk_size)
        try:
            line = _lineup(agents if isinstance(agents, str) else list(agents), players)
        except ValueError as e:
            raise StudyError(f"agents: {e}") from None
        control = replace(control or Arm(), name="Control")
        arms = [control] + list(treatments)
        names = [a.name for a in arms]
        if len(set(names)) != len(names):
            raise StudyError(f"two arms have the same name: {', '.join(names)}")
        return cls(players=players, agents=tuple(line), games=games, seed=seed,
                   control=control, treatments=tuple(treatments), name=name,
                   chunk_size=chunk_size)

    def to_dict(self) -> dict:
        return {"name": self.name, "games": self.games, "seed": self.seed,
                "chunk_size": self.chunk_size, "players": self.players,
                "agents": {"seats": list(self.agents)}, "options": _arm_table(self.control),
                "treatment": [{"name": t.name, **_arm_table(t)} for t in self.treatments]}

    @classmethod
    def from_dict(cls, d: dict, where: str = "study") -> "ArchitectsStudySpec":
        at, players, seats, name, treats = study_file_head(d, where, _TOP_KEYS)
        control = _arm_from(players, d.get("options", {}), at("options"), "Control",
                            control=True)
        arms = []
        for k, t in enumerate(treats):
            w = at(f"treatment[{k}]")
            base = dict(control.setup)
            if not isinstance(t, dict):
                raise StudyError(f"{w} must be a table")
            arm = _arm_from(players, {**base, **t}, w, t.get("name"))
            if arm.items == control.items:
                raise StudyError(f"{w}: a treatment changes the control's set-up (a forced "
                                 f"wonder, a removed token or a rule option)")
            if t.get("name") is None:
                own = _arm_from(players, {k2: v for k2, v in t.items()}, w)
                arm = replace(arm, name=own.name)
            arms.append(arm)
        return cls.from_parts(d, players, seats, name, control, arms)

    # ---------------------------------------------------------------- the study runner
    chunk_rows = staticmethod(chunk_rows)
    games_per_chunk = staticmethod(_games_per_chunk)

    def arm_setup(self, k: int) -> dict:
        return self.arm(k).setup

    def report(self, df: pd.DataFrame) -> "ArchitectsReport":
        return ArchitectsReport(self, df)


class ArchitectsReport(SeatReport):
    """The report of an Architects study: :func:`study_tables` as Markdown (``report.md``)
    and rich tables."""

    def markdown(self) -> str:
        s = self.spec
        parts = [f"# {s.name or '7 Wonders Architects study'}", "",
                 f"- {s.players} players; agents {', '.join(s.agents)}; {s.games:,} games per "
                 f"arm, seed {s.seed} (the same seeds in every arm)",
                 "- win = highest VP, then most stages (A-END-4); a shared win counts 1/k; "
                 "95% Wilson intervals; a seat's change is the mean paired per-game "
                 "difference, a wonder's too when both arms deal the same wonders, else the "
                 "difference of two independent rates (the games counted differ)"]
        if self.command:
            parts.append(f"- reproduce: `{self.command}`")
        for arm, tables in study_tables(self.frame).items():
            parts += ["", f"## {arm}"]
            for kind, t in tables.items():
                head, rows = display_rows(t, kind)
                parts += ["", f"### {TITLES[kind]}", "", markdown_table(head, rows)]
        return "\n".join(parts) + "\n"

    def print(self, console) -> None:
        s = self.spec
        console.print(f"[bold]{s.name or '7 Wonders Architects study'}[/]: {s.players} "
                      f"players, {', '.join(s.agents)}, {s.games:,} games per arm, seed "
                      f"{s.seed}", highlight=False)
        for arm, tables in study_tables(self.frame).items():
            console.print(f"\n[bold underline]{arm}[/]", highlight=False)
            for kind, t in tables.items():
                head, rows = display_rows(t, kind)
                print_rows(console, head, rows, TITLES[kind])


class SimulationSummary:
    """What ``duel simulate --game architects`` prints: the win rate of each seat (and of
    each agent when they differ) and of each wonder, with 95% Wilson intervals and mean VP;
    mean VP by category.  ``seating`` is the runner's (the tables are by seat whatever it
    is)."""

    def __init__(self, lineup, players: int, seed: int, seating: str, setup: dict):
        self.lineup, self.players, self.seed, self.setup = list(lineup), players, seed, setup
        self.frames: list[pd.DataFrame] = []

    def add(self, df: pd.DataFrame) -> "SimulationSummary":
        self.frames.append(df)
        return self

    def print(self, con, games: int, total: int, speed: str) -> None:
        frame = pd.concat(self.frames, ignore_index=True)
        title = f"{games:,} games" + (f" of {total:,} (interrupted)" if games < total else "")
        con.print(f"{title} of 7 Wonders Architects, {self.players} players: "
                  f"{', '.join(self.lineup)}", highlight=False)
        extra = [f"{k}={v}" for k, v in self.setup.items()]
        con.print(f"seed {self.seed}" + "".join(f", {e}" for e in extra) + f"; {speed}",
                  highlight=False)
        head, rows = display_rows(summarise(frame, "seat"), "seat")
        head.insert(1, "agent")
        for r, seat in zip(rows, range(self.players)):
            r.insert(1, self.lineup[seat])
        print_rows(con, head, rows, "Win rate by seat (a shared win counts 1/k; 95% Wilson "
                                    "intervals)")
        if len(set(self.lineup)) > 1:
            head, rows = display_rows(summarise(frame, "agent"), "agent")
            print_rows(con, head, rows, "Win rate by agent")
        head, rows = display_rows(summarise(frame, "wonder"), "wonder")
        print_rows(con, head, rows, "Win rate by wonder (victory table)")
        head, rows = display_rows(vp_table(frame), "vp")
        print_rows(con, head, rows, "Mean VP by category")
