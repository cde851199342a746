"""The seeded random generator every engine receives (specified in docs/rng.md).

A verifier in any language can reproduce every draw: seeds and streams are HMAC-SHA256,
bytes come in counter mode, integers by rejection sampling, shuffles by Fisher–Yates from
the top index down. Engines never import ``random`` or read the clock.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

COMMIT_TAG = b"arbiter-commit/1"
SEED_TAG = b"arbiter-seed/1"
STREAM_TAG = b"stream"


def commitment(secret: bytes) -> str:
    """Return the published commitment ``sha256:<hex>`` of ``COMMIT_TAG ‖ secret``."""
    return "sha256:" + hashlib.sha256(COMMIT_TAG + secret).hexdigest()


def derive_seed(secret: bytes, game_id: str, entropies: list[bytes]) -> bytes:
    """Return the game seed from the referee's secret and the joins' entropies.

    ``HMAC-SHA256(secret, SEED_TAG ‖ 0x00 ‖ game id ‖ 0x00 ‖ e_1 ‖ … ‖ e_n)`` with the
    32-byte entropies in manifest seat order (none for a game created with --no-join).
    """
    for entropy in entropies:
        if len(entropy) != 32:
            raise ValueError("each join entropy must be 32 bytes")
    message = SEED_TAG + b"\x00" + game_id.encode() + b"\x00" + b"".join(entropies)
    return hmac.digest(secret, message, "sha256")


def stream_key(seed: bytes, entry: int) -> bytes:
    """Return the key of chain entry ``entry``'s stream: HMAC(seed, "stream" ‖ u64be(n))."""
    return hmac.digest(seed, STREAM_TAG + entry.to_bytes(8, "big"), "sha256")


class Rng:
    """A deterministic byte stream with integer draws and shuffles.

    Block ``i`` (from 0) is ``HMAC-SHA256(key, u64be(i))``; bytes are consumed in order
    and never reused.
    """

    __slots__ = ("_buffer", "_counter", "_entry", "_key", "_pos", "_seed")

    def __init__(self, key: bytes | None, seed: bytes = b"", entry: int = 0):
        # ``key`` None: derive it from ``seed`` and ``entry`` on the first draw (most
        # entries of most games draw nothing, and a replay opens a stream per entry).
        self._key = key
        self._seed = seed
        self._entry = entry
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    @classmethod
    def for_entry(cls, seed: bytes, entry: int) -> Rng:
        """Return the stream for chain entry ``entry`` (entry 0 is the setup)."""
        return cls(None, seed, entry)

    def bytes(self, n: int) -> bytes:
        """Return the next ``n`` bytes of the stream."""
        out = bytearray()
        while len(out) < n:
            if self._pos == len(self._buffer):
                if self._key is None:
                    self._key = stream_key(self._seed, self._entry)
                block = self._counter.to_bytes(8, "big")
                self._buffer = hmac.digest(self._key, block, "sha256")
                self._counter += 1
                self._pos = 0
            take = min(n - len(out), len(self._buffer) - self._pos)
            out += self._buffer[self._pos : self._pos + take]
            self._pos += take
        return bytes(out)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` by rejection sampling.

        Draw ``ceil(k/8)`` bytes as a big-endian integer, keep its low ``k`` bits where
        ``k`` is the bit length of ``n − 1``, and retry while the value is ``≥ n``.
        ``below(1)`` consumes nothing and returns 0.
        """
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.bytes(size), "big") & mask
            if value < n:
                return value

    def between(self, low: int, high: int) -> int:
        """Return a uniform integer in ``[low, high]`` (inclusive)."""
        return low + self.below(high - low + 1)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place: for i from len−1 down to 1, swap items[i] with items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        """Return ``items[below(len(items))]``."""
        return items[self.below(len(items))]
