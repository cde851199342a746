"""A peer game by mail (docs/peer.md §6, ``--via mail``): three players, each with its own
mailbox on a real Dovecot, its own copy of the folder and its own secret folder, and an
aiosmtpd relay between them; no referee anywhere.

Each new file is mailed to the other seats and taken from each player's mailbox (read
only) before every command. Hostile attachments (a path, a name the game never sends, a
forged signature, a file too large, a mail that cannot be read) are refused with a
warning and change nothing; a second, different file of one name that its seat signed
stops the reader, naming the file and the sender; a send the server refuses leaves the
copy as it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Result, error_line
from helpers.tables import make_keys

from arbiter.cli.main import run
from arbiter.core import signing
from arbiter.peer.folder import NAMESPACE
from mail import hostile
from mail.servers import Dovecot, Mailbox, MailUser, SmtpRelay

SEATS = ["alice", "bob", "carol"]
GAME = "friday"


@dataclass
class Player:
    """One player's side: a mailbox, a mail config, a copy of the game, a secret folder."""

    seat: str
    user: MailUser
    base: Path
    key: Path
    invoke: Callable[..., Result]

    @property
    def copy(self) -> Path:
        return self.base / GAME

    @property
    def config(self) -> Path:
        return self.base / "mail.toml"

    @property
    def home(self) -> Path:
        return self.base / "secrets"

    def __call__(self, command: str, *args: Any) -> Result:
        """``arbiter peer COMMAND`` on this player's copy, by mail, as this player."""
        key = ("--key", self.key) if command in ("join", "play", "reveal", "timeout") else ()
        return self.invoke(self.home, "peer", command, self.copy, "--seat", self.seat, *key,
                           *args, "--via", "mail", "--mail", self.config)  # fmt: skip

    def ok(self, command: str, *args: Any) -> str:
        done = self(command, *args)
        assert done.code == 0, done
        return done.out


@pytest.fixture
def invoke(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Result]:
    """``arbiter ARGS...`` in this process, with ``home`` as the player's secret folder."""

    def call(home: Path, *args: Any) -> Result:
        monkeypatch.setenv("ARBITER_PEER_HOME", str(home))
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        return Result(int(info.value.code or 0), out, err)

    return call


def _config(player: Player, dovecot: Dovecot, relay: SmtpRelay) -> None:
    player.base.mkdir(parents=True, exist_ok=True)
    (player.base / "pw").write_text(player.user.password + "\n")
    player.config.write_text(
        f'[imap]\nhost = "{dovecot.host}"\nport = {dovecot.port}\nuser = "{player.user.name}"\n'
        'password_file = "pw"\ntls = "none"\n\n'
        f'[smtp]\nhost = "{relay.host}"\nport = {relay.port}\ntls = "none"\n'
        f'from = "{player.seat} <{player.user.address}>"\n'
    )


@pytest.fixture
def players(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay,
            new_user: Callable[..., MailUser], invoke: Callable[..., Result]) -> dict[str, Player]:  # fmt: skip
    keys = make_keys(tmp_path / "keys", SEATS)
    found = {}
    for seat in SEATS:
        player = Player(seat, new_user(seat), tmp_path / seat, keys[seat], invoke)
        _config(player, dovecot, smtp_relay)
        found[seat] = player
    return found


def _new(players: dict[str, Player], *extra: Any, game: str = "motcoin") -> Result:
    """Alice makes the game in her copy; game.json goes to every seat's mailbox."""
    alice = players["alice"]
    alice.copy.parent.mkdir(parents=True, exist_ok=True)
    named = [a for s, p in players.items() for a in ("--seat", f"{s}={p.key}.pub")]
    addresses = [a for s, p in players.items() for a in ("--address", f"{s}={p.user.address}")]
    return alice.invoke(alice.home, "peer", "new", alice.copy, "--game", game, *named,
                        *addresses, "--via", "mail", "--mail", alice.config, *extra)  # fmt: skip


