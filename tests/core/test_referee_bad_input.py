"""Every item of issue 2's "Bad input" list: right error class and exit code, a one-line
message, and a game folder that is byte-for-byte unchanged after the rejection.

Also: rejection messages never reveal what the submitter cannot see, and batches are
all-or-none.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import Table, create, expect_rejection, started

from arbiter.core import errors
from arbiter.core.canonical import MAX_BYTES, canonical, pretty
from arbiter.core.errors import (
    AlreadyJoined,
    BadSignature,
    BarrierCrossed,
    Duplicate,
    GameOver,
    IllegalAction,
    MalformedInput,
    OutOfTurn,
    SchemaViolation,
    StaleHead,
    Tampered,
    UnknownSeat,
    VerificationFailed,
    WrongGame,
)
from arbiter.core.formats import JOIN_FORMAT
from arbiter.core.player import make_join
from arbiter.core.referee import submit
from arbiter.core.replay import verify
from arbiter.core.signing import NAMESPACE_JOIN, NAMESPACE_MOVE, keygen, read_public_key, sign

# The documented exit codes (README table); pinned here so a renumbering is noticed.
CODES = {
    MalformedInput: 3,
    SchemaViolation: 4,
    WrongGame: 5,
    UnknownSeat: 6,
    BadSignature: 7,
    StaleHead: 8,
    Duplicate: 9,
    GameOver: 10,
    OutOfTurn: 11,
    IllegalAction: 12,
    BarrierCrossed: 13,
    AlreadyJoined: 14,
    Tampered: 15,
    VerificationFailed: 16,
}


def reject(table: Table, error: type[errors.ArbiterError], data: bytes | dict[str, Any]) -> str:
    """Submit ``data``; expect ``error`` and an unchanged folder; return the message."""
    raw = data if isinstance(data, bytes) else pretty(data)
    exc = expect_rejection(table, error, CODES[error], submit, table.root, raw, "bad.json")
    return str(exc.message)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return started(tmp_path)


@pytest.fixture
def good(table: Table) -> bytes:
    """A valid move by alice (on turn): play her lowest card."""
    card = table.hand("alice")[0]
    return pretty(table.move_file("alice", [{"kind": "play", "card": card}]))


# -- strict JSON ------------------------------------------------------------------------


def test_malformed_json(table: Table, good: bytes) -> None:
    message = reject(table, MalformedInput, good[:-5])
    assert "not valid JSON" in message and "line" in message


def test_duplicate_key(table: Table, good: bytes) -> None:
    data = good.replace(b'"format":', b'"seat": "alice",\n  "format":', 1)
    assert json.loads(data)  # the stdlib would silently keep the last value
    message = reject(table, MalformedInput, data)
    assert "duplicate key 'seat'" in message


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_nan_or_infinity(table: Table, good: bytes, constant: bytes) -> None:
    data = re.sub(rb'"card": \d+', b'"card": ' + constant, good)
    assert data != good
    message = reject(table, MalformedInput, data)
    assert "integers only" in message


@pytest.mark.parametrize("number", [b"3.0", b"3e0", b"-0.5"])
def test_float(table: Table, good: bytes, number: bytes) -> None:
    data = re.sub(rb'"card": \d+', b'"card": ' + number, good)
    message = reject(table, MalformedInput, data)
    assert "not an integer" in message and "integers only" in message


@pytest.mark.parametrize("number", [2**53, -(2**53), 10**30])
def test_integer_out_of_range(table: Table, good: bytes, number: int) -> None:
    data = re.sub(rb'"card": \d+', b'"card": ' + str(number).encode(), good)
    message = reject(table, MalformedInput, data)
    assert "out of range" in message and "2^53" in message


def test_largest_safe_integer_parses_and_then_fails_the_engine_check(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "play", "card": 2**53 - 1}])
    message = reject(table, IllegalAction, move)
    assert "not in your hand" in message


def test_invalid_utf8(table: Table, good: bytes) -> None:
    data = good.replace(b'"alice"', b'"al\xffice"', 1)
    message = reject(table, MalformedInput, data)
    assert "UTF-8" in message and "save it as UTF-8" in message


def test_unpaired_surrogate_escape(table: Table, good: bytes) -> None:
    data = good.replace(b'"alice"', b'"alice\\ud800"', 1)
    message = reject(table, MalformedInput, data)
    assert "surrogate" in message


def test_byte_order_mark(table: Table, good: bytes) -> None:
    message = reject(table, MalformedInput, b"\xef\xbb\xbf" + good)
    assert "byte order mark" in message and "without BOM" in message


@pytest.mark.parametrize("data", [b"", b"  \n\t\n"])
def test_empty_file(table: Table, data: bytes) -> None:
    message = reject(table, MalformedInput, data)
    assert "empty" in message


def test_file_over_one_mebibyte(table: Table, good: bytes) -> None:
    data = good[:-2] + b" " * (MAX_BYTES + 1 - len(good)) + good[-2:]
    assert len(data) == MAX_BYTES + 1
    message = reject(table, MalformedInput, data)
    assert "1 MiB" in message and "smaller" in message


def test_file_of_exactly_one_mebibyte_is_parsed(table: Table, good: bytes) -> None:
    data = good[:-2] + b" " * (MAX_BYTES - len(good)) + good[-2:]
    assert len(data) == MAX_BYTES
    assert submit(table.root, data, "big.json").seq == 3


@pytest.mark.parametrize("levels", [65, 100, 100_000])
def test_nesting_deeper_than_64(table: Table, good: bytes, levels: int) -> None:
    # The object itself is level 1, so an array nested `levels - 1` deep inside it gives
    # a total depth of `levels`.
    deep = b"[" * (levels - 1) + b"]" * (levels - 1)
    data = good[:-2] + b',\n  "deep": ' + deep + good[-2:]
    message = reject(table, MalformedInput, data)
    assert "deeper than 64" in message


def test_nesting_of_exactly_64_is_parsed(table: Table, good: bytes) -> None:
    deep = b"[" * 63 + b"]" * 63
    data = good[:-2] + b',\n  "deep": ' + deep + good[-2:]
    # Parsing passes; the unknown field is then a schema error, not a malformed file.
    reject(table, SchemaViolation, data)


# -- schema, game, seat ---------------------------------------------------------------------


def test_unknown_top_level_field(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "draw"}])
    del move["signature"]
    move["comment"] = "hi"
    move["signature"] = sign(move, table.keys["alice"], NAMESPACE_MOVE)
    message = reject(table, SchemaViolation, move)
    assert "comment" in message


def test_unknown_field_in_a_decision(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "draw", "card": 1}])
    message = reject(table, SchemaViolation, move)
    assert message.startswith("action 1")


def test_unknown_decision_kind(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "cheat"}])
    reject(table, SchemaViolation, move)


def test_wrong_format_tag(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "draw"}])
    move["format"] = "arbiter.move/2"
    message = reject(table, SchemaViolation, move)
    assert "arbiter.move/1" in message


def test_not_an_object(table: Table) -> None:
    reject(table, SchemaViolation, b"[1, 2, 3]\n")


def test_wrong_game_id(table: Table) -> None:
    state = table.state("alice")
    move = table.move_file("alice", [{"kind": "draw"}], state={**state, "game": "another-game"})
    message = reject(table, WrongGame, move)
    assert "'another-game'" in message and "'tally-test'" in message


def test_join_for_another_version_of_the_manifest(tmp_path: Path) -> None:
    table = create(tmp_path)
    join = table.join_file("alice")
    del join["signature"]
    join["manifest"] = "sha256:" + "1" * 64
    join["signature"] = sign(join, table.keys["alice"], NAMESPACE_JOIN)
    message = reject(table, WrongGame, join)
    assert "arbiter join" in message


def test_unknown_seat(table: Table) -> None:
    move = table.move_file(
        "alice", [{"kind": "draw"}], state={**table.state("alice"), "seat": "zed"}
    )
    message = reject(table, UnknownSeat, move)
    assert "'zed'" in message and "alice, bob" in message


# -- signatures -------------------------------------------------------------------------------


def test_signature_by_another_seats_key(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "draw"}])
    move["signature"] = sign(
        {k: v for k, v in move.items() if k != "signature"}, table.keys["bob"], NAMESPACE_MOVE
    )
    message = reject(table, BadSignature, move)
    assert "another key" in message and "sign with your own key" in message


def test_signature_by_a_stranger(table: Table, tmp_path: Path) -> None:
    stranger = keygen("mallory", tmp_path / "strangers")[0]
    move = table.move_file("alice", [{"kind": "draw"}])
    move["signature"] = sign(
        {k: v for k, v in move.items() if k != "signature"}, stranger, NAMESPACE_MOVE
    )
    reject(table, BadSignature, move)


def test_signature_with_another_namespace(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "draw"}])
    move["signature"] = sign(
        {k: v for k, v in move.items() if k != "signature"}, table.keys["alice"], NAMESPACE_JOIN
    )
    message = reject(table, BadSignature, move)
    assert "'arbiter-join'" in message and "arbiter-move" in message


def test_join_signed_in_the_move_namespace(tmp_path: Path) -> None:
    table = create(tmp_path)
    join = table.join_file("alice")
    join["signature"] = sign(
        {k: v for k, v in join.items() if k != "signature"}, table.keys["alice"], NAMESPACE_MOVE
    )
    reject(table, BadSignature, join)


def test_content_changed_after_signing(table: Table) -> None:
    hand = table.hand("alice")
    move = table.move_file("alice", [{"kind": "play", "card": hand[0]}])
    move["actions"] = [{"kind": "play", "card": hand[1]}]
    message = reject(table, BadSignature, move)
    assert "changed after signing" in message


def test_signature_garbage(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "draw"}])
    lines = move["signature"].split("\n")
    lines[1] = "A" * len(lines[1])
    move["signature"] = "\n".join(lines)
    message = reject(table, BadSignature, move)
    assert "sign" in message


def test_reformatting_a_signed_file_keeps_it_valid(table: Table) -> None:
    """Signatures cover canonical bytes: key order and whitespace of the file do not matter."""
    move = table.move_file("alice", [{"kind": "draw"}])
    data = json.dumps(dict(reversed(list(move.items()))), indent=7).encode()
    assert table.submit_bytes(data).seq == 3


# -- chain and game state ---------------------------------------------------------------------


def test_stale_after_head(table: Table) -> None:
    old_state = table.state("alice")
    card = table.hand("alice")[0]
    table.play("alice", {"kind": "play", "card": card})
    other = table.hand("alice")[0]
    stale = table.move_file("alice", [{"kind": "play", "card": other}], state=old_state)
    message = reject(table, StaleHead, stale)
    assert "#3" in message and "build the move again" in message


def test_same_file_twice(table: Table, good: bytes) -> None:
    table.submit_bytes(good)
    message = reject(table, Duplicate, good)
    assert "entry #3" in message and "nothing to do" in message


def test_same_file_twice_reformatted(table: Table, good: bytes) -> None:
    """A duplicate is the same signed object, however the bytes are laid out."""
    table.submit_bytes(good)
    reject(table, Duplicate, canonical(json.loads(good)))


def test_same_join_twice(tmp_path: Path) -> None:
    table = create(tmp_path)
    join = table.join_file("alice")
    table.submit_obj(join)
    message = reject(table, Duplicate, join)
    assert "entry #1" in message


def test_move_after_the_game_is_over(tmp_path: Path) -> None:
    table = started(tmp_path, options={"cards": "4", "hand": "1"})
    before_end = {seat: table.state(seat) for seat in table.seats}
    table.play_to_end()
    assert table.state()["status"] == "over"
    for seat in table.seats:
        move = table.move_file(seat, [{"kind": "end"}])
        message = reject(table, GameOver, move)
        assert "over" in message
        # An old state file does not help either: it is over before the head is compared.
        move = table.move_file(seat, [{"kind": "end"}], state=before_end[seat])
        reject(table, GameOver, move)


def test_move_out_of_turn(table: Table) -> None:
    assert table.turn() == "alice"
    card = table.hand("bob")[0]
    move = table.move_file("bob", [{"kind": "play", "card": card}])
    message = reject(table, OutOfTurn, move)
    assert "alice's turn" in message and "not bob's" in message


def test_move_before_every_seat_joined(tmp_path: Path) -> None:
    table = create(tmp_path)
    table.submit_obj(table.join_file("alice"))
    move = table.move_file("alice", [{"kind": "draw"}])
    message = reject(table, OutOfTurn, move)
    assert "not started" in message and "bob" in message


def test_illegal_decision(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "end"}])  # the deck still has cards
    message = reject(table, IllegalAction, move)
    assert "draw" in message and "[TALLY-4]" in message
    assert message.startswith("action 1 (end)")


def test_illegal_decision_with_a_non_integer_card(table: Table) -> None:
    move = table.move_file("alice", [{"kind": "play", "card": "3"}])
    reject(table, SchemaViolation, move)


def test_batch_crossing_an_information_barrier(table: Table) -> None:
    card = table.hand("alice")[0]
    move = table.move_file("alice", [{"kind": "draw"}, {"kind": "play", "card": card}])
    message = reject(table, BarrierCrossed, move)
    assert "stop after action 1" in message and "new move file" in message


def rewrapped(join: dict[str, Any], key: Path) -> dict[str, Any]:
    """Return ``join`` with its entropy signature armored at another width, signed again:
    the same entropy, but another signed content (so not a duplicate)."""
    body = "".join(join["entropy_signature"].splitlines()[1:-1])
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    armored = "\n".join(["-----BEGIN SSH SIGNATURE-----", *lines, "-----END SSH SIGNATURE-----"])
    other = {k: v for k, v in join.items() if k != "signature"}
    other["entropy_signature"] = armored + "\n"
    other["signature"] = sign(other, key, NAMESPACE_JOIN)
    return other


def test_join_for_a_seat_that_already_joined(tmp_path: Path) -> None:
    table = create(tmp_path)
    join = table.join_file("alice")
    table.submit_obj(join)
    message = reject(table, AlreadyJoined, rewrapped(join, table.keys["alice"]))
    assert "already joined" in message


def test_the_same_join_again_is_a_duplicate(tmp_path: Path) -> None:
    """Joins are deterministic: asking a player again gives the same file, a duplicate."""
    table = create(tmp_path)
    table.submit_obj(table.join_file("alice"))
    message = reject(table, Duplicate, table.join_file("alice"))
    assert "already accepted as entry #1" in message


def test_join_after_the_game_started(table: Table) -> None:
    join = make_join(table.gd.manifest, "bob", table.keys["bob"])
    reject(table, AlreadyJoined, rewrapped(join, table.keys["bob"]))


def test_join_for_a_no_join_game(tmp_path: Path) -> None:
    table = create(tmp_path, join=False)
    from arbiter.core.canonical import digest
    from arbiter.core.joins import sign_entropy

    manifest_digest = digest(table.manifest())
    proof, entropy = sign_entropy("tally-test", "alice", manifest_digest, table.keys["alice"])
    join = {
        "format": JOIN_FORMAT,
        "game": "tally-test",
        "seat": "alice",
        "manifest": manifest_digest,
        "entropy": entropy.hex(),
        "entropy_signature": proof,
    }
    join["signature"] = sign(join, table.keys["alice"], NAMESPACE_JOIN)
    message = reject(table, AlreadyJoined, join)
    assert "--no-join" in message


# -- the folder itself -------------------------------------------------------------------------


def test_manifest_edited_after_creation(table: Table, good: bytes) -> None:
    manifest = table.manifest()
    manifest["created"] = "2020-01-01T00:00:00Z"
    table.gd.manifest.write_bytes(pretty(manifest))
    message = reject(table, Tampered, good)
    assert "game.json was changed" in message
    with pytest.raises(VerificationFailed, match="game.json was changed"):
        verify(table.root)


def test_manifest_key_swapped_to_forge_a_seat(table: Table, tmp_path: Path) -> None:
    """Replacing bob's key in game.json lets mallory's signature pass, but not the chain."""
    mallory = keygen("mallory", tmp_path / "strangers")[0]
    manifest = table.manifest()
    manifest["seats"][1]["key"] = read_public_key(str(mallory) + ".pub")
    table.gd.manifest.write_bytes(pretty(manifest))
    table.keys["bob"] = mallory
    move = table.move_file("bob", [{"kind": "draw"}])
    reject(table, Tampered, move)


def test_tampered_chain_line(table: Table, good: bytes) -> None:
    lines = table.gd.chain.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b"alice joined.", b"alice joined!")
    table.gd.chain.write_bytes(b"".join(lines))
    message = reject(table, Tampered, good)
    assert "chain entry 1" in message
    with pytest.raises(VerificationFailed, match=r"chain entry 1\b"):
        verify(table.root)


def test_tampered_private_record(table: Table, good: bytes) -> None:
    """The referee's private copy of an accepted file is checked against the chain."""
    path = table.gd.referee_signed
    lines = path.read_bytes().splitlines(keepends=True)
    obj = json.loads(lines[0])
    obj["entropy"] = "00" * 32
    lines[0] = canonical(obj) + b"\n"
    path.write_bytes(b"".join(lines))
    message = reject(table, Tampered, good)
    assert "chain entry 1" in message


