"""The components of 7 Wonders (1st edition, base game): the single source of truth.

Every Age card (with its copies per player count), guild and wonder board side of the
7 Wonders rules digest (``RULES-7W.md``, tables "Age I/II/III", "Guilds", "Wonder boards";
seed 002 wins on any detail) is written here once, in the game's words.  The Cython core
:mod:`duelcore.seven` builds its C tables from these lists when it is imported and
:mod:`duelpy.seven` takes names from them; nothing else spells out a cost or an effect.

Identifiers are positions in the lists below and are stable:

* name ids ``0..74`` (:data:`NAMES`): the 65 distinct Age-card names in :data:`CARDS` order
  (Glassworks, Loom and Press appear in Age I and Age II under one name each, W-BUILD-3), then
  the 10 guilds in :data:`GUILDS` order;
* physical card ids ``0..147`` (:data:`PHYSICAL`): one per printed copy, Age I, Age II, Age III,
  then the 10 guilds; a copy is in the deck at ``players`` when its mark is ``<= players``
  (W-SETUP-2; the Free City variant uses the 3-player deck, W-FREE-1);
* boards ``0..6`` (:data:`BOARDS`), sides ``0`` (A) and ``1`` (B);
* resources ``0..6``: wood, stone, ore, clay (raw), glass, papyrus, loom (manufactured).

Costs are text (``"1 coin"``, ``"2 clay, 1 loom"``), parsed by :func:`parse_cost`.
Effects are short keywords (see :class:`Card`).
"""
from __future__ import annotations

from dataclasses import dataclass

from duelcore.common.costs import parse_cost as _parse_cost

RESOURCES = ("wood", "stone", "ore", "clay", "glass", "papyrus", "loom")
RAW = RESOURCES[:4]
MANUFACTURED = RESOURCES[4:]
COLOURS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
SYMBOLS = ("compass", "gear", "tablet")
PLAYER_COUNTS = (2, 3, 4, 5, 6, 7)     # 2 is the Free City variant (W-FREE)
AGE_NAMES = ("I", "II", "III")

# "one of two" brown cards of Age I: the two kinds they produce, in this fixed order (the core's
# choice-source types 0..5; type 6 is "any raw" and type 7 "any manufactured", W-PROD-1)
PAIRS = (("ore", "clay"), ("stone", "clay"), ("wood", "ore"), ("stone", "ore"),
         ("wood", "stone"), ("wood", "clay"))


@dataclass(frozen=True)
class Card:
    """One Age card (W-CARD).

    ``effect`` is one keyword:

    * ``"prod:X"`` one unit of X; ``"prod:X/Y"`` one unit of X or Y; ``"prod:2 X"`` two units
      (W-PROD-1, brown and grey cards, sellable to neighbours, W-TRADE-2);
    * ``"vp:N"`` (blue), ``"shields:N"`` (red), ``"science:S"`` (green);
    * ``"coins:N"`` (Tavern); ``"trade:raw_right"`` / ``"trade:raw_left"`` / ``"trade:manuf"``
      (East / West Trading Post, Marketplace, W-TRADE-4);
    * ``"choice:raw"`` / ``"choice:manuf"`` (Caravansery, Forum: owner only);
    * ``"vineyard"``, ``"bazar"`` (W-CARD-6); ``"haven"``, ``"lighthouse"``, ``"chamber"``,
      ``"arena"`` (W-CARD-7).

    ``marks`` are the player marks of the printed copies: one copy per mark.
    """

    age: int
    name: str
    colour: str
    cost: str
    effect: str
    chain_from: tuple
    marks: tuple


@dataclass(frozen=True)
class Guild:
    """One guild (W-CARD-8). ``effect``: ``"neighbours:<colour>:<vp per card>"``,
    ``"strategists"``, ``"builders"``, ``"shipowners"``, ``"scientists"``."""

    name: str
    cost: str
    effect: str


@dataclass(frozen=True)
class Stage:
    """One wonder stage (W-WON). ``effects`` is a tuple of keywords: ``"vp:N"``, ``"coins:N"``,
    ``"shields:N"``, ``"choice:raw"``, ``"choice:manuf"``, ``"trade:raw_both"`` (Olympia B1),
    ``"science"`` (wildcard), ``"seventh"`` (Babylon B2), ``"free_build"`` (Olympia A2),
    ``"discard_build"`` (Halikarnassus), ``"copy_guild"`` (Olympia B3)."""

    cost: str
    effects: tuple


@dataclass(frozen=True)
class Board:
    """One wonder board with its starting resource and both sides (W-SETUP-4)."""

    name: str
    gloss: str
    resource: str
    a: tuple            # stages of side A
    b: tuple            # stages of side B


def _c(age, name, colour, cost, effect, chain_from=(), marks=(3,)):
    return Card(age, name, colour, cost, effect, tuple(chain_from), tuple(marks))


