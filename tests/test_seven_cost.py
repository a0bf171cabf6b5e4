"""The 7 Wonders cost solver (W-TRADE-1..7) against an exhaustive reference written from the
definition of W-TRADE-5: enumerate every purchase (each sellable source of each neighbour
bought as one of its kinds or not at all), keep those that own production completes and from
which no bought unit can be dropped, price them (W-TRADE-4) and keep the non-dominated pairs
(W-TRADE-6).  Random city triples: 2,000 by default, 100,000 under ``-m slow``."""
import itertools
import random

import pytest

from duelcore import seven as sv
from duelcore import seven_data as D

RAW_MASK = 0b0001111
MANUF_MASK = 0b1110000
PAIR_KINDS = [tuple(D.RESOURCES.index(x) for x in p) for p in D.PAIRS]


def own_covers(need, choice_sources):
    """Can the own "one of" sources (lists of kinds) cover ``need`` (7 ints)?"""
    if sum(need) == 0:
        return True
    if sum(need) > len(choice_sources):
        return False
    for pick in itertools.product(*[list(src) + [None] for src in choice_sources]):
        got = [0] * 7
        for k in pick:
            if k is not None:
                got[k] += 1
        if all(got[r] >= need[r] for r in range(7)):
            return True
    return False


def reference(own_fixed, own_choice, lf, lp, rf, rp, pl, pr, cost, all_pairs=False):
    deficit = [max(0, cost[r] - own_fixed[r]) for r in range(7)]
    choice_sources = []
    for t, k in enumerate(own_choice):
        kinds = PAIR_KINDS[t] if t < 6 else [r for r in range(7) if (RAW_MASK if t == 6 else MANUF_MASK) >> r & 1]
        choice_sources += [tuple(kinds)] * k
    # sellable sources: (seller, kinds); a double card is two units of one kind
    sources = []
    for seller, fixed, pairs in ((0, lf, lp), (1, rf, rp)):
        for r in range(7):
            sources += [(seller, (r,))] * fixed[r]
        for t in range(6):
            sources += [(seller, PAIR_KINDS[t])] * pairs[t]
    # a unit of a kind not in deficit can always be dropped: such sources are never used
    sources = [(s, tuple(k for k in kinds if deficit[k] > 0)) for s, kinds in sources]
    sources = [x for x in sources if x[1]]

    def valid(units):
        bought = [0] * 7
        for _, k in units:
            bought[k] += 1
        return own_covers([max(0, deficit[r] - bought[r]) for r in range(7)], choice_sources)

    pairs = set()
    for pick in itertools.product(*[list(kinds) + [None] for _, kinds in sources]):
        units = [(sources[i][0], k) for i, k in enumerate(pick) if k is not None]
        if not valid(units):
            continue
        if any(valid(units[:i] + units[i + 1:]) for i in range(len(units))):
            continue
        left = sum(pl[k] for s, k in units if s == 0)
        right = sum(pr[k] for s, k in units if s == 1)
        pairs.add((left, right))
    if not all_pairs:
        pairs = {p for p in pairs if not any(q != p and q[0] <= p[0] and q[1] <= p[1]
                                             for q in pairs)}
    return sorted(pairs)


def random_case(rng):
    def fixed(k):
        f = [0] * 7
        for _ in range(k):
            f[rng.randrange(7)] += rng.choice((1, 1, 2))
        return f

    def pairs(k):
        p = [0] * 6
        for _ in range(k):
            p[rng.randrange(6)] += 1
        return p

    own_fixed = fixed(rng.randrange(3))
    own_choice = pairs(rng.randrange(2)) + [rng.random() < 0.2, rng.random() < 0.15]
    own_choice = [int(x) for x in own_choice]
    lf, rf = fixed(rng.randrange(4)), fixed(rng.randrange(4))
    lp, rp = pairs(rng.randrange(3)), pairs(rng.randrange(3))
    disc = rng.randrange(4)       # 0 none, 1 west/left, 2 east/right, 3 both (Olympia B)
    manuf = rng.random() < 0.3
    pl = [1 if disc in (1, 3) else 2] * 4 + [1 if manuf else 2] * 3
    pr = [1 if disc in (2, 3) else 2] * 4 + [1 if manuf else 2] * 3
    cost = [0] * 7
    for _ in range(rng.randint(1, 5)):
        cost[rng.randrange(7)] += 1
    return own_fixed, own_choice, lf, lp, rf, rp, pl, pr, cost


