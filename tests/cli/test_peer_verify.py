"""``arbiter verify`` of a peer game (docs/peer.md §8): every signature and proof while it
goes on; once it is over and every seat has published its secret (``arbiter peer
reveal``), the decks decrypted and the game replayed through the normal engine, every
view and log as played. A false secret, or a reveal before the end, is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import Cli, error_line, new_peer_game, ok
from helpers.peer_play import chooser

from arbiter.core import signing
from arbiter.peer import folder as files
from arbiter.peer.seat import PeerSeat

SEATS = ["alice", "bob", "carol"]


def _play(root: Path, keys: Path, seed: int, stop: int | None = None) -> None:
    """Play the folder's game in one process, every seat a seeded bot, each message signed
    and written as ``arbiter peer play`` writes it (quicker than a process per message)."""
    terms = files.load_terms(root)
    saved = {s: x for s in SEATS if (x := files.read_secret(terms, s)) is not None}
    loaded = files.load(root, secrets=saved)
    seats = {s: loaded.players.get(s) or PeerSeat(loaded.game, s) for s in SEATS}
    choose = chooser(seed)
    while not loaded.game.over and (stop is None or loaded.game.round < stop):
        seat = next(s for s in SEATS if loaded.game.owed(s) is not None)
        if seats[seat].secret is None:
            seats[seat].secret = files.new_secret(loaded.terms, seat)
        loaded.write(seats[seat].compose(choose), keys / seat)


@pytest.fixture
def made(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    return new_peer_game(cli, tmp_path, "game", "motcoin", SEATS)


def test_a_finished_peer_game_replays_once_every_secret_is_out(cli: Cli, made: Path) -> None:
    keys = made.parent / "keys"
    _play(made, keys, 7, stop=40)
    going = ok(cli("verify", made)).out
    assert "every proof so far (the game goes on)" in going
    early = cli("peer", "reveal", made, "--seat", "alice", "--key", keys / "alice")
    assert "the game is not over" in error_line(early, 2)
    _play(made, keys, 7)
    for seat in SEATS[:2]:
        ok(cli("peer", "reveal", made, "--seat", seat, "--key", keys / seat))
    partial = ok(cli("verify", made)).out
    assert "stay unknown until carol publish" in partial
    ok(cli("peer", "reveal", made, "--seat", "carol", "--key", keys / "carol"))
    done = ok(cli("verify", made, "--json")).json()
    assert done["replayed"] and done["over"] and done["missing"] == []
    assert sorted(done["result"]["scores"]) == SEATS
    assert any(" decrypted" in line and "deck" in line for line in done["checks"])


def test_a_false_secret_is_refused(cli: Cli, made: Path) -> None:
    keys = made.parent / "keys"
    _play(made, keys, 8)
    for seat in SEATS:
        ok(cli("peer", "reveal", made, "--seat", seat, "--key", keys / seat))
    path = made / "reveals" / "bob.json"
    doc = json.loads(path.read_text())
    doc["secret"] = "05" + "00" * 31  # signed by bob, but not bob's secret
    doc.pop("signature")
    doc["signature"] = signing.sign(doc, keys / "bob", "arbiter-peer-reveal")
    path.write_text(json.dumps(doc))
    assert "not the one behind its per-game key" in error_line(cli("verify", made), 15)
    doc["secret"] = "06" + "00" * 31  # and one not even signed by bob
    path.write_text(json.dumps(doc))
    assert "reveals/bob.json" in error_line(cli("verify", made), 15)
