# The checks of the 7 Wonders core (included by engine.pyx).
#
# Two layers, one table (STATE_CHECKS, below, gives every code its field and its reason with the
# rule id):
#   codes 1..9   sv_state_check: the invariants of every state the engine makes, the
#                determinized states of the MCTS included; run after every action in the debug
#                build (a broken one aborts with its code) and by state_from_dict.
#   codes 10..   sv_position_check (issue 30): a position written as data is one the rules can
#                reach, and its node has something to choose or draw.  Run by state_from_dict
#                after the invariants, and by State.check_message(); every state of a game
#                passes them (tests/test_seven_positions.py), but not every determinized state
#                of the MCTS (it redeals hands without updating what the other players remember
#                of them), which is why they are a layer of their own.

cdef int sv_state_check(const SevenState* s) noexcept nogil:
    """0 if the state is consistent, else a code: 1 coins < 0; 2 a derived field is stale;
    3 a card in two places; 4 a card missing or out of the game; 5 cities and built cards
    disagree; 6 a wrong hand size; 7 a field out of its range; 9 a study's removed cards and
    their spare copies disagree (see sv_deal_spares).  STATE_CHECKS names each one."""
    cdef int where
    return state_check_at(s, &where)

cdef bint fields_in_range(const SevenState* s) noexcept nogil:
    """Every field that indexes a table or a bitset is within its range (engine.pxd), so that
    no check reads out of bounds."""
    cdef int i
    if s.n_players < 2 or s.n_players > 7 or s.n_seats != (3 if s.n_players == 2 else s.n_players):
        return False
    if s.phase > SP_OVER or s.age > 3 or s.turn > 6 or s.options > (SO_EXPLICIT_CHANCE | SO_ALL_PAIRS):
        return False
    if s.deal_pos > 7 * s.n_players or s.setup_pos > 9 or s.guilds >> SV_NUM_GUILDS:
        return False
    if s.hali_seat != 255 and s.hali_seat >= s.n_seats:
        return False
    if s.seventh_seat != 255 and s.seventh_seat >= s.n_seats:
        return False
    if s.seventh_card != SV_NO_CARD and s.seventh_card >= SV_NUM_PHYS:
        return False
    if (s.deck[2] | s.discard[2] | s.tucked[2] | s.built[2] | s.excluded[2] | s.added[2]) >> 20:
        return False
    if s.boards_used >> SV_NUM_BOARDS:
        return False
    for i in range(SV_MAX_SEATS):
        if s.c[i].hand[2] >> 20 or s.c[i].facedown[2] >> 20 or s.c[i].city[1] >> 11:
            return False
        if s.c[i].board >= SV_NUM_BOARDS or s.c[i].side > 1:
            return False
        if s.c[i].stages > N_STAGES[s.c[i].board][s.c[i].side]:
            return False
        if s.commit[i] < -1 or s.commit[i] >= SV_NUM_TURN_ACTIONS:
            return False
        if s.commit_card[i] != SV_NO_CARD and s.commit_card[i] >= SV_NUM_PHYS:
            return False
        if (s.forced_board[i] != 255 and s.forced_board[i] >= SV_NUM_BOARDS) or \
                (s.forced_side[i] != 255 and s.forced_side[i] > 1):
            return False
    return True

