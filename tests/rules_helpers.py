"""Helpers of the rules test-suite (``tests/test_rules_*.py``).

The expected values of the rules suite are written here, in the game's words: the component
tables below are a verbatim copy of the *Components* section of ``RULES.md`` (they must not be
read from ``duelcore.data``, which is what is under test), and so are the Age layouts.  Only the
*names* of cards, wonders and tokens are mapped to the engine's ids (ids are the interface).

A position is written as data (``duelcore.state_from_dict``): :func:`position` returns a minimal
play-phase position dict that a test modifies, :func:`state` builds the State directly.
"""
from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, field

import duelcore
from duelcore import data as _names

L = duelcore.ACTION_LAYOUT
CHANCE = duelcore.CHANCE_PLAYER
RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
#: Science symbols in the engine's index order (``State.science_symbols``); RULES.md R-SCI-1
#: names the same seven.
SYMBOLS = tuple(_names.SYMBOLS)
assert set(SYMBOLS) == {"wheel", "quill", "mortar", "set_square", "sundial", "globe", "law"}

# ---------------------------------------------------------------- names <-> ids
CARD_NAMES = tuple(_names.CARD_NAMES)
WONDER_NAMES = tuple(_names.WONDER_NAMES)
TOKEN_NAMES = tuple(_names.TOKEN_NAMES)


def cid(name: str) -> int:
    """Card id of a card named as in RULES.md."""
    return CARD_NAMES.index(name)


def wid(name: str) -> int:
    return WONDER_NAMES.index(name)


def tid(name: str) -> int:
    return TOKEN_NAMES.index(name)


def card_names(ids) -> list:
    return sorted(CARD_NAMES[c] for c in ids)


def token_names(ids) -> list:
    return sorted(TOKEN_NAMES[t] for t in ids)


# ---------------------------------------------------------------- actions in the game's words
def build(card: str) -> int:
    return L["BUILD_BASE"] + cid(card)


def discard(card: str) -> int:
    return L["DISCARD_BASE"] + cid(card)


def wonder(wonder_name: str, card: str) -> int:
    """Take `card` and tuck it under `wonder_name` to build that wonder."""
    return L["WONDER_BASE"] + wid(wonder_name) * 73 + cid(card)


def token(name: str) -> int:
    return L["TOKEN_BASE"] + tid(name)


def destroy(card: str) -> int:
    return L["DESTROY_BASE"] + cid(card)


def revive(card: str) -> int:
    return L["REVIVE_BASE"] + cid(card)


def start(player: int) -> int:
    return L["START_BASE"] + player


def pick(wonder_name: str) -> int:
    return L["DRAFT_BASE"] + wid(wonder_name)


def reveal(card: str) -> int:
    """Chance outcome: the card turned face up is `card`."""
    return L["CHANCE_CARD_BASE"] + cid(card)


def guild_back(slot: int) -> int:
    """Chance outcome: a guild back is placed in Age III layout slot `slot` (R-CHANCE-2)."""
    return L["CHANCE_SLOT_BASE"] + slot


def chance_token(name: str) -> int:
    return L["CHANCE_TOKEN_BASE"] + tid(name)


def chance_wonder(name: str) -> int:
    return L["CHANCE_WONDER_BASE"] + wid(name)


def chance_first(player: int) -> int:
    return L["CHANCE_FIRST_BASE"] + player


def act(s, *actions):
    """Apply actions in order; return the state (for chaining)."""
    for a in actions:
        s.apply_action(a)
    return s


def legal_strings(s) -> list:
    return [duelcore.action_to_string(a) for a in s.legal_actions()]


def is_wonder_action(a: int) -> bool:
    return L["WONDER_BASE"] <= a < L["TOKEN_BASE"]


def is_build_action(a: int) -> bool:
    return L["BUILD_BASE"] <= a < L["DISCARD_BASE"]


# ---------------------------------------------------------------- positions as data
#: Top row of each Age's layout (row 0, dealt face up, covered by nothing once the rest is
#: taken): the slots where :func:`position` lays the available cards.
TOP_ROW = {1: (0, 1), 2: (0, 1, 2, 3, 4, 5), 3: (0, 1)}


