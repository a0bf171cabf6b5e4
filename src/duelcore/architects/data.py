"""The component tables of 7 Wonders Architects, as data (rules digest RULES-ARCH.md, "Data
tables"): the 14 card kinds, the seven wonder decks and the central deck, the wonder trays
(stage VP, powers, prerequisites), the 15 progress tokens and the conflict tokens by player
count.  The core (:mod:`duelcore.architects.engine`) fills its C tables from here at import,
and checks the totals below (A-COMP-1: 235 cards; 15 tokens).

Facts only: the numbers come from the digest's tables, which were cross-checked against the
physical components by the digest's sources.
"""
from __future__ import annotations

__all__ = ["KINDS", "COLOURS", "WONDERS", "DECKS", "CENTRAL", "STAGES", "STAGE_COSTS",
           "STAGE_VP", "POWER_STAGES", "PREREQUISITES", "TOKENS", "TOKEN_COPIES",
           "CONFLICT_TOKENS", "EXTRA_CARD_TRIGGERS", "VP_CATEGORIES"]

#: The 14 card kinds (A-CARD), in the core's order (kind ids 0..13).
KINDS = ("wood", "stone", "clay", "glass", "papyrus", "coin", "blue3", "blue2cat",
         "tablet", "gear", "compass", "red0", "red1", "red2")

#: Colour of each kind (A-CARD-1..5).
COLOURS = {"wood": "grey", "stone": "grey", "clay": "grey", "glass": "grey",
           "papyrus": "grey", "coin": "yellow", "blue3": "blue", "blue2cat": "blue",
           "tablet": "green", "gear": "green", "compass": "green", "red0": "red",
           "red1": "red", "red2": "red"}

#: The seven wonders (wonder ids 0..6); each seat plays one, with its own deck.
WONDERS = ("Alexandria", "Babylon", "Ephesus", "Giza", "Halicarnassus", "Olympia", "Rhodes")

#: Cards of each kind in each wonder deck (25 each), in KINDS order (A-SETUP-3).
DECKS = {
    "Alexandria":    (2, 2, 2, 1, 2, 4, 2, 2, 1, 2, 1, 2, 1, 1),
    "Babylon":       (2, 1, 2, 2, 2, 3, 2, 2, 1, 2, 2, 2, 1, 1),
    "Ephesus":       (2, 2, 2, 2, 2, 3, 1, 2, 2, 1, 2, 2, 1, 1),
    "Giza":          (2, 2, 1, 2, 2, 3, 2, 3, 1, 1, 2, 2, 2, 0),
    "Halicarnassus": (2, 2, 2, 2, 1, 3, 2, 2, 2, 1, 1, 2, 2, 1),
    "Olympia":       (1, 2, 2, 2, 2, 3, 1, 3, 2, 1, 1, 2, 2, 1),
    "Rhodes":        (2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 1, 2, 2, 1),
}
#: The central deck (60 cards, A-SETUP-4), in KINDS order.
CENTRAL = (4, 4, 4, 4, 4, 6, 4, 8, 4, 4, 4, 4, 4, 2)

#: Stage names S1..S5 and their costs (A-BUILD-1): (units, identical?).
STAGES = ("S1", "S2", "S3", "S4", "S5")
STAGE_COSTS = ((2, False), (2, True), (3, False), (3, True), (4, False))

#: VP of each stage S1..S5 per wonder (data table "Wonder stages").
STAGE_VP = {
    "Alexandria":    (4, 3, 6, 5, 7),
    "Babylon":       (3, 0, 5, 5, 7),
    "Ephesus":       (3, 3, 4, 5, 7),
    "Giza":          (4, 5, 6, 7, 8),
    "Halicarnassus": (3, 3, 6, 5, 7),
    "Olympia":       (3, 2, 5, 5, 7),
    "Rhodes":        (4, 4, 5, 6, 7),
}
#: The stages that carry each wonder's power (A-WON).
POWER_STAGES = {
    "Alexandria": ("S2", "S4"), "Babylon": ("S2", "S4"), "Ephesus": ("S2", "S3", "S4"),
    "Giza": (), "Halicarnassus": ("S2", "S4"), "Olympia": ("S2", "S4"),
    "Rhodes": ("S1", "S4"),
}
#: The stages each stage needs, read from the tray (A-BUILD-2).
PREREQUISITES = {
    "Alexandria":    ((), ("S1",), ("S2",), ("S3",), ("S4",)),
    "Babylon":       ((), ("S1",), ("S2",), ("S3",), ("S3",)),
    "Ephesus":       ((), ("S1",), ("S1",), ("S1",), ("S2", "S3", "S4")),
    "Giza":          ((), ("S1",), ("S2",), ("S3",), ("S4",)),
    "Halicarnassus": ((), ("S1",), ("S2",), ("S2",), ("S3", "S4")),
    "Olympia":       ((), ("S1",), ("S1",), ("S2", "S3"), ("S4",)),
    "Rhodes":        ((), (), ("S1", "S2"), ("S3",), ("S4",)),
}

#: The 14 progress-token types (token ids 0..13, A-TOK) and their copies (15 tokens).
TOKENS = ("Architecture", "Crafts", "Culture", "Decor", "Economy", "Education", "Engineering",
          "Jewellery", "Politics", "Propaganda", "Science", "Strategy", "Tactics", "Urbanism")
TOKEN_COPIES = {t: (2 if t == "Culture" else 1) for t in TOKENS}

#: The extra-card tokens and the kinds that trigger them (A-TOK-3); Architecture is
#: triggered by a stage built.
EXTRA_CARD_TRIGGERS = {
    "Urbanism": ("wood", "clay"), "Crafts": ("glass", "papyrus"),
    "Jewellery": ("stone", "coin"), "Science": ("tablet", "gear", "compass"),
    "Propaganda": ("red1", "red2"), "Architecture": (),
}

#: Conflict tokens in play by player count (A-SETUP-7).
CONFLICT_TOKENS = {2: 3, 3: 3, 4: 4, 5: 5, 6: 6, 7: 6}

#: VP categories of a score (A-END-3), total last.
VP_CATEGORIES = ("wonder", "blue", "military", "cat", "progress", "total")


def _check() -> None:
    """The digest's checks on the tables (A-COMP-1, data tables)."""
    assert all(sum(d) == 25 for d in DECKS.values()) and sum(CENTRAL) == 60
    totals = [sum(d[k] for d in DECKS.values()) + CENTRAL[k] for k in range(len(KINDS))]
    assert totals == [17, 17, 17, 17, 17, 27, 16, 24, 14, 14, 14, 18, 15, 8], totals
    assert sum(totals) == 235
    assert sum(TOKEN_COPIES.values()) == 15
    assert {w: sum(v) for w, v in STAGE_VP.items()} == {
        "Alexandria": 25, "Babylon": 20, "Ephesus": 22, "Giza": 30, "Halicarnassus": 24,
        "Olympia": 22, "Rhodes": 26}


_check()
