# The checks of the Duel core (included by engine.pyx, where its invariants section was):
# state_check (the invariants of any state, codes 1..14) and the position checks of issue 14
# (position_check, codes 15..), their messages (STATE_CHECKS) and check_message.

cdef int state_check(const GameState* s) noexcept nogil:
    """Consistency of a state; 0 if sound, else the number of the first broken check (see
    STATE_CHECKS: codes 1..14 are invariants of any state, 15.. the position checks)."""
    cdef int where
    return state_check_at(s, &where)

cdef bint fields_in_range(const GameState* s) noexcept nogil:
    """Every field within its documented range (engine.pxd), so that no check indexes a table
    or a bitset out of bounds."""
    cdef int i
    if not fields_ok(s):
        return False
    if ((s.first_player | s.chooser | s.last_taker | s.replay) > 1 or s.dealing > 2
            or s.winner > WINNER_NONE or s.victory > VICTORY_SHARED or s.pend > 31
            or s.options > (OPT_CENTRED_BEGINS | OPT_EXPLICIT_CHANCE | OPT_FIRST_GAME)
            or s.mil_tokens > 15 or s.age_seen > NUM_SLOTS or s.n_built_wonders > 7):
        return False
    if ((s.tucked[1] >> CARD_BITS_HI) or ((s.p[0].tokens | s.p[1].tokens) >> NUM_TOKENS)
            or ((s.p[0].built | s.p[1].built) >> NUM_WONDERS)):
        return False
    for i in range(NUM_SLOTS):
        if s.slot_card[i] >= NUM_CARDS and s.slot_card[i] != NO_CARD:
            return False
    for i in range(NUM_WONDERS):
        if s.under[i] >= NUM_CARDS and s.under[i] != NO_CARD:
            return False
    return True

cdef int state_check_at(const GameState* s, int* where) noexcept nogil:
    """state_check, and in `where` the player or slot the broken check concerns (-1: none)."""
    cdef u64 acc[2]
    cdef u64 layout[2]
    cdef int k, slot, p, n_seen_age
    cdef PlayerState fresh
    where[0] = -1
    if not fields_in_range(s):
        return 14
    layout[0] = 0
    layout[1] = 0
    for slot in range(NUM_SLOTS):
        if s.age and not (s.taken >> slot) & 1 and not (s.face_down >> slot) & 1:
            if s.slot_card[slot] == NO_CARD:
                if not (s.reveal_queue >> slot) & 1:
                    where[0] = slot
                    return 1
            else:
                bit_add(layout, s.slot_card[slot])
    for k in range(2):
        # each seen card in exactly one place
        if (s.p[0].city[k] & s.p[1].city[k]) or (s.discard[k] & (s.p[0].city[k] | s.p[1].city[k])):
            return 2
        if s.tucked[k] & (s.p[0].city[k] | s.p[1].city[k] | s.discard[k]):
            return 2
        if layout[k] & (s.p[0].city[k] | s.p[1].city[k] | s.discard[k] | s.tucked[k]):
            return 2
        acc[k] = s.p[0].city[k] | s.p[1].city[k] | s.discard[k] | s.tucked[k] | layout[k]
        if acc[k] != s.seen[k]:
            return 3
        if s.avail[k] & ~layout[k]:
            return 4
    for p in range(2):
        where[0] = p
        if s.p[p].coins < 0:
            return 5
        recompute_player(&s.p[p], &fresh)
        if memcmp(&fresh, &s.p[p], sizeof(PlayerState)) != 0:
            return 6
        if s.p[p].built & ~s.p[p].wonders:
            return 7
    where[0] = -1
    if s.pawn < -9 or s.pawn > 9:
        return 8
    if (s.pawn == 9 or s.pawn == -9) and s.phase != PH_OVER:
        return 8
    if s.board_tokens & (s.p[0].tokens | s.p[1].tokens | s.aside_tokens):
        return 9
    if (s.p[0].tokens & s.p[1].tokens) or (s.aside_tokens & (s.p[0].tokens | s.p[1].tokens)):
        return 9
    if s.age:
        for slot in range(NUM_SLOTS):
            if (not (s.taken >> slot) & 1 and not (s.face_down >> slot) & 1
                    and s.slot_card[slot] != NO_CARD):
                if slot_free(s, slot) != bit_has(s.avail, s.slot_card[slot]):
                    return 4
        n_seen_age = NUM_SLOTS - popcount(s.face_down) - popcount(s.reveal_queue & ~s.face_down)
        if s.face_down & s.taken:
            return 10
        if n_seen_age != s.age_seen:
            return 10
    if s.n_built_wonders != s.p[0].n_built + s.p[1].n_built or s.n_built_wonders > 7:
        return 11
    if s.n_built_wonders == 7 and ((s.p[0].wonders & ~s.p[0].built) or
                                   (s.p[1].wonders & ~s.p[1].built)):
        return 12
    # guild backs (R-CHANCE-2): none before Age III, 3 once placed, and a face-up card lies in
    # a guild-back slot exactly when it is a guild
    k = popcount(s.guild_slots)
    if s.guild_slots & ~ALL_SLOTS:
        return 13
    if s.age < 3 and (k or s.phase == PH_GUILDS):
        return 13
    if s.age == 3 and (k >= 3 if s.phase == PH_GUILDS else k != 3):
        return 13
    if s.age == 3:
        for slot in range(NUM_SLOTS):
            if s.slot_card[slot] != NO_CARD and not (s.taken >> slot) & 1:
                if (s.slot_card[slot] >= FIRST_GUILD) != ((s.guild_slots >> slot) & 1):
                    return 13
        # every guild out of the layout left it from a taken guild slot
        if (popcount(s.seen[1] & ~layout[1] & GUILD_MASK[1])
                > popcount(s.guild_slots & s.taken)):
            return 13
    elif (s.seen[0] & GUILD_MASK[0]) or (s.seen[1] & GUILD_MASK[1]):
        return 13
    return position_check(s, where)

