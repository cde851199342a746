"""``arbiter verify`` before and after reveal, and ``reveal`` itself."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
from helpers.tables import Table, expect_rejection, snapshot, started

from arbiter.core.canonical import canonical, pretty
from arbiter.core.errors import GameOver, NotReady, VerificationFailed
from arbiter.core.referee import reveal
from arbiter.core.replay import verify

SMALL = {"cards": "4", "hand": "1"}


def fails(root: Path, pattern: str) -> str:
    """Expect verify to fail with a one-line message matching ``pattern``."""
    with pytest.raises(VerificationFailed) as info:
        verify(root)
    message = info.value.message
    assert info.value.exit_code == 16
    assert "\n" not in message
    assert re.search(pattern, message), message
    return str(message)


def edit(path: Path, old: bytes, new: bytes, count: int = 1) -> None:
    data = path.read_bytes()
    assert old in data, f"{old!r} not in {path}"
    path.write_bytes(data.replace(old, new, count))


def public_copy(table: Table, dest: Path) -> Path:
    """Copy the game folder as it would be published: without referee/."""
    shutil.copytree(table.root, dest, ignore=shutil.ignore_patterns("referee"))
    return dest


# -- before reveal ------------------------------------------------------------------------------


@pytest.fixture
def playing(tmp_path: Path) -> Table:
    table = started(tmp_path)
    for _ in range(3):
        table.step()
    return table


def test_verify_before_reveal(playing: Table, tmp_path: Path) -> None:
    report = verify(playing.root)
    assert report.game == "tally-test"
    assert not report.revealed and not report.replayed
    assert report.entries == 6
    assert report.status == "playing"
    # Anyone can run it from the published files alone.
    copy = public_copy(playing, tmp_path / "copy")
    assert verify(copy).entries == 6


def test_verify_while_joining(tmp_path: Path) -> None:
    from helpers.tables import create

    table = create(tmp_path)
    table.submit_obj(table.join_file("bob"))
    report = verify(table.root)
    assert report.status == "joining" and report.entries == 2


def test_verify_leaves_the_folder_unchanged(playing: Table) -> None:
    before = snapshot(playing.root)
    verify(playing.root)
    assert snapshot(playing.root) == before


def test_edited_public_log_line_is_named(playing: Table) -> None:
    log = playing.gd.public_log
    lines = log.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith("- `#4`"))
    lines[index] = lines[index].replace("draws", "takes")
    log.write_text("".join(lines))
    fails(playing.root, r"public/log\.md differs at entry #4")


def test_extra_public_log_line(playing: Table) -> None:
    with open(playing.gd.public_log, "a") as handle:
        handle.write("- `#7` bob wins by decree\n")
    fails(playing.root, r"log\.md")


def test_state_file_not_at_the_head(playing: Table) -> None:
    old = playing.gd.seat_state("bob").read_bytes()
    playing.step()
    playing.gd.seat_state("bob").write_bytes(old)
    fails(
        playing.root,
        r"players/bob/state\.json is at entry #\d+, behind the chain head #6 .*`arbiter repair ",
    )


def test_public_state_missing(playing: Table) -> None:
    playing.gd.public_state.unlink()
    fails(playing.root, r"public/state\.json is missing")


def test_tampered_chain_line_before_reveal_names_the_entry(playing: Table) -> None:
    edit(playing.gd.chain, b"bob joined.", b"bob joined!")
    fails(playing.root, r"chain entry 2\b")


def test_reordered_chain_lines(playing: Table) -> None:
    lines = playing.gd.chain.read_bytes().splitlines(keepends=True)
    lines[3], lines[4] = lines[4], lines[3]
    playing.gd.chain.write_bytes(b"".join(lines))
    fails(playing.root, r"chain entry 3\b")


def test_truncated_chain(playing: Table) -> None:
    lines = playing.gd.chain.read_bytes().splitlines(keepends=True)
    playing.gd.chain.write_bytes(b"".join(lines[:-1]))
    fails(playing.root, r"at entry #5, not at the chain head #4")


def test_edited_manifest(playing: Table) -> None:
    edit(playing.gd.manifest, b'"created": "2026', b'"created": "2025')
    fails(playing.root, r"game\.json")


# -- reveal -------------------------------------------------------------------------------------


def test_reveal_refused_before_the_end(playing: Table) -> None:
    exc = expect_rejection(playing, NotReady, 17, reveal, playing.root)
    assert "--force" in exc.message and "waiting for" in exc.message
    assert not playing.gd.reveal.exists()


def test_forced_reveal_is_recorded_and_verifies(playing: Table) -> None:
    record = reveal(playing.root, force=True)
    assert record["forced"] is True
    stored = json.loads(playing.gd.reveal_record.read_text())
    assert stored["forced"] is True and stored["secret"] == record["secret"]
    for log in [playing.gd.public_log] + [playing.gd.seat_log(s) for s in playing.seats]:
        assert "before the game was over" in log.read_text()
    report = verify(playing.root)
    assert report.revealed and report.replayed
    assert report.status == "playing"


def test_reveal_twice_is_refused(tmp_path: Path) -> None:
    table = finished(tmp_path)
    reveal(table.root)
    expect_rejection(table, NotReady, 17, reveal, table.root)


def test_submit_after_reveal_is_refused(playing: Table) -> None:
    seat = playing.turn()
    move = playing.move_file(seat, [{"kind": "draw"}])
    reveal(playing.root, force=True)
    exc = expect_rejection(playing, GameOver, 10, playing.submit_obj, move)
    assert "revealed" in exc.message


# -- after reveal -------------------------------------------------------------------------------


def finished(tmp_path: Path) -> Table:
    table = started(tmp_path, options=SMALL)
    table.play_to_end()
    return table


@pytest.fixture
def revealed(tmp_path: Path) -> Table:
    table = finished(tmp_path)
    record = reveal(table.root)
    assert record["forced"] is False
    return table


def test_verify_after_reveal(revealed: Table, tmp_path: Path) -> None:
    report = verify(revealed.root)
    assert report.revealed and report.replayed
    assert report.status == "over"
    assert report.signatures == report.entries - 1
    assert report.decisions >= 4
    assert "after the game ended" in revealed.gd.public_log.read_text()
    # The published folder alone (no referee/) replays.
    copy = public_copy(revealed, tmp_path / "copy")
    assert verify(copy).replayed


def test_changed_byte_in_a_player_log(revealed: Table) -> None:
    log = revealed.gd.seat_log("alice")
    data = bytearray(log.read_bytes())
    # Change one digit of a card alice saw privately.
    match = re.search(rb"you are dealt (\d)", data)
    assert match
    data[match.start(1)] = ord("8") if match.group(1) == b"9" else ord("9")
    log.write_bytes(bytes(data))
    fails(revealed.root, r"players/alice/log\.md differs at entry #\d+")


def test_a_replayed_log_names_the_line_that_differs_within_an_entry(revealed: Table) -> None:
    """Logs are compared an entry at a time; a mismatch still names the exact line."""
    log = revealed.gd.public_log
    lines = log.read_text().splitlines(keepends=True)
    tagged = [i for i, line in enumerate(lines) if line.startswith("- `#")]
    # The last line of the first entry that has several lines.
    index = next(i for i, j in itertools.pairwise(tagged) if lines[i][:6] == lines[j][:6])
    index = max(j for j in tagged if lines[j][:6] == lines[index][:6])
    original = lines[index].rstrip("\n")
    lines[index] = original + " (edited)\n"
    log.write_text("".join(lines))
    fails(revealed.root, rf"public/log\.md differs at entry #\d+: expected {re.escape(repr(original[:80]))}")


def test_a_truncated_log_is_named(revealed: Table) -> None:
    log = revealed.gd.seat_log("bob")
    data = log.read_bytes()
    log.write_bytes(data[: len(data) // 2])
    fails(revealed.root, r"players/bob/log\.md differs at entry #\d+")


def test_changed_byte_in_a_state_file(revealed: Table) -> None:
    path = revealed.gd.seat_state("bob")
    state = json.loads(path.read_bytes())
    state["view"]["pile"] = [99]
    path.write_bytes(pretty(state))
    fails(revealed.root, r"players/bob/state\.json differs from the replay")


def test_whitespace_in_a_state_file(revealed: Table) -> None:
    """Published files are compared byte for byte, not as JSON values."""
    path = revealed.gd.public_state
    path.write_bytes(path.read_bytes() + b"\n")
    fails(revealed.root, r"public/state\.json differs")


def test_changed_byte_in_a_revealed_signed_file(revealed: Table) -> None:
    path = revealed.gd.reveal_signed
    lines = path.read_bytes().splitlines(keepends=True)
    obj = json.loads(lines[3])  # entry #4
    assert obj["format"] == "arbiter.move/1"
    obj["actions"] = [{"kind": "end"}]
    lines[3] = canonical(obj) + b"\n"
    path.write_bytes(b"".join(lines))
    fails(revealed.root, r"entry #?4\b")


def test_missing_revealed_signed_file(revealed: Table) -> None:
    path = revealed.gd.reveal_signed
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))
    last = len(lines)
    fails(revealed.root, rf"entry #?{last}\b")


def test_tampered_chain_after_reveal_names_the_entry(revealed: Table) -> None:
    edit(revealed.gd.chain, b"bob joined.", b"bob joined!")
    fails(revealed.root, r"chain entry 2\b")


def test_rehashed_chain_summary_after_reveal_names_the_entry(revealed: Table) -> None:
    """Rewriting a summary and its hash breaks the next link; the last entry is replayed."""
    from arbiter.core import chain as chainlib

    path = revealed.gd.chain
    lines = path.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    seq = last["seq"]
    forged = chainlib.make_entry(
        seq, last["kind"], last["seat"], last["prev"], last["digest"], ["bob wins by decree"]
    )
    lines[-1] = chainlib.line(forged)
    path.write_bytes(b"".join(lines))
    fails(revealed.root, rf"entry #{seq}: the published chain line differs from the replay")


def rechain(table: Table, seq: int, signed: dict | None = None, seat: str | None = None) -> None:
    """Forge entry ``seq`` as a referee rewriting history would: replace its signed file
    and/or the seat its chain line names, then re-hash every later line so links hold."""
    from arbiter.core import chain as chainlib

    records = table.gd.reveal_signed.read_bytes().splitlines(keepends=True)
    if signed is not None:
        records[seq - 1] = canonical(signed) + b"\n"
        table.gd.reveal_signed.write_bytes(b"".join(records))
    lines = table.gd.chain.read_bytes().splitlines(keepends=True)
    prev = json.loads(lines[seq - 1])["hash"]
    for n in range(seq, len(lines)):
        old = json.loads(lines[n])
        digest = chainlib.sha256_hex(records[n - 1][:-1])
        who = seat if (n == seq and seat is not None) else old["seat"]
        entry = chainlib.make_entry(n, old["kind"], who, prev, digest, old["summary"])
        lines[n] = chainlib.line(entry)
        prev = entry["hash"]
    table.gd.chain.write_bytes(b"".join(lines))


def test_a_signed_file_swapped_for_another_is_named(revealed: Table) -> None:
    records = revealed.gd.reveal_signed.read_bytes().splitlines(keepends=True)
    records[3], records[4] = records[4], records[3]  # entries #4 and #5
    revealed.gd.reveal_signed.write_bytes(b"".join(records))
    fails(revealed.root, r"signed file of chain entry 4 does not match its chain digest")


def test_a_chain_line_naming_another_seat_is_named(revealed: Table) -> None:
    entry = json.loads(revealed.gd.chain.read_bytes().splitlines()[4])
    other = "alice" if entry["seat"] == "bob" else "bob"
    rechain(revealed, 4, seat=other)
    fails(revealed.root, r"entry #4: the signed file does not match its chain entry")


def test_a_signed_file_from_an_unknown_seat_is_named(revealed: Table) -> None:
    signed = json.loads(revealed.gd.reveal_signed.read_bytes().splitlines()[3])
    rechain(revealed, 4, signed={**signed, "seat": "mallory"}, seat="mallory")
    fails(revealed.root, r"entry #4: seat mallory is not a seat of game\.json")


def test_wrong_secret_in_reveal_record(revealed: Table) -> None:
    path = revealed.gd.reveal_record
    record = json.loads(path.read_bytes())
    record["secret"] = "00" * 32
    path.write_bytes(pretty(record))
    fails(revealed.root, r"secret does not match the commitment")


def test_reveal_record_at_another_head(revealed: Table) -> None:
    path = revealed.gd.reveal_record
    record = json.loads(path.read_bytes())
    record["head"] = "sha256:" + "0" * 64
    path.write_bytes(pretty(record))
    fails(revealed.root, r"head")


def test_unforced_flag_on_a_forced_reveal(playing: Table) -> None:
    """Hiding that a reveal was forced: the replayed game is not over, so verify notices."""
    reveal(playing.root, force=True)
    path = playing.gd.reveal_record
    record = json.loads(path.read_bytes())
    record["forced"] = False
    path.write_bytes(pretty(record))
    fails(playing.root, r"says the reveal was not forced, but the replayed game is not over")


def test_extra_line_in_revealed_signed_files(revealed: Table) -> None:
    """Every published byte counts: junk after the last accepted file is reported."""
    path = revealed.gd.reveal_signed
    data = path.read_bytes()
    path.write_bytes(data + data.splitlines(keepends=True)[-1])
    fails(revealed.root, r"signed\.jsonl has lines after entry #\d+")


def test_reveal_record_reformatted(revealed: Table) -> None:
    path = revealed.gd.reveal_record
    path.write_bytes(json.dumps(json.loads(path.read_bytes())).encode())
    fails(revealed.root, r"reveal/reveal\.json")


def test_a_reveal_cut_short_names_the_repair(revealed: Table) -> None:
    """A crash in the middle of writing reveal/signed.jsonl leaves it shorter than the
    chain: verify says so and that the referee's repair (or next command) heals it."""
    from arbiter.core.referee import repair

    signed = revealed.root / "reveal" / "signed.jsonl"
    whole = signed.read_bytes()
    signed.write_bytes(whole[: whole.rindex(b"\n", 0, len(whole) - 1) + 1])
    fails(revealed.root, r"missing from reveal/signed\.jsonl \(a write cut short .*`arbiter repair ")
    repair(revealed.root)
    assert signed.read_bytes() == whole
    assert verify(revealed.root).replayed
