"""The tournament record: the organiser's signed chain of decisions (docs/tournament-record.md).

``T/record.jsonl`` holds one canonical JSON line per decision — the terms, each round's
pairing, each finished game's result, the finish — each linked to the line before by the
sha256 of its bytes and signed with the organiser key in the SSHSIG namespace
``arbiter-tournament``. Lines are only ever appended (the whole file is replaced
atomically, under the tournament's lock). ``read`` checks the links and signatures;
``arbiter.tournament.audit`` recomputes everything else from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from arbiter.core.errors import ArbiterError, VerificationFailed
from arbiter.core.models import Strict, TieBreak
from arbiter.core.signing import NAMESPACE_TOURNAMENT
from arbiter.tournament.folder import Entrant, Terms

RECORD = "record.jsonl"
ORGANISER = "organiser"
"""``T/organiser/key``: the organiser's private signing key (never published)."""
ENTRY_FORMAT: Literal["arbiter.tournament-entry/1"] = "arbiter.tournament-entry/1"
NAMESPACE = NAMESPACE_TOURNAMENT
DIGEST = r"^sha256:[0-9a-f]{64}$"


class TermsBody(Strict):
    """Seq 0: everything fixed before round 1."""

    id: str
    engine: str
    engine_version: str
    options: dict[str, str]
    pairing: Literal["round-robin", "swiss"]
    rounds: int = Field(ge=1, le=99)
    table_size: int = Field(ge=2, le=16)
    players: list[Entrant] = Field(min_length=2)
    terms: Terms
    takebacks: Literal["none"]
    """Game terms every game is created with: tournaments take nothing back."""
    tiebreaks: list[TieBreak]
    """The standings' tie-breaks after points, in order (arbiter.tournament.tiebreaks)."""
    organiser: str = Field(max_length=2048)
    """The organiser's public key, ``<type> <base64>``: it signs every line."""
    created: str
    duplicate: bool = False
    """Duplicate rounds (docs/duplicate.md); written only when true."""


class TableBody(Strict):
    table: int = Field(ge=1, le=999)
    game: str
    folder: str
    seats: list[str] = Field(min_length=1)
    manifest: str = Field(pattern=DIGEST)
    """sha256 of the game's ``game.json`` bytes: binds the game, its secret's commitment
    and its seats' keys."""


class DealBody(Strict):
    """A duplicate group: its game.json files commit to the group secret, ``commitment``."""

    group: str
    seats: int = Field(ge=2, le=16)
    commitment: str = Field(pattern=DIGEST)
    games: list[str] = Field(min_length=1)


class RoundBody(Strict):
    round: int = Field(ge=1, le=99)
    seed: str = Field(pattern=r"^[0-9a-f]{64}$")
    """The round seed (docs/tournament-record.md §2): orders exact ties in the pairing."""
    paired: str
    tables: list[TableBody]
    byes: list[str]
    deals: list[DealBody] = Field(default_factory=list)
    """A duplicate tournament's groups (written only there)."""


class ResultBody(Strict):
    round: int = Field(ge=1, le=99)
    table: int = Field(ge=1, le=999)
    game: str
    head: str = Field(pattern=DIGEST)
    """The game's final chain head."""
    outcome: dict[str, Any] | None
    """``{ranking, scores}`` as the game's public state has it; null: abandoned."""


class FinishBody(Strict):
    rounds: int = Field(ge=1, le=99)


class DropBody(Strict):
    """A player not paired from ``from_round`` on (their finished games still count)."""

    name: str
    from_round: int = Field(ge=2, le=99)


class EnterBody(Strict):
    """A late entry, paired from ``from_round`` on."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$")
    key: str = Field(max_length=2048)
    comment: str = Field(default="", max_length=200)
    from_round: int = Field(ge=2, le=99)


BODIES: dict[str, type[Strict]] = {
    "terms": TermsBody,
    "round": RoundBody,
    "result": ResultBody,
    "finish": FinishBody,
    "drop": DropBody,
    "enter": EnterBody,
}


class Entry(Strict):
    """One line of ``record.jsonl``."""

    format: Literal["arbiter.tournament-entry/1"]
    tournament: str
    seq: int = Field(ge=0)
    prev: str | None = Field(pattern=DIGEST)
    """sha256 of the previous line's bytes (null for the genesis line)."""
    kind: Literal["terms", "round", "result", "finish", "drop", "enter"]
    time: str
    body: dict[str, Any]
    signature: str = Field(max_length=4096)
    """SSHSIG by the organiser key over this object without ``signature``."""


