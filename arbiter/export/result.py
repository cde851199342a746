"""The result of a record: the outcome, and why the game ended, read from the chain.

Nothing is accepted after a game is over (arbiter.core.life, table), so the entry that
ended a finished game is its last one, and that entry's kind says why: a resignation, the
acceptance that completed an end proposal, a forfeit on a timeout, or anything else,
which ended it by the game's rules. A game revealed before its end (``reveal --force``)
stopped there with no result.
"""

from __future__ import annotations

from typing import Any


def result(entries: list[dict[str, Any]], state: dict[str, Any], forced: bool) -> dict[str, Any]:
    """Return the record's ``result`` from its entries (indexed by ``seq``), the verified
    public state and whether the reveal was forced."""
    return {
        "status": state["status"],
        "reason": _reason(entries, state["status"], forced),
        "outcome": state["outcome"],
    }


def _reason(entries: list[dict[str, Any]], status: str, forced: bool) -> dict[str, Any]:
    last = entries[-1]
    seq, seat, kind = last["seq"], last["seat"], last["kind"]
    if forced or status != "over":
        return _said(
            "forced", seq, None,
            f"The referee revealed the secret after entry #{seq}, before the game was over: "
            "no result.",
        )  # fmt: skip
    if kind == "timeout" and last["policy"] == "forfeit":
        return _said(
            "forfeit", seq, seat,
            f"{seat} did not decide in time and forfeited at entry #{seq}: the game ended, "
            f"{seat} ranked last.",
        )  # fmt: skip
    if kind == "resign":
        return _said(
            "resignation", seq, seat,
            f"{seat} resigned at entry #{seq}: the game ended, {seat} ranked last.",
        )  # fmt: skip
    if kind == "answer":
        # An answer ends a game only as the acceptance that completes an end proposal
        # (a takeback never ends one): its request is that proposal.
        proposal = entries[last["request"]]
        who, where = proposal["seat"], proposal["seq"]
        if proposal["result"] == "abandon":
            return _said(
                "abandon", seq, who,
                f"Every seat accepted {who}'s proposal of entry #{where} to abandon the game "
                f"(entry #{seq}): no result.",
            )  # fmt: skip
        return _said(
            "agreement", seq, who,
            f"Every seat accepted {who}'s proposal of entry #{where} to end the game, scored "
            f"as it stood (entry #{seq}).",
        )  # fmt: skip
    return _said("end", seq, None, f"The game ended by its rules at entry #{seq}.")


def _said(kind: str, entry: int, seat: str | None, text: str) -> dict[str, Any]:
    return {"kind": kind, "entry": entry, "seat": seat, "text": text}