def player(coins=7, city=(), wonders=(), tokens=()):
    """One player's part of a position: coins, city (card names), wonders (names of unbuilt
    wonders, or :func:`built` dicts), progress tokens (names)."""
    return {"coins": coins, "city": list(city),
            "wonders": [w if isinstance(w, dict) else {"name": w} for w in wonders],
            "progress_tokens": list(tokens)}


def built(name: str, card: str | None = None) -> dict:
    """A wonder already built (optionally with the card tucked under it)."""
    return {"name": name, "built": True, "card": card}


def position(age=1, avail=(), p1=None, p2=None, layout=None, explicit=False, **fields):
    """A minimal play-phase position: the cards `avail` lie in the top row of the Age's layout
    (all other slots taken), P1 (player 0) to move, pawn centred, all military tokens on the
    track, nothing pending.  Extra `fields` (``pawn``, ``to_move``, ``board_tokens``,
    ``discard_pile``, ``military_tokens``, ``options``...) are written into the dict."""
    if layout is None:
        slots = TOP_ROW[age]
        if len(avail) > len(slots):
            raise ValueError(f"at most {len(slots)} available cards in Age {age}")
        layout = [None] * 20
        for slot, name in zip(slots, avail):
            layout[slot] = name
    d = {"version": 1, "age": age, "layout": list(layout),
         "players": [p1 if p1 is not None else player(), p2 if p2 is not None else player()]}
    if explicit:
        d["options"] = {"explicit_chance": True}
    d.update(fields)
    return d


def layout(age: int, cards: dict) -> list:
    """A layout of Age `age` written as ``{slot: card name}``: the face-down slots (R-AGE-1)
    that still lie under a card are ``"face_down"``, every other slot is taken (``None``)."""
    out = [None] * 20
    for slot, name in cards.items():
        out[slot] = name
    for slot in range(19, -1, -1):
        if slot in LAYOUT_FACE_DOWN[age] and slot not in cards:
            if any(out[u] is not None for u in LAYOUT_COVERED_BY[age][slot]):
                out[slot] = "face_down"
    return out


def state(**kw):
    """``duelcore.state_from_dict(position(**kw))``."""
    return duelcore.state_from_dict(position(**kw))


def resolve_chance(s, rng: random.Random):
    """At explicit chance nodes, draw outcomes with their probabilities until a decision."""
    while s.is_chance_node():
        outs = s.chance_outcomes()
        acts = [a for a, _ in outs]
        probs = [p for _, p in outs]
        s.apply_action(rng.choices(acts, probs)[0])
    return s


def age1_start(seed=0, first_player=0, **kw):
    """A new game (explicit chance) at the first decision of Age I: the draft is made with the
    first wonder on offer, chance is drawn with a seeded RNG."""
    rng = random.Random(seed)
    s = duelcore.new_game(seed, first_player=first_player, explicit_chance=True, **kw)
    while s.phase != "play":
        if s.is_chance_node():
            resolve_chance(s, rng)
        else:
            s.apply_action(s.legal_actions()[0])
    return s


#: A card needing exactly one unit of each resource and no coins: its cost is the price of one
#: unit of that resource for a player (R-TRADE-1).
PROBE = {"wood": "Stable", "clay": "Garrison", "stone": "Baths", "glass": "Apothecary",
         "papyrus": "Workshop"}


def unit_price(s, p: int, resource: str) -> int:
    """Coins player p pays now for one unit of `resource` (0 if produced)."""
    return s.card_cost(p, PROBE[resource])[0]


def filler(age: int, *exclude: str) -> str:
    """A card of `age` other than `exclude` with no effect on the tests (a blue card)."""
    for name in ("Theater", "Altar", "Rostrum", "Courthouse", "Obelisk", "Palace"):
        if CARDS[name].age == age and name not in exclude:
            return name
    raise LookupError(age)


def slot_of(s, card: str) -> int:
    return s.to_dict()["layout"].index(card)


