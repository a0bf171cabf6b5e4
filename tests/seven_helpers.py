"""Helpers for the 7 Wonders tests: positions written in the game's words.

``position(...)`` builds a mid-game position the rules can reach (with the scenario builder,
:func:`duelpy.seven.scenario`; state_from_dict checks every invariant and position check):
boards per seat, cities by card name, hands by card name (filled up to the turn's hand size
with other cards of the Age), a discard pile, coins, stages, military tokens.
"""
from duelcore import seven as sv
from duelcore import seven_data as D
from duelpy.seven import scenario

GUILD_NAMES = [g.name for g in D.GUILDS]


def pid_name(pid):
    return D.NAMES[D.PHYSICAL[pid][0]]


def position(players, boards, *, age=1, turn=1, phase="turn", cities=None, hands=None,
             discard=(), coins=None, stages=None, military=None, defeats=None, guilds=None,
             olympia_free=None, all_pairs=False):
    """A position at the start of ``turn`` of ``age`` (or the end of the game), built by the
    scenario builder (duelpy.seven.scenario, issue 30): what is not given is dealt
    consistently from seed 0, so the position is one the rules can reach (every card of the
    earlier Ages, and of this Age already played, built, under a stage or discarded)."""
    seats = 3 if players == 2 else players
    # no military tokens unless given (a position the checks accept whatever the shields)
    mil = [((military or [0] * seats)[i], (defeats or [0] * seats)[i]) for i in range(seats)]
    # Olympia A's free build: unused only where given (as it was spent this Age)
    free = [bool(olympia_free and olympia_free[i]) for i in range(seats)]
    return scenario(players, 0, age=age, turn=turn, phase=phase, boards=boards,
                    cities=cities, hands=hands, discard=discard, coins=coins, stages=stages,
                    military=mil, guilds=guilds, olympia_free=free,
                    explicit_chance=True, all_pairs=all_pairs)


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
