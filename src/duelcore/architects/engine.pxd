# The table of contents of the 7 Wonders Architects core (duelcore.architects.engine): sizes,
# the action layout, the flat state and the state API used by search.  Rule ids A-... refer
# to the rules digest RULES-ARCH.md.  The typedefs, bit helpers and RNG are every game's
# (duelcore/common), under this core's names.
from duelcore.common.types cimport u8, i8, u16, i16, u32, i32, u64
from duelcore.common.bits cimport popcount, ctz
from duelcore.common.rng cimport rng_next as ar_rng_next, rng_below as ar_rng_below

cdef enum:
    AR_MAX_SEATS = 7
    AR_NUM_KINDS = 14       # card kinds (data.KINDS)
    AR_NUM_GREY = 5         # kinds 0..4 are the grey resources
    AR_NUM_WONDERS = 7
    AR_NUM_TOKENS = 14      # progress-token types (data.TOKENS); 15 tokens (Culture twice)
    AR_NUM_STAGES = 5
    AR_CENTRAL = 7          # deck id of the central deck; wonder deck D_i has id i
    AR_NUM_DECKS = 8
    AR_MAX_PEND = 6         # extra-card token types: the pending list holds each at most once
    AR_NONE = 255
    AR_NUM_PAYMENTS = 231   # payment multisets of value 2..4 (A-BUILD-3), see PAY below
    AR_MAX_LEGAL = 256      # upper bound on legal actions / chance outcomes at any node
    AR_NUM_CAT = 6          # VP categories: wonder, blue, military, cat, progress, total

# Card kinds (A-CARD)
cdef enum:
    K_WOOD = 0
    K_STONE = 1
    K_CLAY = 2
    K_GLASS = 3
    K_PAPYRUS = 4
    K_COIN = 5
    K_BLUE3 = 6
    K_BLUE2CAT = 7
    K_TABLET = 8
    K_GEAR = 9
    K_COMPASS = 10
    K_RED0 = 11
    K_RED1 = 12
    K_RED2 = 13

# Wonders (A-WON)
cdef enum:
    W_ALEXANDRIA = 0
    W_BABYLON = 1
    W_EPHESUS = 2
    W_GIZA = 3
    W_HALICARNASSUS = 4
    W_OLYMPIA = 5
    W_RHODES = 6

# Progress-token types (A-TOK)
cdef enum:
    T_ARCHITECTURE = 0
    T_CRAFTS = 1
    T_CULTURE = 2
    T_DECOR = 3
    T_ECONOMY = 4
    T_EDUCATION = 5
    T_ENGINEERING = 6
    T_JEWELLERY = 7
    T_POLITICS = 8
    T_PROPAGANDA = 9
    T_SCIENCE = 10
    T_STRATEGY = 11
    T_TACTICS = 12
    T_URBANISM = 13

# The action layout: one int in [0, A_NUM_ACTIONS).  Decisions are the active seat's (every
# decision of a turn is its player's, A-DEC-1); chance outcomes come last.  Ascending order of
# the legal list is the order of these ranges.
cdef enum:
    A_PICK_BASE = 0         # + 0 left deck, 1 right deck, 2 central deck: main or extra pick
    A_DECLINE = 3           # decline an extra pick, an optional power, an optional build
    A_POWER_USE = 4         # use Ephesus's power (only under wonder_power_optional)
    A_DECK_BASE = 5         # + deck id 0..7 (7: central): Alexandria's take (A-WON-1)
    A_HALI_BASE = 13        # + 0 left, 1 right: Halicarnassus's deck (A-WON-5)
    A_SET_BASE = 15         # + 0 tablet pair, 1 gear pair, 2 compass pair, 3 triple (A-SCI)
    A_TOKEN_BASE = 19       # + token type: a face-up progress token (A-SCI-4)
    A_TOKEN_STACK = 33      # the top of the stack, unseen
    A_STAGE_BASE = 34       # + stage 0..4 (S1..S5): the stage to build (A-BUILD-5)
    A_PAY_BASE = 39         # + payment id 0..230 (A-BUILD-3, -6)
    A_KEEP_BASE = 270       # + kind: the card kept from a Halicarnassus window
    A_ORDER_PICK_BASE = 284 # + token type: free_order, resolve that pending pick next
    A_ORDER_SET = 298       # free_order: form a science set next
    A_ORDER_BUILD = 299     # free_order: build a stage next
    A_NUM_DECISIONS = 300
    A_CH_KIND_BASE = 300    # + kind: chance, a card drawn or revealed
    A_CH_TOKEN_BASE = 314   # + token type: chance, a token turned or drawn
    A_CH_WONDER_BASE = 328  # + wonder: chance, the wonder of the next seat (A-SETUP-2)
    A_NUM_ACTIONS = 335

