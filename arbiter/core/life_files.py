"""The player's side of a long game's life: build and sign a resignation, an end
proposal, an answer or a handover from the seat's state file (docs/game-life.md §1).

Like ``player.make_move`` these need no referee secret: the state file carries the head
to sign against, the seats still playing and the open proposal. Each maker first refuses,
with the referee's own exit code, what the state file already shows the referee would
refuse (``life.check_seat_file`` judges the same things on the referee's side).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.errors import AlreadyJoined, GameOver, OutOfTurn, StaleHead, UsageError
from arbiter.core.formats import (
    ANSWER_FORMAT,
    HANDOVER_FORMAT,
    PROPOSE_END_FORMAT,
    RESIGN_FORMAT,
)
from arbiter.core.player import own_state
from arbiter.core.schemas import validate


def _open(state: dict[str, Any], what: str) -> str:
    """The seat, once the state file shows a game in which it may still send ``what``."""
    seat = own_state(state)
    if state["status"] == "over":
        raise GameOver(f"the game is over: no {what} is accepted")
    if state["status"] != "playing":
        raise OutOfTurn(f"the game has not started: a {what} comes once every seat has joined")
    if seat in state.get("resigned", []):
        raise OutOfTurn(f"{seat} resigned and no longer plays: nothing to send")
    return seat


def _signed(record: dict[str, Any], key: Path, kind: str, schema: str, what: str) -> dict[str, Any]:
    from arbiter.core import life
    from arbiter.core.signing import sign

    record["signature"] = sign(record, key, life.namespace(kind))
    validate(schema, record, what)
    return record


def make_resign(state: dict[str, Any], key: Path) -> dict[str, Any]:
    """A resignation against the state file's head (accepted at any time, even out of turn)."""
    seat = _open(state, "resignation")
    record = {"format": RESIGN_FORMAT, "game": state["game"], "seat": seat, "after": state["head"]}
    return _signed(record, key, "resign", "resign", "the resignation")


def make_propose_end(state: dict[str, Any], key: Path, result: str) -> dict[str, Any]:
    """A proposal to end the game now: ``score`` (as it stands) or ``abandon`` (no result)."""
    seat = _open(state, "proposal")
    if result not in ("score", "abandon"):
        raise UsageError(f"--result must be score or abandon, not {result!r}")
    pending = state.get("pending")
    if pending is not None:
        raise OutOfTurn(
            f"{pending['seat']}'s proposal (entry #{pending['seq']}) is open: answer it with "
            "`arbiter answer` before proposing"
        )
    record = {
        "format": PROPOSE_END_FORMAT,
        "game": state["game"],
        "seat": seat,
        "after": state["head"],
        "result": result,
    }
    return _signed(record, key, "propose-end", "propose-end", "the proposal")


def make_answer(state: dict[str, Any], key: Path, answer: str) -> dict[str, Any]:
    """Accept or decline the open request the state file shows (an end proposal or a
    takeback)."""
    seat = _open(state, "answer")
    if answer not in ("accept", "decline"):
        raise UsageError(f"the answer must be accept or decline, not {answer!r}")
    pending = state.get("pending")
    if pending is None:
        raise StaleHead(
            "your state file shows no open proposal or takeback request: nothing to answer "
            "(take your new state file if one was just made)"
        )
    if seat == pending["seat"]:
        raise OutOfTurn("you made this request: only the other seats answer it")
    if seat in pending["accepted"]:
        raise AlreadyJoined(f"{seat} has already accepted this request: nothing to do")
    if seat not in pending["waiting_for"]:
        raise OutOfTurn(f"this request does not concern {seat}: its answer is not needed")
    record = {
        "format": ANSWER_FORMAT,
        "game": state["game"],
        "seat": seat,
        "request": pending["request"],
        "answer": answer,
    }
    return _signed(record, key, "answer", "answer", "the answer")


def make_handover(state: dict[str, Any], key: Path, new_key: str) -> dict[str, Any]:
    """Hand the seat over to ``new_key`` (a .pub path or key line), signed by the key the
    seat holds now."""
    from arbiter.core.signing import public_key_of, read_public_key

    seat = own_state(state)
    if state["status"] == "over":
        raise GameOver("the game is over: a seat can no longer be handed over")
    line = read_public_key(new_key)
    try:
        mine: str | None = public_key_of(key)
    except UsageError:  # no public half to compare with: the referee judges the key
        mine = None
    if mine is not None and mine.split()[:2] == line.split()[:2]:
        raise UsageError("the new key is the one signing: the substitute needs a key of their own")
    record = {
        "format": HANDOVER_FORMAT,
        "game": state["game"],
        "seat": seat,
        "after": state["head"],
        "key": line,
    }
    return _signed(record, key, "handover", "handover", "the handover")
