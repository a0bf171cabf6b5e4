"""An independent one-step reference of the rules (RULES.md), on to_dict() positions.

Written apart from the engine (it shares only the card table, which test_data.py checks
against literal tables): the cost by exhaustive search, the legal actions, the exact reveal
probabilities and the whole next position after any decision or chance outcome.
Used by test_reference_model.py.
"""
import copy, itertools

import duelcore
from duelcore import data
L = duelcore.ACTION_LAYOUT
RES = ("wood", "clay", "stone", "glass", "papyrus")
CARD = {c.name: c for c in data.CARDS}
WON = {w.name: w for w in data.WONDERS}
NAMES = data.CARD_NAMES; WN = data.WONDER_NAMES; TN = data.TOKEN_NAMES
GIVES = {c.chain_gives: c.name for c in data.CARDS if c.chain_gives}
FACE_DOWN = ('face_down', 'face_down_guild')    # an Age back, a guild back (R-CHANCE-2)

def pc(text):
    return data.parse_cost(text)

def fixed(city):
    f = [0]*5
    for n in city:
        c = CARD[n]
        if c.colour in ("brown", "grey"):
            for i, v in enumerate(pc(c.produces)[1]): f[i] += v
    return f

def cost(d, p, res, disc):
    me = d['players'][p]; op = d['players'][1-p]
    f = fixed(me['city']); of = fixed(op['city'])
    one = set()
    for n in me['city']:
        one |= set(CARD[n].trade_one)
    price = [1 if RES[i] in one else 2 + of[i] for i in range(5)]
    choices = [CARD[n].choice for n in me['city'] if CARD[n].choice]
    choices += [WON[w['name']].choice for w in me['wonders'] if w['built'] and WON[w['name']].choice]
    need0 = [max(0, res[i] - f[i]) for i in range(5)]
    best = None
    for pick in itertools.product(*[tuple(ch) + (None,) for ch in choices]):
        need = list(need0)
        for r in pick:
            if r is not None and need[RES.index(r)] > 0:
                need[RES.index(r)] -= 1
        # discount: any up to disc units
        units = sorted([price[i] for i in range(5) for _ in range(need[i])], reverse=True)
        tot = sum(units[disc:])
        if best is None or tot < best: best = tot
    return best

def is_chain(d, p, name):
    c = CARD[name]
    return bool(c.chain_from) and GIVES[c.chain_from] in d['players'][p]['city']

def card_cost(d, p, name):
    if is_chain(d, p, name): return 0, 0
    c = CARD[name]; coins, res = pc(c.cost)
    disc = 2 if (c.colour == 'blue' and 'Masonry' in d['players'][p]['progress_tokens']) else 0
    t = cost(d, p, res, disc)
    return coins + t, t

def wonder_cost(d, p, w):
    disc = 2 if 'Architecture' in d['players'][p]['progress_tokens'] else 0
    t = cost(d, p, pc(WON[w].cost)[1], disc)
    return t, t

def layout_def(age): return data.LAYOUTS[age-1]

def available(d):
    lay = d['layout']; ld = layout_def(d['age'])
    out = []
    for s, x in enumerate(lay):
        if x is None or x in FACE_DOWN: continue
        if all(lay[u] is None for u in ld.covered_by[s]): out.append(x)
    return out

def n_built(d): return sum(w['built'] for p in d['players'] for w in p['wonders'])

def legal(d):
    ph = d['phase']; p = d['to_move']; me = d['players'][p]
    out = set()
    if ph == 'play':
        av = available(d)
        for n in av:
            if card_cost(d, p, n)[0] <= me['coins']: out.add(L['BUILD_BASE'] + NAMES.index(n))
            out.add(L['DISCARD_BASE'] + NAMES.index(n))
            if n_built(d) < 7:
                for w in me['wonders']:
                    if not w['built'] and wonder_cost(d, p, w['name'])[0] <= me['coins']:
                        out.add(L['WONDER_BASE'] + 73*WN.index(w['name']) + NAMES.index(n))
    elif ph == 'choose_token':
        out = {L['TOKEN_BASE'] + TN.index(t) for t in d['board_tokens']}
    elif ph == 'library':
        out = {L['TOKEN_BASE'] + TN.index(t) for t in d['library_offer']}
    elif ph == 'destroy':
        col = d['destroy_colour']
        out = {L['DESTROY_BASE'] + NAMES.index(n) for n in d['players'][1-p]['city'] if CARD[n].colour == col}
    elif ph == 'revive':
        out = {L['REVIVE_BASE'] + NAMES.index(n) for n in d['discard_pile']}
    elif ph == 'choose_start':
        out = {L['START_BASE'], L['START_BASE'] + 1}
    elif ph == 'draft':
        out = {WN.index(w) for w in d['draft']['offer']}
    return out

