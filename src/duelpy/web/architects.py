"""7 Wonders Architects in the browser: a game against AI seats (2..7 players) and the replay
of Architects records.

Everything about the rules comes from the core (:mod:`duelcore.architects.engine`): the
legal decisions and their names, the stages a seat may build, the scores by category, the
battles, the cat.  This module only says what the person at seat ``human`` may see (A-INFO:
everything public, the central deck's top only if that seat looked at it as the cat's holder,
a Halicarnassus window only during its own decision) and keeps the log.

The AI seats decide one decision a search job, in the server's search threads, under the
game's stop token (the core's ``choose_action`` takes one), reading only what their seat may
see (the core's agents determinize the rest).
"""
from __future__ import annotations

import json
import secrets
from typing import Any

from duelcore.architects import data as _data
from duelcore.architects import engine as _core

from duelpy.architects.agents import parse_agent
from duelpy.architects.game import SETUP_KEYS, ArchitectsSetupError, new_game, resolve_wonder
from duelpy.architects.notation import parse_action
from duelpy.architects.records import RecordError, record_of, replay as replay_record
from duelpy.web.games import RecordReplay, Session, WebError, agent_label, table_opponent

__all__ = ["ArchGame", "ArchReplay", "arch_view", "arch_catalogue", "make_game", "VP_NAMES",
           "RULE_OPTIONS", "RULE_OPTIONS_DEFAULTS", "NUM_ACTIONS", "MAX_ITERATIONS",
           "KIND_TEXTS", "TOKEN_TEXTS", "POWER_TEXTS", "DECK_TEXTS", "STAGE_TEXTS"]

#: The score sheet's rows (A-END-3: the core's categories -> words).
VP_NAMES = {"wonder": "Wonder stages", "blue": "Blue cards", "military": "Military tokens",
            "cat": "The cat", "progress": "Progress tokens", "total": "Total"}
#: The rule options of A-OPT the page offers (the Python face's set-up keywords), with the
#: words of the form; their defaults are the core's.
RULE_OPTIONS = {
    "free_order": "You order the pending picks, sets and builds yourself (A-ORDER-4)",
    "economy_forces_build": "A stage that only Economy makes affordable must be built (A-BUILD-8)",
    "engineering_once_per_turn": "Engineering relaxes one stage per turn only (A-BUILD-9)",
    "coins_only_when_needed": "Pay with coins only when no grey card can (A-BUILD-6)",
    "wonder_power_optional": "Alexandria, Ephesus and Halicarnassus may decline their power "
                             "(A-WON-8)",
}
RULE_OPTIONS_DEFAULTS = {k: _core.RULE_DEFAULTS[k] for k in RULE_OPTIONS}
NUM_ACTIONS = _core.NUM_ACTIONS
MAX_ITERATIONS = 5_000          # an MCTS seat's budget here: under half a second a decision at
                                # 7 players; the search stops at once when the game is left
#: Why an Architects game has no undo: every take turns up a card that was hidden (the card
#: under a deck's top, A-INFO-4, or the central card), so going back would show the seat what
#: it may not know.
NO_UNDO = ("no undo in 7 Wonders Architects: each card taken turned up a hidden card (the "
           "next top), so going back would show you cards you may not see (A-INFO)")
_PHASE_TEXT = {"main": "take a card: your left deck, your right deck or the central deck",
               "pick": "an extra card (a progress token's): take one, or decline",
               "set": "which science set to complete", "token": "a progress token",
               "stage": "which wonder stage to build", "pay": "how to pay for the stage",
               "alexandria": "Alexandria: the deck to take a card from",
               "ephesus": "Ephesus: use the power or not",
               "hali_deck": "Halicarnassus: the deck to search",
               "hali_keep": "Halicarnassus: the card to keep",
               "order": "what to resolve next", "chance": "chance", "over": "the game is over"}


# ---------------------------------------------------------------- the rule texts of the sheet
# What a tap on a card, a token, a wonder stage or a deck shows on the page (a phone has no
# hover). Words only, from the rules digest RULES-ARCH.md: each entry is (text, the rule ids
# it says). Nothing here decides anything; the core plays the rules.
_GREY = ("A grey resource card: one {0}. Its only use is to pay for a wonder stage; a card "
         "paid goes to the discard pile. Left unused, it scores nothing.")
