"""The file formats as pydantic models; ``schemas/`` is generated from them.

Every top-level file carries ``"format": "arbiter.<kind>/1"``. Incoming files are first
validated against the committed JSON Schemas (``arbiter.core.schemas``), then read into
these models. Field docstrings flow into the schemas.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from pydantic.json_schema import SkipJsonSchema


def _chars(first: str, allowed: str, max_length: int) -> dict[str, Any]:
    """The schema of a string type: starts with ``first``, every character in ``allowed``, 1–max long.

    No ``$`` anywhere: Python's ``$`` (which the jsonschema package uses) also matches
    before a final newline, ECMA-262's does not. A start anchor, a "no other character"
    clause and a length bound mean the same in every regex dialect.
    """
    schema = {
        "type": "string",
        "minLength": 1,
        "maxLength": max_length,
        "pattern": f"^{first}",
        "not": {"pattern": f"[^{allowed}]"},
    }
    return schema


def _exact(pattern: str, length: int) -> dict[str, Any]:
    """The schema of a fixed-length string starting with ``pattern`` (which spans it)."""
    return {"type": "string", "minLength": length, "maxLength": length, "pattern": f"^{pattern}"}


SeatId = Annotated[str, WithJsonSchema(_chars("[a-z]", "a-z0-9_-", 32))]
GameId = Annotated[str, WithJsonSchema(_chars("[a-z0-9]", "a-z0-9-", 63))]
Name = Annotated[str, WithJsonSchema(_chars("[a-z]", "a-z0-9_-", 32))]
Digest = Annotated[str, WithJsonSchema(_exact("sha256:[0-9a-f]{64}", 71))]
Hex32 = Annotated[str, WithJsonSchema(_exact("[0-9a-f]{64}", 64))]
UtcTime = Annotated[
    str,
    WithJsonSchema(
        _exact("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", 20)
        | {"description": "The referee's clock, UTC, to the second."}
    ),
]
# "<type> <base64>", no comment: arbiter stores keys normalised (docs/signing.md), and only
# the key types whose signatures sshsig verifies and which sign deterministically.
PublicKey = Annotated[
    str,
    WithJsonSchema(
        {
            "type": "string",
            "maxLength": 2048,
            "pattern": "^(ssh-ed25519|ssh-rsa) [A-Za-z0-9+/]",
            "not": {"pattern": "[^A-Za-z0-9+/= -]| .* "},
        }
    ),
]
# An armored SSHSIG; after its END line at most one newline.
Armored = Annotated[
    str,
    WithJsonSchema(
        {
            "type": "string",
            "maxLength": 4096,
            "pattern": r"^-----BEGIN SSH SIGNATURE-----\n[A-Za-z0-9+/=\n]+\n"
            r"-----END SSH SIGNATURE-----",
            "not": {"pattern": r"-----END SSH SIGNATURE-----([^\n]|\n[\s\S])"},
        }
    ),
]


class Strict(BaseModel):
    """Base of every file model: unknown fields are errors, nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class EngineRef(Strict):
    """The engine that referees the game, pinned by version."""

    name: Name
    """Registry name of the engine (see `arbiter games`)."""
    version: str = Field(max_length=32)
    """Engine version; replays must use the same rules version."""


class Seat(Strict):
    """A seat at the table and the key that signs for it."""

    seat: SeatId
    """Seat id used in every file (lower case)."""
    name: str = Field(min_length=1, max_length=64)
    """Display name."""
    key: PublicKey
    """Public key as `<type> <base64>` (authorized_keys form without a comment)."""


class _ManifestTerms(Strict):
    """The fields every version of `game.json` has."""

    game: GameId
    """Game id; every join and move file names it."""
    engine: EngineRef
    options: dict[str, Any]
    """Engine options as the engine parsed them (data embedded, never file paths)."""
    seats: list[Seat] = Field(min_length=1, max_length=16)
    """Seats in turn order."""
    commitment: Digest
    """sha256("arbiter-commit/1" ‖ secret): the seed is fixed before anyone joins."""
    join: bool
    """True: every seat sends a signed join file before setup."""
    created: str = Field(max_length=40)
    """Creation time (UTC, ISO 8601); informational only."""


class ManifestV1(_ManifestTerms):
    """`game.json` of version 1 (before the referee key): still played and verified."""

    format: Literal["arbiter.game/1"]


class DeadlineTerms(Strict):
    """How long a seat may take, and what happens when it does not decide in time."""

    seconds: int = Field(ge=1, le=366 * 86400)
    """Time for each decision, from the chain entry that made it the seat's turn."""
    grace: int = Field(ge=0, le=366 * 86400)
    """Extra time after the deadline before the timeout policy applies."""
    on_timeout: Literal["pass", "bot", "forfeit"]
    """pass: the engine's default decision; bot: the named bot decides from the seat's
    view; forfeit: the game ends and the seat is ranked last."""
    bot: Literal["random", "greedy", "search"] | None
    """The bot for `on_timeout: bot` (null otherwise): its level (docs/bots.md)."""
    forfeit_after: int | None = Field(ge=1, le=1000)
    """After this many timeouts of one seat in a row, the next one forfeits (null: never)."""
    # Clocks (docs/clocks.md): each member present only when `arbiter new` set it, so the
    # game.json of a game without them is byte for byte as before.
    bank: int | None = Field(default=None, ge=1, le=366 * 86400)
    """Each seat's time bank at the start, in seconds (`--bank`): a seat's time used on
    each wait is taken from it, and the seat times out once it and the grace are gone."""
    increment: int | None = Field(default=None, ge=0, le=366 * 86400)
    """Seconds added to a seat's bank each time its move hands the turn on (`--increment`)."""
    cap: int | None = Field(default=None, ge=1, le=366 * 86400)
    """The most a bank may hold, in seconds (`--cap`); absent: no cap."""
    leave: int | None = Field(default=None, ge=1, le=366)
    """Days of leave per seat per game (`--leave`): while a seat is on leave, every clock
    stops."""
    leave_auto: bool | None = None
    """True (`--leave-auto`): a seat whose time runs out takes leave, a day at a time,
    while it has some, instead of timing out."""
    weekends: Literal["pause"] | None = None
    """pause (`--weekends pause`): Saturdays and Sundays (UTC) do not count as time used."""


class DealTerms(Strict):
    """A game of a duplicate round (docs/duplicate.md): the tables of its group play the
    same deal. The setup draws from a deal seed shared by the group, keyed by the round's
    secret, committed here before anyone joined, and mixed from every join of every game
    of `games` (the whole round)."""

    group: GameId
    """The group's id (`<tournament>-r<R>-s<seats>`): the tables of one round with this many seats."""
    commitment: Digest
    """sha256("arbiter-commit/1" ‖ the round's secret), the same in every game of the round."""
    games: list[GameId] = Field(min_length=1, max_length=999)
    """The round's game ids in table order: every one's joins enter the deal seed, in this order."""


