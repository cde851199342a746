"""Step through a game entry by entry: what a reader had in hand right after each entry.

For the replay tools (``arbiter replay``, the HTML viewer). A ``Frame`` is chain entry
``seq`` as one viewer saw it: the exact state file the referee would have written for
that viewer right after the entry (``views.state_file``), and the entry's lines of that
viewer's log.

**Who may be shown what.** After ``arbiter reveal`` anyone replays any seat, from the
secret in ``reveal/reveal.json`` and the files in ``reveal/signed.jsonl``. Before it only
the referee's copy can replay (``referee/secret``, ``referee/signed.jsonl``), and then
only the spectator: a seat's view would show the referee's reader what others may not
see. The one exception is the head entry, which a seat (or a published copy, which has
no secret) may still show from the state file on disk (``players/<seat>/state.json``,
``public/state.json``): that is the file its reader already has.

**Trust.** The chain's hashes and links and each signed file's digest are checked as
they stream by (they are cheap and keep the replay in step with the chain), but nothing
else: no signature, no schema, no comparison with the published files. A timeline shows
what the records say; ``arbiter verify`` is what checks that they hold.

**Turn numbers.** ``Frame.turn`` is the turn the public view says the game is in, read
from the view without knowing the engine:

- an integer ``turn`` (Mottainai: ``turn``, counted from 1 and raised when a player's
  turn ends);
- an object ``turn`` with an integer ``number`` (Momiji: ``turn.number``);
- else an integer ``round`` (Mot Coin: ``round``, 1 or 2 — its rules have two rounds of
  auctions and no numbered turns).

A view with none of these (or no view yet: the game is still joining) counts turns as
changes of the prompted seat: the first seat prompted starts turn 1, and each time
another seat is prompted a new turn begins (``None`` before anyone is prompted). Either
way ``turn:K`` names the first entry after which the game is in turn K: the table as
turn K starts.

One replay pass, streamed: ``frames`` holds one live table and yields each frame as it
is made, so memory does not grow with the length of the game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core import clocks, viewcheck, views
from arbiter.core.canonical import parse_strict
from arbiter.core.chain import iter_chain
from arbiter.core.engine import Engine
from arbiter.core.errors import ArbiterError, NotReady, Tampered, UsageError
from arbiter.core.gamedir import GameDir
from arbiter.core.ledger import Records, load_manifest, read_json
from arbiter.core.publish import apply_record
from arbiter.core.rng import commitment
from arbiter.core.safeio import lines as file_lines
from arbiter.core.safeio import open_nofollow_read
from arbiter.core.schemas import validate
from arbiter.core.table import EntryLines, Table
from arbiter.core.takeback import keep

SEAT_BEFORE_REVEAL = (
    "before the reveal only the spectator's view can be replayed: a seat's view would "
    "show what others may not see; after `arbiter reveal` any seat"
)


@dataclass
class Frame:
    """One chain entry as one viewer saw it."""

    seq: int
    """The chain entry's number."""
    kind: str
    """``genesis``, ``join``, ``move`` or ``timeout``."""
    seat: str | None
    """Who acted (the timed-out seat for a timeout; ``None`` for the genesis entry)."""
    turn: int | None
    """The turn the game is in after this entry (module docstring), else ``None``."""
    state: dict[str, Any]
    """The state file (``arbiter.state/1``) the viewer would have had after this entry."""
    lines: list[str]
    """This entry's lines of the viewer's log (the public lines for the spectator), as
    texts without the log's ``- `#N` `` prefix (``views.log_entry`` adds it)."""


# -- the game's records ---------------------------------------------------------------


@dataclass
class _Game:
    gd: GameDir
    manifest: dict[str, Any]
    manifest_digest: str
    engine: Engine
    revealed: bool
    secret: bytes | None
    """``None``: a published copy before the reveal (no secret at hand)."""
    signed: Path | None
    deal_secret: bytes | None = None
    """A duplicate game's group secret (revealed, or the referee's copy)."""

    @property
    def seats(self) -> list[str]:
        return [s["seat"] for s in self.manifest["seats"]]


