"""The life of a long game around its moves: resign, end by agreement, hand a seat over,
appoint a substitute (issue 27, docs/game-life.md).

Each is a signed file that becomes a chain entry; the referee and ``arbiter verify`` both
judge it here, with the same checks in the same order, so an accepted file always
replays. Nothing here reads the clock or draws from anything but the entry's stream.

What each does to the game (docs/game-life.md §1, and each engine's rulings):

- **resign** — accepted at any time, even out of turn, from a seat still playing. When
  one seat or none would be left playing, the game ends; otherwise the seat leaves and
  the game goes on without it: whenever it would be its turn, the engine's default
  decision (the one a timeout's ``pass`` takes) is applied for it in the same entry, as
  the "zombie" seats of online platforms do. Seats that left are ranked last, the latest
  to leave above the earlier ones.
- **propose-end** — a seat still playing proposes to end the game now, scored as it
  stands (the engine's ``provisional_outcome``) or abandoned with no result. It takes
  effect with the answer that completes the acceptances of every other seat still
  playing; it lapses at the next move or timeout, at a resignation, or at a decline.
- **answer** — accept or decline the open request, named by its file's digest.
- **handover** — signed by the seat's current key: from the next entry on, the seat's
  files are signed by (and sealed to) the new key.
- **appoint** — the referee's signed appointment of a substitute's key for a seat that
  timed out or resigned (only when game.json allows substitutes); a seat that had
  resigned plays again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arbiter.core.entrylines import EntryLines
from arbiter.core.errors import (
    AlreadyJoined,
    GameOver,
    NotReady,
    OutOfTurn,
    StaleHead,
    UsageError,
)

# The table (arbiter.core.table) holds a ``Life`` and calls in here; typed loosely so the
# two modules do not import each other.
Table = Any

# Chain kind of each file a seat signs besides joins and moves, and its namespace.
SEAT_KINDS = ("resign", "propose-end", "answer", "handover", "leave", "takeback-request")
# Kinds judged and applied by another module, which registers ``(check, apply)`` here
# when imported (``arbiter.core.takeback``: ``takeback-request``, and ``answer:takeback``
# for the answers to its requests): ``check(table, record, head, seq)`` and
# ``apply(table, seq, record, file_digest, lines) -> EntryLines``.
HANDLERS: dict[str, tuple[Callable[..., object], Callable[..., EntryLines]]] = {}
# The default decisions applied for a seat that left, per entry: a bound, as for timeouts.
MAX_LEFT_DECISIONS = 10_000


# Seat files whose entries draw nothing: they take no ply (docs/rng.md §3), so the
# cards a decision draws do not depend on how many of them came before it — a seat cannot
# re-roll a redo after a takeback by sending a proposal or a leave file first.
DRAWLESS = frozenset(("propose-end", "answer", "handover", "leave", "takeback-request"))


def namespace(kind: str) -> str:
    """The SSHSIG namespace a file of this chain ``kind`` is signed in."""
    from arbiter.core import signing

    return {
        "join": signing.NAMESPACE_JOIN,
        "move": signing.NAMESPACE_MOVE,
        "resign": signing.NAMESPACE_RESIGN,
        "propose-end": signing.NAMESPACE_PROPOSE_END,
        "answer": signing.NAMESPACE_ANSWER,
        "handover": signing.NAMESPACE_HANDOVER,
        "appoint": signing.NAMESPACE_APPOINT,
        "leave": signing.NAMESPACE_LEAVE,
        "leave-auto": signing.NAMESPACE_LEAVE_AUTO,
        "takeback-request": signing.NAMESPACE_TAKEBACK,
        "orders": signing.NAMESPACE_ORDERS,
    }[kind]


@dataclass
class Pending:
    """An open end proposal: who asked, what for, who has accepted."""

    kind: str
    request: str
    """The digest of the proposal file (its chain entry's ``digest``)."""
    seq: int
    seat: str
    result: str
    needed: list[str]
    accepted: list[str] = field(default_factory=list)

    def waiting_for(self) -> list[str]:
        return [seat for seat in self.needed if seat not in self.accepted]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "request": self.request,
            "seq": self.seq,
            "seat": self.seat,
            "result": self.result,
            "accepted": list(self.accepted),
            "waiting_for": self.waiting_for(),
        }