_GREEN = ("A green card: the science symbol {0}. A science set is 2 green cards with the same "
          "symbol, or 3 with three different symbols. During your turn, as soon as you hold a "
          "set and a progress token is left to take, you must discard the set's cards and "
          "take a progress token (a face-up one, or the top of the stack unseen). Green cards "
          "not used in a set score nothing.")
_BATTLE = ("In a battle, with 3 or more players you take a military victory token (3 VP) for "
           "each of your two neighbours who has fewer shields than you; with 2 players, more "
           "shields than your opponent earn 1 token, and at least twice as many (and at least "
           "2) earn 2. A tie earns nothing.")
_BATTLE_RULES = ("A-MIL-1", "A-MIL-4", "A-MIL-5", "A-MIL-7")
_HORNS = ("A red card: 1 shield and {0}. Taking it turns {1} to the battle side (only the "
          "tokens still on the peace side turn; a horn beyond them is lost, and while a battle "
          "is already due horns turn nothing). When the last conflict token turns, a battle is "
          "fought at the end of that turn. After the battle every card with horns is "
          "discarded and the conflict tokens go back to peace. ")
#: What each card kind does (A-CARD; the cat A-CAT; science A-SCI; battles A-MIL).
KIND_TEXTS: dict[str, tuple[str, tuple[str, ...]]] = {
    **{r: (_GREY.format(r), ("A-CARD-1", "A-BUILD-3"))
       for r in ("wood", "stone", "clay", "glass", "papyrus")},
    "coin": ("A yellow card: one coin, a wild resource when you pay for a wonder stage. For a "
             "stage of identical resources it stands for the kind of the other cards paid (a "
             "stage may be paid with coins alone); for a stage of different resources, for a "
             "kind no other card of the payment has. Paid coins go to the discard pile; unused "
             "ones score nothing.", ("A-CARD-2", "A-BUILD-3")),
    "blue3": ("A blue card: 3 VP at the end of the game. Blue cards stay in your tableau to "
              "the end.", ("A-CARD-3", "A-END-3")),
    "blue2cat": ("A blue card: 2 VP at the end of the game, and a cat icon. When you take it "
                 "the cat pawn comes to you at once, from the middle of the table or from "
                 "another player. Whoever holds the cat at the start of their turn looks "
                 "secretly at the top card of the central deck, and the cat is worth 2 VP to "
                 "its holder at the end. Blue cards stay to the end.",
                 ("A-CARD-3", "A-CAT-1", "A-CAT-2", "A-CAT-3")),
    **{s: (_GREEN.format(s), ("A-CARD-4", "A-SCI-1", "A-SCI-2", "A-SCI-3", "A-SCI-4"))
       for s in ("tablet", "gear", "compass")},
    "red0": ("A red card: 1 shield and no horn. It stays to the end and counts in every "
             "battle. Red cards score no VP themselves. " + _BATTLE,
             ("A-CARD-5",) + _BATTLE_RULES),
    "red1": (_HORNS.format("1 horn", "1 conflict token") + _BATTLE,
             ("A-CARD-5", "A-MIL-2", "A-MIL-3", "A-MIL-6") + _BATTLE_RULES),
    "red2": (_HORNS.format("2 horns", "2 conflict tokens") + _BATTLE,
             ("A-CARD-5", "A-MIL-2", "A-MIL-3", "A-MIL-6") + _BATTLE_RULES),
}
_EXTRA = ("you may take the top card of one of your three decks (left, right or central) "
          "that still holds a card. The pick is optional: declined, the token stays unused "
          "and a later trigger in the same turn may offer it again. It acts at most once per "
          "turn, and only on what happens after you took it.")