def _load(gd: GameDir) -> _Game:
    gd.require()
    gd.check_links()
    manifest, manifest_digest, engine = load_manifest(gd)
    revealed = gd.reveal_record.is_file()
    secret: bytes | None
    deal_secret: bytes | None = None
    if revealed:
        record = parse_strict(open_nofollow_read(gd.reveal_record), "reveal/reveal.json")
        validate("reveal", record, "reveal/reveal.json")
        secret, signed, where = bytes.fromhex(record["secret"]), gd.reveal_signed, "reveal/reveal.json"
        if record.get("deal_secret"):
            deal_secret = bytes.fromhex(record["deal_secret"])
    else:
        secret, signed, where = _referee_secret(gd), gd.referee_signed, "referee/secret"
        if secret is not None and manifest.get("deal") is not None:
            from arbiter.core.deal import read_secret

            deal_secret = read_secret(gd, manifest)
    if secret is not None and commitment(secret) != manifest["commitment"]:
        raise Tampered(f"{where} does not match the commitment in game.json: run `arbiter verify`")
    return _Game(gd, manifest, manifest_digest, engine, revealed, secret, signed, deal_secret)


def _referee_secret(gd: GameDir) -> bytes | None:
    """Return the referee's secret, or ``None`` on a published copy (no ``referee/``)."""
    try:
        text = open_nofollow_read(gd.secret, 1024).decode("ascii", "replace").strip()
    except FileNotFoundError:
        return None
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        raise Tampered("referee/secret is damaged: it must hold 64 hex digits")
    return bytes.fromhex(text)


def _check_viewer(game: _Game, viewer: str | None) -> None:
    if viewer is not None and viewer not in game.seats:
        raise UsageError(
            f"{viewer!r} is not a seat of this game: choose one of {', '.join(game.seats)}"
        )


def _last_seq(gd: GameDir) -> int:
    """Return the number of the chain's last entry (counting lines: no parsing)."""
    count, last = 0, b"\n"
    with open(gd.chain, "rb") as handle:
        while chunk := handle.read(1 << 16):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    count += last != b"\n"
    if count == 0:
        raise Tampered("chain.jsonl is empty: the genesis entry is missing")
    return count - 1


# -- the replay -----------------------------------------------------------------------


def _replay(game: _Game) -> Iterator[tuple[dict[str, Any], Table, EntryLines]]:
    """Yield each chain entry with the live table right after it and the entry's lines.

    The table is the same object every time: read what you need before the next step.
    """
    assert game.secret is not None and game.signed is not None
    table = Table(game.manifest, game.engine, game.secret, trusted=True)
    table.deal_secret = game.deal_secret
    chain = iter_chain(game.gd.chain, game.manifest_digest)
    # The chain is opened before the signed files: a submit meanwhile only adds a line
    # to the latter, never an entry without its file.
    genesis = next(chain)
    opened = table.genesis()
    clocks.step(table, "genesis", None, genesis.get("time"))  # a clocked game's clocks
    yield genesis, table, opened
    with Records(game.signed) as records:
        for entry in chain:
            seq = entry["seq"]
            try:
                record = records.read(seq, entry["digest"])
                keep(table, seq, record, entry["digest"])  # the kept branch (takebacks)
                produced = apply_record(table, seq, record, entry["digest"])
                clocks.step(table, entry["kind"], entry["seat"], entry.get("time"))
            except Tampered:
                raise
            except ArbiterError as exc:
                raise Tampered(
                    f"entry #{seq} does not replay ({exc.message}): run `arbiter verify`"
                ) from None
            yield entry, table, produced


def view_turn(view: Any) -> int | None:
    """Return the turn number a view shows (module docstring), else ``None``."""
    if not isinstance(view, dict):
        return None
    turn = view.get("turn")
    if isinstance(turn, dict):
        turn = turn.get("number")
    if type(turn) is int:
        return turn
    round_ = view.get("round")
    return round_ if type(round_) is int else None


class _Turns:
    """Count turns as changes of the prompted seat (views without a turn number)."""

    def __init__(self) -> None:
        self.count = 0
        self.seat: str | None = None

    def step(self, prompted: str | None) -> None:
        if prompted is not None and prompted != self.seat:
            self.count += 1
            self.seat = prompted

    def turn(self, view: Any) -> int | None:
        shown = view_turn(view)
        if shown is not None:
            return shown
        return self.count or None


def _prompted(table: Table) -> str | None:
    prompt = table.prompt()
    return None if prompt is None else str(prompt.seat)