# ---------------------------------------------------------------- the rulebook's components
AGE_I_TABLE = """\
| Lumber Yard | brown | free |  | produces 1 wood |  |
| Stone Pit | brown | 1 coin |  | produces 1 stone |  |
| Clay Pool | brown | free |  | produces 1 clay |  |
| Logging Camp | brown | 1 coin |  | produces 1 wood |  |
| Quarry | brown | free |  | produces 1 stone |  |
| Clay Pit | brown | 1 coin |  | produces 1 clay |  |
| Glassworks | grey | 1 coin |  | produces 1 glass |  |
| Press | grey | 1 coin |  | produces 1 papyrus |  |
| Theater | blue | free | 3 |  | gives mask |
| Altar | blue | free | 3 |  | gives moon |
| Baths | blue | 1 stone | 3 |  | gives drop |
| Scriptorium | green | 2 coins |  | symbol: quill | gives book |
| Workshop | green | 1 papyrus | 1 | symbol: set_square |  |
| Pharmacist | green | 2 coins |  | symbol: mortar | gives gear |
| Apothecary | green | 1 glass | 1 | symbol: wheel |  |
| Tavern | yellow | free |  | +4 coins when built | gives vase |
| Stone Reserve | yellow | 3 coins |  | trade price 1 for stone |  |
| Clay Reserve | yellow | 3 coins |  | trade price 1 for clay |  |
| Wood Reserve | yellow | 3 coins |  | trade price 1 for wood |  |
| Stable | red | 1 wood |  | 1 shield | gives horseshoe |
| Garrison | red | 1 clay |  | 1 shield | gives sword |
| Palisade | red | 2 coins |  | 1 shield | gives tower |
| Guard Tower | red | free |  | 1 shield |  |
"""

AGE_II_TABLE = """\
| Sawmill | brown | 2 coins |  | produces 2 wood |  |
| Shelf Quarry | brown | 2 coins |  | produces 2 stone |  |
| Brickyard | brown | 2 coins |  | produces 2 clay |  |
| Glass-Blower | grey | free |  | produces 1 glass |  |
| Drying Room | grey | free |  | produces 1 papyrus |  |
| Temple | blue | 1 wood, 1 papyrus | 4 |  | free with moon (Altar); gives sun |
| Statue | blue | 2 clay | 4 |  | free with mask (Theater); gives column |
| Courthouse | blue | 2 wood, 1 glass | 5 |  |  |
| Aqueduct | blue | 3 stone | 5 |  | free with drop (Baths) |
| Rostrum | blue | 1 wood, 1 stone | 4 |  | gives temple |
| School | green | 1 wood, 2 papyrus | 1 | symbol: wheel | gives lyre |
| Laboratory | green | 1 wood, 2 glass | 1 | symbol: set_square | gives lamp |
| Dispensary | green | 2 clay, 1 stone | 2 | symbol: mortar | free with gear (Pharmacist) |
| Library | green | 1 wood, 1 stone, 1 glass | 2 | symbol: quill | free with book (Scriptorium) |
| Brewery | yellow | free |  | +6 coins when built | gives barrel |
| Forum | yellow | 3 coins, 1 clay |  | produces 1 of glass/papyrus for each build (does not raise the opponent's trade price) |  |
| Caravansery | yellow | 2 coins, 1 glass, 1 papyrus |  | produces 1 of clay/stone/wood for each build (does not raise the opponent's trade price) |  |
| Customs House | yellow | 4 coins |  | trade price 1 for glass and papyrus |  |
| Horse Breeders | red | 1 wood, 1 clay |  | 1 shield | free with horseshoe (Stable) |
| Barracks | red | 3 coins |  | 1 shield | free with sword (Garrison) |
| Walls | red | 2 stone |  | 2 shields |  |
| Archery Range | red | 1 wood, 1 stone, 1 papyrus |  | 2 shields | gives target |
| Parade Ground | red | 2 clay, 1 glass |  | 2 shields | gives helmet |
"""

