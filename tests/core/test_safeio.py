"""Bounded, link-refusing reads (arbiter.core.safeio) and the readers built on them.

A player can commit a symlink, a FIFO or a huge file to a shared inbox: the referee must
refuse each with a one-line message that quotes nothing of what lies behind it, must
not hang and must not read more than 1 MiB + 1 byte. Parse errors give positions, not
the file's bytes.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import pytest

from arbiter.core import canonical, safeio
from arbiter.core.canonical import parse_canonical, parse_strict
from arbiter.core.errors import MalformedInput, NotReady, Tampered, UsageError
from arbiter.core.ledger import read_json
from arbiter.core.safeio import (
    MAX_BYTES,
    open_nofollow,
    open_nofollow_read,
    read_input,
    refuse_links,
    shown,
    visible,
)

SECRET = b"1.25e3 secret-seed-0123456789abcdef"
"""Private bytes that a symlink or a parse error must never show."""


def one_line(exc: BaseException) -> str:
    message = str(getattr(exc, "message", exc))
    assert message and "\n" not in message and "\r" not in message, repr(message)
    return message


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    private = tmp_path / "referee"
    private.mkdir()
    path = private / "secret"
    path.write_bytes(SECRET)
    return path


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "move.fifo"
    os.mkfifo(path)
    return path


def assert_quotes_nothing(message: str) -> None:
    for fragment in (b"1.25", b"secret-seed", b"0123456789"):
        assert fragment.decode() not in message, message


# -- read_input ----------------------------------------------------------------------


def test_read_input_returns_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "move.json"
    path.write_bytes(b'{"a": 1}')
    assert read_input(path) == b'{"a": 1}'
    assert read_input(str(path)) == b'{"a": 1}'


def test_read_input_refuses_a_symlink_and_quotes_nothing(tmp_path: Path, secret: Path) -> None:
    link = tmp_path / "move.json"
    link.symlink_to(secret)
    with pytest.raises(MalformedInput, match="is a symlink: give the file itself") as caught:
        read_input(link)
    assert_quotes_nothing(one_line(caught.value))
    assert caught.value.exit_code == 3


def test_read_input_refuses_a_dangling_symlink_as_a_symlink(tmp_path: Path) -> None:
    link = tmp_path / "move.json"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(MalformedInput, match="symlink"):
        read_input(link)


def test_read_input_refuses_a_fifo_without_hanging(fifo: Path) -> None:
    done: list[BaseException] = []

    def attempt() -> None:
        try:
            read_input(fifo)
        except BaseException as exc:  # handed to the test thread
            done.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "reading a FIFO hung"
    assert isinstance(done[0], MalformedInput), done
    assert "is a FIFO: give a regular file" in one_line(done[0])


def test_read_input_refuses_a_device() -> None:
    with pytest.raises(MalformedInput, match="is a device: give a regular file"):
        read_input("/dev/zero")


def test_read_input_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(MalformedInput, match="is a directory: give a regular file"):
        read_input(tmp_path)


def test_read_input_refuses_a_socket(tmp_path: Path) -> None:
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(MalformedInput, match="is a socket"):
            read_input(path)
    finally:
        server.close()


def test_read_input_reads_at_most_limit_plus_one_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_BYTES + 5000))
    asked: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(safeio.os, "read", counting_read)
    with pytest.raises(MalformedInput, match="is larger than 1 MiB: send a smaller file"):
        read_input(path)
    assert sum(asked) == MAX_BYTES + 1


def test_read_input_accepts_exactly_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "full.json"
    path.write_bytes(b"x" * 100)
    assert len(read_input(path, limit=100)) == 100
    with pytest.raises(MalformedInput, match="larger than 99 bytes"):
        read_input(path, limit=99)


def test_read_input_missing_file_is_not_ready(tmp_path: Path) -> None:
    with pytest.raises(NotReady, match="not found, check the path") as caught:
        read_input(tmp_path / "nope.json")
    assert caught.value.exit_code == 17


def test_read_input_names_the_file_as_told(tmp_path: Path) -> None:
    link = tmp_path / "m.json"
    link.symlink_to(tmp_path)
    with pytest.raises(MalformedInput, match=r"^state file m\.json is a symlink"):
        read_input(link, "state file m.json")


def test_read_input_escapes_the_name(tmp_path: Path) -> None:
    path = tmp_path / "m[@click=(]\x1b[31m.json"
    path.mkdir()
    with pytest.raises(MalformedInput) as caught:
        read_input(path)
    message = one_line(caught.value)
    assert "\x1b" not in message and "m[@click=(]\\x1b[31m.json" in message


def test_max_bytes_matches_the_parser() -> None:
    assert MAX_BYTES == canonical.MAX_BYTES


# -- open_nofollow_read / open_nofollow (the game folder's own files) ------------------


def test_open_nofollow_read_reads_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "chain.jsonl"
    path.write_bytes(b"line\n")
    assert open_nofollow_read(path, 100) == b"line\n"


def test_open_nofollow_read_refuses_a_final_symlink(tmp_path: Path, secret: Path) -> None:
    link = tmp_path / "chain.jsonl"
    link.symlink_to(secret)
    with pytest.raises(Tampered, match="chain.jsonl is a symlink") as caught:
        open_nofollow_read(link, MAX_BYTES)
    assert caught.value.exit_code == 15
    assert_quotes_nothing(one_line(caught.value))


def test_open_nofollow_read_follows_a_symlinked_folder(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "game.json").write_bytes(b"{}")
    (tmp_path / "games").symlink_to(real)
    assert open_nofollow_read(tmp_path / "games" / "game.json", 10) == b"{}"


def test_open_nofollow_read_refuses_special_files_and_excess(tmp_path: Path, fifo: Path) -> None:
    with pytest.raises(Tampered, match="is a FIFO"):
        open_nofollow_read(fifo, MAX_BYTES)
    with pytest.raises(Tampered, match="is a device"):
        open_nofollow_read("/dev/zero", MAX_BYTES)
    with pytest.raises(Tampered, match="is a directory"):
        open_nofollow_read(tmp_path, MAX_BYTES)
    path = tmp_path / "state.json"
    path.write_bytes(b"y" * 11)
    with pytest.raises(Tampered, match="larger than 10 bytes"):
        open_nofollow_read(path, 10)


def test_open_nofollow_read_leaves_a_missing_file_to_the_caller(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_nofollow_read(tmp_path / "signed.jsonl", MAX_BYTES)


def test_open_nofollow_streams_and_refuses_a_symlink(tmp_path: Path, secret: Path) -> None:
    path = tmp_path / "signed.jsonl"
    path.write_bytes(b"a\nb\n")
    with open_nofollow(path) as handle:
        assert handle.readline() == b"a\n"
    link = tmp_path / "link.jsonl"
    link.symlink_to(secret)
    with pytest.raises(Tampered, match="symlink"):
        open_nofollow(link)


# -- refuse_links ----------------------------------------------------------------------


def test_refuse_links_accepts_a_plain_folder(tmp_path: Path) -> None:
    (tmp_path / "players" / "alice").mkdir(parents=True)
    (tmp_path / "players" / "alice" / "state.json").write_bytes(b"{}")
    (tmp_path / "game.json").write_bytes(b"{}")
    refuse_links(tmp_path, "game folder")


def test_refuse_links_names_the_first_link_in_sorted_order(tmp_path: Path, secret: Path) -> None:
    (tmp_path / "players" / "bob").mkdir(parents=True)
    (tmp_path / "players" / "bob" / "state.json").symlink_to(secret)
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "log.md").symlink_to(secret)
    with pytest.raises(Tampered, match=r"game folder: players/bob/state\.json is a symlink"):
        refuse_links(tmp_path, "game folder")


def test_refuse_links_refuses_a_symlinked_folder_without_entering_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "game"
    root.mkdir()
    (root / "referee").symlink_to(elsewhere)
    with pytest.raises(Tampered, match="referee is a symlink") as caught:
        refuse_links(root, "game folder")
    assert caught.value.exit_code == 15


def test_refuse_links_refuses_a_fifo_and_a_socket(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "chain.jsonl")
    with pytest.raises(Tampered, match="chain.jsonl is a FIFO"):
        refuse_links(tmp_path, "game folder")
    os.unlink(tmp_path / "chain.jsonl")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock"))
        with pytest.raises(Tampered, match="sock is a socket"):
            refuse_links(tmp_path, "game folder")
    finally:
        server.close()


def test_refuse_links_accepts_a_root_reached_through_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "game.json").write_bytes(b"{}")
    (tmp_path / "game").symlink_to(real)
    refuse_links(tmp_path / "game", "game folder")


def test_refuse_links_missing_root_is_not_ready(tmp_path: Path) -> None:
    with pytest.raises(NotReady, match="game folder not found"):
        refuse_links(tmp_path / "nowhere", "game folder")


# -- visible / shown -------------------------------------------------------------------


def test_visible_escapes_control_characters() -> None:
    assert visible("a\x1b[31mb\r\n\t\x07\x7f\x9b") == "a\\x1b[31mb\\r\\n\\t\\x07\\x7f\\x9b"
    assert visible("bidi\u202eevil\u2028") == "bidi\\u202eevil\\u2028"
    assert visible("caf\u00e9 [ok] ✓") == "caf\u00e9 [ok] ✓"
    assert visible("bad\udcffname") == "bad\\udcffname"  # an undecodable byte of a file name


def test_shown_shortens_long_paths() -> None:
    text = shown("x" * 500)
    assert len(text) == 120 and text.endswith("…")


# -- the readers that use safeio -------------------------------------------------------


def test_read_json_refuses_a_symlinked_state_file(tmp_path: Path, secret: Path) -> None:
    link = tmp_path / "state.json"
    link.symlink_to(secret)
    with pytest.raises(MalformedInput, match="symlink") as caught:
        read_json(link, "state file")
    assert_quotes_nothing(one_line(caught.value))


def test_read_json_refuses_a_fifo(fifo: Path) -> None:
    with pytest.raises(MalformedInput, match="FIFO"):
        read_json(fifo, "state file")


def test_read_public_key_refuses_links_and_devices(tmp_path: Path, secret: Path) -> None:
    from arbiter.core.signing import read_public_key

    link = tmp_path / "alice.pub"
    link.symlink_to(secret)
    with pytest.raises(UsageError, match="is a symlink") as caught:
        read_public_key(str(link))
    assert_quotes_nothing(one_line(caught.value))
    with pytest.raises(UsageError, match="is a device"):
        read_public_key("/dev/zero")


def test_signing_key_refuses_links_and_devices(tmp_path: Path) -> None:
    from arbiter.core.signing import keygen, sign

    private, _ = keygen("alice", tmp_path / "keys")
    link = tmp_path / "alias"
    link.symlink_to(private)
    with pytest.raises(UsageError, match="key file .*alias is a symlink"):
        sign({"a": 1}, link, "arbiter-move")
    with pytest.raises(UsageError, match="key file /dev/zero is a device"):
        sign({"a": 1}, Path("/dev/zero"), "arbiter-move")


def test_data_files_refuse_links_fifos_and_devices(
    tmp_path: Path, secret: Path, fifo: Path
) -> None:
    from arbiter.core import datafile

    def load(path: Path | str) -> object:
        return datafile.load(str(path), "card table", "cards.schema.json", lambda data: None)

    good = tmp_path / "cards.json"
    good.write_text(json.dumps({"cards": []}))
    assert load(good) == {"cards": []}
    link = tmp_path / "cards-link.json"
    link.symlink_to(secret)
    with pytest.raises(UsageError, match="is a symlink") as caught:
        load(link)
    assert_quotes_nothing(one_line(caught.value))
    with pytest.raises(UsageError, match="is a FIFO"):
        load(fifo)
    with pytest.raises(UsageError, match="is a device"):
        load("/dev/zero")
    with pytest.raises(UsageError, match="cannot read card table"):
        load(tmp_path / "missing.json")


# -- parse errors give positions, never the file's bytes -------------------------------


@pytest.mark.parametrize(
    ("data", "words", "where"),
    [
        (b'{"a": 1.25e3}', "is not an integer", "line 1 column 7"),
        (b"[\n  1, 31415926535897932384626]", "out of range", "line 2 column 6"),
        (b'{"k": 90071992547409931}', "out of range", "line 1 column 7"),
        (b'{"k": -Infinity}', "NaN or Infinity", "line 1 column 7"),
        (b'{"x":\n{"s3cr3t key!": 1, "s3cr3t key!": 2}}', "duplicate key", "line 2 column 20"),
    ],
)
def test_parse_errors_give_a_position_not_the_content(data: bytes, words: str, where: str) -> None:
    with pytest.raises(MalformedInput) as caught:
        parse_strict(data, "move.json")
    message = one_line(caught.value)
    assert message.startswith("move.json") and words in message and where in message
    for fragment in ("1.25", "3141592", "9007199254740993", "s3cr3t"):
        assert fragment not in message, message


def test_a_duplicate_plain_field_name_is_named() -> None:
    with pytest.raises(MalformedInput, match="duplicate key 'seat' at line 1 column 17"):
        parse_strict(b'{"seat": "a",   "seat": "b"}', "move.json")


def test_parse_canonical_reports_like_parse_strict() -> None:
    with pytest.raises(MalformedInput, match=r"^signed file 3: the number at line 1 column 6"):
        parse_canonical(b'{"a":1.5}', "signed file 3")


def test_a_secret_behind_a_parse_error_is_not_quoted() -> None:
    with pytest.raises(MalformedInput) as caught:
        parse_strict(SECRET, "move.json")
    assert_quotes_nothing(one_line(caught.value))