def _plain(value: Any) -> Any:
    """Return an independent copy of JSON data with its keys in the order of the file on
    disk (sorted, as ``canonical.pretty`` writes them): a view may share lists with the
    live engine state, which the next entry changes."""
    return json.loads(json.dumps(value, sort_keys=True))


def _frame(
    entry: dict[str, Any], table: Table, produced: EntryLines, viewer: str | None, turns: _Turns
) -> Frame:
    seq = entry["seq"]
    state = _plain(views.state_file(table, viewer, seq, entry["hash"]))
    lines = produced.public if viewer is None else produced.seats.get(viewer, [])
    return Frame(seq, entry["kind"], entry["seat"], turns.turn(state["view"]), state, list(lines))


def _frames(game: _Game, viewer: str | None) -> Iterator[Frame]:
    turns = _Turns()
    for entry, table, produced in _replay(game):
        turns.step(_prompted(table))
        yield _frame(entry, table, produced, viewer, turns)


# -- the head from disk (a seat before the reveal, a published copy) ---------------


def _disk_frame(game: _Game, viewer: str | None) -> Frame:
    """Return the head entry from the viewer's own state file on disk."""
    gd = game.gd
    turns = _Turns()
    head: dict[str, Any] | None = None
    for entry in iter_chain(gd.chain, game.manifest_digest):
        # The seat prompted after an entry is the one that acts in the next entry.
        turns.step(entry["seat"] if entry["kind"] in ("move", "timeout") else None)
        head = entry
    assert head is not None  # iter_chain raises on an empty chain
    path = gd.public_state if viewer is None else gd.seat_state(viewer)
    what = "public/state.json" if viewer is None else f"players/{viewer}/state.json"
    if viewer is not None and not path.is_file():
        raise NotReady(SEAT_BEFORE_REVEAL)
    state = read_json(path, what)
    validate("state", state, what)
    if state["seat"] != viewer or state["game"] != game.manifest["game"]:
        raise Tampered(f"{what} is not this game's file for {viewer or 'the spectator'}")
    # Shown with the engine's drawing: its view must be one the engine could have written.
    viewcheck.check(state, what)
    if state["seq"] != head["seq"] or state["head"] != head["hash"]:
        raise NotReady(
            f"{what} is at entry #{state['seq']}, not at the chain head #{head['seq']}: "
            "copy the game folder again (the referee: `arbiter repair`)"
        )
    prompt = state["prompt"]
    turns.step(prompt["seat"] if prompt is not None else None)
    if viewer is None:
        lines = list(head["summary"])  # the public log is exactly the chain's summaries
    else:
        lines = _log_lines(gd.seat_log(viewer), head["seq"])
    return Frame(head["seq"], head["kind"], head["seat"], turns.turn(state["view"]), state, lines)


def _log_lines(path: Path, seq: int) -> list[str]:
    """Return entry ``seq``'s lines of a readable log (none when the log is missing)."""
    tag = f"- `#{seq}` ".encode()
    found = []
    try:
        with open(path, "rb") as handle:
            for raw in file_lines(handle, str(path)):
                if raw.startswith(tag):
                    found.append(raw[len(tag) :].rstrip(b"\n").decode("utf-8", "replace"))
    except FileNotFoundError:
        return []
    return found


def _secret_until_reveal(seq: int, last: int) -> NotReady:
    return NotReady(
        f"entry #{seq} cannot be replayed here: the seed is secret until the reveal "
        f"(`arbiter reveal`); this copy shows only the head, entry #{last}"
    )


# -- the interface --------------------------------------------------------------------


def viewers(root: Path) -> list[str | None]:
    """Return who may be shown: the spectator (``None``) before the reveal, every seat too
    after it."""
    gd = GameDir(root)
    gd.require()
    manifest, _, _ = load_manifest(gd)
    seats = [s["seat"] for s in manifest["seats"]]
    return [None, *seats] if gd.reveal_record.is_file() else [None]


def last_entry(root: Path) -> int:
    """Return the number of the game's last chain entry (its head)."""
    gd = GameDir(root)
    gd.require()
    return _last_seq(gd)


