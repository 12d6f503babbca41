"""Deck Town on the game kit: Zark City's implementation with Deck Town's Ruleset,
Decktet card names and faces, and its own help (rules.md 14; docs/notation.md "Deck Town")."""

from __future__ import annotations

from collections.abc import Mapping

from ..interface import Card, GameInfo, MoveKind
from ..zarkcity import picture as zark_picture
from ..zarkcity import views
from ..zarkcity.game import KINDS, ZarkCity
from .cards import CARDS, SUIT_NAMES
from .picture import STYLE, corner_rank, suit_list, symbols
from .ruleset import DECK_TOWN, DECK_TYPE

INFO = GameInfo(
    id="decktown",
    name="Deck Town",
    player_counts=(2, 3, 4, 5),
    options=(),
    summary="Zark City with a Decktet: build a town of cards and be the first to control a poker block.",
    hidden_information=True,
    rules_version=DECK_TOWN.version,
    has_hands=True,
    board_hint="Hover a card for its pieces.",
    chance="the deal and every draw",
    reasons=("poker block", "tie", "resignation", "timeout", "draw"),
    movers_words={"choose": "Choosing starters"},
)

HELP = (
    ("choose 6MW", "commit a starter card (a number card, 2-9), face down, at the start"),
    ("place 1,0", "first round: hatch your starter at that cell with a small"),
    ("draw", "take three more cards (there is no draw at the start of a turn)"),
    ("grow S 1,0", "grow your small on 1,0 to a medium"),
    ("spawn 1,0", "add a small to a card you occupy"),
    ("build 7ML -1,0", "build a number card from your hand beside a card you control"),
    ("move S 0,0 1,0", "move your small to the adjacent card"),
    ("demolish blue M 1,0 pay CMWK", "remove blue's medium, paying with a Crown (3), Courts (2) or Pawns (1)"),
    (
        "demolish blue S 1,0 pay KM draw 1",
        "overpaid pips may come back as cards, one a pip: all of them unless you end with draw 0, draw 1, ...",
    ),
    (
        "convert blue M 1,0 into M pay CMWK",
        "also replace it with your own piece of the same size (every paid card shares a suit with the attacked card)",
    ),
    ("fly 2,0 0,1 pay AM", "move a card you occupy, with its pieces, paying an Ace"),
    ("hatch 6MW 0,1", "with no pieces on the board: build a card and put a small on it"),
    ("discard 3SK 4MS", "end of turn: discard down to the hand limit of 5"),
)

RULES = (
    "On your turn take one option: draw three, grow, spawn, build beside a card you control, move,"
    " attack with Crowns (3 pips), Courts (2) and Pawns (1) (you may draw a card for each pip overpaid),"
    " fly a card with an Ace, or hatch."
    " Control a poker block to win: a connected straight flush of four or more cards sharing a suit,"
    " or three connected cards of one rank sharing no suit. Discard down to 5 cards at the end of your turn."
)

_KIND_LABELS = {"place": "Hatch your starter"}


class DeckTown(ZarkCity):
    """Deck Town: the shared Zark City family code under DECK_TOWN's rules."""

    info = INFO
    ruleset = DECK_TOWN
    KINDS = tuple(MoveKind(k.verb, _KIND_LABELS.get(k.verb, k.label), k.quick) for k in KINDS)
    HELP = HELP
    RULES = RULES

    def deck_type(self, options: Mapping[str, str]) -> str:
        self.info.check_options(options)  # Deck Town has no options: this refuses any given
        return DECK_TYPE

    def deck_options(self, deck_type: str) -> dict[str, str]:
        return {}  # one deck, no options

    def card(self, code: str) -> Card:
        return card(code)

    def card_style(self, view: views.ZarkCityView) -> zark_picture.CardStyle:
        return STYLE


def card(code: str) -> Card:
    """ "Lunatic 6☾≈" / "Lunatic (6 of Moons and Waves)"; "Huntress ☾" / "Huntress (Crown of Moons, 3 pips)"."""
    info = CARDS.get(code)
    if info is None:
        return Card(code=code, label=code, name=code)
    css = SUIT_NAMES[info.suits[0]].lower()
    if info.is_ace:
        return Card(code=code, label=f"Ace {symbols(code)}", name=info.name, css=css)
    if info.is_number:
        label = f"{info.name} {corner_rank(code)}{symbols(code)}"
        return Card(code=code, label=label, name=f"{info.name} ({info.number} of {suit_list(code)})", css=css)
    pips = "1 pip" if info.pips == 1 else f"{info.pips} pips"
    name = f"{info.name} ({info.rank} of {suit_list(code)}, {pips})"
    return Card(code=code, label=f"{info.name} {symbols(code)}", name=name, css=css)


GAME = DeckTown()
