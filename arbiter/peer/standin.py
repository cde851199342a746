"""The bot that plays a timed-out seat under key escrow (docs/peer.md §7).

Once every holder has published its share, the seat's secret is public, and every machine
plays the seat the same way: the bot's messages are not sent but computed, by each reader,
from the rebuilt secret and the chain. So they must be the same bytes everywhere: every
random value it needs (a shuffle's re-encryption, a proof's nonce, which legal decision
it takes) is drawn from HMAC-SHA-512 keyed by the secret over the chain's head and a
counter, reduced modulo ℓ (64 bytes, as RFC 9496 reduces a uniform string; the
deterministic nonces of RFC 6979 and Ed25519 are drawn the same way). Nothing here is
secret any more, so determinism costs nothing; it only lets every machine agree.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Any

from arbiter.core.engine import Action
from arbiter.core.peer import group
from arbiter.peer import escrow
from arbiter.peer.seat import PeerSeat

if TYPE_CHECKING:
    from arbiter.peer.protocol import PeerGame

LABEL = b"arbiter-peer-stand-in/1"


class StandIn(PeerSeat):
    def __init__(self, game: PeerGame, seat: str, secret: bytes):
        self._head = ""
        self._count = 0
        super().__init__(game, seat, draw=self._draw, secret=secret)

    def _draw(self) -> bytes:
        """The next value, a function of the secret, the head and how many came before
        in this round only (so a machine that reads the game later draws the same)."""
        if self._head != self.game.head:
            self._head, self._count = self.game.head, 0
        self._count += 1
        assert self.secret is not None
        wide = hmac.new(
            self.secret,
            LABEL + self._head.encode() + self._count.to_bytes(8, "big"),
            hashlib.sha512,
        ).digest()
        return group.from_int(int.from_bytes(wide, "little"))

    def compose(self, choose: Any = None) -> dict[str, Any]:
        return super().compose(self._choose)

    def _choose(self, state: Any, seat: str, legal: list[Action]) -> Action:
        """A random legal decision, drawn like everything else."""
        return legal[group.to_int(self._draw()) % len(legal)]


def rebuild(game: PeerGame, seat: str, shares: dict[int, bytes]) -> StandIn:
    """The bot for ``seat``, from every holder's published escrow share (each checked
    against the seat's commitments); ``Tampered`` and nothing changed if one is false."""
    commitments, _ = game.escrow[seat]
    return StandIn(game, seat, escrow.rebuild(shares, commitments, game.keys[seat], seat))
