"""The players file: names are seat ids, keys are OpenSSH public keys, no duplicates."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.core.errors import UsageError
from arbiter.tournament.players import parse, read
from tournament.kit import players_file


def _keys(tmp_path: Path, names: list[str]) -> dict[str, str]:
    _, keys = players_file(tmp_path, names)
    return {
        name: " ".join(Path(str(keys[name]) + ".pub").read_text().split()[:2]) for name in names
    }


def test_names_keys_comments_blank_lines(tmp_path: Path) -> None:
    keys = _keys(tmp_path, ["alice", "bob"])
    text = (
        f"# spring cup\n\n  alice {keys['alice']} Alice A. <a@example.org>\n\nbob {keys['bob']}\n"
    )
    players = parse(text)
    assert [(p.name, p.key, p.comment) for p in players] == [
        ("alice", keys["alice"], "Alice A. <a@example.org>"),
        ("bob", keys["bob"], ""),
    ]


def test_read_file(tmp_path: Path) -> None:
    path, _ = players_file(tmp_path, ["alice", "bob", "carol"], header="# three")
    assert [p.name for p in read(path)] == ["alice", "bob", "carol"]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("Alice {a}", "name 'Alice' must start with a-z"),
        ("al ice {a}", "'ice' is not a key type"),
        ("alice", "expected 'NAME ssh-ed25519 AAAA... [comment]'"),
        ("alice ssh-dss AAAAB3NzaC1kc3M=", "ssh-dss keys are not supported"),
        ("alice ssh-ed25519 AAAA!!", "line 1"),
    ],
)
def test_refusals(tmp_path: Path, line: str, says: str) -> None:
    keys = _keys(tmp_path, ["alice"])
    with pytest.raises(UsageError) as info:
        parse(line.format(a=keys["alice"]))
    assert says in info.value.message
    assert "\n" not in info.value.message and info.value.exit_code == 2


def test_duplicate_name_and_duplicate_key(tmp_path: Path) -> None:
    keys = _keys(tmp_path, ["alice", "bob"])
    with pytest.raises(UsageError, match=r"line 3: alice is already listed on line 1"):
        parse(f"alice {keys['alice']}\nbob {keys['bob']}\nalice {keys['bob']}\n")
    with pytest.raises(UsageError, match=r"line 2: carol has the same key as line 1"):
        parse(f"alice {keys['alice']}\ncarol {keys['alice']} again\n")


def test_missing_file_is_not_ready(tmp_path: Path) -> None:
    from arbiter.core.errors import NotReady

    with pytest.raises(NotReady):
        read(tmp_path / "nope.txt")
