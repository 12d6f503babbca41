"""What a Zark City (or Deck Town) step did, as events written while the rules apply it.

The rules (rules.py, options.py through the Draft) record these as they go; the history, emails,
replay and API read them (engine/kit/events.py). Public lines are in the third person ("red drew
1 card"); the card a hidden step names is in the secret line, for its holder only.
"""

from __future__ import annotations

from ..kit.events import Event
from . import notation
from .notation import Move, cell_str
from .position import SIZE_NAMES
from .state import State


def chose(by: str, card: str) -> Event:
    """A starter goes down face down: its card is the chooser's secret until every starter is in."""
    return Event("choose", f"{by} chose a starter", by, {}, f"{by} chose {card}", {"card": card}, frozenset({by}))


def acted(move: Move, by: str, state: State) -> Event:
    """The step itself, before what follows from it (a change draw, the next turn); `state` is before it."""
    if isinstance(move, notation.Place):
        card = dict(state.starters)[by]
        return Event("place", f"{by} placed {card} at {cell_str(move.at)}", by, {"card": card, "at": list(move.at)})
    if isinstance(move, (notation.Grow, notation.Spawn, notation.Build, notation.MovePiece, notation.Hatch)):
        return Event(str(move).split()[0], f"{by} {building(move)}", by)
    if isinstance(move, (notation.Demolish, notation.Convert)):
        return captured(move, by)
    if isinstance(move, notation.Fly):
        card = state.board[move.src].card
        text = f"{by} flew {card} from {cell_str(move.src)} to {cell_str(move.dst)} paying {move.ace}"
        return Event("fly", text, by, {"card": card, "ace": move.ace})
    assert isinstance(move, notation.Discard), move
    return Event("discard", f"{by} discarded {' '.join(move.cards)}", by, {"cards": list(move.cards)})


def building(move: notation.Grow | notation.Spawn | notation.Build | notation.MovePiece | notation.Hatch) -> str:
    """The words after the player's name: "built 7H at 2,0"."""
    if isinstance(move, notation.Grow):
        grown = "medium" if move.size == "S" else "large"
        return f"grew a {SIZE_NAMES[move.size]} into a {grown} at {cell_str(move.at)}"
    if isinstance(move, notation.Spawn):
        return f"spawned a small at {cell_str(move.at)}"
    if isinstance(move, notation.Build):
        return f"built {move.card} at {cell_str(move.at)}"
    if isinstance(move, notation.MovePiece):
        return f"moved a {SIZE_NAMES[move.size]} from {cell_str(move.src)} to {cell_str(move.dst)}"
    return f"hatched {move.card} at {cell_str(move.at)}"


def captured(move: notation.Demolish | notation.Convert, by: str) -> Event:
    """An attack: the piece taken off the board (and, converting, the attacker's put in its place)."""
    target = f"{move.owner}'s {SIZE_NAMES[move.size]} on {cell_str(move.at)}"
    if isinstance(move, notation.Demolish):
        text = f"{by} demolished {target}"
    else:
        text = f"{by} converted {target} into {by}'s {SIZE_NAMES[move.into]}"
    facts = {"owner": move.owner, "size": move.size, "at": list(move.at), "pay": list(move.pay)}
    return Event("capture", f"{text} paying {' '.join(move.pay)}", by, facts)


def resigned(by: str, reason: str) -> Event:
    return Event("resign", f"{by} ran out of time" if reason == "timeout" else f"{by} resigned", by)


def revealed(starters: tuple[tuple[str, str], ...], first: str) -> Event:
    shown = ", ".join(f"{colour} {card}" for colour, card in starters)
    facts = {"starters": [list(pair) for pair in starters], "first": first}
    return Event("reveal", f"starters revealed: {shown}; {first} goes first", first, facts)


def owes(colour: str, excess: int) -> Event:
    cards = "1 card" if excess == 1 else f"{excess} cards"
    return Event("owe", f"{colour} must discard {cards}", colour, {"cards": excess})


def turn(colour: str, number: int) -> Event:
    return Event("turn", f"{colour}'s turn", colour, {"turn": number})


def ended(winner: str | None, reason: str, tied: tuple[str, ...]) -> Event:
    """The game's end in words: "red wins with a power block"."""
    if tied:
        text = " and ".join(tied) + " tie: each controls an equally high poker block"
    elif winner is None:
        text = "the game is a draw" if reason == "draw" else "the game is over"
    elif reason in ("power block", "poker block"):
        text = f"{winner} wins with a {reason}"
    elif reason == "timeout":
        text = f"{winner} wins: the last opponent ran out of time"
    else:
        text = f"{winner} wins: every other player resigned"
    return Event("end", text, winner, {"winners": list(tied or ((winner,) if winner else ())), "reason": reason})