# ---------------------------------------------------------------- position checks (issue 14)
# A position is one the rules can reach from a new game, and its node has something to choose
# or draw.  The checks, in the order they are made (code: field, rule; STATE_CHECKS has the
# reasons):
#
#   set-up and Ages
#   15 age          the set-up phases (setup_first_player, setup_tokens, draft_reveal, draft)
#                   are exactly the phases of age 0 (R-SETUP) ...
#   16 phase        ... so an Age phase needs an age 1..3 (R-AGE-1)
#   17 city         no card before Age I; from then on, of each Age not yet laid out at most
#                   the 3 cards removed from its deck are out of play (R-SETUP-6; a hand-made
#                   position may use them): first the cities ...
#   18 discard      ... then the discard pile
#   19 wonders      ... then under a wonder
#   20 wonders      no wonder built before Age I (R-SETUP)
#   21 tokens       no progress token owned before Age I (R-SETUP-3)
#   22 pawn         the pawn is centred before Age I (R-SETUP-2)
#   23 military     the 4 military tokens lie on the track before Age I (R-MIL-2)
#   24 layout       no layout before Age I (R-AGE-1)
#   board tokens (R-SETUP-3)
#   25 board        a banned token is never on the board; at most 5 are banned (options)
#   26 board        none before they are drawn, < 5 while laid out, 5 during the draft
#   27 aside        none set aside before the board is laid out, the other 5 during the draft
#   the wonder draft (R-SETUP-5, R-SETUP-7)
#   28 options      no draft with the first-game wonders
#   29 picks        0 before the draft; 0 or 4 at a reveal; 0-2 or 4-6 at a pick (the last of a
#                   group is forced and made at once); 8 from Age I on
#   30 offer        4 minus the group's picks at a pick, < 4 while revealed, none otherwise
#   31 revealed     the revealed wonders are those picked and those on offer (<= 8 in an Age)
#   32 wonders      each player's wonders match the picks made (P1 1, P2 2, P1 1, P2 1, P1 2,
#                   P2 1); at most 4
#   33 to_move      the picker of this pick decides
#   34 forced       a forced wonder is the first revealed in its player's group and their first
#                   pick takes it (study treatment)
#   the layout (R-AGE-1, R-LAYOUT-1, R-TURN-2)
#   35..39 layout   a card only in a face-up slot, of the current Age; face down only where the
#                   Age deals face down; taken only once uncovered; uncovered face-down cards
#                   wait to be revealed
#   40 queue        a waiting slot is a face-down card just uncovered (or, while dealing, a
#                   face-up slot not yet dealt)
#   41 queue        cards wait only in phase reveal or a choice made before it (R-TURN-2)
#   42 queue        phase reveal has a card waiting
#   dealing a new Age, who begins (R-AGE-1/2/3, R-CHANCE-2)
#   43 dealing      only while an Age is dealt: phase reveal or guilds, nothing taken, the
#                   highest face-up slots waiting
#   44 dealing      2 (begins) at Age I and for a centred pawn under centred_pawn "begins",
#                   else 1 (chooses)
#   45 chooser      the weaker military, or the last taker for a centred pawn; P1 for Age I
#   46 phase        choose_start once an Age II/III is dealt, before any card is taken, and
#                   only when the chooser chooses
#   47 to_move      the chooser chooses
#   48 to_move      the first turn of an Age is the first player's (Age I) or the chooser's
#                   (centred pawn under "begins")
#   49 phase        guilds: Age III is being laid out, nothing dealt yet
#   choices granted by an action (R-TURN-2, R-TURN-3, R-SCI-2, R-WONDER-4/5/6)
#   50 pending      nothing is pending at rest: each choice has its own phase
#   51 replay       Play Again is never set at a turn's start, in the set-up or while dealing
#   52 library      the Great Library draw exists only while drawn (< 3) or chosen (3, or all)
#   53 aside        library_draw has a set-aside token to draw
#   54..57 phase    destroy / revive / library / choose_token follow the wonder (or the pair)
#                   of the player to move
#   58..61          the choice has something to choose: a board token, a card of the colour in
#                   the opponent's city, a card in the discard pile, a card to take
#   62, 63 phase    the player to move has a legal action; a chance node has an outcome
#   the cards of the Age (R-AGE-1, R-SETUP-6, R-CHANCE-1/2)
#   64 layout       enough unseen cards of the Age remain for its face-down slots: besides
#                   the slots taken, at most the 3 cards removed from its deck are out of play
#                   (a hand-made position may use them)
#   65 layout       enough unseen guilds remain for the guild backs (R-CHANCE-2)
#   the Conflict pawn and the end (R-MIL-2/3, R-SCI-3, R-END-2)
#   66 military     a zone the pawn has entered holds no token; the 5 goes after the 2
#   67 victory      a victory exactly when the game is over
#   68 winner       a winner exactly when over and not shared
#   69 victory      military: the pawn in the loser's capital, and only then
#   70 city         6 symbols: over, that player's scientific victory
#   71 victory      civilian or shared: Age III over, the result as R-END-2 computes it
#   72 wonders      the cards under wonders are those of built wonders (R-WONDER-1)
cdef enum:
    PC_SETUP_AGE = 15
    PC_AGE_PHASE = 16
    PC_LATER_CITY = 17
    PC_LATER_DISCARD = 18
    PC_LATER_TUCKED = 19
    PC_SETUP_BUILT = 20
    PC_SETUP_TOKENS = 21
    PC_SETUP_PAWN = 22
    PC_SETUP_MILITARY = 23
    PC_NO_LAYOUT = 24
    PC_BANNED = 25
    PC_BOARD = 26
    PC_ASIDE = 27
    PC_FIRST_GAME = 28
    PC_PICKS = 29
    PC_OFFER = 30
    PC_REVEALED = 31
    PC_DRAFTED = 32
    PC_PICKER = 33
    PC_FORCED = 34
    PC_SLOT_CARD = 35
    PC_SLOT_AGE = 36
    PC_SLOT_FACE_UP = 37
    PC_SLOT_COVERED = 38
    PC_SLOT_UNTURNED = 39
    PC_QUEUE_SLOT = 40
    PC_QUEUE_PHASE = 41
    PC_REVEAL_EMPTY = 42
    PC_DEALING = 43
    PC_DEALING_KIND = 44
    PC_CHOOSER = 45
    PC_START = 46
    PC_START_MOVER = 47
    PC_FIRST_TURN = 48
    PC_GUILDS = 49
    PC_PENDING = 50
    PC_REPLAY = 51
    PC_LIBRARY_OFFER = 52
    PC_LIBRARY_ASIDE = 53
    PC_GRANT_DESTROY = 54
    PC_GRANT_REVIVE = 55
    PC_GRANT_LIBRARY = 56
    PC_GRANT_TOKEN = 57
    PC_TOKEN_EMPTY = 58
    PC_DESTROY_EMPTY = 59
    PC_REVIVE_EMPTY = 60
    PC_PLAY_DONE = 61
    PC_NO_LEGAL = 62
    PC_NO_CHANCE = 63
    PC_POOL_AGE = 64
    PC_POOL_GUILD = 65
    PC_MILITARY_TOKENS = 66
    PC_RESULT = 67
    PC_WINNER = 68
    PC_MILITARY = 69
    PC_SCIENCE = 70
    PC_CIVILIAN = 71
    PC_TUCKED = 72