class Manifest(_ManifestTerms):
    """`game.json`: what is played, by whom, the referee's key and the seed commitment.

    Its joins are `arbiter.join/2` files.
    """

    format: Literal["arbiter.game/2"]
    referee: PublicKey
    """The referee's public key: it signs a receipt for every accepted file."""
    sealed: bool = False
    """True (`arbiter new --sealed`): each seat's files are age files sealed to its key,
    for play in a shared repository (docs/sealing.md). Absent means false."""
    deadline: DeadlineTerms | None = None
    """Deadline terms (`arbiter new --deadline`); absent: no deadline. With them, every
    chain entry records the referee's clock as `time` (docs/tournaments.md)."""
    takebacks: Literal["none", "consent"] | None = None
    """Whether a seat may take back its decisions with the consent of every seat they
    concern (`arbiter new --takebacks`, docs/game-life.md §4); absent: none."""
    substitutes: bool | None = None
    """True (`arbiter new --substitutes`): the referee may appoint a substitute with a new
    key for a seat that timed out or resigned (docs/game-life.md §1); absent: false."""
    arbiter: str | None = Field(default=None, max_length=32)
    """The arbiter release that created the game: `arbiter verify` names it when the
    installed engines differ (docs/tournaments.md, "Archives")."""
    deal: DealTerms | None = None
    """A table of a duplicate round (`tournament new --duplicate`): the game is dealt by the
    referee's `deal` entry once every game of `deal.games` has joined; absent: it deals itself
    at its last join."""


class JoinFileV1(Strict):
    """A version-1 join (games of `arbiter.game/1`): entropy chosen by the player."""

    format: Literal["arbiter.join/1"]
    game: GameId
    seat: SeatId
    manifest: Digest
    """Digest of the game.json being joined: the player accepts exactly these terms."""
    entropy: Hex32
    """32 random bytes, hex."""
    signature: Armored
    """SSHSIG over the canonical bytes of this object without `signature`."""


class JoinFile(Strict):
    """A seat's signed join (namespace arbiter-join): entropy the player cannot choose.

    `entropy` is SHA-256("arbiter-entropy/1" ‖ 0x00 ‖ the decoded `entropy_signature`), a
    deterministic signature by the seat's key over the game and manifest digest
    (docs/rng.md): one player, one possible join per game.
    """

    format: Literal["arbiter.join/2"]
    game: GameId
    seat: SeatId
    manifest: Digest
    """Digest of the game.json being joined: the player accepts exactly these terms."""
    entropy: Hex32
    """Derived from `entropy_signature`, hex."""
    entropy_signature: Armored
    """SSHSIG (namespace arbiter-entropy, sha512) over an arbiter.entropy/1 statement."""
    signature: Armored
    """SSHSIG over the canonical bytes of this object without `signature`."""


