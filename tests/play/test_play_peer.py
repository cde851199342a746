"""``arbiter play`` on peer games (docs/peer.md §6, docs/player-guide.md §4): three players
share one folder and no referee. Each has its own XDG folders and its own secret folder
(ARBITER_PEER_HOME); each adds the game to its profile once, and then `arbiter play list`
says whose move it is and `arbiter play GAME` joins, deals and asks for decisions by
number in the terminal, signing and writing the same messages `arbiter peer play` does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import error_line
from git.gitkit import GIT_ENV, git
from helpers.tables import make_keys
from mail.servers import Dovecot, MailUser, SmtpRelay

from arbiter.play import terminal

from .conftest import Cli, Ran, needs_dovecot, needs_git

SEATS = ["alice", "bob", "carol"]
Player = Callable[..., Ran]


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    return make_keys(tmp_path / "keys", SEATS)


@pytest.fixture
def player(tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Player]:
    """``player(seat)(ARGS...)``: ``arbiter ARGS...`` as that player, with its own profile
    and state (XDG) and its own per-game secrets (ARBITER_PEER_HOME)."""

    def as_seat(seat: str) -> Player:
        def run(*args: Any) -> Ran:
            home = tmp_path / "players" / seat
            monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
            monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
            monkeypatch.setenv("ARBITER_PEER_HOME", str(home / "secrets"))
            return cli(*args)

        return run

    return as_seat


def ok(done: Ran) -> Ran:
    assert done.code == 0, done
    return done


def _new(cli: Cli, tmp_path: Path, keys: dict[str, Path], *terms: Any) -> Path:
    root = tmp_path / "table"
    named = [arg for s in SEATS for arg in ("--seat", f"{s}={keys[s]}.pub")]
    ok(cli("peer", "new", root, "--game", "motcoin", *named, *terms))
    return root


def _add(player: Callable[[str], Player], root: Path, keys: dict[str, Path]) -> None:
    for seat in SEATS:
        added = ok(player(seat)("play", "add", root / "game.json", "--seat", seat,
                                "--key", keys[seat], "--via", "folder"))  # fmt: skip
        assert "added peer game table (" + seat + ", via folder)" in added.out


def _row(player: Callable[[str], Player], seat: str) -> dict[str, Any]:
    """The seat's one row of `arbiter play list --json`."""
    rows = json.loads(ok(player(seat)("play", "list", "--json")).out)
    assert [r["game"] for r in rows] == ["table"], rows
    return dict(rows[0])


def _typing(monkeypatch: pytest.MonkeyPatch, *answers: str) -> list[str]:
    """Type ``answers`` at the terminal's prompts, one each; return the prompts asked."""
    asked: list[str] = []
    left = list(answers)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if not left:
            raise AssertionError(f"an unexpected prompt: {prompt!r}")
        return left.pop(0)

    monkeypatch.setattr(terminal, "ask_line", ask)
    return asked


