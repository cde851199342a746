"""Standing orders: ICCF-style conditional decisions (issue 27 item 7, docs/standing-orders.md).

A seat signs an ``arbiter.orders/1`` file: a linear list of steps ``{when, then}``. The
referee keeps the file private (``referee/signed.jsonl``; the chain entry ``orders``
holds only its digest, the public log says only that the seat sent standing orders).
Step k applies the moment the other seats' public decisions since the previous step (or
since the file's ``after``) match its ``when`` and the game waits for the seat (a pattern
in ``arbiter.orders/2``, ``arbiter.core.order_patterns``; exact decisions in version 1): the
referee then appends, in the same operation, its signed ``order-step`` entry with the
step's ``then`` — so the next seat gets its state without a mail round trip.

The first mismatch drops the rest: a decision of another seat after which ``when`` can
no longer match, a step whose batch is not legal when its condition is met, or a decision the
seat takes itself (a move file or a timeout). A later orders file replaces the earlier; one
with no steps cancels it.

The referee (``fire``) and ``arbiter verify`` (``replay_step``) judge with the same
functions, so after the reveal verify checks that every applied step is in the file whose
digest the chain holds, that its condition held, and that none applied out of order or
after a mismatch. Conditions are matched on each engine's ``public_decision`` (a hidden
card left out): whether a step fires must never depend on what the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arbiter.core import order_patterns
from arbiter.core.entrylines import EntryLines
from arbiter.core.errors import (
    ArbiterError,
    GameOver,
    NotReady,
    OutOfTurn,
    StaleHead,
    Tampered,
    UsageError,
)

Table = Any  # arbiter.core.table.Table, which imports this module

MAX_STEPS_PER_ENTRY = 64
"""Order steps one referee operation may chain (each seat's step may complete another's)."""


@dataclass
class Standing:
    """A seat's standing orders being followed."""

    digest: str
    """The orders file's digest: its chain entry's ``digest``."""
    seq: int
    steps: list[dict[str, Any]]
    index: int = 0
    """The next step to apply."""
    since: list[dict[str, Any]] = field(default_factory=list)
    """The other seats' public decisions since the previous step (or the file's head)."""
    exact: bool = False
    """A version-1 file: ``when`` holds exact decisions, not a pattern."""

    def to_json(self) -> dict[str, Any]:
        return {
            "orders": self.digest,
            "seq": self.seq,
            "next": self.index,
            "steps": [dict(step) for step in self.steps[self.index :]],
            "since": list(self.since),
        }


def supported(engine: Any) -> bool:
    """Whether the engine says what of a decision is public (``public_decision``)."""
    return callable(getattr(engine, "public_decision", None))


def public(engine: Any, action: dict[str, Any]) -> dict[str, Any]:
    """The public form of a decision: what every seat may know of it."""
    return dict(engine.public_decision(action))


def _when(table: Table, standing: Standing) -> list[Any]:
    """The next step's condition. A version-1 file's decisions are read through the
    engine's public form, as they always were; a pattern is taken as written (a field the
    public form lacks then never matches)."""
    when = standing.steps[standing.index]["when"]
    return [public(table.engine, a) for a in when] if standing.exact else list(when)


def _viable(table: Table, standing: Standing) -> bool:
    return order_patterns.viable(_when(table, standing), standing.since, standing.exact)


def _met(table: Table, standing: Standing) -> bool:
    return order_patterns.met(_when(table, standing), standing.since, standing.exact)


# -- the orders file ---------------------------------------------------------------------


def check_orders(table: Table, record: dict[str, Any], head: str, seq: int) -> None:
    """Refuse an orders file that may not be accepted now (public facts only)."""
    seat = record["seat"]
    if not table.started:
        raise NotReady("the game has not started: standing orders come once it is played")
    if table.over:
        raise GameOver("the game is over: it accepts no more files")
    if seat in table.life.resigned:
        raise OutOfTurn(f"{seat} resigned and no longer plays: nothing to order")
    if not supported(table.engine):
        raise UsageError(
            f"{table.engine.info.name} does not take standing orders yet: send your moves"
        )
    if record["after"] != head:
        raise StaleHead(
            f"the orders file was built against an old chain head; the head is now entry "
            f"#{seq}: take your new state file and build it again"
        )


def apply_orders(table: Table, seq: int, record: dict[str, Any], file_digest: str) -> EntryLines:
    """Accept an orders file as chain entry ``seq``: it replaces the seat's earlier orders."""
    from arbiter.core.formats import ORDERS_FORMAT_1

    table.skip_ply()  # draws nothing (docs/rng.md §3)
    seat = record["seat"]
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    lines.add_common([], f"{seat} sent standing orders.")
    earlier = table.orders.pop(seat, None)
    steps = [dict(step) for step in record["steps"]]
    own = lines.seats.get(seat)
    if steps:
        exact = record["format"] == ORDERS_FORMAT_1
        table.orders[seat] = Standing(file_digest, seq, steps, exact=exact)
    if own is not None:
        own.append(f"{seat} sent standing orders.")
        said = (
            f"Your standing orders: {len(steps)} step{'s' if len(steps) != 1 else ''}, "
            "kept private until the reveal"
            if steps
            else "You cancelled your standing orders"
        )
        if earlier is not None:
            said += f" (they replace those of entry #{earlier.seq})"
        own.append(said + ".")
    if steps:
        settle(table, seq + 1, lines)  # a first step due at once, but not legal here
    return lines


