"""The clock of the seat a game waits for, as `arbiter status` and the tournament's live
site show it (deadline terms from ``deadlines``, the referee's clock from ``clock``)."""

from __future__ import annotations

from typing import Any

from arbiter.core.deadlines import at_or_after, terms_of


def waiting_clock(manifest: dict[str, Any], state: dict[str, Any], since: str | None) -> Any:
    """Return the waiting seat's clock in a game with deadlines, else None (what
    `arbiter status` shows, and the tournament's live site)."""
    try:
        terms = terms_of(manifest)
    except (KeyError, TypeError):
        return None
    from arbiter.core.clock import now_utc

    if terms is not None and "clock" in state:  # a bank, leave or weekend pauses
        from arbiter.core.clocks import status as clock_status

        return clock_status(state, manifest, now_utc())
    if terms is None or since is None or state["status"] != "playing" or not state["prompt"]:
        return None
    due, final, now = terms.due(since), terms.final(since), now_utc()
    return {
        "seat": state["prompt"]["seat"],
        "since": since,
        "due": due,
        "half": terms.half(since),
        "final": final,
        "policy": terms.on_timeout,
        # Past the deadline (the grace running) or past the grace (the policy is owed):
        # read from the referee's clock, as `arbiter timeout` reads it.
        "overdue": at_or_after(now, due),
        "timeout_owed": at_or_after(now, final),
    }
