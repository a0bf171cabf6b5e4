# Sizes and enums shared by every module of the Duel core (one place, so they cannot drift);
# the fixed-width typedefs are every game's (duelcore/common/types.pxd).
from duelcore.common.types cimport u8, i8, i16, u16, u32, i32, u64

cdef enum:
    NUM_CARDS = 73          # 66 Age cards + 7 guilds (card ids 0..72)
    NUM_AGE_CARDS = 66
    FIRST_GUILD = 66
    NUM_GUILDS = 7
    NUM_WONDERS = 12
    NUM_TOKENS = 10
    NUM_SLOTS = 20          # cards laid out per Age (R-SETUP-6)
    NUM_RES = 5             # wood, clay, stone, glass, papyrus
    NUM_COLOURS = 7         # brown, grey, blue, green, yellow, red, purple
    NUM_SYMBOLS = 7         # six card symbols + law
    NO_CARD = 255
    MAX_LEGAL = 256         # upper bound on legal actions / chance outcomes at any node

# Resources, colours, symbols (same order as duelcore.duel.data)
cdef enum:
    WOOD = 0
    CLAY = 1
    STONE = 2
    GLASS = 3
    PAPYRUS = 4

cdef enum:
    BROWN = 0
    GREY = 1
    BLUE = 2
    GREEN = 3
    YELLOW = 4
    RED = 5
    PURPLE = 6

cdef enum:
    SYM_LAW = 6

# Progress token ids (same order as duelcore.duel.data.TOKENS)
cdef enum:
    TK_AGRICULTURE = 0
    TK_ARCHITECTURE = 1
    TK_ECONOMY = 2
    TK_LAW = 3
    TK_MASONRY = 4
    TK_MATHEMATICS = 5
    TK_PHILOSOPHY = 6
    TK_STRATEGY = 7
    TK_THEOLOGY = 8
    TK_URBANISM = 9

# Action layout: an action is an int in [0, NUM_ACTIONS).  Decision actions first, then
# chance outcomes.  c = card id (0..72), w = wonder id (0..11), t = token id (0..9).
cdef enum:
    DRAFT_BASE = 0          # + w        : pick wonder w in the draft (R-SETUP-5)
    BUILD_BASE = 12         # + c        : take card c and build it (R-BUILD)
    DISCARD_BASE = 85       # + c        : take card c and discard it for coins (R-DISCARD)
    WONDER_BASE = 158       # + w*73 + c : take card c and build wonder w with it (R-WONDER)
    TOKEN_BASE = 1034       # + t        : choose progress token t (pair R-SCI-2, or Great Library)
    DESTROY_BASE = 1044     # + c        : put the opponent's card c into the discard pile
    REVIVE_BASE = 1117      # + c        : build card c from the discard pile (The Mausoleum)
    START_BASE = 1190       # + player   : choose who begins the next Age (R-AGE-3)
    NUM_DECISION_ACTIONS = 1192
    CHANCE_FIRST_BASE = 1192    # + player : who is P1 (R-SETUP-4)
    CHANCE_WONDER_BASE = 1194   # + w      : a wonder revealed for the draft
    CHANCE_TOKEN_BASE = 1206    # + t      : a progress token laid on the board / drawn for the Great Library
    CHANCE_CARD_BASE = 1216     # + c      : the identity of a card turned face up
    CHANCE_SLOT_BASE = 1289     # + slot   : a guild back placed in the Age III layout (R-CHANCE-2)
    NUM_ACTIONS = 1309

# Phases (what the node is waiting for)
cdef enum:
    PH_SETUP_FIRST = 0      # chance: who is P1
    PH_SETUP_TOKENS = 1     # chance: the 5 board tokens, one at a time
    PH_DRAFT_REVEAL = 2     # chance: a wonder revealed for the draft
    PH_DRAFT = 3            # decision: pick a wonder
    PH_REVEAL = 4           # chance: a card of the layout turned face up (dealing or reveal)
    PH_PLAY = 5             # decision: take a card (build / discard / wonder)
    PH_TOKEN = 6            # decision: choose a board token after a pair
    PH_DESTROY = 7          # decision: choose the opponent's brown/grey card to discard
    PH_REVIVE = 8           # decision: choose a discard-pile card to build (The Mausoleum)
    PH_LIBRARY_DRAW = 9     # chance: a set-aside token drawn for The Great Library
    PH_LIBRARY = 10         # decision: keep one of the drawn tokens
    PH_START = 11           # decision: who begins the next Age
    PH_OVER = 12            # terminal
    PH_GUILDS = 13          # chance: the 3 guild backs placed in the Age III layout (R-CHANCE-2)

# Outcome
cdef enum:
    VICTORY_NONE = 0
    VICTORY_CIVILIAN = 1
    VICTORY_MILITARY = 2
    VICTORY_SCIENTIFIC = 3
    VICTORY_SHARED = 4
    WINNER_NONE = 2         # `winner` field when shared or not over

# Pending choices granted by an action (flags of GameState.pend)
cdef enum:
    PEND_TOKEN = 1
    PEND_DESTROY_BROWN = 2
    PEND_DESTROY_GREY = 4
    PEND_REVIVE = 8
    PEND_LIBRARY = 16

# Rule options (flags of GameState.options)
cdef enum:
    OPT_CENTRED_BEGINS = 1      # seed 000: centred pawn -> the last player begins (R-AGE-3)
    OPT_EXPLICIT_CHANCE = 2     # chance nodes are shown to the caller instead of sampled

# Victory-point categories of the result breakdown
cdef enum:
    VP_BLUE = 0
    VP_GREEN = 1
    VP_YELLOW = 2
    VP_PURPLE = 3
    VP_WONDERS = 4
    VP_TOKENS = 5
    VP_COINS = 6
    VP_MILITARY = 7
    NUM_VP = 8
