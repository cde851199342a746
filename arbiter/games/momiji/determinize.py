"""Rebuild a full Momiji state from one seat's view (the bots' determinisation).

A view shows the garden, the discard pile, every pile's top card, the seat's hand, the
hand cards everyone saw arrive, every hand's size and the deck's size. Hidden: the deck,
the rest of other hands, and what lies under each pile's top (its size included: nobody
may count a pile). The cards nobody can place are dealt at random, the piles first so
that each keeps the pile rule (a 0 at the bottom, each card equal to the one below or
one higher).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import ImpossibleView
from arbiter.core.rng import Rng
from arbiter.games.momiji.data import BUILTIN, TOP, Catalog, catalog
from arbiter.games.momiji.state import Pile, Player, State, Turn


def shipped_data(view: Mapping[str, Any]) -> bool:
    """Return whether the view's leaf types, landscapes and objectives are the shipped data's."""
    shipped = catalog(BUILTIN)
    if list(view["types"]) != shipped.types[: len(view["seats"]) + 2]:
        return False
    rows = [(shipped.landscapes, view["landscapes"]), (shipped.objectives, view["objective_texts"])]
    for table, shown in rows:
        for key, row in shown.items():
            if key not in table or any(table[key].get(k) != v for k, v in row.items()):
                return False
    return True


def _data(view: Mapping[str, Any]) -> str:
    """Return ``"builtin"`` when the view shows the shipped data.

    A group's own data file changes the cards' acorn corners, which no view lists: such
    a game cannot be rebuilt from a state file.
    """
    if not shipped_data(view):
        raise NotImplementedError("momiji: a game with its own data file cannot be rebuilt")
    return BUILTIN


def _take(pool: list[str], cards: Catalog, kind: str, value: int) -> str:
    """Remove and return the first card of ``kind`` and ``value`` in the (shuffled) pool."""
    for i, code in enumerate(pool):
        card = cards.cards[code]
        if card.type == kind and card.value == value:
            return pool.pop(i)
    raise ImpossibleView(f"a {kind} pile needs a {value} under its top, and none is left")


def determinize(
    view: Mapping[str, Any], seat: str, rng: Rng, prompt: Mapping[str, Any] | None = None
) -> State:
    """Return a state showing ``view`` to ``seat``, the hidden cards dealt at random."""
    data = _data(view)
    cards = catalog(data)
    types = list(view["types"])
    seen: Counter[str] = Counter(view["garden"]) + Counter(view["discard"])
    for s, p in view["players"].items():
        seen += Counter(p["hand"] if s == seat else p["known"])
        seen += Counter(q["top"] for q in p["piles"])
    pool = list((Counter(cards.deck(types)) - seen).elements())
    rng.shuffle(pool)
    unknown_in_hands = sum(
        p["hand_size"] - len(p["known"]) for s, p in view["players"].items() if s != seat
    )
    buried = len(pool) - view["deck"] - unknown_in_hands
    # Every pile starts with a 0 (a pile whose top is a 0 may be that card alone).
    piles: list[Pile] = []
    owners: list[str] = []
    for s, p in view["players"].items():
        for q in p["piles"]:
            top = cards.cards[q["top"]].value
            under = [_take(pool, cards, q["type"], 0)] if top else []
            piles.append(Pile(q["type"], [*under, q["top"]], [False] * len(under) + [True]))
            owners.append(s)
    extra = buried - sum(len(p.cards) - 1 for p in piles)
    # The rest of the buried cards: any card of a pile's type up to its top (below a 3).
    caps: dict[str, list[int]] = {}
    for i, pile in enumerate(piles):
        caps.setdefault(pile.type, []).append(i)
    i = 0
    while extra > 0 and i < len(pool):
        card = cards.cards[pool[i]]
        fits = [
            j
            for j in caps.get(card.type, [])
            if card.value <= min(cards.cards[piles[j].top].value, TOP - 1)
        ]
        if not fits:
            i += 1
            continue
        pile = piles[fits[rng.below(len(fits))]]
        pile.cards.insert(-1, pool.pop(i))
        pile.cards[:-1] = sorted(pile.cards[:-1], key=lambda c: cards.cards[c].value)
        pile.shown.insert(0, False)
        extra -= 1
    players: dict[str, Player] = {}
    for s, p in view["players"].items():
        if s == seat:
            hand = list(p["hand"])
        else:
            k = p["hand_size"] - len(p["known"])
            if not 0 <= k <= len(pool):
                raise ImpossibleView(f"{s}'s hand size leaves no way to deal its unknown cards")
            hand = cards.sort(list(p["known"]) + pool[:k])
            del pool[:k]
        players[s] = Player(
            hand=hand,
            acorns=p["acorns"],
            landscapes=[x["id"] for x in p["landscapes"]],
            known=list(p["known"]),
            piles=[pile for pile, owner in zip(piles, owners, strict=True) if owner == s],
            used=[x["id"] for x in p["landscapes"] if x["used"]],
            objectives=list(p["objectives"]),
        )
    t = view["turn"]
    return State(
        seats=list(view["seats"]),
        data=data,
        types=types,
        players=players,
        turn=Turn(**t),
        deck=pool,
        garden=list(view["garden"]),
        discard=list(view["discard"]),
        centre=list(view["objectives"]),
        ended=view["ended"],
        result=view["result"],
    )
