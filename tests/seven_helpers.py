"""Helpers for the 7 Wonders tests: positions written in the game's words.

``position(...)`` builds a legal mid-game position (state_from_dict checks every invariant):
boards per seat, cities by card name, hands by card name (filled up to the turn's hand size
with other cards of the game), a discard pile, coins, stages, military tokens.
"""
from duelcore import seven as sv
from duelcore import seven_data as D

GUILD_NAMES = [g.name for g in D.GUILDS]


def pid_name(pid):
    return D.NAMES[D.PHYSICAL[pid][0]]


def position(players, boards, *, age=1, turn=1, phase="turn", cities=None, hands=None,
             discard=(), coins=None, stages=None, military=None, defeats=None, guilds=None,
             olympia_free=None, all_pairs=False):
    seats = 3 if players == 2 else players
    n = 3 if players == 2 else players
    st = sv.new_state(players, seed=0, boards=boards, explicit_chance=True)
    d = st.to_dict()
    if guilds is None:
        guilds = GUILD_NAMES[: (5 if players == 2 else players + 2)]
    uni = [p for p, (nm, a, m) in enumerate(D.PHYSICAL) if nm < 65 and a <= age and m <= n]
    if age == 3:
        uni += [p for p, (nm, a, m) in enumerate(D.PHYSICAL) if D.NAMES[nm] in guilds]
    free = sorted(uni, key=lambda p: (-D.PHYSICAL[p][1], p))     # current Age first

    def take(name):
        for p in free:
            if pid_name(p) == name:
                free.remove(p)
                return p
        raise AssertionError(f"no free copy of {name} at {players} players, Age {age}")

    cities = cities or [[] for _ in range(seats)]
    built = []
    for i in range(seats):
        for name in cities[i]:
            built.append(take(name))
    hands = hands or [[] for _ in range(players)]
    hand_ids = [[take(name) for name in hands[i]] for i in range(players)]
    disc = [take(name) for name in discard]
    for i in range(players):
        ids = hand_ids[i]
        if phase == "turn":
            size = 8 - turn
            if players == 2 and sv_controller(age, turn) == i:
                size += 1
            while len(ids) < size:
                ids.append(free.pop(0))
    for i, c in enumerate(d["cities"]):
        c["board"], _, c["side"] = boards[i].partition(" ")
        c["city"] = list(cities[i])
        c["hand"] = hand_ids[i] if i < players else []
        c["coins"] = 3 if coins is None else coins[i]
        c["stages"] = 0 if stages is None else stages[i]
        c["military_vp"] = 0 if military is None else military[i]
        c["defeats"] = 0 if defeats is None else defeats[i]
        c["olympia_free"] = bool(olympia_free and olympia_free[i])
        c["facedown"] = []
    d.update(phase=phase, age=age, turn=turn, deck=[], discard=sorted(disc), tucked=sorted(free),
             built=sorted(built), commit=[-1] * seats, commit_card=[None] * seats,
             guilds=sorted(guilds, key=GUILD_NAMES.index), setup_pos=0,
             deal_pos=7 * players, hali_seat=None, seventh_seat=None, seventh_card=None,
             seen=[[[] for _ in range(players)] for _ in range(players)])
    d["options"] = {"explicit_chance": True, "all_pairs": all_pairs}
    if players == 2 and phase == "turn":
        # the Free City's pile: the rest of the Age's cards not placed (7 - turn + 1 - ... )
        pile_size = 7 - turn
        pile = [p for p in d["tucked"] if D.PHYSICAL[p][1] == age and D.PHYSICAL[p][0] < 65][:pile_size]
        d["deck"] = pile
        d["tucked"] = [p for p in d["tucked"] if p not in pile]
    return sv.state_from_dict(d)


def sv_controller(age, turn):
    """Free City controller (W-FREE-7): P1 (seat 0) on odd turns of Ages I and III."""
    odd = turn % 2 == 1
    return 0 if odd == (age != 2) else 1


def act(use, name, left=0, right=0):
    return sv.encode_turn_action(use, name, left, right)


def commit_all(state, actions, default="discard"):
    """Commit ``actions`` (seat -> action id) and discard for every other pending seat."""
    for seat in state.pending_seats():
        if seat in actions:
            state.apply_action(actions[seat], seat)
        else:
            hand = state.hand(seat)
            legal = state.legal_actions(seat)
            for a in legal:
                if sv.decode_turn_action(a)[0] == default:
                    state.apply_action(a, seat)
                    break
            else:
                state.apply_action(legal[0], seat)
    return state


def options(state, seat, use, name):
    """Payment pairs of the legal actions of ``seat`` with that use and card."""
    out = []
    for a in state.legal_actions(seat):
        if a < sv.NUM_TURN_ACTIONS:
            u, n, l, r = sv.decode_turn_action(a)
            if u == use and n == name:
                out.append((l, r))
    return out
