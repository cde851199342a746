"""``arbiter peer`` (docs/peer.md §6): three players who share only a folder make, join,
deal and play a Momiji game with no referee. Each keeps its secret in its own folder;
a forged message file stops every reader with a one-line reason naming it; a refused
decision leaves the folder byte for byte as it was."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest
from clikit import Cli, error_line, new_peer_game, ok

SEATS = ["alice", "bob", "carol"]


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}  # fmt: skip


@pytest.fixture
def table(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A dealt 3-seat Momiji peer game in a shared folder, waiting for alice's decision."""
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    root = new_peer_game(cli, tmp_path, "table", "momiji", SEATS)
    keys = tmp_path / "keys"
    for seat in SEATS:
        assert (
            "per-game key"
            in ok(cli("peer", "join", root, "--seat", seat, "--key", keys / seat)).out
        )
    for _ in range(4):  # the shuffles in seat order, then the deal's shares
        for seat in SEATS:
            ok(cli("peer", "play", root, "--seat", seat, "--key", keys / seat))
    return root


def _keys(root: Path) -> Path:
    return root.parent / "keys"


def test_the_deal_shows_each_player_only_its_hand(cli: Cli, table: Path) -> None:
    public = ok(cli("peer", "status", table)).out
    assert "round" in public and "waits for: alice's decision" in public
    assert "alice is dealt 6 cards." in public and "is dealt maple" not in public
    mine = ok(cli("peer", "status", table, "--seat", "bob")).out
    dealt = next(line for line in mine.splitlines() if "bob is dealt" in line)
    assert "6 cards" not in dealt and "alice is dealt 6 cards." in mine
    assert "?" not in mine.split("Momiji, turn 1")[1], "every card bob may see is open to him"
    # The secrets stay out of the shared folder, readable by their owner alone.
    home = table.parent / "home"
    secrets = sorted(p.name for p in home.iterdir() if p.suffix == ".secret")
    assert secrets == [f"table.{s}.secret" for s in SEATS]
    assert stat.S_IMODE((home / "table.bob.secret").stat().st_mode) == 0o600
    assert not any("secret" in p.name for p in table.rglob("*"))


def test_a_decision_is_checked_signed_and_answered(cli: Cli, table: Path) -> None:
    keys = _keys(table)
    status = ok(cli("peer", "status", table, "--seat", "alice")).out
    listed = status.split("your decisions (play --pick N, or --action JSON):\n")[1].splitlines()
    number, choice = next(
        (int(line.split(".")[0]), json.loads(line[line.index("{") :]))
        for line in listed
        if '"kind": "collect"' in line
    )
    before = _snapshot(table)
    wrong = cli("peer", "play", table, "--seat", "alice", "--key", keys / "alice",
                "--action", json.dumps({"kind": "collect", "type": "nothing"}))  # fmt: skip
    assert "garden holds no nothing card" in error_line(wrong, 12)
    not_hers = cli("peer", "play", table, "--seat", "bob", "--key", keys / "alice")
    assert "is not bob's key" in error_line(not_hers, 2)
    assert _snapshot(table) == before
    both = cli("peer", "play", table, "--seat", "alice", "--key", keys / "alice",
               "--pick", number, "--bot")  # fmt: skip
    assert "give one of --action, --pick and --bot" in error_line(both, 2)
    sent = ok(cli("peer", "play", table, "--seat", "alice", "--key", keys / "alice",
                  "--pick", number))  # fmt: skip
    assert "alice's decision" in sent.out
    for seat in SEATS:
        ok(cli("peer", "play", table, "--seat", seat, "--key", keys / seat))
    log = ok(cli("peer", "status", table, "--log", "30")).out
    assert f"alice collects the {choice['type']} cards from the garden" in log


def test_a_forged_message_file_stops_every_reader(cli: Cli, table: Path) -> None:
    """An edited file fails its signature; a cheat signed by its own seat (a wrong share)
    fails its proof. Either way every reader stops at that file, naming it."""
    from arbiter.core import signing
    from arbiter.peer.folder import NAMESPACE

    victim = sorted((table / "messages").glob("*-bob.json"))[-1]
    honest = victim.read_text()
    message = json.loads(honest)
    # Bob passes off carol's share of a card as his own: a valid point, not his share.
    carol = json.loads(sorted((table / "messages").glob("*-carol.json"))[-1].read_text())
    message["shares"][0]["share"] = carol["shares"][0]["share"]
    victim.write_text(json.dumps(message))
    line = error_line(cli("peer", "status", table), 15)
    assert f"messages/{victim.name}" in line and "signature" in line
    message["signature"] = signing.sign(message, _keys(table) / "bob", NAMESPACE)
    victim.write_text(json.dumps(message))
    line = error_line(cli("peer", "status", table), 15)
    assert f"messages/{victim.name}" in line and "decryption share" in line
    victim.write_text(honest)
    ok(cli("peer", "status", table))


def test_only_a_peer_ready_engine_is_played_with_no_referee(cli: Cli, tmp_path: Path) -> None:
    ok(cli("keygen", "ann", "--dir", tmp_path))
    seats = ["--seat", f"ann={tmp_path / 'ann.pub'}", "--seat", f"ben={tmp_path / 'ann.pub'}"]
    refused = cli("peer", "new", tmp_path / "g", "--game", "tally", *seats)
    assert "cannot be played with no referee yet: choose" in error_line(refused, 2)
    assert "mottainai" in error_line(refused, 2)
    assert not (tmp_path / "g").exists()


def test_a_file_changed_or_removed_after_a_seat_read_it_is_caught(cli: Cli, table: Path) -> None:
    """Each seat keeps a ledger of the files it read (beside its secret): a sender that
    replaces its message after others acted on it, or anyone deleting one, is caught."""
    ok(cli("peer", "status", table, "--seat", "bob"))
    victim = sorted((table / "messages").glob("*-alice.json"))[-1]
    honest = victim.read_bytes()
    victim.write_text(json.dumps(json.loads(honest), indent=1))  # same content, new bytes
    line = error_line(cli("peer", "status", table, "--seat", "bob"), 15)
    assert f"messages/{victim.name} changed since bob read it" in line
    ok(cli("peer", "status", table))  # a reader without a ledger only checks the content
    victim.unlink()
    line = error_line(cli("peer", "status", table, "--seat", "bob"), 15)
    assert f"messages/{victim.name} is gone since bob read it" in line
    victim.write_bytes(honest)
    ok(cli("peer", "status", table, "--seat", "bob"))


def test_two_seats_with_one_key_are_refused(cli: Cli, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    for seat in ("alice", "bob"):
        ok(cli("keygen", seat, "--dir", keys))
    made = cli(
        "peer", "new", tmp_path / "twice", "--game", "momiji",
        "--seat", f"alice={keys / 'alice'}.pub", "--seat", f"bob={keys / 'alice'}.pub",
        "--seat", f"carol={keys / 'bob'}.pub",
    )  # fmt: skip
    assert "two seats (or a seat and the notary) have one key" in error_line(made, 2)
    assert not (tmp_path / "twice" / "game.json").exists()