class Receipt(Strict):
    """A referee's receipt (namespace arbiter-receipt): this file became this chain entry."""

    format: Literal["arbiter.receipt/1"]
    game: GameId
    seq: int = Field(ge=1)
    """The chain entry the accepted file became."""
    kind: Literal[
        "join", "move", "resign", "propose-end", "answer", "handover", "leave", "takeback-request"
    ]
    seat: SeatId
    hash: Digest
    """That entry's hash: it fixes every entry before it too."""
    digest: Digest
    """Digest of the accepted file (the chain entry's `digest`)."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class SealedIndex(Strict):
    """`public/sealed.json` of a sealed game (namespace arbiter-sealed): which sealed file
    the referee published for each seat at this chain head, by the digest of its bytes.

    Anyone checks it without a key; a seat holder who decrypts a file it lists can prove
    what the referee told them at that entry (docs/sealing.md)."""

    format: Literal["arbiter.sealed/1"]
    game: GameId
    seq: int = Field(ge=0)
    """The chain head's entry number."""
    head: Digest
    """The chain head's hash."""
    files: dict[str, Digest]
    """Each sealed file's path in the game folder, and sha256 of its bytes."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class TimeoutFile(Strict):
    """The referee's signed record of a timeout (namespace arbiter-timeout): the seat the
    game waited for did not decide in time, and the policy of game.json was applied."""

    format: Literal["arbiter.timeout/1"]
    game: GameId
    seat: SeatId
    """The seat that timed out."""
    after: Digest
    """The chain head it was waiting at."""
    since: UtcTime
    """That head's time: when the seat's clock started."""
    time: UtcTime
    """The referee's clock when it recorded the timeout (after the deadline and grace)."""
    policy: Literal["pass", "bot", "forfeit"]
    actions: list[Decision]
    """The decisions the policy took for the seat (none for forfeit)."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class ResignFile(Strict):
    """A seat resigns (namespace arbiter-resign): accepted at any time, even out of turn.

    With two seats playing the game ends and the seat is ranked last; with more, the seat
    leaves, ranked last, and the engine's ruling says what becomes of its turns."""

    format: Literal["arbiter.resign/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """A head of this chain the seat had seen (any, not only the latest: never stale)."""
    signature: Armored
    """SSHSIG by the seat's key over this object without `signature`."""


class ProposeEndFile(Strict):
    """A seat proposes to end the game now (namespace arbiter-propose): scored as it
    stands, or abandoned with no result. It takes effect when every other seat still
    playing accepts, and lapses at the next move or a decline."""

    format: Literal["arbiter.propose-end/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """The chain head: a proposal is about the game as it stands there."""
    result: Literal["score", "abandon"]
    """score: the engine's scoring and tie-breaks applied now; abandon: no result."""
    signature: Armored
    """SSHSIG by the seat's key over this object without `signature`."""


class AnswerFile(Strict):
    """A seat's answer to an open request (namespace arbiter-answer): an end proposal or
    a takeback, named by the hash of its chain entry."""

    format: Literal["arbiter.answer/1"]
    game: GameId
    seat: SeatId
    request: Digest
    """The digest of the request's signed file: the `digest` of its chain entry (a
    state file's `pending.request`)."""
    answer: Literal["accept", "decline"]
    signature: Armored
    """SSHSIG by the seat's key over this object without `signature`."""


class HandoverFile(Strict):
    """A seat hands itself over to a substitute's key (namespace arbiter-handover), signed
    by the key it holds now. From the next entry on, the seat's files are signed by the
    new key and sealed to it."""

    format: Literal["arbiter.handover/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """The chain head when it was signed."""
    key: PublicKey
    """The substitute's public key."""
    signature: Armored
    """SSHSIG by the seat's current key over this object without `signature`."""


class AppointFile(Strict):
    """The referee appoints a substitute for a seat (namespace arbiter-appoint), when
    game.json allows it (`substitutes`) and the seat timed out or resigned."""

    format: Literal["arbiter.appoint/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """The chain head when it was signed."""
    key: PublicKey
    """The substitute's public key."""
    reason: int = Field(ge=1)
    """The number of the chain entry that allows it: that seat's timeout or resignation."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class DealSeatJoin(Strict):
    """One seat of a game of the group, as its join gave it."""

    seat: SeatId
    key: PublicKey
    """The seat's key in that game's game.json."""
    entropy_signature: Armored
    """The seat's join's entropy signature (docs/rng.md §2): its entropy is derived from it."""


class DealGame(Strict):
    """One game of the group, bound by the digest of its game.json."""

    game: GameId
    manifest: Digest
    """sha256 of that game's game.json bytes."""
    seats: list[DealSeatJoin] = Field(min_length=1, max_length=16)
    """In that game's seat order."""


class DealFile(Strict):
    """The referee deals a duplicate game (namespace arbiter-deal): every game of the group,
    with every seat's entropy signature, in table then seat order, so anyone can recompute
    the deal seed once the group secret is revealed (docs/duplicate.md)."""

    format: Literal["arbiter.deal/1"]
    game: GameId
    after: Digest
    """The chain head when it was signed (the game's last join)."""
    group: GameId
    games: list[DealGame] = Field(min_length=1, max_length=999)
    """The group's games in game.json's `deal.games` order; the same list in every game."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class LeaveFile(Strict):
    """A seat takes leave (namespace arbiter-leave): from this entry's time every clock
    stops for `days` days. Accepted while the seat has that many days of leave left."""

    format: Literal["arbiter.leave/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """A head of this chain the seat had seen (any: a leave file is never stale)."""
    days: int = Field(ge=1, le=366)
    """Whole days of leave taken now."""
    signature: Armored
    """SSHSIG by the seat's key over this object without `signature`."""


class TakebackFile(Strict):
    """A seat asks to take back its decisions after entry `to` (namespace
    arbiter-takeback): everything from its first decision after `to` on is undone, once
    every seat whose decisions or knowledge that undoes has accepted (docs/game-life.md §4)."""

    format: Literal["arbiter.takeback/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """The chain head: a takeback is about the game as it stands there."""
    to: int = Field(ge=0)
    """The entry the kept branch resumes after: entries up to `to` stay, the rest is undone."""
    signature: Armored
    """SSHSIG by the seat's key over this object without `signature`."""


class LeaveAutoFile(Strict):
    """The referee's signed record of automatic leave (namespace arbiter-autoleave): the
    seat's time ran out at `from` and game.json says `leave_auto`, so it takes leave."""

    format: Literal["arbiter.leave-auto/1"]
    game: GameId
    seat: SeatId
    """The seat whose time ran out."""
    after: Digest
    """The chain head it was waiting at."""
    since: UtcTime
    """That head's time."""
    start: UtcTime
    """When the seat's time ran out: its leave runs from here."""
    time: UtcTime
    """The referee's clock when it recorded the leave."""
    days: int = Field(ge=1, le=366)
    """Days taken: enough to cover the time up to `time`, as far as the seat's leave goes."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class TakebackRecord(Strict):
    """The referee's signed record that a takeback took effect (namespace
    arbiter-takeback-record): replay skips the entries after `to` up to this one."""

    format: Literal["arbiter.takeback-record/1"]
    game: GameId
    seat: SeatId
    """The seat that asked."""
    request: Digest
    """The digest of the takeback request's signed file (its chain entry's `digest`)."""
    to: int = Field(ge=0)
    """The entry the kept branch resumes after."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class Decision(BaseModel):
    """One engine decision; the engine's own schema checks the rest."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    kind: Name


class MoveFile(Strict):
    """A seat's signed batch of decisions (namespace arbiter-move)."""

    format: Literal["arbiter.move/1"]
    game: GameId
    seat: SeatId
    after: Digest
    """The chain head this move was built against; a stale head is rejected."""
    actions: list[Decision] = Field(min_length=1, max_length=64)
    """Decisions applied in order, all or none."""
    signature: Armored
    """SSHSIG over the canonical bytes of this object without `signature`."""


class OrderStepV1(Strict):
    """One step of a version-1 standing order: when the other seats' public decisions
    since the previous step (or since `after`) are exactly `when`, the referee applies
    `then`."""

    when: list[Decision] = Field(max_length=256)
    """The other seats' public decisions, in order (a hidden card left out, as the
    engine's `public_decision` shows it)."""
    then: list[Decision] = Field(min_length=1, max_length=64)
    """This seat's batch, applied all or none like a move file's `actions`."""


class OrderStep(Strict):
    """One step of a standing order: when the other seats' public decisions since the
    previous step (or since `after`) match the pattern `when`, the referee applies `then`."""

    when: list[Decision | Literal["*"]] = Field(max_length=256)
    """A pattern over the other seats' public decisions, in order: a decision matches a
    public decision that has each of its fields with the same value (fields it leaves
    out may be anything); `"*"` matches any number of decisions, none included."""
    then: list[Decision] = Field(min_length=1, max_length=64)
    """This seat's batch, applied all or none like a move file's `actions`."""


class OrdersFileV1(Strict):
    """A seat's standing orders, format version 1 (conditions are exact decisions); still
    read, so that games that used it verify."""

    format: Literal["arbiter.orders/1"]
    game: GameId
    seat: SeatId
    after: Digest
    steps: list[OrderStepV1] = Field(max_length=64)
    signature: Armored


class OrdersFile(Strict):
    """A seat's standing orders (namespace arbiter-orders), ICCF style: a linear list of
    conditional steps, kept private by the referee until the reveal. A later file replaces
    it; one with no steps cancels it."""

    format: Literal["arbiter.orders/2"]
    game: GameId
    seat: SeatId
    after: Digest
    """The chain head it was built against: the first step's `when` counts from there."""
    steps: list[OrderStep] = Field(max_length=64)
    signature: Armored
    """SSHSIG by the seat's key over this object without `signature`."""


class OrderStepFile(Strict):
    """The referee's signed record of a standing order's step it applied (namespace
    arbiter-order-step)."""

    format: Literal["arbiter.order-step/1"]
    game: GameId
    seat: SeatId
    """The seat whose standing order it is."""
    after: Digest
    """The chain head the step was applied at."""
    orders: Digest
    """The digest of the orders file (its chain entry's `digest`)."""
    step: int = Field(ge=0)
    """The step's index in the file's `steps`."""
    actions: list[Decision] = Field(min_length=1, max_length=64)
    """The step's `then`, applied for the seat."""
    signature: Armored
    """SSHSIG by the key in game.json's `referee` over this object without `signature`."""


class StandingModel(Strict):
    """The seat's own standing orders still pending (its own state file only)."""

    orders: Digest
    """The digest of the orders file."""
    seq: int = Field(ge=1)
    """The chain entry that accepted it."""
    next: int = Field(ge=0)
    """The index of the next step to apply."""
    steps: list[OrderStep]
    """The steps not applied yet, the next first."""
    since: list[dict[str, Any]]
    """The other seats' public decisions since the previous step (or the file's head)."""


ChainKind = Literal[
    "genesis",
    "join",
    "move",
    "timeout",
    "resign",
    "propose-end",
    "answer",
    "handover",
    "appoint",
    "deal",
    "leave",
    "leave-auto",
    "takeback-request",
    "takeback",
    "orders",
    "order-step",
]
"""Every kind of chain entry (docs/chain.md §4); a game record's entries carry the same."""


class ChainEntry(Strict):
    """One line of `chain.jsonl`: an accepted file, linked to the previous line."""

    format: Literal["arbiter.chain/1"]
    seq: int = Field(ge=0)
    """0 is the genesis entry (the manifest); then one per accepted file."""
    kind: ChainKind
    seat: SeatId | None
    prev: Digest | None
    """Hash of the previous entry (null for genesis)."""
    digest: Digest
    """Digest of the accepted file's canonical bytes (the manifest for genesis)."""
    summary: list[str]
    """The public log lines this entry produced."""
    hash: Digest
    """Digest of this entry without `hash`: what the next entry and move files cite."""
    time: UtcTime = None  # type: ignore[assignment]
    """Only in games with deadlines: the referee's clock when it accepted the entry."""


class PromptModel(Strict):
    """Who must decide now and what kind of decision."""

    seat: str
    kind: str
    detail: dict[str, Any]


class OutcomeModel(Strict):
    """The final result."""

    scores: dict[str, int]
    ranking: list[list[str]]
    winners: list[str]
    breakdown: dict[str, dict[str, int]]
    tiebreak: str | None


class PendingModel(Strict):
    """An open request in a state file: answer it with `arbiter answer`."""

    kind: Literal["propose-end", "takeback"]
    request: Digest
    """The digest of the request's signed file (its chain entry's `digest`): an answer
    file names it."""
    seq: int = Field(ge=1)
    seat: str
    """The seat that asked."""
    result: Literal["score", "abandon"] | None
    accepted: list[str]
    waiting_for: list[str]
    """Seats whose answer it still needs."""
    to: int | None = None
    """A takeback: the entry the kept branch would resume after."""


class OnLeave(Strict):
    """A seat's leave that has not ended at the entry."""

    seat: str
    start: UtcTime
    end: UtcTime


class ClockState(Strict):
    """The clocks at the entry, in a game with a bank, leave or weekend pauses (docs/clocks.md)."""

    since: UtcTime
    """The entry's time: the waiting seat's clock runs from here."""
    waiting: str | None
    """The seat whose clock runs (null when none does)."""
    due: UtcTime | None
    """When the waiting seat's time runs out (pauses counted): it is overdue from then."""
    final: UtcTime | None
    """When its grace ends too: from then on the timeout policy applies."""
    banks: dict[str, int] | None
    """Each seat's bank in seconds at the entry's time (null: no bank)."""
    leave: dict[str, int] | None
    """Each seat's days of leave left (null: no leave)."""
    on_leave: list[OnLeave]
    """Leave not over at the entry's time: every clock stops while it lasts."""


class StateFile(Strict):
    """`players/<seat>/state.json` and `public/state.json`: one viewer's whole picture."""

    format: Literal["arbiter.state/1"]
    game: GameId
    engine: EngineRef
    seat: str | None
    """The viewer; null for the public (spectator) state."""
    seats: list[str]
    status: Literal["joining", "playing", "over"]
    seq: int = Field(ge=0)
    head: Digest
    """Chain head hash: the `after` of the next move file."""
    waiting_for: list[str]
    """Seats whose join or decision the game waits for."""
    prompt: PromptModel | None
    legal: list[dict[str, Any]] | None
    """This seat's legal decisions now (null when it is not their turn)."""
    view: dict[str, Any] | None
    """The engine's redacted view (null before setup)."""
    outcome: OutcomeModel | None
    pending: PendingModel | None = None
    """An open request every seat should see (an end proposal), with who has accepted
    and who is still to answer; absent when there is none."""
    resigned: list[str] | None = None
    """Seats that resigned, in the order they did; absent when none did."""
    keys: dict[SeatId, PublicKey] | None = None
    """The key each seat holds now, once a handover or an appointment changed one (the
    seat's files are signed by it and sealed to it); absent while game.json's hold."""
    clock: ClockState | None = None
    """The clocks (a bank, leave or weekend pauses, docs/clocks.md); absent without them."""
    orders: StandingModel | None = None
    """This seat's own standing orders still pending (docs/standing-orders.md); absent
    when it has none, and never in another seat's or the public state file."""


class RevealFile(Strict):
    """`reveal/reveal.json`: the secret, so anyone can re-derive the seed and replay."""

    format: Literal["arbiter.reveal/1"]
    game: GameId
    secret: Hex32
    head: Digest
    """Chain head at reveal time."""
    forced: bool
    """True when the referee revealed before the game was over (`--force`)."""
    deal_secret: Hex32 | None = None
    """A duplicate game (game.json `deal`): its group's secret, published once every table
    of its round is over; absent otherwise."""


class NoticePeriod(Strict):
    """The period a digest belongs to: at most one digest per recipient in it."""

    start: UtcTime
    """Its first second (periods are counted from 1970-01-01T00:00:00Z: a day is a UTC day)."""
    end: UtcTime
    """The first second of the next period."""


class NoticeGame(Strict):
    """One game that waits for the recipient, from its public state and game.json only."""

    game: GameId
    engine: Name
    seat: SeatId
    """The recipient's seat in that game."""
    decision: str = Field(max_length=64)
    """What the game waits for: the public prompt's `kind`, `join`, or `answer propose-end`."""
    entry: int = Field(ge=0)
    """The chain entry the game waits at (the public state's `seq`)."""
    head: Digest
    """That entry's chain head: the `after` of the seat's next move file."""
    since: UtcTime | None
    """When the game started waiting (the entry's time); null in a game without deadlines."""
    due: UtcTime | None
    """The seat's deadline; null in a game without deadlines."""
    final: UtcTime | None
    """When the grace period ends and the timeout policy applies (equal to `due` without
    grace); null in a game without deadlines."""
    policy: Literal["pass", "bot", "forfeit"] | None
    """What the referee applies at `final` (game.json's `on_timeout`); null without deadlines."""
    overdue: bool
    """Whether `due` has passed at the notice's `time`."""


class NoticeFile(Strict):
    """A turn notice (`arbiter notify`, docs/notices.md): one recipient's digest of the games
    waiting for it, POSTed to a webhook as is. Public facts and the seat's own only: no
    state view, no legal decisions, no hidden card."""

    format: Literal["arbiter.notice/1"]
    time: UtcTime
    """The referee's clock when the digest was made."""
    period: NoticePeriod
    title: str = Field(max_length=200)
    """One line, e.g. `arbiter: 2 games wait for your decision`."""
    text: str
    """The digest as plain text, one line per game (what the mail and the presets carry)."""
    games: list[NoticeGame] = Field(min_length=1)
    """What the games wait for, sorted by game id, seat and decision."""


# -- the game record (`arbiter export`, docs/records.md) ----------------------------------
# A record's kind-specific members are absent where they do not apply, never null: a
# reader tests for presence, and the same game always gives the same bytes.
EntryNumber = Annotated[int, Field(ge=1)]
"""A chain entry after genesis, named by its `seq`."""


class RecordDate(Strict):
    """When the game was played, as its chain dates it."""

    start: str = Field(max_length=40)
    """The genesis entry's time (game.json's `created`)."""
    end: UtcTime | None
    """The last entry's time; null in a game without deadlines, whose entries carry none."""


class RecordTerms(Strict):
    """The terms every seat signed by joining, with game.json's absent members spelled out."""

    join: bool
    """True: every seat sent a signed join file (with entropy) before setup."""
    sealed: bool
    deadline: DeadlineTerms | None
    """Deadline and clock terms as game.json sets them; null: no deadline."""
    takebacks: Literal["none", "consent"]
    substitutes: bool


class RecordDealSeed(Strict):
    """A duplicate game's group (docs/duplicate.md): the setup draws from the deal seed
    its secret and the `deal` entry's joins give."""

    group: GameId
    commitment: Digest
    secret: Hex32


class RecordSeed(Strict):
    """The seed commitment of game.json and, the game being revealed, its secret."""

    commitment: Digest
    """sha256("arbiter-commit/1" ‖ secret), published before anyone joined."""
    secret: Hex32
    """The revealed secret (reveal/reveal.json): it matches the commitment."""
    deal: RecordDealSeed | None = None
    """A table of a duplicate round: its group, whose secret seeds the setup (absent otherwise)."""


class RecordReason(Strict):
    """Why the game ended (or stopped)."""

    kind: Literal["end", "resignation", "agreement", "abandon", "forfeit", "forced"]
    """end: by the game's rules; resignation: a resignation left one seat or none
    playing; agreement: every seat accepted a proposal to end, scored as it stood;
    abandon: the same with no result; forfeit: a seat timed out under the forfeit
    policy; forced: the referee revealed before the end (no result)."""
    entry: int = Field(ge=0)
    """The entry that ended it (for `forced`: the last entry, where the reveal was made)."""
    seat: SeatId | None
    """Who resigned, forfeited or proposed the end; null otherwise."""
    text: str
    """The same in one sentence."""


class RecordResult(Strict):
    """The result: the game's status, why it ended, and the outcome (null without one)."""

    status: Literal["joining", "playing", "over"]
    reason: RecordReason
    outcome: OutcomeModel | None
    """As public/state.json gives it: scores, ranking (groups of tied seats, best first),
    winners, each seat's score breakdown and the tie-break said in words."""


class RecordEntry(Strict):
    """One chain entry in a game record: the chain line's members (so each `hash` can be
    recomputed from the record), then what the entry's signed file decided."""

    seq: int = Field(ge=0)
    kind: ChainKind
    seat: SeatId | None
    """The chain entry's seat: who acted (a timeout: who timed out; a referee's takeback
    or order step: whose request or orders it applies); null for genesis."""
    digest: Digest
    """The chain entry's digest: of the signed file (genesis: of game.json)."""
    hash: Digest
    """The chain entry's hash: it binds the record to the chain."""
    summary: list[str]
    """The entry's public log lines: what happened, in words."""
    time: UtcTime | SkipJsonSchema[None] = None
    """The referee's clock at the entry (games with deadlines only)."""
    actions: list[Decision] | SkipJsonSchema[None] = None
    """move: the seat's decisions; timeout: those the policy took for the seat (none
    when it forfeited); order-step: the step's decisions."""
    entropy: Hex32 | SkipJsonSchema[None] = None
    """join: the seat's entropy, mixed into the seed."""
    policy: Literal["pass", "bot", "forfeit"] | SkipJsonSchema[None] = None
    """timeout: the policy the referee applied."""
    result: Literal["score", "abandon"] | SkipJsonSchema[None] = None
    """propose-end: what was proposed."""
    answer: Literal["accept", "decline"] | SkipJsonSchema[None] = None
    """answer: the seat's answer."""
    request: EntryNumber | SkipJsonSchema[None] = None
    """answer and takeback: the entry of the request answered or granted."""
    to: Annotated[int, Field(ge=0)] | SkipJsonSchema[None] = None
    """takeback-request and takeback: the entry the kept branch resumes after."""
    undone: list[EntryNumber] | SkipJsonSchema[None] = None
    """takeback: the entries it undid (they stay in the chain; replay skips them)."""
    undone_by: EntryNumber | SkipJsonSchema[None] = None
    """An entry a later takeback undid: that takeback's entry."""
    key: PublicKey | SkipJsonSchema[None] = None
    """handover and appoint: the seat's new key, from the next entry on."""
    reason: EntryNumber | SkipJsonSchema[None] = None
    """appoint: the timeout or resignation entry that allowed it."""
    days: Annotated[int, Field(ge=1, le=366)] | SkipJsonSchema[None] = None
    """leave and leave-auto: the days of leave taken."""
    start: UtcTime | SkipJsonSchema[None] = None
    """leave-auto: when the seat's time ran out and its leave began."""
    steps: list[dict[str, Any]] | SkipJsonSchema[None] = None
    """orders: the standing orders' steps (`when` and `then`, docs/standing-orders.md)."""
    orders: EntryNumber | SkipJsonSchema[None] = None
    """order-step: the entry of the orders it applies."""
    step: Annotated[int, Field(ge=0)] | SkipJsonSchema[None] = None
    """order-step: the step's index in those orders' `steps`."""
    group: GameId | SkipJsonSchema[None] = None
    """deal: the duplicate group (docs/duplicate.md)."""
    games: list[DealGame] | SkipJsonSchema[None] = None
    """deal: every game of the group with its seats' keys and entropy signatures, in table
    order: with the group's secret, they give the deal seed."""


class RecordFile(Strict):
    """A game record (`arbiter export`, docs/records.md): one self-contained file of a
    revealed game, its header and every chain entry in order. `arbiter verify GAME
    --record FILE` checks that it is exactly what the game's chain and signed files give."""

    format: Literal["arbiter.record/1"]
    game: GameId
    manifest: Digest
    """The digest of game.json (the genesis entry's digest)."""
    event: Annotated[str, Field(min_length=1, max_length=200)] | None
    """The tournament (its id), or `arbiter export --event`; null: none."""
    round: Annotated[int, Field(ge=1)] | None
    table: Annotated[int, Field(ge=1)] | None
    date: RecordDate
    engine: EngineRef
    options: dict[str, Any]
    seats: list[Seat] = Field(min_length=1, max_length=16)
    """The seats in turn order, with the keys game.json gives them (handovers and
    appointments are entries)."""
    referee: PublicKey | None
    """The referee's key (null in a game of format arbiter.game/1)."""
    terms: RecordTerms
    seed: RecordSeed
    result: RecordResult
    head: Digest
    """The hash of the last entry: the chain's head at the reveal."""
    timeline: list[RecordEntry] = Field(min_length=1)
    """Every chain entry, in order, from genesis (named to sort after the header's
    members: the file's keys are sorted, and a reader meets the header first)."""


# An OpenSSH SHA-256 key fingerprint, as `ssh-keygen -l` prints it (43 base64 characters).
Fingerprint = Annotated[str, WithJsonSchema(_exact("SHA256:[A-Za-z0-9+/]{43}", 50))]


class RatingTerms(Strict):
    """The rating model and its parameters (docs/ratings.md)."""

    name: Literal["plackett-luce"]
    """Weng & Lin (2011), Algorithm 4: the Plackett–Luce model as OpenSkill implements it."""
    library: str = Field(max_length=64)
    """The library that computed the ratings and its version, e.g. `openskill 6.2.0`."""
    mu: float
    """A new player's mean skill (the prior)."""
    sigma: float
    """A new player's skill uncertainty: the prior's standard deviation."""
    beta: float
    """The spread of one game's performance around a player's skill."""
    tau: float
    """Added to every player's sigma (in quadrature) before each game: skill may drift."""
    kappa: float
    """The least factor one game may leave of a player's sigma² (keeps it positive)."""
    display: Literal["mu - 3*sigma"]
    """The display rating players are ranked by."""


class RatedPlayer(Strict):
    """One player: a public key, with the seat names seen with it."""

    rank: int = Field(ge=1)
    """1 is the best; players with the same display rating share a rank."""
    names: list[SeatId] = Field(min_length=1)
    """The seat ids this key played under, in the order first rated."""
    fingerprint: Fingerprint
    """SHA-256 fingerprint of the key (breaks ties of the display rating)."""
    key: PublicKey
    """The player's identity: the key that held their seats."""
    games: int = Field(ge=1)
    """Rated games played."""
    rating: float
    """The display rating, mu - 3*sigma (6 decimal places)."""
    mu: float
    """Mean skill after the last rated game (6 decimal places)."""
    sigma: float
    """Skill uncertainty after the last rated game (6 decimal places)."""


class RatedSeat(Strict):
    """A seat of a rated game and its player's skill after that game."""

    seat: SeatId
    fingerprint: Fingerprint
    """The key that held the seat (a player's `fingerprint`)."""
    place: int = Field(ge=1)
    """1 is first; tied seats share a place and the next place counts them (1, 1, 3)."""
    mu: float
    """The player's mean skill after this game."""
    sigma: float
    """The player's skill uncertainty after this game."""


class RatedGame(Strict):
    """A game that was rated, with each seat's update."""

    game: GameId
    folder: str
    """The game folder, as found below the folders given."""
    time: UtcTime | None
    """The time it is ordered by; null: none (such games come first)."""
    time_from: Literal["chain", "created"] | None
    """chain: the last chain entry's time (a game with deadlines); created: game.json's
    `created` (a game without); null: no time."""
    seats: list[RatedSeat] = Field(min_length=2)
    """In game.json's seat order."""


class LeftOutGame(Strict):
    """A game folder that was not rated, and why."""

    folder: str
    game: str | None
    """The game id (as its game.json claims it when it failed verification); null: none."""
    code: Name
    """The error code of a failed verification (`arbiter verify`), or why a verified game
    does not count: not-revealed, not-over, no-result, one-seat, shared-key, changed-hands,
    duplicate."""
    reason: str
    """One line."""


class RatingsFile(Strict):
    """`ratings.json` (`arbiter ratings --out`, docs/ratings.md): skill ratings from the
    verified games of the folders given, rated one game at a time in a published order."""

    format: Literal["arbiter.ratings/1"]
    model: RatingTerms
    players: list[RatedPlayer]
    """Best first: by display rating, then by key fingerprint."""
    games: list[RatedGame]
    """The games rated, in the order rated: by time, then game id."""
    left_out: list[LeftOutGame]
    """The folders not rated, in folder order."""


# -- the tournament export (`arbiter tournament export`, docs/trf.md) ----------------------
# The JSON form of an export; arbiter TRF (arbiter.tournament.trf) writes the same data as
# lines. Both hold what the standings are recomputed from, and the standings themselves.
TieBreak = Literal[
    "opponents-points",
    "opponents-points-cut1",
    "game-score",
    "head-to-head",
    "place-points",
    "lot",
]
"""The standings' tie-breaks a tournament may list (arbiter.tournament.tiebreaks defines them)."""


class ExportEngine(Strict):
    """The engine every game of the tournament is played with."""

    name: Name
    version: Annotated[str, Field(max_length=32)] | None
    """As the signed terms give it; null: a tournament without a record (format 1)."""


class ExportTerms(Strict):
    """The deadline terms every game of the tournament is created with."""

    deadline: Annotated[int, Field(ge=1)] | None
    """Seconds per decision; null: no deadline."""
    grace: int = Field(ge=0)
    on_timeout: Literal["pass", "bot", "forfeit"]
    forfeit_after: Annotated[int, Field(ge=1)] | None
    """After this many timeouts of one player in a row, the next one forfeits; null: never."""


class ExportRecord(Strict):
    """The signed record (record.jsonl) as the export found it."""

    lines: int = Field(ge=1)
    head: Digest
    """sha256 of the record's last line: the record state the export was made from."""


class ExportSource(Strict):
    """Where the export comes from."""

    format: Literal["arbiter.tournament/2", "arbiter.tournament/1"]
    """The format of tournament.json."""
    record: ExportRecord | None
    """null: a format-1 tournament, which has no signed record and no round seeds."""


class ExportPlayer(Strict):
    """A player, with their line of the standings the export was made with."""

    number: int = Field(ge=1)
    """The starting number: the player's place in the players list (late entries last)."""
    name: SeatId
    fingerprint: Fingerprint
    """SHA-256 fingerprint of the player's key, as `ssh-keygen -l` prints it."""
    entered: Annotated[int, Field(ge=2)] | None
    """A late entry: the first round the player was paired in; null: from round 1."""
    dropped: Annotated[int, Field(ge=2)] | None
    """A drop: the first round the player was no longer paired in; null: played on."""
    rank: int = Field(ge=1)
    """Players equal on points and every tie-break share a rank."""
    points: int = Field(ge=0)
    games: int = Field(ge=0)
    """Finished games with a result."""
    byes: int = Field(ge=0)
    opponents: int
    """The sum of the opponents' points (Buchholz)."""
    score: int
    """The sum of the player's game scores."""
    tiebreaks: dict[str, str]
    """Each tie-break of the tournament's list, as the standings print it."""


class ExportSeat(Strict):
    """A seat of a table and, once the game has a result, how it did."""

    name: SeatId
    place: Annotated[int, Field(ge=1)] | None
    """1 is first; tied seats share a place and the next place counts them (1, 1, 3);
    null: no result."""
    score: int | None
    """The seat's score in the game; null: no result."""
    points: Annotated[int, Field(ge=0)] | None
    """The tournament points the game gave the seat (a duplicate tournament's
    matchpoints); null: no result."""
    left: Literal[True] | SkipJsonSchema[None] = None
    """Present (true) when the seat left the game (resigned, or forfeited on a timeout): in
    a duplicate tournament it scores below every seat that did not (docs/duplicate.md)."""


class ExportTable(Strict):
    """A game of a round."""

    table: int = Field(ge=1)
    game: GameId
    manifest: Digest | None
    """sha256 of the game's game.json (its game record's `manifest`); null: format 1."""
    status: Literal["over", "abandoned", "playing", "joining", "missing"]
    """over: finished with a result; abandoned: finished with none (nobody scores);
    playing, joining: not over yet (no points); missing: its folder is not there."""
    seats: list[ExportSeat] = Field(min_length=1)
    """In seat (turn) order."""


class ExportBye(Strict):
    """A player who sat the round out."""

    name: SeatId
    points: int = Field(ge=0)
    """What a bye scores: the table size less one."""


class ExportRound(Strict):
    """A paired round."""

    round: int = Field(ge=1)
    paired: str = Field(min_length=1, max_length=40)
    """When the organiser paired it (UTC)."""
    seed: Hex32 | None
    """The round seed that ordered the pairing's exact ties; null: format 1."""
    tables: list[ExportTable]
    byes: list[ExportBye]


class TournamentExportFile(Strict):
    """A tournament export (`arbiter tournament export --format json`, docs/trf.md): the
    terms, the players, every round's tables and results, and the standings, which can be
    recomputed from the rest. arbiter TRF (`--format trf`) holds the same data as lines."""

    format: Literal["arbiter.tournament-export/1"]
    tournament: GameId
    """The tournament id."""
    duplicate: Literal[True] | SkipJsonSchema[None] = None
    """Present (true) in a duplicate tournament: each round's tables of one size played one
    deal, and points are matchpoints by seat position (docs/duplicate.md)."""
    engine: ExportEngine
    options: dict[str, str]
    """Engine options as given at `tournament new`."""
    created: str = Field(min_length=1, max_length=40)
    pairing: Literal["round-robin", "swiss"]
    rounds: int = Field(ge=1)
    """The rounds the tournament has (paired or not)."""
    table_size: int = Field(ge=2)
    finished: bool
    """The organiser recorded the last round's results (`tournament finish`)."""
    organiser: Fingerprint | None
    """Fingerprint of the key that signs the record; null: format 1."""
    terms: ExportTerms
    tiebreaks: list[TieBreak]
    """The standings' tie-breaks after points, in order."""
    lot_seed: Hex32 | None
    """The public seed the `lot` tie-break draws from; null when the list has no lot."""
    source: ExportSource
    players: list[ExportPlayer] = Field(min_length=2)
    """By starting number."""
    schedule: list[ExportRound]
    """The rounds paired so far, in order."""


SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "manifest": Manifest,
    "manifest-v1": ManifestV1,
    "join": JoinFile,
    "join-v1": JoinFileV1,
    "receipt": Receipt,
    "sealed-index": SealedIndex,
    "timeout": TimeoutFile,
    "move": MoveFile,
    "resign": ResignFile,
    "propose-end": ProposeEndFile,
    "answer": AnswerFile,
    "handover": HandoverFile,
    "appoint": AppointFile,
    "deal": DealFile,
    "leave": LeaveFile,
    "leave-auto": LeaveAutoFile,
    "takeback": TakebackFile,
    "takeback-record": TakebackRecord,
    "orders": OrdersFile,
    "orders-v1": OrdersFileV1,
    "order-step": OrderStepFile,
    "chain-entry": ChainEntry,
    "state": StateFile,
    "reveal": RevealFile,
    "notice": NoticeFile,
    "record": RecordFile,
    "ratings": RatingsFile,
    "tournament-export": TournamentExportFile,
}


# -- peer games (docs/peer.md §5.1) ------------------------------------------------------------
Placeholder = Annotated[str, WithJsonSchema(_chars("[?][a-z][a-z0-9]*[.][0-9]", "a-z0-9?.", 16))]
"""A card of a peer game's encrypted deck, ``?<deck>.<slot>``."""
DeckId = Annotated[str, WithJsonSchema(_chars("d[0-9]", "d0-9", 5))]
Bytes = Annotated[str, WithJsonSchema(_chars("[0-9a-f]", "0-9a-f", 2_000_000))]
"""Bytes as lowercase hex (a proof: its length is the proof's own, checked by the protocol)."""
Pair = Annotated[list[Hex32], Field(min_length=2, max_length=2)]
"""An ElGamal ciphertext (A, B): two points, hex."""


class PeerShare(Strict):
    """A decryption share of one card, with its Chaum–Pedersen proof."""

    card: Placeholder
    share: Hex32
    proof: Annotated[str, WithJsonSchema(_exact("[0-9a-f]{128}", 128))]


class PeerShuffle(Strict):
    """One deck re-encrypted and permuted, with its Terelius–Wikström proof."""

    deck: DeckId
    cards: list[Pair] = Field(min_length=1, max_length=1024)
    proof: Bytes


class PeerClaim(Strict):
    """A card kept hidden, with its one-of proof (the faces the engine's claims list)."""

    card: Placeholder
    proof: Bytes


class PeerReturn(Strict):
    """A held card put face down into its deck (docs/peer-mottainai.md §3.2): its new
    ciphertext under the joint key, and the proof that it holds the card the seat held."""

    card: Placeholder
    cipher: Pair
    proof: Bytes


class PeerPass(Strict):
    """A hand that changes seats (Puppet, docs/peer-mottainai.md §3.7): its cards in the
    order they stand (ids and placeholders), each hidden one re-encrypted to the
    recipient's key with its proof."""

    to: SeatId
    cards: list[Annotated[str, WithJsonSchema(_chars("[a-z0-9?]", "a-z0-9#_?.-", 64))]] = Field(
        min_length=1, max_length=256
    )
    cipher: list[Pair] = Field(max_length=256)
    proofs: list[Bytes] = Field(max_length=256)


FaceId = Annotated[str, WithJsonSchema(_chars("[a-z0-9]", "a-z0-9#_-", 64))]
"""A card id of the engine's tables (a face a fact asks about)."""


class PeerFact(Strict):
    """A fact about the sender's hidden cards a rule asked (docs/peer-mottainai.md §3.4):
    whether any of `cards` is one of `faces`, with its proof of presence or absence."""

    cards: list[Placeholder] = Field(min_length=1, max_length=256)
    faces: list[FaceId] = Field(min_length=1, max_length=1024)
    holds: bool
    proof: Bytes


class PeerRerandomise(Strict):
    """The sender's hand held hidden, the cards of one deck, re-encrypted under its own
    key and permuted (never across decks: a card's deck is public, docs/peer-mottainai.md
    §3.10)."""

    cards: list[Placeholder] = Field(min_length=2, max_length=256)
    cipher: list[Pair] = Field(min_length=2, max_length=256)
    proof: Bytes


class PeerEscrowShare(Strict):
    """One holder's escrow share of the sender's secret, sealed with age to the holder's
    SSH key (base64 of the age file)."""

    holder: SeatId
    """A seat, or `notary`."""
    sealed: Annotated[str, WithJsonSchema(_chars("[A-Za-z0-9+/]", "A-Za-z0-9+/=", 4096))]


class PeerEscrow(Strict):
    """Feldman's verifiable secret sharing of the sender's per-game secret (docs/peer.md
    §7): the commitments C_0 = X (its key) … C_{t−1}, and each holder's sealed share."""

    commitments: list[Hex32] = Field(min_length=1, max_length=17)
    shares: list[PeerEscrowShare] = Field(min_length=1, max_length=17)


class PeerMove(Strict):
    """One message of a peer game: what its seat owes in round `round`. Its key and the
    proof of knowledge (the first round); its shuffles; its shares; or its decision with
    the openings, claims and re-randomisation that go with it."""

    format: Literal["arbiter.peer-move/1"]
    game: GameId
    seat: SeatId
    round: int = Field(ge=0)
    """The round this message answers (every message of a round is made against one head)."""
    after: Digest
    """The chain's head it was made against: game.json's digest, then each round entry's
    (docs/peer.md §5.2)."""
    key: Hex32 | None = None
    """The seat's per-game public key (the keys round)."""
    proof: Annotated[str, WithJsonSchema(_exact("[0-9a-f]{128}", 128))] | None = None
    """The Schnorr proof that the seat knows the key's secret."""
    escrow: PeerEscrow | None = None
    """With the key, when the terms' remedy is escrow: its secret split among the others."""
    shuffles: list[PeerShuffle] | None = Field(default=None, max_length=64)
    shares: list[PeerShare] | None = Field(default=None, max_length=4096)
    """The shares it owes: alone, or riding on its decision when it decides next."""
    decision: Decision | None = None
    """The public decision: the engine's action with each card kept hidden named by its
    placeholder (docs/peer.md §3.5)."""
    openings: list[PeerShare] | None = Field(default=None, max_length=256)
    """The sender's shares of the hidden cards its decision shows."""
    claims: list[PeerClaim] | None = Field(default=None, max_length=256)
    rerandomise: list[PeerRerandomise] | None = Field(default=None, min_length=1, max_length=8)
    """Its hand held hidden re-randomised before the decision: one mix per deck that holds
    two cards of it or more."""
    ahead: list[PeerShare] | None = Field(default=None, max_length=4096)
    """The sender's shares of the cards its decision lays open (a refill, a draw), sent
    with it so that only the other seats' remain to come."""
    returns: list[PeerReturn] | None = Field(default=None, max_length=256)
    """The held cards its decision puts face down into a deck, each re-encrypted under the
    joint key with its proof."""
    conceal: list[FaceId] | None = Field(default=None, min_length=1, max_length=64)
    """Cards its hand holds in everyone's sight that it hides again before the decision
    (under new places, mixed with its hidden cards), as it returns one face down."""
    passes: list[PeerPass] | None = Field(default=None, max_length=16)
    """Its hand its decision (or another seat's) moves to another seat."""
    facts: list[PeerFact] | None = Field(default=None, max_length=64)
    """The facts about its hidden cards the step asks, each with its proof: riding on the
    decision, or alone when a step asks one its decision could not foresee."""
    signature: Armored | None = None
    """SSHSIG by the seat's key (game.json) over this object without `signature`, in the
    namespace arbiter-peer. Every file a transport carries has one."""


PeerAddress = Annotated[
    str, WithJsonSchema({"type": "string", "pattern": "^[^@\\s<>]+@[^@\\s<>]+$", "maxLength": 254})
]


class PeerSeatTerm(Strict):
    """A seat of a peer game and the SSH key that signs its messages."""

    seat: SeatId
    key: PublicKey
    address: PeerAddress | SkipJsonSchema[None] = None
    """Where mail for this seat goes (a game played by mail, docs/peer.md §6); absent
    otherwise."""


class PeerNotary(Strict):
    """The optional notary (docs/peer.md §7): it stamps when each round opened and signs
    timeouts, and holds an escrow share of every seat's secret; it knows no card."""

    key: PublicKey
    address: PeerAddress | SkipJsonSchema[None] = None


class PeerDropout(Strict):
    """What happens to a seat that owes a message and does not send it (docs/peer.md §7)."""

    seconds: int = Field(ge=60, le=366 * 86400)
    """How long a seat may take to answer a round, from when the round opened."""
    remedy: Literal["forfeit", "escrow"]
    """forfeit: the game ends and the silent seat is ranked last; escrow: the others (and
    the notary) rebuild its per-game secret from the shares it dealt them, and a bot plays
    its seat (they then learn its hand)."""


class PeerGameFile(Strict):
    """The terms of a peer game (docs/peer.md §5.3): the engine, its options and the seats
    with their keys. Every proof of the game binds its digest, so a seat's first message
    (its per-game key) accepts these terms."""

    format: Literal["arbiter.peer-game/2"]
    game: GameId
    nonce: Hex32 | SkipJsonSchema[None] = None
    """Random, drawn by `peer new`: two games made with the same id and seats are still
    two games to every proof (each binds game.json's digest)."""
    engine: EngineRef
    options: dict[str, Any]
    """The engine's options as it parsed them (data embedded)."""
    seats: list[PeerSeatTerm] = Field(min_length=2, max_length=16)
    """In seat order: who shuffles first, and the order of every round's messages."""
    notary: PeerNotary | SkipJsonSchema[None] = None
    dropout: PeerDropout | SkipJsonSchema[None] = None
    """Deadlines and the remedy for a silent seat (absent: the game waits for ever)."""


class PeerRevealFile(Strict):
    """A seat publishes its per-game secret once the game is over (namespace
    arbiter-peer-reveal): with every seat's, anyone decrypts the decks and replays the
    game through the normal engine (docs/peer.md §8)."""

    format: Literal["arbiter.peer-reveal/1"]
    game: GameId
    seat: SeatId
    secret: Hex32
    """The scalar x behind the seat's per-game key X = x·G, little-endian hex."""
    signature: Armored


class PeerTimeoutFile(Strict):
    """A signed statement that a seat did not answer a round in time (namespace
    arbiter-peer-timeout, docs/peer.md §7). The notary's alone, or every other seat's,
    ends the seat's part: the game is forfeited, or, under escrow, each holder's share of
    its secret (here in the clear) rebuilds it and a bot plays the seat."""

    format: Literal["arbiter.peer-timeout/1"]
    game: GameId
    round: int = Field(ge=0)
    after: Digest
    """The head of the round the seat did not answer."""
    absent: SeatId
    signer: SeatId
    """A seat, or `notary`."""
    opened: UtcTime
    """When the signer saw the round open (its own clock)."""
    at: UtcTime
    """When it signed (at least the terms' seconds after `opened`)."""
    share: Hex32 | SkipJsonSchema[None] = None
    """Under escrow: the signer's share of the absent seat's secret, unsealed."""
    signature: Armored


SCHEMA_MODELS["peer-move"] = PeerMove
SCHEMA_MODELS["peer-timeout"] = PeerTimeoutFile
SCHEMA_MODELS["peer-reveal"] = PeerRevealFile
SCHEMA_MODELS["peer-game"] = PeerGameFile
