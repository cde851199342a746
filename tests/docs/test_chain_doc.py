"""docs/chain.md, checked against the files, against itself and against arbiter.

The page defines the chain's ``digest`` and ``hash`` for people who re-implement
verification elsewhere. This file re-implements those definitions from the page alone
(``hashlib``, the ``rfc8785`` package for canonical bytes and a strict loader of its own,
§1; nothing from ``arbiter.core`` on that side) and then:

- recomputes every value of the page's "Worked example" (its ``name = value`` block and
  its literal JSON lines) from ``examples/mottainai/game``, and again with arbiter's own
  functions (``chain.make_entry``, ``chain.line``, ``canonical.digest``, ...), so that the
  page, the independent code and arbiter agree;
- re-checks every chain line of every example game (and of the version-1 fixture):
  canonical form, hash, link, the genesis digest and each signed file's digest, the
  heads cited by moves, joins, receipts and the reveal record;
- runs the page's own chain-check script on every example game;
- checks the refusals §1 lists and that the page names every chain-entry field.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rfc8785

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "chain.md"
CHAIN_SCHEMA = ROOT / "schemas" / "chain-entry.schema.json"
EXAMPLE = ROOT / "examples" / "mottainai"
GAMES = [*sorted(ROOT.glob("examples/*/game")), ROOT / "tests/golden/format-1/tally/game"]
GAME_IDS = [game.parent.name for game in GAMES]

# -- the page ------------------------------------------------------------------------------


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def section(title: str) -> str:
    """Return the text of the ``## title`` section, up to the next ``## `` heading."""
    text = doc_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def blocks(text: str) -> list[tuple[str, str]]:
    """Return (info string, body) of each fenced block of ``text``."""
    return [(m.group(1).strip(), m.group(2)) for m in _FENCE.finditer(text)]


def worked_values() -> dict[str, str]:
    """Return the ``name = value`` lines of the worked example's fenced blocks."""
    values: dict[str, str] = {}
    for _, body in blocks(section("Worked example")):
        for line in body.splitlines():
            found = re.fullmatch(r"([a-z][a-z0-9_]*)\s*=\s*(\S+)", line.strip())
            if found:
                assert found.group(1) not in values, f"{found.group(1)} given twice"
                values[found.group(1)] = found.group(2)
    return values


def worked_json(tag: str) -> bytes:
    """Return the literal bytes of the worked example's block ``json <tag>``."""
    found = [body for info, body in blocks(section("Worked example")) if info == f"json {tag}"]
    assert len(found) == 1, f"docs/chain.md needs exactly one ```json {tag} block"
    assert found[0].endswith("\n") and found[0].count("\n") == 1, f"{tag}: one line expected"
    return found[0][:-1].encode()


def doc_script() -> str:
    found = [body for info, body in blocks(doc_text()) if info == "python"]
    assert len(found) == 1, "docs/chain.md should hold exactly one python block"
    return found[0]


# -- docs/chain.md, written out again (no arbiter imports) --------------------------------


class Refused(ValueError):
    """A file the strict parse of §1 refuses."""


MAX_SAFE = 2**53 - 1


