"""What a Momiji view must hold beyond its schema, before ``determinize`` or ``render``
reads it (``Engine.view_problem``).

The seats are the state file's; the leaf types in play are the first players + 2 of the
data's (each once); every card code is one of those types' (and, with the shipped data,
one of its cards); no open card is shown more often than the deck has it; hands, piles,
torii and objective tokens agree with each other. Whether the hidden cards can be dealt
is checked by the rebuild that follows (a game with a group's own data is not rebuilt:
no view carries its acorn corners).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from arbiter.games.momiji.data import BUILTIN, TOP, catalog, parse_code
from arbiter.games.momiji.determinize import shipped_data


def problem(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    """Return what makes ``view`` impossible for ``state_file``'s reader, else ``None``."""
    for check in (_seats, _cards, _players, _data, _progress):
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
    prompt = state_file["prompt"]
    named = [view["turn"]["seat"], *([prompt["seat"]] if prompt is not None else [])]
    if not set(named) <= set(seats):
        return "it names a seat that is not in the game"
    types = view["types"]
    if len(types) != len(seats) + 2 or len(set(types)) != len(types):
        return "its leaf types are not players + 2 types, each once"
    return None


def _codes(view: Mapping[str, Any]) -> Iterator[str]:
    """Yield every card code the view shows (hand cards once: the known ones are in it)."""
    yield from view["garden"]
    yield from view["discard"]
    for p in view["players"].values():
        yield from p["hand"] if p["hand"] is not None else p["known"]
        for q in p["piles"]:
            yield q["top"]


def _cards(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    types = set(view["types"])
    shipped = catalog(BUILTIN).cards if shipped_data(view) else None
    every = [*_codes(view), *(c for p in view["players"].values() for c in p["known"])]
    for code in every:
        card = parse_code(code)
        if card is None or card.type not in types or (shipped is not None and code not in shipped):
            return "it names a card this game does not have"
    if shipped is not None:
        deck = Counter(catalog(BUILTIN).deck(view["types"]))
        if Counter(_codes(view)) - deck:
            return "it shows a card more often than the deck has it"
    return None


def _players(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    viewer = view["viewer"]
    closed = 0
    for s, p in view["players"].items():
        hand = p["hand"]
        if (hand is not None) != (s == viewer):
            return f"{s}'s hand is shown to another seat, or hidden from its owner"
        if hand is not None and (len(hand) != p["hand_size"] or Counter(p["known"]) - Counter(hand)):
            return f"{s}'s hand size or known cards are not its hand's"
        if len(p["known"]) > p["hand_size"]:
            return f"{s} is known to hold more cards than it holds"
        kinds = [q["type"] for q in p["piles"]]
        if len(set(kinds)) != len(kinds):
            return f"{s} has two piles of one leaf type"
        for q in p["piles"]:
            card = parse_code(q["top"])
            if card is None or card.type != q["type"] or q["closed"] != (card.value == TOP):
                return f"a pile of {s}'s is topped by a card of another type, or its torii is wrong"
            closed += q["closed"]
    torii = view["torii"]
    if torii["closed"] != closed or torii["limit"] != len(view["seats"]) + 2:
        return "its torii count is not its closed piles'"
    return None


def _data(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    players = view["players"].values()
    owned = [o for p in players for o in p["objectives"]]
    tokens = [*view["objectives"], *owned]
    if len(set(tokens)) != len(tokens) or set(tokens) != set(view["objective_texts"]):
        return "its objective tokens are not each in one place, with their texts"
    ids = [x["id"] for p in players for x in p["landscapes"]]
    if len(set(ids)) != len(ids) or set(ids) != set(view["landscapes"]):
        return "its landscapes are not each with one seat, with their texts"
    return None


def _progress(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    result = view["result"]
    ended = view["ended"] is not None
    # A forfeit ends the game without the engine: a state file may be over while its view
    # plays on, never the other way round.
    if ended != (result is not None) or (ended and state_file["status"] != "over"):
        return "the game is over in one place and not in another"
    if result is not None:
        seats = set(view["seats"])
        ranked = [s for unit in result["ranking"] for s in unit]
        if set(result["seats"]) != seats or set(result["scores"]) != seats:
            return "its result does not score every seat once"
        if sorted(ranked) != sorted(seats):
            return "its ranking does not place every seat once"
    return None