CARDS = (
    # ---- Age I (27 distinct, 49 physical)
    _c(1, "Clay Pit", "brown", "1 coin", "prod:ore/clay", marks=(3,)),
    _c(1, "Clay Pool", "brown", "", "prod:clay", marks=(3, 5)),
    _c(1, "Excavation", "brown", "1 coin", "prod:stone/clay", marks=(4,)),
    _c(1, "Forest Cave", "brown", "1 coin", "prod:wood/ore", marks=(5,)),
    _c(1, "Lumber Yard", "brown", "", "prod:wood", marks=(3, 4)),
    _c(1, "Mine", "brown", "1 coin", "prod:stone/ore", marks=(6,)),
    _c(1, "Ore Vein", "brown", "", "prod:ore", marks=(3, 4)),
    _c(1, "Stone Pit", "brown", "", "prod:stone", marks=(3, 5)),
    _c(1, "Timber Yard", "brown", "1 coin", "prod:wood/stone", marks=(3,)),
    _c(1, "Tree Farm", "brown", "1 coin", "prod:wood/clay", marks=(6,)),
    _c(1, "Glassworks", "grey", "", "prod:glass", marks=(3, 6)),
    _c(1, "Loom", "grey", "", "prod:loom", marks=(3, 6)),
    _c(1, "Press", "grey", "", "prod:papyrus", marks=(3, 6)),
    _c(1, "Altar", "blue", "", "vp:2", marks=(3, 5)),
    _c(1, "Baths", "blue", "1 stone", "vp:3", marks=(3, 7)),
    _c(1, "Pawnshop", "blue", "", "vp:3", marks=(4, 7)),
    _c(1, "Theater", "blue", "", "vp:2", marks=(3, 6)),
    _c(1, "Apothecary", "green", "1 loom", "science:compass", marks=(3, 5)),
    _c(1, "Scriptorium", "green", "1 papyrus", "science:tablet", marks=(3, 4)),
    _c(1, "Workshop", "green", "1 glass", "science:gear", marks=(3, 7)),
    _c(1, "East Trading Post", "yellow", "", "trade:raw_right", marks=(3, 7)),
    _c(1, "Marketplace", "yellow", "", "trade:manuf", marks=(3, 6)),
    _c(1, "Tavern", "yellow", "", "coins:5", marks=(4, 5, 7)),
    _c(1, "West Trading Post", "yellow", "", "trade:raw_left", marks=(3, 7)),
    _c(1, "Barracks", "red", "1 ore", "shields:1", marks=(3, 5)),
    _c(1, "Guard Tower", "red", "1 clay", "shields:1", marks=(3, 4)),
    _c(1, "Stockade", "red", "1 wood", "shields:1", marks=(3, 7)),
    # ---- Age II (23 distinct, 49 physical)
    _c(2, "Brickyard", "brown", "1 coin", "prod:2 clay", marks=(3, 4)),
    _c(2, "Foundry", "brown", "1 coin", "prod:2 ore", marks=(3, 4)),
    _c(2, "Quarry", "brown", "1 coin", "prod:2 stone", marks=(3, 4)),
    _c(2, "Sawmill", "brown", "1 coin", "prod:2 wood", marks=(3, 4)),
    _c(2, "Glassworks", "grey", "", "prod:glass", marks=(3, 5)),
    _c(2, "Loom", "grey", "", "prod:loom", marks=(3, 5)),
    _c(2, "Press", "grey", "", "prod:papyrus", marks=(3, 5)),
    _c(2, "Aqueduct", "blue", "3 stone", "vp:5", ("Baths",), marks=(3, 7)),
    _c(2, "Courthouse", "blue", "2 clay, 1 loom", "vp:4", ("Scriptorium",), marks=(3, 5)),
    _c(2, "Statue", "blue", "1 wood, 2 ore", "vp:4", ("Theater",), marks=(3, 7)),
    _c(2, "Temple", "blue", "1 wood, 1 clay, 1 glass", "vp:3", ("Altar",), marks=(3, 6)),
    _c(2, "Dispensary", "green", "2 ore, 1 glass", "science:compass", ("Apothecary",),
       marks=(3, 4)),
    _c(2, "Laboratory", "green", "2 clay, 1 papyrus", "science:gear", ("Workshop",),
       marks=(3, 5)),
    _c(2, "Library", "green", "2 stone, 1 loom", "science:tablet", ("Scriptorium",),
       marks=(3, 6)),
    _c(2, "School", "green", "1 wood, 1 papyrus", "science:tablet", marks=(3, 7)),
    _c(2, "Bazar", "yellow", "", "bazar", marks=(4, 7)),
    _c(2, "Caravansery", "yellow", "2 wood", "choice:raw", ("Marketplace",), marks=(3, 5, 6)),
    _c(2, "Forum", "yellow", "2 clay", "choice:manuf", ("East Trading Post", "West Trading Post"),
       marks=(3, 6, 7)),
    _c(2, "Vineyard", "yellow", "", "vineyard", marks=(3, 6)),
    _c(2, "Archery Range", "red", "2 wood, 1 ore", "shields:2", ("Workshop",), marks=(3, 6)),
    _c(2, "Stables", "red", "1 wood, 1 ore, 1 clay", "shields:2", ("Apothecary",), marks=(3, 5)),
    _c(2, "Training Ground", "red", "1 wood, 2 ore", "shields:2", marks=(4, 6, 7)),
    _c(2, "Walls", "red", "3 stone", "shields:2", marks=(3, 7)),
    # ---- Age III (18 distinct, 40 physical; the guilds join it, W-SETUP-3)
    _c(3, "Gardens", "blue", "1 wood, 2 clay", "vp:5", ("Statue",), marks=(3, 4)),
    _c(3, "Palace", "blue", "1 wood, 1 stone, 1 ore, 1 clay, 1 glass, 1 papyrus, 1 loom", "vp:8",
       marks=(3, 7)),
    _c(3, "Pantheon", "blue", "1 ore, 2 clay, 1 glass, 1 papyrus, 1 loom", "vp:7", ("Temple",),
       marks=(3, 6)),
    _c(3, "Senate", "blue", "2 wood, 1 stone, 1 ore", "vp:6", ("Library",), marks=(3, 5)),
    _c(3, "Town Hall", "blue", "2 stone, 1 ore, 1 glass", "vp:6", marks=(3, 5, 6)),
    _c(3, "Academy", "green", "3 stone, 1 glass", "science:compass", ("School",), marks=(3, 7)),
    _c(3, "Lodge", "green", "2 clay, 1 papyrus, 1 loom", "science:compass", ("Dispensary",),
       marks=(3, 6)),
    _c(3, "Observatory", "green", "2 ore, 1 glass, 1 loom", "science:gear", ("Laboratory",),
       marks=(3, 7)),
    _c(3, "Study", "green", "1 wood, 1 papyrus, 1 loom", "science:gear", ("School",),
       marks=(3, 5)),
    _c(3, "University", "green", "2 wood, 1 glass, 1 papyrus", "science:tablet", ("Library",),
       marks=(3, 4)),
    _c(3, "Arena", "yellow", "2 stone, 1 ore", "arena", ("Dispensary",), marks=(3, 5, 7)),
    _c(3, "Chamber of Commerce", "yellow", "2 clay, 1 papyrus", "chamber", marks=(4, 6)),
    _c(3, "Haven", "yellow", "1 wood, 1 ore, 1 loom", "haven", ("Forum",), marks=(3, 4)),
    _c(3, "Lighthouse", "yellow", "1 stone, 1 glass", "lighthouse", ("Caravansery",),
       marks=(3, 6)),
    _c(3, "Arsenal", "red", "2 wood, 1 ore, 1 loom", "shields:3", marks=(3, 4, 7)),
    _c(3, "Circus", "red", "3 stone, 1 ore", "shields:3", ("Training Ground",), marks=(4, 5, 6)),
    _c(3, "Fortifications", "red", "1 stone, 3 ore", "shields:3", ("Walls",), marks=(3, 7)),
    _c(3, "Siege Workshop", "red", "1 wood, 3 clay", "shields:3", ("Laboratory",), marks=(3, 5)),
)

