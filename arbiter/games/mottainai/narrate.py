"""Readable log lines in the Yucata manner, and terminal rendering.

A card is reduced to what matters where it is: its task when it is a task or a helper,
its material when it is a material or a sale, its name when it is a work. A task whose
owner has an obstruction effect is shown in parentheses. Each seat's own log adds what
only it saw: its hand at the deal, the cards it returned, the cards it took in at night.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import INSTANCES, MATERIAL, TASKS
from arbiter.games.mottainai.effects.registry import NARRATORS, PUBLIC_NARRATORS

WING_NAMES = {"gallery": "gallery", "gift_shop": "gift shop"}
PERSONAL = frozenset({"deal", "return", "night"})
"""Event kinds whose line depends on the reader: the event's own seat reads more than the
others, who all read alike (``_personal``); other kinds read alike for everyone."""

# Every line names cards, about two events per decision and one line per viewer: the
# pieces of text a card shows are built once per instance id (``kite#2`` too).
NAME: dict[str, str] = {i: c.name for i, c in INSTANCES.items()}
"""Instance id → the card's name (``Deck of Cards``)."""
TASK: dict[str, str] = {i: c.task for i, c in INSTANCES.items()}
"""Instance id → the card as a task (``POTTER``)."""
OBSTRUCTED: dict[str, str] = {i: f"({c.task})" for i, c in INSTANCES.items()}
"""Instance id → the card as a task whose owner has an obstruction effect (``(POTTER)``)."""
FLOOR: dict[str, str] = {i: f"{c.name} [{c.material}]" for i, c in INSTANCES.items()}
"""Instance id → the card lying on the floor (``Bowl [CLAY]``)."""
WORK: dict[str, str] = {i: f"{c.name} ({c.material} {c.value})" for i, c in INSTANCES.items()}
"""Instance id → the card as a completed work (``Bowl (CLAY 3)``)."""


def learn(iid: str) -> None:
    """Add a Wutai card (already in ``INSTANCES``) to the tables of names above."""
    c = INSTANCES[iid]
    NAME[iid] = c.name
    TASK[iid] = c.task
    OBSTRUCTED[iid] = f"({c.task})"
    FLOOR[iid] = f"{c.name} [{c.material}]"
    WORK[iid] = f"{c.name} ({c.material} {c.value}, Om)"
    _DRAW_WHY[iid] = c.name


def forget(iid: str) -> None:
    """Drop a Wutai card of a list no longer installed from the tables of names."""
    for table in (NAME, TASK, OBSTRUCTED, FLOOR, WORK, _DRAW_WHY):
        table.pop(iid, None)


def name(iid: str) -> str:
    """Return a card's name, e.g. ``Deck of Cards``."""
    return NAME[iid]


def task(iid: str, obstructed: bool = False) -> str:
    """Return a card as a task: ``POTTER``, or ``(POTTER)`` when obstructed."""
    return OBSTRUCTED[iid] if obstructed else TASK[iid]


def floor_card(iid: str) -> str:
    """Return a card lying on the floor: its name and material, e.g. ``Bowl [CLAY]``."""
    return FLOOR[iid]


def names(cards: list[str]) -> str:
    return ", ".join(map(NAME.__getitem__, cards)) or "nothing"


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def _actions(n: int) -> str:
    return f"{n} action{'s' if n > 1 else ''}"


Line = Callable[[dict[str, Any], str | None], str | None]
"""``fn(data, viewer)``: the line of one event kind (viewer only read by ``PERSONAL`` kinds)."""


def describe(event: Event, viewer: str | None) -> str | None:
    """Return the line ``viewer`` reads for ``event`` (None: nothing to say)."""
    # Own kinds first, then those of effect modules (``@narrates``).
    told = LINES.get(event.kind) or NARRATORS.get(event.kind)
    return None if told is None else told(event.data, viewer)


def describe_all(event: Event, viewers: list[str | None]) -> list[str | None]:
    """Return ``describe(event, v)`` for each of ``viewers``, narrating each distinct line once."""
    kind = event.kind
    try:  # subscripts rather than ``dict.get`` here and below: a replay's hottest lines
        told = LINES[kind]
    except KeyError:
        return _narrated(event, viewers)
    if kind in PERSONAL:
        return _personal(told, event.data, viewers)
    return [told(event.data, None)] * len(viewers)  # most events: one line for everyone


