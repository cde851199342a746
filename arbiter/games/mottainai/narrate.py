"""Readable log lines in the Yucata manner, and terminal rendering.

A card is reduced to what matters where it is: its task when it is a task or a helper,
its material when it is a material or a sale, its name when it is a work. A task whose
owner has an obstruction effect is shown in parentheses. Each seat's own log adds what
only it saw: its hand at the deal, the cards it returned, the cards it took in at night.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import TASKS, card
from arbiter.games.mottainai.effects.registry import NARRATORS

WING_NAMES = {"gallery": "gallery", "gift_shop": "gift shop"}
PERSONAL = frozenset({"deal", "return", "night"})
"""Event kinds whose line depends on the reader: the event's own seat reads more than the
others, who all read alike (``describe_personal``); other kinds read alike for everyone."""


def name(iid: str) -> str:
    """Return a card's name, e.g. ``Deck of Cards``."""
    return card(iid).name


def task(iid: str, obstructed: bool = False) -> str:
    """Return a card as a task: ``POTTER``, or ``(POTTER)`` when obstructed."""
    label = card(iid).task
    return f"({label})" if obstructed else label


def floor_card(iid: str) -> str:
    """Return a card lying on the floor: its name and material, e.g. ``Bowl [CLAY]``."""
    c = card(iid)
    return f"{c.name} [{c.material}]"


def names(cards: list[str]) -> str:
    return ", ".join(name(c) for c in cards) or "nothing"


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def describe(event: Event, viewer: str | None) -> str | None:
    """Return the line ``viewer`` reads for ``event`` (None: nothing to say)."""
    d = event.data
    kind = event.kind
    seat = d.get("seat")
    mine = viewer is not None and viewer == seat
    if kind == "setup":
        return _setup(d)
    if kind == "deal":
        return f"{seat}'s hand: {names(d['cards'])}." if mine else None
    if kind == "turn":
        return f"Turn {d['turn']}: {seat}."
    if kind == "old-task":
        which = "face-down task" if d["face_down"] else "old task"
        return f"Morning: {seat}'s {which} {floor_card(d['card'])} goes to the floor."
    if kind == "task":
        if d["card"] is None:
            return f"Morning: {seat} chooses no task."
        return f"Morning: {seat} chooses the task {task(d['card'], d['obstructed'])}."
    if kind == "pray-instead":
        return f"Noon: {seat} has no task of their own: one PRAYER."
    if kind == "task-start":
        return _task_start(d)
    if kind == "return":
        why = {"limit": "hand limit", "tailor": "TAILOR"}.get(d["why"]) or name(d["why"])
        what = name(d["card"]) if mine else "a card"
        return f"{seat} returns {what} to the bottom of the deck ({why})."
    if kind == "draw":
        if d["why"] == "prayer":
            return f"{seat} prays: {_cards(d['count'])} to the waiting area (PRAYER)."
        if d["count"] == 0:
            return f"{seat} draws nothing: hand and waiting area hold 5 (TAILOR)."
        return f"{seat} draws {_cards(d['count'])} to the waiting area ({_draw_why(d['why'])})."
    if kind == "clerk":
        return f"{seat} sells {card(d['card']).material} from the craft bench (CLERK)."
    if kind == "monk":
        return f"{seat} hires a {task(d['card'])} helper from the floor (MONK)."
    if kind == "potter":
        return f"{seat} collects {card(d['card']).material} from the floor (POTTER)."
    if kind == "work":
        return _work(d)
    if kind == "night":
        hand = f"{names(d['cards'])}" if mine else _cards(len(d["cards"]))
        if not d["cards"]:
            return f"Night: {seat}'s waiting area is empty."
        return f"Night: {seat} takes {hand} from the waiting area into hand."
    if kind == "effect":
        copy = f" (as {name(d['as'])})" if d["as"] != d["card"] else ""
        return f"{seat} uses {name(d['card'])}{copy}."
    if kind == "moved":
        places = {
            "deck": "the deck",
            "floor": "the floor",
            "bench": "craft bench",
            "sales": "sales",
        }
        to = places[d["to"]] if d["to"] in ("deck", "floor") else f"{seat}'s {places[d['to']]}"
        return f"{name(d['by'])}: {floor_card(d['card'])} goes from {places[d['from']]} to {to}."
    if kind == "fx":
        return _fx(d)
    if kind == "end":
        if d["reason"] == "cup":
            return f"{seat} returns Cup: the game ends at once."
        if d["reason"] == "turtle":
            return f"{seat} has works of all five materials: Turtle wins the game at once."
        if d["reason"] == "deck":
            return "The last card is drawn: the game ends at once (M-R2)."
        if d["reason"] == "wing":
            return f"{seat}'s {WING_NAMES[d['wing']]} is full: the game ends at once (M-R3)."
        return f"The game ends ({d['reason']})."
    if kind == "score":
        return score_line(d)
    if kind == "result":
        return _result(d)
    told = NARRATORS.get(kind)  # events of effect modules (``@narrates``)
    return None if told is None else told(d, viewer)