@dataclass
class Line:
    """A checked line: the entry, its validated body, and the sha256 of its bytes."""

    entry: dict[str, Any]
    body: Any
    hash: str

    @property
    def kind(self) -> str:
        return str(self.entry["kind"])


def line_hash(raw: bytes) -> str:
    """``sha256:<hex>`` of some bytes."""
    from arbiter.core.canonical import sha256_hex

    return sha256_hex(raw)


def organiser_key(root: Path) -> Path:
    return root / ORGANISER / "key"


def raw_lines(root: Path) -> list[bytes]:
    path = root / RECORD
    if not path.exists():
        return []
    return path.read_bytes().splitlines()


def append(
    root: Path, tournament: str, kind: str, body: dict[str, Any], time: str, key: Path
) -> Line:
    """Sign and append one line (the caller holds the tournament's lock)."""
    from arbiter.core.canonical import canonical
    from arbiter.core.gamedir import atomic_write
    from arbiter.core.signing import sign

    lines = raw_lines(root)
    parsed = BODIES[kind].model_validate(body).model_dump(mode="json")
    # Members only duplicate tournaments have (docs/duplicate.md) are left out elsewhere:
    # the other records keep the bytes they always had.
    if parsed.get("duplicate") is False:
        del parsed["duplicate"]
    if parsed.get("deals") == []:
        del parsed["deals"]
    entry: dict[str, Any] = {
        "format": ENTRY_FORMAT,
        "tournament": tournament,
        "seq": len(lines),
        "prev": line_hash(lines[-1]) if lines else None,
        "kind": kind,
        "time": time,
        "body": parsed,
    }
    entry["signature"] = sign(entry, key, NAMESPACE)
    raw = canonical(entry)
    atomic_write(root / RECORD, b"".join(line + b"\n" for line in [*lines, raw]))
    return Line(entry, BODIES[kind].model_validate(parsed), line_hash(raw))


def read(root: Path) -> list[Line]:
    """Read and check the whole record: shapes, links, seq and every signature.

    Raises ``VerificationFailed`` naming the first bad line."""
    from arbiter.core.canonical import canonical, parse_strict
    from arbiter.core.signing import verify

    out: list[Line] = []
    key: str | None = None
    tid: str | None = None
    for number, raw in enumerate(raw_lines(root)):
        where = f"{RECORD} line {number + 1}"
        try:
            data = parse_strict(raw, where)
            entry = Entry.model_validate(data).model_dump(mode="json")
            body = BODIES[entry["kind"]].model_validate(entry["body"])
        except ValidationError as exc:
            first = exc.errors()[0]
            at = ".".join(str(part) for part in first["loc"]) or "the line"
            raise VerificationFailed(f"{where}: {at}: {first['msg']}") from None
        except ArbiterError as exc:
            raise VerificationFailed(f"{where}: {exc.message}") from None
        if canonical(data) != raw:
            raise VerificationFailed(f"{where} is not in canonical form: it was rewritten")
        if entry["seq"] != number:
            raise VerificationFailed(f"{where} says seq {entry['seq']}: a line is missing or moved")
        expected = out[-1].hash if out else None
        if entry["prev"] != expected:
            raise VerificationFailed(
                f"{where} does not follow the line before it (prev {entry['prev']}): a line "
                "was removed, reordered or edited"
            )
        if number == 0:
            if entry["kind"] != "terms":
                raise VerificationFailed(f"{where}: the record must start with the terms")
            key, tid = body.organiser, body.id  # type: ignore[attr-defined]
        elif entry["kind"] == "terms":
            raise VerificationFailed(f"{where}: a second terms line")
        if entry["tournament"] != tid:
            raise VerificationFailed(f"{where} belongs to tournament {entry['tournament']!r}")
        assert key is not None
        try:
            verify(data, key, NAMESPACE)
        except ArbiterError as exc:
            raise VerificationFailed(
                f"{where} is not signed by the organiser key of the terms ({exc.message})"
            ) from None
        out.append(Line(entry, body, line_hash(raw)))
    if not out:
        raise VerificationFailed(
            f"{RECORD} is missing or empty: a tournament of format 2 records every decision there"
        )
    return out


def round_seed(genesis: str, number: int, heads: list[str]) -> str:
    """The seed of round ``number`` (docs/tournament-record.md §2): from the signed terms
    (the genesis line's hash) and, after round 1, the final chain heads of the previous
    round's games in table order."""
    from arbiter.core.canonical import sha256_hex

    parts = [b"arbiter-tournament-round/1", genesis.encode(), str(number).encode()]
    parts += [head.encode() for head in heads]
    return sha256_hex(b"\x00".join(parts)).removeprefix("sha256:")