def _narrated(event: Event, viewers: list[str | None]) -> list[str | None]:
    """Return the lines of an event of an effect module (``@narrates``) for each viewer."""
    kind = event.kind
    told = NARRATORS.get(kind)
    if told is None:
        return [None] * len(viewers)
    if kind in PUBLIC_NARRATORS:
        return [told(event.data, None)] * len(viewers)
    return [told(event.data, viewer) for viewer in viewers]


def _personal(told: Line, d: dict[str, Any], viewers: list[str | None]) -> list[str | None]:
    """Only the seat the event concerns reads more than everyone else: two lines at most."""
    seat = d.get("seat")
    others = told(d, None)
    if seat is None or seat not in viewers:
        return [others] * len(viewers)
    own = told(d, seat)
    return [own if viewer == seat else others for viewer in viewers]


# -- one function per event kind: ``fn(data, viewer)`` ------------------------------------


def _deal(d: Mapping[str, Any], viewer: str | None) -> str | None:
    seat = d.get("seat")
    return f"{seat}'s hand: {names(d['cards'])}." if viewer is not None and viewer == seat else None


def _turn(d: Mapping[str, Any], viewer: str | None) -> str:
    return f"Turn {d['turn']}: {d['seat']}."


def _old_task(d: Mapping[str, Any], viewer: str | None) -> str:
    which = "face-down task" if d["face_down"] else "old task"
    return f"Morning: {d['seat']}'s {which} {FLOOR[d['card']]} goes to the floor."


def _task(d: Mapping[str, Any], viewer: str | None) -> str:
    iid = d["card"]
    if iid is None:
        return f"Morning: {d['seat']} chooses no task."
    label = OBSTRUCTED[iid] if d["obstructed"] else TASK[iid]
    return f"Morning: {d['seat']} chooses the task {label}."


def _pray_instead(d: Mapping[str, Any], viewer: str | None) -> str:
    return f"Noon: {d['seat']} has no task of their own: one PRAYER."


RETURN_WHY = {"limit": "hand limit", "tailor": "TAILOR"}


def _return(d: Mapping[str, Any], viewer: str | None) -> str:
    seat = d["seat"]
    why = d["why"]
    why = RETURN_WHY[why] if why in RETURN_WHY else NAME[why]
    what = NAME[d["card"]] if viewer is not None and viewer == seat else "a card"
    return f"{seat} returns {what} to the bottom of the deck ({why})."


def _draw(d: Mapping[str, Any], viewer: str | None) -> str:
    seat, why, count = d["seat"], d["why"], d["count"]
    om = d.get("wutai")
    if om:  # Wutai: the card backs show how many are Wutai cards (M-R102)
        line = _draw_line(seat, why, count)
        return f"{line[:-1]}; {'a Wutai card' if om == 1 else f'{om} Wutai cards'} among them."
    return _draw_line(seat, why, count)


def _draw_line(seat: str, why: str, count: int) -> str:
    if why == "prayer":
        return f"{seat} prays: {_cards(count)} to the waiting area (PRAYER)."
    if count == 0:
        return f"{seat} draws nothing: hand and waiting area hold 5 (TAILOR)."
    return f"{seat} draws {_cards(count)} to the waiting area ({_draw_why(why)})."


def _clerk(d: Mapping[str, Any], viewer: str | None) -> str:
    return f"{d['seat']} sells {MATERIAL[d['card']]} from the craft bench (CLERK)."


def _monk(d: Mapping[str, Any], viewer: str | None) -> str:
    return f"{d['seat']} hires a {TASK[d['card']]} helper from the floor (MONK)."


def _potter(d: Mapping[str, Any], viewer: str | None) -> str:
    return f"{d['seat']} collects {MATERIAL[d['card']]} from the floor (POTTER)."