def test_tampered_referee_secret(table: Table, good: bytes) -> None:
    table.gd.secret.write_bytes(b"00" * 32 + b"\n")
    message = reject(table, Tampered, good)
    assert "commitment" in message


# -- hidden information -------------------------------------------------------------------------


def _normalise(message: str, card: int) -> str:
    return re.sub(rf"\bcard {card}\b", "card N", message)


def test_illegal_play_reveals_nothing_about_other_hands_or_the_deck(table: Table) -> None:
    mine = set(table.hand("alice"))
    hidden = sorted(set(range(1, 13)) - mine)
    bobs = set(table.hand("bob"))
    assert bobs and bobs < set(hidden)
    messages = {}
    for card in [*hidden, 13, 99]:
        move = table.move_file("alice", [{"kind": "play", "card": card}])
        messages[card] = reject(table, IllegalAction, move)
    # One shape whatever the card: in bob's hand, in the deck, or in no deck at all.
    shapes = {_normalise(m, c) for c, m in messages.items()}
    assert len(shapes) == 1, messages
    shape = shapes.pop()
    # No other card is named: the only numbers are the action index and the rule.
    assert not re.findall(r"\d", re.sub(r"^action 1 |\[TALLY-\d+\]$", "", shape)), shape
    assert "bob" not in shape and "deck" not in shape


