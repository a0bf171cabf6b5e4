"""The 7 Wonders data table (duelcore.seven_data) against the rules digest's tables.

The expected rows below are the digest's tables (RULES-7W.md, "Data tables": Age I, II, III,
Guilds, Wonder boards; W-SETUP-2, W-SETUP-3, W-CARD-*, W-WON-*), copied into this file so that the
package never reads the rules folder.  Every row is checked: colour, cost, effect, chains, marks
and the copies at 3..7 players.
"""
import pytest

from duelcore import seven_data as d

EXPECTED = """\
| Clay Pit | brown | 1 coin | produces 1 of ore/clay (neighbours may buy either) |  |  | 3+ | 1 | 1 | 1 | 1 | 1 |
| Clay Pool | brown | free | produces 1 clay |  |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Excavation | brown | 1 coin | produces 1 of stone/clay (neighbours may buy either) |  |  | 4+ | 0 | 1 | 1 | 1 | 1 |
| Forest Cave | brown | 1 coin | produces 1 of wood/ore (neighbours may buy either) |  |  | 5+ | 0 | 0 | 1 | 1 | 1 |
| Lumber Yard | brown | free | produces 1 wood |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Mine | brown | 1 coin | produces 1 of stone/ore (neighbours may buy either) |  |  | 6+ | 0 | 0 | 0 | 1 | 1 |
| Ore Vein | brown | free | produces 1 ore |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Stone Pit | brown | free | produces 1 stone |  |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Timber Yard | brown | 1 coin | produces 1 of wood/stone (neighbours may buy either) |  |  | 3+ | 1 | 1 | 1 | 1 | 1 |
| Tree Farm | brown | 1 coin | produces 1 of wood/clay (neighbours may buy either) |  |  | 6+ | 0 | 0 | 0 | 1 | 1 |
| Glassworks | grey | free | produces 1 glass |  |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Loom | grey | free | produces 1 loom |  |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Press | grey | free | produces 1 papyrus |  |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Altar | blue | free | 2 VP |  | Temple | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Baths | blue | 1 stone | 3 VP |  | Aqueduct | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Pawnshop | blue | free | 3 VP |  |  | 4+ 7+ | 0 | 1 | 1 | 1 | 2 |
| Theater | blue | free | 2 VP |  | Statue | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Apothecary | green | 1 loom | science: compass |  | Stables, Dispensary | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Scriptorium | green | 1 papyrus | science: tablet |  | Courthouse, Library | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Workshop | green | 1 glass | science: gear |  | Archery Range, Laboratory | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| East Trading Post | yellow | free | buys raw (wood/stone/ore/clay) from the right neighbour at 1 coin |  | Forum | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Marketplace | yellow | free | buys manufactured (glass/papyrus/loom) from both neighbours at 1 coin |  | Caravansery | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Tavern | yellow | free | +5 coins once, when built |  |  | 4+ 5+ 7+ | 0 | 1 | 2 | 2 | 3 |
| West Trading Post | yellow | free | buys raw (wood/stone/ore/clay) from the left neighbour at 1 coin |  | Forum | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Barracks | red | 1 ore | 1 shield |  |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Guard Tower | red | 1 clay | 1 shield |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Stockade | red | 1 wood | 1 shield |  |  | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Brickyard | brown | 1 coin | produces 2 clay |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Foundry | brown | 1 coin | produces 2 ore |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Quarry | brown | 1 coin | produces 2 stone |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Sawmill | brown | 1 coin | produces 2 wood |  |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Glassworks | grey | free | produces 1 glass |  |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Loom | grey | free | produces 1 loom |  |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Press | grey | free | produces 1 papyrus |  |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Aqueduct | blue | 3 stone | 5 VP | Baths |  | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Courthouse | blue | 2 clay, 1 loom | 4 VP | Scriptorium |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Statue | blue | 1 wood, 2 ore | 4 VP | Theater | Gardens | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Temple | blue | 1 wood, 1 clay, 1 glass | 3 VP | Altar | Pantheon | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Dispensary | green | 2 ore, 1 glass | science: compass | Apothecary | Arena, Lodge | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Laboratory | green | 2 clay, 1 papyrus | science: gear | Workshop | Siege Workshop, Observatory | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Library | green | 2 stone, 1 loom | science: tablet | Scriptorium | Senate, University | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| School | green | 1 wood, 1 papyrus | science: tablet |  | Academy, Study | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Bazar | yellow | free | when built: 2 coins per grey card in own city and both neighbours |  |  | 4+ 7+ | 0 | 1 | 1 | 1 | 2 |
| Caravansery | yellow | 2 wood | produces 1 of wood/stone/ore/clay each turn, for the owner only (not sellable) | Marketplace | Lighthouse | 3+ 5+ 6+ | 1 | 1 | 2 | 3 | 3 |
| Forum | yellow | 2 clay | produces 1 of glass/papyrus/loom each turn, for the owner only (not sellable) | East Trading Post, West Trading Post | Haven | 3+ 6+ 7+ | 1 | 1 | 1 | 2 | 3 |
| Vineyard | yellow | free | when built: 1 coin per brown card in own city and both neighbours |  |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Archery Range | red | 2 wood, 1 ore | 2 shields | Workshop |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Stables | red | 1 wood, 1 ore, 1 clay | 2 shields | Apothecary |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Training Ground | red | 1 wood, 2 ore | 2 shields |  | Circus | 4+ 6+ 7+ | 0 | 1 | 1 | 2 | 3 |
| Walls | red | 3 stone | 2 shields |  | Fortifications | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Gardens | blue | 1 wood, 2 clay | 5 VP | Statue |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Palace | blue | 1 wood, 1 stone, 1 ore, 1 clay, 1 glass, 1 papyrus, 1 loom | 8 VP |  |  | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Pantheon | blue | 1 ore, 2 clay, 1 glass, 1 papyrus, 1 loom | 7 VP | Temple |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Senate | blue | 2 wood, 1 stone, 1 ore | 6 VP | Library |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Town Hall | blue | 2 stone, 1 ore, 1 glass | 6 VP |  |  | 3+ 5+ 6+ | 1 | 1 | 2 | 3 | 3 |
| Academy | green | 3 stone, 1 glass | science: compass | School |  | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Lodge | green | 2 clay, 1 papyrus, 1 loom | science: compass | Dispensary |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Observatory | green | 2 ore, 1 glass, 1 loom | science: gear | Laboratory |  | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Study | green | 1 wood, 1 papyrus, 1 loom | science: gear | School |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| University | green | 2 wood, 1 glass, 1 papyrus | science: tablet | Library |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Arena | yellow | 2 stone, 1 ore | when built: 3 coins per built wonder stage in own city; game end: 1 VP per built wonder stage in own city | Dispensary |  | 3+ 5+ 7+ | 1 | 1 | 2 | 2 | 3 |
| Chamber of Commerce | yellow | 2 clay, 1 papyrus | when built: 2 coins per grey card in own city; game end: 2 VP per grey card in own city |  |  | 4+ 6+ | 0 | 1 | 1 | 2 | 2 |
| Haven | yellow | 1 wood, 1 ore, 1 loom | when built: 1 coin per brown card in own city; game end: 1 VP per brown card in own city | Forum |  | 3+ 4+ | 1 | 2 | 2 | 2 | 2 |
| Lighthouse | yellow | 1 stone, 1 glass | when built: 1 coin per yellow card (this card included) in own city; game end: 1 VP per yellow card (this card included) in own city | Caravansery |  | 3+ 6+ | 1 | 1 | 1 | 2 | 2 |
| Arsenal | red | 2 wood, 1 ore, 1 loom | 3 shields |  |  | 3+ 4+ 7+ | 1 | 2 | 2 | 2 | 3 |
| Circus | red | 3 stone, 1 ore | 3 shields | Training Ground |  | 4+ 5+ 6+ | 0 | 1 | 2 | 3 | 3 |
| Fortifications | red | 1 stone, 3 ore | 3 shields | Walls |  | 3+ 7+ | 1 | 1 | 1 | 1 | 2 |
| Siege Workshop | red | 1 wood, 3 clay | 3 shields | Laboratory |  | 3+ 5+ | 1 | 1 | 2 | 2 | 2 |
| Builders Guild | 2 stone, 2 clay, 1 glass | game end: 1 VP per built wonder stage in own city and both neighbours |
| Craftsmens Guild | 2 stone, 2 ore | game end: 2 VP per grey card in both neighbours (not own city) |
| Magistrates Guild | 3 wood, 1 stone, 1 loom | game end: 1 VP per blue card in both neighbours (not own city) |
| Philosophers Guild | 3 clay, 1 papyrus, 1 loom | game end: 1 VP per green card in both neighbours (not own city) |
| Scientists Guild | 2 wood, 2 ore, 1 papyrus | science wildcard: one symbol of the owner's choice, fixed at scoring (W-SCI-2) |
| Shipowners Guild | 3 wood, 1 glass, 1 papyrus | game end: 1 VP per brown, grey and purple card (this guild included) in own city |
| Spies Guild | 3 clay, 1 glass | game end: 1 VP per red card in both neighbours (not own city) |
| Strategists Guild | 1 stone, 2 ore, 1 loom | game end: 1 VP per defeat token in both neighbours (not own city) |
| Traders Guild | 1 glass, 1 papyrus, 1 loom | game end: 1 VP per yellow card in both neighbours (not own city) |
| Workers Guild | 1 wood, 1 stone, 2 ore, 1 clay | game end: 1 VP per brown card in both neighbours (not own city) |
| Rhodos (The Colossus of Rhodes) | A | ore | 1 | 2 wood | 3 VP |
| | | | 2 | 3 clay | 2 shields |
| | | | 3 | 4 ore | 7 VP |
|  | B | ore | 1 | 3 stone | +3 coins once, when built; 1 shield; 3 VP |
| | | | 2 | 4 ore | +4 coins once, when built; 1 shield; 4 VP |
| Alexandria (The Lighthouse of Alexandria) | A | glass | 1 | 2 stone | 3 VP |
| | | | 2 | 2 ore | produces 1 of wood/stone/ore/clay each turn, for the owner only (not sellable) |
| | | | 3 | 2 glass | 7 VP |
|  | B | glass | 1 | 2 clay | produces 1 of wood/stone/ore/clay each turn, for the owner only (not sellable) |
| | | | 2 | 2 wood | produces 1 of glass/papyrus/loom each turn, for the owner only (not sellable) |
| | | | 3 | 3 stone | 7 VP |
| Ephesos (The Temple of Artemis in Ephesus) | A | papyrus | 1 | 2 stone | 3 VP |
| | | | 2 | 2 wood | +9 coins once, when built |
| | | | 3 | 2 papyrus | 7 VP |
|  | B | papyrus | 1 | 2 stone | +4 coins once, when built; 2 VP |
| | | | 2 | 2 wood | +4 coins once, when built; 3 VP |
| | | | 3 | 1 glass, 1 papyrus, 1 loom | +4 coins once, when built; 5 VP |
| Babylon (The Hanging Gardens of Babylon) | A | clay | 1 | 2 clay | 3 VP |
| | | | 2 | 3 wood | science wildcard: one symbol of the owner's choice, fixed at scoring (W-SCI-2) |
| | | | 3 | 4 clay | 7 VP |
|  | B | clay | 1 | 1 clay, 1 loom | 3 VP |
| | | | 2 | 2 wood, 1 glass | from now on, plays its 7th card at the end of each Age instead of discarding it (W-WON-5) |
| | | | 3 | 3 clay, 1 papyrus | science wildcard: one symbol of the owner's choice, fixed at scoring (W-SCI-2) |
| Olympia (The Statue of Zeus in Olympia) | A | wood | 1 | 2 wood | 3 VP |
| | | | 2 | 2 stone | once per Age, may build the card it plays for free (W-WON-7) |
| | | | 3 | 2 ore | 7 VP |
|  | B | wood | 1 | 2 wood | buys raw (wood/stone/ore/clay) from both neighbours at 1 coin |
| | | | 2 | 2 stone | 5 VP |
| | | | 3 | 2 ore, 1 loom | at scoring, copies one guild built by a neighbour (W-WON-8) |
| Halikarnassus (The Mausoleum of Halikarnassus) | A | loom | 1 | 2 clay | 3 VP |
| | | | 2 | 3 ore | at the end of this turn, builds one card of the discard pile free (W-WON-6) |
| | | | 3 | 2 loom | 7 VP |
|  | B | loom | 1 | 2 ore | 2 VP; at the end of this turn, builds one card of the discard pile free (W-WON-6) |
| | | | 2 | 3 clay | 1 VP; at the end of this turn, builds one card of the discard pile free (W-WON-6) |
| | | | 3 | 1 glass, 1 papyrus, 1 loom | at the end of this turn, builds one card of the discard pile free (W-WON-6) |
| Gizah (The Pyramids of Giza) | A | stone | 1 | 2 stone | 3 VP |
| | | | 2 | 3 wood | 5 VP |
| | | | 3 | 4 stone | 7 VP |
|  | B | stone | 1 | 2 wood | 3 VP |
| | | | 2 | 3 stone | 5 VP |
| | | | 3 | 3 clay | 5 VP |
| | | | 4 | 4 stone, 1 papyrus | 7 VP |
"""