@pytest.fixture
def joined(players: dict[str, Player]) -> dict[str, Player]:
    """A Mot Coin game by mail that every seat has joined (in seat order)."""
    made = _new(players)
    assert made.code == 0, made
    for player in players.values():
        assert "per-game key" in player.ok("join")
    return players


def _box(dovecot: Dovecot, player: Player) -> Mailbox:
    return Mailbox(dovecot, player.user)


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}  # fmt: skip


def _outside(root: Path, player: Player) -> dict[str, str]:
    """Every file under ``root`` but the player's secret folder (its read position)."""
    return {k: v for k, v in _snapshot(root).items() if not k.startswith(f"{player.seat}/secrets/")}


def _mail(sender: str, to: str, attachments: list[tuple[str, bytes]], n: int) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = f"[arbiter-peer {GAME}] {attachments[0][0]}"
    message["Message-ID"] = f"<peer-test.{n}@mallory.test>"
    message.set_content("files of your game")
    for name, data in attachments:
        message.add_attachment(data, maintype="application", subtype="json", filename=name)
    return message.as_bytes()


def _resigned(path: Path, key: Path, change: Callable[[dict[str, Any]], None]) -> bytes:
    """Another version of a signed message, signed again by its own seat's key."""
    message = json.loads(path.read_bytes())
    del message["signature"]
    change(message)
    return json.dumps({**message, "signature": signing.sign(message, key, NAMESPACE)}).encode()


def _flags(dovecot: Dovecot, player: Player) -> list[bytes]:
    imap = _box(dovecot, player).connect()
    try:
        imap.select("INBOX", readonly=True)
        _, data = imap.fetch("1:*", "(FLAGS)")
    finally:
        imap.logout()
    return [item for item in data if isinstance(item, bytes)]


def test_three_players_deal_and_play_by_mail(joined: dict[str, Player], dovecot: Dovecot) -> None:
    players = joined
    alice = players["alice"]
    terms = json.loads((alice.copy / "game.json").read_bytes())
    assert [s["address"] for s in terms["seats"]] == [p.user.address for p in players.values()]
    for _ in range(3):  # each seat's shuffle in seat order, then the deal's openings
        for player in players.values():
            player.ok("play")
    assert "your decisions" in alice.ok("play")
    decided = 0
    for _ in range(3):  # several decisions, each seat in turn, a random bot deciding
        for player in players.values():
            decided += player.ok("play", "--bot").count("decision (round")
    assert decided >= 3, decided
    for player in players.values():
        player.ok("status")  # each reads the mail the others sent since its last command
    copies = {seat: _snapshot(p.copy) for seat, p in players.items()}
    assert copies["alice"] == copies["bob"] == copies["carol"], "one game in three copies"
    assert len([n for n in copies["alice"] if n.startswith("messages/")]) > 12
    # Each sees the game from its own seat; nobody's secret is in any copy or mailbox.
    logs = {}
    for seat, player in players.items():
        shown = player.ok("status", "--log", "40")
        you = [line for line in shown.splitlines() if "(you)" in line]
        assert len(you) == 1 and you[0].startswith(f"{seat} (you)"), shown
        logs[seat] = shown.split("Mot Coin, round")[0].splitlines()[1:]
    assert logs["alice"] == logs["bob"] == logs["carol"]
    for seat, player in players.items():
        secret = (player.home / f"{GAME}.{seat}.secret").read_text().strip()
        assert not any(f"{GAME}.{seat}.secret" in p.name for p in player.copy.rglob("*"))
        for other in players.values():
            for mail in _box(dovecot, other).messages():
                for part in mail.iter_attachments():
                    assert str(part.get_filename()).startswith(("game.json", "messages/"))
                    assert secret.encode() not in part.get_payload(decode=True)
        # The mailbox is read only: nothing marked as read, moved or deleted.
        assert not any(b"\\Seen" in flags for flags in _flags(dovecot, player))
        cache = json.loads((player.home / f"{GAME}.{seat}.mail.json").read_bytes())
        assert cache["uid"] == _box(dovecot, player).count()