_EXTRA_RULES = ("A-TOK-2", "A-TOK-3", "A-TOK-4", "A-WON-9")
_TAKES = "Each time you take {0} (by any pick or power), "
#: What each progress token does (A-TOK; the data table "Progress tokens"; scoring A-END-3).
TOKEN_TEXTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Architecture": ("Each time you build a wonder stage, " + _EXTRA, _EXTRA_RULES),
    "Crafts": (_TAKES.format("a glass or a papyrus card") + _EXTRA, _EXTRA_RULES),
    "Culture": ("At the end of the game: 4 VP if you own one Culture token, 12 VP if you own "
                "both (two of the 15 tokens are Culture).", ("A-TOK-1", "A-END-3")),
    "Decor": ("At the end of the game: 6 VP if your wonder is complete (all 5 stages built), "
              "4 VP otherwise.", ("A-TOK-1", "A-END-3")),
    "Economy": ("Once per turn, one coin card in a payment counts as 2 coins. The doubling "
                "counts when checking whether a stage is affordable, so a stage that only it "
                "makes affordable must be built (unless the rule option "
                "economy_forces_build is off). You never have to double a coin where a plain "
                "coin pays as well.", ("A-BUILD-8", "A-TOK-2")),
    "Education": ("At the end of the game: 2 VP for each progress token you own, this one and "
                  "each Culture included.", ("A-TOK-1", "A-END-3")),
    "Engineering": ("Your wonder stages may be paid with any cards of the right total value, "
                    "whether the stage asks for different or for identical resources. It "
                    "works on every stage you build (the rule option "
                    "engineering_once_per_turn limits it to one stage a turn).",
                    ("A-BUILD-9",)),
    "Jewellery": (_TAKES.format("a stone or a coin card") + _EXTRA, _EXTRA_RULES),
    "Politics": ("At the end of the game: 1 VP for each cat icon on your blue cards (each of "
                 "your blue2cat cards; the cat pawn does not count).", ("A-TOK-1", "A-END-3")),
    "Propaganda": (_TAKES.format("a red card with horns (red1 or red2)") + _EXTRA,
                   _EXTRA_RULES),
    "Science": (_TAKES.format("a green card (tablet, gear or compass)") + _EXTRA,
                _EXTRA_RULES),
    "Strategy": ("At the end of the game: 1 VP for each military victory token you own.",
                 ("A-TOK-1", "A-END-3")),
    "Tactics": ("+2 shields in every battle, from the moment you take it.",
                ("A-TOK-2", "A-MIL-1")),
    "Urbanism": (_TAKES.format("a wood or a clay card") + _EXTRA, _EXTRA_RULES),
}
#: Each wonder's power, on the stages of ``POWER_STAGES`` (A-WON-1..7): (the monument, text,
#: rule ids).
POWER_TEXTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "Alexandria": ("The Lighthouse", "Take the top card of any deck on the table, of your "
                   "choice: any wonder deck in play, next to you or not, or the central deck "
                   "(nothing if every deck is empty).", ("A-WON-1",)),
    "Babylon": ("The Hanging Gardens", "Take a progress token: one of the face-up tokens, or "
                "the top of the stack without seeing it first (nothing if none is left).",
                ("A-WON-2", "A-SCI-4")),
    "Ephesus": ("The Temple of Artemis", "Take the top card of the central deck (nothing if it "
                "is empty).", ("A-WON-3",)),
    "Giza": ("The Great Pyramid", "No power: its stages are worth more VP instead (30 in "
             "all).", ("A-WON-4",)),
    "Halicarnassus": ("The Mausoleum", "Choose your left or your right deck (one that holds "
                      "cards) and take its top 5 cards (all of them if it holds fewer). Keep "
                      "one: it counts as taken. The others go back into that deck, which is "
                      "shuffled, and its new top card is turned face up. Only you see the "
                      "cards put back.",
                      ("A-WON-5",)),
    "Olympia": ("The Statue of Zeus", "Take the top card of your left deck, then the top card "
                "of your right deck (an empty deck is skipped).", ("A-WON-6",)),
    "Rhodes": ("The Colossus", "+1 shield for the rest of the game: it counts in every later "
               "battle and is never discarded.", ("A-WON-7", "A-MIL-1")),
}
_POWER_NOTE = ("A power applies at once when its stage is built. A card it brings is taken in "
               "every sense: it turns up the next top card, brings the cat, turns conflict "
               "tokens and can set off your progress tokens. Powers are compulsory (the rule "
               "option wonder_power_optional lets Alexandria, Ephesus and Halicarnassus "
               "decline).", ("A-BUILD-7", "A-WON-8", "A-WON-9"))