def _rows(kind):
    age, out = 0, []
    for line in EXPECTED.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 12:
            if cells[0] == "Clay Pit" or cells[0] == "Brickyard" or cells[0] == "Gardens":
                age += 1
            if kind == "card":
                out.append((age, cells))
        elif len(cells) == 3 and kind == "guild":
            out.append(cells)
        elif len(cells) == 6 and kind == "board":
            out.append(cells)
    return out


def _effect_text(c):
    """The digest's wording of a card effect, from the data's keyword."""
    kind, _, arg = c.effect.partition(":")
    if kind == "prod":
        if "/" in arg:
            return f"produces 1 of {arg} (neighbours may buy either)"
        return f"produces {arg}" if arg[0].isdigit() else f"produces 1 {arg}"
    if kind == "vp":
        return f"{arg} VP"
    if kind == "shields":
        return f"{arg} shield" + ("s" if arg != "1" else "")
    if kind == "science":
        return f"science: {arg}"
    if kind == "coins":
        return f"+{arg} coins once, when built"
    return {
        "trade:raw_right": "buys raw (wood/stone/ore/clay) from the right neighbour at 1 coin",
        "trade:raw_left": "buys raw (wood/stone/ore/clay) from the left neighbour at 1 coin",
        "trade:manuf": "buys manufactured (glass/papyrus/loom) from both neighbours at 1 coin",
        "choice:raw": "produces 1 of wood/stone/ore/clay each turn, for the owner only (not sellable)",
        "choice:manuf": "produces 1 of glass/papyrus/loom each turn, for the owner only (not sellable)",
        "vineyard": "when built: 1 coin per brown card in own city and both neighbours",
        "bazar": "when built: 2 coins per grey card in own city and both neighbours",
        "haven": "when built: 1 coin per brown card in own city; game end: 1 VP per brown card in own city",
        "lighthouse": "when built: 1 coin per yellow card (this card included) in own city; game end: 1 VP per yellow card (this card included) in own city",
        "chamber": "when built: 2 coins per grey card in own city; game end: 2 VP per grey card in own city",
        "arena": "when built: 3 coins per built wonder stage in own city; game end: 1 VP per built wonder stage in own city",
    }[c.effect]