def test_mottainai_with_wutai_by_mail(players: dict[str, Player]) -> None:
    """Issue 30: Mottainai's own messages travel by mail like any other: bots play from
    their own seats until a card has gone back face down (a return with its proof, to a
    new place) and the three copies hold one game."""
    made = _new(players, "--option", "wutai=yes", game="mottainai")
    assert made.code == 0, made
    for player in players.values():
        assert "per-game key" in player.ok("join")
    returned = False
    for _ in range(40):
        for player in players.values():
            player.ok("play", "--bot", "--level", "greedy")
        copy = players["alice"].copy / "messages"
        returned = any("returns" in json.loads(f.read_bytes()) for f in copy.glob("*.json"))
        if returned:
            break
    assert returned, "no card went back face down by mail"
    for player in players.values():
        player.ok("status")
    copies = {seat: _snapshot(p.copy) for seat, p in players.items()}
    assert copies["alice"] == copies["bob"] == copies["carol"], "one game in three copies"


def test_hostile_attachments_are_refused_and_change_nothing(
    joined: dict[str, Player], dovecot: Dovecot, tmp_path: Path
) -> None:
    players = joined
    bob, alice = players["bob"], players["alice"]
    bob.ok("status")
    before, outside = _snapshot(bob.copy), _outside(tmp_path, bob)
    honest = (bob.copy / "messages" / "000000-alice.json").read_bytes()
    forged = json.loads(honest)
    forged["round"] = 1  # the next round's name, with alice's old signature
    big = b'{"format": "arbiter.peer-move/1", "pad": "' + b"x" * (1024 * 1024 + 10) + b'"}'
    attachments = [
        ("../../escaped.json", honest),
        ("messages/../game.json", honest),
        ("/tmp/messages/000001-alice.json", honest),
        ("messages/\u0660\u0660\u0660\u0660\u0660\u0661-alice.json", honest),
        ("notes.txt", b"hello"),
        ("messages/000001-alice.json", json.dumps(forged).encode()),
        ("messages/000000-bob.json", honest),  # alice's message under bob's name
        ("reveals/alice.json", b'{"format": "arbiter.peer-reveal/1", "signature": "x"}'),
        ("messages/000001-alice.json", big),
    ]
    mallory = "mallory@example.test"
    box = _box(dovecot, bob)
    for n, attachment in enumerate(attachments):
        box.append(_mail(mallory, bob.user.address, [attachment], n))
    box.append(
        hostile.nested(mallory, 99).replace(
            b"Subject: nested", f"Subject: [arbiter-peer {GAME}] x".encode()
        )
    )
    seen = bob("status")
    assert seen.code == 0, seen
    warnings = seen.err.splitlines()
    assert len(warnings) == len(attachments) + 1, seen.err
    assert all(w.startswith("arbiter: warning: refused ") and mallory in w for w in warnings)
    for why in ("not a file of a peer game", "not plain ASCII", "signature does not match",
                "it is not bob's file", "over 1024 KiB", "nested more than 16 deep"):  # fmt: skip
        assert why in seen.err
    assert _snapshot(bob.copy) == before
    assert _outside(tmp_path, bob) == outside, "nothing written but bob's own position"
    # What was read once is not read again: the next command is quiet.
    assert bob("status").err == ""
    # The game goes on: alice's next files still reach bob.
    alice.ok("play")
    assert len(_snapshot(bob.copy)) == len(before)
    bob.ok("status")
    assert len(_snapshot(bob.copy)) > len(before)