# Phases: what the node waits for
cdef enum:
    PH_CHANCE = 0           # a chance event (explicit chance only; else sampled at once)
    PH_MAIN = 1             # the main pick (A-TURN-3)
    PH_PICK = 2             # the first pending extra pick: a deck or decline (A-ORDER-1.1)
    PH_SET = 3              # which science set (A-SCI-2)
    PH_TOKEN = 4            # which progress token (A-SCI-4, A-WON-2)
    PH_STAGE = 5            # which affordable stage (A-BUILD-5)
    PH_PAY = 6              # which payment (A-BUILD-6)
    PH_ALEX = 7             # Alexandria's deck (A-WON-1)
    PH_EPHESUS = 8          # use Ephesus's power or not (wonder_power_optional)
    PH_HALI_DECK = 9        # Halicarnassus's deck (A-WON-5)
    PH_HALI_KEEP = 10       # the card kept from the window
    PH_ORDER = 11           # free_order: what to resolve next (A-ORDER-4)
    PH_OVER = 12            # terminal

# Chance events (s.chance while phase == PH_CHANCE), A-CHANCE-1
cdef enum:
    CK_NONE = 0
    CK_WONDER = 1           # CH1: the wonder of seat s.n_assigned
    CK_TOP = 2              # CH2/CH4/CH9: the new top of wonder deck s.chance_deck
    CK_ROW = 3              # CH3/CH7: a face-up token turned from the stack
    CK_CENTRAL = 4          # CH5: the card a take from C gets
    CK_LOOK = 5             # CH6: the central top a cat holder looks at
    CK_BLIND = 6            # CH7: the stack top taken unseen
    CK_WINDOW = 7           # CH8: a card of a Halicarnassus window

# Pending draws (s.draw): a chance event that must come before anything else.  With sampled
# chance the engine makes these draws at once (take, begin_turn, apply_decision: the draws
# the driver's next step would make), so only explicit chance or a position given as data
# holds one.
cdef enum:
    DR_NONE = 0
    DR_CENTRAL = 1          # a take from C whose top the state does not fix
    DR_LOOK = 2             # the cat holder's look at the start of a turn
    DR_BLIND = 3            # a progress token taken from the stack, unseen

# Tasks (s.task): a step in progress that comes before the canonical order
cdef enum:
    TK_NONE = 0
    TK_MAIN = 1             # the main pick of the turn is still to be made
    TK_TOKEN = 2            # a progress token is to be taken (after a set, or Babylon)
    TK_PAY = 3              # stage s.stage_sel is chosen: pay it
    TK_ALEX = 4             # Alexandria's power
    TK_EPHESUS = 5          # Ephesus's power
    TK_OLY_LEFT = 6         # Olympia's power: the left deck's top
    TK_OLY_RIGHT = 7        # Olympia's power: the right deck's top
    TK_HALI_DECK = 8        # Halicarnassus's power: choose the deck
    TK_HALI_KEEP = 9        # Halicarnassus's window: drawn (s.hali_need left), then keep one
    TK_SET = 10             # free_order: a set was chosen as the next item
    TK_BUILD = 11           # free_order: a build was chosen as the next item
    TK_PICK = 12            # free_order: the first pending pick was chosen as the next item

# Rule options (flags of ArchState.options, A-OPT)
cdef enum:
    OP_EXPLICIT_CHANCE = 1      # chance nodes are shown to the caller, not sampled
    OP_FREE_ORDER = 2           # A-ORDER-4
    OP_ECONOMY_OPTIONAL = 4     # economy_forces_build = false (A-BUILD-8)
    OP_ENGINEERING_ONCE = 8     # engineering_once_per_turn (A-BUILD-9)
    OP_COINS_WHEN_NEEDED = 16   # coins_only_when_needed (A-BUILD-6)
    OP_POWER_OPTIONAL = 32      # wonder_power_optional (A-WON-8)

