"""A cheating player, through the CLI (issue 29, items 1 and 7): a seat that signs a
forged message with its own SSH key and puts it in the shared folder is caught at that
message by every other player's next command, with a one-line reason naming the file,
the seat and the round (exit 15), and nobody's command writes anything after it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, caught_by_everyone, new_peer_game, ok

from arbiter.core.peer import elgamal, group, schnorr
from arbiter.core.peer.cards import point
from arbiter.core.peer.transcript import Context
from arbiter.peer import folder as files
from arbiter.peer import wire

SEATS = ["alice", "bob", "carol"]
Forge = Callable[[dict[str, Any], files.Folder], None]


def _duplicate(message: dict[str, Any], _loaded: files.Folder) -> None:
    cards = message["shuffles"][0]["cards"]
    cards[1] = cards[0]


def _substitute(message: dict[str, Any], loaded: files.Folder) -> None:
    """Slot 0 replaced by the cheat's own encryption of a card it would like dealt."""
    fake = elgamal.encrypt(point("momiji", "maple-3", 0), loaded.game.joint, group.from_int(7))
    message["shuffles"][0]["cards"][0] = [wire.hexed(fake[0]), wire.hexed(fake[1])]


def _wrong_share(message: dict[str, Any], _loaded: files.Folder) -> None:
    message["shares"][0]["share"] = wire.hexed(group.base(group.from_int(11)))


def _other_game(message: dict[str, Any], loaded: files.Folder) -> None:
    """Its key's proof made for another game (same seat, same round, same secret)."""
    secret = loaded.player.secret
    assert secret is not None
    elsewhere = Context("another-game", loaded.game.manifest, message["seat"], 0)
    message["proof"] = wire.hexed(schnorr.prove(secret, elsewhere))


def _other_seat(message: dict[str, Any], loaded: files.Folder) -> None:
    """alice's published key and proof, sent as bob's own."""
    theirs = files.load(loaded.root).game
    other = next(m for s, m in theirs.answered.items() if s != message["seat"])
    message["key"], message["proof"] = other["key"], other["proof"]


CHEATS: list[tuple[str, int, str, Forge, str]] = [
    # (name, who joins first: all, none or alice, owed kind, forge, reason)
    ("duplicated card", 3, "shuffle", _duplicate, "shuffle"),
    ("self-encrypted substitute", 3, "shuffle", _substitute, "shuffle"),
    ("wrong share", 3, "shares", _wrong_share, "decryption share"),
    ("proof from another game", 0, "key", _other_game, "proof"),
    ("key and proof of another seat", 1, "key", _other_seat, "proof"),
]


@pytest.mark.parametrize(("joined", "kind", "forge", "reason"),
                         [c[1:] for c in CHEATS], ids=[c[0] for c in CHEATS])  # fmt: skip
def test_a_cheat_is_caught_at_its_message_by_every_other_player(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    joined: int, kind: str, forge: Forge, reason: str,
) -> None:  # fmt: skip
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    root = new_peer_game(cli, tmp_path, "cheat", "momiji", SEATS)
    keys = tmp_path / "keys"
    for seat in SEATS[:joined]:
        ok(cli("peer", "join", root, "--seat", seat, "--key", keys / seat))
    # Play on until a seat owes a message of this kind: that seat cheats.
    for _ in range(12):
        loaded = files.load(root)
        owing = [s for s in SEATS if (o := loaded.game.owed(s)) is not None and o.kind == kind]
        if owing:
            break
        seat = next(s for s in SEATS if loaded.game.owed(s) is not None)
        ok(cli("peer", "play", root, "--seat", seat, "--key", keys / seat))
    cheat = owing[0]
    loaded = files.load(root, cheat)
    if loaded.player.secret is None:
        loaded.player.secret = files.new_secret(loaded.terms, cheat)
    message = copy.deepcopy(loaded.player.compose(lambda _s, _seat, legal: legal[0]))
    forge(message, loaded)
    caught_by_everyone(cli, root, keys, SEATS, message, reason)
