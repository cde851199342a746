"""Mottainai with no referee, through the CLI (issue 30, items 1, 5 and 6): a game in a
shared folder, bots of every level deciding from their own seat's view, a cheat at the
messages Mottainai adds (a face-down return, a fact about a hidden hand) caught by every
other player's next command (exit 15, the folder unchanged), and a stranger's ``arbiter
verify`` of the finished game. (A hand passed by Puppet is forged in
tests/peer/test_peer_mottainai.py, on a seeded table where Puppet comes up.)"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, caught_by_everyone, error_line, new_peer_game, ok

from arbiter.core.peer import elgamal, group
from arbiter.core.rng import Rng
from arbiter.peer import folder as files
from arbiter.peer import wire

SEATS = ["alice", "bob"]


def _drive(
    root: Path, keys: Path, seats: list[str], seed: int, stop: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """Play on with seeded random choices, each message signed and written as ``peer play``
    writes it, until the next message would ``stop`` (returned unsigned, not written) or
    the game is over (None). Every seat keeps its own copy of the game, as each player's
    machine does."""
    loaded = {seat: files.load(root, seat) for seat in seats}
    rng = Rng(bytes([seed]) * 32)
    for _ in range(5000):
        game = loaded[seats[0]].game
        if game.over:
            return None
        seat = next(s for s in seats if game.owed(s) is not None)
        mine = loaded[seat]
        if mine.player.secret is None:
            mine.player.secret = files.new_secret(mine.terms, seat)
        message = mine.player.compose(lambda _s, _seat, legal: rng.choice(legal))
        if stop(message):
            return message
        path = mine.write(message, keys / seat)
        signed = json.loads(path.read_bytes())
        for other in seats:
            if other != seat:
                loaded[other].game.receive(signed)
    raise AssertionError("the game did not end")


@pytest.fixture
def table(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    root = new_peer_game(cli, tmp_path, "table", "mottainai", SEATS)
    for seat in SEATS:
        ok(cli("peer", "join", root, "--seat", seat, "--key", tmp_path / "keys" / seat))
    return root


def test_bots_of_every_level_play_from_their_own_view(cli: Cli, table: Path) -> None:
    """Item 5: ``peer play --bot --level L`` sends what the seat owes and decides from that
    seat's own view (its state file, as ``arbiter bot`` reads one)."""
    keys = table.parent / "keys"
    for level in ("random", "greedy", "search"):
        for seat in SEATS:
            ok(cli("peer", "play", table, "--seat", seat, "--key", keys / seat, "--bot",
                   "--level", level))  # fmt: skip
    status = ok(cli("peer", "status", table, "--seat", "alice")).out
    assert "waits for" in status
    refused = cli("peer", "play", table, "--seat", "alice", "--key", keys / "alice", "--bot",
                  "--level", "genius")  # fmt: skip
    assert "--level takes random, greedy, search" in error_line(refused, 2)
    assert "give --bot too" in error_line(
        cli("peer", "play", table, "--seat", "alice", "--key", keys / "alice", "--watch", "1"), 2
    )


def _false_return(message: dict[str, Any], loaded: files.Folder) -> None:
    """The returned card put back as another card: a fresh encryption of one of its own."""
    fake = elgamal.encrypt(group.hash_to_point(b"x", b"y"), loaded.game.joint, group.from_int(5))
    message["returns"][0]["cipher"] = [wire.hexed(fake[0]), wire.hexed(fake[1])]


def _false_fact(message: dict[str, Any], _loaded: files.Folder) -> None:
    message["facts"][0]["holds"] = not message["facts"][0]["holds"]


CHEATS: list[tuple[str, str, Callable[..., None], str, int]] = [
    # (name, the field the cheat's message carries, the forge, the reason, seed)
    ("a return that is another card", "returns", _false_return, "returned card", 1),
    # Facts come up in fewer games (fresh decks each time): it may play several, slow.
    ("a false fact about the hand", "facts", _false_fact, "claim of", 4),
]


@pytest.mark.parametrize(
    ("field", "forge", "reason", "seed"),
    [pytest.param(*c[1:], marks=[pytest.mark.slow] if c[1] == "facts" else []) for c in CHEATS],
    ids=[c[0] for c in CHEATS],
)
def test_a_mottainai_cheat_is_caught_by_every_other_player(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    field: str, forge: Callable[..., None], reason: str, seed: int,
) -> None:  # fmt: skip
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    seats = ["alice", "bob", "carol", "dave"] if field == "facts" else SEATS
    options = ["--option", "wutai=yes"] if field == "facts" else []
    # The decks follow from the seats' fresh secrets: play games until one carries it.
    for game in range(12):
        (tmp_path / f"g{game}").mkdir()
        root = new_peer_game(
            cli, tmp_path / f"g{game}", f"cheat{game}", "mottainai", seats, *options
        )
        keys = tmp_path / f"g{game}" / "keys"
        message = _drive(root, keys, seats, seed + game, lambda m: field in m)
        if message is not None:
            break
    assert message is not None, f"no message carried {field}"
    cheat = message["seat"]
    loaded = files.load(root, cheat)
    forged = copy.deepcopy(message)
    forge(forged, loaded)
    caught_by_everyone(cli, root, keys, seats, forged, reason)


@pytest.mark.parametrize(
    "wutai", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["base", "wutai"]
)
def test_a_whole_game_is_verified_by_a_stranger(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wutai: bool
) -> None:
    """The game played to its end in the folder, every seat's secret revealed through the
    CLI, then ``arbiter verify`` by someone who holds no secret of its own."""
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    seats = ["alice", "bob", "carol"]
    root = new_peer_game(
        cli, tmp_path, "whole", "mottainai", seats, *(["--option", "wutai=yes"] if wutai else [])
    )
    keys = tmp_path / "keys"
    assert _drive(root, keys, seats, 6, lambda _m: False) is None
    for seat in seats:
        ok(cli("peer", "reveal", root, "--seat", seat, "--key", keys / seat))
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "stranger"))
    checked = ok(cli("verify", root)).out
    assert (
        "replayed through mottainai 0.4.0" in checked and "every view and log as played" in checked
    )


def test_a_seat_whose_night_is_still_opening_sees_the_table_it_last_read(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/peer-mottainai.md §3.5: at three seats the cards a Night brings are opened to
    their seat by shares riding on the others' next messages, so for a while the seat
    reads the table some steps behind. Its status says so and shows the table as it was
    (no card it cannot read yet), and the game goes on without a round of shares."""
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "home"))
    seats = ["alice", "bob", "carol"]
    root = new_peer_game(cli, tmp_path, "three", "mottainai", seats)
    keys = tmp_path / "keys"
    for seat in seats:
        ok(cli("peer", "join", root, "--seat", seat, "--key", keys / seat))
    lagging: list[str] = []

    def behind(_message: dict[str, Any]) -> bool:
        game = files.load(root).game
        late = [s for s in seats if game.ready[s] < game.settled == len(game.history)]
        lagging[:] = late
        return bool(late)

    assert _drive(root, keys, seats, 3, behind) is not None, "a seat read the table late"
    seat = lagging[0]
    shown = ok(cli("peer", "status", root, "--seat", seat)).out
    assert "you see the table as it was" in shown and "coming to your hand open with" in shown
    assert f"{seat}'s next" not in shown, "it waits for the others' shares, not its own"
    assert "?d" not in shown, "no card it cannot read yet"
    assert shown.splitlines()[0].endswith("'s decision"), "nobody waits for its shares"
