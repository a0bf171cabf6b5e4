# The table of contents of the core: the state, the tables and the state API used by search.
from duelcore.duel.types cimport u8, i8, u16, u32, i32, u64

# One player's part of the state.  Every field after `coins` is derived from the city, the
# built wonders and the tokens, and is kept up to date incrementally (checked by state_check).
ctypedef struct PlayerState:
    u64 city[2]             # cards built (card-id bitset, ids 0..63 in [0], 64..72 in [1])
    i32 coins               # coins, >= 0 (R-SETUP-1)
    u16 wonders             # wonder ids drafted and still in the game (bitset over 12)
    u16 built               # wonder ids built (subset of `wonders`)
    u16 tokens              # progress token ids owned (bitset over 10)
    u8 fixed[5]             # units produced by brown/grey cards, per resource (0..6)
    u8 n_choice[2]          # choice producers: [0] wood/clay/stone, [1] glass/papyrus (0..2)
    u8 trade_one            # bitset over resources whose trade price is 1 coin (R-TRADE-3)
    u8 colour[7]            # cards of each colour in the city (0..23)
    u8 symbols[7]           # cards (or Law) per science symbol (0..2)
    u8 n_symbols            # distinct science symbols held (0..7)
    u8 n_built              # wonders built (0..4)
    u8 _pad[4]

# A whole position.  Flat, no pointers: copying is a struct assignment.
ctypedef struct GameState:
    u64 rng                 # splitmix64 state used to sample chance nodes (auto mode)
    u64 discard[2]          # discard pile (card-id bitset), public
    u64 seen[2]             # cards whose identity has been revealed this game
    u64 avail[2]            # cards available in the layout (uncovered, face up, not taken)
    u64 tucked[2]           # cards tucked under wonders (no effect)
    PlayerState p[2]
    u32 taken               # layout slots already taken (bitset over 20)
    u32 face_down           # layout slots still face down (not taken)
    u32 reveal_queue        # layout slots waiting for a chance reveal (ascending order)
    u32 guild_slots         # Age III slots holding a guild (public guild backs, R-CHANCE-2);
                            #   0 before Age III; exactly 3 once placed
    u16 board_tokens        # progress tokens on the board
    u16 aside_tokens        # progress tokens set aside (The Great Library's pool)
    u16 library_offer       # tokens drawn for The Great Library, awaiting the choice
    u16 draft_offer         # wonders revealed in the draft and not yet picked
    u16 wonders_seen        # wonders revealed in the draft so far
    u16 n_decisions         # decisions applied so far (chance outcomes not counted)
    u16 n_chance            # chance outcomes applied so far
    u16 banned_tokens       # option: tokens never laid on the board (they are set aside)
    u8 slot_card[20]        # card id in each slot of the current Age (NO_CARD if face down or taken)
    u8 under[12]            # card tucked under each wonder (NO_CARD if none)
    u8 phase                # PH_* (what the node waits for)
    u8 age                  # 0 during setup, then 1..3
    u8 to_move              # player 0/1 who makes the pending decision
    u8 first_player         # P1, who begins Age I (R-SETUP-4)
    i8 pawn                 # Conflict pawn, -9..9; > 0 means toward player 1's capital
    u8 mil_tokens           # military tokens still on the track: bit 2*q + k is the token of
                            #   zone k (0: 2 coins, 1: 5 coins) on player q's side
    u8 draft_pick           # picks made in the draft (0..8)
    u8 n_built_wonders      # wonders built by both players (0..7, R-WONDER-3)
    u8 replay               # 1 if the current turn earned Play Again (R-TURN-3)
    u8 pend                 # PEND_* choices still to make in the current turn
    u8 dealing              # 1 while the reveal queue deals a new Age's face-up cards
    u8 chooser              # who chooses the next Age's first player (PH_START)
    u8 last_taker           # who took the most recent card of the layout
    u8 age_seen             # cards of the current Age revealed so far (0..20)
    u8 winner               # 0/1, or WINNER_NONE (not over, or shared)
    u8 victory              # VICTORY_*
    u8 options              # OPT_* rule options
    u8 destroy_colour       # BROWN/GREY while in PH_DESTROY
    u8 forced[2]            # option: wonder id + 1 forced into each player's draft (0: none)
    u8 _pad[4]

cdef struct CardDef:
    u8 age                  # 1..3 (guilds 3)
    u8 colour               # BROWN..PURPLE
    u8 coins                # printed coin cost
    u8 res[5]               # resource cost
    u8 n_res                # total resource units in the cost
    u8 vp                   # victory points
    u8 prod[5]              # fixed production (brown/grey)
    u8 choice               # 0 none, 1 wood/clay/stone, 2 glass/papyrus
    u8 trade_one            # resources traded at 1 coin
    u8 shields
    u8 symbol               # science symbol 0..5, or 255
    u8 coins_gain           # coins taken when built
    u8 per_what             # 0 none, 1 wonder, 2 brown, 3 grey, 4 yellow, 5 red
    u8 per_coins            # coins per item
    u8 guild                # 0 none, 1 yellow, 2 brown+grey, 3 wonder, 4 blue, 5 green, 6 coins, 7 red
    u8 chain_from           # card id giving the chain symbol that makes it free, or 255

cdef struct WonderDef:
    u8 res[5]
    u8 n_res
    u8 vp
    u8 coins_gain
    u8 opp_loss
    u8 shields
    u8 choice               # 0 none, 1 wood/clay/stone, 2 glass/papyrus
    u8 play_again
    u8 pend                 # PEND_* choice it grants, or 0

from duelcore.common.bits cimport popcount, ctz, bit_has, bit_add, bit_del  # bit helpers
from duelcore.common.rng cimport rng_next, rng_below  # and RNG (splitmix64), inline

cdef inline int bs_select(const u64* b, int i) noexcept nogil:
    """Id of the i-th set bit (0-based) of a 2-word bitset."""
    cdef int n0 = popcount(b[0])
    cdef u64 x = b[0]
    cdef int base = 0
    if i >= n0:
        x = b[1]
        i -= n0
        base = 64
    while i > 0:
        x &= x - 1
        i -= 1
    return base + ctz(x)

# The state API (all nogil, no allocation).  `out` buffers hold MAX_LEGAL ints.
cdef bint is_chance(const GameState* s) noexcept nogil
cdef int legal_actions(const GameState* s, int* out) noexcept nogil
cdef int chance_outcomes(const GameState* s, int* out, double* prob) noexcept nogil
cdef int sample_chance(const GameState* s, u64* rng) noexcept nogil
cdef void apply_action(GameState* s, int a) noexcept nogil
cdef void settle(GameState* s, u64* rng) noexcept nogil
cdef void init_state(GameState* s, u64 seed, int options, int first_player,
                     int first_game, int coins0, int coins1) noexcept nogil
cdef void set_treatments(GameState* s, u16 banned_tokens, int forced0, int forced1) noexcept nogil
cdef void compute_vp(const GameState* s, int* vp) noexcept nogil
cdef int card_cost(const GameState* s, int p, int c, int* trade) noexcept nogil
cdef int wonder_cost(const GameState* s, int p, int w, int* trade) noexcept nogil
cdef int build_gains_now(const GameState* s, int p, int c, int* vp) noexcept nogil
cdef int state_check(const GameState* s) noexcept nogil

# The Python face (engine.pyx); declared here so that other modules of the core reach the struct.
cdef class State:
    cdef GameState s
    @staticmethod
    cdef State _wrap(const GameState* g)
    cdef bytes _bytes(self)
