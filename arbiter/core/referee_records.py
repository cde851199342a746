"""What ``arbiter verify`` checks first of every record the referee signs itself (a
timeout, an appointment, automatic leave, a takeback, a standing order's step): its
schema, that it belongs to this game (and, when it names one, to this chain head), and
that the referee key of game.json signed it in the record's own namespace."""

from __future__ import annotations

from typing import Any

from arbiter.core.errors import ArbiterError, VerificationFailed
from arbiter.core.schemas import validate


def check(
    record: dict[str, Any],
    seq: int,
    manifest: dict[str, Any],
    signatures: bool,
    *,
    schema: str,
    what: str,
    namespace: str,
    head: str | None = None,
) -> None:
    """Raise ``VerificationFailed`` naming entry ``seq`` unless ``record`` (``what``:
    "the timeout", …) is the referee's own for this game; ``head``: the chain head the
    record must name in ``after``."""
    from arbiter.core.signing import verify

    validate(schema, record, f"{what} record of entry #{seq}")
    if record["game"] != manifest["game"] or (head is not None and record["after"] != head):
        raise VerificationFailed(f"entry #{seq}: {what} record does not match its chain entry")
    if not signatures:
        return
    try:
        verify(record, manifest["referee"], namespace)
    except ArbiterError as exc:
        raise VerificationFailed(
            f"entry #{seq}: {what} is not signed by the referee key of game.json ({exc.message})"
        ) from None
