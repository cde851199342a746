"""A Momiji decision as a peer game's shared state receives it (docs/peer.md §3.5).

Every card a decision names from the seat's hand is taken from the shared hand by id when
everyone saw it arrive, else by a placeholder the seat opened for itself. Each such card
is shown with the decision (a play's top card, a discard, a trimmed card, a swapped or
leaping card) except the first of two cards of one type played together: it is buried at
once and nobody may see it (MOM-R21), so it stays a placeholder with a proof that it fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.core.hidden import Disclosure, Holdings, is_hidden
from arbiter.games.momiji.powers import HAND_FIELDS as HAND_POWER_FIELDS
from arbiter.games.momiji.state import State

Action = dict[str, Any]

HAND_FIELDS = {"play": "cards", "discard": "cards", "hand-limit": "card"}
"""Where a decision names cards from the hand, by kind (powers: ``powers.HAND_FIELDS``)."""


def disclose(
    shared: State,
    seat: str,
    action: Action,
    known: Mapping[str, str],
    order: Sequence[str] | None = None,
) -> Disclosure:
    public = dict(action)
    hand = Holdings(shared.players[seat].hand, known, order)
    shown: list[str] = []
    kept: list[str] = []
    kind = action.get("kind")
    if kind in HAND_FIELDS:
        key = HAND_FIELDS[str(kind)]
        one = isinstance(action[key], str)
        names: list[str] = [action[key]] if one else list(action[key])
        buried = kind == "play" and _buried_first(shared, names)
        for i, name in enumerate(names):
            entry = hand.take(name)
            if entry is None or not is_hidden(entry):
                continue  # held by id, or not held at all (the rules refuse it)
            if buried and i == 0:
                names[0] = entry
                kept.append(entry)
            else:
                shown.append(entry)
        public[key] = names[0] if one else names
    elif kind == "power":
        field = _hand_field(shared, public)
        entry = None if field is None else hand.take(public[field])
        if entry is not None and is_hidden(entry):
            shown.append(entry)
    return Disclosure(public, tuple(shown), tuple(kept))


def _buried_first(state: State, names: list[str]) -> bool:
    """Whether a play is two cards of one type (the first is buried at once)."""
    if len(names) != 2 or not all(n in state.cards.cards for n in names):
        return False
    return state.cards.cards[names[0]].type == state.cards.cards[names[1]].type


def _hand_field(state: State, action: Action) -> str | None:
    """The field of a power decision that names a hand card, if any (MOM-R9)."""
    landscape = action.get("landscape")
    if not isinstance(landscape, str) or landscape not in state.cards.landscapes:
        return None
    key = HAND_POWER_FIELDS.get(state.cards.landscapes[landscape]["power"])
    return key if key is not None and isinstance(action.get(key), str) else None