def symbols(pl):
    s = {}
    for n in pl['city']:
        if CARD[n].symbol: s[CARD[n].symbol] = s.get(CARD[n].symbol, 0) + 1
    if 'Law' in pl['progress_tokens']: s['law'] = 1
    return s

def colour_count(pl, col): return sum(1 for n in pl['city'] if CARD[n].colour == col)

def guild_units(d, g):
    def f(pl):
        if g == 'brown_grey': return colour_count(pl, 'brown') + colour_count(pl, 'grey')
        if g == 'wonder': return sum(w['built'] for w in pl['wonders'])
        if g == 'coins': return pl['coins'] // 3
        return colour_count(pl, g)
    return max(f(d['players'][0]), f(d['players'][1]))

class Over(Exception): pass

def win(d, p, how):
    d['winner'] = p; d['victory'] = how; d['phase'] = 'over'
    raise Over

def push(d, p, n):
    q = 1 - p
    dist = (d['pawn'] if p == 0 else -d['pawn']) + n
    dist = min(dist, 9)
    d['pawn'] = dist if p == 0 else -dist
    # R-MIL-2: the pawn passes the zones one space at a time, so their tokens are looted
    # before it reaches the capital (R-MIL-3)
    for zone, v in ((3, 2), (6, 5)):
        if dist >= zone and v in d['military_tokens'][q]:
            d['military_tokens'][q].remove(v)
            d['players'][q]['coins'] -= min(v, d['players'][q]['coins'])
    if dist >= 9: win(d, p, 'military')

def enter_city(d, p, name, pend):
    me = d['players'][p]; c = CARD[name]
    me['city'].append(name)
    coins = c.coins
    if c.coins_per:
        what, k = c.coins_per
        n = sum(w['built'] for w in me['wonders']) if what == 'wonder' else colour_count(me, what)
        coins += k * n
    if c.guild and c.guild not in ('wonder', 'coins'):
        coins += guild_units(d, c.guild)
    me['coins'] += coins
    if c.shields:
        push(d, p, c.shields + (1 if 'Strategy' in me['progress_tokens'] else 0))
    if c.symbol:
        after = symbols(me)
        if len(after) >= 6: win(d, p, 'scientific')
        if after[c.symbol] == 2: pend.append('token')

def take_token(d, p, t):
    me = d['players'][p]
    me['progress_tokens'].append(t)
    if t in ('Agriculture', 'Urbanism'): me['coins'] += 6
    if t == 'Law' and len(symbols(me)) >= 6: win(d, p, 'scientific')

def newly_uncovered(d, slot):
    ld = layout_def(d['age']); lay = d['layout']
    out = []
    for u in range(20):
        if slot in ld.covered_by[u] and lay[u] in FACE_DOWN and all(lay[v] is None for v in ld.covered_by[u]):
            out.append(u)
    return out

def take(d, name):
    slot = d['layout'].index(name)
    d['layout'][slot] = None
    d['reveal_queue'] = sorted(set(d['reveal_queue']) | set(newly_uncovered(d, slot)))
    d['last_taker'] = d['to_move']

