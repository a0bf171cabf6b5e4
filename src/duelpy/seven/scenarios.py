"""Positions of 7 Wonders written in the game's words (issue 30): say the parts you care about,
the builder deals the rest consistently and returns a checked :class:`~duelcore.seven.State`.

>>> from duelpy.seven import scenario
>>> st = scenario(4, seed=1, age=2, turn=3, boards=["Gizah B", None, "Rhodos A", None],
...               cities={0: ["Lumber Yard", "Stone Pit", "Sawmill"]}, coins={0: 7},
...               hands={0: ["Statue", "Library"]}, stages={0: 1})
>>> st.phase, st.age, st.turn, st.board(0), st.coins(0)
('turn', 2, 3, ('Gizah', 'B', 1), 7)
>>> len(st.hand(0)), "Statue" in st.hand(0), st.city(0)
(5, True, ['Lumber Yard', 'Stone Pit', 'Sawmill'])

What the builder deals (W-SETUP, W-AGE): boards and sides not given are drawn from the seed
(different boards, W-SETUP-4); the N + 2 guilds (5 in the Free City variant) are those named
plus others drawn (W-SETUP-3); every card of the Ages before the current one, and of the
current one already played (N (t - 1) cards at turn t, W-AGE-3), is built (the cities given),
under a stage (one card per stage built, W-WON-1) or in the discard pile; the hands hold
8 - t cards of the current Age (the cards given, then others drawn; the Free City controller
also holds the card it drew, W-FREE-7) and the Free City's pile 7 - t.  Each player remembers
the hands of this Age it has held (W-INFO-2) as they are now, and knows the cards under its
own stages.  Military tokens, unless given, are those the cities' shields give at the end of
each Age already scored (red cards of that Age or earlier, and the stages' shields; W-MIL-1).
The position is then loaded with :func:`duelcore.seven.state_from_dict`, so it passes every
check of :data:`duelcore.seven.STATE_CHECKS` or the builder raises.
"""
from __future__ import annotations

import random
from typing import Mapping, Sequence, Union

from duelcore import seven as _core
from duelcore import seven_data as _data

from duelpy.seven.names import resolve_board, resolve_card

__all__ = ["scenario"]

PerSeat = Union[Mapping[int, object], Sequence[object], None]


def _per_seat(value: PerSeat, seats: int, what: str, default) -> list:
    """One entry per seat from a sequence (one per seat) or a {seat: value} mapping."""
    if value is None:
        return [default() if callable(default) else default for _ in range(seats)]
    if isinstance(value, Mapping):
        out = [default() if callable(default) else default for _ in range(seats)]
        for seat, v in value.items():
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                raise ValueError(f"{what}: seat {seat!r} is not a seat (0..{seats - 1})")
            out[seat] = v
        return out
    if isinstance(value, str) or len(value) != seats:
        raise ValueError(f"{what}: give one entry per seat ({seats}) or a {{seat: value}} dict")
    return list(value)


def _shields(effects) -> int:
    return sum(int(e.split(":")[1]) for e in effects if e.startswith("shields:"))