CARD_ROWS = _rows("card")


def test_every_row_present():
    assert len(CARD_ROWS) == 68 == len(d.CARDS)          # 27 + 23 + 18 distinct
    assert len(_rows("guild")) == 10 == len(d.GUILDS)


@pytest.mark.parametrize("age,cells", CARD_ROWS, ids=[f"{a}-{c[0]}" for a, c in CARD_ROWS])
def test_card_row(age, cells):
    """W-SETUP-2, W-BUILD-2, W-CARD-*: one row of the Age tables."""
    name, colour, cost, effect, chain_from, chain_to, marks = cells[:7]
    card = [c for c in d.CARDS if c.name == name and c.age == age]
    assert len(card) == 1, name
    card = card[0]
    assert card.colour == colour
    assert d.parse_cost("" if cost == "free" else cost) == d.parse_cost(card.cost)
    assert _effect_text(card) == effect
    assert card.chain_from == tuple(x.strip() for x in chain_from.split(",") if x.strip())
    mine_to = [c.name for c in d.CARDS if name in c.chain_from and c.age > age]
    assert sorted(mine_to) == sorted(x.strip() for x in chain_to.split(",") if x.strip())
    assert card.marks == tuple(int(m.rstrip("+")) for m in marks.split())
    for n, k in zip((3, 4, 5, 6, 7), cells[7:]):
        assert d.deck_copies(age, n).get(name, 0) == int(k), (name, n)


