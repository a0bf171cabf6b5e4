# The table of contents of the 7 Wonders core (duelcore.seven): sizes, tables, the state and
# the state API used by search.  Rule ids W-... refer to the 7 Wonders rules digest.
from duelcore.common.types cimport u8, i8, u16, i16, u32, i32, u64
from duelcore.common.bits cimport popcount, ctz, bit_has, bit_add, bit_del  # bit helpers
# and RNG (splitmix64, inline), under this core's names
from duelcore.common.rng cimport rng_next as sv_rng_next, rng_below as sv_rng_below

cdef enum:
    SV_MAX_SEATS = 7        # cities (players, or 2 players + the Free City)
    SV_NUM_PHYS = 148       # physical cards: 49 + 49 + 40 Age cards + 10 guilds (3 words)
    SV_WORDS = 3
    SV_NUM_NAMES = 75       # 65 Age-card names + 10 guilds (2 words)
    SV_FIRST_GUILD = 65
    SV_NUM_GUILDS = 10
    SV_NUM_BOARDS = 7
    SV_NUM_RES = 7          # wood, stone, ore, clay, glass, papyrus, loom
    SV_MAX_PAIRS = 64       # payment pairs one cost solve may return
    SV_MAX_LEGAL = 2048     # upper bound on legal actions / chance outcomes at any node
    SV_NO_CARD = 255
    SV_NUM_CAT = 8          # VP categories: military, treasury, wonder, civilian,
                            #   commercial, guilds, science, total (W-END-1)

# Uses of a card in a turn action (W-TURN-1)
cdef enum:
    U_BUILD = 0             # build it (paid, or free by chain, W-BUILD)
    U_STAGE = 1             # put it under the board for the next stage (W-WON-1)
    U_DISCARD = 2           # discard it for 3 coins
    U_FREE = 3              # build it free with Olympia A's power (W-WON-7)

# Action layout.  Turn action (also Babylon B's 7th card):
#   ((use * 75 + name) * 256) + left_coins * 16 + right_coins      (coins 0..15 each)
cdef enum:
    SV_TURN_BASE = 0
    SV_NUM_TURN_ACTIONS = 76800
    SV_HALI_BASE = 76800    # + name : Halikarnassus builds that card from the discard (W-WON-6)
    SV_HALI_NONE = 76875    # Halikarnassus takes nothing
    SV_CH_BOARD_BASE = 76876    # + board*2 + side : chance, the board of the next seat
    SV_CH_GUILD_BASE = 76890    # + guild          : chance, a guild drawn into Age III
    SV_CH_CARD_BASE = 76900     # + name           : chance, the next card dealt / drawn
    SV_NUM_ACTIONS = 76975

# Phases (what the node waits for)
cdef enum:
    SP_BOARD = 0            # chance: board and side of seat `setup_pos` (W-SETUP-4)
    SP_GUILD = 1            # chance: a guild drawn (W-SETUP-3)
    SP_DEAL = 2             # chance: the next card of the Age's deal (W-AGE-2)
    SP_DRAW = 3             # chance: the Free City controller draws the pile's top card (W-FREE-4)
    SP_TURN = 4             # simultaneous: every seat commits a turn action (W-TURN-1)
    SP_HALI = 5             # decision: Halikarnassus's pick (W-WON-6)
    SP_SEVENTH = 6          # decision: Babylon B's 7th card (W-WON-5)
    SP_OVER = 7             # terminal

# Options (flags of SevenState.options)
cdef enum:
    SO_EXPLICIT_CHANCE = 1  # chance nodes are shown to the caller instead of sampled
    SO_ALL_PAIRS = 2        # offer every payment pair, not only the non-dominated ones (W-TRADE-6)

# Trade discount bits of SevenCity.trade (W-TRADE-4)
cdef enum:
    TR_RAW_RIGHT = 1        # East Trading Post
    TR_RAW_LEFT = 2         # West Trading Post
    TR_MANUF = 4            # Marketplace
    TR_RAW_BOTH = 8         # Olympia B stage 1

# One city.  Every field from `fixed` on is derived from the city and the stages and is kept up
# to date incrementally (checked by sv_state_check).
ctypedef struct SevenCity:
    u64 city[2]             # names built (bitset over 75 names)
    u64 hand[3]             # physical cards in hand (the Free City holds none)
    u64 facedown[3]         # face-down cards whose place this player knows (own stage cards and
                            #   discards; the whole pile when its Halikarnassus power triggered)
    i32 coins               # coins, >= 0 (W-SETUP-5)
    i16 mil_vp              # sum of military tokens (W-MIL-2), -6..+18
    u8 defeats              # defeat tokens (0..6)
    u8 board                # 0..6
    u8 side                 # 0 A, 1 B
    u8 stages               # stages built (0..4)
    u8 olympia_free         # 1 while Olympia A's free build can be used (W-WON-7)
    u8 fixed[7]             # fixed units per resource: board + brown/grey cards (all sellable)
    u8 pairs[6]             # "one of two" brown cards per pair type (sellable, data.PAIRS)
    u8 any_raw              # own-only choice sources of any raw (Caravansery, Alexandria)
    u8 any_manuf            # own-only choice sources of any manufactured (Forum, Alexandria B2)
    u8 trade                # TR_* discounts
    u8 colour[7]            # built cards per colour
    u8 sci[3]               # compass, gear, tablet symbols
    u8 wild                 # science wildcards (Scientists Guild, Babylon stage), 0..2
    u8 shields              # shields on red cards and stages
    u8 seventh              # Babylon B stage 2 built (W-WON-5)
    u8 copy_guild           # Olympia B stage 3 built (W-WON-8)
    u8 _pad[3]