# -- following them ----------------------------------------------------------------------


def observe(
    table: Table, seq: int, seat: str, actions: list[dict[str, Any]], lines: EntryLines
) -> None:
    """Record decisions ``seat`` just took in entry ``seq`` (a move, a timeout or an order
    step) in every standing order: another seat's continue a ``when`` or drop the orders;
    the seat's own advance its order (a step) or end them (it decided itself)."""
    for owner, standing in list(table.orders.items()):
        if owner == seat:
            if table.stepping == seat:
                standing.index += 1
                standing.since = []
                if standing.index >= len(standing.steps):
                    del table.orders[owner]
                    _tell(lines, owner, "Your standing orders are all applied.")
            else:
                _drop(table, owner, lines, "you decided yourself")
            continue
        standing.since.extend(public(table.engine, a) for a in actions)
        if not _viable(table, standing):
            _drop(table, owner, lines, f"{seat}'s decisions are not those of step {standing.index + 1}")
    settle(table, seq + 1, lines)


def settle(table: Table, seq: int, lines: EntryLines) -> None:
    """Drop the orders of the seat the game now waits for if its step's condition is met
    but its batch is not legal here (entry ``seq`` would be the step)."""
    prompt = table.prompt()
    standing = table.orders.get(prompt.seat) if prompt is not None else None
    if standing is None or not _met(table, standing):
        return
    if not _legal(table, seq, prompt.seat, standing.steps[standing.index]["then"]):
        _drop(table, prompt.seat, lines, f"the decisions of step {standing.index + 1} are not legal here")


def drop_all(table: Table, lines: EntryLines, why: str) -> None:
    """Drop every seat's standing orders (a takeback: the game went back before them)."""
    for owner in list(table.orders):
        _drop(table, owner, lines, why)


def _drop(table: Table, owner: str, lines: EntryLines, why: str) -> None:
    standing = table.orders.pop(owner)
    table.dropped_orders[owner] = standing  # verify names a step applied after it
    _tell(
        lines,
        owner,
        f"Your standing orders (entry #{standing.seq}) stop at step {standing.index + 1}: "
        f"{why}; the rest are dropped.",
    )


def _tell(lines: EntryLines, seat: str, text: str) -> None:
    """A line in ``seat``'s own log only (when its lines are built)."""
    own = lines.seats.get(seat)
    if own is not None:
        own.append(text)


def due(table: Table, seq: int) -> tuple[str, Standing] | None:
    """The seat whose standing order's next step applies now, as entry ``seq``: its
    condition met, the game waiting for it, and its batch legal here."""
    prompt = table.prompt()
    if prompt is None:
        return None
    standing = table.orders.get(prompt.seat)
    if standing is None or not _met(table, standing):
        return None
    then = standing.steps[standing.index]["then"]
    if not _legal(table, seq, prompt.seat, then):
        return None
    return prompt.seat, standing


def _legal(table: Table, seq: int, seat: str, actions: list[dict[str, Any]]) -> bool:
    """Whether ``Table.move`` would accept the batch (tried on a copy of the state)."""
    from arbiter.core.rng import Rng

    engine = table.engine
    state = engine.copy(table.state)
    rng = Rng.for_entry(table.seed, table.ply(seq))
    last = len(actions) - 1
    try:
        for index, action in enumerate(actions):
            prompt = engine.prompt(state)
            if prompt is None or prompt.seat != seat or not isinstance(action, dict):
                return False
            engine.check(state, seat, action)
            events = engine.apply(state, seat, action, rng)
            if index < last and any(event.barrier for event in events):
                return False
    except (ArbiterError, KeyError, TypeError, ValueError, IndexError):
        return False
    return True


def apply_step(table: Table, seq: int, seat: str, standing: Standing) -> EntryLines:
    """Apply the due step of ``seat``'s orders as chain entry ``seq``."""
    index = standing.index
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    lines.add_common(table.seats, f"{seat}'s standing order applies (step {index + 1}).")
    table.stepping = seat
    try:
        lines.extend(table.move(seq, seat, list(standing.steps[index]["then"])))
    finally:
        table.stepping = None
    return lines


def record(manifest: dict[str, Any], seat: str, head: str, standing: Standing) -> dict[str, Any]:
    """The referee's order-step record (unsigned) for the due step of ``standing``."""
    from arbiter.core.formats import ORDER_STEP_FORMAT

    return {
        "format": ORDER_STEP_FORMAT,
        "game": manifest["game"],
        "seat": seat,
        "after": head,
        "orders": standing.digest,
        "step": standing.index,
        "actions": list(standing.steps[standing.index]["then"]),
    }