def _night(d: Mapping[str, Any], viewer: str | None) -> str:
    seat, cards = d["seat"], d["cards"]
    if not cards:
        return f"Night: {seat}'s waiting area is empty."
    # In card order (M-R132): a hand's arrival order is kept only where it is seen whole.
    hand = names(sorted(cards)) if viewer is not None and viewer == seat else _cards(len(cards))
    return f"Night: {seat} takes {hand} from the waiting area into hand."


def _effect(d: Mapping[str, Any], viewer: str | None) -> str:
    copy = f" (as {NAME[d['as']]})" if d["as"] != d["card"] else ""
    return f"{d['seat']} uses {NAME[d['card']]}{copy}."


PLACES = {"deck": "the deck", "floor": "the floor", "bench": "craft bench", "sales": "sales"}


def _moved(d: Mapping[str, Any], viewer: str | None) -> str:
    to = PLACES[d["to"]] if d["to"] in ("deck", "floor") else f"{d.get('seat')}'s {PLACES[d['to']]}"
    return f"{NAME[d['by']]}: {FLOOR[d['card']]} goes from {PLACES[d['from']]} to {to}."


def _end(d: Mapping[str, Any], viewer: str | None) -> str:
    seat, reason = d.get("seat"), d["reason"]
    if reason == "cup":
        return f"{seat} returns Cup: the game ends at once."
    if reason == "turtle":
        return f"{seat} has works of all five materials: Turtle wins the game at once."
    if reason == "deck":
        return "The last card is drawn: the game ends at once (M-R2)."
    if reason == "wing":
        return f"{seat}'s {WING_NAMES[d['wing']]} is full: the game ends at once (M-R3)."
    if reason == "wutai-deck":
        return "The last Wutai card is drawn: the game ends at once (M-R105)."
    return f"The game ends ({reason})."


_DRAW_WHY = {"tailor": "TAILOR", "prayer": "PRAYER", **NAME}


def _draw_why(why: str) -> str:
    """Return what made a seat draw: an action (``TAILOR``) or a card's name (``Stool``)."""
    if why in _DRAW_WHY:
        return _DRAW_WHY[why]
    return NAME.get(why.replace(" ", "-"), why)


def _fx(d: Mapping[str, Any], viewer: str | None) -> str:
    """Return the public line of a card effect's move (issue 5 part A cards)."""
    seat, fx, by = d["seat"], d["fx"], NAME[d["card"]]
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
        return f"Shuriken: {seat} takes {NAME[d['target']]} from {d['owner']} into their {WING_NAMES[d['wing']]}."
    if fx == "floor-to":
        to = "craft bench" if d["to"] == "bench" else "sales"
        return f"{by}: {seat} moves {', '.join(map(FLOOR.__getitem__, d['cards']))} from the floor to their {to}."
    if fx == "tablet-return":
        return f"Tablet: {seat} returns the floor ({names(d['cards'])}) to the bottom of the deck."
    if fx == "tablet-deal":
        dealt = ", ".join(map(FLOOR.__getitem__, d["cards"])) or "nothing"
        return f"Tablet: {seat} deals {dealt} from the deck to the floor."
    if fx == "sell":
        return f"{by}: {seat} sells {MATERIAL[d['target']]} from the craft bench."
    if fx == "return-work":
        return f"{by}: {seat} returns {NAME[d['target']]} to the bottom of the deck."
    if fx == "poem":
        return (
            f"Poem: {seat} returns {NAME[d['target']]} to the bottom of the deck and turns up "
            f"{FLOOR[d['top']]} from the deck."
        )
    if fx == "cup":
        return f"Cup: {seat} returns Cup to the bottom of the deck."
    if fx == "gong":
        return f"Gong: Gong goes from {seat}'s temple to their waiting area."
    if fx == "plane":
        return f"Plane: {seat} moves {NAME[d['target']]} to their {WING_NAMES[d['wing']]}."
    if fx == "ring":
        return f"Ring: {seat} takes a {MATERIAL[d['target']]} sale from {d['owner']}."
    if fx == "reveal":
        shown = ", ".join(map(FLOOR.__getitem__, d["cards"]))
        return f"{by}: {seat} reveals {shown} from their hand."
    return f"{by}: {seat} uses its effect."