AGE_III_TABLE = """\
| Palace | blue | 1 wood, 1 clay, 1 stone, 2 glass | 7 |  |  |
| Gardens | blue | 2 wood, 2 clay | 6 |  | free with column (Statue) |
| Pantheon | blue | 1 wood, 1 clay, 2 papyrus | 6 |  | free with sun (Temple) |
| Town Hall | blue | 2 wood, 3 stone | 7 |  |  |
| Senate | blue | 2 clay, 1 stone, 1 papyrus | 5 |  | free with temple (Rostrum) |
| Obelisk | blue | 2 stone, 1 glass | 5 |  |  |
| Academy | green | 1 wood, 1 stone, 2 glass | 3 | symbol: sundial |  |
| University | green | 1 clay, 1 glass, 1 papyrus | 2 | symbol: globe | free with lyre (School) |
| Study | green | 2 wood, 1 glass, 1 papyrus | 3 | symbol: sundial |  |
| Observatory | green | 1 stone, 2 papyrus | 2 | symbol: globe | free with lamp (Laboratory) |
| Arena | yellow | 1 wood, 1 clay, 1 stone | 3 | when built: 2 coin(s) per constructed Wonder in your own city | free with barrel (Brewery) |
| Chamber of Commerce | yellow | 2 papyrus | 3 | when built: 3 coin(s) per grey card in your own city |  |
| Port | yellow | 1 wood, 1 glass, 1 papyrus | 3 | when built: 2 coin(s) per brown card in your own city |  |
| Lighthouse | yellow | 2 clay, 1 glass | 3 | when built: 1 coin(s) per yellow card in your own city (this card counts itself) | free with vase (Tavern) |
| Armory | yellow | 2 stone, 1 glass | 3 | when built: 1 coin(s) per red card in your own city |  |
| Circus | red | 2 clay, 2 stone |  | 2 shields | free with helmet (Parade Ground) |
| Arsenal | red | 2 wood, 3 clay |  | 3 shields |  |
| Siege Workshop | red | 3 wood, 1 glass |  | 2 shields | free with target (Archery Range) |
| Fortifications | red | 1 clay, 2 stone, 1 papyrus |  | 2 shields | free with tower (Palisade) |
| Pretorium | red | 8 coins |  | 3 shields |  |
"""

GUILDS_TABLE = """\
| Merchants Guild | purple | 1 wood, 1 clay, 1 glass, 1 papyrus |  | when built: 1 coin(s) per yellow card in the city with the most yellow cards; end of game: 1 VP per yellow card in the city with the most yellow cards |  |
| Shipowners Guild | purple | 1 clay, 1 stone, 1 glass, 1 papyrus |  | when built: 1 coin(s) per brown card plus grey card in the single city with the most brown+grey cards combined; end of game: 1 VP per brown card plus grey card in the single city with the most brown+grey cards combined |  |
| Builders Guild | purple | 1 wood, 1 clay, 2 stone, 1 glass |  | end of game: 2 VP per constructed Wonder in the city with the most constructed Wonders |  |
| Magistrates Guild | purple | 2 wood, 1 clay, 1 papyrus |  | when built: 1 coin(s) per blue card in the city with the most blue cards; end of game: 1 VP per blue card in the city with the most blue cards |  |
| Scientists Guild | purple | 2 wood, 2 clay |  | when built: 1 coin(s) per green card in the city with the most green cards; end of game: 1 VP per green card in the city with the most green cards |  |
| Moneylenders Guild | purple | 2 wood, 2 stone |  | end of game: 1 VP per set of 3 coins in the richer city (max of floor(coins/3) over both cities) |  |
| Tacticians Guild | purple | 1 clay, 2 stone, 1 papyrus |  | when built: 1 coin(s) per red card in the city with the most red cards; end of game: 1 VP per red card in the city with the most red cards |  |
"""

WONDER_TABLE = """\
| The Pyramids | 3 stone, 1 papyrus | 9 | No other effect. |
| The Colossus | 3 clay, 1 glass | 3 | 2 shields (move the conflict pawn 2 spaces). |
| The Great Lighthouse | 1 wood, 1 stone, 2 papyrus | 4 | Produces 1 of wood/clay/stone for each build (does not raise the opponent's trade price). |
| The Temple of Artemis | 1 wood, 1 stone, 1 glass, 1 papyrus |  | Take 12 coins; play again. |
| The Mausoleum | 2 clay, 2 glass, 1 papyrus | 2 | Choose one card in the discard pile and build it for free, with all its effects; the others stay in the pile. Skipped if the pile is empty (R-WONDER-5). |
| The Great Library | 3 wood, 1 glass, 1 papyrus | 4 | Randomly draw 3 of the 5 progress tokens set aside at setup (never the board ones); keep 1 and apply it; the other 2 leave the game (R-WONDER-6). |
| Piraeus | 2 wood, 1 clay, 1 stone | 2 | Produces 1 of glass/papyrus for each build (does not raise the opponent's trade price); play again. |
| The Hanging Gardens | 2 wood, 1 glass, 1 papyrus | 3 | Take 6 coins; play again. |
| The Statue of Zeus | 1 wood, 1 clay, 1 stone, 2 papyrus | 3 | 1 shield; put one brown card of your choice built by the opponent into the discard pile (skipped if they have none). |
| The Sphinx | 1 clay, 1 stone, 2 glass | 6 | Play again. |
| The Appian Way | 2 clay, 2 stone, 1 papyrus | 3 | Take 3 coins; the opponent loses 3 coins (to the bank, at most what they have); play again. |
| Circus Maximus | 1 wood, 2 stone, 1 glass | 3 | 1 shield; put one grey card of your choice built by the opponent into the discard pile (skipped if they have none). |
"""