cdef int state_check_at(const SevenState* s, int* where) noexcept nogil:
    """sv_state_check, and in ``where`` the seat the broken check concerns (-1: none)."""
    cdef SevenCity tmp
    cdef u64 all_[3]
    cdef u64 uni[3]
    cdef u64 agek[3]
    cdef u64 base[3]
    cdef u64 x
    cdef int i, w, k, n = 3 if s.n_players == 2 else s.n_players, a, names_total = 0, exp
    where[0] = -1
    if not fields_in_range(s):
        return 7
    for i in range(s.n_seats):
        where[0] = i
        if s.c[i].coins < 0:
            return 1
        if s.age > 0 or s.phase >= SP_GUILD:
            recompute_city(&s.c[i], &tmp)
            if memcmp(&tmp, &s.c[i], sizeof(SevenCity)) != 0:
                return 2
        names_total += popcount(s.c[i].city[0]) + popcount(s.c[i].city[1])
    where[0] = -1
    # each card of the game in exactly one place
    for w in range(3):
        all_[w] = 0
        uni[w] = 0
    for w in range(3):
        x = s.deck[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        x = s.discard[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        x = s.tucked[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        x = s.built[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        for i in range(s.n_players):
            x = s.c[i].hand[w]
            if x & all_[w]:
                where[0] = i
                return 3
            all_[w] |= x
    for a in range(1, s.age + 1):
        sv_age_deck(s, a, agek)
        for w in range(3):
            uni[w] |= agek[w]
    if s.age == 3:
        for k in range(SV_NUM_GUILDS):
            if (s.guilds >> k) & 1:
                bit_add(uni, GUILD_PHYS[k])
    for w in range(3):
        if all_[w] != uni[w]:
            return 4
    if b3_count(s.built) != names_total:
        return 5
    for w in range(3):
        x = s.built[w]
        while x:
            k = PH_NAME[64 * w + ctz(x)]
            x &= x - 1
            for i in range(s.n_seats):
                if has_name(&s.c[i], k):
                    break
            else:
                return 5
    if s.phase == SP_TURN:
        for i in range(s.n_players):
            where[0] = i
            exp = 8 - s.turn
            if s.n_players == 2 and i == controller(s):
                exp += 1
            if b3_count(s.c[i].hand) != exp:
                return 6
    where[0] = -1
    # a study's removed cards (code 9): never drawn, dealt or placed; as many spare copies of
    # each Age, none of them in the player count's deck
    for k in range(SV_NUM_GUILDS):
        if (s.guilds >> k) & 1 and guild_out(s, k):
            return 9
    for a in range(1, 4):
        for w in range(3):
            base[w] = AGE_PHYS[a][n][w] & s.excluded[w]
            agek[w] = s.added[w] & AGE_PHYS[a][7][w]
            if agek[w] & (AGE_PHYS[a][n][w] | s.excluded[w]):
                return 9
        if b3_count(base) != b3_count(agek):
            return 9
    for w in range(3):
        x = s.added[w]
        for a in range(1, 4):
            x &= ~AGE_PHYS[a][7][w]
        if x:
            return 9
    if s.age > 0 and popcount(s.guilds) != (5 if s.n_players == 2 else s.n_players + 2):
        return 7
    return 0

# ---------------------------------------------------------------- position checks (issue 30)
# A position is one the rules can reach from a new game (W-SETUP .. W-END), and its node has
# something to choose or draw.  The checks (code: field, rule; STATE_CHECKS has the reasons),
# made in this order except Babylon B's (38, 39), which come right after 19 so that a 7th card
# out of place is named before the hand sizes it upsets.  N players, S cities (3 in the Free
# City variant), t the turn.
#
#   set-up, Ages and turns
#   10 phase        board and guild are the set-up, exactly the phases of age 0; draw is the
#                   Free City's (W-AGE-1, W-FREE-4)
#   11 turn         0 in the set-up and while an Age is dealt, 1..6 from then on, 6 at the end
#   12 setup_pos    the seat receiving its board (board), the guilds drawn (guild), else 0
#   13 deal_pos     the cards dealt so far: < 7N while dealing, 7N once dealt (W-AGE-2)
#   14 cities[i]    the board phase: seats from setup_pos on have no board yet (W-SETUP-4)
#   15 forced_board a board or side forced on a seat (an option) is the one it has, and a
#                   forced board still to deal is free (W-SETUP-4)
#   16 guilds       none before they are drawn, setup_pos of them while drawn (W-SETUP-3)
#   17 cities[i]    nothing before Age I: 3 coins, no stage, no token (W-SETUP-5)
#   the cards of each Age (W-AGE-1/2/3, W-TURN-6, W-FREE-3/7/8)
#   18 cities[i].hand  a hand holds only cards of the current Age
#   19 deck         the deck holds only cards of the current Age, and only while they are
#                   dealt (or, with the Free City, as its pile)
#   20 cities[i].hand  the hand sizes of the phase and turn: the cards dealt so far; 8 - t at a
#                   turn (the Free City controller 9 - t, 8 - t before its draw); 7 - t after
#                   the turn resolved; none after turn 6 but Babylon B's kept card; the Free
#                   City's own seat holds none
#   21 deck         the deck's size: the cards not dealt; the Free City's pile 8 - t before the
#                   draw, 7 - t after; none otherwise
#   22 tucked       one card under each built stage (W-WON-1)
#   23 cities[i].city  a city holds no more built cards and stages than the cards it has
#                   played (6 an Age, and the extra builds of Babylon B and Halikarnassus)
#   24 cities[i].city  ... and of the current Age no more than it has played in it (one a turn,
#                   and Halikarnassus's builds)
#   25 cities[i].olympia_free  only Olympia A with stage 2 has the free build (W-WON-7)
#   military (W-MIL-1, W-MIL-2)
#   26 cities[i].military_vp  the tokens of the Ages scored: at most 2 an Age, +1/+3/+5 a
#                   victory, -1 a defeat
#   27 cities[i].military_vp  a victory needs shields
#   28 cities[i].defeats  a defeat needs a neighbour with shields
#   29 cities       every victory is a neighbour's defeat, Age by Age
#   the turn's commitments (W-TURN-1/2/3)
#   30 commit[i]    commitments only at a turn
#   31 commit_card[i]  a commitment names a card of the hand it plays from, once
#   32 commit[i]    a commitment is a legal action
#   33 commit       at least one seat has not committed: the turn has not resolved
#   Halikarnassus (W-WON-6) and Babylon B (W-WON-5)
#   34 hali_seat    set exactly in phase halikarnassus
#   35 hali_seat    that city is Halikarnassus and just built a stage with the power
#   36 discard      the pile holds a card it can take
#   37 cities[i].facedown  its decider has seen the whole pile (W-INFO-3)
#   38 seventh_seat set exactly in phase seventh, and after turn 6 while Halikarnassus picks,
#                   for the Babylon B city with stage 2
#   39 seventh_card the kept card is the one card left in that city's hand (the Free City's:
#                   the pile)
#   information (W-INFO-2, W-INFO-3, W-INFO-5)
#   40 cities[i].facedown  face-down cards a player knows are in the pile, under stages or built
#   41 seen[p]      what a player remembers: hands of this Age only, of the packets it has held
#   42 seen[p]      each card in one packet
#   43 seen[p]      at a turn, the hand it holds is the last it saw
#   44 seen[p]      another player's hand holds what p saw of that packet (and no card p saw in
#                   another packet)
#   45 seen[p]      nobody has seen a card of the deck
#   something to do
#   46 phase        every pending seat has a legal action
#   47 phase        a chance node has an outcome
cdef enum:
    PC_SETUP_PHASE = 10
    PC_TURN = 11
    PC_SETUP_POS = 12
    PC_DEAL_POS = 13
    PC_NO_BOARD_YET = 14
    PC_FORCED = 15
    PC_GUILDS = 16
    PC_SETUP_CITY = 17
    PC_HAND_AGE = 18
    PC_DECK_AGE = 19
    PC_HAND_SIZE = 20
    PC_DECK_SIZE = 21
    PC_TUCKED = 22
    PC_PLAYED = 23
    PC_PLAYED_AGE = 24
    PC_OLYMPIA = 25
    PC_TOKENS = 26
    PC_VICTORY_SHIELDS = 27
    PC_DEFEAT_SHIELDS = 28
    PC_TOKEN_BALANCE = 29
    PC_COMMIT_PHASE = 30
    PC_COMMIT_CARD = 31
    PC_COMMIT_LEGAL = 32
    PC_ALL_COMMITTED = 33
    PC_HALI_PHASE = 34
    PC_HALI_BOARD = 35
    PC_HALI_EMPTY = 36
    PC_HALI_SEEN = 37
    PC_SEVENTH = 38
    PC_SEVENTH_CARD = 39
    PC_FACEDOWN = 40
    PC_SEEN_AGE = 41
    PC_SEEN_TWICE = 42
    PC_SEEN_OWN = 43
    PC_SEEN_OTHER = 44
    PC_SEEN_DECK = 45
    PC_NO_LEGAL = 46
    PC_NO_CHANCE = 47
    PC_LAST = 47

cdef inline int packet_of(const SevenState* s, int q, int t) noexcept nogil:
    """The packet (the hand dealt to seat k) player ``q`` holds at the 0-based turn ``t`` of
    the Age: passed left in Ages I and III, right in Age II (W-AGE-3); the two Free City
    players swap hands (W-FREE-7).  As update_seen and sv_determinize count."""
    cdef int n = s.n_players
    if n == 2:
        return q if (t & 1) == 0 else 1 - q
    if s.age == 2:
        return (q + t) % n
    return (q - t % n + n) % n

cdef inline bint b3_sub(const u64* a, const u64* b) noexcept nogil:
    """a is a subset of b."""
    return not ((a[0] & ~b[0]) | (a[1] & ~b[1]) | (a[2] & ~b[2]))

cdef inline bint b3_meets(const u64* a, const u64* b) noexcept nogil:
    return ((a[0] & b[0]) | (a[1] & b[1]) | (a[2] & b[2])) != 0

cdef inline bint b3_empty(const u64* a) noexcept nogil:
    return (a[0] | a[1] | a[2]) == 0

cdef bint city_tokens_ok(int mil, int defeats, int ages) noexcept nogil:
    """Can ``ages`` scored Ages give a city these tokens: per Age at most 2 (one per
    neighbour), each +1/+3/+5 (Age I/II/III) or -1 (W-MIL-1)?"""
    cdef int w1, w2, w3, room, vp
    if defeats > 2 * ages:
        return False
    for w1 in range(3 if ages >= 1 else 1):
        for w2 in range(3 if ages >= 2 else 1):
            for w3 in range(3 if ages >= 3 else 1):
                room = 2 * ages - w1 - w2 - w3
                vp = w1 * MIL_WIN[1] + w2 * MIL_WIN[2] + w3 * MIL_WIN[3]
                if defeats <= room and vp - defeats == mil:
                    return True
    return False

cdef bint tokens_balance(int sum_gain, int defeats, int ages, int pairs) noexcept nogil:
    """Every victory is a neighbour's defeat: is there, per scored Age, a number W_a <= pairs
    of decided comparisons with sum W_a = defeats and sum W_a * (1, 3, 5)[a] = sum_gain (the
    cities' military VP plus their defeats)?"""
    cdef int a1, a2, a3
    for a1 in range(pairs + 1 if ages >= 1 else 1):
        for a2 in range(pairs + 1 if ages >= 2 else 1):
            for a3 in range(pairs + 1 if ages >= 3 else 1):
                if a1 + a2 + a3 == defeats and \
                        a1 * MIL_WIN[1] + a2 * MIL_WIN[2] + a3 * MIL_WIN[3] == sum_gain:
                    return True
    return False

cdef int sv_position_check(const SevenState* s, int* where) noexcept nogil:
    """The position checks 10..47 listed above, for a state that passes sv_state_check; 0 if
    it is a reachable position with something to choose or draw.  ``where``: the seat (or
    player) the broken check concerns, -1 for none."""
    cdef int N = s.n_players, S = s.n_seats, i, j, k, q, w, t = s.turn, ph = s.phase, n, exp
    cdef int need_g = 5 if s.n_players == 2 else s.n_players + 2, ages, lim, sum_gain = 0
    cdef int sum_def = 0, c0, c1, fc = s.n_players == 2
    cdef u64 cur[3]
    cdef u64 held[3]
    cdef u64 seen_all[3]
    cdef u64 x[3]
    cdef u64 placed[3]
    cdef u8 used = 0, pool = 0
    cdef u32 packets
    cdef bint setup = ph == SP_BOARD or ph == SP_GUILD
    cdef const SevenCity* c
    cdef SevenCity fresh
    cdef SevenState tmp
    cdef int out[SV_MAX_LEGAL]
    cdef double prob[SV_MAX_LEGAL]
    cdef int seats[SV_MAX_SEATS]
    where[0] = -1
    # ---- set-up, Ages and turns
    if setup != (s.age == 0) or (ph == SP_DRAW and not fc):
        return PC_SETUP_PHASE
    if setup or ph == SP_DEAL:
        if t != 0:
            return PC_TURN
    elif t < 1 or ((ph == SP_OVER or ph == SP_SEVENTH) and t != 6) or \
            (ph == SP_OVER and s.age != 3):
        return PC_TURN
    if ph == SP_BOARD:
        if s.setup_pos >= S:
            return PC_SETUP_POS
    elif ph == SP_GUILD:
        if s.setup_pos != popcount(s.guilds) or s.setup_pos >= need_g:
            return PC_SETUP_POS
    elif s.setup_pos != 0:
        return PC_SETUP_POS
    if ph == SP_DEAL:
        if s.deal_pos >= 7 * N:
            return PC_DEAL_POS
    elif s.deal_pos != (0 if setup else 7 * N):
        return PC_DEAL_POS
    # the boards: different ones, dealt seat by seat (W-SETUP-4)
    n = s.setup_pos if ph == SP_BOARD else S
    memset(&fresh, 0, sizeof(SevenCity))
    fresh.coins = 3
    for i in range(S):
        where[0] = i
        if i < n:
            if (used >> s.c[i].board) & 1:
                return PC_NO_BOARD_YET
            used |= 1 << s.c[i].board
        else:
            fresh.coins = s.c[i].coins          # checked below (PC_SETUP_CITY)
            if memcmp(&fresh, &s.c[i], sizeof(SevenCity)) != 0:
                return PC_NO_BOARD_YET
    where[0] = -1
    if used != s.boards_used:
        return PC_NO_BOARD_YET
    for i in range(S):
        where[0] = i
        if i >= n:
            # a board still to deal: forced boards free, and each forced once
            if s.forced_board[i] != 255:
                if ((s.boards_used | pool) >> s.forced_board[i]) & 1:
                    return PC_FORCED
                pool |= 1 << s.forced_board[i]
            continue
        if s.forced_board[i] != 255 and s.c[i].board != s.forced_board[i]:
            return PC_FORCED
        if s.forced_side[i] != 255 and s.c[i].side != s.forced_side[i]:
            return PC_FORCED
    where[0] = -1
    if ph == SP_BOARD and s.guilds:
        return PC_GUILDS
    for i in range(S):
        where[0] = i
        c = &s.c[i]
        if setup and (c.coins != 3 or c.stages or c.mil_vp or c.defeats or c.olympia_free):
            return PC_SETUP_CITY
    where[0] = -1
    # ---- the cards of each Age
    sv_age_deck(s, s.age, cur)
    if s.age == 3:
        for k in range(SV_NUM_GUILDS):
            if (s.guilds >> k) & 1:
                bit_add(cur, GUILD_PHYS[k])
    for i in range(SV_MAX_SEATS):
        where[0] = i
        if not b3_sub(s.c[i].hand, cur) or (i >= N and not b3_empty(s.c[i].hand)):
            return PC_HAND_AGE if i < N else PC_HAND_SIZE
    where[0] = -1
    if not b3_sub(s.deck, cur):
        return PC_DECK_AGE
    if not b3_empty(s.deck) and ph != SP_DEAL and not fc:
        return PC_DECK_AGE
    # ---- Babylon B's 7th card (W-WON-5)
    k = 255
    if ph == SP_SEVENTH or (ph == SP_HALI and t == 6):
        for i in range(S):
            if s.c[i].board == B_BABYLON and s.c[i].side == 1 and s.c[i].stages >= 2:
                k = i
    if s.seventh_seat != k or (ph == SP_SEVENTH and k == 255):
        return PC_SEVENTH
    if (s.seventh_card == SV_NO_CARD) != (k == 255):
        return PC_SEVENTH_CARD
    if k != 255:
        for w in range(3):
            x[w] = 0
        bit_add(x, s.seventh_card)
        if fc and k == 2:
            if s.deck[0] != x[0] or s.deck[1] != x[1] or s.deck[2] != x[2]:
                return PC_SEVENTH_CARD
        elif s.c[k].hand[0] != x[0] or s.c[k].hand[1] != x[1] or s.c[k].hand[2] != x[2]:
            return PC_SEVENTH_CARD
    k = 0
    for i in range(S):
        k += s.c[i].stages
    if b3_count(s.tucked) != k:
        return PC_TUCKED
    if not setup:
        for i in range(N):
            where[0] = i
            n = b3_count(s.c[i].hand)
            if ph == SP_DEAL:
                exp = s.deal_pos - 7 * i
                exp = 0 if exp < 0 else (7 if exp > 7 else exp)
            elif ph == SP_DRAW:
                exp = 8 - t
            elif ph == SP_TURN:
                exp = 8 - t + (1 if fc and i == controller(s) else 0)
            elif ph == SP_OVER:
                exp = 0
            elif t < 6:
                exp = 7 - t
            else:
                exp = 1 if i == s.seventh_seat else 0
            if n != exp:
                return PC_HAND_SIZE
        where[0] = -1
        n = b3_count(s.deck)
        if ph == SP_DEAL:
            exp = b3_count(cur) - s.deal_pos
        elif not fc or ph == SP_OVER:
            exp = 0
        elif ph == SP_DRAW:
            exp = 8 - t
        elif ph == SP_TURN or t < 6:
            exp = 7 - t
        else:
            exp = 1 if s.seventh_seat == 2 else 0
        if n != exp:
            return PC_DECK_SIZE
        # the cards each city has played: 6 an Age (W-TURN-5), plus Babylon B's 7th card each
        # Age (W-WON-5) and Halikarnassus's builds (W-WON-6)
        if ph == SP_DEAL:
            lim = 6 * (s.age - 1)
        elif ph == SP_DRAW or ph == SP_TURN:
            lim = 6 * (s.age - 1) + t - 1
        else:
            lim = 6 * (s.age - 1) + t
        for i in range(S):
            where[0] = i
            c = &s.c[i]
            n = lim
            if c.board == B_BABYLON and c.side == 1:
                n += s.age
            elif c.board == B_HALI:
                for k in range(c.stages):
                    if STAGES[c.board][c.side][k].flags & ST_HALI:
                        n += 1
            if popcount(c.city[0]) + popcount(c.city[1]) + c.stages > n:
                return PC_PLAYED
            # the cards of this Age (names of no other Age): one a turn of it, plus the
            # Halikarnassus builds and, once the game is over, Babylon B's last 7th card
            n = (0 if ph == SP_DEAL else (t - 1 if ph == SP_DRAW or ph == SP_TURN else t)) + \
                n - lim - (s.age if c.board == B_BABYLON and c.side == 1 else 0) + \
                (1 if ph == SP_OVER and c.board == B_BABYLON and c.side == 1 else 0)
            k = 0
            for j in range(SV_NUM_NAMES):
                if has_name(c, j) and NAME_AGES[j] == (1 << s.age):
                    k += 1
            if k > n:
                return PC_PLAYED_AGE
    for i in range(S):
        where[0] = i
        c = &s.c[i]
        j = c.board == B_OLYMPIA and c.side == 0 and c.stages >= 2
        if (c.olympia_free and not j) or (ph == SP_DEAL and j and not c.olympia_free):
            return PC_OLYMPIA
    where[0] = -1
    # ---- military: the tokens of the Ages scored (W-MIL-1, W-MIL-2)
    ages = 3 if ph == SP_OVER else (s.age - 1 if s.age > 0 else 0)
    for i in range(S):
        where[0] = i
        c = &s.c[i]
        if not city_tokens_ok(c.mil_vp, c.defeats, ages):
            return PC_TOKENS
        if c.mil_vp + c.defeats > 0 and c.shields == 0:
            return PC_VICTORY_SHIELDS
        if c.defeats and s.c[left_of(s, i)].shields == 0 and s.c[right_of(s, i)].shields == 0:
            return PC_DEFEAT_SHIELDS
        sum_gain += c.mil_vp + c.defeats
        sum_def += c.defeats
    where[0] = -1
    if not tokens_balance(sum_gain, sum_def, ages, S):
        return PC_TOKEN_BALANCE
    # ---- the turn's commitments (W-TURN-1/2/3)
    k = 0
    for i in range(S):
        where[0] = i
        if ph != SP_TURN or s.commit[i] < 0:
            if s.commit[i] >= 0 or s.commit_card[i] != SV_NO_CARD:
                return PC_COMMIT_PHASE
            continue
        k += 1
        j = s.commit_card[i]
        q = holder(s, i)
        if j == SV_NO_CARD or not bit_has(s.c[q].hand, j) or PH_NAME[j] != act_name(s.commit[i]):
            return PC_COMMIT_CARD
        if fc and i != q and s.commit[q] >= 0 and s.commit_card[q] == j:
            return PC_COMMIT_CARD
        tmp = s[0]
        tmp.commit[i] = -1
        tmp.commit_card[i] = SV_NO_CARD
        n = sv_legal_actions(&tmp, i, out)
        for j in range(n):
            if out[j] == s.commit[i]:
                break
        else:
            return PC_COMMIT_LEGAL
    where[0] = -1
    if ph == SP_TURN and k == S:
        return PC_ALL_COMMITTED
    # ---- Halikarnassus (W-WON-6)
    if (ph == SP_HALI) != (s.hali_seat != 255):
        return PC_HALI_PHASE
    if ph == SP_HALI:
        i = s.hali_seat
        where[0] = i
        c = &s.c[i]
        if c.board != B_HALI or c.stages == 0 or \
                not (STAGES[c.board][c.side][c.stages - 1].flags & ST_HALI):
            return PC_HALI_BOARD
        where[0] = -1
        for w in range(3):
            x[w] = s.discard[w]
        n = 0
        for j in range(SV_NUM_PHYS):
            if bit_has(x, j) and not has_name(c, PH_NAME[j]):
                n = 1
                break
        if not n:
            return PC_HALI_EMPTY
        q = sv_decider(s, i)
        where[0] = q
        if not b3_sub(s.discard, s.c[q].facedown):
            return PC_HALI_SEEN
        where[0] = -1
    # ---- information (W-INFO)
    for w in range(3):
        placed[w] = s.discard[w] | s.tucked[w] | s.built[w]
    for i in range(SV_MAX_SEATS):
        where[0] = i
        if not b3_sub(s.c[i].facedown, placed) or (i >= N and not b3_empty(s.c[i].facedown)):
            return PC_FACEDOWN
    # what each player remembers of the hands of this Age (W-INFO-2): the packets it has held,
    # one a turn from turn 1 (none yet while dealt; the Free City's draw comes first)
    k = 0 if setup or ph == SP_DEAL else (t - 1 if ph == SP_DRAW else t)
    for i in range(N):
        where[0] = i
        packets = 0
        for j in range(k):
            packets |= 1 << packet_of(s, i, j)
        for w in range(3):
            seen_all[w] = 0
        for q in range(SV_MAX_SEATS):
            if q >= N or not (packets >> q) & 1:
                if not b3_empty(s.seen[i][q]):
                    return PC_SEEN_AGE
                continue
            if not b3_sub(s.seen[i][q], cur):
                return PC_SEEN_AGE
            if b3_meets(s.seen[i][q], seen_all):
                return PC_SEEN_TWICE
            for w in range(3):
                seen_all[w] |= s.seen[i][q][w]
        if ph == SP_TURN:
            q = packet_of(s, i, t - 1)
            if s.seen[i][q][0] != s.c[i].hand[0] or s.seen[i][q][1] != s.c[i].hand[1] or \
                    s.seen[i][q][2] != s.c[i].hand[2]:
                return PC_SEEN_OWN
        if not setup and ph != SP_DEAL and ph != SP_OVER:
            for q in range(N):
                if q == i:
                    continue
                j = packet_of(s, q, t - 1)
                for w in range(3):
                    x[w] = s.c[q].hand[w] & seen_all[w]
                if not b3_sub(x, s.seen[i][j]):
                    return PC_SEEN_OTHER
                # without the Free City's draws a packet only loses cards once seen
                if not fc and (packets >> j) & 1 and not b3_sub(s.c[q].hand, s.seen[i][j]):
                    return PC_SEEN_OTHER
        if b3_meets(s.deck, seen_all):
            return PC_SEEN_DECK
    where[0] = -1
    # ---- something to choose or draw
    if sv_is_chance(s):
        if sv_chance_outcomes(s, out, prob) <= 0:
            return PC_NO_CHANCE
    elif ph != SP_OVER:
        n = sv_pending(s, seats)
        if n <= 0:
            return PC_NO_LEGAL
        for k in range(n):
            where[0] = seats[k]
            if sv_legal_actions(s, seats[k], out) <= 0:
                return PC_NO_LEGAL
    where[0] = -1
    return 0


#: Every check of state_check and of the position checks: code -> (field, reason).  The field
#: names the key of State.to_dict() the check concerns ("{i}": the seat or player); the reason
#: says what the rules require, with the rule id (W-...).  Codes 1..9 hold in every state the
#: engine makes; 10..47 are the position checks (listed with sv_position_check).
STATE_CHECKS = {
    1: ("cities[{i}].coins", "a city has negative coins (W-SETUP-5: coins are non-negative)"),
    2: ("cities[{i}]", "a city's derived values (production, colours, science, shields, "
                       "powers) do not match its cards, board, side and stages (W-PROD-1, "
                       "W-WON-3)"),
    3: ("position", "a card is in two places (deck, discard, tucked, built, hands) (W-SETUP-2)"),
    4: ("position", "the cards in play are not exactly the cards of the Ages so far: every card "
                    "of the Ages dealt (and, from Age III, the guilds drawn) is in the deck, a "
                    "hand, the discard pile, a city or under a stage, and no other card is "
                    "(W-SETUP-2, W-SETUP-3, W-AGE-2)"),
    5: ("built", "the built cards and the cities' cards disagree (W-BUILD-3)"),
    6: ("cities[{i}].hand", "a hand does not hold the turn's number of cards (W-AGE-3, "
                            "W-FREE-7)"),
    7: ("position", "a field is outside its range, or the guilds drawn are not N + 2 once Age I "
                    "begins (W-SETUP-1, W-SETUP-3)"),
    8: ("cities[{i}].city", "a name twice in a city (W-BUILD-3)"),
    9: ("removed", "a study's removed cards and the spare copies dealt in their place disagree "
                   "(each removed copy replaced by a spare copy of its Age, W-AGE-2)"),
    # set-up, Ages and turns
    PC_SETUP_PHASE: ("phase", "phase '{phase}' at age {age}: the set-up (board, guild) is "
                     "exactly age 0, every other phase belongs to an Age 1..3, and 'draw' is "
                     "the Free City's (W-AGE-1, W-SETUP, W-FREE-4)"),
    PC_TURN: ("turn", "turn {turn} in phase '{phase}' of age {age}: 0 in the set-up and while "
              "an Age is dealt, 1..6 from then on, and the game ends after turn 6 of Age III "
              "(W-AGE-1, W-TURN-5)"),
    PC_SETUP_POS: ("setup_pos", "{setup_pos} in phase '{phase}': the seat receiving its board "
                   "(0..{last_seat}) in 'board', the {guilds_drawn} guilds drawn (fewer than "
                   "{need_g}) in 'guild', else 0 (W-SETUP-3, W-SETUP-4)"),
    PC_DEAL_POS: ("deal_pos", "{deal_pos} cards dealt in phase '{phase}': fewer than the "
                  "{deal_all} of the deal while dealing, all {deal_all} once dealt, 0 before "
                  "Age I (W-AGE-2)"),
    PC_NO_BOARD_YET: ("cities[{i}].board", "every city has its own board; in phase 'board' "
                      "only the seats before setup_pos ({setup_pos}) have one yet, the others "
                      "have nothing (board null) (W-SETUP-4)"),
    PC_FORCED: ("forced_board[{i}]", "a board or side forced on seat {i} (an option) is the "
                "one it has, and a forced board not yet dealt is still free (W-SETUP-4)"),
    PC_GUILDS: ("guilds", "{guilds_drawn} guilds drawn in phase 'board': they are drawn after "
                "the boards (W-SETUP-3)"),
    PC_SETUP_CITY: ("cities[{i}]", "before Age I every city has 3 coins, no stage, no "
                    "military token and no Olympia free build (W-SETUP-5)"),
    # the cards of each Age
    PC_HAND_AGE: ("cities[{i}].hand", "a hand holds a card of an earlier Age: every card of "
                  "an Age is played or discarded by its end (W-AGE-1, W-TURN-6)"),
    PC_DECK_AGE: ("deck", "the deck holds cards of the current Age only while they are dealt, "
                  "or as the Free City's pile; no card of an earlier Age (W-AGE-2, W-FREE-3)"),
    PC_HAND_SIZE: ("cities[{i}].hand", "{hand} cards in phase '{phase}' of turn {turn}: a hand "
                   "holds the cards dealt to it (7, dealt in seat order); 8 - t at turn t (the "
                   "Free City controller 9 - t after its draw); 7 - t once the turn has "
                   "resolved; none after turn 6 but Babylon B's kept card; the Free City's own "
                   "seat holds none (W-AGE-2, W-AGE-3, W-TURN-6, W-FREE-7, W-FREE-8)"),
    PC_DECK_SIZE: ("deck", "{deck} cards in phase '{phase}' of turn {turn}: the deck holds the "
                   "cards not yet dealt; the Free City's pile 8 - t before the draw of turn t "
                   "and 7 - t after it (its last card discarded or kept by a Free City Babylon "
                   "B after turn 6); otherwise none (W-AGE-2, W-FREE-3, W-FREE-8)"),
    PC_TUCKED: ("tucked", "{tucked} cards under the boards for {stages} stages built: each "
                "stage holds exactly the card used to build it (W-WON-1)"),
    PC_PLAYED: ("cities[{i}].city", "{city} built cards and {city_stages} stages, more than "
                "the {played} cards this city has played: one a turn, 6 an Age (W-TURN-5), "
                "plus Babylon B's 7th card (W-WON-5) and Halikarnassus's builds (W-WON-6)"),
    PC_PLAYED_AGE: ("cities[{i}].city", "{city_now} built cards of Age {age_roman}, more than "
                    "the {played_now} cards of it this city has played: one a turn of the Age "
                    "(W-AGE-3, W-TURN-5), plus Halikarnassus's builds (W-WON-6)"),
    PC_OLYMPIA: ("cities[{i}].olympia_free", "only Olympia A with stage 2 built has a free "
                 "build (W-WON-7)"),
    # military
    PC_TOKENS: ("cities[{i}].military_vp", "{mil} VP with {defeats} defeat tokens after "
                "{ages} Age(s) scored: each Age gives a city at most 2 tokens, a victory worth "
                "1, 3 or 5 VP (Age I, II, III) or a defeat worth -1 (W-MIL-1, W-MIL-2)"),
    PC_VICTORY_SHIELDS: ("cities[{i}].military_vp", "a city without shields has won a military "
                         "victory: a victory needs more shields than the neighbour, and "
                         "shields are never lost (W-MIL-1, W-MIL-2)"),
    PC_DEFEAT_SHIELDS: ("cities[{i}].defeats", "a defeat token, but neither neighbour has "
                        "shields: a defeat needs a neighbour with more shields (W-MIL-1)"),
    PC_TOKEN_BALANCE: ("cities", "the military tokens do not balance: each Age, every victory "
                       "is a neighbour's defeat (W-MIL-1)"),
    # the turn's commitments
    PC_COMMIT_PHASE: ("commit[{i}]", "commitments exist only at a turn ('turn'), each with its "
                      "card; none in phase '{phase}' (W-TURN-1, W-TURN-3)"),
    PC_COMMIT_CARD: ("commit_card[{i}]", "a commitment's card is a card of that name in the "
                     "hand the seat plays from, and the Free City and its controller commit "
                     "different cards (W-TURN-1, W-FREE-4)"),
    PC_COMMIT_LEGAL: ("commit[{i}]", "the committed action is not legal for seat {i} at the "
                      "start of this turn (W-TURN-1, W-TURN-2)"),
    PC_ALL_COMMITTED: ("commit", "every seat has committed: the turn would have resolved "
                       "(W-TURN-3)"),
    # Halikarnassus and Babylon B
    PC_HALI_PHASE: ("hali_seat", "the seat of the Halikarnassus pick is set in phase "
                    "'halikarnassus', and only then (W-WON-6)"),
    PC_HALI_BOARD: ("hali_seat", "seat {i} picks from the discard pile, but it is not "
                    "Halikarnassus with a stage that has the power just built (W-WON-6)"),
    PC_HALI_EMPTY: ("discard", "Halikarnassus picks, but the discard pile holds no card it can "
                    "build (none, or only names its city has): then nothing happens (W-WON-6)"),
    PC_HALI_SEEN: ("cities[{i}].facedown", "Halikarnassus's decider looks through the whole "
                   "discard pile: it knows every card of it (W-WON-6, W-INFO-3)"),
    PC_SEVENTH: ("seventh_seat", "Babylon B with stage 2 keeps its 7th card after turn 6 and "
                 "plays it in phase 'seventh' (after any Halikarnassus pick); no other city, "
                 "phase or turn has one (W-WON-5)"),
    PC_SEVENTH_CARD: ("seventh_card", "the 7th card is the one card left in Babylon B's hand "
                      "after turn 6 (the Free City's: its pile's last card), and it is set "
                      "exactly when a seat keeps one (W-WON-5, W-FREE-9)"),
    # information
    PC_FACEDOWN: ("cities[{i}].facedown", "the face-down cards a player knows are in the "
                  "discard pile, under a stage or built, and the Free City's own seat knows "
                  "none (its controller does) (W-INFO-3)"),
    PC_SEEN_AGE: ("seen[{i}]", "a player remembers the hands of this Age it has held, one "
                  "packet a turn in the passing order; nothing before or while the Age is "
                  "dealt, and no card of another Age (W-INFO-2, W-AGE-3)"),
    PC_SEEN_TWICE: ("seen[{i}]", "a card is remembered in two packets: a card stays in the "
                    "hand it is dealt to (W-AGE-3, W-INFO-2)"),
    PC_SEEN_OWN: ("seen[{i}]", "at a turn, the hand a player holds is the last one it saw "
                  "(W-INFO-2)"),
    PC_SEEN_OTHER: ("seen[{i}]", "a hand holds a card this player saw in another packet, or "
                    "misses a card of its own packet this player held: cards only leave a "
                    "hand once seen (W-INFO-2)"),
    PC_SEEN_DECK: ("seen[{i}]", "nobody has seen a card of the deck (the undealt cards, the "
                   "Free City's pile) (W-INFO-5, W-CHANCE-2)"),
    # something to do
    PC_NO_LEGAL: ("phase", "seat {i} has no legal action in phase '{phase}' (W-TURN-1)"),
    PC_NO_CHANCE: ("phase", "the chance node '{phase}' has nothing to draw (W-CHANCE-1)"),
}
#: code -> reason, for callers that want only the text.
STATE_CHECK_MESSAGES = {code: reason for code, (field, reason) in STATE_CHECKS.items()}


cdef list card_places(const SevenState* s):
    """[(field, set of card ids)] of every place that holds cards, in to_dict's names."""
    out = [("deck", set(_b3_list(s.deck))), ("discard", set(_b3_list(s.discard))),
           ("tucked", set(_b3_list(s.tucked))), ("built", set(_b3_list(s.built)))]
    for i in range(s.n_players):
        out.append((f"cities[{i}].hand", set(_b3_list(s.c[i].hand))))
    return out


cdef tuple card_detail(const SevenState* s, int code):
    """For the card checks (3, 4, 5) and the guild count (7): the precise field and what is
    wrong with which card, or None."""
    cdef u64 agek[3]
    def name(p):
        return f"card {p} ({_data.NAMES[PH_NAME[p]]}, Age {PH_AGE[p]})"
    places = card_places(s)
    if code == 3:
        where = {}
        for field, ids in places:
            for p in sorted(ids):
                if p in where:
                    return field, f"{name(p)} is also in {where[p]}: each card is in one place " \
                                  f"(W-SETUP-2)"
                where[p] = field
    if code == 4:
        game = set()
        for a in range(1, s.age + 1):
            sv_age_deck(s, a, agek)
            game |= set(_b3_list(agek))
        if s.age == 3:
            game |= {GUILD_PHYS[k] for k in range(SV_NUM_GUILDS) if (s.guilds >> k) & 1}
        placed = set()
        for field, ids in places:
            extra = sorted(ids - game)
            if extra:
                return field, f"{name(extra[0])} is not in play at age {s.age}: the cards in " \
                              f"play are those of the Ages dealt so far and, from Age III, " \
                              f"the guilds drawn (W-SETUP-2, W-SETUP-3, W-AGE-2)"
            placed |= ids
        missing = sorted(game - placed)
        if missing:
            return "position", f"{name(missing[0])} is nowhere: every card of the Ages dealt " \
                               f"so far is in the deck, a hand, the discard pile, a city or " \
                               f"under a stage (W-AGE-1, W-AGE-2, W-TURN-6)"
    if code == 5:
        for p in _b3_list(s.built):
            if not any(has_name(&s.c[i], PH_NAME[p]) for i in range(s.n_seats)):
                return "built", f"{name(p)} is built but in no city (W-BUILD-3)"
        for i in range(s.n_seats):
            for nm in range(SV_NUM_NAMES):
                if has_name(&s.c[i], nm) and first_of_name(s.built, nm) < 0:
                    return f"cities[{i}].city", f"{_data.NAMES[nm]} is in the city but no copy " \
                                                f"of it is in built (W-BUILD-3)"
        return "built", "the cities hold more cards than built lists: two cities share a " \
                        "copy (W-BUILD-3)"
    if code == 7 and s.age > 0 and popcount(s.guilds) != (5 if s.n_players == 2 else
                                                            s.n_players + 2):
        return "guilds", f"{popcount(s.guilds)} guilds drawn: {5 if s.n_players == 2 else s.n_players + 2} " \
                         f"are drawn before Age I at {s.n_players} players (W-SETUP-3)"
    return None


cdef tuple check_error(const SevenState* s, int code, int where):
    """(field, reason) of a broken check, with the seat and the values filled in; the reason
    ends with the check's code."""
    tag = f"state_check code {code}" if code < PC_SETUP_PHASE else f"position check {code}"
    if code in (3, 4, 5, 7):
        found = card_detail(s, code)
        if found is not None:
            return found[0], f"{found[1]} ({tag})"
    field, reason = STATE_CHECKS[code]
    i = where if 0 <= where < SV_MAX_SEATS else 0
    c = &s.c[i]
    stages = sum(s.c[k].stages for k in range(min(s.n_seats, SV_MAX_SEATS)))
    values = {
        "i": i, "phase": PHASES[s.phase] if s.phase < len(PHASES) else s.phase,
        "age": s.age, "turn": s.turn, "setup_pos": s.setup_pos, "deal_pos": s.deal_pos,
        "deal_all": 7 * s.n_players, "last_seat": s.n_seats - 1,
        "guilds_drawn": bin(s.guilds).count("1"), "need_g": 5 if s.n_players == 2 else
        s.n_players + 2, "hand": b3_count(c.hand), "deck": b3_count(s.deck),
        "tucked": b3_count(s.tucked), "stages": stages, "city": popcount(c.city[0])
        + popcount(c.city[1]), "city_stages": c.stages, "mil": c.mil_vp,
        "defeats": c.defeats, "ages": 3 if s.phase == SP_OVER else max(0, s.age - 1),
    }
    # the cards a city may have played so far (the bound of the check "played")
    if s.phase == SP_DEAL:
        played = 6 * (s.age - 1)
    elif s.phase in (SP_DRAW, SP_TURN):
        played = 6 * (s.age - 1) + s.turn - 1
    else:
        played = 6 * (s.age - 1) + s.turn
    values["played"] = max(0, played)
    values["played_now"] = max(0, played - 6 * (s.age - 1))
    values["age_roman"] = ("", "I", "II", "III")[s.age] if s.age <= 3 else s.age
    values["city_now"] = sum(1 for nm in range(SV_NUM_NAMES)
                             if has_name(c, nm) and NAME_AGES[nm] == (1 << s.age))
    if code == PC_TOKENS and c.defeats > 2 * values["ages"]:
        field = "cities[{i}].defeats"           # more defeats than the Ages scored give
    field = field.format(i=i) if where >= 0 else field.replace("[{i}]", "")
    return field, f"{reason.format(**values)} ({tag})"


cdef int full_check(const SevenState* s, int* where) noexcept nogil:
    """The invariants, then the position checks: 0, or the first broken check's code."""
    cdef int code = state_check_at(s, where)
    if code == 0:
        code = sv_position_check(s, where)
    return code
