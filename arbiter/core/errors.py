"""Domain errors, one class per kind of failure, each with its documented exit code.

The CLI maps these to exit codes in one place (``arbiter.cli.output``); the README
table lists them. Messages are one line: what is wrong and what to do.
"""

from __future__ import annotations


class ArbiterError(Exception):
    """Base of every domain error; ``exit_code`` is stable and documented."""

    exit_code = 1
    code = "error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class MalformedInput(ArbiterError):
    """The bytes are not strict JSON as arbiter accepts it (RFC 8785-safe JSON)."""

    exit_code = 3
    code = "malformed"


class SchemaViolation(ArbiterError):
    """The JSON is well formed but does not match the file's schema."""

    exit_code = 4
    code = "schema"


class WrongGame(ArbiterError):
    """The file names another game, or its format does not belong here."""

    exit_code = 5
    code = "wrong-game"


class UnknownSeat(ArbiterError):
    """The file names a seat that the manifest does not have."""

    exit_code = 6
    code = "unknown-seat"


class BadSignature(ArbiterError):
    """The signature does not verify with the seat's key in the right namespace."""

    exit_code = 7
    code = "bad-signature"


class StaleHead(ArbiterError):
    """The move was signed against a chain head that is no longer current."""

    exit_code = 8
    code = "stale"


class Duplicate(ArbiterError):
    """This file (or another signature over its content) was already accepted."""

    exit_code = 9
    code = "duplicate"

    def __init__(self, message: str, entry: int | None = None):
        super().__init__(message)
        self.entry = entry
        """The chain entry the file became (desks finish that entry's mail after a crash)."""


class GameOver(ArbiterError):
    """The game is over: no more moves are accepted."""

    exit_code = 10
    code = "game-over"


class OutOfTurn(ArbiterError):
    """It is not this seat's decision now (or the game has not started)."""

    exit_code = 11
    code = "out-of-turn"


class IllegalAction(ArbiterError):
    """The engine rejects the decision; ``rule`` cites the rule or ruling."""

    exit_code = 12
    code = "illegal"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


class BarrierCrossed(ArbiterError):
    """A batch runs past an information barrier or past another seat's decision."""

    exit_code = 13
    code = "barrier"


class AlreadyJoined(ArbiterError):
    """A join for a seat that already joined, or for a game that needs no joins."""

    exit_code = 14
    code = "already-joined"


class Tampered(ArbiterError):
    """A published or private file of the game folder does not match its record."""

    exit_code = 15
    code = "tampered"


class VerificationFailed(ArbiterError):
    """``arbiter verify`` found a mismatch; the message names the first one."""

    exit_code = 16
    code = "verify-failed"


class NotReady(ArbiterError):
    """The request is valid but not now (reveal before the end, missing folder...)."""

    exit_code = 17
    code = "not-ready"


class UsageError(ArbiterError):
    """Bad command-line values that Typer itself cannot catch."""

    exit_code = 2
    code = "usage"


ALL_ERRORS: tuple[type[ArbiterError], ...] = (
    UsageError,
    MalformedInput,
    SchemaViolation,
    WrongGame,
    UnknownSeat,
    BadSignature,
    StaleHead,
    Duplicate,
    GameOver,
    OutOfTurn,
    IllegalAction,
    BarrierCrossed,
    AlreadyJoined,
    Tampered,
    VerificationFailed,
    NotReady,
)
