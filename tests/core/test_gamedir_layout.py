"""The folder layout is checked from one listing per folder (issue 25): the walk of
``check_links`` when it just ran, else one ``scandir`` per folder; the verdicts and
messages are those of the per-path checks they replace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arbiter.core.errors import Tampered
from arbiter.core.gamedir import GameDir

SEATS = ["alice", "bob"]


@pytest.fixture
def game(tmp_path: Path) -> GameDir:
    """A published game folder's files (contents do not matter here)."""
    root = tmp_path / "game"
    for name in (
        "game.json",
        "chain.jsonl",
        "public/state.json",
        "public/log.md",
        "reveal/reveal.json",
        "reveal/signed.jsonl",
        *(f"players/{seat}/{file}" for seat in SEATS for file in ("state.json", "log.md")),
    ):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")
    return GameDir(root)


def layout_error(gd: GameDir, links_first: bool) -> str | None:
    try:
        if links_first:
            gd.check_links()
        gd.check_layout(SEATS)
    except Tampered as exc:
        return exc.message
    return None


def folder_for_file(gd: GameDir, path: Path) -> None:
    path.unlink(missing_ok=True)
    path.mkdir(parents=True)


@pytest.mark.parametrize("links_first", [True, False])
def test_a_sound_folder_passes(game: GameDir, links_first: bool) -> None:
    assert layout_error(game, links_first) is None


@pytest.mark.parametrize("links_first", [True, False])
@pytest.mark.parametrize(
    "which",
    ["manifest", "public_state", "reveal_signed", "secret", "sealed_index"],
)
def test_a_folder_where_a_file_belongs(game: GameDir, links_first: bool, which: str) -> None:
    path = getattr(game, which)
    folder_for_file(game, path)
    assert layout_error(game, links_first) == (
        f"{path} is a folder, not a file: move it away so arbiter can rewrite it"
    )


@pytest.mark.parametrize("links_first", [True, False])
def test_a_seat_file_that_is_a_folder_is_named(game: GameDir, links_first: bool) -> None:
    folder_for_file(game, game.seat_log("bob"))
    assert layout_error(game, links_first) == (
        f"{game.seat_log('bob')} is a folder, not a file: move it away so arbiter can rewrite it"
    )


@pytest.mark.parametrize("links_first", [True, False])
def test_the_first_wrong_path_in_the_old_order_is_named(game: GameDir, links_first: bool) -> None:
    folder_for_file(game, game.seat_state("alice"))
    folder_for_file(game, game.reveal_record)  # checked before the seats' files
    assert layout_error(game, links_first).startswith(f"{game.reveal_record} is a folder")


@pytest.mark.parametrize("links_first", [True, False])
@pytest.mark.parametrize("name", ["public", "players", "referee", "reveal"])
def test_a_file_where_a_folder_belongs(game: GameDir, links_first: bool, name: str) -> None:
    folder = game.root / name
    if folder.is_dir():
        for path in sorted(folder.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
        folder.rmdir()
    folder.write_text("x")
    assert layout_error(game, links_first) == f"{folder} is a file, not a folder: move it away"


def test_the_walks_listing_serves_one_check_only(game: GameDir) -> None:
    """check_layout uses what check_links saw once: a later call lists afresh."""
    game.check_links()
    game.check_layout(SEATS)
    folder_for_file(game, game.public_log)
    with pytest.raises(Tampered, match="public/log.md is a folder"):
        game.check_layout(SEATS)


def test_a_symlink_is_followed_as_exists_follows_it(game: GameDir, tmp_path: Path) -> None:
    """Without check_links first (which refuses links), a link is judged by its target."""
    (tmp_path / "elsewhere").mkdir()
    game.public_state.unlink()
    game.public_state.symlink_to(tmp_path / "elsewhere")
    assert layout_error(game, False) == (
        f"{game.public_state} is a folder, not a file: move it away so arbiter can rewrite it"
    )
    game.public_state.unlink()
    game.public_state.symlink_to(tmp_path / "nowhere")  # dangling: nothing there
    assert layout_error(game, False) is None
    with pytest.raises(Tampered, match="symlink"):
        game.check_links()


@pytest.mark.parametrize("links_first", [True, False])
def test_a_relative_root(game: GameDir, links_first: bool, monkeypatch) -> None:
    folder_for_file(game, game.public_state)
    monkeypatch.chdir(game.root)
    assert layout_error(GameDir("."), links_first) == (
        "public/state.json is a folder, not a file: move it away so arbiter can rewrite it"
    )
    monkeypatch.chdir(game.root.parent)
    assert layout_error(GameDir("game/"), links_first) == (
        "game/public/state.json is a folder, not a file: move it away so arbiter can rewrite it"
    )


def test_a_fifo_is_named_by_check_links(game: GameDir) -> None:
    os.mkfifo(game.root / "public" / "pipe")
    with pytest.raises(Tampered, match=r"public/pipe is a FIFO"):
        game.check_links()


def test_the_fingerprint_sees_a_replaced_file(game: GameDir) -> None:
    before = game.fingerprint()
    assert before == game.fingerprint()
    (game.root / "players" / "bob" / "new.json").write_text("y")
    os.replace(game.root / "players" / "bob" / "new.json", game.seat_state("bob"))
    after = game.fingerprint()
    assert after != before
    assert [entry[0] for entry in after] == [entry[0] for entry in before]
    assert str(game.seat_state("bob")) in [entry[0] for entry in after]