def test_a_second_different_file_of_one_name_is_caught(
    joined: dict[str, Player], dovecot: Dovecot
) -> None:
    players = joined
    alice, bob = players["alice"], players["bob"]
    bob.ok("status")
    # Bob has alice's key message; alice signs another one for the same round.
    mine = bob.copy / "messages" / "000000-alice.json"
    twin = _resigned(mine, alice.key, lambda m: m.update(proof=m["proof"][::-1]))
    _box(dovecot, bob).append(
        _mail(alice.user.address, bob.user.address, [("messages/000000-alice.json", twin)], 1)
    )
    before = _snapshot(bob.copy)
    for _ in range(2):  # not once and then forgotten: every read stops there
        line = error_line(bob("status"), 15)
        assert "messages/000000-alice.json from " + alice.user.address in line
        assert "differs from the copy you have: alice signed two different files" in line
        assert _snapshot(bob.copy) == before
    # Alice has not read carol's key yet: carol's two versions both wait in her mailbox.
    carol = players["carol"]
    other = carol.copy / "messages" / "000000-carol.json"
    twin = _resigned(other, carol.key, lambda m: m.update(proof=m["proof"][::-1]))
    _box(dovecot, alice).append(
        _mail(carol.user.address, alice.user.address, [("messages/000000-carol.json", twin)], 2)
    )
    before = _snapshot(alice.copy)
    line = error_line(alice("play"), 15)
    assert "messages/000000-carol.json" in line and "differs from one mailed before" in line
    assert _snapshot(alice.copy) == before


def test_a_refused_send_leaves_the_copy_as_it_was(
    players: dict[str, Player], dovecot: Dovecot, invoke: Callable[..., Result]
) -> None:
    alice, bob = players["alice"], players["bob"]
    nobody = "nobody@example.test"  # the relay knows no such user: 550 at RCPT
    named = [a for s, p in players.items() for a in ("--seat", f"{s}={p.key}.pub")]
    args = ["peer", "new", alice.copy, "--game", "motcoin", *named,
            "--address", f"alice={alice.user.address}", "--address", f"bob={bob.user.address}"]  # fmt: skip
    line = error_line(invoke(alice.home, *args, "--via", "mail", "--mail", alice.config), 2)
    assert "--via mail needs every seat's address: add --address carol=EMAIL" in line
    line = error_line(invoke(alice.home, *args, "--address", f"carol={nobody}", "--via", "mail"), 2)
    assert "--via mail needs --mail CONFIG" in line
    line = error_line(invoke(alice.home, *args, "--address", "dave=d@example.test"), 2)
    assert "no --seat is named 'dave'" in line
    line = error_line(invoke(alice.home, *args, "--address", f"carol={nobody}", "--via", "mail",
                             "--mail", alice.config), 2)  # fmt: skip
    assert f"refused {nobody} (550" in line and "nothing was sent" in line
    assert not (alice.copy / "game.json").exists(), "taken back: new can be run again"
    # The same terms in a folder made by hand: alice's key cannot be mailed to carol.
    ok = invoke(alice.home, *args, "--address", f"carol={nobody}")
    assert ok.code == 0, ok
    without = alice.copy.parent / "plain"
    ok = invoke(alice.home, "peer", "new", without, "--game", "motcoin", *named)
    assert ok.code == 0 and "address" not in (without / "game.json").read_text()
    before = _snapshot(alice.copy)
    line = error_line(alice("join"), 2)
    assert f"refused {nobody} (550" in line and "check their addresses in game.json" in line
    assert _snapshot(alice.copy) == before and _box(dovecot, bob).count() == 0