TOKEN_TABLE = """\
| Agriculture | Immediately take 6 coins; worth 4 VP. |
| Architecture | Every wonder you build from now on costs 2 fewer resource units (any 2, possibly of one kind); the simulator always waives the most expensive (R-TRADE-4). |
| Economy | Whenever your opponent buys resources (for a card or a wonder), the coins they actually pay for those resources go to you instead of the bank; never the printed coin cost of a card. |
| Law | Worth one scientific symbol (the scales / law symbol, which appears on no card). |
| Masonry | Every blue card you build from now on costs 2 fewer resource units (any 2, possibly of one kind); the simulator always waives the most expensive (R-TRADE-4). |
| Mathematics | End of game: 3 VP per progress token you own, this one included. |
| Philosophy | Worth 7 VP. |
| Strategy | Each red card you build from now on gives 1 extra shield (not Wonders, not retroactive). |
| Theology | Every Wonder you build from now on has the play-again effect; a Wonder that already has it does not get a second one. |
| Urbanism | Immediately take 6 coins; each time you build a card for free through a chain symbol you take 4 coins. |
"""

#: Age layouts of RULES.md (R-LAYOUT-1): covered_by per slot and the face-down slots.
LAYOUT_COVERED_BY = {
    1: [(2, 3), (3, 4), (5, 6), (6, 7), (7, 8), (9, 10), (10, 11), (11, 12), (12, 13), (14, 15),
        (15, 16), (16, 17), (17, 18), (18, 19), (), (), (), (), (), ()],
    2: [(6,), (6, 7), (7, 8), (8, 9), (9, 10), (10,), (11,), (11, 12), (12, 13), (13, 14), (14,),
        (15,), (15, 16), (16, 17), (17,), (18,), (18, 19), (19,), (), ()],
    3: [(2, 3), (3, 4), (5, 6), (6, 7), (7, 8), (9,), (9,), (10,), (10,), (11, 12), (13, 14),
        (15,), (15, 16), (16, 17), (17,), (18,), (18, 19), (19,), (), ()],
}
LAYOUT_FACE_DOWN = {1: [2, 3, 4, 9, 10, 11, 12, 13], 2: [6, 7, 8, 9, 10, 15, 16, 17],
                    3: [2, 3, 4, 9, 10, 15, 16, 17]}
LAYOUT_AVAILABLE_AT_START = {1: [14, 15, 16, 17, 18, 19], 2: [18, 19], 3: [18, 19]}


def parse_cost(text: str):
    """``"3 coins, 1 clay"`` -> ``(3, {"clay": 1})``; ``"free"`` -> ``(0, {})``."""
    coins, res = 0, {}
    if text.strip() == "free":
        return 0, res
    for part in text.split(","):
        n, what = part.split()
        if what in ("coin", "coins"):
            coins += int(n)
        else:
            assert what in RESOURCES, what
            res[what] = res.get(what, 0) + int(n)
    return coins, res


def res_vector(res: dict) -> list:
    return [res.get(r, 0) for r in RESOURCES]


@dataclass
class CardRow:
    """One row of the card tables of RULES.md."""
    name: str
    age: int
    colour: str
    coins: int
    res: dict
    vp: int
    effect: str
    chain: str
    produces: dict = field(default_factory=dict)
    choice: tuple = ()
    trade_one: tuple = ()
    shields: int = 0
    symbol: str = ""
    gain: int = 0
    per: tuple = ()              # (what, coins) when built, own city
    chain_from: str = ""         # name of the card giving the chain symbol
    gives: str = ""

    @property
    def units(self):
        return sum(self.res.values())