def describe_personal(event: Event, viewers: list[str | None]) -> list[str | None]:
    """Return ``describe(event, v)`` for each viewer of a ``PERSONAL`` event.

    Only the seat the event concerns reads more than everyone else: two lines at most.
    """
    seat = event.data.get("seat")
    others = describe(event, None)
    own = describe(event, seat) if seat is not None and seat in viewers else others
    return [own if viewer is not None and viewer == seat else others for viewer in viewers]


def _draw_why(why: str) -> str:
    """Return what made a seat draw: an action (``TAILOR``) or a card's name (``Stool``)."""
    if why in ("tailor", "prayer"):
        return why.upper()
    try:
        return name(why.replace(" ", "-"))
    except KeyError:
        return why


def _fx(d: Mapping[str, Any]) -> str:
    """Return the public line of a card effect's move (issue 5 part A cards)."""
    seat, fx, by = d["seat"], d["fx"], name(d["card"])
    if fx == "frog":
        return f"Frog: {seat} takes a bonus turn after this one."
    if fx == "jar":
        shown = "; ".join(f"{o} reveals {names(h)}" for o, h in d["hands"].items())
        given = ", ".join(f"{o} {len(t)}" for o, t in d["taken"].items())
        return (
            f"Jar: {seat} names {d['material']}; {shown or 'no opponent'}. Their {d['material']} "
            f"cards go to {seat}'s waiting area ({given})."
        )
    if fx == "shuriken":
        return f"Shuriken: {seat} takes {name(d['target'])} from {d['owner']} into their {WING_NAMES[d['wing']]}."
    if fx == "floor-to":
        to = "craft bench" if d["to"] == "bench" else "sales"
        return f"{by}: {seat} moves {', '.join(map(floor_card, d['cards']))} from the floor to their {to}."
    if fx == "tablet-return":
        return f"Tablet: {seat} returns the floor ({names(d['cards'])}) to the bottom of the deck."
    if fx == "tablet-deal":
        dealt = ", ".join(map(floor_card, d["cards"])) or "nothing"
        return f"Tablet: {seat} deals {dealt} from the deck to the floor."
    if fx == "sell":
        return f"{by}: {seat} sells {card(d['target']).material} from the craft bench."
    if fx == "return-work":
        return f"{by}: {seat} returns {name(d['target'])} to the bottom of the deck."
    if fx == "poem":
        return (
            f"Poem: {seat} returns {name(d['target'])} to the bottom of the deck and turns up "
            f"{floor_card(d['top'])} from the deck."
        )
    if fx == "cup":
        return f"Cup: {seat} returns Cup to the bottom of the deck."
    if fx == "gong":
        return f"Gong: Gong goes from {seat}'s temple to their waiting area."
    if fx == "plane":
        return f"Plane: {seat} moves {name(d['target'])} to their {WING_NAMES[d['wing']]}."
    if fx == "ring":
        return f"Ring: {seat} takes a {card(d['target']).material} sale from {d['owner']}."
    if fx == "reveal":
        return f"{by}: {seat} reveals {', '.join(map(floor_card, d['cards']))} from their hand."
    return f"{by}: {seat} uses its effect."


def _setup(d: Mapping[str, Any]) -> str:
    decks = "one deck" if d["decks"] == 1 else "two decks"
    floor = ", ".join(f"{s} {floor_card(c)}" for s, c in d["floor"].items())
    extras = []
    if d["extended"]:
        extras.append("extended game (6 works)")
    if d["teams"]:
        s = d["seats"]
        extras.append(f"teams {s[0]}+{s[2]} v {s[1]}+{s[3]}")
    extra = f" ({', '.join(extras)})" if extras else ""
    return (
        f"Setup: {len(d['seats'])} players, {decks}{extra}; each has 5 cards and a face-down task. "
        f"Floor: {floor}. {d['start']} starts (first floor card alphabetically). Deck: {d['deck']}."
    )


