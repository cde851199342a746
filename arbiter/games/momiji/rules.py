"""Which decisions are legal now: the full list for the bot, and ``check`` with reasons.

Rule ids (``MOM-2.2`` …) are the sections of docs/rulings/momiji.md; ``MOM-R…`` are
its rulings. Messages use only what the acting seat sees.
"""

from __future__ import annotations

from itertools import permutations, product
from typing import Any

from arbiter.core.engine import reject
from arbiter.core.hidden import is_hidden
from arbiter.games.momiji import moves, zones
from arbiter.games.momiji.powers import POWERS
from arbiter.games.momiji.state import AFTER, LIMIT, MAIN, OBJECTIVE_COST, State

Action = dict[str, Any]


def legal_actions(state: State, seat: str) -> list[Action]:
    """Return every legal decision of ``seat`` now ([] when it is not its turn)."""
    t = state.turn
    if state.over or seat != t.seat:
        return []
    player = state.players[seat]
    hand = state.cards.sort(player.hand)
    if t.phase == LIMIT:
        return [{"kind": "hand-limit", "card": c} for c in zones.distinct(hand)]
    out: list[Action] = []
    if t.phase == MAIN:
        garden = state.cards.sort(state.garden)
        kinds = zones.distinct([state.cards.cards[c].type for c in garden])
        out += [{"kind": "collect", "type": kind} for kind in kinds]
        if not t.revealed:
            if player.acorns >= 1 and state.deck:
                out.append({"kind": "reveal"})
            for cards in plays(state, seat):
                out.append({"kind": "play", "cards": cards})
                for at in placements(state, seat, cards):
                    out.append({"kind": "play", "cards": cards, "at": at})
            if player.acorns >= OBJECTIVE_COST:
                centre = zones.in_pool_order(state, state.centre)
                out += [{"kind": "activate", "objective": o} for o in centre]
    if not t.discarded:
        out += [{"kind": "discard", "cards": pair} for pair in pairs(hand)]
    if not t.powered and player.acorns >= 1:
        for landscape in player.landscapes:
            if landscape not in player.used:
                behaviour = POWERS[state.cards.landscapes[landscape]["power"]]
                for params in behaviour.options(state, seat):
                    out.append({"kind": "power", "landscape": landscape, **params})
    if t.phase == AFTER:
        out.append({"kind": "end"})
    return out


def pairs(hand: list[str]) -> list[list[str]]:
    """Return the two-card discards, each in hand order."""
    kinds = zones.distinct(hand)
    out = []
    for i, a in enumerate(kinds):
        for b in kinds[i:]:
            if a != b or zones.count(hand, a) >= 2:
                out.append([a, b])
    return out


def plays(state: State, seat: str) -> list[list[str]]:
    """Return every legal play: 1-2 cards of one type (bottom first), then one card per
    type for 2+ types (in type order)."""
    cards = state.cards.cards
    hand = state.cards.sort(state.players[seat].hand)
    singles: dict[str, list[str]] = {}
    out: list[list[str]] = []
    for kind in state.types:
        codes = [c for c in zones.distinct(hand) if cards[c].type == kind]
        top = zones.top_value(state, seat, kind)
        ok = [c for c in codes if zones.steps_onto(top, cards[c].value)]
        if not ok:
            continue
        singles[kind] = ok
        for first in ok:
            out.append([first])
            rest = list(hand)
            rest.remove(first)
            for second in codes:
                if second in rest and zones.steps_onto(cards[first].value, cards[second].value):
                    out.append([first, second])
    choices = [[None, *ok] for ok in singles.values()]
    for combo in product(*choices):
        chosen = [c for c in combo if c is not None]
        if len(chosen) >= 2:
            out.append(chosen)
    return out


def new_types(state: State, seat: str, codes: list[str]) -> list[str]:
    """Return the types of ``codes`` that start a new pile, in card order."""
    player = state.players[seat]
    kinds = zones.distinct(zones.play_types(state, codes))
    return [kind for kind in kinds if player.pile(kind) is None]


def placements(state: State, seat: str, codes: list[str]) -> list[list[int]]:
    """Return every ``at`` a play may name (MOM-R5): where each new pile stands in the row
    after the play, one position per new pile in card order. The right end in card order
    is the play without ``at``, so it is not listed again (one spelling per play)."""
    k = len(new_types(state, seat, codes))
    if k == 0:
        return []
    n = len(state.players[seat].piles)
    default = tuple(range(n, n + k))
    return [list(at) for at in permutations(range(n + k), k) if at != default]