def flow(d, pend):
    """Resolve pending choices, then the reveal, then next turn."""
    p = d['to_move']; q = 1 - p
    d['pending'] = []
    while pend:
        x = pend.pop(0)
        if x in ('destroy_brown', 'destroy_grey'):
            col = x.split('_')[1]
            d['destroy_colour'] = col
            if colour_count(d['players'][q], col):
                d['phase'] = 'destroy'; d['pending'] = pend; return
        elif x == 'revive':
            if d['discard_pile']:
                d['phase'] = 'revive'; d['pending'] = pend; return
        elif x == 'library':
            if d['aside_tokens']:
                d['phase'] = 'library_draw'; d['pending'] = pend; return
        elif x == 'token':
            if d['board_tokens']:
                d['phase'] = 'choose_token'; d['pending'] = pend; return
    if d['reveal_queue']:
        d['phase'] = 'reveal'; d['dealing'] = 0; return
    next_turn(d)

def next_turn(d):
    if all(x is None for x in d['layout']):
        d['replay'] = False
        if d['age'] == 3:
            finish(d); return
        if d['pawn'] > 0: d['chooser'] = 1
        elif d['pawn'] < 0: d['chooser'] = 0
        else: d['chooser'] = d['last_taker']
        d['age'] += 1
        ld = layout_def(d['age'])
        d['layout'] = ['face_down'] * 20
        d['reveal_queue'] = [s for s in range(20) if s not in ld.face_down]
        centred_begins = d['options']['centred_pawn'] == 'begins'
        d['dealing'] = 2 if (d['pawn'] == 0 and centred_begins) else 1
        d['guild_slots'] = []
        d['phase'] = 'guilds' if d['age'] == 3 else 'reveal'   # R-CHANCE-2
        return
    if not d['replay']:
        d['to_move'] ^= 1
    d['replay'] = False
    d['phase'] = 'play'

def vp(d):
    out = []
    for p in range(2):
        pl = d['players'][p]; v = {}
        v['blue'] = sum(CARD[n].vp for n in pl['city'] if CARD[n].colour == 'blue')
        v['green'] = sum(CARD[n].vp for n in pl['city'] if CARD[n].colour == 'green')
        v['yellow'] = sum(CARD[n].vp for n in pl['city'] if CARD[n].colour == 'yellow')
        v['purple'] = sum((2 if CARD[n].guild == 'wonder' else 1) * guild_units(d, CARD[n].guild)
                          for n in pl['city'] if CARD[n].colour == 'purple')
        v['wonders'] = sum(WON[w['name']].vp for w in pl['wonders'] if w['built'])
        t = pl['progress_tokens']
        v['tokens'] = 4*('Agriculture' in t) + 7*('Philosophy' in t) + (3*len(t) if 'Mathematics' in t else 0)
        v['coins'] = pl['coins'] // 3
        dist = d['pawn'] if p == 0 else -d['pawn']
        v['military'] = 10 if dist >= 6 else 5 if dist >= 3 else 2 if dist >= 1 else 0
        out.append(v)
    return out

def finish(d):
    v = vp(d)
    t = [sum(x.values()) for x in v]
    d['phase'] = 'over'
    if t[0] != t[1]:
        d['winner'] = 0 if t[0] > t[1] else 1; d['victory'] = 'civilian'
    elif v[0]['blue'] != v[1]['blue']:
        d['winner'] = 0 if v[0]['blue'] > v[1]['blue'] else 1; d['victory'] = 'civilian'
    else:
        d['winner'] = None; d['victory'] = 'shared'

def pay(d, p, total, trade):
    d['players'][p]['coins'] -= total
    if 'Economy' in d['players'][1-p]['progress_tokens']:
        d['players'][1-p]['coins'] += trade

def step(d0, a):
    d = copy.deepcopy(d0)
    try:
        _step(d, a)
    except Over:
        pass
    return d