#: The stages in general and their two kinds of cost (A-BUILD).
STAGE_TEXTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "different": ("Paid with resources of different kinds, no two alike; each coin stands "
                  "for a kind missing from the payment.", ("A-BUILD-1", "A-BUILD-3")),
    "identical": ("Paid with resources all of one kind; coins stand for that kind (coins "
                  "alone pay too).", ("A-BUILD-1", "A-BUILD-3")),
    "build": ("A stage can be built once the stages under it on the tray are built. During "
              "your turn, whenever one of those stages is affordable you must build one (after "
              "your extra picks and science sets); you choose which and how to pay, the cards "
              "paid are discarded, and its VP count at the end. The game ends at the end of "
              "the turn in which a player builds their fifth stage.",
              ("A-BUILD-2", "A-BUILD-5", "A-BUILD-6", "A-BUILD-7", "A-ORDER-1", "A-END-1")),
    "power": _POWER_NOTE,
}
_DECK_TAKE = ("Its top card is face up for everyone; when you take it, it goes into your "
              "tableau and the next card is turned face up.")
#: What the decks are and what taking from them means (A-SETUP-3, -4; A-TURN-3; the cat's
#: look A-CAT-3, -4).
DECK_TEXTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "take": ("On your turn you must take the top card of one of your three decks that still "
             "hold a card: your left deck, your right deck or the central deck. An empty deck "
             "stays empty to the end of the game.", ("A-TURN-3", "A-TURN-5")),
    "left": ("Your own wonder's deck, face up between you and your left neighbour, who shares "
             "it as their right deck (with 2 players, your opponent). " + _DECK_TAKE,
             ("A-SETUP-3", "A-ARR-1", "A-TWO-1")),
    "right": ("Your right neighbour's wonder deck, face up between them and you; it is their "
              "left deck (with 2 players, your opponent's own deck). " + _DECK_TAKE,
              ("A-SETUP-3", "A-ARR-1", "A-TWO-1")),
    "central": ("Face down, shared by every player: taking from it gives you its top card "
                "without seeing it first, unless you looked at it. Whoever holds the cat looks "
                "secretly at its top card at the start of each of their turns (they need not "
                "take it), and keeps knowing that card while it stays on top, even after the "
                "cat has moved on; several players may know it at once.",
                ("A-SETUP-4", "A-CAT-3", "A-CAT-4", "A-INFO-2")),
    "other": ("The wonder deck between two other players, face up. It is not one of your "
              "three decks: only Alexandria's power can take its top card.",
              ("A-TURN-3", "A-WON-1")),
}


def _rule_order(rule: str) -> tuple[str, int]:
    head, _, k = rule.rpartition("-")
    return head, int(k)


def _text(entry: tuple[str, tuple[str, ...]]) -> dict:
    text, rules = entry
    return {"text": text, "rules": sorted(set(rules), key=_rule_order)}


def arch_texts() -> dict:
    """The sheet's texts (see :data:`KIND_TEXTS` and the others) as the page receives them:
    ``{"text", "rules"}`` for each card kind (with the extra-card tokens it sets off, from
    the data table, A-TOK-3), token, deck and stage topic, and each wonder's power with its
    monument and power stages (A-WON)."""
    kinds = {}
    for k in _data.KINDS:
        kinds[k] = {**_text(KIND_TEXTS[k]), "colour": _data.COLOURS[k],
                    "sets_off": [t for t, ks in _data.EXTRA_CARD_TRIGGERS.items() if k in ks]}
    powers = {}
    for w in _data.WONDERS:
        title, text, rules = POWER_TEXTS[w]
        powers[w] = {"title": title, **_text((text, rules)),
                     "stages": list(_data.POWER_STAGES[w])}
    return {"kinds": kinds, "tokens": {t: _text(TOKEN_TEXTS[t]) for t in _data.TOKENS},
            "powers": powers, "decks": {d: _text(e) for d, e in DECK_TEXTS.items()},
            "stages": {s: _text(e) for s, e in STAGE_TEXTS.items()}}


def arch_catalogue() -> dict:
    """What the page needs to draw Architects: the card kinds and their colours, the
    wonders' stages (cost, VP, power, prerequisites), the tokens, the score rows, the rule
    options (all from the core's data tables), and the texts a tap shows in the page's sheet
    (:func:`arch_texts`: card kinds A-CARD, tokens A-TOK, powers A-WON, decks A-TURN-3 and
    the cat's look A-CAT-3)."""
    wonders = {}
    for w in _data.WONDERS:
        wonders[w] = [{"stage": s, "units": _data.STAGE_COSTS[k][0],
                       "identical": _data.STAGE_COSTS[k][1], "vp": _data.STAGE_VP[w][k],
                       "power": s in _data.POWER_STAGES[w],
                       "needs": list(_data.PREREQUISITES[w][k])}
                      for k, s in enumerate(_data.STAGES)]
    return {"kinds": list(_data.KINDS), "colours": dict(_data.COLOURS), "wonders": wonders,
            "tokens": list(_data.TOKENS), "vp_names": VP_NAMES, "texts": arch_texts(),
            "rule_options": [{"name": k, "text": t, "default": _core.RULE_DEFAULTS[k]}
                             for k, t in RULE_OPTIONS.items()]}