def scenario(players: int, seed: int = 0, *, age: int = 1, turn: int = 1,
             phase: str = "turn", boards: Sequence[str | None] | None = None,
             sides: str | None = None, cities: PerSeat = None, hands: PerSeat = None,
             coins: PerSeat = None, stages: PerSeat = None, military: PerSeat = None,
             olympia_free: PerSeat = None, discard: Sequence[str] = (),
             guilds: Sequence[str] | None = None, explicit_chance: bool = False,
             all_pairs: bool = False) -> _core.State:
    """A 7 Wonders position with the parts given, the rest dealt from ``seed`` (see the module
    doc for what is dealt and how).

    Parameters
    ----------
    players : 2..7; 2 is the Free City variant (seat 2 the Free City, W-FREE).
    seed : non-negative int: the boards, sides, guilds and cards not given are drawn from it;
        it also seeds the state's chance (W-CHANCE-1).
    age, turn : the Age (1..3) and its turn (1..6, W-AGE-1, W-TURN-5); the position is at the
        start of that turn (phase ``"turn"``, nobody has committed), or with ``phase="over"``
        the end of the game (after Age III's military; ``age`` and ``turn`` are then 3 and 6).
    boards : one entry per seat: None (drawn), ``"Gizah"`` (side drawn, or ``sides``) or
        ``"Gizah B"``.
    sides : ``"A"`` or ``"B"`` for every board whose side is not given; None: drawn.
    cities : per seat (a list, or a {seat: [...]} dict) the names of the cards built, of this
        Age or an earlier one (at most the cards the city has played: 6 an Age, W-TURN-5).
    hands : per player (a list of one entry per player, or a {player: [...]} dict) the names
        of cards in its hand: cards of the current Age (W-AGE-2); the hand is filled up to the
        turn's size with other cards (the Free City has no hand: it plays from its
        controller's, W-FREE-4).
    coins : per seat, coins (default 3, W-SETUP-5).
    stages : per seat, wonder stages built (default 0, W-WON-1).
    military : per seat, ``(military VP, defeat tokens)`` (W-MIL-2); default: the tokens the
        shields give at the end of each Age scored.
    olympia_free : per seat, whether Olympia A's free build is still unused this Age
        (default: yes, for Olympia A with stage 2, W-WON-7).
    discard : names of cards in the discard pile (besides the others dealt there).
    guilds : guilds drawn into Age III (besides those named in cities, hands, discard).
    explicit_chance, all_pairs : as for :func:`duelpy.seven.new_game`.

    Raises
    ------
    ValueError
        Naming the argument for an unknown name, a card not in this player count's game or
        not of the Age, too many cards of one kind, or a card given twice;
        :class:`~duelcore.seven.StateFormatError` (a ValueError, with ``.field`` and the
        rule) for a position the rules cannot reach, e.g. more built cards than a city has
        played, or military tokens the shields cannot give.
    """
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 7:
        raise ValueError(f"players must be 2..7 (2 is the Free City variant), not {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    if phase not in ("turn", "over"):
        raise ValueError(f"phase must be 'turn' or 'over', not {phase!r}")
    if phase == "over":
        age, turn = 3, 6
    for name, v, lo, hi in (("age", age, 1, 3), ("turn", turn, 1, 6)):
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ValueError(f"{name} must be {lo}..{hi}, not {v!r} (W-AGE-1, W-TURN-5)")
    if sides not in (None, "A", "B"):
        raise ValueError(f"sides must be 'A', 'B' or None (drawn), not {sides!r}")
    rng = random.Random(seed)
    fc = players == 2
    seats = 3 if fc else players
    deck_n = 3 if fc else players

    # ---- boards and sides (W-SETUP-4)
    wanted = _per_seat(boards, seats, "boards", None)
    board_of: list[str | None] = [None] * seats
    side_of: list[str | None] = [None] * seats
    for i, b in enumerate(wanted):
        if b is None:
            continue
        name, _, side = resolve_board(b).partition(" ")
        if name in board_of:
            raise ValueError(f"boards: {name} given twice (every city has its own, W-SETUP-4)")
        board_of[i], side_of[i] = name, side or None
    free = [b for b in _data.BOARD_NAMES if b not in board_of]
    rng.shuffle(free)
    for i in range(seats):
        if board_of[i] is None:
            board_of[i] = free.pop()
        if side_of[i] is None:
            side_of[i] = sides or rng.choice("AB")

    # ---- the cards asked for
    city_names = [[resolve_card(c) for c in cs] for cs in _per_seat(cities, seats, "cities",
                                                                     list)]
    hand_names = [[resolve_card(c) for c in cs] for cs in _per_seat(hands, players, "hands",
                                                                    list)]
    hand_names += [[] for _ in range(seats - players)]
    disc_names = [resolve_card(c) for c in discard]
    guild_names = [g.name for g in _data.GUILDS]
    need_g = 5 if fc else players + 2
    named_g = []
    for nm in [x for cs in city_names + hand_names for x in cs] + disc_names:
        if nm in guild_names and nm not in named_g:
            named_g.append(nm)
    if named_g and age < 3:
        raise ValueError(f"{named_g[0]} is a guild: guilds come into play in Age III "
                         f"(W-SETUP-3)")
    for g in guilds or ():
        nm = resolve_card(g)
        if nm not in guild_names:
            raise ValueError(f"guilds: {nm} is not a guild (W-SETUP-3)")
        if nm not in named_g:
            named_g.append(nm)
    if len(named_g) > need_g:
        raise ValueError(f"{len(named_g)} guilds named: {need_g} are drawn at {players} "
                         f"players (W-SETUP-3)")
    drawn_g = named_g + rng.sample([g for g in guild_names if g not in named_g],
                                   need_g - len(named_g))

    # ---- the physical cards of the game, by Age (W-SETUP-2; the Free City: the 3-player deck)
    pool = {}                                   # id -> age, for every card of the Ages so far
    for pid, (nm, a, mark) in enumerate(_data.PHYSICAL):
        name = _data.NAMES[nm]
        if name in guild_names:
            if age == 3 and name in drawn_g:
                pool[pid] = 3
        elif a <= age and mark <= deck_n:
            pool[pid] = a
    used = set()

    roman = {1: "I", 2: "II", 3: "III"}

    def take(name, what, ages):
        """A free copy of ``name`` of one of ``ages`` (the earliest first)."""
        copies = [p for p in pool if _data.NAMES[_data.PHYSICAL[p][0]] == name]
        ids = sorted((pool[p], p) for p in copies if p not in used and pool[p] in ages)
        if ids:
            used.add(ids[0][1])
            return ids[0][1]
        have = sorted({pool[p] for p in copies})
        if not have:
            if name in guild_names:
                raise ValueError(f"{what}: {name} is a guild: guilds are in play from Age III "
                                 f"(W-SETUP-3)")
            have = sorted({a for nm, a, mark in _data.PHYSICAL
                           if _data.NAMES[nm] == name and mark <= deck_n})
            if not have:
                raise ValueError(f"{what}: {name} is not in the {players}-player game "
                                 f"(W-SETUP-2)")
        if not [a for a in have if a in ages]:
            raise ValueError(f"{what}: {name} is a card of Age "
                             f"{'/'.join(roman[a] for a in have)}; "
                             + ("a hand holds cards of the current Age "
                                f"({roman[age]}) (W-AGE-1, W-TURN-6)" if what.startswith("hands")
                                else f"here a card of Age {roman[age]} or earlier (W-AGE-1)"))
        raise ValueError(f"{what}: no copy of {name} left: the {players}-player game has "
                         f"{len(copies)} (W-SETUP-2)")

    built = []
    for i in range(seats):
        if len(set(city_names[i])) != len(city_names[i]):
            raise ValueError(f"cities[{i}]: a name twice (a city never holds two cards of one "
                             f"name, W-BUILD-3)")
        built += [take(nm, f"cities[{i}]", range(1, age + 1)) for nm in city_names[i]]
    over = phase == "over"
    hand_ids = [[take(nm, f"hands[{i}]", (age,)) for nm in hand_names[i]]
                for i in range(seats)]
    disc = [take(nm, "discard", range(1, age + 1)) for nm in disc_names]
    # the cards of this Age played so far: one a city a turn (W-AGE-3, W-TURN-5)
    limit = 6 if over else turn - 1
    ages_of: dict[int, set[int]] = {}
    for p in pool:
        ages_of.setdefault(_data.PHYSICAL[p][0], set()).add(pool[p])
    for i in range(seats):
        now = [nm for nm in city_names[i] if ages_of[_data.NAMES.index(nm)] == {age}]
        if len(now) > limit + (3 if board_of[i] == "Halikarnassus" else 0):
            raise ValueError(f"cities[{i}]: {len(now)} cards of Age {roman[age]} "
                             f"({', '.join(now)}), but "
                             + ("a city plays 6 cards an Age" if over else
                                f"before turn {turn} of Age {roman[age]} a city has played "
                                f"{limit} of them, one a turn")
                             + " (W-AGE-3, W-TURN-5; use a later turn)")
    limit *= seats
    now = [p for p in built + disc if pool[p] == age]
    if len(now) > limit:
        names = sorted({_data.NAMES[_data.PHYSICAL[p][0]] for p in now})
        raise ValueError(f"cities/discard: {len(now)} cards of Age {roman[age]} "
                         f"({', '.join(names)}) are built or discarded, but before turn {turn} "
                         f"of Age {roman[age]} the {seats} cities have played only {limit} of "
                         f"them, one a turn each (W-AGE-3, W-TURN-5)")
    # the hands (W-AGE-3, W-FREE-7) and the Free City's pile (W-FREE-3)
    current = [p for p in sorted(pool) if pool[p] == age and p not in used]
    rng.shuffle(current)
    controller = None
    if fc:
        controller = 0 if (turn % 2 == 1) == (age != 2) else 1
    for i in range(players):
        size = 0 if over else 8 - turn + (1 if i == controller else 0)
        if len(hand_ids[i]) > size:
            raise ValueError(f"hands[{i}]: {len(hand_ids[i])} cards, but a hand holds {size} at "
                             f"turn {turn} (W-AGE-3, W-FREE-7)")
        while len(hand_ids[i]) < size:
            if not current:
                raise ValueError(f"too many cards of Age {age} given for turn {turn}: the hands "
                                 f"cannot be filled (W-AGE-2)")
            hand_ids[i].append(current.pop())
        used.update(hand_ids[i])
    pile = []
    if fc and not over:
        for _ in range(7 - turn):
            if not current:
                raise ValueError(f"too many cards of Age {age} given for turn {turn}: the Free "
                                 f"City's pile cannot be filled (W-FREE-3)")
            pile.append(current.pop())
        used.update(pile)
    # every other card of the Ages so far has been played: under a stage or discarded
    stage_n = _per_seat(stages, seats, "stages", 0)
    for i, n in enumerate(stage_n):
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 4:
            raise ValueError(f"stages[{i}]: a number of stages 0..4, not {n!r} (W-WON-1)")
    rest = [p for p in sorted(pool) if p not in used]
    rng.shuffle(rest)
    if sum(stage_n) > len(rest):
        raise ValueError(f"stages: {sum(stage_n)} stages need as many cards under them, and "
                         f"only {len(rest)} cards are left (W-WON-1)")
    tucked = [rest.pop() for _ in range(sum(stage_n))]
    disc += rest
    # ---- military tokens: what the shields give at the end of each Age scored (W-MIL-1)
    scored = 3 if over else age - 1
    owner, k = {}, 0
    for i in range(seats):
        for _ in city_names[i]:
            owner[built[k]] = i
            k += 1
    stage_shields = []
    for i in range(seats):
        board = _data.BOARDS[_data.BOARD_NAMES.index(board_of[i])]
        stage_defs = board.a if side_of[i] == "A" else board.b
        if stage_n[i] > len(stage_defs):
            raise ValueError(f"stages[{i}]: {board_of[i]} {side_of[i]} has {len(stage_defs)} "
                             f"stages, not {stage_n[i]} (W-WON-1)")
        stage_shields.append(sum(_shields(st.effects) for st in stage_defs[:stage_n[i]]))
    tokens = [[0, 0] for _ in range(seats)]
    for a in range(1, scored + 1):
        strength = list(stage_shields)
        for p, i in owner.items():
            nm, card_age, _ = _data.PHYSICAL[p]
            if nm < _data.NUM_AGE_NAMES and card_age <= a:
                strength[i] += _shields([_data.card_of_name(nm, card_age).effect])
        win = (0, 1, 3, 5)[a]
        for i in range(seats):
            for j in ((i + 1) % seats, (i - 1) % seats):
                if strength[i] > strength[j]:
                    tokens[i][0] += win
                elif strength[i] < strength[j]:
                    tokens[i][0] -= 1
                    tokens[i][1] += 1
    mil = _per_seat(military, seats, "military", None)
    coins_l = _per_seat(coins, seats, "coins", 3)
    free_l = _per_seat(olympia_free, seats, "olympia_free", None)
    # ---- what each player knows (W-INFO-2, W-INFO-3)
    def packet(q, t):
        if fc:
            return q if t % 2 == 0 else 1 - q
        if age == 2:
            return (q + t) % players
        return (q - t % players + players) % players
    seen: list[list[list[int]]] = [[[] for _ in range(players)] for _ in range(players)]
    if not over:
        holder = {packet(q, turn - 1): q for q in range(players)}
        for p in range(players):
            for t in range(turn):
                k = packet(p, t)
                seen[p][k] = sorted(hand_ids[holder[k]])
    facedown: list[list[int]] = [[] for _ in range(seats)]
    k = 0
    for i in range(seats):
        mine = tucked[k:k + stage_n[i]]
        k += stage_n[i]
        if i < players:
            facedown[i] = sorted(mine)
    # each card of the pile was discarded by one player, who alone knows it is there
    # (W-INFO-3).  The builder does not know the turns, so the cards go to the players in
    # seat order, each up to the turns (and the leftover card of each Age scored) that its
    # city and stages do not account for; any more (the Free City's, Halikarnassus') in turn
    room = [6 * (age - 1) + turn - (0 if over else 1) + scored - len(city_names[i]) - stage_n[i]
            for i in range(players)]
    i = 0
    for p in sorted(disc):
        for _ in range(players):
            if room[i] > 0:
                break
            i = (i + 1) % players
        room[i] -= 1
        facedown[i].append(p)
        i = (i + 1) % players
    facedown = [sorted(f) for f in facedown]
    # ---- the position (the to_dict form), checked by the loader
    city_dicts = []
    for i in range(seats):
        olympia = board_of[i] == "Olympia" and side_of[i] == "A" and stage_n[i] >= 2
        vp, defeats = tokens[i] if mil[i] is None else mil[i]
        city_dicts.append({
            "board": board_of[i], "side": side_of[i], "stages": stage_n[i],
            "coins": coins_l[i], "military_vp": vp, "defeats": defeats,
            "olympia_free": bool(olympia if free_l[i] is None else free_l[i]),
            "city": [n for n in _data.NAMES if n in city_names[i]],
            "hand": sorted(hand_ids[i]) if i < players else [], "facedown": facedown[i]})
    played = 6 * (age - 1) + turn - (0 if over else 1)
    d = {
        "format": _core.FORMAT_VERSION, "game": "seven", "players": players,
        "phase": phase, "age": age, "turn": turn, "setup_pos": 0, "deal_pos": 7 * players,
        "moves": played * seats, "rng": rng.getrandbits(64),
        "options": {"explicit_chance": bool(explicit_chance), "all_pairs": bool(all_pairs)},
        "forced_board": [None] * seats, "forced_side": [None] * seats,
        "guilds": [g for g in guild_names if g in drawn_g],
        "deck": sorted(pile), "discard": sorted(disc), "tucked": sorted(tucked),
        "built": sorted(built), "commit": [-1] * seats, "commit_card": [None] * seats,
        "hali_seat": None, "seventh_seat": None, "seventh_card": None, "seen": seen,
        "cities": city_dicts,
    }
    return _core.state_from_dict(d)