def frames(root: Path, viewer: str | None) -> Iterator[Frame]:
    """Return every entry 0..head as ``viewer`` saw it, streamed from one replay.

    Raises ``NotReady`` at once when not every entry can be shown: a seat before the
    reveal, or a published copy before the reveal (it has no secret).
    """
    game = _load(GameDir(root))
    _check_viewer(game, viewer)
    if game.secret is None:
        raise NotReady(
            "the seed is secret until the reveal (`arbiter reveal`): this copy can show "
            "only its head entry, not every entry"
        )
    if not game.revealed and viewer is not None:
        raise NotReady(SEAT_BEFORE_REVEAL)
    return _frames(game, viewer)


def frames_for(root: Path, chosen: list[str | None]) -> dict[str | None, list[Frame]]:
    """Return every entry as each viewer in ``chosen`` saw it, from ONE replay (the HTML
    page shows every seat: a replay per viewer would cost as many replays)."""
    game = _load(GameDir(root))
    for viewer in chosen:
        _check_viewer(game, viewer)
        if game.secret is None:
            raise NotReady(
                "the seed is secret until the reveal (`arbiter reveal`): this copy can show "
                "only its head entry, not every entry"
            )
        if not game.revealed and viewer is not None:
            raise NotReady(SEAT_BEFORE_REVEAL)
    out: dict[str | None, list[Frame]] = {viewer: [] for viewer in chosen}
    turns = _Turns()
    for entry, table, produced in _replay(game):
        turns.step(_prompted(table))
        for viewer in chosen:
            out[viewer].append(_frame(entry, table, produced, viewer, turns))
    return out


def parse_at(at: str, last: int) -> tuple[str, int]:
    """Parse ``--at``: ``("seq", n)`` for N or -N (from the end: -1 is the head), or
    ``("turn", k)`` for ``turn:K``. Raises ``UsageError`` naming the range."""
    text = at.strip()
    if text.startswith("turn:"):
        number = text[len("turn:") :]
        if not re.fullmatch(r"[0-9]{1,9}", number):
            raise UsageError(f"--at {at!r}: write turn:K with a turn number K, e.g. turn:3")
        return "turn", int(number)
    if not re.fullmatch(r"-?[0-9]{1,12}", text):
        raise UsageError(
            f"--at {at!r}: give an entry number N, -N from the end (-1 is the last) or turn:K"
        )
    n = int(text)
    seq = n if n >= 0 else last + 1 + n
    if not 0 <= seq <= last:
        raise UsageError(
            f"entry {n} is out of range: this game has entries 0 to {last} "
            f"(or -1 to -{last + 1} from the end)"
        )
    return "seq", seq


def frame_at(root: Path, at: str, viewer: str | None) -> Frame:
    """Return one entry as ``viewer`` saw it; ``at``: ``"N"``, ``"-N"`` (from the end:
    -1 is the head) or ``"turn:K"`` (the first entry of turn K)."""
    gd = GameDir(root)
    gd.require()
    return gd.consistent(lambda: _frame_at(gd, at, viewer))


def _frame_at(gd: GameDir, at: str, viewer: str | None) -> Frame:
    game = _load(gd)
    _check_viewer(game, viewer)
    last = _last_seq(gd)
    how, number = parse_at(at, last)
    can_replay = game.secret is not None and (game.revealed or viewer is None)
    if not can_replay:
        if how == "seq" and number == last:
            return _disk_frame(game, viewer)
        if game.secret is not None:
            raise NotReady(SEAT_BEFORE_REVEAL)
        if how == "seq":
            raise _secret_until_reveal(number, last)
        raise NotReady(
            "turns cannot be found here: the seed is secret until the reveal "
            f"(`arbiter reveal`); this copy shows only the head, entry #{last}"
        )
    turns = _Turns()
    highest: int | None = None
    for entry, table, produced in _replay(game):
        turns.step(_prompted(table))
        if how == "seq":
            if entry["seq"] == number:
                return _frame(entry, table, produced, viewer, turns)
            continue
        view = game.engine.view(table.state, None) if table.started else None
        turn = turns.turn(view)
        if turn == number:
            return _frame(entry, table, produced, viewer, turns)
        if turn is not None:
            highest = turn if highest is None else max(highest, turn)
    if how == "seq":
        raise Tampered(f"chain.jsonl ends before entry #{number}: run `arbiter verify`")
    if highest is None:
        raise UsageError(f"turn {number} is out of range: this game has no turns yet")
    raise UsageError(f"turn {number} is out of range: this game has turns 1 to {highest}")