class Life:
    """What the life files changed in a game: keys, seats that left, an agreed end."""

    def __init__(self, manifest: dict[str, Any]):
        self.keys: dict[str, str] = {s["seat"]: s.get("key", "") for s in manifest["seats"]}
        self.resigned: list[str] = []
        self.ended: str | None = None
        """``"score"`` or ``"abandon"``: the game ended by agreement."""
        self.pending: Pending | None = None
        self.substitutes = bool(manifest.get("substitutes", False))
        # Entries that allow an appointment (``appoint``'s ``reason``): the seq of each
        # timeout and resignation, and its seat.
        self.reasons: dict[int, str] = {}

    def playing(self, seats: list[str]) -> list[str]:
        """Seats still playing, in turn order."""
        return [seat for seat in seats if seat not in self.resigned]


def _entry(seq: int) -> str:
    return f"entry #{seq}"


def lapse(table: Table, lines: EntryLines, why: str) -> None:
    """Let an open proposal lapse (the next move, a timeout, a resignation): say so."""
    pending = table.life.pending
    if pending is None:
        return
    table.life.pending = None
    what = "takeback request" if pending.kind == "takeback" else "proposal to end the game"
    lines.add_common(table.seats, f"{pending.seat}'s {what} ({_entry(pending.seq)}) lapses: {why}.")


def play_for_left(table: Table, seq: int, rng: Any, lines: EntryLines) -> None:
    """While the game waits for a seat that left, apply the engine's default decision for
    it (docs/game-life.md §1): the seat's turns pass without anyone waiting for it."""
    life = table.life
    if not life.resigned:
        return
    engine, state = table.engine, table.state
    events = []
    count = 0
    while (prompt := table.prompt()) is not None and prompt.seat in life.resigned:
        if count >= MAX_LEFT_DECISIONS:
            raise GameOver(f"the default decisions for {prompt.seat} do not end its turn")
        action = engine.default_action(state, prompt.seat)
        engine.check(state, prompt.seat, action)
        events.extend(engine.apply(state, prompt.seat, action, rng))
        count += 1
    if events:
        lines.extend(table.narrate(events))


# -- judging a file ---------------------------------------------------------------------


def check_seat_file(
    table: Table, kind: str, record: dict[str, Any], head: str, seq: int, known: Any
) -> None:
    """Refuse a resign/propose-end/answer/handover file that may not be accepted now.

    ``head`` is the chain head, entry ``seq``; ``known(h)`` says whether ``h`` is the hash of an entry of
    this chain (a resignation may cite any head it saw). Messages use only public facts.
    """
    seat = record["seat"]
    life = table.life
    if not table.started:
        raise NotReady(f"the game has not started ({table.not_started()})")
    if table.over:
        raise GameOver("the game is over: it accepts no more files")
    if seat in life.resigned and kind != "handover":
        raise OutOfTurn(f"{seat} resigned and no longer plays: nothing to do")
    if kind == "leave":  # clocks: arbiter.core.leave
        from arbiter.core import leave

        leave.check(table, record, head, known)
    if kind in HANDLERS:
        HANDLERS[kind][0](table, record, head, seq)
        return
    if kind == "resign":
        if record["after"] != head and not known(record["after"]):
            raise StaleHead(
                "the resignation names a head that is not in this game's chain: build it "
                "again from your state file"
            )
        return
    if kind in ("propose-end", "handover") and record["after"] != head:
        raise StaleHead(
            f"the {kind.replace('-', ' ')} file was built against an old chain head; the head "
            f"is now entry #{seq}: take your new state file and build it again"
        )
    if kind == "propose-end":
        if life.pending is not None:
            raise OutOfTurn(
                f"{life.pending.seat}'s proposal ({_entry(life.pending.seq)}) is open: "
                "answer it with `arbiter answer` before proposing"
            )
        return
    if kind == "answer":
        pending = life.pending
        if pending is None or pending.request != record["request"]:
            raise StaleHead(
                "there is no open proposal with that file digest: it lapsed or took effect; "
                "take your new state file"
            )
        if seat not in pending.needed:
            if seat != pending.seat:  # a takeback concerns only some seats
                raise OutOfTurn(f"{seat} is not concerned by this request: its answer is not needed")
            raise OutOfTurn(f"{seat} made this proposal: its answer is not needed")
        if seat in pending.accepted:
            raise AlreadyJoined(f"{seat} has already accepted this proposal: nothing to do")
        return
    if kind == "handover":
        if record["key"] in life.keys.values():
            raise UsageError("that key already holds a seat: a substitute needs a key of their own")
        if record["key"] == table.manifest.get("referee"):
            raise UsageError("that key is the referee's: a substitute needs a key of their own")


