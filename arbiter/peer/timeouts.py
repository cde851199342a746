"""Deadlines and drop-outs of a peer game (docs/peer.md §7).

A seat that owes a message past the terms' deadline can be **timed out**. There is no
referee clock: a timeout is a signed statement, ``timeouts/<round>-<absent>.<signer>.json``
(``arbiter.peer-timeout/1``, namespace ``arbiter-peer-timeout``), and it takes effect when
the right signers have made one for the same round and head:

- under **forfeit** (or escrow that cannot rebuild the seat): the notary's alone, or else
  every other seat still playing. The game ends; the silent seat is ranked last.
- under **escrow**: every holder of the seat's escrow (the other seats, and the notary),
  each with its share in the clear. Anyone checks each share against the seat's public
  commitments and rebuilds its secret; a bot then plays the seat on every machine alike
  (``peer.standin``).

**A complete timeout wins.** The silent seat's own message for that round, sent late, is
void: each reader skips it, so a late message cannot fork the game once the timeout is
complete. Each signer checks the deadline against its own clock, from when it saw the
round open (kept beside its secret, ``<game>.<reader>.clock``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.core import clock, deadlines, schemas, signing
from arbiter.core.canonical import canonical
from arbiter.core.errors import ArbiterError, Tampered, UsageError
from arbiter.core.gamedir import atomic_write, ensure_dir
from arbiter.core.peer import group
from arbiter.peer import escrow, standin, wire
from arbiter.peer.protocol import PeerGame

NAMESPACE = "arbiter-peer-timeout"
FORMAT = "arbiter.peer-timeout/1"
NAME = re.compile(r"(\d{6})-([a-z][a-z0-9_-]{0,31})\.([a-z][a-z0-9_-]{0,31})\.json")

Signed = dict[tuple[int, str], dict[str, dict[str, Any]]]
"""(round, absent seat) → signer → its timeout statement."""


def signer_keys(terms: dict[str, Any]) -> dict[str, str]:
    keys = {s["seat"]: s["key"] for s in terms["seats"]}
    if terms.get("notary"):
        keys[escrow.NOTARY] = terms["notary"]["key"]
    return keys


def read(root: Path, terms: dict[str, Any]) -> Signed:
    """Every timeout statement in the folder, each checked: its name, its schema, this
    game, and its signer's signature. A bad one is refused by name."""
    keys = signer_keys(terms)
    seats = {s["seat"] for s in terms["seats"]}
    out: Signed = {}
    for path in sorted((root / "timeouts").glob("*")):
        where = f"timeouts/{path.name}"
        found = NAME.fullmatch(path.name)
        try:
            if found is None or found[2] not in seats or found[3] not in keys:
                raise Tampered("it is no timeout of this game's seats")
            doc = json.loads(path.read_text(encoding="utf-8"))
            schemas.validate("peer-timeout", doc, where)
            if (doc["game"], doc["round"], doc["absent"], doc["signer"]) != (
                terms["game"], int(found[1]), found[2], found[3]
            ):  # fmt: skip
                raise Tampered("it is not the timeout its name says")
            if doc["signer"] == doc["absent"]:
                raise Tampered("a seat cannot time itself out")
            signing.verify(doc, keys[doc["signer"]], NAMESPACE)
        except (ValueError, ArbiterError) as error:
            raise Tampered(f"{where}: {error}") from None
        out.setdefault((doc["round"], doc["absent"]), {})[doc["signer"]] = doc
    return out


def settle(game: PeerGame, signed: Signed) -> None:
    """Apply every complete timeout of the round in progress, again after each (a bot
    answering for a seat can close the round, and the next may hold another)."""
    if not signed:
        return  # nobody has timed anyone out: nothing to look at for each message read
    changed = True
    while changed and not game.over:
        changed = False
        for seat in game.seats:
            if game.owed(seat) is None:
                continue
            statements = {
                signer: doc
                for signer, doc in signed.get((game.round, seat), {}).items()
                if doc["after"] == game.head
            }
            done, shares = complete(game, seat, statements)
            if done:
                game.timeout(seat, None if shares is None else standin.rebuild(game, seat, shares))
                changed = True
                break


