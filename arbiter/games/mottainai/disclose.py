"""A Mottainai decision as a peer game's shared state receives it (docs/peer-mottainai.md
§2, M-R124–M-R129).

A decision names cards of the seat's hand by id; on the shared state each is taken from
the hand (``Holdings``): by id when everyone saw it arrive or saw it shown, else by a
placeholder the seat opened for itself. What happens to it then:

- **shown**: a card that leaves the hand face up (a task, a work, a tucked card, Kite's
  or Handkerchief's card) or is shown and kept (SMITH's supports, M-R17; Figurine, Flag,
  Fountain, Curtain and Tower reveals; Crane's and Brick's hand supports): its opening
  travels with the decision;
- **returned**: a card put face down at the bottom of its deck (the hand limit and TAILOR,
  M-R18; Pinwheel; WICK, whose card also carries a claim of its type, M-R116): the public
  decision names its placeholder, never its face (M-R125);
- **concealed**: a returned card the shared hand holds by id (it was shown earlier) must
  first become a placeholder again, as the referee forgets a reveal (M-R127); the public
  decision names it by id and the peer layer renames it.

Puppet's whole hand changes hands with its placeholders; nothing of it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.core.hidden import Disclosure, Holdings, is_hidden
from arbiter.games.mottainai.cards import INSTANCES, MATERIAL
from arbiter.games.mottainai.effects.dispatch import effect_of, identity
from arbiter.games.mottainai.state import State

Action = dict[str, Any]

SHOWN = {"task": ("card",), "smith": ("work", "support"), "craft": ("work",), "tuck": ("card",)}
"""Decisions that show the hand cards they name, by kind: the fields naming them."""
RETURNED = {"return": "card"}
"""Decisions that put a hand card face down into its deck: the field naming it."""
USE_SHOWN = {
    "kite": ("cards",),
    "cloak": ("target",),
    "figurine": ("target",),
    "flag": ("target",),
    "handkerchief": ("target",),
    "pin": ("target",),
    "om-smith-booster": ("target",),
    "fountain": ("cards",),
    "crane": ("target", "cards"),
    "brick": ("target", "cards"),
    "curtain": ("cards",),
    "tower": ("cards",),
}
"""Card effects (base card ids, Om effect ids) whose ``use`` shows the hand cards its
fields name. Other fields name seats, materials, wings or public cards."""
USE_RETURNED = {"pinwheel": "target", "wick": "target"}
"""Card effects whose ``use`` returns the hand card its field names, face down."""


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
    returned: list[str] = []
    concealed: list[str] = []
    kind = action.get("kind")
    fields: tuple[str, ...] = SHOWN.get(str(kind), ())
    back = RETURNED.get(str(kind))
    if kind == "use" and isinstance(action.get("card"), str):
        effect = effect_id(shared, action["card"])
        fields = USE_SHOWN.get(effect, ())
        back = USE_RETURNED.get(effect)
    for field in fields:
        value = action.get(field)
        for name in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            entry = hand.take(name) if isinstance(name, str) else None
            if entry is not None and is_hidden(entry):
                shown.append(entry)  # the public decision keeps the id: it is opened with it
    kept: list[str] = []
    if back is not None and isinstance(action.get(back), str):
        entry = hand.take(action[back])
        if entry is not None and is_hidden(entry):
            public[back] = entry
            returned.append(entry)
            if claims(shared, seat, public):
                kept.append(entry)  # WICK: its type is proven, not shown (M-R129)
        elif entry is not None:
            concealed.append(entry)  # held by id: hidden again, then returned (M-R127)
    return Disclosure(public, tuple(shown), tuple(kept), tuple(returned), tuple(concealed))


def claims(state: State, seat: str, action: Action) -> dict[str, list[str]]:
    """WICK's returned card is of one of the Om-helper-types (M-R116, M-R129): the faces
    it may be, every card of its deck with such a material."""
    if action.get("kind") != "use" or not isinstance(action.get("card"), str):
        return {}
    if effect_id(state, action["card"]) != "wick":
        return {}
    target = action.get("target")
    if not isinstance(target, str) or not is_hidden(target):
        return {}
    from arbiter.games.mottainai.om import om_types
    from arbiter.games.mottainai.wutai import is_om

    types = om_types(state, action["card"], "helpers")
    faces = [c for c in INSTANCES if MATERIAL[c] in types and is_om(c) == is_om(target)]
    return {target: sorted(faces)}


def effect_id(state: State, work: str) -> str:
    """The effect a used card runs: a base card's id, or the Om effect id of a Wutai card
    (``wick`` for every card that runs WICK's effect); "" for a card with none."""
    try:
        cid = INSTANCES[identity(state, work)].id
        eff = effect_of(cid)
    except KeyError:
        return ""
    from arbiter.games.mottainai.om_effects import OM_EFFECTS

    for name, om in OM_EFFECTS.items():
        if om.resolve is eff.resolve:
            return name
    return cid


def passes(state: State, seat: str, action: Action) -> dict[str, str]:
    """Puppet swaps hands (M-R60, M-R128): the user's whole hand goes to the target's hand,
    the target's to the user's waiting area (cards everyone knows too: their order
    travels with the hidden ones)."""
    if action.get("kind") != "use" or not isinstance(action.get("card"), str):
        return {}
    target = action.get("target")
    if effect_id(state, action["card"]) != "puppet" or target not in state.players:
        return {}
    out = dict.fromkeys(state.players[seat].hand, str(target))
    out.update(dict.fromkeys(state.players[str(target)].hand, seat))
    return out


def preshares(state: State) -> dict[str, tuple[str, ...]]:
    """Each face-down task still hidden (M-R14) is certain to go to the floor face up at its
    owner's first Morning: every seat shares it at the deal, but its owner and the seat
    before it in turn order (docs/peer-mottainai.md §3.6, M-R134). That seat lays it open
    with the decision that ends its turn and sends its share with it; the owner's rides
    on its own first decision. Neither opens it alone before then."""
    out: dict[str, tuple[str, ...]] = {}
    for seat in state.seats:
        p = state.players[seat]
        if p.face_down and p.task is not None and is_hidden(p.task):
            out[p.task] = (seat, state.clockwise_from(seat)[-1])
    return out