def apply_seat_file(
    table: Table, seq: int, kind: str, record: dict[str, Any], file_digest: str
) -> EntryLines:
    """Apply an accepted resign/propose-end/answer/handover file as chain entry ``seq``."""
    from arbiter.core.rng import Rng

    seat = record["seat"]
    life = table.life
    if kind in DRAWLESS:
        table.skip_ply()
    if kind == "leave":  # clocks: arbiter.core.leave
        from arbiter.core import leave

        return leave.apply(table, record)
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    if kind == "answer" and life.pending is not None:
        handler = HANDLERS.get(f"answer:{life.pending.kind}")
    else:
        handler = HANDLERS.get(kind)
    if handler is not None:
        return handler[1](table, seq, record, file_digest, lines)
    if kind == "resign":
        lapse(table, lines, f"{seat} resigned")
        life.resigned.append(seat)
        life.reasons[seq] = seat
        left = life.playing(table.seats)
        if len(left) <= 1:
            lines.add_common(table.seats, f"{seat} resigns: the game ends, {seat} ranked last.")
            return lines
        lines.add_common(
            table.seats,
            f"{seat} resigns and leaves the game, ranked last; from now on the default "
            f"decision is taken for {seat} whenever it would decide.",
        )
        lines.extend(table.narrate(table.engine.leave(table.state, seat)))
        assert table.seed is not None
        play_for_left(table, seq, Rng.for_entry(table.seed, table.ply(seq)), lines)
        return lines
    if kind == "propose-end":
        needed = [s for s in life.playing(table.seats) if s != seat]
        life.pending = Pending("propose-end", file_digest, seq, seat, record["result"], needed)
        what = "scored as it stands" if record["result"] == "score" else "abandoned, no result"
        lines.add_common(
            table.seats,
            f"{seat} proposes to end the game now, {what}; it takes effect when "
            f"{names(needed)} accept{'s' if len(needed) == 1 else ''}.",
        )
        return lines
    if kind == "answer":
        pending = life.pending
        assert pending is not None
        if record["answer"] == "decline":
            life.pending = None
            lines.add_common(
                table.seats,
                f"{seat} declines {pending.seat}'s proposal ({_entry(pending.seq)}): it lapses.",
            )
            return lines
        pending.accepted.append(seat)
        lines.add_common(
            table.seats, f"{seat} accepts {pending.seat}'s proposal ({_entry(pending.seq)})."
        )
        if not pending.waiting_for():
            life.pending = None
            life.ended = pending.result
            lines.add_common(
                table.seats,
                "Every seat accepted: the game ends by agreement, "
                + ("scored as it stands." if pending.result == "score" else "with no result."),
            )
        return lines
    # handover
    old = life.keys[seat]
    life.keys[seat] = record["key"]
    lines.add_common(
        table.seats,
        f"{seat} hands the seat over to a new key ({fingerprint(record['key'])}; was "
        f"{fingerprint(old)}).",
    )
    return lines


def check_appointment(table: Table, record: dict[str, Any], head: str) -> None:
    """Refuse an appointment the game's terms or chain do not allow."""
    life = table.life
    seat = record["seat"]
    if not life.substitutes:
        raise UsageError(
            "game.json does not allow substitutes (arbiter new --substitutes): the seat's "
            "player may hand it over with `arbiter handover`"
        )
    if not table.started:
        raise NotReady("the game has not started: a substitute comes after a timeout or resignation")
    if table.over:
        raise GameOver("the game is over: nobody can be appointed")
    if record["after"] != head:
        raise StaleHead("the appointment was not made at the chain head")
    if life.reasons.get(record["reason"]) != seat:
        raise UsageError(
            f"the appointment's reason is not a timeout or resignation of {seat} in this chain"
        )
    if record["key"] in life.keys.values() or record["key"] == table.manifest.get("referee"):
        raise UsageError("that key already holds a seat: a substitute needs a key of their own")


def apply_appointment(table: Table, seq: int, record: dict[str, Any]) -> EntryLines:
    """Apply the referee's appointment as chain entry ``seq``."""
    table.skip_ply()
    life = table.life
    seat = record["seat"]
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    why = record["reason"]
    life.keys[seat] = record["key"]
    back = seat in life.resigned
    if back:
        life.resigned.remove(seat)
    lines.add_common(
        table.seats,
        f"The referee appoints a substitute for {seat} ({fingerprint(record['key'])}), "
        f"after {_entry(why)}" + ("; the seat plays again." if back else "."),
    )
    return lines


def fingerprint(key: str) -> str:
    """``SHA256:…`` of a public key line, as ``ssh-keygen -l`` shows it."""
    import base64
    import hashlib

    blob = base64.b64decode(key.split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def names(seats: list[str]) -> str:
    if len(seats) <= 1:
        return "".join(seats)
    return ", ".join(seats[:-1]) + " and " + seats[-1]
