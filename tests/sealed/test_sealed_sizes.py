"""age hides content, not length: padding must keep a seat's sealed state file from
telling the other players what it holds (the resample test, applied to sizes).

For sampled positions of real games, everything an observer cannot see is redrawn with
the engine's ``resample``; each other seat's state file is rendered for the true and the
redrawn position. Unpadded, their sizes differ often (the hand's card names, the legal
decisions); padded, they must land in the same bucket almost always. The residual rate
is documented in docs/sealing.md.
"""

from __future__ import annotations

import hashlib

import pytest

from arbiter.bots.selfplay import play
from arbiter.core import sealing, views
from arbiter.core.chain import iter_chain
from arbiter.core.gamedir import GameDir
from arbiter.core.ledger import Records, load_manifest
from arbiter.core.publish import apply_record
from arbiter.core.rng import Rng
from arbiter.core.table import Table


def _sizes(root, engine_name: str, players: int, seed: str, every: int):
    run = play(root, engine_name, players, seed, reveal_at_end=False)
    gd = GameDir(run.game)
    manifest, manifest_digest, engine = load_manifest(gd)
    table = Table(manifest, engine, bytes.fromhex(gd.secret.read_text().strip()), trusted=True)
    with Records(gd.referee_signed) as records:
        for entry in iter_chain(gd.chain, manifest_digest):
            seq = entry["seq"]
            if seq == 0:
                table.genesis()
            else:
                apply_record(table, seq, records.read(seq, entry["digest"]))
            if not table.started or table.over or seq % every:
                continue
            true_state = table.state
            for observer in table.seats:
                for seat in table.seats:
                    if seat == observer:
                        continue
                    real = len(views.state_bytes(table, seat, seq, entry["hash"]))
                    for k in range(3):
                        stream = hashlib.sha256(f"{seed}:{seq}:{observer}:{k}".encode()).digest()
                        table.state = engine.resample(true_state, observer, Rng(stream))
                        try:
                            redrawn = len(views.state_bytes(table, seat, seq, entry["hash"]))
                        finally:
                            table.state = true_state
                        yield real, redrawn


# (engine, players, sample every n-th entry, whether unpadded sizes follow hidden cards:
# Mot Coin's hidden cards are the deck's order, which no view shows, so its sizes never do)
CASES = [
    ("mottainai", 3, 2, True),
    ("momiji", 2, 2, True),
    ("momiji", 4, 4, True),
    # Twenty seconds, and the case where nothing can follow: with the slow suites.
    pytest.param("motcoin", 3, 8, False, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("engine_name,players,every,raw_leaks", CASES)
def test_padded_sizes_do_not_follow_hidden_cards(tmp_path, engine_name, players, every, raw_leaks):
    pairs = list(_sizes(tmp_path / "g", engine_name, players, "sizes-1", every))
    assert len(pairs) > 100
    raw_differ = sum(real != redrawn for real, redrawn in pairs)
    padded_differ = sum(
        sealing.padded_size(real) != sealing.padded_size(redrawn) for real, redrawn in pairs
    )
    if raw_leaks:
        # Without padding, length is a real channel: the test would catch its removal.
        assert raw_differ > len(pairs) // 10, (raw_differ, len(pairs))
    assert padded_differ <= len(pairs) // 100, (padded_differ, len(pairs))


def test_padding_round_trips_and_buckets():
    for size in (1, 100, 16383, 16384, 16385, 70_000, 1_000_000):
        data = b"x" * (size - 1) + b"\n"
        padded = sealing.pad(data)
        assert len(padded) == sealing.padded_size(size) >= size
        assert len(padded) - size <= max(16383, size // 16)
        assert sealing.unpad(padded) == data
    assert sealing.padded_size(10) == sealing.padded_size(16000) == 16384
    with pytest.raises(ValueError):
        sealing.pad(b"two newlines\n\n")
