"""Drop-outs through the CLI (docs/peer.md §7): deadlines counted on each signer's own
clock, a seat that stays silent forfeits once every other seat has timed it out, or,
under escrow with a notary, is rebuilt from the holders' shares and played by a bot to
the end, and the finished game verifies; a forged timeout file stops every reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import Cli, error_line, new_peer_game, ok

SEATS = ["alice", "bob", "carol"]
T0, EARLY, LATE = "2026-12-05T10:00:00Z", "2026-12-05T10:30:00Z", "2026-12-05T11:30:00Z"


def _deal(cli: Cli, root: Path, rounds: int) -> None:
    keys = root.parent / "keys"
    for seat in SEATS:
        ok(cli("peer", "join", root, "--seat", seat, "--key", keys / seat))
    for _ in range(rounds):
        for seat in SEATS:
            ok(cli("peer", "play", root, "--seat", seat, "--key", keys / seat))


def _dealt(cli: Cli, home: Path, name: str) -> tuple[Path, str, list[str]]:
    """A dealt Mot Coin game with a one-hour deadline: its folder, the seat whose decision
    it waits for, and the other seats."""
    root = new_peer_game(cli, home, name, "motcoin", SEATS, "--deadline", "1h")
    _deal(cli, root, 3)
    silent = _prompted(cli, root)
    return root, silent, [s for s in SEATS if s != silent]


def _prompted(cli: Cli, root: Path) -> str:
    waits = ok(cli("peer", "status", root)).out.splitlines()[0]
    assert "decision" in waits, waits
    return waits.split("waits for: ")[1].split("'s decision")[0]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARBITER_NOW", T0)
    return tmp_path


def test_a_silent_seat_forfeits_once_every_other_seat_times_it_out(
    cli: Cli, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, silent, others = _dealt(cli, home, "quiet")
    terms = json.loads((root / "game.json").read_text())
    assert terms["dropout"] == {"seconds": 3600, "remedy": "forfeit"}
    keys = home / "keys"
    for seat in others:  # each notes when it saw the round open
        shown = ok(cli("peer", "status", root, "--seat", seat)).out
        assert f"{silent} has until 2026-12-05T11:00:00Z by your clock" in shown
    mine = ok(cli("peer", "status", root, "--seat", silent)).out
    assert "you have until 2026-12-05T11:00:00Z by your clock" in mine
    monkeypatch.setenv("ARBITER_NOW", EARLY)
    early = cli("peer", "timeout", root, "--seat", others[0], "--key", keys / others[0])
    assert "has until 2026-12-05T11:00:00Z" in error_line(early, 2)
    assert not (root / "timeouts").exists()
    monkeypatch.setenv("ARBITER_NOW", LATE)
    first = ok(cli("peer", "timeout", root, "--seat", others[0], "--key", keys / others[0]))
    assert f"{silent} did not answer round" in first.out and "game is over" not in first.out
    assert f"{silent}'s timeout takes effect once {others[1]} signs too" in first.out
    again = ok(cli("peer", "timeout", root, "--seat", others[0], "--key", keys / others[0]))
    assert "already" in again.out
    last = ok(cli("peer", "timeout", root, "--seat", others[1], "--key", keys / others[1]))
    assert f"{silent} did not answer in time and forfeits" in last.out
    assert "forfeits (ranked last)" in ok(cli("peer", "status", root)).out
    late = cli("peer", "play", root, "--seat", silent, "--key", keys / silent, "--bot")
    assert "it forfeited" in error_line(late, 2)
    verified = ok(cli("verify", root))
    assert f"{silent} timed out in round" in verified.out and "forfeits" in verified.out


def test_a_seat_that_owes_nothing_cannot_be_timed_out(
    cli: Cli, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _, (idle, signer) = _dealt(cli, home, "busy")
    monkeypatch.setenv("ARBITER_NOW", LATE)
    keys = home / "keys"
    refused = cli(
        "peer", "timeout", root, "--seat", signer, "--key", keys / signer, "--absent", idle
    )
    assert f"{idle} owes nothing now" in error_line(refused, 2)


@pytest.mark.parametrize("whole", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_escrow_with_a_notary_rebuilds_the_seat_and_the_game_verifies(
    cli: Cli, home: Path, monkeypatch: pytest.MonkeyPatch, whole: bool
) -> None:
    """The default run stops once the bot has decided for the silent seat; the slow one
    plays on to the end and verifies the game (a CLI game of Mot Coin takes a minute)."""
    ok(cli("keygen", "notary", "--dir", home / "notary"))
    notary = home / "notary" / "notary"
    root = new_peer_game(
        cli, home, "escrowed", "motcoin", SEATS,
        "--deadline", "1h", "--remedy", "escrow", "--notary", f"{notary}.pub",
    )  # fmt: skip
    terms = json.loads((root / "game.json").read_text())
    assert terms["dropout"]["remedy"] == "escrow" and "key" in terms["notary"]
    _deal(cli, root, 3)
    keys = home / "keys"
    key_message = json.loads((root / "messages" / "000000-alice.json").read_text())
    assert [s["holder"] for s in key_message["escrow"]["shares"]] == ["bob", "carol", "notary"]
    silent = _prompted(cli, root)
    others = [s for s in SEATS if s != silent]
    waiting = ok(cli("peer", "notary", root, "--key", notary))
    assert f"{silent} owes until 2026-12-05T11:00:00Z" in waiting.out
    for seat in others:
        ok(cli("peer", "status", root, "--seat", seat))
    monkeypatch.setenv("ARBITER_NOW", LATE)
    stamped = ok(cli("peer", "notary", root, "--key", notary))
    assert f"{silent} did not answer round" in stamped.out and "bot" not in stamped.out
    assert f"takes effect once {others[0]} and {others[1]} sign too" in stamped.out
    ok(cli("peer", "timeout", root, "--seat", others[0], "--key", keys / others[0]))

    def acts() -> int:
        log = ok(cli("peer", "status", root, "--log", "10000")).out.splitlines()
        return sum(line.startswith(f"  {silent} ") for line in log)

    # Counted before the timeout takes effect: the bot may decide at once (and pass out
    # of the auction for a while).
    acted = acts()
    rebuilt = ok(cli("peer", "timeout", root, "--seat", others[1], "--key", keys / others[1]))
    assert f"{silent} is out: its escrow rebuilt its key, and a bot plays its seat" in rebuilt.out
    decided = len(list((root / "messages").glob("*.json")))
    for _ in range(400):
        status = ok(cli("peer", "status", root)).out
        if "the game is over" in status:
            break
        if not whole and f"{silent}'s decision" in status:
            return pytest.fail("the bot did not decide for the silent seat")
        if not whole and len(list((root / "messages").glob("*.json"))) > decided + 6:
            assert f"{silent} timed out in round" in status
            assert acts() > acted, "the bot decided for the silent seat"
            return None
        for seat in others:
            ok(cli("peer", "play", root, "--seat", seat, "--key", keys / seat, "--bot"))
    else:
        pytest.fail("the game did not end")
    assert f"{silent} timed out in round" in status and "a bot plays its seat" in status
    for seat in others:
        ok(cli("peer", "reveal", root, "--seat", seat, "--key", keys / seat))
    verified = ok(cli("verify", root))
    assert "every view and log as played" in verified.out
    assert "its escrow rebuilt its key" in verified.out


def test_escrow_for_two_seats_needs_a_notary(cli: Cli, home: Path) -> None:
    keys = home / "keys"
    for seat in ("alice", "bob"):
        ok(cli("keygen", seat, "--dir", keys))
    made = cli(
        "peer", "new", home / "pair", "--game", "momiji", "--deadline", "1d", "--remedy", "escrow",
        "--seat", f"alice={keys / 'alice'}.pub", "--seat", f"bob={keys / 'bob'}.pub",
    )  # fmt: skip
    assert "name a notary" in error_line(made, 2)
    assert not (home / "pair" / "game.json").exists()


def test_a_forged_timeout_stops_every_reader(
    cli: Cli, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _, (signer, _) = _dealt(cli, home, "forged")
    ok(cli("peer", "status", root, "--seat", signer))
    monkeypatch.setenv("ARBITER_NOW", LATE)
    ok(cli("peer", "timeout", root, "--seat", signer, "--key", home / "keys" / signer))
    (path,) = (root / "timeouts").glob("*.json")
    doc = json.loads(path.read_text())
    doc["at"] = "2026-12-05T10:00:01Z"  # the signature no longer covers it
    path.write_text(json.dumps(doc))
    read = cli("peer", "status", root)
    assert f"timeouts/{path.name}" in error_line(read, 15)


def test_a_seat_that_never_joins_forfeits_while_the_others_answers_stay_void(
    cli: Cli, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A timeout completed in a round where the other seats had already answered (the
    keys round): the game ends there, and every later read still works, their answers
    being void."""
    root = new_peer_game(cli, home, "absent", "momiji", SEATS, "--deadline", "1h")
    keys = home / "keys"
    for seat in SEATS[:2]:
        ok(cli("peer", "join", root, "--seat", seat, "--key", keys / seat))
    monkeypatch.setenv("ARBITER_NOW", LATE)
    for seat in SEATS[:2]:
        ok(cli("peer", "timeout", root, "--seat", seat, "--key", keys / seat))
    for reader in (None, *SEATS):
        shown = ok(cli("peer", "status", root, *(["--seat", reader] if reader else [])))
        assert "carol did not answer round 0 in time and forfeits" in shown.out
    assert "carol timed out in round 0" in ok(cli("verify", root)).out
