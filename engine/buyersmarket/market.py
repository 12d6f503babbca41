"""The three turn choices of 15.3, purchase resolution (15.4) and the die (B6): each check names its rule.

`action_error` says why an action is illegal (None when it is legal); `act` performs a legal one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations_with_replacement

from ..kit.events import Event
from . import events
from .notation import Action, Buy, Contribute, Place
from .pieces import (
    ATOM,
    PIPS,
    PURCHASE_CAP,
    SIZE_NAMES,
    SIZES,
    SUIT_NAMES,
    SUITS,
    Piece,
    pips,
    sort_sizes,
)
from .setup import roll
from .state import Pallet, Pick, State


def can_build(crp: tuple[Piece, ...]) -> bool:
    """B9: a building can be completed: at least 4 Larges, 3 Mediums and 1 Small in the CRP."""
    sizes = Counter(size for _, size in crp)
    return sizes["L"] >= 4 and sizes["M"] >= 3 and sizes["S"] >= 1


def min_resources(state: State) -> int:
    """With three or more players a pallet must already hold a resource pyramid to be bought (15.3)."""
    return 1 if len(state.active_players()) >= 3 else 0


# --- why not ------------------------------------------------------------------------------------------


def action_error(state: State, action: Action, by: str) -> str | None:
    pallet = state.pallet(action.card)
    if pallet is None:
        in_play = " ".join(p.card for p in state.pallets) or "none"
        return f"{action.card} is not a pallet in play (pallets: {in_play})"
    if isinstance(action, Place):
        error = _place_error(state, action, pallet)
    elif isinstance(action, Contribute):
        error = _contribute_error(state, action, pallet, by)
    else:
        error = _buy_error(state, action, pallet, by)
    if error is None and action.call:
        error = _call_error(state, action, by)
    return error


def _place_error(state: State, move: Place, pallet: Pallet) -> str | None:
    suit = pallet.suit
    if state.grp[suit][move.size] == 0:
        return f"turn choice 2: the GRP has no {SUIT_NAMES[suit]} {SIZE_NAMES[move.size]} left"
    after = pallet.resource_pips + PIPS[move.size]
    if after > pallet.value:
        return (
            f"turn choice 2 (B2): GRP pyramids on {pallet.card} would total {after} pips, more than its value"
            f" {pallet.value}"
        )
    return None


def _contribute_error(state: State, move: Contribute, pallet: Pallet, by: str) -> str | None:
    if state.banks[by][move.size] == 0:
        return f"turn choice 3: your bank has no {SIZE_NAMES[move.size]} left"
    if pallet.complete:
        return (
            f"turn choice 3: {pallet.card} is already complete ({pallet.total} pips for {pallet.value}); buy it instead"
        )
    return None


def _buy_error(state: State, move: Buy, pallet: Pallet, by: str) -> str | None:
    if pallet.resources < min_resources(state):
        return f"purchase: with three or more players {pallet.card} must already hold a resource pyramid"
    if not move.paid:
        if move.back or move.returned:
            return "making change (15.4): only after paying with your bank (buy CARD with SIZES ...)"
        if not pallet.complete:
            return f"purchase (b): {pallet.card} holds {pallet.total} pips, short of its value {pallet.value}"
        return None
    return _paid_error(state, move, pallet, by)


def _paid_error(state: State, move: Buy, pallet: Pallet, by: str) -> str | None:
    bank = state.banks[by]
    short = [s for s in SIZES if move.paid.count(s) > bank[s]]
    if short:
        return f"purchase (a): your bank has only {bank[short[0]]} {SIZE_NAMES[short[0]]}"
    if pips(move.paid) > PURCHASE_CAP:
        return f"purchase (a) (B4): at most {PURCHASE_CAP} pips of bank pyramids, not {pips(move.paid)}"
    if pallet.complete:
        return f"purchase (a): {pallet.card} is already complete; buy it as it stands (buy {pallet.card})"
    total = pallet.total + pips(move.paid)
    if total < pallet.value:
        return f"purchase (a): {pallet.card} would hold {total} pips, short of its value {pallet.value}"
    return _change_error(state, move, pallet, by, total - pallet.value)


def _change_error(state: State, move: Buy, pallet: Pallet, by: str, overpaid: int) -> str | None:
    if not move.back and not move.returned:
        return None
    if move.back and move.returned:
        return (
            f"making change (B13): one kind of change per purchase: your colour back to your bank (back) or"
            f" {SUIT_NAMES[pallet.suit]} back to the GRP (return), not both"
        )
    change = pips(move.back) + pips(move.returned)
    if change > overpaid:
        return f"making change (B12): {change} pips of change for {overpaid} overpaid"
    crp = Counter(bought_crp(state, move, pallet, by))
    for owner, sizes, where in ((by, move.back, "your colour"), (pallet.suit, move.returned, SUIT_NAMES[pallet.suit])):
        for size, n in Counter(sizes).items():
            if crp[(owner, size)] < n:
                held = crp[(owner, size)]
                return f"making change (15.4): your collected pile would hold only {held} {where} {SIZE_NAMES[size]}"
    return None


def _call_error(state: State, action: Action, by: str) -> str | None:
    if state.called_by is not None:
        return f"B8: {state.called_by} has already called the building phase"
    crp = state.crp[by]
    if isinstance(action, Buy):
        pallet = state.pallet(action.card)
        assert pallet is not None
        crp = after_change(bought_crp(state, action, pallet, by), action, pallet.suit, by)
    if not can_build(crp):
        return "B9: you may call the building phase only with at least 4 Larges, 3 Mediums and 1 Small collected"
    return None


# --- doing it -----------------------------------------------------------------------------------------


def bought_crp(state: State, move: Buy, pallet: Pallet, by: str) -> tuple[Piece, ...]:
    """The buyer's CRP once the pallet's pyramids land in it (other banks' pyramids go home)."""
    landed = [p for p in (*pallet.pieces, *((by, s) for s in move.paid)) if p[0] in SUITS or p[0] == by]
    return (*state.crp[by], *landed)


def after_change(crp: tuple[Piece, ...], move: Buy, suit: str, by: str) -> tuple[Piece, ...]:
    left = list(crp)
    for piece in (*((by, s) for s in move.back), *((suit, s) for s in move.returned)):
        left.remove(piece)
    return tuple(left)


def act(state: State, action: Action, by: str) -> State:
    """A legal action's effect; after a purchase the buyer rolls for the replacement pallet."""
    pallets = list(state.pallets)
    index = next(i for i, p in enumerate(pallets) if p.card == action.card)
    pallet = pallets[index]
    if isinstance(action, Place):
        grp = {
            **state.grp,
            pallet.suit: {**state.grp[pallet.suit], action.size: state.grp[pallet.suit][action.size] - 1},
        }
        pallets[index] = Pallet(pallet.card, (*pallet.pieces, (pallet.suit, action.size)))
        return state.evolve(grp=grp, pallets=tuple(pallets))
    if isinstance(action, Contribute):
        pallets[index] = Pallet(pallet.card, (*pallet.pieces, (by, action.size)))
        return state.evolve(banks=_bank_add(state.banks, by, action.size, -1), pallets=tuple(pallets))
    return _buy(state, action, by, pallets, index)


def _bank_add(banks: Mapping[str, Mapping[str, int]], colour: str, size: str, n: int) -> dict[str, Mapping[str, int]]:
    current = dict(banks)
    current[colour] = {**current[colour], size: current[colour][size] + n}
    return current


def _buy(state: State, move: Buy, by: str, pallets: list[Pallet], index: int) -> State:
    pallet = pallets.pop(index)
    banks = dict(state.banks)
    for size in move.paid:
        banks = _bank_add(banks, by, size, -1)
    for owner, size in pallet.pieces:
        if owner not in SUITS and owner != by:
            banks = _bank_add(banks, owner, size, 1)  # another player's bank pyramids go home (15.4)
    crp = after_change(bought_crp(state, move, pallet, by), move, pallet.suit, by)
    for size in move.back:
        banks = _bank_add(banks, by, size, 1)
    suit_grp = dict(state.grp[pallet.suit])
    for size in move.returned:
        suit_grp[size] += 1
    grp = {**state.grp, pallet.suit: suit_grp}
    return state.evolve(
        pallets=tuple(pallets),
        banks=banks,
        crp={**state.crp, by: crp},
        grp=grp,
        collected={**state.collected, by: (*state.collected[by], pallet.card)},
        owed=1,
    )


def pile_choices(state: State) -> tuple[str, ...]:
    return tuple(suit for suit in SUITS if state.piles[suit])


def put_pallet(state: State, suit: str, happened: list[Event] | None = None) -> State:
    """The top card of `suit`'s pile becomes a pallet (recorded in `happened`)."""
    cards = state.piles[suit]
    if happened is not None:
        happened.append(events.new_pallet(cards[0]))
    return state.evolve(
        piles={**state.piles, suit: cards[1:]}, pallets=(*state.pallets, Pallet(cards[0])), owed=state.owed - 1
    )


def auto_pile(state: State) -> str:
    """The pile taken for a roller who has left (rules.md 19): the first, in suit order, whose colour
    still has resources, else the first with cards."""
    choices = pile_choices(state)
    return next((s for s in choices if state.grp_count(s) > 0), choices[0])


def deal(state: State, roller: str, happened: list[Event] | None = None) -> State:
    """Roll for every pallet owed. The atom, or a colour with no resources or no cards left (B6), makes
    the roller pick a pile, unless only one pile has cards; with every pile empty nothing comes.
    Each throw and each new pallet is recorded in `happened`, as it happens."""
    while state.owed > 0:
        choices = pile_choices(state)
        if not choices:
            return state.evolve(owed=0)
        face = roll(state.seed, state.rolls)
        state = state.evolve(rolls=state.rolls + 1, last_roll=(roller, face))
        if happened is not None:
            happened.append(events.rolled(roller, face))
        if face != ATOM and state.piles[face] and state.grp_count(face) > 0:
            state = put_pallet(state, face, happened)
        elif len(choices) == 1 or roller in state.resigned:
            state = put_pallet(state, choices[0] if len(choices) == 1 else auto_pile(state), happened)
        else:
            if happened is not None:
                happened.append(events.owes_pile(roller))
            return state.evolve(pending=Pick(roller, "atom" if face == ATOM else "nothing left", face))
    return state


def paid_options(have: Mapping[str, int]) -> list[tuple[str, ...]]:
    """Every multiset of bank sizes of at most PURCHASE_CAP pips the bank holds (B4)."""
    found: set[tuple[str, ...]] = set()
    for n in range(1, PURCHASE_CAP + 1):
        for combo in combinations_with_replacement(SIZES, n):
            if pips(combo) <= PURCHASE_CAP and all(combo.count(s) <= have[s] for s in SIZES):
                found.add(sort_sizes(combo))
    return sorted(found)


def change_options(crp: tuple[Piece, ...], owner: str, most: int) -> list[tuple[str, ...]]:
    """Multisets of `owner`'s pyramids in `crp` of at most `most` pips (the empty one included)."""
    have = Counter(size for o, size in crp if o == owner)
    found: set[tuple[str, ...]] = {()}
    for n in range(1, most + 1):
        for combo in combinations_with_replacement(SIZES, n):
            if pips(combo) <= most and all(combo.count(s) <= have[s] for s in SIZES):
                found.add(sort_sizes(combo))
    return sorted(found)
