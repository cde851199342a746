"""The game folder's own files are opened without following links (issue 10, items 5–6)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers.tables import Table, expect_rejection, snapshot, started

from arbiter.core.canonical import pretty
from arbiter.core.errors import Tampered, VerificationFailed
from arbiter.core.replay import verify

SMALL = {"cards": "4", "hand": "1"}


@pytest.fixture
def table(tmp_path: Path) -> Table:
    table = started(tmp_path, options=SMALL)
    table.step()
    return table


def next_move(table: Table) -> bytes:
    seat = table.turn()
    return pretty(table.move_file(seat, [table.state(seat)["legal"][0]]))


def test_a_symlinked_player_folder_is_refused_and_nothing_is_written_outside(
    table: Table, tmp_path: Path
) -> None:
    move = next_move(table)
    outside = tmp_path / "outside"
    shutil.move(table.root / "players" / "alice", outside)
    os.symlink(outside, table.root / "players" / "alice")
    before_outside = snapshot(outside)
    exc = expect_rejection(table, Tampered, 15, table.submit_bytes, move)
    assert "players/alice" in exc.message and "link" in exc.message
    assert snapshot(outside) == before_outside


def test_a_symlinked_state_file_is_refused(table: Table, tmp_path: Path) -> None:
    move = next_move(table)
    target = tmp_path / "elsewhere.json"
    target.write_bytes(table.gd.public_state.read_bytes())
    table.gd.public_state.unlink()
    os.symlink(target, table.gd.public_state)
    expect_rejection(table, Tampered, 15, table.submit_bytes, move)
    with pytest.raises(VerificationFailed, match="link"):
        verify(table.root)


@pytest.mark.parametrize("which", ["public_state", "referee_signed", "public_log"])
def test_a_folder_where_a_file_belongs_is_refused_before_the_commit(table: Table, which: str) -> None:
    """Today's traceback came after the chain commit: now nothing is written at all."""
    move = next_move(table)
    path = getattr(table.gd, which)
    data = path.read_bytes()
    path.unlink()
    path.mkdir()
    (path / "x").write_bytes(b"")
    chain = table.gd.chain.read_bytes()
    exc = expect_rejection(table, Tampered, 15, table.submit_bytes, move)
    assert "is a folder, not a file" in exc.message
    assert table.gd.chain.read_bytes() == chain
    shutil.rmtree(path)
    path.write_bytes(data)
    table.submit_bytes(move)


def test_a_fifo_in_the_folder_is_refused(table: Table) -> None:
    move = next_move(table)
    os.mkfifo(table.root / "public" / "pipe")
    expect_rejection(table, Tampered, 15, table.submit_bytes, move)


def test_a_symlinked_game_json_is_tampering(table: Table, tmp_path: Path) -> None:
    move = next_move(table)
    target = tmp_path / "game.json"
    target.write_bytes(table.gd.manifest.read_bytes())
    table.gd.manifest.unlink()
    os.symlink(target, table.gd.manifest)
    expect_rejection(table, Tampered, 15, table.submit_bytes, move)


@pytest.mark.parametrize("where", ["chain", "reveal_signed"])
def test_verify_reads_an_endless_line_in_bounded_memory(tmp_path: Path, where: str) -> None:
    """A hostile published folder with a 64 MiB line: one-line failure, no MemoryError."""
    table = started(tmp_path, options=SMALL)
    table.step()
    from arbiter.core.referee import reveal

    reveal(table.root, force=True)
    path = getattr(table.gd, where)
    with open(path, "ab") as handle:
        handle.truncate(path.stat().st_size + 64 * 1024 * 1024)  # sparse: zeros, no newline
    with pytest.raises(VerificationFailed) as caught:
        verify(table.root)
    assert "\n" not in caught.value.message
