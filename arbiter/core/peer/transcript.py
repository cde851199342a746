"""Fiat–Shamir transcripts (docs/peer.md §4.2): every challenge hashes a domain tag, the
proof's kind, the context that binds it to one game, seat and message, and every public
input, each length-prefixed so that no two different transcripts share bytes.

    "arbiter-peer/1" ‖ 0x00 ‖ kind ‖ 0x00 ‖ field ‖ field ‖ …
    field = u32be(len(label)) ‖ label ‖ u32be(len(value)) ‖ value

The context fields come first: game id, the digest of game.json, the seat, the message's
sequence number. A proof replayed in another game, by another seat or in another message
therefore fails its challenge.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.core.peer import group

TAG = b"arbiter-peer/1"


@dataclass(frozen=True)
class Context:
    """What every proof is bound to."""

    game: str
    manifest: str
    seat: str
    seq: int

    def fields(self) -> list[tuple[bytes, bytes]]:
        return [
            (b"game", self.game.encode()),
            (b"manifest", self.manifest.encode()),
            (b"seat", self.seat.encode()),
            (b"seq", self.seq.to_bytes(8, "big")),
        ]


def encode(kind: str, context: Context, inputs: list[tuple[bytes, bytes]]) -> bytes:
    out = bytearray(TAG + b"\x00" + kind.encode() + b"\x00")
    for label, value in [*context.fields(), *inputs]:
        out += len(label).to_bytes(4, "big") + label + len(value).to_bytes(4, "big") + value
    return bytes(out)


def challenge(kind: str, context: Context, inputs: list[tuple[bytes, bytes]]) -> bytes:
    """The challenge scalar of a transcript."""
    return group.hash_to_scalar(encode(kind, context, inputs))
