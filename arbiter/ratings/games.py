"""Which game folders the ratings count, and a one-line reason for each one they leave out.

A game counts only when ``arbiter verify`` replays it byte for byte after its reveal, it
is over and its outcome ranks every seat, and each seat was held by one key from start to
end that holds no other seat of the game. Its facts (keys, places, last entry time) are
read in the same consistent snapshot as the verification, so what is rated is what was
verified.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Sequence
from typing import Any

from arbiter.core.errors import ArbiterError
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import open_nofollow_read, visible
from arbiter.ratings.facts import INTERNAL, LeftOut, Rated, Seated
from arbiter.ratings.order import game_time

_ID_LIMIT = 200


Examined = Rated | LeftOut


def one_line(text: str) -> str:
    """Return ``text`` as one visible line: reasons go into tables and one-line errors."""
    return visible(" ".join(text.split()))


def examine(name: str, path: str) -> Examined:
    """Verify the game folder at ``path`` (shown as ``name``) and say whether it counts.

    Never raises for a bad game: a failed verification, an unreadable file or an
    unexpected exception is a ``LeftOut`` with its one-line reason.
    """
    gd = GameDir(path)
    try:
        # verify() takes its own snapshot; reading the facts inside this one as well means
        # a writer replacing the files between the two is noticed and both are read again.
        return gd.consistent(lambda: _examine(gd, name))
    except ArbiterError as exc:
        return LeftOut(name, _claimed_id(gd), exc.code, one_line(exc.message))
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        where = os.fsdecode(exc.filename) if exc.filename is not None else "a file"
        return LeftOut(
            name, _claimed_id(gd), "not-ready", one_line(f"cannot read {where} ({reason})")
        )
    except Exception as exc:  # isolation: one game's bug must not stop the archive
        said = one_line(f"unexpected {type(exc).__name__}: {exc}")
        return LeftOut(name, _claimed_id(gd), INTERNAL, said)


def _examine(gd: GameDir, name: str) -> Examined:
    from arbiter.core.chain import iter_chain
    from arbiter.core.ledger import load_manifest
    from arbiter.core.player import load_state
    from arbiter.core.replay import verify

    report = verify(gd.root)
    manifest, manifest_digest, _engine = load_manifest(gd)
    game = manifest["game"]
    if not report.replayed:
        return LeftOut(
            name,
            game,
            "not-revealed",
            "only a game replayed after `arbiter reveal` is rated, and this one is not revealed",
        )
    public = load_state(gd.public_state)
    if public["status"] != "over":
        return LeftOut(
            name, game, "not-over", "revealed before its end (--force): the game is not over"
        )
    outcome = public["outcome"]
    if outcome is None:
        return LeftOut(name, game, "no-result", "the game ended with no result (abandoned)")
    seats = [(seat["seat"], seat["key"]) for seat in manifest["seats"]]
    # The seats whose key changed: the keys held at the end (the public state's `keys`),
    # and every handover or appointment, even one later undone or handed back.
    handed = {seat for seat, key in seats if (public.get("keys") or {}).get(seat, key) != key}
    last: dict[str, Any] = {}
    for entry in iter_chain(gd.chain, manifest_digest):  # verified: read, not judged again
        if entry["kind"] in ("handover", "appoint"):
            handed.add(entry["seat"])
        last = entry
    problem = identity_problem(seats, handed, outcome)
    if problem is not None:
        return LeftOut(name, game, *problem)
    places = _places(outcome["ranking"])
    time, time_from = game_time(last.get("time"), manifest.get("created"))
    held = tuple(Seated(seat, key, places[seat]) for seat, key in seats)
    return Rated(name, game, time, time_from, held)


def identity_problem(
    seats: Sequence[tuple[str, str]], handed: Collection[str], outcome: dict[str, Any]
) -> tuple[str, str] | None:
    """Return (code, reason) when the seats cannot be rated as players, else ``None``.

    ``seats``: (seat, game.json's key) in seat order; ``handed``: the seats whose key
    changed during the game."""
    if len(seats) < 2:
        return "one-seat", "a game of one seat: there is no one to be compared with"
    holders: dict[str, str] = {}
    for seat, key in seats:
        if key in holders:
            return (
                "shared-key",
                f"seats {holders[key]} and {seat} are held by the same key: a player "
                "cannot be rated against themself",
            )
        holders[key] = seat
    # One result cannot be split between the people who held a seat in turn.
    for seat, _ in seats:
        if seat in handed:
            return (
                "changed-hands",
                f"seat {seat} changed hands during the game (a handover or a substitute): "
                "its result belongs to no single key",
            )
    ranked = [seat for group in outcome["ranking"] for seat in group]
    if sorted(ranked) != sorted(seat for seat, _ in seats):
        # verify() replays the outcome, so this would be a bug: say so rather than guess.
        return INTERNAL, "the verified outcome does not rank every seat once: please report it"
    return None


def _places(ranking: list[list[str]]) -> dict[str, int]:
    """Return each seat's place: 1 + the number of seats ranked strictly above it."""
    places: dict[str, int] = {}
    above = 0
    for group in ranking:
        for seat in group:
            places[seat] = above + 1
        above += len(group)
    return places


def _claimed_id(gd: GameDir) -> str | None:
    """The game id the manifest claims, to name a failed game (best effort, unverified)."""
    try:
        data = json.loads(open_nofollow_read(gd.manifest))  # no FIFO, no link
        game = data.get("game") if isinstance(data, dict) else None
    except Exception:  # a broken manifest is what the verification already reported
        return None
    return visible(game[:_ID_LIMIT]) if isinstance(game, str) else None


def collect(folders: Sequence[tuple[str, str]]) -> tuple[list[Rated], list[LeftOut]]:
    """Examine each ``(name, path)`` in the order given; return the games that count and
    the folders left out, each list in that order.

    The same game found in two folders (a copy, or two games claiming one id) is rated
    once, from the first folder; the others are left out naming it.
    """
    rated: list[Rated] = []
    left: list[LeftOut] = []
    first: dict[str, str] = {}
    for name, path in folders:
        found = examine(name, path)
        if isinstance(found, Rated):
            if found.game in first:
                said = f"game {found.game} is already rated from {first[found.game]}"
                left.append(LeftOut(name, found.game, "duplicate", one_line(said)))
                continue
            first[found.game] = name
            rated.append(found)
        else:
            left.append(found)
    return rated, left