# ---------------------------------------------------------------- what a seat may see
def seat_names(players: int, human: int | None, agents: list) -> list[str]:
    """The seats' names: "You", the AI seats by their friendly label."""
    out = []
    for i in range(players):
        if human is not None and i == human:
            out.append("You")
        else:
            a = agents[i] if agents and i < len(agents) else None
            out.append(f"P{i + 1} · {agent_label(a)}" if a else f"P{i + 1}")
    return out


def _seat(state, i: int, names: list[str], human: int | None, scores: list[dict]) -> dict:
    built = state.stages(i)
    avail = set(state.available_stages(i))
    w = state.wonder(i)
    stages = []
    for k, s in enumerate(_data.STAGES):
        units, identical = _data.STAGE_COSTS[k]
        stages.append({"stage": s, "built": s in built, "available": s in avail,
                       "units": units, "identical": identical,
                       "vp": _data.STAGE_VP[w][k] if w else None,
                       "power": bool(w) and s in _data.POWER_STAGES[w]})
    tab = state.tableau(i)
    left, right, _ = state.deck_of(i)
    return {"seat": i, "name": names[i], "you": i == human, "wonder": w, "stages": stages,
            "tableau": {k: tab.get(k, 0) for k in _data.KINDS if tab.get(k)},
            "tokens": state.tokens(i), "shields": state.shields(i),
            "military_tokens": state.military_tokens(i), "cat": state.cat == i,
            "vp": scores[i], "left_deck": left, "right_deck": right}


def arch_view(state, *, human: int | None, names: list[str], moves: bool = True) -> dict:
    """The position as the page draws it, for the person at seat ``human`` (None: a replay,
    where the record holds the whole game and everything is shown).

    The central deck's top is in ``central.top`` only if ``human`` looked at it as the
    cat's holder (``state.central_top(human)``, A-INFO-2); a Halicarnassus window only
    during ``human``'s own decision (A-INFO-3); nothing else of the state is hidden.
    """
    n = state.players
    over = state.is_terminal()
    scores = state.scores()
    seats = [_seat(state, i, names, human, scores) for i in range(n)]
    decks = [{"deck": d, "size": state.deck_size(d),
              "top": state.deck_top(d) if state.deck_size(d) else None,
              "between": [d, (d + 1) % n]} for d in range(n)]      # wonder decks: tops public
    central = {"size": state.deck_size(_core.CENTRAL), "looked": state.knowers(),
               "top": state.central_top(human) if state.deck_size(_core.CENTRAL) else None}
    active = None if over else state.active
    mine = not over and human is not None and active == human
    window = state.window() if (human is None or mine) else {}
    in_play, turned, battle = state.conflict()
    view: dict[str, Any] = {
        "game": "architects", "players": n, "phase": state.phase, "active": active,
        "phase_text": _PHASE_TEXT.get(state.phase, state.phase), "turn": state.turns,
        "n_decisions": state.moves, "seats": seats, "decks": decks, "central": central,
        "row": state.row(), "stack": sum(state.stack().values()),
        "conflict": {"in_play": in_play, "turned": turned, "battle": battle},
        "cat": state.cat, "discard": state.discard(), "pending": state.pending(),
        "used": state.used(), "stage_choice": state.stage_choice, "window": window,
        "options": {k: v for k, v in state.options.items() if v != _core.RULE_DEFAULTS[k]},
        "removed_tokens": state.removed_tokens(),
        "decisions": [], "result": None,
    }
    if moves and mine:
        view["decisions"] = [{"id": a, "text": state.action_to_string(a)}
                             for a in state.legal_actions()]
    if over:
        view["result"] = {"winners": state.winners(), "scores": scores,
                          "ranking": state.ranking()}
    return view