cdef inline int drafted_by_first(int k) noexcept nogil:
    """Picks among the first k of the draft made by the first player (R-SETUP-5)."""
    cdef int i, n = 0
    for i in range(k if k < 8 else 8):
        if PICK_ORDER[i] == 0:
            n += 1
    return n

cdef inline int expected_chooser(const GameState* s) noexcept nogil:
    """Who chooses (or begins) the current Age (R-AGE-3): P1 for Age I; the weaker military,
    or the last player to take a card when the pawn is centred, for Age II and III."""
    if s.age <= 1:
        return s.first_player
    if s.pawn > 0:
        return 1
    if s.pawn < 0:
        return 0
    return s.last_taker

cdef int position_check(const GameState* s, int* where) noexcept nogil:
    """The position checks 15..72 listed above (fields in range and checks 1..13 hold)."""
    cdef int p, q, k, slot, n, lim, fp = s.first_player, f, g, d, w
    cdef u64 out[2]
    cdef u64 mask[2]
    cdef int buf[MAX_LEGAL]
    cdef u32 fd = 0, faceup = 0, bit, unrevealed
    cdef u16 owned = s.p[0].wonders | s.p[1].wonders
    cdef u8 grants = 0
    cdef int ph = s.phase
    cdef bint setup = ph == PH_SETUP_FIRST or ph == PH_SETUP_TOKENS or ph == PH_DRAFT_REVEAL \
        or ph == PH_DRAFT
    cdef bint drafting = ph == PH_DRAFT_REVEAL or ph == PH_DRAFT
    cdef bint centred_begins = (s.options & OPT_CENTRED_BEGINS) != 0
    cdef GameState t
    where[0] = -1
    # ---- set-up and Ages
    if setup and s.age != 0:
        return PC_SETUP_AGE
    if not setup and s.age == 0:
        return PC_AGE_PHASE
    # cards of an Age not yet laid out: none before Age I; from then on at most the 3 removed
    # from that Age's deck (a hand-made position may use them), so that the Age can be dealt
    for k in range(3):
        if k < s.age:
            continue
        mask[0] = AGE_MASK[k][0] | (GUILD_MASK[0] if s.age == 0 else 0)
        mask[1] = AGE_MASK[k][1] | (GUILD_MASK[1] if s.age == 0 else 0)
        out[0] = (s.p[0].city[0] | s.p[1].city[0] | s.discard[0] | s.tucked[0]) & mask[0]
        out[1] = (s.p[0].city[1] | s.p[1].city[1] | s.discard[1] | s.tucked[1]) & mask[1]
        if bs_count(out) > (0 if s.age == 0 else 3):
            for p in range(2):
                where[0] = p
                if (s.p[p].city[0] & mask[0]) or (s.p[p].city[1] & mask[1]):
                    return PC_LATER_CITY
            where[0] = -1
            if (s.discard[0] & mask[0]) or (s.discard[1] & mask[1]):
                return PC_LATER_DISCARD
            for w in range(NUM_WONDERS):
                if s.under[w] != NO_CARD and bit_has(mask, s.under[w]):
                    where[0] = 0 if (s.p[0].wonders >> w) & 1 else 1
            return PC_LATER_TUCKED
    if s.age == 0:
        for p in range(2):
            where[0] = p
            if s.p[p].built:
                return PC_SETUP_BUILT
            if s.p[p].tokens:
                return PC_SETUP_TOKENS
        where[0] = -1
        if s.pawn != 0:
            return PC_SETUP_PAWN
        if s.mil_tokens != 15:
            return PC_SETUP_MILITARY
        if s.taken or s.face_down or s.reveal_queue or s.guild_slots or s.age_seen:
            return PC_NO_LAYOUT
        for slot in range(NUM_SLOTS):
            if s.slot_card[slot] != NO_CARD:
                return PC_NO_LAYOUT
    # ---- board tokens (R-SETUP-3)
    if (s.board_tokens & s.banned_tokens) or popcount(s.banned_tokens) > 5:
        return PC_BANNED
    n = popcount(s.board_tokens)
    if ((ph == PH_SETUP_FIRST and n != 0) or (ph == PH_SETUP_TOKENS and n >= 5)
            or (drafting and n != 5)):
        return PC_BOARD
    if (((ph == PH_SETUP_FIRST or ph == PH_SETUP_TOKENS) and s.aside_tokens)
            or (drafting and s.aside_tokens != (((1 << NUM_TOKENS) - 1) & ~s.board_tokens))):
        return PC_ASIDE
    # ---- the wonder draft (R-SETUP-5, R-SETUP-7)
    k = s.draft_pick
    n = popcount(s.draft_offer)
    if drafting and (s.options & OPT_FIRST_GAME):
        return PC_FIRST_GAME
    if ph == PH_SETUP_FIRST or ph == PH_SETUP_TOKENS:
        if k != 0:
            return PC_PICKS
        if n:
            return PC_OFFER
        if s.wonders_seen:
            return PC_REVEALED
        for p in range(2):
            if s.p[p].wonders:
                where[0] = p
                return PC_DRAFTED
    elif drafting:
        if ph == PH_DRAFT_REVEAL:
            if k != 0 and k != 4:
                return PC_PICKS
            if n > 3:
                return PC_OFFER
        else:
            if k == 3 or k >= 7:
                return PC_PICKS
            if n != 4 - (k & 3):
                return PC_OFFER
        if s.wonders_seen != (owned | s.draft_offer):
            return PC_REVEALED
        n = drafted_by_first(k)
        where[0] = fp
        if popcount(s.p[fp].wonders) != n:
            return PC_DRAFTED
        where[0] = 1 - fp
        if popcount(s.p[1 - fp].wonders) != k - n:
            return PC_DRAFTED
        where[0] = -1
        if ph == PH_DRAFT and s.to_move != picker(s, k):
            return PC_PICKER
    else:
        if k != 8:
            return PC_PICKS
        if n:
            return PC_OFFER
        if (owned & ~s.wonders_seen) or popcount(s.wonders_seen) > 8:
            return PC_REVEALED
        for p in range(2):
            if popcount(s.p[p].wonders) > 4:
                where[0] = p
                return PC_DRAFTED
    for q in range(2):
        if not s.forced[q]:
            continue
        where[0] = q
        f = s.forced[q] - 1
        if (s.options & OPT_FIRST_GAME) or s.forced[q] == s.forced[1 - q]:
            return PC_FORCED
        if drafting:
            g = 0 if q == fp else 4                 # the first pick of q's group
            n = k > g or (k == g and (s.draft_offer != 0 or ph == PH_DRAFT))
            if n != ((s.wonders_seen >> f) & 1):
                return PC_FORCED
            if n and not ((s.draft_offer if k == g else s.p[q].wonders) >> f) & 1:
                return PC_FORCED
        elif not setup:
            if not (s.wonders_seen >> f) & 1 or (s.p[1 - q].wonders >> f) & 1:
                return PC_FORCED
    where[0] = -1
    # ---- the layout (R-AGE-1, R-LAYOUT-1, R-TURN-2)
    if s.age:
        fd = FACE_DOWN[s.age - 1]
        faceup = ALL_SLOTS & ~fd
        for slot in range(NUM_SLOTS):
            where[0] = slot
            bit = (<u32>1) << slot
            if s.slot_card[slot] != NO_CARD:
                if (s.taken | s.face_down | s.reveal_queue) & bit:
                    return PC_SLOT_CARD
                if CARDS[s.slot_card[slot]].age != s.age:
                    return PC_SLOT_AGE
            if (s.face_down & bit) and not (fd & bit):
                return PC_SLOT_FACE_UP
            if (s.taken & bit) and (COVERED[s.age - 1][slot] & ~s.taken):
                return PC_SLOT_COVERED
            if (s.face_down & bit) and slot_free(s, slot) and not (s.reveal_queue & bit):
                return PC_SLOT_UNTURNED
            if s.reveal_queue & bit:
                if s.taken & bit:
                    return PC_QUEUE_SLOT
                if s.dealing:
                    if fd & bit:
                        return PC_QUEUE_SLOT
                elif not (s.face_down & bit) or not slot_free(s, slot):
                    return PC_QUEUE_SLOT
        where[0] = -1
    if s.reveal_queue and not (ph == PH_REVEAL or ph == PH_GUILDS or ph == PH_TOKEN
                               or ph == PH_DESTROY or ph == PH_REVIVE or ph == PH_LIBRARY_DRAW
                               or ph == PH_LIBRARY or ph == PH_OVER):
        return PC_QUEUE_PHASE
    if ph == PH_REVEAL and not s.reveal_queue:
        return PC_REVEAL_EMPTY
    # ---- dealing a new Age and who begins it (R-AGE-1/2/3, R-CHANCE-2)
    if s.dealing:
        if (ph != PH_REVEAL and ph != PH_GUILDS) or s.taken or s.face_down != fd:
            return PC_DEALING
        # the face-up slots are dealt in ascending order: those still waiting are the highest
        if (s.reveal_queue == 0
                or s.reveal_queue != (faceup & ~((<u32>1 << ctz(s.reveal_queue)) - 1))):
            return PC_DEALING
        if (s.dealing == 2) != (s.age == 1 or (s.pawn == 0 and centred_begins)):
            return PC_DEALING_KIND
    if (s.dealing or ph == PH_START) and s.chooser != expected_chooser(s):
        return PC_CHOOSER
    if ph == PH_START:
        if (s.age < 2 or s.taken or s.reveal_queue or s.face_down != fd
                or (s.pawn == 0 and centred_begins)):
            return PC_START
        if s.to_move != s.chooser:
            return PC_START_MOVER
    if ph == PH_PLAY and s.taken == 0:
        if ((s.age == 1 and s.to_move != fp)
                or (s.age > 1 and s.pawn == 0 and centred_begins and s.to_move != s.last_taker)):
            return PC_FIRST_TURN
    if ph == PH_GUILDS and (s.age != 3 or not s.dealing or s.reveal_queue != faceup):
        return PC_GUILDS
    # ---- choices granted by an action (R-TURN-2, R-TURN-3, R-SCI-2, R-WONDER-4/5/6)
    if s.pend:
        return PC_PENDING
    if s.replay and (setup or ph == PH_PLAY or ph == PH_START or ph == PH_GUILDS or s.dealing):
        return PC_REPLAY
    n = popcount(s.aside_tokens)
    lim = 3 if n > 3 else n
    n = popcount(s.library_offer)
    if s.library_offer and ((ph != PH_LIBRARY_DRAW and ph != PH_LIBRARY)
                            or (s.library_offer & ~s.aside_tokens)):
        return PC_LIBRARY_OFFER
    if ph == PH_LIBRARY_DRAW:
        if not s.aside_tokens:
            return PC_LIBRARY_ASIDE
        if n >= lim:
            return PC_LIBRARY_OFFER
    if ph == PH_LIBRARY and (n == 0 or n != lim):
        return PC_LIBRARY_OFFER
    p = s.to_move
    q = 1 - p
    for k in range(NUM_WONDERS):
        if (s.p[p].built >> k) & 1:
            grants |= WONDERS[k].pend
    if ph == PH_DESTROY and not grants & (PEND_DESTROY_BROWN if s.destroy_colour == BROWN
                                          else PEND_DESTROY_GREY):
        return PC_GRANT_DESTROY
    if ph == PH_REVIVE and not grants & PEND_REVIVE:
        return PC_GRANT_REVIVE
    if (ph == PH_LIBRARY_DRAW or ph == PH_LIBRARY) and not grants & PEND_LIBRARY:
        return PC_GRANT_LIBRARY
    if ph == PH_TOKEN:
        n = 0
        for k in range(SYM_LAW):
            if s.p[p].symbols[k] >= 2:
                n = 1
        if not n:
            return PC_GRANT_TOKEN
        if not s.board_tokens:
            return PC_TOKEN_EMPTY
    if ph == PH_DESTROY and not ((s.p[q].city[0] & COLOUR_MASK[s.destroy_colour][0])
                                 or (s.p[q].city[1] & COLOUR_MASK[s.destroy_colour][1])):
        where[0] = q
        return PC_DESTROY_EMPTY
    if ph == PH_REVIVE and not (s.discard[0] | s.discard[1]):
        return PC_REVIVE_EMPTY
    if ph == PH_PLAY and s.taken == ALL_SLOTS:
        return PC_PLAY_DONE
    if ph != PH_OVER:
        if is_chance(s):
            if chance_pool(s, out, &n) <= 0:
                return PC_NO_CHANCE
        elif legal_impl(s, buf) <= 0:
            return PC_NO_LEGAL
    # ---- the cards of the Age (R-AGE-1, R-SETUP-6, R-CHANCE-1/2)
    if s.age:
        if ph == PH_GUILDS:
            n = NUM_SLOTS - 3
            k = 3
        else:
            unrevealed = (s.face_down | s.reveal_queue) & ALL_SLOTS
            n = popcount(unrevealed & ~s.guild_slots)
            k = popcount(unrevealed & s.guild_slots)
        if n > (popcount(AGE_MASK[s.age - 1][0] & ~s.seen[0])
                + popcount(AGE_MASK[s.age - 1][1] & ~s.seen[1])):
            return PC_POOL_AGE
        if k > popcount(GUILD_MASK[0] & ~s.seen[0]) + popcount(GUILD_MASK[1] & ~s.seen[1]):
            return PC_POOL_GUILD
    # ---- the Conflict pawn and the end (R-MIL-2/3, R-SCI-3, R-END-2)
    for q in range(2):
        d = s.pawn if q == 1 else -s.pawn          # how far the pawn is toward q's capital
        f = (s.mil_tokens >> (2 * q)) & 3           # bit 0: the 2-coin token, bit 1: the 5
        if (d >= 3 and f & 1) or (d >= 6 and f & 2) or f == 1:
            return PC_MILITARY_TOKENS
    if (ph == PH_OVER) != (s.victory != VICTORY_NONE):
        return PC_RESULT
    if (s.winner != WINNER_NONE) != (ph == PH_OVER and s.victory != VICTORY_SHARED):
        return PC_WINNER
    if ((s.victory == VICTORY_MILITARY) != (s.pawn == 9 or s.pawn == -9)
            or (s.victory == VICTORY_MILITARY and s.winner != (0 if s.pawn == 9 else 1))):
        return PC_MILITARY
    for p in range(2):
        if (s.p[p].n_symbols >= 6) != (s.victory == VICTORY_SCIENTIFIC and s.winner == p):
            where[0] = p
            return PC_SCIENCE
    if s.victory == VICTORY_CIVILIAN or s.victory == VICTORY_SHARED:
        if s.age != 3 or s.taken != ALL_SLOTS:
            return PC_CIVILIAN
        t = s[0]
        finish_game(&t)
        if t.winner != s.winner or t.victory != s.victory:
            return PC_CIVILIAN
    out[0] = 0
    out[1] = 0
    for k in range(NUM_WONDERS):
        if s.under[k] != NO_CARD:
            where[0] = 0 if (s.p[0].wonders >> k) & 1 else 1
            if not ((s.p[0].built | s.p[1].built) >> k) & 1:
                return PC_TUCKED
            bit_add(out, s.under[k])
    where[0] = -1
    if out[0] != s.tucked[0] or out[1] != s.tucked[1]:
        return PC_TUCKED
    return 0