ctypedef struct SevenState:
    u64 rng                 # splitmix64 state for chance sampling (auto mode)
    u64 deck[3]             # cards of the current Age not dealt yet (the Free City's pile)
    u64 discard[3]          # the discard pile (face down)
    u64 tucked[3]           # cards under wonder stages
    u64 built[3]            # physical cards built in cities
    u64 excluded[3]         # every copy of the cards a study removed from the game (treatment,
                            #   see new_state's ``remove``); 0 in a game by the rules
    u64 added[3]            # the spare copies (marks above the player count) dealt in their
                            #   place, so that each Age still deals 7 cards a player (W-AGE-2)
    SevenCity c[7]
    u64 seen[7][7][3]       # seen[p][k]: packet k (the hand dealt to seat k) when p last held it
    i32 commit[7]           # committed turn action per seat this turn, -1 if none
    u8 commit_card[7]       # the physical card of that commitment
    u16 guilds              # guilds drawn into Age III (bitset over 10)
    u16 n_moves             # decisions applied so far
    u8 n_players            # 2..7 (2 = Free City variant)
    u8 n_seats              # cities: n_players, or 3 for the Free City
    u8 phase                # SP_*
    u8 age                  # 0 during setup, then 1..3
    u8 turn                 # 1..6 within an Age
    u8 setup_pos            # boards assigned / guilds drawn so far
    u8 deal_pos             # cards dealt so far in this Age
    u8 hali_seat            # seat of the pending Halikarnassus pick
    u8 hali_trigger         # bit per seat: built a Halikarnassus stage this turn
    u8 seventh_seat         # seat playing a 7th card (SP_SEVENTH), or 255
    u8 seventh_card         # the kept card, or 255
    u8 options              # SO_*
    u8 boards_used          # bitset over 7 boards
    u8 forced_board[7]      # board forced on each seat (255: drawn by chance)
    u8 forced_side[7]       # side forced on each seat (255: drawn by chance)
    u8 _pad[5]

cdef struct NameDef:
    u8 colour               # 0..6 (data.COLOURS)
    u8 coins                # printed coin cost
    u8 res[7]               # resource cost
    u8 n_res
    u8 vp                   # civilian VP (blue)
    u8 fixed[7]             # fixed production
    u8 pair                 # pair type 0..5, or 255
    u8 anyc                 # 6 any raw, 7 any manufactured, or 255
    u8 trade                # TR_* bits
    u8 shields
    u8 sci                  # 0..2, or 255
    u8 coins_gain           # Tavern
    u8 special              # 1 vineyard, 2 bazar, 3 haven, 4 lighthouse, 5 chamber, 6 arena
    u8 guild                # 0 none, 1 neighbours' colour, 2 strategists, 3 builders,
                            #   4 shipowners, 5 scientists
    u8 gcolour              # colour a neighbours guild counts
    u8 gvp                  # VP per counted card
    u8 kmask                # resources in the cost (bitset over 7)
    u64 chain[2]            # names any one of which makes this card free (W-BUILD-2)

cdef struct StageDef:
    u8 res[7]
    u8 n_res
    u8 vp
    u8 coins
    u8 shields
    u8 anyc                 # 6 any raw, 7 any manufactured, 255 none
    u8 flags                # ST_* powers
    u8 kmask                # resources in the cost (bitset over 7)

# The state API (all nogil, no allocation).  `out` buffers hold SV_MAX_LEGAL ints.
cdef void sv_init(SevenState* s, int players, u64 seed, int options) noexcept nogil
cdef bint sv_is_chance(const SevenState* s) noexcept nogil
cdef int sv_chance_outcomes(const SevenState* s, int* out, double* prob) noexcept nogil
cdef int sv_sample_chance(const SevenState* s, u64* rng) noexcept nogil
cdef int sv_pending(const SevenState* s, int* seats) noexcept nogil
cdef int sv_decider(const SevenState* s, int seat) noexcept nogil
cdef int sv_legal_actions(const SevenState* s, int seat, int* out) noexcept nogil
cdef void sv_apply(SevenState* s, int seat, int a) noexcept nogil
cdef void sv_settle(SevenState* s, u64* rng) noexcept nogil
cdef void sv_scores(const SevenState* s, int* vp) noexcept nogil
cdef int sv_winners(const SevenState* s) noexcept nogil
cdef int sv_solve(const SevenState* s, int seat, const u8* cost, int allpairs,
                  int* pl, int* pr) noexcept nogil
cdef int sv_state_check(const SevenState* s) noexcept nogil
cdef int sv_position_check(const SevenState* s, int* where) noexcept nogil
cdef void sv_age_deck(const SevenState* s, int age, u64* out) noexcept nogil
cdef int sv_deal_spares(SevenState* s, u64 seed) noexcept nogil
