"""Duplicate deals: the tables of one group of a round play the same deal (docs/duplicate.md).

A game whose game.json carries ``deal: {group, commitment, games}`` does not set itself up
at its last join. The referee appends a ``deal`` entry once every game of the group has
all its joins; the entry lists, for each game of the group in table order, its game id,
the digest of its game.json and each seat's key and join entropy signature. The setup
then draws from stream 0 of the **deal seed**

    deal_seed = HMAC(group secret, "arbiter-deal/1" ‖ 0x00 ‖ group ‖ 0x00 ‖ e_1 ‖ … ‖ e_m)

with ``e_i`` every seat's entropy, table then seat order, instead of the game's own seed;
every later entry draws from the game's own seed as always (docs/rng.md §2–3). The group
secret was committed in every game.json before anyone joined and each entropy is a
deterministic signature (docs/rng.md §2): neither the organiser nor a player steers the
deal. The secret is published with the reveal, once every game it lists is over.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from arbiter.core.errors import BadSignature, IllegalAction, Tampered

DEAL_TAG = b"arbiter-deal/1"
AWAITING_DEAL = (
    "every seat has joined; the organiser deals this duplicate table once every table of "
    "its round has joined (`arbiter tournament deal`, docs/duplicate.md)"
)
"""What a state file with status ``joining`` and nobody to wait for means, in words."""


def deal_seed(group_secret: bytes, group: str, entropies: list[bytes]) -> bytes:
    """Return the group's deal seed (see the module's docstring)."""
    if len(group_secret) != 32:
        raise ValueError("the group secret must be 32 bytes")
    for entropy in entropies:
        if len(entropy) != 32:
            raise ValueError("each join entropy must be 32 bytes")
    message = DEAL_TAG + b"\x00" + group.encode() + b"\x00" + b"".join(entropies)
    return hmac.digest(group_secret, message, "sha256")


def slot(manifest: Mapping[str, Any], manifest_digest: str, joins: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Return one game's part of a ``deal`` record from its game.json and its join files."""
    return {
        "game": manifest["game"],
        "manifest": manifest_digest,
        "seats": [
            {
                "seat": seat["seat"],
                "key": seat["key"],
                "entropy_signature": joins[seat["seat"]]["entropy_signature"],
            }
            for seat in manifest["seats"]
        ],
    }


def check(
    manifest: Mapping[str, Any],
    manifest_digest: str,
    entropies: Mapping[str, bytes],
    record: Mapping[str, Any],
    signatures: bool,
) -> list[bytes]:
    """Check a ``deal`` record against this game; return every entropy in deal order.

    This game's own slot must be its game.json (digest, seats, keys) and its joins (each
    entropy signature gives the entropy its join brought). With ``signatures``, every
    slot's entropy signatures are checked against the slot's keys, as a join's are
    (docs/rng.md §2); ``tournament verify`` checks the other slots' digests and keys
    against the other tables' game.json.
    """
    from arbiter.core import joins

    terms = manifest.get("deal")
    if terms is None:
        raise IllegalAction("game.json has no deal terms: only a duplicate game is dealt")
    if record["group"] != terms["group"]:
        raise Tampered(f"the deal is for group {record['group']}, not {terms['group']}")
    listed = [game["game"] for game in record["games"]]
    if listed != list(terms["games"]):
        raise Tampered("the deal lists other games than game.json's deal terms, or in another order")
    seats = [seat["seat"] for seat in manifest["seats"]]
    missing = [seat for seat in seats if seat not in entropies]
    if missing:
        raise IllegalAction(f"the game waits for joins from {', '.join(missing)}: it cannot be dealt yet")
    out: list[bytes] = []
    for game in record["games"]:
        own = game["game"] == manifest["game"]
        if own:
            _check_own(manifest, manifest_digest, game)
        for seat in game["seats"]:
            signature = seat["entropy_signature"]
            if signatures:
                statement = {
                    "game": game["game"], "seat": seat["seat"], "manifest": game["manifest"],
                    "entropy_signature": signature,
                }  # fmt: skip
                statement["entropy"] = joins.entropy_of(signature).hex()
                try:
                    joins.check(statement, seat["key"])
                except BadSignature as exc:
                    raise Tampered(
                        f"the deal's entry for {seat['seat']} of {game['game']}: {exc.message}"
                    ) from None
            entropy = joins.entropy_of(signature)
            if own and entropy != entropies[seat["seat"]]:
                raise Tampered(
                    f"the deal gives {seat['seat']} another entropy than the seat's join"
                )
            out.append(entropy)
    return out


def _check_own(manifest: Mapping[str, Any], manifest_digest: str, game: Mapping[str, Any]) -> None:
    if game["manifest"] != manifest_digest:
        raise Tampered("the deal binds this game to another game.json")
    mine = [(s["seat"], s["key"]) for s in manifest["seats"]]
    if [(s["seat"], s["key"]) for s in game["seats"]] != mine:
        raise Tampered("the deal lists other seats or keys for this game than its game.json")


def read_secret(gd: Any, manifest: Mapping[str, Any]) -> bytes | None:
    """A duplicate game's group secret from the referee's ``referee/deal-secret``, checked
    against game.json's commitment (None: not a duplicate game)."""
    import re

    from arbiter.core.errors import NotReady
    from arbiter.core.rng import commitment
    from arbiter.core.safeio import open_nofollow_read

    terms = manifest.get("deal")
    if terms is None:
        return None
    try:
        text = open_nofollow_read(gd.deal_secret, 1024).decode("ascii", "replace").strip()
    except FileNotFoundError:
        raise NotReady(
            f"{gd.root} has no referee/deal-secret: only the organiser's copy of a duplicate "
            "game can do this"
        ) from None
    if not re.fullmatch(r"[0-9a-f]{64}", text) or commitment(bytes.fromhex(text)) != terms["commitment"]:
        raise Tampered("referee/deal-secret does not match the deal commitment in game.json")
    return bytes.fromhex(text)