def check(state: State, seat: str, action: Any) -> None:
    """Raise ``IllegalAction`` citing the rule unless the decision is legal for ``seat``."""
    action = moves.parse(action)
    if state.over:
        raise reject("the game is over: no more decisions", "MOM-5")
    t = state.turn
    if seat != t.seat:
        raise reject(f"it is {t.seat}'s turn, not {seat}'s", "MOM-2")
    kind = action["kind"]
    if t.phase == LIMIT and kind != "hand-limit":
        raise reject(
            f"your turn is over: discard down to {t.limit} cards with "
            '{"kind": "hand-limit", "card": ...}',
            "MOM-4",
        )
    CHECKS[kind](state, seat, action)


def _main(state: State, what: str) -> None:
    t = state.turn
    if t.phase != MAIN:
        raise reject(f"you already took your main action this turn: no {what}", "MOM-2")
    if t.revealed and what != "collect":
        raise reject(
            f"you paid to reveal, so your main action must be a collect, not a {what}", "MOM-2.1"
        )


def _in_hand(state: State, seat: str, codes: list[str]) -> None:
    hand = state.players[seat].hand
    for code in codes:
        # A placeholder is a card of a peer game's hand whose face stays hidden (MOM-R21).
        if code not in state.cards.cards and not is_hidden(code):
            raise reject(f"{code!r} is not a card of this game (codes look like maple-0R)", "MOM-1")
    if not zones.holds(hand, codes):
        missing = next(c for c in codes if zones.count(hand, c) < zones.count(codes, c))
        raise reject(f"you do not hold {'enough ' if missing in hand else ''}{missing}", "MOM-2.2")


def _collect(state: State, seat: str, action: Action) -> None:
    _main(state, "collect")
    if not any(state.cards.cards[c].type == action["type"] for c in state.garden):
        raise reject(f"the garden holds no {action['type']} card to collect", "MOM-2.1")


def _reveal(state: State, seat: str, action: Action) -> None:
    _main(state, "reveal")
    if state.players[seat].acorns < 1:
        raise reject("revealing four more cards costs an acorn and you have none", "MOM-2.1")
    if not state.deck:
        raise reject("the deck is empty: nothing to reveal", "MOM-2.1")


def _play(state: State, seat: str, action: Action) -> None:
    _main(state, "play")
    codes = action["cards"]
    _in_hand(state, seat, codes)
    if any(is_hidden(c) for c in codes):
        _buried(state, seat, codes)
        _at(state, seat, codes, action.get("at"))
        return
    cards = state.cards.cards
    kinds = [cards[c].type for c in codes]
    if len(set(kinds)) == 1:
        if len(codes) > 2:
            raise reject("play at most 2 cards of the same type", "MOM-2.2")
        below = zones.top_value(state, seat, kinds[0])
        for code in codes:
            _step(below, cards[code].value, code)
            below = cards[code].value
        _at(state, seat, codes, action.get("at"))
        return
    if len(set(kinds)) != len(kinds):
        raise reject("play 1-2 cards of one type, or 2+ cards of different types", "MOM-2.2")
    order = [state.types.index(k) for k in kinds]
    if order != sorted(order):
        names = ", ".join(state.types)
        raise reject(f"list one card per type in type order ({names})", "MOM-R5")
    for code in codes:
        _step(zones.top_value(state, seat, cards[code].type), cards[code].value, code)
    _at(state, seat, codes, action.get("at"))


def _buried(state: State, seat: str, codes: list[str]) -> None:
    """MOM-R21: in a peer game, a card stays hidden only as the first of two cards of one
    type (buried at once under the second). Its proof (checked by the peer layer against
    ``claims``) shows it is one of the cards that fit there; here, that some card fits."""
    if len(codes) != 2 or not is_hidden(codes[0]) or is_hidden(codes[1]):
        raise reject(
            "only the first of two cards of one type (buried at once) may stay hidden", "MOM-R21"
        )
    top = codes[1]
    if not zones.buried_options(state, seat, top):
        kind = state.cards.cards[top].type
        raise reject(f"no {kind} card fits under {top} on your {kind} pile", "MOM-2.2")


