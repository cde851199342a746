"""One record entry per chain entry: the chain line's members, then what its file decided.

The chain line's members come first and whole (``digest`` and ``summary`` included), so a
reader can recompute every ``hash`` from the record alone (docs/chain.md §4). What the
entry's signed file decided follows in plain members; the file's own bookkeeping (its
format, game, the head it was signed against, its signature) stays out: the chain's
``digest`` already binds the whole file.
"""

from __future__ import annotations

from typing import Any

# The chain line's members a record entry repeats (``prev`` is the entry before's hash,
# and ``format`` is the chain's: both are implied by the record's order).
CHAIN_MEMBERS = ("seq", "kind", "seat", "digest", "hash", "summary")

# Per chain kind, the members of its signed file a reader needs, copied as they are.
DECIDED: dict[str, tuple[str, ...]] = {
    "genesis": (),
    "join": ("entropy",),
    "move": ("actions",),
    "timeout": ("policy", "actions"),
    "resign": (),
    "propose-end": ("result",),
    "answer": ("answer", "request"),
    "handover": ("key",),
    "appoint": ("key", "reason"),
    "deal": ("group", "games"),
    "leave": ("days",),
    "leave-auto": ("days", "start"),
    "takeback-request": ("to",),
    "takeback": ("to", "request"),
    "orders": ("steps",),
    "order-step": ("orders", "step", "actions"),
}

# Members that name another entry by its file's digest: a reader follows an entry number
# more easily than a digest, and the entry's own ``digest`` still says which file it is.
BY_DIGEST = ("request", "orders")


def record_entry(
    chain_entry: dict[str, Any], signed: dict[str, Any] | None, seqs: dict[str, int]
) -> dict[str, Any]:
    """Return the record entry of ``chain_entry`` (``signed``: its file; ``None`` for
    genesis). ``seqs`` maps the file digest of every entry before it to its number."""
    out = {name: chain_entry[name] for name in CHAIN_MEMBERS}
    if "time" in chain_entry:  # games with deadlines only, as in the chain
        out["time"] = chain_entry["time"]
    kind = chain_entry["kind"]
    for name in DECIDED[kind]:
        assert signed is not None
        value = signed[name]
        out[name] = seqs[value] if name in BY_DIGEST else value
    if kind == "takeback":
        # Replay skips every entry after ``to`` up to the takeback (docs/chain.md §5).
        out["undone"] = list(range(signed["to"] + 1, chain_entry["seq"])) if signed else []
    return out


def mark_undone(entries: list[dict[str, Any]]) -> None:
    """Give each entry a takeback undid the number of that takeback (``undone_by``), so a
    reader going down the record knows, at the entry, that the game did not keep it."""
    for entry in entries:
        for seq in entry.get("undone", ()):
            entries[seq]["undone_by"] = entry["seq"]