GUILDS = (
    Guild("Builders Guild", "2 stone, 2 clay, 1 glass", "builders"),
    Guild("Craftsmens Guild", "2 stone, 2 ore", "neighbours:grey:2"),
    Guild("Magistrates Guild", "3 wood, 1 stone, 1 loom", "neighbours:blue:1"),
    Guild("Philosophers Guild", "3 clay, 1 papyrus, 1 loom", "neighbours:green:1"),
    Guild("Scientists Guild", "2 wood, 2 ore, 1 papyrus", "scientists"),
    Guild("Shipowners Guild", "3 wood, 1 glass, 1 papyrus", "shipowners"),
    Guild("Spies Guild", "3 clay, 1 glass", "neighbours:red:1"),
    Guild("Strategists Guild", "1 stone, 2 ore, 1 loom", "strategists"),
    Guild("Traders Guild", "1 glass, 1 papyrus, 1 loom", "neighbours:yellow:1"),
    Guild("Workers Guild", "1 wood, 1 stone, 2 ore, 1 clay", "neighbours:brown:1"),
)

S = Stage
BOARDS = (
    Board("Rhodos", "The Colossus of Rhodes", "ore",
          (S("2 wood", ("vp:3",)), S("3 clay", ("shields:2",)), S("4 ore", ("vp:7",))),
          (S("3 stone", ("coins:3", "shields:1", "vp:3")),
           S("4 ore", ("coins:4", "shields:1", "vp:4")))),
    Board("Alexandria", "The Lighthouse of Alexandria", "glass",
          (S("2 stone", ("vp:3",)), S("2 ore", ("choice:raw",)), S("2 glass", ("vp:7",))),
          (S("2 clay", ("choice:raw",)), S("2 wood", ("choice:manuf",)),
           S("3 stone", ("vp:7",)))),
    Board("Ephesos", "The Temple of Artemis in Ephesus", "papyrus",
          (S("2 stone", ("vp:3",)), S("2 wood", ("coins:9",)), S("2 papyrus", ("vp:7",))),
          (S("2 stone", ("coins:4", "vp:2")), S("2 wood", ("coins:4", "vp:3")),
           S("1 glass, 1 papyrus, 1 loom", ("coins:4", "vp:5")))),
    Board("Babylon", "The Hanging Gardens of Babylon", "clay",
          (S("2 clay", ("vp:3",)), S("3 wood", ("science",)), S("4 clay", ("vp:7",))),
          (S("1 clay, 1 loom", ("vp:3",)), S("2 wood, 1 glass", ("seventh",)),
           S("3 clay, 1 papyrus", ("science",)))),
    Board("Olympia", "The Statue of Zeus in Olympia", "wood",
          (S("2 wood", ("vp:3",)), S("2 stone", ("free_build",)), S("2 ore", ("vp:7",))),
          (S("2 wood", ("trade:raw_both",)), S("2 stone", ("vp:5",)),
           S("2 ore, 1 loom", ("copy_guild",)))),
    Board("Halikarnassus", "The Mausoleum of Halikarnassus", "loom",
          (S("2 clay", ("vp:3",)), S("3 ore", ("discard_build",)), S("2 loom", ("vp:7",))),
          (S("2 ore", ("vp:2", "discard_build")), S("3 clay", ("vp:1", "discard_build")),
           S("1 glass, 1 papyrus, 1 loom", ("discard_build",)))),
    Board("Gizah", "The Pyramids of Giza", "stone",
          (S("2 stone", ("vp:3",)), S("3 wood", ("vp:5",)), S("4 stone", ("vp:7",))),
          (S("2 wood", ("vp:3",)), S("3 stone", ("vp:5",)), S("3 clay", ("vp:5",)),
           S("4 stone, 1 papyrus", ("vp:7",)))),
)
del S