def claims(state: State, seat: str, action: Action) -> dict[str, list[str]]:
    """MOM-R21: the faces each hidden card of a public decision may be (its proof shows
    it is one of them): the buried card of a play of two cards of one type."""
    codes = action.get("cards") if action.get("kind") == "play" else None
    if not codes or len(codes) != 2 or not is_hidden(codes[0]) or is_hidden(codes[1]):
        return {}
    return {codes[0]: zones.buried_options(state, seat, codes[1])}


def _at(state: State, seat: str, codes: list[str], at: list[int] | None) -> None:
    """MOM-R5: ``at`` places the new piles (the row's order matters for acorn pairs)."""
    if at is None:
        return
    new = new_types(state, seat, codes)
    if not new:
        raise reject('this play starts no new pile: leave out "at"', "MOM-R5")
    size = len(state.players[seat].piles) + len(new)
    if len(at) != len(new):
        names = ", ".join(new)
        raise reject(f'"at" needs one position per new pile ({names}), in card order', "MOM-R5")
    if len(set(at)) != len(at) or max(at) >= size:
        raise reject(f"give each new pile its own position from 0 to {size - 1}", "MOM-R5")
    if at == list(range(size - len(new), size)):
        raise reject('that is the right end, where new piles go anyway: leave out "at"', "MOM-R5")


def _step(below: int | None, value: int, code: str) -> None:
    if zones.steps_onto(below, value):
        return
    if below is None:
        raise reject(f"{code} cannot start a pile: a pile starts with a 0", "MOM-2.2")
    if below == 3:
        raise reject(f"{code} cannot go on a pile closed by a torii", "MOM-2.2")
    raise reject(f"{code} cannot go on a {below}: play a {below} or a {below + 1}", "MOM-2.2")


def _activate(state: State, seat: str, action: Action) -> None:
    _main(state, "activation")
    if action["objective"] not in state.centre:
        names = ", ".join(zones.in_pool_order(state, state.centre)) or "none"
        raise reject(f"objective {action['objective']!r} is not in the centre ({names})", "MOM-2.3")
    if state.players[seat].acorns < OBJECTIVE_COST:
        raise reject(f"activating costs {OBJECTIVE_COST} acorns", "MOM-2.3")


def _discard(state: State, seat: str, action: Action) -> None:
    if state.turn.discarded:
        raise reject("you already discarded two cards for an acorn this turn", "MOM-3.1")
    codes = action["cards"]
    _in_hand(state, seat, codes)
    if state.cards.sort(codes) != codes:
        raise reject("list the two cards in hand order (type, value, corners)", "MOM-3.1")


def _power(state: State, seat: str, action: Action) -> None:
    player = state.players[seat]
    landscape = action["landscape"]
    if landscape not in player.landscapes:
        raise reject(f"{landscape!r} is not one of your landscapes", "MOM-3.2")
    if landscape in player.used:
        raise reject(f"you already used {landscape}: each landscape once per game", "MOM-3.2")
    if state.turn.powered:
        raise reject("you already used a landscape power this turn", "MOM-3.2")
    if player.acorns < 1:
        raise reject("a landscape power costs an acorn and you have none", "MOM-3.2")
    behaviour = POWERS[state.cards.landscapes[landscape]["power"]]
    params = {k: v for k, v in action.items() if k not in ("kind", "landscape")}
    if sorted(params) != sorted(behaviour.fields):
        wanted = ", ".join(behaviour.fields) or "no other field"
        raise reject(f"the {behaviour.id} power of {landscape} takes {wanted}", "MOM-R9")
    issue = behaviour.problem(state, seat, params)
    if issue is not None:
        raise reject(f"{landscape} ({behaviour.id}): {issue}", "MOM-R9")


def _end(state: State, seat: str, action: Action) -> None:
    if state.turn.phase != AFTER:
        raise reject("take your main action before ending the turn", "MOM-2")


def _trim(state: State, seat: str, action: Action) -> None:
    if state.turn.phase != LIMIT:
        raise reject("the hand limit applies only at the end of your turn", "MOM-4")
    _in_hand(state, seat, [action["card"]])


CHECKS = {
    "collect": _collect,
    "reveal": _reveal,
    "play": _play,
    "activate": _activate,
    "discard": _discard,
    "power": _power,
    "end": _end,
    "hand-limit": _trim,
}
