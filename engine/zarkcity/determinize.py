"""A deal a seat cannot tell from the real one, for the bots' search (`Game.determinize`).

Everything the seat cannot see (the deck, other players' hands, others' face-down starters) is pooled,
sorted into canonical deck order (so the result depends only on what the seat sees), shuffled by the
caller's generator and dealt again: face-down starters first (each must be a number card), then the
unknown part of each other hand, then the deck. Cards a re-deal round showed stay in their holder's
hand while the first round lasts (they cannot have left it yet); after that they count as unknown,
a simplification: the state alone does not say which of them were spent since. The seed that drives
future reshuffles is replaced, so the search cannot learn the real order of a reshuffle either.
"""

from __future__ import annotations

from ..interface import Randomness
from .state import State

_SEEN_HANDS_PHASES = ("choose", "place")  # before any discard: a shown hand is still held whole


def determinize(state: State, seat: str, rng: Randomness) -> State:
    new_seed = f"determinized:{rng.randrange(1 << 62)}"
    if state.phase == "over":
        return state.evolve(seed=new_seed)
    rules = state.ruleset
    known = _known_cards(state, seat)
    unknown = {p: len(state.hands[p]) - len(known.get(p, ())) for p in state.players if p != seat}
    hidden_starters = [colour for colour, _ in state.starters if colour != seat] if state.phase == "choose" else []
    pool = list(rules.sort(_unseen(state, seat, known, hidden_starters)))
    rng.shuffle(pool)
    starters = dict(state.starters)
    for colour in hidden_starters:
        starters[colour] = _take_number(pool, state)
    hands = dict(state.hands)
    for colour, count in unknown.items():
        hands[colour] = tuple(known.get(colour, ())) + tuple(pool[:count])
        del pool[:count]
    if state.phase == "choose":
        _give_each_chooser_a_number(state, seat, hands, pool, known)
    return state.evolve(
        hands=hands,
        deck=tuple(pool),
        starters=tuple((colour, starters[colour]) for colour, _ in state.starters),
        seed=new_seed,
    )


def _known_cards(state: State, seat: str) -> dict[str, tuple[str, ...]]:
    """Cards `seat` knows another player still holds: the hand each last showed in a re-deal round."""
    if state.phase not in _SEEN_HANDS_PHASES:
        return {}
    shown: dict[str, tuple[str, ...]] = {}
    for _, colour, hand in state.revealed:  # a later round shows the whole hand again, larger
        if colour != seat and colour not in state.resigned:
            shown[colour] = hand
    return shown


def _unseen(state: State, seat: str, known: dict[str, tuple[str, ...]], hidden_starters: list[str]) -> list[str]:
    cards = list(state.deck)
    for colour in state.players:
        if colour == seat:
            continue
        hand = list(state.hands[colour])
        for card in known.get(colour, ()):
            hand.remove(card)
        cards += hand
    chosen = dict(state.starters)
    cards += [chosen[colour] for colour in hidden_starters]
    return cards


def _take_number(pool: list[str], state: State) -> str:
    """The first number card of the shuffled pool: a face-down starter is always one."""
    cards = state.ruleset.cards
    index = next(i for i, card in enumerate(pool) if cards[card].is_number)
    return pool.pop(index)


def _give_each_chooser_a_number(
    state: State, seat: str, hands: dict[str, tuple[str, ...]], deck: list[str], known: dict[str, tuple[str, ...]]
) -> None:
    """A player still to choose a starter holds a number card (the deal saw to it): swap one in if the
    new deal left them none, from the deck, giving the deck the swapped-out card."""
    cards = state.ruleset.cards
    chosen = {colour for colour, _ in state.starters}
    for colour in state.active_players():
        if colour == seat or colour in chosen or any(cards[c].is_number for c in hands[colour]):
            continue
        spare = next((i for i, c in enumerate(deck) if cards[c].is_number), None)
        held = len(known.get(colour, ()))
        if spare is None or held >= len(hands[colour]):
            continue
        hand = list(hands[colour])
        hand[held], deck[spare] = deck[spare], hand[held]
        hands[colour] = tuple(hand)