@dataclass
class Fired:
    """An order step the referee applied: its chain entry, signed record and lines."""

    entry: dict[str, Any]
    record: dict[str, Any]
    lines: EntryLines


def fire(
    table: Table,
    manifest: dict[str, Any],
    seq: int,
    head: str,
    time: str | None,
    sign: Callable[[dict[str, Any]], str],
) -> list[Fired]:
    """Apply every step due after entry ``seq`` (head ``head``), each as the next entry."""
    from arbiter.core import chain as chainlib
    from arbiter.core.canonical import digest
    from arbiter.core.schemas import validate

    fired: list[Fired] = []
    while len(fired) < MAX_STEPS_PER_ENTRY and (found := due(table, seq + 1)) is not None:
        seat, standing = found
        step = record(manifest, seat, head, standing)
        step["signature"] = sign(step)
        validate("order-step", step, "the order step")
        seq += 1
        lines = apply_step(table, seq, seat, standing)
        entry = chainlib.make_entry(seq, "order-step", seat, head, digest(step), lines.public, time)
        fired.append(Fired(entry, step, lines))
        head = entry["hash"]
    return fired


def replay_step(table: Table, seq: int, step: dict[str, Any]) -> EntryLines:
    """Judge and apply a recorded order step (the referee's rebuild and ``arbiter verify``)."""
    seat = step["seat"]
    standing = table.orders.get(seat)
    dropped = table.dropped_orders.get(seat)
    if standing is None and dropped is not None and dropped.digest == step["orders"]:
        raise Tampered(
            f"entry #{seq}: order step {step['step'] + 1} of {seat} was applied against its "
            f"condition: the orders stopped at step {dropped.index + 1}, whose `when` the "
            "others' decisions did not follow"
        )
    if standing is None or standing.digest != step["orders"]:
        raise Tampered(
            f"entry #{seq}: an order step of {seat} that follows no standing orders of "
            "that digest (none sent, or dropped at a mismatch)"
        )
    if step["step"] != standing.index:
        raise Tampered(
            f"entry #{seq}: order step {step['step'] + 1} applied out of order (the next "
            f"is step {standing.index + 1})"
        )
    if step["actions"] != standing.steps[standing.index]["then"]:
        raise Tampered(f"entry #{seq}: the order step's decisions are not the step's `then`")
    found = due(table, seq)
    if found is None or found[0] != seat:
        raise Tampered(
            f"entry #{seq}: order step {step['step'] + 1} of {seat} was applied against its "
            "condition (the others' decisions since the previous step do not match its "
            "`when`, or the game did not wait for it)"
        )
    return apply_step(table, seq, seat, standing)


# -- the player's side -------------------------------------------------------------------


def parse_step(text: str, index: int) -> dict[str, Any]:
    """Read ``--step 'WHEN=>THEN'``: two JSON arrays of decisions (WHEN may be ``[]``, and
    may hold ``"*"``: any number of the others' decisions)."""
    from arbiter.core.canonical import parse_strict

    if "=>" not in text:
        raise UsageError(
            f"--step {index}: write WHEN=>THEN, two JSON arrays of decisions, e.g. "
            '\'["*", {"kind": "task", "card": 12}]=>[{"kind": "prayer"}]\''
        )
    when_text, then_text = text.split("=>", 1)
    sides = []
    for name, part in (("WHEN", when_text), ("THEN", then_text)):
        try:
            value = parse_strict(part.strip().encode(), f"--step {index} {name}")
        except ArbiterError as exc:
            raise UsageError(f"--step {index}: {name} is not JSON ({exc.message})") from None
        star = name == "WHEN"
        if not isinstance(value, list) or not all(
            (isinstance(a, dict) and isinstance(a.get("kind"), str))
            or (star and a == order_patterns.ANY)
            for a in value
        ):
            what = 'each {"kind": ...} or "*"' if star else 'each {"kind": ...}'
            raise UsageError(f"--step {index}: {name} must be a JSON array of decisions, {what}")
        sides.append(value)
    if not sides[1]:
        raise UsageError(f"--step {index}: THEN must hold at least one of your decisions")
    return {"when": sides[0], "then": sides[1]}


def make_orders(state: dict[str, Any], key: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Return an orders file signed against the head recorded in the seat's ``state``."""
    from arbiter.core.formats import ORDERS_FORMAT
    from arbiter.core.player import own_state
    from arbiter.core.schemas import validate
    from arbiter.core.signing import NAMESPACE_ORDERS, sign

    seat = own_state(state)
    if state["status"] != "playing":
        raise GameOver(f"the game is {state['status']}: standing orders need a game being played")
    record: dict[str, Any] = {
        "format": ORDERS_FORMAT,
        "game": state["game"],
        "seat": seat,
        "after": state["head"],
        "steps": steps,
    }
    record["signature"] = sign(record, key, NAMESPACE_ORDERS)
    validate("orders", record, "the orders file")
    return record
