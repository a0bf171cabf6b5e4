"""The components of 7 Wonders Duel (base game): the single source of truth.

Every card, guild, wonder, progress token and Age layout of ``RULES.md`` (section *Components*)
is written here once, in the game's words.  The Cython core (:mod:`duelcore.duel.engine`) builds
its C tables from these lists when it is imported, and :mod:`duelpy` takes names from them;
nothing else in the project spells out a cost or an effect.

Identifiers are positions in the lists below and are stable:

* card ids ``0..72``: Age I cards ``0..22``, Age II ``23..45``, Age III ``46..65``,
  guilds ``66..72`` (in :data:`CARDS` order);
* wonder ids ``0..11`` (:data:`WONDERS`), progress token ids ``0..9`` (:data:`TOKENS`);
* resources ``0..4``: wood, clay, stone, glass, papyrus (:data:`RESOURCES`);
* science symbols ``0..6``: the six card symbols then ``law`` (:data:`SYMBOLS`).

Costs are written as text (``"1 wood, 2 papyrus"``, ``"3 coins"``) exactly as in RULES.md and
parsed by :func:`parse_cost`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from duelcore.common.costs import parse_cost as _parse_cost

RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
COLOURS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
SYMBOLS = ("wheel", "quill", "mortar", "set_square", "sundial", "globe", "law")


@dataclass(frozen=True)
class Card:
    """One Age card or guild (R-BUILD, R-TRADE, R-MIL, R-SCI, R-END-3).

    ``coins_per`` is ``(what, coins)``: coins taken when built per item of ``what`` in the
    builder's own city (``"wonder"``, ``"brown"``, ``"grey"``, ``"yellow"``, ``"red"``).
    ``guild`` names what a guild counts in the city with the most of it: ``"yellow"``,
    ``"brown_grey"``, ``"wonder"``, ``"blue"``, ``"green"``, ``"red"`` or ``"coins"``.
    """

    name: str
    age: int                      # 1, 2, 3; guilds are 3 too (they join the Age III deck)
    colour: str                   # one of COLOURS
    cost: str = ""                # "" is free; e.g. "3 coins, 1 clay"
    vp: int = 0                   # victory points at the end of the game
    produces: str = ""            # fixed production of a brown/grey card, e.g. "2 wood"
    choice: tuple = ()            # "1 of X/Y" producer (Forum, Caravansery), resource names
    trade_one: tuple = ()         # resources whose trade price is fixed at 1 coin (R-TRADE-3)
    shields: int = 0
    symbol: str = ""              # science symbol (R-SCI-1)
    coins: int = 0                # coins taken when built (Tavern, Brewery)
    coins_per: tuple = ()         # (what, coins) taken when built
    guild: str = ""               # what a guild counts (R-END-3)
    chain_from: str = ""          # chain symbol that makes this card free (R-BUILD-2)
    chain_gives: str = ""         # chain symbol this card shows


@dataclass(frozen=True)
class Wonder:
    """One wonder (R-WONDER). ``action`` is ``""``, ``"destroy_brown"``, ``"destroy_grey"``,
    ``"revive"`` (The Mausoleum) or ``"library"`` (The Great Library)."""

    name: str
    cost: str
    vp: int = 0
    coins: int = 0                # coins taken when built
    opponent_loses: int = 0       # coins the opponent loses (to the bank)
    shields: int = 0
    choice: tuple = ()            # "1 of X/Y/Z" production
    play_again: bool = False
    action: str = ""


@dataclass(frozen=True)
class Token:
    """One progress token (R-SCI-4)."""

    name: str
    text: str


CARDS = (
    # ---- Age I (23) ----
    Card("Lumber Yard", 1, "brown", produces="1 wood"),
    Card("Stone Pit", 1, "brown", "1 coin", produces="1 stone"),
    Card("Clay Pool", 1, "brown", produces="1 clay"),
    Card("Logging Camp", 1, "brown", "1 coin", produces="1 wood"),
    Card("Quarry", 1, "brown", produces="1 stone"),
    Card("Clay Pit", 1, "brown", "1 coin", produces="1 clay"),
    Card("Glassworks", 1, "grey", "1 coin", produces="1 glass"),
    Card("Press", 1, "grey", "1 coin", produces="1 papyrus"),
    Card("Theater", 1, "blue", vp=3, chain_gives="mask"),
    Card("Altar", 1, "blue", vp=3, chain_gives="moon"),
    Card("Baths", 1, "blue", "1 stone", vp=3, chain_gives="drop"),
    Card("Scriptorium", 1, "green", "2 coins", symbol="quill", chain_gives="book"),
    Card("Workshop", 1, "green", "1 papyrus", vp=1, symbol="set_square"),
    Card("Pharmacist", 1, "green", "2 coins", symbol="mortar", chain_gives="gear"),
    Card("Apothecary", 1, "green", "1 glass", vp=1, symbol="wheel"),
    Card("Tavern", 1, "yellow", coins=4, chain_gives="vase"),
    Card("Stone Reserve", 1, "yellow", "3 coins", trade_one=("stone",)),
    Card("Clay Reserve", 1, "yellow", "3 coins", trade_one=("clay",)),
    Card("Wood Reserve", 1, "yellow", "3 coins", trade_one=("wood",)),
    Card("Stable", 1, "red", "1 wood", shields=1, chain_gives="horseshoe"),
    Card("Garrison", 1, "red", "1 clay", shields=1, chain_gives="sword"),
    Card("Palisade", 1, "red", "2 coins", shields=1, chain_gives="tower"),
    Card("Guard Tower", 1, "red", shields=1),
    # ---- Age II (23) ----
    Card("Sawmill", 2, "brown", "2 coins", produces="2 wood"),
    Card("Shelf Quarry", 2, "brown", "2 coins", produces="2 stone"),
    Card("Brickyard", 2, "brown", "2 coins", produces="2 clay"),
    Card("Glass-Blower", 2, "grey", produces="1 glass"),
    Card("Drying Room", 2, "grey", produces="1 papyrus"),
    Card("Temple", 2, "blue", "1 wood, 1 papyrus", vp=4, chain_from="moon", chain_gives="sun"),
    Card("Statue", 2, "blue", "2 clay", vp=4, chain_from="mask", chain_gives="column"),
    Card("Courthouse", 2, "blue", "2 wood, 1 glass", vp=5),
    Card("Aqueduct", 2, "blue", "3 stone", vp=5, chain_from="drop"),
    Card("Rostrum", 2, "blue", "1 wood, 1 stone", vp=4, chain_gives="temple"),
    Card("School", 2, "green", "1 wood, 2 papyrus", vp=1, symbol="wheel", chain_gives="lyre"),
    Card("Laboratory", 2, "green", "1 wood, 2 glass", vp=1, symbol="set_square",
         chain_gives="lamp"),
    Card("Dispensary", 2, "green", "2 clay, 1 stone", vp=2, symbol="mortar", chain_from="gear"),
    Card("Library", 2, "green", "1 wood, 1 stone, 1 glass", vp=2, symbol="quill",
         chain_from="book"),
    Card("Brewery", 2, "yellow", coins=6, chain_gives="barrel"),
    Card("Forum", 2, "yellow", "3 coins, 1 clay", choice=("glass", "papyrus")),
    Card("Caravansery", 2, "yellow", "2 coins, 1 glass, 1 papyrus",
         choice=("wood", "clay", "stone")),
    Card("Customs House", 2, "yellow", "4 coins", trade_one=("glass", "papyrus")),
    Card("Horse Breeders", 2, "red", "1 wood, 1 clay", shields=1, chain_from="horseshoe"),
    Card("Barracks", 2, "red", "3 coins", shields=1, chain_from="sword"),
    Card("Walls", 2, "red", "2 stone", shields=2),
    Card("Archery Range", 2, "red", "1 wood, 1 stone, 1 papyrus", shields=2,
         chain_gives="target"),
    Card("Parade Ground", 2, "red", "2 clay, 1 glass", shields=2, chain_gives="helmet"),
    # ---- Age III (20) ----
    Card("Palace", 3, "blue", "1 wood, 1 clay, 1 stone, 2 glass", vp=7),
    Card("Gardens", 3, "blue", "2 wood, 2 clay", vp=6, chain_from="column"),
    Card("Pantheon", 3, "blue", "1 wood, 1 clay, 2 papyrus", vp=6, chain_from="sun"),
    Card("Town Hall", 3, "blue", "2 wood, 3 stone", vp=7),
    Card("Senate", 3, "blue", "2 clay, 1 stone, 1 papyrus", vp=5, chain_from="temple"),
    Card("Obelisk", 3, "blue", "2 stone, 1 glass", vp=5),
    Card("Academy", 3, "green", "1 wood, 1 stone, 2 glass", vp=3, symbol="sundial"),
    Card("University", 3, "green", "1 clay, 1 glass, 1 papyrus", vp=2, symbol="globe",
         chain_from="lyre"),
    Card("Study", 3, "green", "2 wood, 1 glass, 1 papyrus", vp=3, symbol="sundial"),
    Card("Observatory", 3, "green", "1 stone, 2 papyrus", vp=2, symbol="globe",
         chain_from="lamp"),
    Card("Arena", 3, "yellow", "1 wood, 1 clay, 1 stone", vp=3, coins_per=("wonder", 2),
         chain_from="barrel"),
    Card("Chamber of Commerce", 3, "yellow", "2 papyrus", vp=3, coins_per=("grey", 3)),
    Card("Port", 3, "yellow", "1 wood, 1 glass, 1 papyrus", vp=3, coins_per=("brown", 2)),
    Card("Lighthouse", 3, "yellow", "2 clay, 1 glass", vp=3, coins_per=("yellow", 1),
         chain_from="vase"),
    Card("Armory", 3, "yellow", "2 stone, 1 glass", vp=3, coins_per=("red", 1)),
    Card("Circus", 3, "red", "2 clay, 2 stone", shields=2, chain_from="helmet"),
    Card("Arsenal", 3, "red", "2 wood, 3 clay", shields=3),
    Card("Siege Workshop", 3, "red", "3 wood, 1 glass", shields=2, chain_from="target"),
    Card("Fortifications", 3, "red", "1 clay, 2 stone, 1 papyrus", shields=2,
         chain_from="tower"),
    Card("Pretorium", 3, "red", "8 coins", shields=3),
    # ---- Guilds (7; 3 join Age III) ----
    Card("Merchants Guild", 3, "purple", "1 wood, 1 clay, 1 glass, 1 papyrus", guild="yellow"),
    Card("Shipowners Guild", 3, "purple", "1 clay, 1 stone, 1 glass, 1 papyrus",
         guild="brown_grey"),
    Card("Builders Guild", 3, "purple", "1 wood, 1 clay, 2 stone, 1 glass", guild="wonder"),
    Card("Magistrates Guild", 3, "purple", "2 wood, 1 clay, 1 papyrus", guild="blue"),
    Card("Scientists Guild", 3, "purple", "2 wood, 2 clay", guild="green"),
    Card("Moneylenders Guild", 3, "purple", "2 wood, 2 stone", guild="coins"),
    Card("Tacticians Guild", 3, "purple", "1 clay, 2 stone, 1 papyrus", guild="red"),
)

WONDERS = (
    Wonder("The Pyramids", "3 stone, 1 papyrus", vp=9),
    Wonder("The Colossus", "3 clay, 1 glass", vp=3, shields=2),
    Wonder("The Great Lighthouse", "1 wood, 1 stone, 2 papyrus", vp=4,
           choice=("wood", "clay", "stone")),
    Wonder("The Temple of Artemis", "1 wood, 1 stone, 1 glass, 1 papyrus", coins=12,
           play_again=True),
    Wonder("The Mausoleum", "2 clay, 2 glass, 1 papyrus", vp=2, action="revive"),
    Wonder("The Great Library", "3 wood, 1 glass, 1 papyrus", vp=4, action="library"),
    Wonder("Piraeus", "2 wood, 1 clay, 1 stone", vp=2, choice=("glass", "papyrus"),
           play_again=True),
    Wonder("The Hanging Gardens", "2 wood, 1 glass, 1 papyrus", vp=3, coins=6, play_again=True),
    Wonder("The Statue of Zeus", "1 wood, 1 clay, 1 stone, 2 papyrus", vp=3, shields=1,
           action="destroy_brown"),
    Wonder("The Sphinx", "1 clay, 1 stone, 2 glass", vp=6, play_again=True),
    Wonder("The Appian Way", "2 clay, 2 stone, 1 papyrus", vp=3, coins=3, opponent_loses=3,
           play_again=True),
    Wonder("Circus Maximus", "1 wood, 2 stone, 1 glass", vp=3, shields=1,
           action="destroy_grey"),
)

TOKENS = (
    Token("Agriculture", "Immediately take 6 coins; worth 4 VP."),
    Token("Architecture", "Every wonder you build from now on costs 2 fewer resource units."),
    Token("Economy", "The coins your opponent pays for traded resources go to you."),
    Token("Law", "Worth one scientific symbol (law)."),
    Token("Masonry", "Every blue card you build from now on costs 2 fewer resource units."),
    Token("Mathematics", "End of game: 3 VP per progress token you own, this one included."),
    Token("Philosophy", "Worth 7 VP."),
    Token("Strategy", "Each red card you build from now on gives 1 extra shield."),
    Token("Theology", "Every wonder you build from now on has the Play Again effect."),
    Token("Urbanism", "Immediately take 6 coins; take 4 coins for each chain build."),
)

#: First-game wonder sets (R-SETUP-7): (P1's, P2's).
FIRST_GAME_WONDERS = (
    ("The Pyramids", "The Great Lighthouse", "The Temple of Artemis", "The Statue of Zeus"),
    ("Circus Maximus", "Piraeus", "The Appian Way", "The Colossus"),
)


@dataclass(frozen=True)
class Layout:
    """One Age's layout (R-LAYOUT-1): 20 slots, row 0 at the top.

    ``covered_by[s]`` lists the slots that cover slot ``s``; ``face_down`` the slots dealt face
    down; ``rows`` the number of cards in each row, top to bottom.
    """

    rows: tuple
    face_down: tuple
    covered_by: tuple = field(repr=False)


LAYOUTS = (
    Layout(  # Age I: 2-3-4-5-6
        rows=(2, 3, 4, 5, 6),
        face_down=(2, 3, 4, 9, 10, 11, 12, 13),
        covered_by=((2, 3), (3, 4), (5, 6), (6, 7), (7, 8), (9, 10), (10, 11), (11, 12),
                    (12, 13), (14, 15), (15, 16), (16, 17), (17, 18), (18, 19),
                    (), (), (), (), (), ()),
    ),
    Layout(  # Age II: 6-5-4-3-2
        rows=(6, 5, 4, 3, 2),
        face_down=(6, 7, 8, 9, 10, 15, 16, 17),
        covered_by=((6,), (6, 7), (7, 8), (8, 9), (9, 10), (10,), (11,), (11, 12), (12, 13),
                    (13, 14), (14,), (15,), (15, 16), (16, 17), (17,), (18,), (18, 19), (19,),
                    (), ()),
    ),
    Layout(  # Age III: 2-3-4-2-4-3-2
        rows=(2, 3, 4, 2, 4, 3, 2),
        face_down=(2, 3, 4, 9, 10, 15, 16, 17),
        covered_by=((2, 3), (3, 4), (5, 6), (6, 7), (7, 8), (9,), (9,), (10,), (10,),
                    (11, 12), (13, 14), (15,), (15, 16), (16, 17), (17,), (18,), (18, 19),
                    (19,), (), ()),
    ),
)

#: Military track (R-MIL): capital at distance 9; (zone start, coins lost) for each token.
CAPITAL = 9
MILITARY_TOKENS = ((3, 2), (6, 5))
#: VP for the leader at distance 1-2, 3-5, 6-8 (R-MIL-4).
MILITARY_VP = ((1, 2), (3, 5), (6, 10))

START_COINS = 7               # R-SETUP-1
CARDS_PER_AGE = 20            # R-SETUP-6
REMOVED_PER_AGE = 3
GUILDS_IN_AGE_III = 3
WONDERS_IN_GAME = 7           # R-WONDER-3
SCIENCE_SUPREMACY = 6         # R-SCI-3


def parse_cost(text: str) -> tuple[int, tuple[int, ...]]:
    """Parse ``"3 coins, 1 clay"`` into ``(coins, (wood, clay, stone, glass, papyrus))``.

    Raises
    ------
    ValueError
        If a part is not ``<count> <resource|coin|coins>``.
    """
    return _parse_cost(text, RESOURCES)


CARD_NAMES = tuple(c.name for c in CARDS)
WONDER_NAMES = tuple(w.name for w in WONDERS)
TOKEN_NAMES = tuple(t.name for t in TOKENS)
AGE_CARD_RANGES = ((0, 23), (23, 46), (46, 66))   # card ids per Age, guilds excluded
GUILD_RANGE = (66, 73)