@pytest.mark.parametrize("players,sizes", [(2, (21, 21, 16)), (3, (21, 21, 16)), (4, (28, 28, 22)),
                                            (5, (35, 35, 28)), (6, (42, 42, 34)), (7, (49, 49, 40))])
def test_totals(players, sizes):
    """W-SETUP-2/-3: Ages I and II hold 7N cards, Age III 7N - (N+2) plus N+2 guilds."""
    for age, n in zip((1, 2, 3), sizes):
        assert sum(d.deck_copies(age, players).values()) == n
    n = 3 if players == 2 else players
    assert sizes[2] + d.guild_count(players) == 7 * n


@pytest.mark.parametrize("cells", _rows("guild"), ids=lambda c: c[0])
def test_guild_row(cells):
    """W-CARD-8: cost and scoring of each guild."""
    g = d.GUILDS[[x.name for x in d.GUILDS].index(cells[0])]
    assert d.parse_cost(g.cost) == d.parse_cost(cells[1])
    kind, _, rest = g.effect.partition(":")
    if kind == "neighbours":
        colour, vp = rest.split(":")
        assert f"{vp} VP per {colour} card in both neighbours (not own city)" in cells[2]
    else:
        key = {"builders": "built wonder stage in own city and both neighbours",
               "shipowners": "brown, grey and purple card (this guild included) in own city",
               "strategists": "defeat token in both neighbours",
               "scientists": "science wildcard"}[kind]
        assert key in cells[2]