def _setup(d: Mapping[str, Any], viewer: str | None) -> str:
    decks = "one deck" if d["decks"] == 1 else "two decks"
    floor = ", ".join(f"{s} {FLOOR[c]}" for s, c in d["floor"].items())
    extras = []
    if d["extended"]:
        extras.append("extended game (6 works)")
    if d["teams"]:
        s = d["seats"]
        extras.append(f"teams {s[0]}+{s[2]} v {s[1]}+{s[3]}")
    extra = f" ({', '.join(extras)})" if extras else ""
    line = (
        f"Setup: {len(d['seats'])} players, {decks}{extra}; each has 5 cards and a face-down task. "
        f"Floor: {floor}. {d['start']} starts (first floor card alphabetically). Deck: {d['deck']}."
    )
    w = d.get("wutai")
    if w is None:
        return line
    return line + (
        f" Wutai Mountain: each hand holds 4 base cards and 1 Wutai card; Wutai deck: "
        f"{w['deck']}. PROVISIONAL card list: {w['placeholders']} of {w['cards']} Om cards are "
        f"vanilla placeholders and {w['unconfirmed']} are not printed text (M-R113, M-R118)."
    )


def _task_start(d: Mapping[str, Any], viewer: str | None) -> str:
    seat, owner = d["seat"], d["owner"]
    whose = "their own" if owner == seat else f"{owner}'s"
    helpers, extra = d["helpers"], d["extra"]
    why = ""
    if helpers or extra:  # ``(1 + 2 from covered helpers + 1 from effects)``
        parts = ["1"]
        if helpers:
            parts.append(f"{helpers} from {'covered ' if d['covered'] else ''}helpers")
        if extra:
            parts.append(f"{extra} from effects")
        why = f" ({' + '.join(parts)})"
    label = OBSTRUCTED[d["card"]] if d["obstructed"] else TASK[d["card"]]
    return f"Noon: {seat} performs {whose} {label} task: {_actions(d['actions'])}{why}."


def _work(d: Mapping[str, Any], viewer: str | None) -> str:
    how = d["how"].upper()
    line = f"{d['seat']} completes {WORK[d['card']]} in the {WING_NAMES[d['wing']]} ({how}"
    if d.get("support"):
        line += f", revealing {names(d['support'])}"
    return line + ")."


def score_line(d: Mapping[str, Any], viewer: str | None = None) -> str:
    """Return one row of the score composition."""
    p = d["parts"]
    sales = f" ({', '.join(d['covered_sales'])})" if d["covered_sales"] else ""
    orders = ", ".join(f"{m} {v}" for m, v in d["backorders"].items())
    orders = f" ({orders})" if orders else ""
    cards = ", ".join(f"{NAME[w]} {v}" for w, v in d["card_points"].items())
    cards = f" ({cards})" if cards else ""
    return (
        f"Score {d['seat']}: works {p['works']} + covered sales {p['sales']}{sales} + "
        f"backorders {p['backorders']}{orders} + cards {p['cards']}{cards} = {p['total']}."
    )


def _result(d: Mapping[str, Any], viewer: str | None) -> str:
    first = d["ranking"][0]
    line = f"{' and '.join(first)} {'wins' if len(first) == 1 else 'win'} with {d['scores'][first[0]]}."
    if d.get("tiebreak"):
        line += f" Tie-break: {d['tiebreak']}."
    return line


EDGE_NAMES = {"helpers": "Om helper", "materials": "Om material", "sales": "Om sale"}


def _tuck(d: Mapping[str, Any], viewer: str | None) -> str:
    c, edge = d["card"], d["edge"]
    shown = TASK[c] if edge == "helpers" else MATERIAL[c]
    by = d.get("by")
    how = f" ({by.upper()}, instead of the temple)" if by else ""
    return f"{d['seat']} tucks {FLOOR[c]} under {NAME[d['work']]} as an {EDGE_NAMES[edge]} ({shown}){how}."


TEMPLE_ZONES = {"helpers": "helpers", "bench": "craft bench", "sales": "sales"}