# One seat: its wonder, tableau and tokens.
ctypedef struct ArchSeat:
    u8 tab[14]              # cards of each kind in the tableau (A-CARD), 0..60
    u8 tok[14]              # progress tokens owned per type (Culture 0..2, others 0..1)
    u8 wonder               # 0..6 (AR_NONE before the wonder is dealt, A-SETUP-2)
    u8 built                # bit s: stage S(s+1) built (A-BUILD), 0..31
    u8 mvt                  # military victory tokens (A-MIL, unlimited supply A-SETUP-8)
    u8 _pad

# One deck: the visible (or known) top card and the cards under it.
ctypedef struct ArchDeck:
    u8 cnt[14]              # cards under the top, per kind (order is hidden, A-INFO-4)
    u8 top                  # the top card's kind: face up on a wonder deck; on C only when
                            #   a cat holder looked at it (A-CAT-4); AR_NONE otherwise
    u8 n                    # cards in the deck, top included (0..60)

ctypedef struct ArchState:
    u64 rng                 # splitmix64 state for sampled chance (A-CHANCE)
    ArchSeat p[7]
    ArchDeck d[8]           # d[i]: wonder deck D_i of seat i (i < n_players); d[7]: central
    u8 discard[14]          # the discard pile per kind (A-SETUP-5)
    u8 row[14]              # face-up progress tokens per type (0..2, at most 3 in all)
    u8 stack[14]            # the face-down stack per type
    u8 gone[14]             # tokens a study left out of the game (treatment), per type
    u8 win[14]              # the open Halicarnassus window per kind (A-WON-5)
    u8 pend[6]              # the pending list: extra-card token types, first in first out
    u8 n_pend               # items on the pending list (0..6)
    u8 n_players            # 2..7
    u8 n_assigned           # seats whose wonder is dealt (A-SETUP-2), 0..n_players
    u8 forced[7]            # wonder given to each seat by the caller, AR_NONE: at random
    u8 active               # the seat whose turn it is
    u8 phase                # PH_*
    u8 chance               # CK_* at a chance node, else CK_NONE
    u8 chance_deck          # deck of a CK_TOP / CK_WINDOW event
    u8 task                 # TK_*
    u8 draw                 # DR_*
    u8 stage_sel            # stage chosen (TK_PAY), AR_NONE otherwise
    u8 arch_due             # 1: Architecture goes on the pending list once the power is done
    u8 hali_deck            # deck of the Halicarnassus window (AR_NONE: none)
    u8 hali_need            # window cards still to draw (0..4)
    u8 eco_declined         # economy_forces_build off: an Economy-only stage was left
    u8 eng_used             # engineering_once_per_turn: Engineering relaxed a stage
    u16 used                # bit t: token type t used this turn (A-TOK-2)
    u8 knowers              # bit i: seat i looked at C's top while it stayed on top (A-CAT-4)
    u8 cat                  # the cat's holder, AR_NONE: the middle (A-SETUP-9)
    u8 turned               # conflict tokens on the battle side (A-MIL-2)
    u8 conflict             # conflict tokens in play (A-SETUP-7)
    u8 battle               # 1: a battle is pending for the end of this turn (A-MIL-2)
    u8 options              # OP_*
    u8 winner_mask          # terminal: bit per winning seat (A-END-4)
    u8 n_row                # face-up tokens (sum of row), 0..3
    u8 n_stack              # tokens in the stack (sum of stack), 0..12
    u8 reveal               # bit d: wonder deck d's new top is to be revealed (derived:
                            #   no top, cards left, not the deck of an open window)
    u8 _pad2
    u16 turns               # turns begun so far
    u16 n_moves             # decisions applied so far (not automatic steps, not chance)

# The state API (all nogil, no allocation).  `out` buffers hold AR_MAX_LEGAL ints.
cdef void ar_init(ArchState* s, int players, u64 seed, int options) noexcept nogil
cdef void ar_advance(ArchState* s) noexcept nogil
cdef int ar_settle(ArchState* s, int* out) noexcept nogil
cdef int ar_legal(const ArchState* s, int* out) noexcept nogil
cdef bint ar_is_legal(const ArchState* s, int a) noexcept nogil
cdef void ar_apply(ArchState* s, int a) noexcept nogil
cdef int ar_chance_outcomes(const ArchState* s, int* out, double* prob) noexcept nogil
cdef int ar_sample_chance(ArchState* s, u64* rng) noexcept nogil
cdef void ar_scores(const ArchState* s, int* vp) noexcept nogil
cdef int ar_winners(const ArchState* s) noexcept nogil
cdef int ar_shields(const ArchState* s, int seat) noexcept nogil
cdef int ar_state_check(const ArchState* s) noexcept nogil