def _stage_text(st):
    parts = []
    for e in st.effects:
        k, _, v = e.partition(":")
        parts.append({"vp": f"{v} VP", "coins": f"+{v} coins once, when built",
                      "shields": f"{v} shield" + ("s" if v != "1" else "")}.get(k, k))
    return parts


def test_board_rows():
    """W-SETUP-4, W-WON-3..8: both sides of the 7 boards, stage by stage."""
    board = side = None
    n = 0
    for cells in _rows("board"):
        if cells[0]:
            board = d.BOARDS[d.BOARD_NAMES.index(cells[0].split(" (")[0])]
            assert board.resource == cells[2]
            assert board.gloss == cells[0].split(" (")[1].rstrip(")")
        if cells[1]:
            side = cells[1]
        st = (board.a if side == "A" else board.b)[int(cells[3]) - 1]
        assert d.parse_cost(st.cost) == d.parse_cost(cells[4])
        text = cells[5]
        for part in _stage_text(st):
            key = {"choice": "produces 1 of", "trade": "buys raw", "science": "science wildcard",
                   "seventh": "7th card", "free_build": "for free",
                   "discard_build": "discard pile free", "copy_guild": "copies one guild"}.get(part, part)
            assert key in text, (board.name, side, cells[3], part)
        n += 1
    assert n == sum(len(b.a) + len(b.b) for b in d.BOARDS) == 42


def test_names_and_physical_ids():
    """W-BUILD-3: Glassworks, Loom and Press share one name over Ages I and II."""
    assert len(d.NAMES) == 75 and d.NUM_AGE_NAMES == 65
    assert len(d.PHYSICAL) == 148
    for age, n in ((1, 49), (2, 49), (3, 40)):
        assert sum(1 for p in d.PHYSICAL if p[1] == age and p[0] < 65) == n
    for name in ("Glassworks", "Loom", "Press"):
        assert {c.age for c in d.CARDS if c.name == name} == {1, 2}