#: Every check of state_check: code -> (field, reason).  The field names the key of
#: State.to_dict() the check concerns ("{i}": the player or slot); the reason says what the rules
#: require, with the rule id.  Codes 1..14 hold in any state; 15..72 are the position checks
#: (listed with position_check): a position the rules can reach, with something to do.
_LATER = ("cards of an Age not yet laid out (the game is in age {age}): no card is in play "
          "before Age I, and later at most the 3 removed from that Age's deck (R-SETUP-6)")
STATE_CHECKS = {
    1: ("layout[{i}]", "a face-up slot of the layout has no card"),
    2: ("position", "a card is in two places"),
    3: ("position", "the cards seen are not exactly the cards in the cities, discard pile, "
                    "wonders and layout"),
    4: ("layout", "the available cards do not match the layout"),
    5: ("players[{i}].coins", "a player has negative coins"),
    6: ("players[{i}]", "a player's derived values (production, colours, symbols) do not match "
                        "their city"),
    7: ("players[{i}].wonders", "a player built a wonder they do not own"),
    8: ("pawn", "the Conflict pawn is off the track or on a capital in a running game"),
    9: ("progress_tokens", "a progress token is in two places"),
    10: ("layout", "the layout's face-down and revealed slots do not add up"),
    11: ("players", "the number of built wonders does not add up"),
    12: ("players", "7 wonders are built but an unbuilt wonder is still in the game (R-WONDER-3)"),
    13: ("guild_slots", "the guild backs of Age III do not match the layout (R-CHANCE-2)"),
    14: ("position", "a field is outside its range"),
    # set-up and Ages
    PC_SETUP_AGE: ("age", "phase '{phase}' is part of the set-up, before Age I: age must be 0, "
                          "not {age} (R-SETUP)"),
    PC_AGE_PHASE: ("phase", "phase '{phase}' belongs to an Age, but age is 0: before Age I the "
                            "phase is setup_first_player, setup_tokens, draft_reveal or draft "
                            "(R-AGE-1)"),
    PC_LATER_CITY: ("players[{i}].city", "holds " + _LATER),
    PC_LATER_DISCARD: ("discard_pile", "holds " + _LATER),
    PC_LATER_TUCKED: ("players[{i}].wonders", "a wonder holds " + _LATER),
    PC_SETUP_BUILT: ("players[{i}].wonders", "a wonder is built before Age I (R-SETUP)"),
    PC_SETUP_TOKENS: ("players[{i}].progress_tokens", "a progress token is owned before Age I, "
                      "while the board tokens are laid out or the wonders drafted (R-SETUP-3)"),
    PC_SETUP_PAWN: ("pawn", "the Conflict pawn is on the centre until Age I begins (R-SETUP-2)"),
    PC_SETUP_MILITARY: ("military_tokens", "all 4 military tokens lie on the track until Age I "
                                           "begins (R-MIL-2)"),
    PC_NO_LAYOUT: ("layout", "there is no layout before Age I (age 0) (R-AGE-1)"),
    # board tokens
    PC_BANNED: ("board_tokens", "a banned token (options.banned_tokens) is never laid on the "
                                "board, and at most 5 are banned"),
    PC_BOARD: ("board_tokens", "{n_board} tokens on the board in phase '{phase}': none before "
               "they are drawn, fewer than 5 while they are laid out, 5 in the draft (R-SETUP-3)"),
    PC_ASIDE: ("aside_tokens", "the tokens are set aside when the 5th board token is laid: none "
               "before, and in the draft exactly the 5 not on the board (R-SETUP-3)"),
    # the draft
    PC_FIRST_GAME: ("options.first_game_wonders", "there is no wonder draft with the first-game "
                                                  "wonders (R-SETUP-7)"),
    PC_PICKS: ("draft.picks", "{picks} picks in phase '{phase}': 0 before the draft, 0 or 4 while "
               "wonders are revealed, 0-2 or 4-6 at a pick (the last pick of each group is "
               "forced and made at once), 8 from Age I on (R-SETUP-5)"),
    PC_OFFER: ("draft.offer", "{n_offer} wonders on offer after {picks} picks in phase "
               "'{phase}': at a pick, 4 minus the picks made in the group; fewer than 4 while "
               "they are revealed; none outside the draft (R-SETUP-5)"),
    PC_REVEALED: ("draft.revealed", "{n_seen} wonders revealed after {picks} picks: the wonders "
                  "revealed are those picked and those on offer, 8 by Age I (R-SETUP-5)"),
    PC_DRAFTED: ("players[{i}].wonders", "{who} holds {n_wonders} wonders after {picks} picks: "
                 "the first player takes 1, the other 2, the first 1, then the other 1, the "
                 "first 2, the other 1 (at most 4 each) (R-SETUP-5)"),
    PC_PICKER: ("to_move", "pick {picks} of the draft is {picker}'s (R-SETUP-5)"),
    PC_FORCED: ("options.forced_wonders", "{who}'s forced wonder is the first revealed in the "
                "group where {who} picks first, and {who}'s first pick takes it: this position "
                "does not follow from that"),
    # the layout
    PC_SLOT_CARD: ("layout[{i}]", "a card lies in a slot that is taken, face down or waiting to "
                                  "be revealed (R-AGE-1, R-TURN-2)"),
    PC_SLOT_AGE: ("layout[{i}]", "the card is not an Age {age} card (R-AGE-1)"),
    PC_SLOT_FACE_UP: ("layout[{i}]", "slot {i} of Age {age} is dealt face up (R-AGE-1)"),
    PC_SLOT_COVERED: ("layout[{i}]", "a taken slot is still covered by a card (R-LAYOUT-1)"),
    PC_SLOT_UNTURNED: ("layout[{i}]", "a face-down card is uncovered but was not turned face up "
                                      "(R-TURN-2)"),
    PC_QUEUE_SLOT: ("reveal_queue", "slot {i} waits to be revealed but is not a face-down card "
                    "just uncovered (nor, while an Age is dealt, a face-up slot not yet dealt) "
                    "(R-TURN-2)"),
    PC_QUEUE_PHASE: ("reveal_queue", "cards wait to be revealed: the phase must be 'reveal' or a "
                     "choice made before the reveal, not '{phase}' (R-TURN-2)"),
    PC_REVEAL_EMPTY: ("reveal_queue", "phase 'reveal' needs a card waiting to be revealed "
                                      "(R-TURN-2)"),
    # dealing a new Age, who begins
    PC_DEALING: ("dealing", "set only while a new Age's face-up cards are dealt: phase 'reveal' "
                 "(or 'guilds'), nothing taken, the face-up slots not yet dealt (the highest) "
                 "waiting (R-AGE-1)"),
    PC_DEALING_KIND: ("dealing", "2 (the chooser begins) for Age I and for a centred pawn under "
                      "centred_pawn 'begins', otherwise 1 (the chooser chooses) (R-AGE-3)"),
    PC_CHOOSER: ("chooser", "{chooser} chooses who begins Age {age}: the first player for Age I; "
                 "for Age II/III the weaker military, or the last player to take a card when "
                 "the pawn is centred (R-AGE-3)"),
    PC_START: ("phase", "'choose_start' comes once Age II or III is dealt, before any card is "
                        "taken, and not for a centred pawn under centred_pawn 'begins' (R-AGE-3)"),
    PC_START_MOVER: ("to_move", "the chooser ({chooser}) chooses who begins (R-AGE-3)"),
    PC_FIRST_TURN: ("to_move", "no card of Age {age} is taken yet, so this is its first turn: "
                    "{begins} begins it (R-AGE-2, R-AGE-3)"),
    PC_GUILDS: ("phase", "'guilds' is the lay-out of Age III: the guild backs are placed before "
                         "any card is dealt (R-CHANCE-2)"),
    # choices granted by an action
    PC_PENDING: ("pending", "a choice an action grants is made at once, in its own phase "
                 "(choose_token, destroy, revive, library_draw, library): nothing is pending "
                 "in a position (R-TURN-2)"),
    PC_REPLAY: ("replay", "Play Again is earned by a wonder and used when the turn ends: it is "
                "never set at the start of a turn, in the set-up or while an Age is dealt "
                "(R-TURN-3)"),
    PC_LIBRARY_OFFER: ("library_offer", "the Great Library draw holds set-aside tokens only while "
                       "they are drawn (fewer than 3, and than those set aside) or chosen from "
                       "(3, or all those set aside) (R-WONDER-6)"),
    PC_LIBRARY_ASIDE: ("aside_tokens", "phase 'library_draw' needs a set-aside token to draw "
                                       "(R-WONDER-6)"),
    PC_GRANT_DESTROY: ("phase", "'destroy' follows The Statue of Zeus (brown) or Circus Maximus "
                       "(grey) built by the player to move (destroy_colour {colour}) (R-WONDER-4)"),
    PC_GRANT_REVIVE: ("phase", "'revive' follows The Mausoleum built by the player to move "
                               "(R-WONDER-5)"),
    PC_GRANT_LIBRARY: ("phase", "'{phase}' follows The Great Library built by the player to "
                                "move (R-WONDER-6)"),
    PC_GRANT_TOKEN: ("phase", "'choose_token' follows a pair of science symbols made by the "
                              "player to move (R-SCI-2)"),
    PC_TOKEN_EMPTY: ("board_tokens", "phase 'choose_token' needs a progress token on the board "
                                     "(R-SCI-2)"),
    PC_DESTROY_EMPTY: ("players[{i}].city", "phase 'destroy' needs a {colour} card in the "
                                            "opponent's city (R-WONDER-4)"),
    PC_REVIVE_EMPTY: ("discard_pile", "phase 'revive' needs a card in the discard pile "
                                      "(R-WONDER-5)"),
    PC_PLAY_DONE: ("layout", "every card of the Age is taken: it is not a play turn (R-AGE-2)"),
    PC_NO_LEGAL: ("phase", "the player to move has no legal action in phase '{phase}'"),
    PC_NO_CHANCE: ("phase", "the chance node '{phase}' has nothing to draw"),
    # the cards of the Age
    PC_POOL_AGE: ("layout", "too few unseen Age {age} cards are left for its face-down slots: "
                  "besides the cards of the slots taken, at most the 3 cards removed from the "
                  "deck can be in the cities, the discard pile or under wonders (R-SETUP-6)"),
    PC_POOL_GUILD: ("guild_slots", "too few unseen guilds are left for the guild backs "
                                   "(R-SETUP-6, R-CHANCE-2)"),
    # the Conflict pawn and the end
    PC_MILITARY_TOKENS: ("military_tokens", "the pawn has entered a zone whose token is still on "
                         "the track, or a 5-coin token is gone while the 2-coin token of that "
                         "side is not (R-MIL-2)"),
    PC_RESULT: ("victory", "a victory is given exactly when the phase is 'over'"),
    PC_WINNER: ("winner", "a winner is named exactly when the game is over and not shared"),
    PC_MILITARY: ("victory", "a military victory leaves the pawn in the loser's capital, and the "
                             "pawn reaches a capital only then (R-MIL-3)"),
    PC_SCIENCE: ("players[{i}].city", "6 different science symbols win at once: the game is "
                 "over with {who}'s scientific victory exactly then (R-SCI-3)"),
    PC_CIVILIAN: ("victory", "a civilian or shared victory comes when the last card of Age III is "
                  "taken, to the player with more VP, then more blue VP (R-END-2)"),
    PC_TUCKED: ("players[{i}].wonders", "a card lies under a wonder that is not built, or a "
                                        "tucked card is under no wonder (R-WONDER-1)"),
}
#: code -> reason, for callers that want only the text.
STATE_CHECK_MESSAGES = {code: reason for code, (field, reason) in STATE_CHECKS.items()}


