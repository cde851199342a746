"""Build a game's record from its folder: the header, then every chain entry in order.

Everything comes from files ``arbiter verify`` checks after the reveal — game.json, the
chain, reveal/signed.jsonl, reveal/reveal.json and public/state.json — except the
event, round and table, which come from the tournament that schedules the game
(``context.tournament_context``) or, outside a tournament, from the exporter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.errors import NotReady, UsageError, VerificationFailed
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import shown
from arbiter.export.context import tournament_context
from arbiter.export.entries import mark_undone, record_entry
from arbiter.export.result import result

RECORD_FORMAT = "arbiter.record/1"
PLACE = ("event", "round", "table")
"""The header members that say where the game was played (not in the game's files)."""


def require_revealed(root: Path) -> GameDir:
    """Return the game folder, or refuse one whose secret and signed files are not public."""
    gd = GameDir(root)
    gd.require()
    if not gd.reveal_record.is_file():
        raise NotReady(
            f"{shown(root)} is not revealed: reveal it first (`arbiter reveal {shown(root)}`); "
            "a record holds every decision, which only the reveal makes public"
        )
    return gd


def export(root: Path, event: str | None, round_: int | None, table: int | None) -> bytes:
    """Return the record of the revealed game in ``root`` as arbiter writes it.

    The game is verified first (a full replay): a record vouches for what it lists, so a
    game that does not replay has none.
    """
    from arbiter.core.canonical import pretty
    from arbiter.core.replay import verify

    require_revealed(root)
    where = place(root, event, round_, table)  # a usage error before the long check
    try:
        verify(root)
    except VerificationFailed as exc:
        raise VerificationFailed(
            f"{shown(root)} does not verify, so it has no record: {exc.message}"
        ) from None
    return pretty(build(root, where))


def place(root: Path, event: str | None, round_: int | None, table: int | None) -> dict[str, Any]:
    """Return the header's event, round and table: the tournament's when it schedules the
    game (options that say otherwise are refused), else the options' (null when not given)."""
    given = {"event": event, "round": round_, "table": table}
    if event is not None and not 1 <= len(event) <= 200:
        raise UsageError("--event must be 1 to 200 characters")
    found = tournament_context(root)
    if found is None:
        return given
    for name in PLACE:
        if given[name] is not None and given[name] != found[name]:
            raise UsageError(
                f"this game is table {found['table']} of round {found['round']} of "
                f"{found['event']}: its header comes from the tournament; leave out --{name}"
            )
    return found


def build(root: Path, where: dict[str, Any]) -> dict[str, Any]:
    """Return the record of the revealed game in ``root`` (not verified here: ``export``
    and ``arbiter verify`` verify first), with ``where``'s event, round and table."""
    gd = GameDir(root)
    record = gd.consistent(lambda: _read(gd, where))
    from arbiter.core.schemas import validate

    validate("record", record, "the record")  # what is written fits its published schema
    return record


def _read(gd: GameDir, where: dict[str, Any]) -> dict[str, Any]:
    from arbiter.core.chain import iter_chain
    from arbiter.core.ledger import Records, load_manifest, read_json

    manifest, manifest_digest, _ = load_manifest(gd)
    reveal = read_json(gd.reveal_record, "reveal/reveal.json")
    state = read_json(gd.public_state, "public/state.json")
    entries: list[dict[str, Any]] = []
    seqs: dict[str, int] = {}
    with Records(gd.reveal_signed) as records:
        for chain_entry in iter_chain(gd.chain, manifest_digest):
            seq = chain_entry["seq"]
            signed = records.read(seq, chain_entry["digest"]) if seq else None
            entries.append(record_entry(chain_entry, signed, seqs))
            seqs[chain_entry["digest"]] = seq
    mark_undone(entries)
    first, last = entries[0], entries[-1]
    return {
        "format": RECORD_FORMAT,
        "game": manifest["game"],
        "manifest": manifest_digest,
        **{name: where[name] for name in PLACE},
        "date": {"start": first.get("time", manifest["created"]), "end": last.get("time")},
        "engine": manifest["engine"],
        "options": manifest["options"],
        "seats": manifest["seats"],
        "referee": manifest.get("referee"),
        "terms": terms(manifest),
        "seed": seed(manifest, reveal),
        "result": result(entries, state, reveal["forced"]),
        "head": last["hash"],
        "timeline": entries,
    }


def seed(manifest: dict[str, Any], reveal: dict[str, Any]) -> dict[str, Any]:
    """The seed commitment and secret; a duplicate game's group and its secret too."""
    out: dict[str, Any] = {"commitment": manifest["commitment"], "secret": reveal["secret"]}
    terms = manifest.get("deal")
    if terms is not None:
        out["deal"] = {
            "group": terms["group"],
            "commitment": terms["commitment"],
            "secret": reveal["deal_secret"],
        }
    return out


def terms(manifest: dict[str, Any]) -> dict[str, Any]:
    """The terms the seats signed, each absent member of game.json said as what it means."""
    return {
        "join": manifest["join"],
        "sealed": manifest.get("sealed", False),
        "deadline": manifest.get("deadline"),
        "takebacks": manifest.get("takebacks") or "none",
        "substitutes": manifest.get("substitutes") or False,
    }
