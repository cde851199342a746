"""Moving cards between the deck, the garden, hands and piles (shared by actions and powers)."""

from __future__ import annotations

from arbiter.core.engine import Event
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
    """Add cards to a hand; ``public`` when everyone saw them arrive (from the garden)."""
    player = state.players[seat]
    player.hand = state.cards.sort(player.hand + codes)
    if public:
        player.known = state.cards.sort(player.known + codes)


def to_garden(state: State, codes: list[str]) -> None:
    """Rules: the garden is sorted into columns by type."""
    state.garden = state.cards.sort(state.garden + codes)


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


def place(state: State, seat: str, code: str, shown: bool) -> tuple[bool, bool]:
    """Put a card on its pile (a new pile goes to the right end; see ``arrange``, MOM-R5).

    Return (new pile, closed by a 3). ``shown`` is False for a card buried at once.
    """
    player = state.players[seat]
    kind = state.cards.cards[code].type
    pile = player.pile(kind)
    new = pile is None
    if pile is None:
        pile = Pile(kind, [], [])
        player.piles.append(pile)
    pile.cards.append(code)
    pile.shown.append(shown)
    return new, value(state, code) == TOP
