"""Moving cards between the deck, the garden, hands and piles (shared by actions and powers)."""

from __future__ import annotations

from arbiter.core.engine import Event
from arbiter.core.hidden import is_hidden
from arbiter.games.momiji.data import TOP
from arbiter.games.momiji.state import GARDEN, Pile, State


def count(codes: list[str], code: str) -> int:
    return sum(1 for c in codes if c == code)


def holds(hand: list[str], codes: list[str]) -> bool:
    """Return whether ``hand`` contains every card of ``codes`` (as a multiset)."""
    return all(count(hand, code) >= count(codes, code) for code in codes)


def distinct(codes: list[str]) -> list[str]:
    """Return the codes once each, first occurrence order."""
    return list(dict.fromkeys(codes))


def take(state: State, seat: str, codes: list[str]) -> None:
    """Remove cards from a hand; whoever knew k copies of a card now knows k minus those gone."""
    player = state.players[seat]
    for code in codes:
        player.hand.remove(code)
        if code in player.known:
            player.known.remove(code)


def give(state: State, seat: str, codes: list[str], public: bool) -> None:
    """Add cards to a hand; ``public`` when everyone saw them arrive (from the garden).

    A hand is kept in the order its cards arrived, never sorted by face: in a peer game
    its dealt and drawn cards are placeholders (docs/peer.md §3.2). Views and the legal
    decisions list it in hand order (``in_hand_order``)."""
    player = state.players[seat]
    player.hand = player.hand + codes
    if public:
        player.known = state.cards.sort(player.known + codes)


def in_hand_order(state: State, codes: list[str]) -> list[str]:
    """The cards in hand order (type, value, corners); a placeholder, a card this state
    does not know, comes after them in the order it arrived (only a peer table's views
    show one, to derive who must learn it, docs/peer.md §3.3)."""
    known = [c for c in codes if not is_hidden(c)]
    return state.cards.sort(known) + [c for c in codes if is_hidden(c)]


def in_pool_order(state: State, objectives: list[str]) -> list[str]:
    """Objective tokens in the data's order (placeholders of a peer game's deal last)."""
    chosen = set(objectives)
    pool = [o for o in state.cards.objective_ids(state.types) if o in chosen]
    return pool + [o for o in objectives if is_hidden(o)]


def play_types(state: State, codes: list[str]) -> list[str]:
    """The type of each card of a play. In a peer game the first of two cards of one
    type may stay hidden (it is buried at once, docs/rulings/momiji.md MOM-R21): it
    takes the type of the card played on it, which its proof shows it shares."""
    cards = state.cards.cards
    return [
        cards[codes[i + 1]].type if is_hidden(code) and i + 1 < len(codes) else cards[code].type
        for i, code in enumerate(codes)
    ]


def buried_options(state: State, seat: str, top: str) -> list[str]:
    """MOM-R21: the cards that may lie buried at once under ``top`` in a play of two
    cards of its type: of that type, stepping onto the seat's pile and with ``top``
    stepping onto them. A peer seat proves its hidden card is one of them."""
    card = state.cards.cards[top]
    below = top_value(state, seat, card.type)
    fits = [
        code
        for code in state.cards.decks[card.type]
        if steps_onto(below, value(state, code)) and steps_onto(value(state, code), card.value)
    ]
    return distinct(fits)


def to_garden(state: State, codes: list[str]) -> None:
    """Lay cards in the garden. Rules: the garden is sorted into columns by type, which
    its readers see (views, the legal decisions); the state keeps the order the cards
    came, as a peer game lays them face down until everyone's shares open them."""
    state.garden = state.garden + codes


def reveal(state: State, n: int) -> list[str]:
    """Turn up to ``n`` cards from the deck into the garden; return them."""
    shown = state.deck[:n]
    del state.deck[:n]
    to_garden(state, shown)
    return shown


def refill(state: State, events: list[Event]) -> None:
    """MOM-R4: after cards leave the garden, refill it to four from the deck."""
    missing = GARDEN - len(state.garden)
    if missing > 0 and state.deck:
        shown = reveal(state, missing)
        events.append(Event("refill", {"cards": shown, "deck": len(state.deck)}, barrier=True))


def value(state: State, code: str) -> int:
    return state.cards.cards[code].value


def steps_onto(below: int | None, above: int) -> bool:
    """Rules: a pile starts with a 0; each next card equals the top or is one higher."""
    if below is None:
        return above == 0
    return below < TOP and below <= above <= below + 1


def top_value(state: State, seat: str, kind: str) -> int | None:
    """Return the value on top of the seat's pile of ``kind`` (``None``: no pile yet)."""
    pile = state.players[seat].pile(kind)
    return None if pile is None else value(state, pile.top)


def arrange(state: State, seat: str, new: list[str], at: list[int]) -> None:
    """Move the just started piles of types ``new`` to row positions ``at`` (MOM-R5).

    The other piles keep their order and fill the remaining positions; piles never move
    once placed, so this runs in the play that starts them.
    """
    player = state.players[seat]
    placed = {p.type: p for p in player.piles if p.type in new}
    others = iter([p for p in player.piles if p.type not in new])
    slot = dict(zip(at, new, strict=True))
    player.piles = [
        placed[slot[i]] if i in slot else next(others) for i in range(len(player.piles))
    ]


def place(state: State, seat: str, code: str, kind: str, shown: bool) -> tuple[bool, bool]:
    """Put a card of type ``kind`` on its pile (a new pile goes to the right end; see
    ``arrange``, MOM-R5).

    Return (new pile, closed by a 3). ``shown`` is False for a card buried at once, which
    is never a 3 (nothing goes on a 3) and in a peer game may be a placeholder.
    """
    player = state.players[seat]
    pile = player.pile(kind)
    new = pile is None
    if pile is None:
        pile = Pile(kind, [], [])
        player.piles.append(pile)
    pile.cards.append(code)
    pile.shown.append(shown)
    return new, shown and value(state, code) == TOP