BOARD_NAMES = tuple(b.name for b in BOARDS)
SIDE_NAMES = ("A", "B")


def parse_cost(text: str) -> tuple:
    """``"1 coin"`` / ``"2 clay, 1 loom"`` -> ``(coins, (units per resource, 7 ints))``.

    Raises ``ValueError`` naming the part that is not understood.
    """
    return _parse_cost(text, RESOURCES)


def _names():
    seen = []
    for c in CARDS:
        if c.name not in seen:
            seen.append(c.name)
    return tuple(seen) + tuple(g.name for g in GUILDS)


NAMES = _names()                          # name ids 0..74
NUM_AGE_NAMES = len(NAMES) - len(GUILDS)  # 65
FIRST_GUILD_NAME = NUM_AGE_NAMES


def _physical():
    out = []                                  # (name id, age, mark)
    for age in (1, 2, 3):
        for c in CARDS:
            if c.age == age:
                for m in c.marks:
                    out.append((NAMES.index(c.name), age, m))
    for g in GUILDS:
        out.append((NAMES.index(g.name), 3, 0))   # guilds: drawn, not marked (W-SETUP-3)
    return tuple(out)


PHYSICAL = _physical()                    # physical ids 0..147: (name id, age, mark)


def card_of_name(name_id: int, age: int | None = None) -> Card | Guild:
    """The Card (of the given Age if it exists in two) or Guild with that name id."""
    name = NAMES[name_id]
    if name_id >= FIRST_GUILD_NAME:
        return GUILDS[name_id - FIRST_GUILD_NAME]
    options = [c for c in CARDS if c.name == name and (age is None or c.age == age)]
    return options[0]


def deck_copies(age: int, players: int) -> dict:
    """Copies of each Age card name in the Age's deck at ``players`` (W-SETUP-2), guilds
    excluded.  ``players=2`` (Free City) uses the 3-player deck (W-FREE-1)."""
    n = 3 if players == 2 else players
    out: dict = {}
    for c in CARDS:
        if c.age == age:
            k = sum(1 for m in c.marks if m <= n)
            if k:
                out[c.name] = k
    return out


def guild_count(players: int) -> int:
    """Guilds drawn into Age III: players + 2 (5 in the Free City variant), W-SETUP-3."""
    return 5 if players == 2 else players + 2