def test_mail_of_an_earlier_game_with_the_same_id_is_left_out(
    joined: dict[str, Player], tmp_path: Path
) -> None:
    """The players start a second game named friday, bob first this time, each in a new
    copy with a new secret folder: bob's mailbox holds both games' terms and the first
    game's messages. (Terms the same to the byte would make one game to every proof.)"""
    again = {seat: Player(seat, joined[seat].user, tmp_path / "again" / seat, joined[seat].key,
                          joined[seat].invoke) for seat in ("bob", "alice", "carol")}  # fmt: skip
    for player in again.values():
        player.config.parent.mkdir(parents=True)
        for name in ("mail.toml", "pw"):
            (player.base / name).write_bytes((joined[player.seat].base / name).read_bytes())
    assert _new(again).code == 0
    again["alice"].ok("join")
    bob = again["bob"]
    line = error_line(bob("join"), 2)
    assert "holds several game.json of peer game friday" in line and "an id used twice?" in line
    assert not bob.copy.exists()
    bob.copy.mkdir()  # the way out it names: bob takes the game.json alice made this time
    (bob.copy / "game.json").write_bytes((again["alice"].copy / "game.json").read_bytes())
    done = bob("join")
    assert done.code == 0 and done.err == "", done  # the first game's mail is not even read
    assert sorted(p.name for p in (bob.copy / "messages").iterdir()) == [
        "000000-alice.json",
        "000000-bob.json",
    ]
    mine, hers = _snapshot(bob.copy), _snapshot(again["alice"].copy)
    assert mine["messages/000000-alice.json"] == hers["messages/000000-alice.json"]


def test_a_file_mailed_before_a_stop_is_sent_again_not_made_again(
    joined: dict[str, Player], dovecot: Dovecot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's machine stops after her shuffle was mailed, before her copy had it: her
    next command sends that very file again; signing a new one would be equivocation."""
    import arbiter.play.peer_mail as carrier

    alice, bob = joined["alice"], joined["bob"]
    shuffle = alice.copy / "messages" / "000001-alice.json"
    write = carrier.atomic_write

    def stop(path: Path, data: bytes, *args: Any, **kwargs: Any) -> None:
        if path == shuffle:
            raise KeyboardInterrupt
        write(path, data, *args, **kwargs)

    monkeypatch.setattr(carrier, "atomic_write", stop)
    assert alice("play").code == 130
    monkeypatch.setattr(carrier, "atomic_write", write)
    assert not shuffle.exists() and _box(dovecot, bob).count() == 4  # game.json, 2 keys, it
    alice.ok("status")
    assert shuffle.exists() and _box(dovecot, bob).count() == 5  # the same file once more
    assert not list((alice.home / f"{GAME}.alice.outbox").rglob("*.json"))
    assert "bob's shuffle" in bob.ok("play")
    assert (bob.copy / shuffle.relative_to(alice.copy)).read_bytes() == shuffle.read_bytes()


def test_a_silent_seat_is_timed_out_by_mail(
    players: dict[str, Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/peer.md §7 by mail: the timeouts travel like messages, and once every other
    seat's is in, every copy (the silent seat's too) says the game is forfeited."""
    monkeypatch.setenv("ARBITER_NOW", "2026-12-05T10:00:00Z")
    assert _new(players, "--deadline", "1h").code == 0
    for player in players.values():
        player.ok("join")
    for _ in range(3):  # the shuffles, then the deal's openings
        for player in players.values():
            player.ok("play")
    waits = players["alice"].ok("status").splitlines()[0]
    silent = waits.split("waits for: ")[1].split("'s decision")[0]
    others = [p for s, p in players.items() if s != silent]
    for player in others:
        assert f"{silent} has until 2026-12-05T11:00:00Z" in player.ok("status")
    monkeypatch.setenv("ARBITER_NOW", "2026-12-05T11:30:00Z")
    assert f"{silent} did not answer round" in others[0].ok("timeout")
    assert f"{silent} did not answer in time and forfeits" in others[1].ok("timeout")
    for player in players.values():
        assert "forfeits (ranked last)" in player.ok("status")
    copies = [sorted(f.name for f in (p.copy / "timeouts").iterdir()) for p in players.values()]
    assert len(copies[0]) == 2 and copies[0] == copies[1] == copies[2]
