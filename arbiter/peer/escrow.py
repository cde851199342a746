"""Key escrow for a seat that drops out (docs/peer.md §7).

With its key, each seat deals its per-game secret x with Feldman's verifiable secret
sharing (``core.peer.escrow``) among the **holders**: every other seat in seat order, then
the notary when the terms name one. The threshold is every holder: no coalition short of
all of them (notary included) learns anything about x, and together they rebuild it only
when a timeout lets them. Each share is sealed with age to its holder's SSH key (the key
game.json names, age's ssh-ed25519 and ssh-rsa recipients; ``core.sealing``), so it
travels in the public key message and only its holder opens it.

A holder checks its share against the public commitments the first time it can (its
SSH key is at hand in every command that signs). Everyone else checks that the
commitments begin with the seat's key and count one per holder. When a holder signs a
timeout under escrow, it publishes its share in the clear; anyone checks it against the
commitments (Feldman), and once every holder's is in, x = f(0) by Lagrange interpolation.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import Any

from arbiter.core import sealing
from arbiter.core.errors import ArbiterError, Tampered
from arbiter.core.peer import escrow as feldman
from arbiter.core.peer import group
from arbiter.peer import wire

NOTARY = "notary"
SEALED_LIMIT = 4096


def holders(seats: list[str], seat: str, notary: bool) -> list[str]:
    """Who holds a share of ``seat``'s secret, in index order (index = position + 1)."""
    return [s for s in seats if s != seat] + ([NOTARY] if notary else [])


def deal(secret: bytes, owners: list[tuple[str, str]]) -> dict[str, Any]:
    """The ``escrow`` field of a key message: the commitments and each holder's share,
    sealed to its SSH public key line (``owners``: holder name → key line, in order)."""
    commitments, shares = feldman.deal(secret, len(owners), len(owners))
    sealed = []
    for (name, key), share in zip(owners, shares, strict=True):
        data = sealing.seal(share.hex().encode() + b"\n", [key])
        sealed.append({"holder": name, "sealed": base64.b64encode(data).decode()})
    return {"commitments": [wire.hexed(c) for c in commitments], "shares": sealed}


def check_public(value: Any, key: bytes, names: list[str]) -> list[bytes]:
    """What everyone checks of a key message's ``escrow``: one commitment per holder,
    the first being the seat's key, and one sealed share per holder, in order. Returns
    the commitments."""
    if not isinstance(value, dict):
        raise Tampered("its key comes with no escrow of its secret, which the terms require")
    commitments = [wire.unhex(c, "an escrow commitment") for c in value.get("commitments", [])]
    for c in commitments:
        group.point(c, "an escrow commitment")
    if len(commitments) != len(names) or commitments[0] != key:
        raise Tampered(
            f"its escrow needs {len(names)} commitments, the first its key: the secret "
            "must be split among every holder"
        )
    shares = value.get("shares", [])
    if [s.get("holder") for s in shares] != names:
        raise Tampered(f"its escrow must seal one share to each of {', '.join(names)}, in order")
    return commitments


def open_share(
    value: dict[str, Any], commitments: list[bytes], index: int, identity: Path, dealer: str
) -> bytes:
    """The holder's share (``index``, from 1) unsealed with its SSH key and checked
    against the dealer's commitments; ``Tampered`` naming the dealer if it is false."""
    item = value["shares"][index - 1]
    try:
        data = base64.b64decode(item["sealed"], validate=True)
    except (binascii.Error, ValueError):
        raise Tampered(f"{dealer}'s escrow share for {item['holder']} is not base64") from None
    sealing.load_identity(identity)  # a key age cannot use is the holder's to fix
    try:
        plain = sealing.unseal(data, identity, f"{dealer}'s escrow share")
        share = group.scalar(bytes.fromhex(plain.decode().strip()), "an escrow share")
    except (ArbiterError, ValueError, UnicodeDecodeError):
        raise Tampered(
            f"{dealer}'s escrow share for {item['holder']} cannot be opened: {dealer} dealt "
            "it falsely at setup (its key message); keep the files and do not play on"
        ) from None
    try:
        feldman.check(index, share, commitments)
    except Tampered:
        raise Tampered(
            f"{dealer}'s escrow share for {item['holder']} does not match its commitments: "
            f"{dealer} dealt it falsely at setup (its key message); keep the files and do "
            "not play on"
        ) from None
    return share


def rebuild(shares: dict[int, bytes], commitments: list[bytes], key: bytes, seat: str) -> bytes:
    """The dropped seat's secret from every holder's published share, each checked."""
    for index, share in shares.items():
        feldman.check(index, share, commitments)
    secret = feldman.rebuild(shares)
    if group.base(secret) != key:
        raise Tampered(f"the escrow shares do not rebuild {seat}'s key")
    return secret