def test_illegal_discard_reveals_nothing(table: Table) -> None:
    mine = set(table.hand("alice"))
    shapes = set()
    for card in sorted(set(range(1, 13)) - mine):
        move = table.move_file("alice", [{"kind": "discard", "card": card}])
        shapes.add(_normalise(reject(table, IllegalAction, move), card))
    assert len(shapes) == 1, shapes


def test_barrier_message_is_the_same_whatever_card_is_drawn(tmp_path: Path) -> None:
    """Different secrets deal different decks; the rejection must not tell them apart."""
    shapes = set()
    drawn = set()
    for i in range(4):
        table = started(tmp_path / f"g{i}", secret=bytes([i + 1]) * 32)
        mine = table.hand("alice")
        # What alice would draw (the referee knows; the test peeks to make sure the decks differ).
        seen = set(mine) | set(table.hand("bob"))
        for card in range(1, 13):
            if card in seen:
                continue
            for second in ({"kind": "play", "card": card}, {"kind": "end"}, {"kind": "draw"}):
                move = table.move_file("alice", [{"kind": "draw"}, second])
                shapes.add(reject(table, BarrierCrossed, move))
        table.play("alice", {"kind": "draw"})
        drawn.add(tuple(sorted(set(table.hand("alice")) - set(mine))))
    assert len(drawn) > 1, "the games drew the same card: the test proves nothing"
    assert len(shapes) == 1, shapes


