"""Drop-outs (docs/peer.md §7), in one process with the real cryptography: a timed-out
seat forfeits the game, or, under key escrow, every holder's share rebuilds its secret
and a bot plays it on every machine alike, and the finished game is still the referee
game its decks decrypt to."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers.peer_play import Table, new_table, play
from helpers.tools import needs

from arbiter.core.errors import Tampered
from arbiter.core.peer import group
from arbiter.peer import escrow, reveal, standin
from arbiter.peer.protocol import KEY, PeerGame


def _ssh_keys(root: Path, names: list[str]) -> dict[str, tuple[Path, str]]:
    """An Ed25519 SSH key per name: its private key file and its public key line."""
    root.mkdir(parents=True, exist_ok=True)
    out = {}
    for name in names:
        key = Ed25519PrivateKey.generate()
        path = root / name
        path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.OpenSSH,
                serialization.NoEncryption(),
            )
        )
        path.chmod(0o600)
        line = key.public_key().public_bytes(
            serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
        )
        out[name] = (path, line.decode())
    return out


def _escrow_table(
    tmp_path: Path, name: str, seats: int, seed: int, notary: bool = False
) -> tuple[Table, dict[str, tuple[Path, str]]]:
    """A table under escrow whose seats deal their secrets with their keys."""
    table = new_table(name, seats, seed)
    game = table.game
    game.remedy, game.notary = "escrow", notary
    keys = _ssh_keys(tmp_path / "ssh", [*game.seats, *(["notary"] if notary else [])])
    for seat in game.seats:
        assert game.owed(seat).kind == KEY
        message = table.players[seat].compose(lambda *_: None)
        secret = table.players[seat].secret
        assert secret is not None
        owners = [(h, keys[h][1]) for h in game.holders(seat)]
        message["escrow"] = escrow.deal(secret, owners)
        table.messages.append(message)
        game.receive(message)
    return table, keys


def _shares(game: PeerGame, seat: str, keys: dict[str, tuple[Path, str]]) -> dict[int, bytes]:
    """What each holder publishes when it signs the timeout: its share, unsealed."""
    commitments, field = game.escrow[seat]
    return {
        i: escrow.open_share(field, commitments, i, keys[h][0], seat)
        for i, h in enumerate(game.holders(seat), start=1)
    }


def _mid_game(table: Table, seed: int, steps: int) -> str:
    """Play until ``steps`` steps are committed; return a seat that owes something then."""
    play(table, seed, until=lambda t, _s: len(t.game.history) > steps)
    return next(s for s in table.game.seats if table.game.owed(s) is not None)


def test_a_timed_out_seat_forfeits_and_the_game_ends() -> None:
    table = new_table("motcoin", 3, 1)
    table.game.remedy = "forfeit"
    silent = _mid_game(table, 1, 5)
    table.game.timeout(silent)
    assert (
        table.game.over
        and table.game.forfeit == silent
        and table.game.out == {silent: table.game.round}
    )
    other = next(s for s in table.game.seats if s != silent)
    with pytest.raises(ValueError, match="owes nothing"):
        table.players[other].compose(lambda *_: None)


def test_only_a_seat_that_owes_can_time_out() -> None:
    table = new_table("motcoin", 3, 1)
    silent = _mid_game(table, 1, 5)
    idle = next(s for s in table.game.seats if table.game.owed(s) is None and s != silent)
    with pytest.raises(Tampered, match="owes nothing"):
        table.game.timeout(idle)


@pytest.mark.parametrize(
    ("name", "seed", "notary"),
    [("momiji", 4, False), ("motcoin", 2, True), ("mottainai", 3, False)],
)
def test_escrow_rebuilds_the_seat_and_its_bot_plays_the_same_everywhere(
    tmp_path: Path, name: str, seed: int, notary: bool
) -> None:
    table, keys = _escrow_table(tmp_path, name, 3, seed, notary)
    game = table.game
    silent = _mid_game(table, seed, 12)
    secret = table.players[silent].secret
    # Another machine, fed the same messages, reaches the same point.
    other = PeerGame(
        game.engine, game.options, game.seats, game.game, game.manifest, "escrow", notary
    )
    for message in table.messages:
        other.receive(message)
    shares = _shares(game, silent, keys)
    assert len(shares) == (3 if notary else 2)
    game.timeout(silent, standin.rebuild(game, silent, shares))
    other.timeout(silent, standin.rebuild(other, silent, shares))
    assert game.stand_ins[silent].secret == secret, "the holders rebuilt its secret"
    assert other.head == game.head, "the bot's messages are the same bytes on both"
    # Its own seat object is idle from now on; the others play to the end.
    players = {s: p for s, p in table.players.items() if s != silent}
    rest = play(Table(game, players, []), seed)
    for message in rest.messages:
        other.receive(message)
    assert game.over and other.over and other.head == game.head
    assert game.stats.decisions > 0 and silent in game.out
    # Verified like any game: with the rebuilt secret for the silent seat.
    secrets = {s: p.reveal() for s, p in table.players.items()}
    referee = reveal.replay(game, reveal.orders(game, secrets), secrets)
    assert referee.views[-1][None]["result"] is not None
    assert game.narrate(game.opened, None) == referee.log(game.engine, None)
    assert table.players[silent].log() == referee.log(game.engine, silent)


def test_a_seat_played_by_its_bot_cannot_send_for_itself(tmp_path: Path) -> None:
    table, keys = _escrow_table(tmp_path, "motcoin", 3, 2)
    silent = _mid_game(table, 2, 6)
    late = table.players[silent].compose(lambda _s, _seat, legal: legal[0])
    table.game.timeout(
        silent, standin.rebuild(table.game, silent, _shares(table.game, silent, keys))
    )
    late["round"] = table.game.round
    with pytest.raises(Tampered, match="a bot plays this seat"):
        table.game.receive(late)


def test_a_false_published_share_is_caught_against_the_commitments(tmp_path: Path) -> None:
    table, keys = _escrow_table(tmp_path, "motcoin", 3, 2)
    silent = _mid_game(table, 2, 6)
    shares = _shares(table.game, silent, keys)
    shares[1] = group.s_add(shares[1], group.from_int(1))
    with pytest.raises(Tampered, match="escrow share 1 does not match"):
        table.game.timeout(silent, standin.rebuild(table.game, silent, shares))
    assert silent not in table.game.out and not table.game.stand_ins


def test_a_false_sealed_share_names_its_dealer(tmp_path: Path) -> None:
    """A holder who opens a share that does not match the dealer's commitments is told
    the dealer cheated at setup, by name."""
    table, keys = _escrow_table(tmp_path, "motcoin", 3, 2)
    game = table.game
    commitments, field = game.escrow["s0"]
    forged = dict(field)
    wrong = escrow.deal(group.from_int(7), [(h, keys[h][1]) for h in game.holders("s0")])
    forged["shares"] = wrong["shares"]
    with pytest.raises(Tampered, match="s0's escrow share for s1 does not match"):
        escrow.open_share(forged, commitments, 1, keys["s1"][0], "s0")


def _key_message(table: Table, seat: str) -> dict[str, Any]:
    return table.players[seat].compose(lambda *_: None)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda m, e: m.pop("escrow"),
        lambda m, e: m["escrow"]["commitments"].reverse(),
        lambda m, e: m["escrow"]["commitments"].pop(),
        lambda m, e: m["escrow"]["shares"].reverse(),
    ],
    ids=["no escrow", "not starting with the key", "a commitment short", "holders out of order"],
)
def test_a_key_without_a_true_escrow_is_refused(tmp_path: Path, spoil: Any) -> None:
    table = new_table("motcoin", 3, 1)
    table.game.remedy = "escrow"
    keys = _ssh_keys(tmp_path / "ssh", table.game.seats)
    message = _key_message(table, "s0")
    secret = table.players["s0"].secret
    assert secret is not None
    message["escrow"] = escrow.deal(secret, [(h, keys[h][1]) for h in table.game.holders("s0")])
    spoil(message, message["escrow"])
    with pytest.raises(Tampered, match="s0's message of round 0"):
        table.game.receive(message)
    assert table.game.keys == {}


@needs("age", "the sealed escrow share is checked with the real age CLI")
def test_the_age_cli_opens_a_sealed_share_with_the_holders_ssh_key(tmp_path: Path) -> None:
    table, keys = _escrow_table(tmp_path, "motcoin", 3, 1)
    commitments, field = table.game.escrow["s1"]
    sealed = tmp_path / "share.age"
    sealed.write_bytes(base64.b64decode(field["shares"][0]["sealed"]))
    assert field["shares"][0]["holder"] == "s0"
    out = subprocess.run(
        ["age", "--decrypt", "-i", str(keys["s0"][0]), str(sealed)],
        capture_output=True, check=True,
    )  # fmt: skip
    assert bytes.fromhex(out.stdout.decode().strip()) == escrow.open_share(
        field, commitments, 1, keys["s0"][0], "s1"
    )
    failed = subprocess.run(
        ["age", "--decrypt", "-i", str(keys["s2"][0]), str(sealed)], capture_output=True
    )
    assert failed.returncode != 0, "another seat's key cannot open s0's share"