def _pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in items:
        if key in out:
            raise Refused(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_float(text: str) -> Any:
    raise Refused(f"not an integer: {text}")


def _no_constant(text: str) -> Any:
    raise Refused(f"not JSON: {text}")


def _int(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_SAFE:
        raise Refused("integer out of range")
    return value


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def strict_load(data: bytes) -> Any:
    """Parse ``data`` as §1 says, or raise ``Refused``."""
    if len(data) > 1024 * 1024:
        raise Refused("over 1 MiB")
    if data.startswith(b"\xef\xbb\xbf"):
        raise Refused("byte order mark")
    try:
        text = data.decode("utf-8")
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_float=_no_float,
            parse_constant=_no_constant,
            parse_int=_int,
        )
        canonical(value)  # lone surrogates have no UTF-8 form
    except Refused:
        raise
    except (ValueError, RecursionError, UnicodeError) as exc:
        raise Refused(str(exc)) from None
    if _depth(value) > 64:
        raise Refused("nested over 64 levels")
    return value


def canonical(value: Any) -> bytes:
    return bytes(rfc8785.dumps(value))


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def digest(value: Any) -> str:
    return sha256(canonical(value))


def jsonl(path: Path) -> list[bytes]:
    """Return the lines of a JSON Lines file without their newlines (each must have one)."""
    parts = path.read_bytes().split(b"\n")
    assert parts[-1] == b"", f"{path}: the last line has no newline"
    return parts[:-1]


def without(obj: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k != key}


def manifest_digest_of(game: Path) -> str:
    return digest(strict_load((game / "game.json").read_bytes()))


def check_chain(game: Path) -> list[dict[str, Any]]:
    """Check ``game``'s chain as docs/chain.md §4–§5 say; return its entries."""
    manifest_digest = manifest_digest_of(game)
    signed_path = game / "reveal" / "signed.jsonl"
    signed = jsonl(signed_path) if signed_path.exists() else None
    fields = {"format", "seq", "kind", "seat", "prev", "digest", "summary", "hash"}
    entries: list[dict[str, Any]] = []
    head = None
    for n, raw in enumerate(jsonl(game / "chain.jsonl")):
        entry = strict_load(raw)
        if canonical(entry) != raw:
            raise Refused(f"entry {n}: not canonical")
        if set(entry) != fields or entry["format"] != "arbiter.chain/1":
            raise Refused(f"entry {n}: not a chain entry")
        if entry["hash"] != digest(without(entry, "hash")):
            raise Refused(f"entry {n}: wrong hash")
        # The shortcut of §4: the line without its hash member.
        if (
            sha256(raw.replace(b',"hash":"' + entry["hash"].encode() + b'"', b"", 1))
            != entry["hash"]
        ):
            raise Refused(f"entry {n}: the shortcut disagrees")
        if entry["seq"] != n or entry["prev"] != head:
            raise Refused(f"entry {n}: broken link")
        if n == 0:
            if entry["kind"] != "genesis" or entry["seat"] is not None:
                raise Refused("entry 0 is not a genesis entry")
            if entry["digest"] != manifest_digest:
                raise Refused("genesis digest is not the manifest digest")
        elif entry["kind"] not in ("join", "move"):
            raise Refused(f"entry {n}: kind {entry['kind']}")
        elif signed is not None:
            data = signed[n - 1]
            file = strict_load(data)
            if canonical(file) != data:
                raise Refused(f"signed file {n}: not canonical")
            if entry["digest"] != sha256(data) or entry["digest"] != digest(file):
                raise Refused(f"entry {n}: digest is not its signed file's")
            if entry["seat"] != file["seat"] or not file["format"].startswith(
                f"arbiter.{entry['kind']}/"
            ):
                raise Refused(f"entry {n}: kind or seat differs from its file")
            if entry["kind"] == "move" and file["after"] != head:
                raise Refused(f"entry {n}: the move's after is not the previous head")
            if entry["kind"] == "join" and file["manifest"] != manifest_digest:
                raise Refused(f"entry {n}: the join cites another manifest")
        entries.append(entry)
        head = entry["hash"]
    if not entries:
        raise Refused("no genesis entry")
    if signed is not None and len(signed) != len(entries) - 1:
        raise Refused("signed.jsonl does not have one line per non-genesis entry")
    return entries


# -- the worked example --------------------------------------------------------------------

EXPECTED_NAMES = {
    "manifest_digest",
    "game_json_file_sha256",
    "genesis_hash",
    "entry1_digest",
    "entry1_without_signature_sha256",
    "entry1_hash",
    "entry2_hash",
    "entry3_after",
    "last_seq",
    "last_hash",
    "reveal_head",
}


def independent_values() -> dict[str, str]:
    """Every worked-example value, recomputed from the files by this file's own code."""
    game = EXAMPLE / "game"
    entries = check_chain(game)
    signed = jsonl(game / "reveal" / "signed.jsonl")
    join = strict_load(signed[0])
    genesis, first = entries[0], entries[1]
    return {
        "manifest_digest": manifest_digest_of(game),
        "game_json_file_sha256": sha256((game / "game.json").read_bytes()),
        "genesis_hash": digest(without(genesis, "hash")),
        "entry1_digest": sha256(signed[0]),
        "entry1_without_signature_sha256": digest(without(join, "signature")),
        "entry1_hash": digest(without(first, "hash")),
        "entry2_hash": digest(without(entries[2], "hash")),
        "entry3_after": strict_load((EXAMPLE / "moves" / "00003-bob.json").read_bytes())["after"],
        "last_seq": str(len(entries) - 1),
        "last_hash": digest(without(entries[-1], "hash")),
        "reveal_head": strict_load((game / "reveal" / "reveal.json").read_bytes())["head"],
    }


def test_worked_example_names_every_value() -> None:
    assert set(worked_values()) == EXPECTED_NAMES


def test_worked_example_values_are_the_files_values() -> None:
    values = worked_values()
    computed = independent_values()
    for name in sorted(EXPECTED_NAMES):
        assert values[name] == computed[name], f"docs/chain.md: {name}"
    # What the page says of them.
    assert values["manifest_digest"] != values["game_json_file_sha256"]
    assert values["entry1_digest"] != values["entry1_without_signature_sha256"]
    assert values["entry3_after"] == values["entry2_hash"]
    assert values["last_hash"] == values["reveal_head"]
    join_alice = strict_load((EXAMPLE / "moves" / "join-alice.json").read_bytes())
    assert digest(join_alice) == values["entry1_digest"]
    assert join_alice["manifest"] == values["manifest_digest"]
    receipt = strict_load((EXAMPLE / "receipts" / "1.json").read_bytes())
    assert (receipt["seq"], receipt["hash"], receipt["digest"]) == (
        1,
        values["entry1_hash"],
        values["entry1_digest"],
    )


def test_worked_example_lines_are_the_files_lines() -> None:
    values = worked_values()
    game = EXAMPLE / "game"
    chain = jsonl(game / "chain.jsonl")
    manifest = strict_load((game / "game.json").read_bytes())
    assert manifest["format"] == "arbiter.game/2"
    assert worked_json("manifest-canonical") == canonical(manifest)
    assert sha256(worked_json("manifest-canonical")) == values["manifest_digest"]
    assert f"({len(canonical(manifest))} bytes" in section("Worked example")
    for seq, tag, name in ((0, "genesis", "genesis_hash"), (1, "entry1", "entry1_hash")):
        line, hashed = worked_json(f"{tag}-line"), worked_json(f"{tag}-hashed")
        assert line == chain[seq]
        assert hashed == canonical(without(strict_load(chain[seq]), "hash"))
        assert sha256(hashed) == values[name]
        assert strict_load(line)["hash"] == values[name]
    assert strict_load(worked_json("genesis-line"))["digest"] == values["manifest_digest"]
    entry1 = strict_load(worked_json("entry1-line"))
    assert entry1["prev"] == values["genesis_hash"]
    assert entry1["digest"] == values["entry1_digest"]
    assert (entry1["kind"], entry1["seat"]) == ("join", "alice")


def test_worked_example_values_are_arbiters_values() -> None:
    from arbiter.core import canonical as arbiter_canonical
    from arbiter.core import chain
    from arbiter.core.gamedir import GameDir
    from arbiter.core.ledger import load_manifest
    from arbiter.core.signing import signed_bytes

    values = worked_values()
    game = EXAMPLE / "game"
    _, manifest_digest, _ = load_manifest(GameDir(game))
    assert manifest_digest == values["manifest_digest"]
    lines = jsonl(game / "chain.jsonl")
    genesis = json.loads(lines[0])
    made = chain.make_entry(0, "genesis", None, None, manifest_digest, genesis["summary"])
    assert made["hash"] == values["genesis_hash"]
    assert chain.line(made) == lines[0] + b"\n"
    join = json.loads((EXAMPLE / "moves" / "join-alice.json").read_bytes())
    assert arbiter_canonical.digest(join) == values["entry1_digest"]
    assert (
        arbiter_canonical.sha256_hex(signed_bytes(join))
        == values["entry1_without_signature_sha256"]
    )
    first = json.loads(lines[1])
    made = chain.make_entry(
        1, "join", join["seat"], values["genesis_hash"], values["entry1_digest"], first["summary"]
    )
    assert made["hash"] == values["entry1_hash"]
    assert chain.line(made) == lines[1] + b"\n"
    entries = list(chain.iter_chain(game / "chain.jsonl", manifest_digest))
    assert entries[2]["hash"] == values["entry2_hash"]
    assert str(entries[-1]["seq"]) == values["last_seq"]
    assert entries[-1]["hash"] == values["last_hash"] == values["reveal_head"]


# -- every example game --------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_every_chain_line_recomputes(game: Path) -> None:
    from arbiter.core import chain
    from arbiter.core.canonical import digest as arbiter_digest
    from arbiter.core.canonical import parse_strict

    entries = check_chain(game)
    assert (
        strict_load((game / "reveal" / "reveal.json").read_bytes())["head"] == entries[-1]["hash"]
    )
    for state in [game / "public" / "state.json", *sorted(game.glob("players/*/state.json"))]:
        cited = strict_load(state.read_bytes())
        assert (cited["seq"], cited["head"]) == (len(entries) - 1, entries[-1]["hash"])
    # arbiter agrees, line by line.
    manifest_digest = arbiter_digest(parse_strict((game / "game.json").read_bytes()))
    assert manifest_digest == manifest_digest_of(game)
    raw_lines = jsonl(game / "chain.jsonl")
    theirs = list(chain.iter_chain(game / "chain.jsonl", manifest_digest))
    assert theirs == entries
    for raw, entry in zip(raw_lines, entries, strict=True):
        rebuilt, entry_hash = chain.entry_line(
            entry["seq"],
            entry["kind"],
            entry["seat"],
            entry["prev"],
            entry["digest"],
            entry["summary"],
        )
        assert (rebuilt, entry_hash) == (raw + b"\n", entry["hash"])


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_versions_and_receipts_are_as_the_page_says(game: Path) -> None:
    entries = check_chain(game)
    manifest = strict_load((game / "game.json").read_bytes())
    version = manifest["format"].removeprefix("arbiter.game/")
    assert ("referee" in manifest) == (version == "2")
    for data in jsonl(game / "reveal" / "signed.jsonl"):
        file = strict_load(data)
        if "manifest" in file:
            assert file["format"] == f"arbiter.join/{version}"
            assert ("entropy_signature" in file) == (version == "2")
    receipts = sorted(game.parent.glob("receipts/*.json"))
    assert bool(receipts) == (version == "2")
    for path in receipts:
        receipt = strict_load(path.read_bytes())
        entry = entries[receipt["seq"]]
        assert receipt["seq"] == int(path.stem) >= 1
        assert receipt["format"] == "arbiter.receipt/1"
        assert (receipt["kind"], receipt["seat"], receipt["hash"], receipt["digest"]) == (
            entry["kind"],
            entry["seat"],
            entry["hash"],
            entry["digest"],
        )


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_the_pages_script_prints_the_head(game: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", doc_script(), str(game)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    head = strict_load((game / "reveal" / "reveal.json").read_bytes())["head"]
    assert done.stdout == head + "\n"


def test_edits_break_the_chain_and_whitespace_does_not(tmp_path: Path) -> None:
    """§3 and §4: the manifest digest ignores indentation; a changed value or line shows."""
    from arbiter.core.chain import iter_chain
    from arbiter.core.errors import Tampered

    game = tmp_path / "game"
    shutil.copytree(EXAMPLE / "game", game)
    manifest = json.loads((game / "game.json").read_bytes())
    head = check_chain(game)[-1]["hash"]
    (game / "game.json").write_text(json.dumps(manifest, indent=7, sort_keys=False) + "\n\n")
    assert check_chain(game)[-1]["hash"] == head
    assert list(iter_chain(game / "chain.jsonl", manifest_digest_of(game)))[-1]["hash"] == head

    manifest["created"] = "2026-01-02T00:00:00Z"
    (game / "game.json").write_text(json.dumps(manifest, indent=2))
    with pytest.raises(Refused, match="genesis digest"):
        check_chain(game)
    with pytest.raises(Tampered, match="genesis digest"):
        list(iter_chain(game / "chain.jsonl", manifest_digest_of(game)))
    shutil.copy(EXAMPLE / "game" / "game.json", game / "game.json")

    lines = (game / "chain.jsonl").read_bytes().split(b"\n")
    lines[7] = lines[7].replace(b"Turn", b"Tune", 1)
    (game / "chain.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(Refused, match="entry 7: wrong hash"):
        check_chain(game)
    with pytest.raises(Tampered, match="chain entry 7 was altered"):
        list(iter_chain(game / "chain.jsonl", manifest_digest_of(game)))
    done = subprocess.run(
        [sys.executable, "-c", doc_script(), str(game)], capture_output=True, check=False
    )
    assert done.returncode != 0


# -- §1 and the schema -----------------------------------------------------------------------

REFUSED = {
    "duplicate key": b'{"a": 1, "a": 1}',
    "fraction": b'{"a": 1.0}',
    "exponent": b'{"a": 1e2}',
    "NaN": b'{"a": NaN}',
    "Infinity": b'{"a": -Infinity}',
    "above 2^53-1": b'{"a": 9007199254740992}',
    "below -(2^53-1)": b'{"a": -9007199254740992}',
    "byte order mark": b'\xef\xbb\xbf{"a": 1}',
    "not UTF-8": b'{"a": "\xff"}',
    "lone surrogate": b'{"a": "\\ud800"}',
    "over 1 MiB": b'{"a": "' + b"x" * (1024 * 1024) + b'"}',
    "nested 65 levels": b"[" * 65 + b"]" * 65,
    "empty": b"",
    "not JSON": b"{a: 1}",
}
ACCEPTED = {
    "2^53-1": b'{"a": 9007199254740991, "b": -9007199254740991}',
    "nested 64 levels": b"[" * 64 + b"]" * 64,
    "1 MiB exactly": b'{"a": "' + b"x" * (1024 * 1024 - 9) + b'"}',
}


@pytest.mark.parametrize("data", list(REFUSED.values()), ids=list(REFUSED))
def test_the_refusals_of_section_1_hold(data: bytes) -> None:
    from arbiter.core.canonical import parse_strict
    from arbiter.core.errors import MalformedInput

    with pytest.raises(Refused):
        strict_load(data)
    with pytest.raises(MalformedInput):
        parse_strict(data)


@pytest.mark.parametrize("data", list(ACCEPTED.values()), ids=list(ACCEPTED))
def test_the_limits_of_section_1_are_inclusive(data: bytes) -> None:
    from arbiter.core.canonical import canonical as arbiter_canonical
    from arbiter.core.canonical import parse_strict

    assert len(data) <= 1024 * 1024
    if len(data) > 1000:
        assert len(data) == 1024 * 1024
    value = strict_load(data)
    assert parse_strict(data) == value
    assert arbiter_canonical(value) == canonical(value)


def test_schema_strings_with_a_trailing_newline_are_refused() -> None:
    from arbiter.core.errors import SchemaViolation
    from arbiter.core.schemas import validate

    join = strict_load(jsonl(EXAMPLE / "game" / "reveal" / "signed.jsonl")[0])
    validate("join", join, "join")
    assert join["signature"].endswith("-----END SSH SIGNATURE-----\n")  # one newline: fine
    for key in ("game", "seat", "manifest", "entropy"):
        with pytest.raises(SchemaViolation):
            validate("join", {**join, key: join[key] + "\n"}, "join")
    with pytest.raises(SchemaViolation):
        validate("join", {**join, "signature": join["signature"] + "\n"}, "join")
    entry = strict_load(jsonl(EXAMPLE / "game" / "chain.jsonl")[1])
    validate("chain-entry", entry, "entry")
    for key in ("seat", "prev", "digest", "hash"):
        with pytest.raises(SchemaViolation):
            validate("chain-entry", {**entry, key: entry[key] + "\n"}, "entry")


def test_the_page_names_every_chain_entry_field() -> None:
    fields = json.loads(CHAIN_SCHEMA.read_text(encoding="utf-8"))["properties"]
    assert [name for name in fields if f"`{name}`" not in doc_text()] == []