def test_barrier_checked_before_the_next_action(table: Table) -> None:
    """An illegal action after the barrier still gets the barrier message, not a check result."""
    move = table.move_file("alice", [{"kind": "draw"}, {"kind": "cheat"}])
    reject(table, BarrierCrossed, move)


# -- batches -------------------------------------------------------------------------------------


def test_valid_batch_is_accepted_as_one_entry(table: Table) -> None:
    card = table.hand("alice")[0]
    accepted = table.play("alice", {"kind": "play", "card": card}, {"kind": "draw"})
    assert accepted.seq == 3 and accepted.kind == "move"
    public = table.state()
    assert public["seq"] == 3
    assert public["view"]["tallies"]["alice"] == [card]
    assert public["view"]["deck"] == 7
    assert table.turn() == "bob"
    assert len(table.gd.chain.read_bytes().splitlines()) == 4
    assert accepted.summary == [f"alice plays {card}", "alice draws a card (7 left in the deck)"]


def test_batch_with_a_bad_second_action_changes_nothing(table: Table) -> None:
    card = table.hand("alice")[0]
    move = table.move_file("alice", [{"kind": "play", "card": card}, {"kind": "play", "card": 99}])
    message = reject(table, IllegalAction, move)
    assert message.startswith("action 2 (play)")
    # The first action was not kept: the same card can still be played.
    table.play("alice", {"kind": "play", "card": card})