def complete(
    game: PeerGame, seat: str, statements: dict[str, dict[str, Any]]
) -> tuple[bool, dict[int, bytes] | None]:
    """Whether the timeout of ``seat`` is complete, and the escrow shares by holder index
    that rebuild its secret (None: it forfeits the game)."""
    if game.can_rebuild(seat):
        holders = game.holders(seat)
        if not all(h in statements for h in holders):
            return False, None
        shares = {}
        for index, holder in enumerate(holders, start=1):
            share = statements[holder].get("share")
            if share is None:
                raise Tampered(f"timeouts: {holder}'s timeout of {seat} carries no escrow share")
            shares[index] = group.scalar(wire.unhex(share, "an escrow share"), "an escrow share")
        return True, shares
    if escrow.NOTARY in statements:
        return True, None
    others = [s for s in game.seats if s != seat and s not in game.out]
    return all(s in statements for s in others), None


def missing(game: PeerGame, seat: str, signed: Signed) -> list[str]:
    """Who must still time ``seat`` out of the round in progress for it to take effect
    (one of the lists ``complete`` accepts: under forfeit, the notary or every other seat)."""
    have = {s for s, doc in signed.get((game.round, seat), {}).items() if doc["after"] == game.head}
    if game.can_rebuild(seat):
        return [h for h in game.holders(seat) if h not in have]
    if escrow.NOTARY in have:
        return []
    return [s for s in game.seats if s != seat and s not in game.out and s not in have]


# -- each reader's clock ---------------------------------------------------------------
def clock_path(home: Path, terms: dict[str, Any], reader: str) -> Path:
    return home / f"{terms['game']}.{reader}.clock"


def opened(home: Path, terms: dict[str, Any], reader: str, game: PeerGame) -> str:
    """When ``reader`` first saw the round in progress open, by its own clock (recorded
    now if this is the first time)."""
    path = clock_path(home, terms, reader)
    try:
        seen = json.loads(path.read_text()) if path.exists() else {}
    except ValueError:
        seen = {}
    key = str(game.round)
    if key not in seen:
        seen[key] = clock.now_utc()
        ensure_dir(path.parent, mode=0o700)
        atomic_write(path, canonical(seen) + b"\n", mode=0o600)
    return str(seen[key])


def due(opened_at: str, seconds: int) -> str:
    return deadlines.add(opened_at, seconds)


# -- signing one -----------------------------------------------------------------------
def statement(
    game: PeerGame,
    terms: dict[str, Any],
    signer: str,
    absent: str,
    opened_at: str,
    key: Path,
) -> dict[str, Any]:
    """The signed timeout ``signer`` makes of ``absent`` (its escrow share unsealed with
    ``key`` when it holds one), once the deadline has passed by its clock."""
    dropout = terms.get("dropout")
    if dropout is None:
        raise UsageError("this game has no deadlines: the terms name no drop-out remedy")
    if signer == absent:
        raise UsageError("a seat cannot time itself out")
    if game.over:
        raise UsageError("the game is over: nobody owes anything")
    if game.owed(absent) is None:
        raise UsageError(
            f"{absent} owes nothing now (round {game.round}): there is no one to time out"
        )
    now = clock.now_utc()
    deadline = due(opened_at, dropout["seconds"])
    if not deadlines.at_or_after(now, deadline):
        raise UsageError(
            f"{absent} has until {deadline} by your clock (round {game.round} opened for you at "
            f"{opened_at}): wait until then"
        )
    body: dict[str, Any] = {
        "format": FORMAT,
        "game": terms["game"],
        "round": game.round,
        "after": game.head,
        "absent": absent,
        "signer": signer,
        "opened": opened_at,
        "at": now,
    }
    if game.can_rebuild(absent) and signer in game.holders(absent):
        commitments, field = game.escrow[absent]
        index = game.holders(absent).index(signer) + 1
        body["share"] = escrow.open_share(field, commitments, index, key, absent).hex()
    return {**body, "signature": signing.sign(body, key, NAMESPACE)}


def write(
    root: Path, doc: dict[str, Any], deliver: Callable[[Path, bytes], None] | None = None
) -> Path:
    path = root / "timeouts" / f"{doc['round']:06d}-{doc['absent']}.{doc['signer']}.json"
    if path.exists():
        raise UsageError(
            f"{path.name} exists: {doc['signer']} has timed {doc['absent']} out already"
        )
    data = canonical(doc) + b"\n"
    if deliver is None:
        ensure_dir(path.parent)
        atomic_write(path, data)
    else:
        deliver(path, data)
    return path
