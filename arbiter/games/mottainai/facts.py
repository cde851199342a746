"""Whether a seat's hand holds a card of some kind, asked without reading the hand.

Cloak, Figurine, Flag, Fountain and WICK are offered only when the hand holds a card they
can use (M-R8), so whether their trigger is offered at all tells everyone something about
the hand; the referee's public prompt already tells it. On a peer game's shared state the
hand is placeholders, and the holder answers that question with a proof of presence or
absence (``core.hidden.holds_any``, docs/peer-mottainai.md §3.4, M-R126). On a referee
state (and a seat's own) this is a plain scan of the hand.
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter.core.hidden import holds_any, is_hidden
from arbiter.games.mottainai.cards import INSTANCES, faced
from arbiter.games.mottainai.state import State


def holds(state: State, seat: str, test: Callable[[str], bool]) -> bool:
    """Whether ``seat``'s hand holds a card ``test`` accepts (``test`` reads one card id)."""
    hand = state.players[seat].hand
    shown = faced(hand)
    if any(map(test, shown)):
        return True
    if len(shown) == len(hand):
        return False
    hidden = [c for c in hand if is_hidden(c)]
    # The faces the fact is about: every card of the game's tables ``test`` accepts (a
    # proof keeps those its decks hold), in a fixed order.
    return holds_any(seat, hidden, sorted(i for i in INSTANCES if test(i)))
