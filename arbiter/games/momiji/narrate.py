"""Readable log lines, decision labels and terminal rendering.

Only the drawn and dealt cards are private: their owner reads them, everyone else reads
how many. Plays name the new top cards and how many cards went on each pile, never a
buried card (rules: nobody may look through a pile).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.momiji.data import catalog, parse_code

CORNERS = {"L": "acorn left", "R": "acorn right", "LR": "acorns left and right"}
PHASES = {"main": "main action", "after": "minor actions or end", "limit": "hand limit"}
REASONS = {
    "deck": "the deck is empty",
    "torii": "the torii limit is reached",
}


def card(code: str) -> str:
    """Return ``maple 1 (acorn right)`` for ``maple-1R``."""
    kind, _, rest = code.rpartition("-")
    corners = CORNERS.get(rest[1:])
    return f"{kind} {rest[:1]}" + (f" ({corners})" if corners else "")


def cards(codes: list[str]) -> str:
    return ", ".join(card(c) for c in codes) if codes else "nothing"


def _hand_order(codes: list[str], types: list[str]) -> list[str]:
    """A dealt hand in hand order (type in setup order, value, corners): the state keeps
    a hand in dealt order, which in a peer game is the order of its placeholders."""

    def key(code: str) -> tuple[int, int, str]:
        parsed = parse_code(code)
        assert parsed is not None, code
        return (types.index(parsed.type), parsed.value, code)

    return sorted(codes, key=key)


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(event: Event, viewer: str | None) -> str | None:
    """Return the log line for ``event`` as ``viewer`` may read it."""
    d = event.data
    kind = event.kind
    seat = d.get("seat")
    if kind == "setup":
        return _setup(d)
    if kind == "deal":
        if viewer == seat:
            return f"{seat} is dealt {cards(_hand_order(d['cards'], d['types']))}."
        return f"{seat} is dealt {_n(len(d['cards']), 'card')}."
    if kind == "turn":
        return f"Turn {d['number']}: {seat}."
    if kind == "collect":
        return f"{seat} collects the {d['type']} cards from the garden: {cards(d['cards'])}."
    if kind == "refill":
        return f"The garden is refilled with {cards(d['cards'])} (deck: {d['deck']})."
    if kind == "reveal":
        how = "pays an acorn and reveals" if d["paid"] else "reveals"
        return f"{seat} {how} {cards(d['cards'])} into the garden (deck: {d['deck']})."
    if kind == "play":
        return f"{seat} plays " + "; ".join(_pile(p) for p in d["piles"]) + "."
    if kind == "bonus":
        pairs = ", ".join(f"{a}|{b}" for a, b in d["pairs"])
        return f"{seat}'s neighbouring acorns ({pairs}) give {_n(d['acorns'], 'acorn')}."
    if kind == "activate":
        return f"{seat} pays 3 acorns and activates the objective {d['name']} ({d['text']})."
    if kind == "discard":
        return f"{seat} discards {cards(d['cards'])} for an acorn."
    if kind == "power":
        return f"{seat} pays an acorn for the landscape {d['name']}: {d['text']}"
    return _more(kind, d, viewer)


PERSONAL = frozenset({"deal", "draw"})
"""The event kinds whose line depends on the viewer: the seat drawing reads the cards."""


def describe_all(event: Event, viewers: list[str | None]) -> list[str | None]:
    """Return ``describe(event, v)`` for each of ``viewers``, each distinct line narrated once."""
    if event.kind not in PERSONAL:
        return [describe(event, None)] * len(viewers)
    seat = event.data.get("seat")
    others = describe(event, None)
    if seat is None or seat not in viewers:
        return [others] * len(viewers)
    own = describe(event, seat)
    return [own if viewer == seat else others for viewer in viewers]


def _more(kind: str, d: Mapping[str, Any], viewer: str | None) -> str | None:
    seat = d.get("seat")
    if kind == "take-card":
        return f"{seat} takes {card(d['card'])} from the garden."
    if kind == "acorns":
        return f"{seat} takes {_n(d['acorns'], 'acorn')} from the reserve."
    if kind == "draw":
        seen = card(d["card"]) if viewer == seat else "a card"
        return f"{seat} draws {seen} from the deck."
    if kind == "hand-limit-raised":
        return f"{seat}'s hand limit is {d['limit']} at the end of this turn."
    if kind == "swap":
        return f"{seat} swaps {card(d['give'])} from hand for {card(d['take'])} from the garden."
    if kind == "leap":
        torii = "; a torii closes the pile" if d["closed"] else ""
        return (
            f"{seat} leaps {card(d['card'])} onto the {d['card'].rpartition('-')[0]} pile{torii}."
        )
    if kind == "over-limit":
        return f"{seat} ends the turn with {d['hand']} cards: discard down to {d['limit']}."
    if kind == "trim":
        return f"{seat} discards {card(d['card'])} for the hand limit ({d['hand']} left)."
    if kind == "end":
        return (
            f"The game ends: {REASONS[d['reason']]} "
            f"({d['closed']} of {d['limit']} piles closed by torii)."
        )
    if kind == "score":
        return score_line(str(seat), d)
    if kind == "objective":
        return _objective(d)
    if kind == "result":
        winners = d["ranking"][0]
        best = d["scores"][winners[0]]
        tied = [s for s, v in d["scores"].items() if v == best]
        tie = f" (tie-break: {d['tiebreak']})" if len(tied) > 1 else ""
        if len(winners) > 1:
            return f"Shared victory: {', '.join(winners)} with {best} points each{tie}."
        return f"{winners[0]} wins with {best} points{tie}."
    return None


def _setup(d: Mapping[str, Any]) -> str:
    table = catalog(d["data"])
    chosen = set(d["objectives"])
    rows = [table.objectives[o] for o in table.objective_ids(d["types"]) if o in chosen]
    objectives = ", ".join(f"{o['name']} ({o['text']})" for o in rows)
    lands = "; ".join(
        f"{s}: "
        + ", ".join(f"{table.landscapes[x]['name']} [{table.landscapes[x]['set']}]" for x in xs)
        for s, xs in d["landscapes"].items()
    )
    garden = cards(_hand_order(d["garden"], d["types"]))
    return (
        f"Setup: {len(d['seats'])} players, leaf types {', '.join(d['types'])}; "
        f"{d['acorns']} acorns each; garden {garden}; deck {d['deck']}; "
        f"objectives {objectives}; landscapes {lands}; "
        f"the game ends when the deck is empty or {d['torii_limit']} piles are closed."
    )


def _pile(p: Mapping[str, Any]) -> str:
    where = "a new" if p["new"] else "the"
    count = "a card" if p["count"] == 1 else "2 cards"
    text = f"{count} on {where} {p['type']} pile"
    if "at" in p:  # a new pile placed by the player (MOM-R5), counted from 1 for readers
        text += f" placed {_ordinal(p['at'] + 1)} from the left"
    text += f", now showing {card(p['top'])}"
    return text + (" and closed by a torii" if p["closed"] else "")


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


def _objective(d: Mapping[str, Any]) -> str:
    values = ", ".join(f"{s} {v}" for s, v in d["values"].items())
    if not d["best"]:
        return f"Objective {d['name']} (owner {d['owner']}): nobody meets it ({values})."
    points = ", ".join(f"{s} +{p}" for s, p in d["points"].items())
    return f"Objective {d['name']} (owner {d['owner']}): {values}; {points}."


def score_line(seat: str, s: Mapping[str, Any]) -> str:
    """Return one row of the final score table."""
    b = s["breakdown"]
    parts = [f"{p['type']} {_n(p['cards'], 'card')} x {p['top']}" for p in s["piles"]]
    piles = " + ".join(parts) or "no pile"
    return (
        f"Score {seat}: piles {piles} = {b['piles']}; acorns {b['acorns']}; "
        f"objectives {b['objectives']}; total {b['total']}."
    )


def label(action: Mapping[str, Any]) -> str:
    """Return a short human label for a decision (``arbiter moves``)."""
    kind = action.get("kind")
    if kind == "collect":
        return f"collect every {action.get('type')} card of the garden"
    if kind == "reveal":
        return "pay 1 acorn to reveal 4 more garden cards (then collect)"
    if kind == "play":
        text = "play " + cards(list(action.get("cards", [])))
        if "at" in action:
            text += f", new piles at {', '.join(str(i) for i in action['at'])} (0 = leftmost)"
        return text
    if kind == "activate":
        return f"pay 3 acorns to activate objective {action.get('objective')}"
    if kind == "discard":
        return f"discard {cards(list(action.get('cards', [])))} for 1 acorn"
    if kind == "power":
        extra = [
            f"{k}={card(str(v))}"
            for k, v in sorted(action.items())
            if k not in ("kind", "landscape")
        ]
        return " ".join([f"pay 1 acorn: landscape {action.get('landscape')}", *extra])
    if kind == "hand-limit":
        return f"discard {card(str(action.get('card')))} (hand limit)"
    return "end the turn" if kind == "end" else str(kind)


def render(view: Mapping[str, Any], seat: str | None) -> list[str]:
    """Return terminal lines for a view: the centre, then each player's area."""
    t = view["turn"]
    now = f"{t['seat']} ({PHASES[t['phase']]})"
    if view.get("ended"):
        now = f"game over, {REASONS[view['ended']]}"
    lines = [
        f"Momiji, turn {t['number']}: {now}; deck {view['deck']}; "
        f"torii {view['torii']['closed']}/{view['torii']['limit']}.",
        f"Garden: {cards(view['garden'])}.",
        f"Objectives in the centre: {', '.join(view['objectives']) or 'none'}.",
    ]
    for other in view["seats"]:
        p = view["players"][other]
        hand = cards(p["hand"]) if p["hand"] is not None else _n(p["hand_size"], "card")
        known = f" (known: {cards(p['known'])})" if p["known"] and p["hand"] is None else ""
        piles = ", ".join(card(q["top"]) + (" [torii]" if q["closed"] else "") for q in p["piles"])
        unused = [x["id"] for x in p["landscapes"] if not x["used"]]
        lines.append(
            f"{other}{' (you)' if other == seat else ''}: hand {hand}{known}; {p['acorns']} acorns; "
            f"piles {piles or 'none'}; objectives {', '.join(p['objectives']) or 'none'}; "
            f"landscapes unused {', '.join(unused) or 'none'}."
        )
    result = view.get("result")
    if result:
        lines += [score_line(s, result["seats"][s]) for s in view["seats"]]
    return lines