@pytest.mark.parametrize(
    "second, error",
    [
        ({"kind": "play", "card": 0}, SchemaViolation),
        ({"kind": "end"}, IllegalAction),
        ({"kind": "discard", "card": "x"}, SchemaViolation),
    ],
)
def test_batch_failing_late_changes_nothing(
    table: Table, second: dict[str, Any], error: Any
) -> None:
    a, b = table.hand("alice")
    move = table.move_file(
        "alice", [{"kind": "play", "card": a}, {"kind": "play", "card": b}, second]
    )
    message = reject(table, error, move)
    assert message.startswith("action 3")


def test_batch_past_another_seats_decision(tmp_path: Path) -> None:
    table = started(tmp_path, options={"cards": "4", "hand": "1"})
    table.play("alice", {"kind": "draw"})
    table.play("bob", {"kind": "draw"})
    a = table.hand("alice")
    # Deck empty: alice plays and ends; ending passes the turn, so nothing may follow.
    move = table.move_file(
        "alice", [{"kind": "play", "card": a[0]}, {"kind": "end"}, {"kind": "play", "card": a[1]}]
    )
    message = reject(table, BarrierCrossed, move)
    assert "stop after action 2" in message and "bob decides next" in message


def test_batch_running_past_the_end_of_the_game(tmp_path: Path) -> None:
    table = started(tmp_path, options={"cards": "4", "hand": "1"})
    table.play("alice", {"kind": "draw"})
    table.play("bob", {"kind": "draw"})
    a = table.hand("alice")
    table.play(
        "alice", {"kind": "play", "card": a[0]}, {"kind": "play", "card": a[1]}, {"kind": "end"}
    )
    b = table.hand("bob")
    move = table.move_file(
        "bob", [{"kind": "play", "card": b[0]}, {"kind": "play", "card": b[1]}, {"kind": "end"}]
    )
    message = reject(table, BarrierCrossed, move)
    assert "game ended after action 2" in message


@pytest.mark.parametrize("count", [0, 65])
def test_batch_size_limits(table: Table, count: int) -> None:
    move = table.move_file("alice", [{"kind": "draw"}])
    del move["signature"]
    move["actions"] = [{"kind": "draw"}] * count
    move["signature"] = sign(move, table.keys["alice"], NAMESPACE_MOVE)
    reject(table, SchemaViolation, move)