def _choose(state, agent: str, seed: int, stop) -> tuple | None:
    """Run in a search thread: the AI seat's decision ``(seat, action, agent)``, or None if
    the game's stop token was set (its result is then void)."""
    if stop.is_set:
        return None
    seat = state.active
    a = _core.choose_action(state, agent, seed, stop=stop)
    if stop.is_set:
        return None
    return seat, a, agent


class ArchGame(Session):
    """A 7 Wonders Architects game in the browser: the person at seat ``human``, an agent at
    every other seat.

    Attributes: ``state``, ``moves`` (``(seat, action)`` in order: the record's body),
    ``history`` (the position before each move and the one now), ``log`` (one entry per
    decision, with what it did that every seat sees).
    """

    game_name = "architects"

    def __init__(self, gid: str, players: int, human: int, agents: list[str | None], seed: int,
                 setup: dict):
        super().__init__(gid)
        self.players = players
        self.human = human
        self.agents = agents
        self.seed = seed
        self.setup = setup
        self.state = new_game(players, seed, **setup)
        self.names = seat_names(players, human, agents)
        self.moves: list[tuple[int, int]] = []
        self.history = [self.state.clone()]
        self.log: list[dict] = []
        self.label = ", ".join(sorted({agent_label(a) for a in agents if a}))
        self.no_undo = NO_UNDO

    # ---- the AI
    def ai_due(self) -> bool:
        st = self.state
        return not st.is_terminal() and st.active != self.human

    def ai_job(self) -> tuple:
        st = self.state
        seed = (self.seed * 1_000_003 + len(self.moves) * 17 + st.active) % 2 ** 63
        return _choose, (st.clone(), self.agents[st.active], seed, self.stop)

    def ai_apply(self, done) -> None:
        seat, a, agent = done
        st = self.state
        if st.is_terminal() or st.active != seat or a not in st.legal_actions():
            raise RuntimeError(f"{agent} chose {a}, not a legal decision of P{seat + 1} here")
        self.apply(a, agent)

    def human_due(self) -> bool:
        st = self.state
        return not st.is_terminal() and st.active == self.human

    def apply(self, action: int, who: str) -> None:
        """Apply one decision of the active seat and log it with what it did (event loop
        only)."""
        before = self.state.clone()
        seat = before.active
        text = before.action_to_string(action)
        self.state.apply_action(action)
        self.moves.append((seat, action))
        self.history.append(self.state.clone())
        self.log.append({"n": len(self.log) + 1, "seat": seat, "name": self.names[seat],
                         "who": who, "id": action, "text": text, "turn": before.turns,
                         "events": self._events(before, self.state)})
        self.bump()

    def _events(self, before, after) -> list[str]:
        """What a decision did that every seat sees: cards gained, stages built, tokens,
        battles, the cat, the end."""
        out = []
        for i in range(after.players):
            who = self.names[i]
            t0, t1 = before.tableau(i), after.tableau(i)
            got = [f"{k}" + (f" ×{t1[k] - t0.get(k, 0)}" if t1[k] - t0.get(k, 0) > 1 else "")
                   for k in _data.KINDS if t1.get(k, 0) > t0.get(k, 0)]
            if got:
                out.append(f"{who}: takes {', '.join(got)}")
            new_st = [s for s in after.stages(i) if s not in before.stages(i)]
            if new_st:
                out.append(f"{who}: builds {', '.join(new_st)} of {after.wonder(i)}")
            k0, k1 = before.tokens(i), after.tokens(i)
            new_tok = [t for t in k1 if k1[t] > k0.get(t, 0)]
            if new_tok:
                out.append(f"{who}: gains the token {', '.join(new_tok)}")
            m0, m1 = before.military_tokens(i), after.military_tokens(i)
            if m1 != m0:
                out.append(f"{who}: {m1 - m0:+d} military token{'s' * (abs(m1 - m0) != 1)}")
        if after.cat != before.cat and after.cat is not None:
            out.append(f"the cat goes to {self.names[after.cat]}")
        if after.conflict()[1] < before.conflict()[1]:
            out.append("battle: the conflict tokens are turned back")
        if after.is_terminal():
            w = after.winners()
            out.append("the game ends: " + " and ".join(self.names[i] for i in w)
                       + (" win" if len(w) > 1 or w == [self.human] else " wins"))
        return out

    def view(self) -> dict:
        """The position for the person (see :func:`arch_view`) with the game's id, version,
        log, whether the AI is thinking and its seed."""
        v = arch_view(self.state, human=self.human, names=self.names)
        v.update(id=self.id, version=self.version, you=self.human, names=self.names,
                 opponent_label=self.label, thinking=self.thinking, paused=self.paused,
                 seed=str(self.seed), log=self.log, error=self.error,
                 n_moves=len(self.moves), budget={"seconds": None, "iterations": None},
                 can_undo=False, no_undo=self.no_undo)
        return v

    def record(self) -> dict:
        """The game record (the format ``duel play --game architects`` writes)."""
        agents = [a or "you" for a in self.agents]
        return record_of(self.players, self.seed, self.moves, setup=self.setup or None,
                         agents=agents, state=self.state)

    def record_file(self) -> tuple[str, str]:
        return (f"architects-game-{self.seed}-{len(self.moves)}.json",
                json.dumps(self.record(), indent=1) + "\n")

    def move(self, *, action=None, text=None, version=None) -> None:
        """The person's decision, by action id or by its name; WebError 400/409 otherwise
        (the game unchanged)."""
        st = self.state
        if version is not None and version != self.version:
            raise WebError(409, f"the game has moved on (version {self.version}, the move was "
                                f"made on version {version}): the page shows the game now")
        if st.is_terminal():
            raise WebError(409, "the game is over")
        if st.active != self.human:
            raise WebError(409, f"it is not your decision: {self.names[st.active]} is to play")
        legal = st.legal_actions()
        if text is not None:
            try:
                action = parse_action(st, text)
            except ValueError as e:
                raise WebError(400, f"move: {e}") from None
        if action not in legal:
            shown = ", ".join(st.action_to_string(a) for a in legal[:8])
            raise WebError(400, f"action {action} is not legal here (legal: {shown}"
                                f"{', ...' if len(legal) > 8 else ''})")
        self.apply(action, "you")
        self.error = None


