"""Chain lines rebuilt on the replay's hot path are exactly the referee's lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.core import chain as chainlib
from arbiter.core.errors import Tampered

DIGEST = st.text("0123456789abcdef", min_size=64, max_size=64).map(lambda h: "sha256:" + h)
# Summaries may quote anything, including the text the fast path splices at.
SUMMARY = st.lists(
    st.one_of(st.text(max_size=40), st.sampled_from([',"kind":', '","hash":"', "\\", "é😀"])),
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(
    seq=st.integers(min_value=0, max_value=10**6),
    kind=st.sampled_from(["genesis", "join", "move"]),
    seat=st.one_of(st.none(), st.sampled_from(["alice", "bob-2"])),
    prev=st.one_of(st.none(), DIGEST),
    file_digest=DIGEST,
    summary=SUMMARY,
)
def test_entry_line_is_the_line_of_make_entry(seq, kind, seat, prev, file_digest, summary) -> None:
    entry = chainlib.make_entry(seq, kind, seat, prev, file_digest, summary)
    raw, entry_hash = chainlib.entry_line(seq, kind, seat, prev, file_digest, summary)
    assert raw == chainlib.line(entry)
    assert entry_hash == entry["hash"]
    assert chainlib.line_digest(raw) == file_digest.encode()


def test_check_line_names_a_broken_link() -> None:
    first = chainlib.make_entry(0, "genesis", None, None, "sha256:" + "a" * 64, ["created"])
    second = chainlib.make_entry(1, "join", "bob", "sha256:" + "b" * 64, "sha256:" + "c" * 64, [])
    assert chainlib.check_line(chainlib.line(first), 0, None, first["digest"]) == first
    with pytest.raises(Tampered, match="chain entry 1 does not link to entry 0"):
        chainlib.check_line(chainlib.line(second), 1, first["hash"], first["digest"])
