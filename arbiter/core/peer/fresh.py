"""Fresh secrets for the peer protocol: per-game keys and proof nonces, from libsodium's
CSPRNG (``randombytes``). The one place the peer code draws randomness, as the referee's
edge is for its secret (tests/core/test_no_hidden_entropy.py lists it)."""

from __future__ import annotations

import rbcl


def scalar() -> bytes:
    """A uniformly random non-zero scalar."""
    while True:
        s = rbcl.crypto_core_ristretto255_scalar_random()
        if s != bytes(32):
            return bytes(s)