def make_game(*, players: int, seat: int, opponent: str, seed: int | None,
              wonder: str | None = None, options: dict | None = None) -> ArchGame:
    """A new Architects game: the person at ``seat`` (1-based) with ``wonder`` (None: at
    random), ``opponent`` (an Architects agent description, MCTS at most
    :data:`MAX_ITERATIONS` iterations) at every other seat, the A-OPT ``options``.
    WebError 400 naming a bad value."""
    agent = table_opponent(players, seat, opponent, parse_agent, MAX_ITERATIONS)
    human = seat - 1
    setup: dict = {}
    if wonder is not None:
        try:
            setup["wonders"] = [resolve_wonder(wonder) if i == human else None
                                for i in range(players)]
        except ValueError as e:
            raise WebError(400, f"wonder: {e}") from None
    for k, v in (options or {}).items():
        if k not in RULE_OPTIONS or k not in SETUP_KEYS:
            raise WebError(400, f"{k!r} is not a rule option of 7 Wonders Architects "
                                f"(options: {', '.join(RULE_OPTIONS)})")
        if not isinstance(v, bool):
            raise WebError(400, f"{k} must be true or false, not {json.dumps(v)[:40]}")
        if v != _core.RULE_DEFAULTS[k]:
            setup[k] = v
    if seed is None:
        seed = secrets.randbelow(2 ** 32)
    agents = [None if i == human else agent for i in range(players)]
    try:
        return ArchGame(secrets.token_urlsafe(12), players, human, agents, seed, setup)
    except (ArchitectsSetupError, ValueError) as e:
        raise WebError(400, f"set-up: {e}") from None


# ---------------------------------------------------------------- replays
class ArchReplay(RecordReplay):
    """A loaded Architects record and its positions (everything shown: the record, seed and
    decisions, is the whole game)."""

    game_name = "architects"
    title = "7 Wonders Architects"

    def __init__(self, rid: str, data: dict):
        super().__init__(rid, data, replay_record, RecordError)

    def _start(self, data: dict):
        return new_game(data["players"], data["seed"], **data.get("setup", {}))

    def _apply(self, state, seat: int, action: int) -> None:
        state.apply_action(action)

    def _names(self, data: dict) -> list[str]:
        agents = data.get("agents") or []
        return [f"P{i + 1}" + (f" · {agents[i]}" if i < len(agents) and agents[i] else "")
                for i in range(data["players"])]

    def _view(self, state) -> dict:
        return arch_view(state, human=None, names=self.names, moves=False)

    def _move_extra(self, state) -> dict:
        return {"turn": state.turns}