cdef tuple check_error(const GameState* s, int code, int where):
    """(field, reason) of a broken check, with the player / slot and the values filled in."""
    field, reason = STATE_CHECKS[code]
    i = where if where >= 0 else 0
    names = ("P1", "P2")
    values = {
        "i": i, "phase": PHASE_NAMES[s.phase] if s.phase < len(PHASE_NAMES) else s.phase,
        "age": s.age, "picks": s.draft_pick, "n_board": popcount(s.board_tokens),
        "n_offer": popcount(s.draft_offer), "n_seen": popcount(s.wonders_seen),
        "n_wonders": popcount(s.p[i & 1].wonders), "who": names[i & 1],
        "picker": names[picker(s, s.draft_pick)], "chooser": names[expected_chooser(s) & 1],
        "begins": names[(s.first_player if s.age <= 1 else s.last_taker) & 1],
        "colour": "brown" if s.destroy_colour == BROWN else "grey",
    }
    field = field.format(i=i) if where >= 0 else field.replace("[{i}]", "")
    return field, reason.format(**values)


def check_message(State state):
    """``None`` if ``state`` passes :func:`state_check`, else ``"field: reason"`` of the first
    broken check (see STATE_CHECKS)."""
    cdef int where
    cdef int code = state_check_at(&state.s, &where)
    if not code:
        return None
    field, reason = check_error(&state.s, code, where)
    return f"{field}: {reason}"