def _task_start(d: Mapping[str, Any]) -> str:
    owner = "their own" if d["owner"] == d["seat"] else f"{d['owner']}'s"
    parts = ["1"]
    if d["helpers"]:
        parts.append(f"{d['helpers']} from {'covered ' if d['covered'] else ''}helpers")
    if d["extra"]:
        parts.append(f"{d['extra']} from effects")
    why = f" ({' + '.join(parts)})" if len(parts) > 1 else ""
    n = d["actions"]
    label = task(d["card"], d["obstructed"])
    return (
        f"Noon: {d['seat']} performs {owner} {label} task: {n} action{'s' if n > 1 else ''}{why}."
    )


def _work(d: Mapping[str, Any]) -> str:
    c = card(d["card"])
    how = d["how"].upper()
    line = f"{d['seat']} completes {c.name} ({c.material} {c.value}) in the {WING_NAMES[d['wing']]} ({how}"
    if d.get("support"):
        line += f", revealing {names(d['support'])}"
    return line + ")."


def score_line(d: Mapping[str, Any]) -> str:
    """Return one row of the score composition."""
    p = d["parts"]
    sales = f" ({', '.join(d['covered_sales'])})" if d["covered_sales"] else ""
    orders = ", ".join(f"{m} {v}" for m, v in d["backorders"].items())
    orders = f" ({orders})" if orders else ""
    cards = ", ".join(f"{name(w)} {v}" for w, v in d["card_points"].items())
    cards = f" ({cards})" if cards else ""
    return (
        f"Score {d['seat']}: works {p['works']} + covered sales {p['sales']}{sales} + "
        f"backorders {p['backorders']}{orders} + cards {p['cards']}{cards} = {p['total']}."
    )


def _result(d: Mapping[str, Any]) -> str:
    first = d["ranking"][0]
    line = f"{' and '.join(first)} {'wins' if len(first) == 1 else 'win'} with {d['scores'][first[0]]}."
    if d.get("tiebreak"):
        line += f" Tie-break: {d['tiebreak']}."
    return line


def _covered(materials: list[str], as_tasks: bool) -> str:
    """Return `` (covered: CLAY)`` for the covered materials (helpers read as tasks)."""
    if not materials:
        return ""
    shown = [TASKS[m] if as_tasks else m for m in materials]
    return f" (covered: {', '.join(shown)})"


def render(view: Mapping[str, Any], seat: str | None) -> list[str]:
    """Return terminal lines for a view: the table, then each temple."""
    lines = [
        f"Mottainai, turn {view['turn']} ({view['current']} to play, {view['phase']}); "
        f"deck {view['deck']['count']}; floor: {', '.join(floor_card(c) for c in view['floor']) or '-'}."
    ]
    doing = view.get("task")
    if doing:
        whose = "their own" if doing["owner"] == view["current"] else f"{doing['owner']}'s"
        what = f"{whose} {task(doing['card'])} task"
        lines.append(
            f"Noon: {view['current']} performs {what}, action {doing['done'] + 1} of {doing['total']}."
            if doing["total"]
            else f"Noon: {view['current']} is about to perform {what}."
        )
    deck = view["deck"]
    if deck.get("top"):
        lines.append(f"Deck top (face up): {floor_card(deck['top'])}.")
    if deck.get("returned_by_you"):
        lines.append(f"You returned to the deck: {names(deck['returned_by_you'])}.")
    if view.get("revealed"):
        shown = view["revealed"]
        lines.append(f"{shown['seat']} reveals {names(shown['cards'])}.")
    for s in view["seats"]:
        p = view["players"][s]
        you = " (you)" if s == seat else ""
        slot = "face down" if p["task_face_down"] else (task(p["task"]) if p["task"] else "none")
        hand = names(p["hand"]) if "hand" in p else f"{p['hand_count']} cards"
        lines.append(
            f"{s}{you}: task {slot}; hand {hand}; waiting {p['waiting_count']}; "
            f"helpers {', '.join(task(c) for c in p['helpers']) or '-'}"
            f"{_covered(p['covered_helpers'], True)}; "
            f"bench {', '.join(card(c).material for c in p['craft_bench']) or '-'}; "
            f"sales {', '.join(card(c).material for c in p['sales']) or '-'}"
            f"{_covered(p['covered_sales'], False)}; "
            f"gallery {names(p['gallery'])}; gift shop {names(p['gift_shop'])}."
        )
    return lines