def _deal(player: Callable[[str], Player], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each player opens the game in turn (seat order), each open sending what its seat
    owes (its key, its shuffle, its shares), until one is asked for a decision: it types
    q. Return the seats in the order they opened it."""
    asked: list[str] = []
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: asked.append(prompt) or "q")
    opened: list[str] = []
    for _ in range(4):
        for seat in SEATS:
            done = ok(player(seat)("play", "table"))
            opened.append(seat)
            if asked:
                assert "left without deciding: nothing more was sent" in done.out
                return opened
            assert "nothing more to send now: the game waits for" in done.out, done
    raise AssertionError("nobody was asked for a decision after every seat opened 4 times")


def test_three_players_add_list_deal_and_decide(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    root = _new(cli, tmp_path, keys)
    _add(player, root, keys)
    profile = (tmp_path / "players" / "bob" / "config" / "arbiter" / "games.toml").read_text()
    assert 'via = "peer"' in profile and 'carry = "folder"' in profile
    assert f'folder = "{root.resolve()}"' in profile and "config" not in profile.split("[games")[1]
    first = _row(player, "alice")
    assert first == {
        "game": "table", "seat": "alice", "via": "peer/folder", "status": "joining",
        "turn": None, "mine": True, "due": None, "left": None,
        "note": "your join (sent when you open it)",
    }  # fmt: skip
    _typing(monkeypatch)  # nobody is asked anything while the deal goes on
    joined = ok(player("alice")("play", "table"))
    assert "sent 000000-alice.json: alice's per-game key (round 0)" in joined.out
    assert "nothing more to send now: the game waits for bob's per-game key; carol's" in joined.out
    assert _row(player, "alice")["note"] == "bob's per-game key; carol's per-game key"
    assert not _row(player, "alice")["mine"] and _row(player, "bob")["mine"]
    opened = _deal(player, monkeypatch)
    assert opened[:4] == [*SEATS, "alice"]
    # The deal is done: alice's decision (Mot Coin: the first player bids first).
    rows = {seat: _row(player, seat) for seat in SEATS}
    assert rows["alice"]["note"] == "your decision" and rows["alice"]["mine"]
    assert rows["bob"]["note"] == "alice's decision" and not rows["bob"]["mine"]
    assert {r["turn"] for r in rows.values()} == {"alice"}
    assert {r["status"] for r in rows.values()} == {"playing"}
    # Alice opens it: her view, her log and her numbered decisions; a wrong number is
    # answered, q leaves without sending anything.
    asked = _typing(monkeypatch, "9999", "q")
    left = ok(player("alice")("play", "table"))
    assert "your decisions (type a number, or q to leave):" in left.out
    assert "    2. bid [1]    " in left.out and "Auction:" in left.out
    assert "there is no decision '9999': type a number 1–" in left.out
    assert "left without deciding: nothing more was sent" in left.out
    assert asked[0].startswith("Your decision (1–") and len(asked) == 2
    before = sorted(p.name for p in (root / "messages").iterdir())
    asked = _typing(monkeypatch, "2")
    decided = ok(player("alice")("play", "table"))
    assert "picked 2: bid [1]" in decided.out
    assert "alice's decision (round" in decided.out
    assert "nothing more to send now: the game waits for bob's decision" in decided.out
    assert len(sorted(p.name for p in (root / "messages").iterdir())) == len(before) + 1
    # The same decision `arbiter peer` reads: bob's turn now, everywhere.
    status = ok(player("bob")("peer", "status", root, "--seat", "bob")).out
    assert "waits for: bob's decision" in status and "alice bids" in status
    rows = {seat: _row(player, seat) for seat in SEATS}
    assert rows["bob"]["note"] == "your decision" and rows["bob"]["mine"]
    assert rows["alice"]["note"] == "bob's decision" and rows["alice"]["turn"] == "bob"
    check = ok(player("carol")("play", "--check"))
    assert check.out.startswith("0 of 1 game(s) wait for you")
    assert "table (carol, via peer/folder): bob's decision" in check.out
    # No argument: the list, then the game waiting for this player is opened.
    _typing(monkeypatch, "q")
    auto = ok(player("bob")("play"))
    assert "opening table" in auto.out and "left without deciding" in auto.out


def test_a_key_not_the_seats_is_refused_at_add(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player]
) -> None:
    root = _new(cli, tmp_path, keys)
    bob = player("bob")

    def add(seat: str, key: str, *extra: str, via: str = "folder", who: Any = bob) -> Any:
        return who("play", "add", root / "game.json", "--seat", seat, "--key", keys[key],
                   "--via", via, *extra)  # fmt: skip

    ok(add("bob", "bob"))
    profile = tmp_path / "players" / "bob" / "config" / "arbiter" / "games.toml"
    before = profile.read_bytes()
    wrong = add("bob", "alice", "--replace")
    assert "is not the key registered for seat bob: use that seat's key" in error_line(wrong, 2)
    stranger = add("dave", "bob", "--replace")
    assert "seat 'dave' is not in game table" in error_line(stranger, 6)
    desk = add("bob", "bob", "--replace", via="desk")
    assert "is a peer game (no referee): give --via folder, git or mail" in error_line(desk, 2)
    stray = add("bob", "bob", "--to", "x@example.org", "--replace")
    assert "--to does not belong to a peer game" in error_line(stray, 2)
    no_mail = add("bob", "bob", "--replace", via="mail")
    assert "game table: a peer game by mail needs --config" in error_line(no_mail, 2)
    assert profile.read_bytes() == before
    # carol has no profile yet: still none after a refusal
    wrong = add("carol", "bob", who=player("carol"))
    assert "is not the key registered for seat carol" in error_line(wrong, 2)
    assert not (tmp_path / "players" / "carol" / "config" / "arbiter" / "games.toml").exists()


def test_web_remove_and_an_unreachable_folder(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player]
) -> None:
    root = _new(cli, tmp_path, keys)
    carol = player("carol")
    ok(carol("play", "add", root / "game.json", "--seat", "carol", "--key", keys["carol"],
             "--via", "folder"))  # fmt: skip
    web = carol("play", "table", "--web")
    assert "the web page does not show peer games yet: play it in the terminal" in error_line(
        web, 2
    )
    orders = carol("play", "orders", "table")
    assert "is a peer game (no referee)" in error_line(orders, 2)
    root.rename(tmp_path / "moved")
    listed = json.loads(ok(carol("play", "list", "--json")).out)
    assert listed[0]["status"] == "unreachable" and not listed[0]["mine"]
    assert "holds no peer game" in listed[0]["note"], listed
    assert "table (carol, via peer/folder): " in ok(carol("play", "--check")).out
    removed = ok(carol("play", "remove", "table"))
    assert "removed table from your games" in removed.out
    assert json.loads(ok(carol("play", "list", "--json")).out) == []


def test_a_deadline_is_due_by_the_seats_own_clock(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("ARBITER_NOW", "2026-12-05T10:00:00Z")
    root = _new(cli, tmp_path, keys, "--deadline", "1h")
    _add(player, root, keys)
    first = _row(player, "alice")
    assert first["due"] == "2026-12-05T11:00:00Z" and first["left"] == 3600
    monkeypatch.setenv("ARBITER_NOW", "2026-12-05T10:30:00Z")
    again = _row(player, "alice")  # the round opened for alice when she first read it
    assert again["due"] == "2026-12-05T11:00:00Z" and again["left"] == 1800
    later = _row(player, "bob")  # bob first reads it now: his own clock
    assert later["due"] == "2026-12-05T11:30:00Z" and later["left"] == 3600
    check = ok(player("bob")("play", "--check")).out
    assert "deadline 2026-12-05T11:30:00Z" in check
    # Everyone joins; then alice owes the first shuffle and stays silent past the deadline.
    _typing(monkeypatch)
    for seat in SEATS:
        ok(player(seat)("play", "table"))
    assert _row(player, "alice")["note"] == "your shuffle (sent when you open it)"
    for seat in ("bob", "carol"):  # each notes when it saw the round open
        row = _row(player, seat)
        assert row["note"] == "alice's shuffle of deck(s) d0" and row["turn"] == "alice"
        assert row["due"] == "2026-12-05T11:30:00Z"
    monkeypatch.setenv("ARBITER_NOW", "2026-12-05T12:00:00Z")
    for seat in ("bob", "carol"):
        ok(player(seat)("peer", "timeout", root, "--seat", seat, "--key", keys[seat]))
    for seat in SEATS:
        row = _row(player, seat)
        assert (row["status"], row["note"], row["mine"]) == ("over", "over: alice forfeited", False)
        assert row["due"] is None and row["turn"] is None
    over = ok(player("alice")("play", "table")).out
    assert "the game is over: alice did not answer round 1 in time" in over
    assert "over: alice forfeited" in over
    assert f"arbiter peer reveal {root} --seat alice --key {keys['alice']} --via folder" in over


def test_the_profile_keeps_refereed_entries_byte_for_byte(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player]
) -> None:
    from arbiter.play import profile

    root = _new(cli, tmp_path, keys)
    alice = player("alice")
    path = tmp_path / "players" / "alice" / "config" / "arbiter" / "games.toml"
    path.parent.mkdir(parents=True)
    older = (
        "# arbiter play's games: `arbiter play add` writes this file.\n\n"
        '[games."friday"]\nseat = "alice"\nkey = "/k/alice"\nvia = "mail"\n'
        'manifest = "/g/friday/game.json"\nconfig = "/k/mail.toml"\nto = "desk@example.org"\n'
    )
    path.write_text(older)
    ok(alice("play", "add", root / "game.json", "--seat", "alice", "--key", keys["alice"],
             "--via", "folder"))  # fmt: skip
    text = path.read_text()
    assert text.startswith(older) and '[games."table"]' in text
    assert profile.dumps(profile.load()) == text
    path.write_text(text.replace('carry = "folder"', 'carry = "pigeon"'))
    broken = alice("play", "list")
    line = error_line(broken, 2)
    assert "games.\"table\": a peer game travels via folder, git, mail, not 'pigeon'" in line


@needs_git
def test_through_git_each_player_in_its_own_clone(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    clones = {seat: tmp_path / "clones" / seat for seat in SEATS}
    git(tmp_path, "clone", "-q", str(origin), str(clones["alice"]))
    git(clones["alice"], "commit", "-q", "--allow-empty", "-m", "a shared repository")
    git(clones["alice"], "push", "-q", "origin", "main")
    named = [arg for s in SEATS for arg in ("--seat", f"{s}={keys[s]}.pub")]
    ok(player("alice")("peer", "new", clones["alice"] / "table", "--game", "motcoin", *named,
                       "--via", "git"))  # fmt: skip
    for seat in SEATS[1:]:
        git(tmp_path, "clone", "-q", str(origin), str(clones[seat]))
    for seat in SEATS:
        added = player(seat)("play", "add", clones[seat] / "table" / "game.json", "--seat", seat,
                             "--key", keys[seat], "--via", "git")  # fmt: skip
        assert "added peer game table (" + seat + ", via git)" in ok(added).out
    assert _row(player, "bob")["via"] == "peer/git"
    opened = _deal(player, monkeypatch)
    assert opened[:3] == SEATS
    pushed = git(origin, "ls-tree", "-r", "--name-only", "main", "table/messages").splitlines()
    assert len(pushed) >= 3 * 3 + 1  # every seat's key, shuffle and shares, from its clone
    prompted = _row(player, opened[-1])
    assert prompted["note"] == "your decision" and prompted["turn"] == opened[-1]


def _mail_config(base: Path, seat: str, user: MailUser, dovecot: Dovecot, relay: SmtpRelay) -> Path:
    base.mkdir(parents=True, exist_ok=True)
    (base / "pw").write_text(user.password + "\n")
    config = base / "mail.toml"
    config.write_text(
        f'[imap]\nhost = "{dovecot.host}"\nport = {dovecot.port}\nuser = "{user.name}"\n'
        'password_file = "pw"\ntls = "none"\n\n'
        f'[smtp]\nhost = "{relay.host}"\nport = {relay.port}\ntls = "none"\n'
        f'from = "{seat} <{user.address}>"\n'
    )
    return config


@needs_dovecot
def test_by_mail_the_copy_comes_from_the_mailbox(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], player: Callable[[str], Player],
    monkeypatch: pytest.MonkeyPatch, dovecot: Dovecot, smtp_relay: SmtpRelay,
    new_user: Callable[..., MailUser],
) -> None:  # fmt: skip
    users = {seat: new_user(seat) for seat in SEATS}
    base = {seat: tmp_path / "players" / seat for seat in SEATS}
    config = {s: _mail_config(base[s], s, users[s], dovecot, smtp_relay) for s in SEATS}
    copy = {seat: base[seat] / "copy" / "table" for seat in SEATS}
    copy["alice"].parent.mkdir(parents=True)
    named = [arg for s in SEATS for arg in ("--seat", f"{s}={keys[s]}.pub")]
    addresses = [arg for s in SEATS for arg in ("--address", f"{s}={users[s].address}")]
    ok(player("alice")("peer", "new", copy["alice"], "--game", "motcoin", *named, *addresses,
                       "--via", "mail", "--mail", config["alice"]))  # fmt: skip
    assert not (copy["bob"] / "game.json").exists()
    for seat in SEATS:  # bob's and carol's copies take game.json from their mailboxes
        added = player(seat)("play", "add", copy[seat] / "game.json", "--seat", seat,
                             "--key", keys[seat], "--via", "mail", "--config", config[seat])  # fmt: skip
        assert "added peer game table (" + seat + ", via mail)" in ok(added).out
    assert (copy["bob"] / "game.json").read_bytes() == (copy["alice"] / "game.json").read_bytes()
    profile = (base["bob"] / "config" / "arbiter" / "games.toml").read_text()
    assert f'config = "{config["bob"].resolve()}"' in profile and 'carry = "mail"' in profile
    first = _row(player, "bob")
    assert first["via"] == "peer/mail" and first["note"] == "your join (sent when you open it)"
    opened = _deal(player, monkeypatch)
    assert opened[:3] == SEATS
    prompted = _row(player, opened[-1])
    assert prompted["note"] == "your decision"
    other = next(s for s in SEATS if s != opened[-1])
    assert _row(player, other)["note"] == f"{opened[-1]}'s decision"


def test_a_decision_that_carries_the_last_shares_shows_its_table(
    tmp_path: Path, cli: Cli, keys: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two seats of Momiji: the cards a turn turned up (the garden refilled) wait only for
    the share of the seat that decides next, which rides on its decision (docs/peer.md
    §5.2). Its desk shows the table those shares open and the numbered decisions on it,
    and the number typed is the decision sent."""
    from helpers.peer_play import chooser, seeded

    from arbiter.peer import folder as files

    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "secrets"))
    root = tmp_path / "table"
    pair = ["alice", "bob"]
    named = [arg for s in pair for arg in ("--seat", f"{s}={keys[s]}.pub")]
    ok(cli("peer", "new", root, "--game", "momiji", *named))
    for seat in pair:
        ok(cli("peer", "join", root, "--seat", seat, "--key", keys[seat]))
    # Both players' machines in one process: seeded shuffles and choices, the same deal
    # and the same turns on every run, until a decision carries the last shares.
    terms = files.load_terms(root)
    loaded = files.load(root, secrets={s: files.read_secret(terms, s) for s in pair})
    for n, seat in enumerate(pair):
        loaded.players[seat].draw = seeded(bytes([7, n]))
    choose = chooser(7)
    game = loaded.game
    riding = None
    for _ in range(60):
        owed = next(o for s, o in game.waiting.items() if s not in game.answered)
        if owed.kind == "decision" and owed.cards:
            riding = owed.seat
            break
        loaded.write(loaded.players[owed.seat].compose(choose), keys[owed.seat])
    assert riding is not None, "no decision carried shares in 60 messages"
    assert game.settled < len(game.history), "the last step waits for the riding shares"
    ok(cli("play", "add", root / "game.json", "--seat", riding, "--key", keys[riding],
           "--via", "folder"))  # fmt: skip
    _typing(monkeypatch, "1")
    done = ok(cli("play", "table"))
    listing = done.out.split("your decisions (type a number, or q to leave):\n")[1]
    first = listing.splitlines()[0]
    assert first.startswith("    1. ") and f"{riding} (you): hand " in done.out
    label = first[len("    1. ") : first.index("    {")]
    assert f"picked 1: {label}" in done.out
    assert f"sent {game.round:06d}-{riding}.json: {riding}'s decision (round {game.round})" in (
        done.out
    )
