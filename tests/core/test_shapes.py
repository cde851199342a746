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
        "format": "arbiter.join/2",
        "game": "g-1",
        "seat": "alice",
        "manifest": "sha256:" + "a" * 64,
        "entropy": "b" * 64,
        "entropy_signature": SIG,
        "signature": SIG,
    },
    "join-v1": {
        "format": "arbiter.join/1",
        "game": "g-1",
        "seat": "alice",
        "manifest": "sha256:" + "a" * 64,
        "entropy": "b" * 64,
        "signature": SIG,
    },
    "receipt": {
        "format": "arbiter.receipt/1",
        "game": "g-1",
        "seat": "alice",
        "seq": 4,
        "kind": "move",
        "hash": "sha256:" + "c" * 64,
        "digest": "sha256:" + "d" * 64,
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
        ["", "Alice", "sha256:" + "a" * 64, "a" * 64, "g-1", "arbiter.move/1", SIG, "x" * 5000,
         "alice\n", "sha256:" + "a" * 64 + "\n", SIG + "\n", SIG + "x", "move", "join"]
    ),
    st.integers(-1, 2),
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
    kind=st.sampled_from(["join", "join-v1", "move", "receipt"]),
    field=st.sampled_from(
        ["format", "game", "seat", "manifest", "entropy", "entropy_signature", "after", "actions",
         "signature", "seq", "kind", "hash", "digest", "extra"]
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


MANIFEST_V1: dict[str, Any] = {
    "format": "arbiter.game/1", "game": "g-1", "engine": {"name": "motcoin", "version": "1.0.0"},
    "options": {"cards": "builtin"},
    "seats": [{"seat": "alice", "name": "alice", "key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA"}],
    "commitment": "sha256:" + "a" * 64, "join": True, "created": "2026-01-01T00:00:00Z",
}
MANIFEST: dict[str, Any] = {
    **MANIFEST_V1, "format": "arbiter.game/2", "referee": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB",
}
REVEAL: dict[str, Any] = {
    "format": "arbiter.reveal/1", "game": "g-1", "secret": "b" * 64, "head": "sha256:" + "c" * 64,
    "forced": False,
}
OBJECTS = {"manifest": MANIFEST, "manifest-v1": MANIFEST_V1, "reveal": REVEAL}
SEAT_VALUES = st.one_of(ODD_VALUES, st.just({"seat": "bob", "name": "", "key": "ssh-rsa AAAA"}),
                        st.just({"seat": "bob", "name": "Bob", "key": "ssh-dss AAAA"}),
                        st.just({"seat": "bob", "name": "Bob", "key": "ssh-rsa AAAA x"}),
                        st.just({"seat": "bob", "name": "Bob", "key": "ssh-rsa AAAA\n"}),
                        st.just({"seat": "bob", "name": "Bob", "key": "ecdsa-sha2-nistp256 AAAA"}))


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(["manifest", "manifest-v1", "reveal"]), field=st.sampled_from(
    ["format", "game", "engine", "options", "seats", "commitment", "join", "created", "secret",
     "head", "forced", "referee", "arbiter", "sealed", "extra"]), value=st.one_of(ODD_VALUES, st.lists(SEAT_VALUES, max_size=3),
     st.just("ssh-rsa AAAA comment"), st.just("ssh-ed25519 AAAA"),
     st.just({"name": "Bad", "version": "1"}), st.just({"name": "x", "version": "v" * 40})),
       drop=st.booleans())
def test_manifest_and_reveal_checks_agree_with_the_schemas(kind: str, field: str, value: Any, drop: bool) -> None:
    obj = copy.deepcopy(OBJECTS[kind])
    if drop:
        obj.pop(field, None)
    else:
        obj[field] = value
    assert FAST[kind](obj) == _schema_accepts(kind, obj)


def test_valid_manifest_and_reveal_pass_both() -> None:
    assert FAST["manifest"](MANIFEST) and _schema_accepts("manifest", MANIFEST)
    assert FAST["manifest-v1"](MANIFEST_V1) and _schema_accepts("manifest-v1", MANIFEST_V1)
    assert FAST["reveal"](REVEAL) and _schema_accepts("reveal", REVEAL)


def test_a_trailing_newline_is_refused_by_the_schema_itself() -> None:
    """The schemas' patterns use no "$" (Python's also matches before a final newline)."""
    move = copy.deepcopy(VALID["move"])
    move["seat"] = "alice\n"
    assert not _schema_accepts("move", move)
    assert not FAST["move"](move)
    with pytest.raises(SchemaViolation, match="seat"):
        schemas.validate("move", move, "move.json")


def _patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        return found + [p for value in node.values() for p in _patterns(value)]
    if isinstance(node, list):
        return [p for value in node for p in _patterns(value)]
    return []


@pytest.mark.parametrize("name", ["manifest", "manifest-v1", "join", "join-v1", "move", "receipt", "chain-entry"])
def test_no_schema_pattern_ends_with_a_dollar(name: str) -> None:
    """A "$" means "end, or before a final newline" in Python and "end" in ECMA-262: the
    same schema would accept different strings in different validators."""
    patterns = _patterns(schemas.generate(name))
    assert patterns
    assert not [p for p in patterns if "$" in p]


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


@pytest.mark.parametrize("release", [None, "0.3.0", "", 7, "v" * 33])
def test_the_release_field_agrees_with_the_schema(release: Any) -> None:
    """``"arbiter": null`` (release unknown) is allowed by the schema: the fast check too."""
    obj = {**MANIFEST, "arbiter": release}
    assert FAST["manifest"](obj) == _schema_accepts("manifest", obj)
