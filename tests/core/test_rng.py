"""The generator matches docs/rng.md: its test vectors and an independent re-implementation."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.core.rng import Rng, commitment, derive_seed, stream_key

SECRET = bytes(range(32))
ENTROPIES = [bytes([0x11]) * 32, bytes([0x22]) * 32]
SEED = bytes.fromhex("fd7119548eafd024304f8d9d54211fff59ac5cb20f592fe05155863819c2a264")


def test_vectors_of_docs_rng_md() -> None:
    assert (
        commitment(SECRET)
        == "sha256:19578fd41b93a67b7f71ca394ce7244762e7796e2b2baf74e8892eeb7d0c4033"
    )
    assert derive_seed(SECRET, "demo-game", ENTROPIES) == SEED
    assert derive_seed(SECRET, "demo-game", []).hex() == (
        "29398ddd6d1a416828ece5f6228bc4bf1a47507edc32f9130fd2284593b29e76"
    )
    assert (
        stream_key(SEED, 0).hex()
        == "ce10973e7b2363acad292aa9b48426e992e4c8b6f4987b6009f00137d5859803"
    )
    assert (
        stream_key(SEED, 7).hex()
        == "09750850a446eb734335e2047557ace68ff0e1ac11c9c1fea1145047b889e67a"
    )
    assert Rng.for_entry(SEED, 0).bytes(40).hex() == (
        "631895754bdf12ba6a4f11e479cac2fc74138a97a06b1b3be6436cd912cf8ad3b83eb75c91c3def7"
    )
    rng = Rng.for_entry(SEED, 1)
    assert [rng.below(6) for _ in range(10)] == [0, 1, 4, 0, 5, 0, 5, 1, 2, 2]
    rng = Rng.for_entry(SEED, 2)
    items = list(range(10))
    rng.shuffle(items)
    assert items == [6, 4, 2, 7, 5, 0, 1, 8, 9, 3]
    rng = Rng.for_entry(SEED, 3)
    assert [rng.below(1000) for _ in range(5)] == [23, 761, 847, 730, 977]
    assert rng.below(2**40) == 218692676308


class SpecRng:
    """docs/rng.md written out again, naively, without sharing code with arbiter.core.rng."""

    def __init__(self, seed: bytes, entry: int):
        self.key = hmac.new(seed, b"stream" + entry.to_bytes(8, "big"), hashlib.sha256).digest()
        self.data = b""
        self.block = 0
        self.used = 0

    def take(self, n: int) -> bytes:
        while len(self.data) - self.used < n:
            self.data += hmac.new(self.key, self.block.to_bytes(8, "big"), hashlib.sha256).digest()
            self.block += 1
        out = self.data[self.used : self.used + n]
        self.used += n
        return out

    def below(self, m: int) -> int:
        if m == 1:
            return 0
        k = (m - 1).bit_length()
        while True:
            value = int.from_bytes(self.take((k + 7) // 8), "big") % (1 << k)
            if value < m:
                return value


@given(entry=st.integers(0, 2**40), bounds=st.lists(st.integers(1, 2**50), min_size=1, max_size=40))
def test_rng_agrees_with_an_independent_implementation(entry: int, bounds: list[int]) -> None:
    ours, spec = Rng.for_entry(SEED, entry), SpecRng(SEED, entry)
    assert [ours.below(m) for m in bounds] == [spec.below(m) for m in bounds]


@given(entry=st.integers(0, 10_000), size=st.integers(0, 60))
def test_shuffle_is_fisher_yates_from_the_top(entry: int, size: int) -> None:
    items = list(range(size))
    Rng.for_entry(SEED, entry).shuffle(items)
    spec, expected = SpecRng(SEED, entry), list(range(size))
    for i in range(size - 1, 0, -1):
        j = spec.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert sorted(items) == list(range(size))


def test_below_is_roughly_uniform() -> None:
    rng = Rng.for_entry(SEED, 99)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_seed_depends_on_every_input_and_on_seat_order() -> None:
    base = derive_seed(SECRET, "g", ENTROPIES)
    assert derive_seed(SECRET, "g", ENTROPIES[::-1]) != base
    assert derive_seed(SECRET, "h", ENTROPIES) != base
    assert derive_seed(bytes(32), "g", ENTROPIES) != base
    with pytest.raises(ValueError):
        derive_seed(SECRET, "g", [b"short"])


def test_below_rejects_empty_range() -> None:
    with pytest.raises(ValueError):
        Rng.for_entry(SEED, 0).below(0)
