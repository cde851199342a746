"""What a Mottainai view must hold beyond its schema, before ``determinize`` or ``render``
reads it (``Engine.view_problem``).

The schema types every field; here the fields are checked against each other: the seats
the view names are the state file's, every card id is one of the game's (the base deck,
two decks at 4-5 players, and the Wutai list the view names), no card lies in two open
places, each hidden zone's Wutai share fits in it, and the game is over exactly when the
view has a result. Card conservation itself is checked by the rebuild that follows
(``determinize`` raises ``ImpossibleView`` when the counts leave no way to deal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from arbiter.games.mottainai import wutai
from arbiter.games.mottainai.cards import deck_ids

TEMPLE = ("helpers", "craft_bench", "sales", "gallery", "gift_shop")


def problem(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    """Return what makes ``view`` impossible for ``state_file``'s reader, else ``None``."""
    for check in (_seats, _zones, _cards, _progress):
        found = check(view, state_file)
        if found is not None:
            return found
    return None


def _seats(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    seats = view["seats"]
    if view["viewer"] != state_file["seat"] or seats != state_file["seats"]:
        return "its viewer or seats are not the state file's"
    if len(set(seats)) != len(seats) or set(view["players"]) != set(seats):
        return "its players are not its seats, each once"
    named = [view["current"], view["start"], *view["queue"]]
    task, revealed, end = view["task"], view["revealed"], view["end"]
    if task is not None:
        named.append(task["owner"])
    if revealed is not None:
        named += [revealed["seat"], *revealed.get("hands", {})]
    if end is not None:
        named += [end["seat"], *([end["winner"]] if "winner" in end else [])]
    prompt = state_file["prompt"]
    if prompt is not None:
        named.append(prompt["seat"])
    if not set(named) <= set(seats):
        return "it names a seat that is not in the game"
    teams = view["teams"]
    if teams is not None and (len(seats) != 4 or teams != [seats[0::2], seats[1::2]]):
        return "its teams are not the seats across the table"
    return None


def _zones(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    viewer, w = view["viewer"], view.get("wutai")
    for s, p in view["players"].items():
        if ("hand" in p) != (s == viewer) or ("hand" in p and len(p["hand"]) != p["hand_count"]):
            return f"{s}'s hand is shown to another seat, or its count is not its cards"
        if p["task_face_down"] and p["task"] is not None:
            return f"{s}'s face-down task shows its card"
        split = ("hand_wutai" in p, "waiting_wutai" in p)
        if split != ((w is not None),) * 2:
            return f"{s}'s Wutai share of hand and waiting area is missing or out of place"
        if w is not None and (
            p["hand_wutai"] > p["hand_count"] or p["waiting_wutai"] > p["waiting_count"]
        ):
            return f"{s} has more Wutai cards than cards"
    decks = [view["deck"], *([w["deck"]] if w is not None else [])]
    for deck in decks:
        if ("returned_by_you" in deck) != (viewer is not None):
            return "the cards the viewer returned are missing, or shown to a spectator"
    top = view["deck"].get("top")
    if top is not None and top not in view["deck"].get("returned_publicly", ()):
        return "the deck's face-up top card was not returned in sight"
    if w is not None and "tucking" in w and w["tucking"] not in w["om"]:
        return "the Om work being tucked under is not an Om work in play"
    if w is not None and "placing" in w:
        temple = view["players"][view["current"]]
        for entry in w["placing"]:  # each waits in the deciding seat's temple (M-R119)
            zone = "craft_bench" if entry["zone"] == "bench" else entry["zone"]
            if entry["card"] not in temple[zone]:
                return "a card waiting to be placed is not in its temple zone"
    return None


def _cards(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    w = view.get("wutai")
    om: set[str] = set()
    if w is not None:
        listed = _wutai_list(w["cards"])
        if isinstance(listed, str):
            return listed
        om = set(listed)
    base = set(deck_ids(2 if len(view["seats"]) >= 4 else 1))
    allowed = base | om
    if any(c not in allowed for c in _every_card(view)):
        return "it names a card this game does not have"
    deck = view["deck"]
    if any(
        c not in base
        for c in [*deck.get("returned_by_you", ()), *deck.get("returned_publicly", ())]
    ):
        return "a Wutai card is listed in the base deck"
    if w is not None:
        wd = w["deck"]
        in_om = [*w["om"], *wd.get("returned_by_you", ()), *wd.get("returned_publicly", ())]
        if any(c not in om for c in in_om):
            return "a base card is listed as a Wutai card"
    open_places = Counter(_open_cards(view))
    if open_places and open_places.most_common(1)[0][1] > 1:
        return "a card lies in two places at once"
    return None


def _progress(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    over = view["phase"] == "over"
    # A forfeit ends the game without the engine: a state file may be over while its view
    # plays on, never the other way round.
    if over != (view["result"] is not None) or (over and state_file["status"] != "over"):
        return "the game is over in one place and not in another"
    if over != (view["end"] is not None):
        return "the game's end and its result disagree"
    result = view["result"]
    if result is not None:
        seats = set(view["seats"])
        ranked = [s for unit in result["ranking"] for s in unit]
        if set(result["seats"]) != seats or set(result["scores"]) != seats:
            return "its result does not score every seat once"
        if sorted(ranked) != sorted(seats):
            return "its ranking does not place every seat once"
    return None


def _wutai_list(cards: Any) -> list[str] | str:
    """Return the Om card ids of the list a view names (a string: what is wrong with it).

    A group's own list travels in the view without its notes (``views.ensure_view``
    installs it): it must be a valid list, and the list this process already knows by
    that digest, if any.
    """
    if cards == wutai.BUILTIN:
        return wutai.om_ids(wutai.register(wutai.BUILTIN))
    rows = [{**r, "note": ""} for r in cards["rows"]]
    if wutai.problem({"format": wutai.FORMAT, "cards": rows}) is not None:
        return "its own Wutai list is not a valid list"
    key = cards["digest"]
    if key in wutai.TABLES and wutai.rows_public(key) != cards["rows"]:
        return "its Wutai list is not the list of that digest"
    return [r["id"] for r in rows]


def _open_cards(view: Mapping[str, Any]) -> Iterator[str]:
    """Yield every card that lies face up or known in one place: each may be there once."""
    yield from view["floor"]
    for p in view["players"].values():
        for zone in TEMPLE:
            yield from p[zone]
        if p["task"] is not None:
            yield p["task"]
        yield from p.get("hand", ())
    for deck in (view["deck"], view.get("wutai", {}).get("deck", {})):
        yield from deck.get("returned_by_you", ())
        yield from deck.get("returned_publicly", ())
    for under in view.get("wutai", {}).get("om", {}).values():
        for cards in under.values():
            yield from cards


def _every_card(view: Mapping[str, Any]) -> Iterator[str]:
    """Yield every card id the view names anywhere (the open ones and those merely named)."""
    yield from _open_cards(view)
    for p in view["players"].values():
        yield from p.get("waiting_seen", ())
    task, revealed, result = view["task"], view["revealed"], view["result"]
    if task is not None:
        yield task["card"]
    if revealed is not None:
        yield from revealed["cards"]
        for cards in revealed.get("hands", {}).values():
            yield from cards
    for work, copy in view["copies"].items():
        yield from (work, copy)
    for trigger in view["triggers"]:
        yield from trigger["used"]
    if "top" in view["deck"]:
        yield view["deck"]["top"]
    w = view.get("wutai")
    if w is not None:
        yield from w["om"]
        if "tucking" in w:
            yield w["tucking"]
        for entry in w.get("placing", ()):
            yield from (entry["card"], entry["by"])
    if result is not None:
        for sheet in result["seats"].values():
            yield from sheet["card_points"]