def check(n, seed):
    rng = random.Random(seed)
    nonempty = 0
    for _ in range(n):
        case = random_case(rng)
        all_pairs = rng.random() < 0.3
        want = reference(*case, all_pairs=all_pairs)
        got = sv.solve_cost(*case, all_pairs=all_pairs)
        assert got == want, (case, all_pairs)
        nonempty += len(want) > 1
    assert nonempty > n // 20          # the cases exercise real choices


def test_cost_solver_matches_reference_quick():
    """W-TRADE-5, -6: 2,000 random city triples."""
    check(2000, 7)


@pytest.mark.slow
def test_cost_solver_matches_reference_full():
    """W-TRADE-5, -6: 100,000 random city triples."""
    check(100_000, 11)


def test_own_production_first():
    """W-TRADE-5: a unit the city makes itself is never bought; a "one of" source covers one
    unit per build (W-PROD-1)."""
    z7, z8, z6 = [0] * 7, [0] * 8, [0] * 6
    wood = [1, 0, 0, 0, 0, 0, 0]
    two = [2] * 7
    # own wood: nothing to buy
    assert sv.solve_cost(wood, z8, two, z6, two, z6, [2] * 7, [2] * 7, wood) == [(0, 0)]
    # Timber Yard (wood/stone) alone cannot give wood and stone to one build
    ty = z8[:]
    ty[D.PAIRS.index(("wood", "stone"))] = 1
    assert sv.solve_cost(z7, ty, two, z6, z7, z6, [2] * 7, [2] * 7,
                         [1, 1, 0, 0, 0, 0, 0]) == [(2, 0)]
    # nobody sells: impossible
    assert sv.solve_cost(z7, z8, z7, z6, z7, z6, [2] * 7, [2] * 7, wood) == []


def test_neighbours_do_not_sell_choice_cards():
    """W-TRADE-2: Caravansery, Forum and Alexandria's stages are not for sale."""
    st = _pos(["Caravansery"], "Alexandria B", stages_left=1)
    assert st.payment_options(0, "Stockade") == []


def _pos(left_city, left_board, stages_left=0):
    from seven_helpers import position
    return position(3, ["Gizah A", left_board, "Babylon A"], age=2, turn=2,
                    cities=[[], left_city, []], stages=[0, stages_left, 0])


def test_discounts_by_direction():
    """W-TRADE-4: East Trading Post buys raw from the right at 1, West from the left,
    Marketplace manufactured from both; Olympia B1 raw from both."""
    from seven_helpers import position
    for card, want in (("East Trading Post", [(0, 1), (2, 0)]),
                       ("West Trading Post", [(0, 2), (1, 0)]), (None, [(0, 2), (2, 0)])):
        st = position(3, ["Gizah A", "Rhodos A", "Babylon A"], age=2, turn=2,
                      cities=[[card] if card else [], ["Lumber Yard"], ["Sawmill"]])
        assert st.payment_options(0, "Stockade") == want, card
    st = position(3, ["Olympia B", "Rhodos A", "Babylon A"], age=2,
                  cities=[[], ["Loom"], ["Stone Pit"]], stages=[1, 0, 0])
    assert st.payment_options(0, "Baths") == [(0, 1)]                 # raw at 1 from the right
    st = position(3, ["Gizah A", "Alexandria A", "Ephesos A"], age=2,
                  cities=[["Marketplace"], [], []])
    assert st.payment_options(0, "Workshop") == [(1, 0)]              # glass from the left at 1