def _parse_card(line: str, age: int) -> CardRow:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    name, colour, cost, vp, effect, chain = cells
    coins, res = parse_cost(cost)
    row = CardRow(name, age, colour, coins, res, int(vp) if vp else 0, effect, chain)
    m = re.fullmatch(r"produces (\d) (\w+)", effect)
    if m:
        row.produces = {m.group(2): int(m.group(1))}
    m = re.match(r"produces 1 of ([\w/]+) for each build", effect)
    if m:
        row.choice = tuple(m.group(1).split("/"))
    m = re.fullmatch(r"trade price 1 for (\w+)(?: and (\w+))?", effect)
    if m:
        row.trade_one = tuple(x for x in m.groups() if x)
    m = re.fullmatch(r"(\d) shields?", effect)
    if m:
        row.shields = int(m.group(1))
    m = re.fullmatch(r"symbol: (\w+)", effect)
    if m:
        row.symbol = m.group(1)
    m = re.fullmatch(r"\+(\d) coins when built", effect)
    if m:
        row.gain = int(m.group(1))
    m = re.match(r"when built: (\d) coin\(s\) per (constructed Wonder|\w+ card) in your own city",
                 effect)
    if m:
        what = "wonder" if m.group(2) == "constructed Wonder" else m.group(2).split()[0]
        row.per = (what, int(m.group(1)))
    m = re.search(r"free with \w+ \(([\w ]+)\)", chain)
    if m:
        row.chain_from = m.group(1)
    m = re.search(r"gives (\w+)", chain)
    if m:
        row.gives = m.group(1)
    return row


CARDS = {}
for _age, _table in ((1, AGE_I_TABLE), (2, AGE_II_TABLE), (3, AGE_III_TABLE), (3, GUILDS_TABLE)):
    for _line in _table.strip().splitlines():
        _row = _parse_card(_line, _age)
        CARDS[_row.name] = _row
CARD_LIST = list(CARDS.values())
AGE_CARDS = {1: [r.name for r in CARD_LIST[:23]], 2: [r.name for r in CARD_LIST[23:46]],
             3: [r.name for r in CARD_LIST[46:66]]}
GUILDS = [r.name for r in CARD_LIST[66:]]


@dataclass
class WonderRow:
    name: str
    res: dict
    vp: int
    effect: str

    @property
    def units(self):
        return sum(self.res.values())


WONDERS = {}
for _line in WONDER_TABLE.strip().splitlines():
    _n, _cost, _vp, _eff = [c.strip() for c in _line.strip().strip("|").split("|")]
    WONDERS[_n] = WonderRow(_n, parse_cost(_cost)[1], int(_vp) if _vp else 0, _eff)

TOKENS = {}
for _line in TOKEN_TABLE.strip().splitlines():
    _n, _eff = [c.strip() for c in _line.strip().strip("|").split("|")]
    TOKENS[_n] = _eff


# ---------------------------------------------------------------- reference cost (exhaustive)
def reference_cost(me: dict, opp_fixed: list, need: list, discount: int) -> int:
    """Cheapest coins to pay resource vector `need` (R-TRADE-1..4), by exhaustive search over
    every use of the choice producers and every set of waived units.

    ``me``: ``fixed`` (list of 5), ``choices`` (list of tuples of resource indices, one per
    "1 of X/Y/Z" producer), ``trade_one`` (set of resource indices).
    """
    price = [1 if r in me["trade_one"] else 2 + opp_fixed[r] for r in range(5)]
    base = [max(0, need[r] - me["fixed"][r]) for r in range(5)]
    best = None
    for picks in itertools.product(*[tuple(c) + (None,) for c in me["choices"]]):
        left = list(base)
        for r in picks:
            if r is not None and left[r] > 0:
                left[r] -= 1
        for waive in itertools.combinations_with_replacement(range(6), discount):
            rest = list(left)
            for r in waive:
                if r < 5 and rest[r] > 0:
                    rest[r] -= 1
            cost = sum(rest[r] * price[r] for r in range(5))
            if best is None or cost < best:
                best = cost
    return best
