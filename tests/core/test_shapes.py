"""The fast paths agree with their judges: shape checks with the schemas, canonical() with RFC 8785."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.core import schemas
from arbiter.core.canonical import canonical, parse_canonical
from arbiter.core.chain import _well_formed, make_entry
from arbiter.core.errors import MalformedInput, SchemaViolation
from arbiter.core.shapes import FAST

SIG = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"
VALID: dict[str, dict[str, Any]] = {
    "join": {
        "format": "arbiter.join/1",
        "game": "g-1",
        "seat": "alice",
        "manifest": "sha256:" + "a" * 64,
        "entropy": "b" * 64,
        "signature": SIG,
    },
    "move": {
        "format": "arbiter.move/1",
        "game": "g-1",
        "seat": "alice",
        "after": "sha256:" + "c" * 64,
        "actions": [{"kind": "bid", "dice": [6, 5]}, {"kind": "pass"}],
        "signature": SIG,
    },
}
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.text(max_size=8),
    st.sampled_from(
        ["", "Alice", "sha256:" + "a" * 64, "a" * 64, "g-1", "arbiter.move/1", SIG, "x" * 5000]
    ),
    st.lists(st.integers(0, 3), max_size=3),
    st.just([{"kind": "pass"}] * 65),
    st.just([]),
    st.just([{"kind": 3}]),
    st.just([{"dice": [1]}]),
    st.dictionaries(
        st.sampled_from(["kind", "x"]), st.sampled_from(["pass", "Bad Kind", 1]), max_size=2
    ),
)


def _schema_accepts(kind: str, obj: Any) -> bool:
    """Judge with the committed JSON Schema itself (not the fast path)."""
    return not list(schemas._validator(kind).iter_errors(obj))


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(["join", "move"]),
    field=st.sampled_from(
        ["format", "game", "seat", "manifest", "entropy", "after", "actions", "signature", "extra"]
    ),
    value=ODD_VALUES,
    drop=st.booleans(),
)
def test_fast_shape_checks_agree_with_the_schemas(
    kind: str, field: str, value: Any, drop: bool
) -> None:
    obj = copy.deepcopy(VALID[kind])
    if drop:
        obj.pop(field, None)
    else:
        obj[field] = value
    assert FAST[kind](obj) == _schema_accepts(kind, obj)


def test_valid_files_pass_both() -> None:
    for kind, obj in VALID.items():
        assert FAST[kind](obj) and _schema_accepts(kind, obj)


@settings(max_examples=300, deadline=None)
@given(
    field=st.sampled_from(
        ["format", "seq", "kind", "seat", "prev", "digest", "summary", "hash", "extra"]
    ),
    value=ODD_VALUES,
    drop=st.booleans(),
)
def test_chain_shape_check_agrees_with_the_schema(field: str, value: Any, drop: bool) -> None:
    entry = make_entry(3, "move", "alice", "sha256:" + "d" * 64, "sha256:" + "e" * 64, ["a line"])
    if drop:
        entry.pop(field, None)
    else:
        entry[field] = value
    assert _well_formed(entry) == _schema_accepts("chain-entry", entry)


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**53) + 1, 2**53 - 1), st.text()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None)
@given(value=JSON_VALUES)
def test_canonical_is_rfc8785(value: Any) -> None:
    assert canonical(value) == rfc8785.dumps(value)


def test_canonical_orders_keys_by_utf16_beyond_the_bmp() -> None:
    # U+1F600 sorts before U+FFFF in UTF-16 code units but after it in code points.
    value = {"\U0001f600": 1, "\uffff": 2, "a": 3}
    assert canonical(value) == rfc8785.dumps(value)
    assert canonical(value).index("\U0001f600".encode()) < canonical(value).index("\uffff".encode())


MANIFEST: dict[str, Any] = {
    "format": "arbiter.game/1", "game": "g-1", "engine": {"name": "motcoin", "version": "1.0.0"},
    "options": {"cards": "builtin"},
    "seats": [{"seat": "alice", "name": "alice", "key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA"}],
    "commitment": "sha256:" + "a" * 64, "join": True, "created": "2026-01-01T00:00:00Z",
}
REVEAL: dict[str, Any] = {
    "format": "arbiter.reveal/1", "game": "g-1", "secret": "b" * 64, "head": "sha256:" + "c" * 64,
    "forced": False,
}
SEAT_VALUES = st.one_of(ODD_VALUES, st.just({"seat": "bob", "name": "", "key": "ssh-rsa AAAA"}),
                        st.just({"seat": "bob", "name": "Bob", "key": "ssh-dss AAAA"}),
                        st.just({"seat": "bob", "name": "Bob", "key": "ssh-rsa AAAA x"}))


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(["manifest", "reveal"]), field=st.sampled_from(
    ["format", "game", "engine", "options", "seats", "commitment", "join", "created", "secret",
     "head", "forced", "extra"]), value=st.one_of(ODD_VALUES, st.lists(SEAT_VALUES, max_size=3),
     st.just({"name": "Bad", "version": "1"}), st.just({"name": "x", "version": "v" * 40})),
       drop=st.booleans())
def test_manifest_and_reveal_checks_agree_with_the_schemas(kind: str, field: str, value: Any, drop: bool) -> None:
    obj = copy.deepcopy(MANIFEST if kind == "manifest" else REVEAL)
    if drop:
        obj.pop(field, None)
    else:
        obj[field] = value
    assert FAST[kind](obj) == _schema_accepts(kind, obj)


def test_valid_manifest_and_reveal_pass_both() -> None:
    assert FAST["manifest"](MANIFEST) and _schema_accepts("manifest", MANIFEST)
    assert FAST["reveal"](REVEAL) and _schema_accepts("reveal", REVEAL)


def test_a_trailing_newline_is_refused_although_pythons_dollar_would_allow_it() -> None:
    move = copy.deepcopy(VALID["move"])
    move["seat"] = "alice\n"
    assert _schema_accepts("move", move)  # Python's re: "$" matches before a final newline
    assert not FAST["move"](move)
    with pytest.raises(SchemaViolation, match="trailing newline"):
        schemas.validate("move", move, "move.json")


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES)
def test_parse_canonical_reads_back_every_canonical_value(value: Any) -> None:
    assert parse_canonical(canonical(value)) == value


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"a":2}',  # duplicate key
        b'{"a": 1}',  # not canonical (space)
        b'{"b":1,"a":2}',  # keys out of order
        b'{"a":1.5}',  # float
        b'{"a":NaN}',
        b'{"a":9007199254740993}',  # beyond 2^53 - 1
        b'{"a":-9007199254740992}',  # beyond -(2^53 - 1)
        b'{"a":123456789012345678901234}',  # far beyond, and long
        b'\xef\xbb\xbf{"a":1}',  # BOM
        b'{"a":"\\ud800"}',  # lone surrogate
        b"[" * 70 + b"]" * 70,  # too deep
        b'{"a":"\\u0041"}',  # an escape canonical form does not use
    ],
)
def test_parse_canonical_refuses_what_parse_strict_or_canonical_form_refuses(data: bytes) -> None:
    with pytest.raises(MalformedInput):
        parse_canonical(data)