def _step(d, a):
    p = d['to_move']; q = 1 - p; me = d['players'][p]
    ph = d['phase']
    if ph == 'play':
        pend = []
        if a < L['DISCARD_BASE']:
            n = NAMES[a - L['BUILD_BASE']]
            take(d, n)
            if is_chain(d, p, n):
                if 'Urbanism' in me['progress_tokens']: me['coins'] += 4
            else:
                pay(d, p, *card_cost(d, p, n))
            enter_city(d, p, n, pend)
        elif a < L['WONDER_BASE']:
            n = NAMES[a - L['DISCARD_BASE']]
            take(d, n)
            d['discard_pile'].append(n)
            me['coins'] += 2 + colour_count(me, 'yellow')
        else:
            w, c = divmod(a - L['WONDER_BASE'], 73)
            wn = WN[w]; n = NAMES[c]; W = WON[wn]
            take(d, n)
            pay(d, p, *wonder_cost(d, p, wn))
            for x in me['wonders']:
                if x['name'] == wn: x['built'] = True; x['card'] = n
            d['replay'] = bool(W.play_again or 'Theology' in me['progress_tokens'])
            if n_built(d) == 7:
                for pl in d['players']:
                    pl['wonders'] = [x for x in pl['wonders'] if x['built']]
            me['coins'] += W.coins
            d['players'][q]['coins'] -= min(W.opponent_loses, d['players'][q]['coins'])
            if W.shields: push(d, p, W.shields)
            if W.action: pend.append(W.action)
        flow(d, pend)
    elif ph == 'choose_token':
        t = TN[a - L['TOKEN_BASE']]
        d['board_tokens'].remove(t)
        take_token(d, p, t)
        flow(d, d['pending'])
    elif ph == 'library':
        t = TN[a - L['TOKEN_BASE']]
        for x in d['library_offer']: d['aside_tokens'].remove(x)
        d['library_offer'] = []
        take_token(d, p, t)
        flow(d, d['pending'])
    elif ph == 'destroy':
        n = NAMES[a - L['DESTROY_BASE']]
        d['players'][q]['city'].remove(n)
        d['discard_pile'].append(n)
        flow(d, d['pending'])
    elif ph == 'revive':
        n = NAMES[a - L['REVIVE_BASE']]
        d['discard_pile'].remove(n)
        pend = list(d['pending'])
        enter_city(d, p, n, pend)
        flow(d, pend)
    elif ph == 'choose_start':
        d['to_move'] = a - L['START_BASE']
        d['phase'] = 'play'
    elif ph == 'guilds':
        slot = a - L['CHANCE_SLOT_BASE']
        d['guild_slots'] = sorted(d['guild_slots'] + [slot])
        d['layout'][slot] = 'face_down_guild'
        if len(d['guild_slots']) == 3:
            d['phase'] = 'reveal'
    elif ph == 'reveal':
        n = NAMES[a - L['CHANCE_CARD_BASE']]
        slot = d['reveal_queue'].pop(0)
        d['layout'][slot] = n
        if not d['reveal_queue']:
            dl = d['dealing']; d['dealing'] = 0
            if dl == 1: d['to_move'] = d['chooser']; d['phase'] = 'choose_start'
            elif dl == 2: d['to_move'] = d['chooser']; d['phase'] = 'play'
            else: next_turn(d)
    elif ph == 'library_draw':
        t = TN[a - L['CHANCE_TOKEN_BASE']]
        d['library_offer'].append(t)
        if len(d['library_offer']) == min(3, len(d['aside_tokens'])):
            d['phase'] = 'library'
    else:
        raise NotImplementedError(ph)

def chance_probs(d):
    """Expected chance distribution: the guild backs placed uniformly over the free slots, a
    revealed slot drawn uniformly from the unseen guilds (guild back) or the unseen cards of
    the Age (any other back) (R-CHANCE-1, R-CHANCE-2)."""
    if d['phase'] == 'guilds':
        free = [s for s in range(20) if s not in d['guild_slots']]
        return {s: 1 / len(free) for s in free}
    if d['phase'] != 'reveal': return None
    age = d['age']
    lay = d['layout']
    seen = set(x for x in lay if x and x not in FACE_DOWN) | set(d['discard_pile'])
    for pl in d['players']:
        seen |= set(pl['city']); seen |= {w['card'] for w in pl['wonders'] if w['card']}
    if d['reveal_queue'][0] in d['guild_slots']:
        pool = [NAMES[i] for i in range(66, 73) if NAMES[i] not in seen]
    else:
        lo, hi = data.AGE_CARD_RANGES[age-1]
        pool = [NAMES[i] for i in range(lo, hi) if NAMES[i] not in seen]
    return {n: 1 / len(pool) for n in pool}