def _place(d: Mapping[str, Any], viewer: str | None) -> str:
    """An effect's card stays in the temple or goes under an Om work (M-R119)."""
    c, seat, zone, by = d["card"], d["seat"], TEMPLE_ZONES[d["zone"]], NAME[d["by"]]
    work = d.get("work")
    if work is None:
        return f"{seat} leaves {FLOOR[c]} in their {zone}, not under an Om work ({by})."
    edge = d["edge"]
    shown = TASK[c] if edge == "helpers" else MATERIAL[c]
    return (
        f"{seat} tucks {FLOOR[c]} under {NAME[work]} as an {EDGE_NAMES[edge]} ({shown}) "
        f"instead of their {zone} ({by})."
    )


def _om_orphans(d: Mapping[str, Any], viewer: str | None) -> str:
    to = "the floor" if d["to"] == "floor" else "the bottom of their decks"
    return f"{NAME[d['work']]} left play: the cards under it ({names(d['cards'])}) go to {to} (M-R112)."


LINES: dict[str, Line] = {
    "tuck": _tuck,
    "place": _place,
    "om-orphans": _om_orphans,
    "setup": _setup,
    "deal": _deal,
    "turn": _turn,
    "old-task": _old_task,
    "task": _task,
    "pray-instead": _pray_instead,
    "task-start": _task_start,
    "return": _return,
    "draw": _draw,
    "clerk": _clerk,
    "monk": _monk,
    "potter": _potter,
    "work": _work,
    "night": _night,
    "effect": _effect,
    "moved": _moved,
    "fx": _fx,
    "end": _end,
    "score": score_line,
    "result": _result,
}
"""Event kind → its line; kinds of effect modules are in ``NARRATORS`` (``@narrates``)."""


def _covered(materials: list[str], as_tasks: bool) -> str:
    """Return `` (covered: CLAY)`` for the covered materials (helpers read as tasks)."""
    if not materials:
        return ""
    shown = [TASKS[m] if as_tasks else m for m in materials]
    return f" (covered: {', '.join(shown)})"


def obstructs(view: Mapping[str, Any], owner: str) -> bool:
    """Return whether ``owner`` has a work with an obstruction effect (Bangle, Curtain, Mask,
    Tower; a Kite copy counts as its model), as a view shows it: its task is then written
    in parentheses, as in the log."""
    p = view["players"][owner]
    copies = view.get("copies") or {}
    return any(
        INSTANCES[copies.get(work, work)].window == "obstruction"
        for work in p["gallery"] + p["gift_shop"]
    )


def render(view: Mapping[str, Any], seat: str | None) -> list[str]:
    """Return terminal lines for a view: the table, then each temple."""
    lines = [
        f"Mottainai, turn {view['turn']} ({view['current']} to play, {view['phase']}); "
        f"deck {view['deck']['count']}; floor: {', '.join(map(FLOOR.__getitem__, view['floor'])) or '-'}."
    ]
    doing = view.get("task")
    if doing:
        whose = "their own" if doing["owner"] == view["current"] else f"{doing['owner']}'s"
        # The log's reading: only an opponent's task is obstructed for the one performing it.
        blocked = doing["owner"] != view["current"] and obstructs(view, doing["owner"])
        what = f"{whose} {task(doing['card'], blocked)} task"
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
    shown = view.get("revealed")
    if shown and shown["cards"]:  # a SMITH needing no support reveals nothing worth a line
        lines.append(f"{shown['seat']} reveals {names(shown['cards'])}.")
    for s in view["seats"]:
        p = view["players"][s]
        you = " (you)" if s == seat else ""
        slot = (
            "face down"
            if p["task_face_down"]
            else (task(p["task"], obstructs(view, s)) if p["task"] else "none")
        )
        hand = names(p["hand"]) if "hand" in p else f"{p['hand_count']} cards"
        lines.append(
            f"{s}{you}: task {slot}; hand {hand}; waiting {p['waiting_count']}; "
            f"helpers {', '.join(task(c) for c in p['helpers']) or '-'}"
            f"{_covered(p['covered_helpers'], True)}; "
            f"bench {', '.join(MATERIAL[c] for c in p['craft_bench']) or '-'}; "
            f"sales {', '.join(MATERIAL[c] for c in p['sales']) or '-'}"
            f"{_covered(p['covered_sales'], False)}; "
            f"gallery {names(p['gallery'])}; gift shop {names(p['gift_shop'])}."
        )
    return lines
