"""``tournament check --round R``: one round's pairing, recomputed from the signed record.

The same computation ``tournament verify`` makes for every round (``audit.check_pairing``),
for a player who wants to see one round: the seed and the tables the rules give, compared
with what the organiser signed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.errors import UsageError
from arbiter.tournament import folder, record


def check_round(root: Path, number: int) -> dict[str, Any]:
    """Raise ``VerificationFailed`` when the recorded pairing of round ``number`` is not
    the one the rules give; return it (seed, tables, byes) when it is."""
    from arbiter.tournament.audit import check_pairing, rebuild

    tournament = folder.load(root)
    if not tournament.recorded:
        raise UsageError("a format-1 tournament has no signed record to check rounds against")
    lines = record.read(root)
    rounds = [line for line in lines if line.kind == "round"]
    found = next((line for line in rounds if line.body.round == number), None)
    if found is None:
        raise UsageError(
            f"round {number} is not in the record ({len(rounds)} rounds paired so far)"
        )
    check_pairing(rebuild(lines), lines, found)
    return {
        "round": number,
        "seed": found.body.seed,
        "tables": [list(t.seats) for t in found.body.tables],
        "byes": list(found.body.byes),
    }
