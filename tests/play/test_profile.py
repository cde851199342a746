"""The player's profile (games.toml): round trip, XDG folders, checks, atomic 0600/0700."""

from __future__ import annotations

import os
import shutil
import stat
import tomllib
from pathlib import Path

import pytest
from helpers.tables import Table, started

from arbiter.core.errors import ArbiterError, UnknownSeat, UsageError
from arbiter.play import profile
from arbiter.play.profile import GameEntry


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def desk_entry(table: Table, seat: str = "alice", **changes: object) -> GameEntry:
    values: dict[str, object] = {
        "game": "tally-test", "seat": seat, "key": table.keys.get(seat, table.keys["alice"]), "via": "desk",
        "manifest": table.gd.manifest, "settings": {"folder": str(table.root)},
    }
    values.update(changes)
    return GameEntry(**values)  # type: ignore[arg-type]


def one_line(exc: pytest.ExceptionInfo[ArbiterError]) -> str:
    message = exc.value.message
    assert "\n" not in message and message.strip() == message
    return message


def test_round_trip_and_folders(tmp_path: Path, xdg: Path) -> None:
    table = started(tmp_path)
    drop = tmp_path / "drop"
    drop.mkdir()
    stored = profile.add(desk_entry(table, settings={"folder": str(table.root), "drop": str(drop)}))
    assert profile.config_path() == xdg / "config" / "arbiter" / "games.toml"
    assert profile.load() == {"tally-test": stored}
    assert stored.settings == {"folder": str(table.root), "drop": str(drop)}
    # 0700 folders, a 0600 file; the game.json copy beside the game's state
    assert mode(xdg / "config" / "arbiter") == 0o700
    assert mode(profile.config_path()) == 0o600
    state = profile.state_dir("tally-test")
    assert state == xdg / "state" / "arbiter" / "tally-test"
    assert mode(state) == 0o700 and mode(state.parent) == 0o700
    assert (state / "game.json").read_bytes() == table.gd.manifest.read_bytes()
    # a second game, then one removed
    other = started(tmp_path / "t2", game_id="tally-two")
    profile.add(desk_entry(other, seat="bob", game="tally-two", manifest=other.gd.manifest,
                           settings={"folder": str(other.root)}))
    assert list(profile.load()) == ["tally-test", "tally-two"]
    assert profile.remove("tally-test") == stored
    assert list(profile.load()) == ["tally-two"]
    assert state.is_dir()  # its state folder stays: it may hold a move not yet sent
    leftovers = [p.name for p in profile.config_path().parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_defaults_below_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, xdg: Path) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("XDG_STATE_HOME", "relative/ignored")  # the spec: ignore a relative one
    assert profile.config_path() == xdg / ".config" / "arbiter" / "games.toml"
    assert profile.state_dir("g1") == xdg / ".local" / "state" / "arbiter" / "g1"
    with pytest.raises(UsageError):
        profile.state_dir("../escape")


def test_relative_paths_are_stored_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = started(tmp_path)
    monkeypatch.chdir(tmp_path)
    entry = desk_entry(table, key=Path("keys/alice"), manifest=Path("game/game.json"),
                       settings={"folder": "game"})
    stored = profile.add(entry)
    assert stored.key == tmp_path / "keys" / "alice"
    assert stored.settings["folder"] == str(tmp_path / "game")
    assert profile.load()["tally-test"] == stored


@pytest.mark.parametrize(
    "text",
    ['plain', 'a "quoted" \\ back\\slash', "tab\tnew\nline\r", "\x00\x1f\x7f", "é ü ✓ 𝄞", ""],
)
def test_strings_round_trip(text: str) -> None:
    assert tomllib.loads(f"v = {profile.toml_string(text)}")["v"] == text


def test_odd_paths_round_trip(tmp_path: Path) -> None:
    odd = tmp_path / 'we"ird\\ [games] \n folder'
    table = started(odd)
    stored = profile.add(desk_entry(table))
    assert profile.load()["tally-test"] == stored
    assert stored.settings["folder"] == str(odd / "game")


def test_wrong_seat(tmp_path: Path) -> None:
    table = started(tmp_path)
    with pytest.raises(UnknownSeat) as exc:
        profile.add(desk_entry(table, seat="zoe"))
    assert "zoe" in one_line(exc) and "alice, bob" in exc.value.message


def test_wrong_key(tmp_path: Path) -> None:
    table = started(tmp_path)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, key=table.keys["bob"]))
    assert "is not the key registered for seat alice" in one_line(exc)
    # without a .pub beside it the public half is derived from the private key
    bare = tmp_path / "lonely" / "bob"
    bare.parent.mkdir()
    shutil.copy(table.keys["bob"], bare)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, key=bare))
    assert "is not the key registered for seat alice" in one_line(exc)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, key=tmp_path / "nokey"))
    assert "not found" in one_line(exc)
    assert not profile.config_path().exists()


def test_wrong_game_and_manifest(tmp_path: Path) -> None:
    table = started(tmp_path)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, game="another"))
    assert "not another" in one_line(exc)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "arbiter.game/2"}')
    with pytest.raises(ArbiterError) as exc:
        profile.add(desk_entry(table, manifest=broken))
    one_line(exc)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, game="Bad/Id"))
    assert "not a game id" in one_line(exc)


@pytest.mark.parametrize(
    ("via", "settings", "said"),
    [
        ("desk", {}, "needs --folder"),
        ("mail", {"config": "x.toml"}, "needs --to"),
        ("git", {"clone": "c"}, "needs --path"),
        ("pigeon", {}, "must be one of desk, mail, git"),
        ("desk", {"folder": "F", "to": "a@b.c"}, "--to does not belong"),
    ],
)
def test_missing_or_unknown_settings(tmp_path: Path, via: str, settings: dict[str, str], said: str) -> None:
    table = started(tmp_path)
    settings = {k: (str(table.root) if v == "F" else v) for k, v in settings.items()}
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, via=via, settings=settings))
    assert said in one_line(exc)


def test_implausible_settings(tmp_path: Path) -> None:
    table = started(tmp_path)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, settings={"folder": str(tmp_path / "nowhere")}))
    assert "is not a game folder" in one_line(exc)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, settings={"folder": str(table.root), "drop": str(tmp_path / "no")}))
    assert "does not exist" in one_line(exc)
    copy = tmp_path / "copy"  # the published files without the referee's: a drop is needed
    shutil.copytree(table.root, copy, ignore=shutil.ignore_patterns("referee"))
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, settings={"folder": str(copy)}))
    assert "give --drop" in one_line(exc)
    other = started(tmp_path / "other", game_id="tally-test", secret=bytes(32))
    with pytest.raises(UsageError) as exc:  # the same id, another game.json
        profile.add(desk_entry(table, settings={"folder": str(other.root)}))
    assert "is not the game.json you gave" in one_line(exc)
    config = tmp_path / "mail.toml"
    config.write_text('[smtp]\nhost = "h"\nfrom = "a@b.test"\n')
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, via="mail", settings={"config": str(config), "to": "d@b.test"}))
    assert "[imap] section is missing" in one_line(exc)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, via="git", settings={"clone": str(tmp_path), "path": "game"}))
    assert "git" in one_line(exc)
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, via="git", settings={"clone": str(tmp_path), "path": "../x"}))
    assert "relative to the repository's top" in one_line(exc)


def test_added_twice_needs_replace(tmp_path: Path) -> None:
    table = started(tmp_path)
    profile.add(desk_entry(table))
    before = profile.config_path().read_bytes()
    with pytest.raises(UsageError) as exc:
        profile.add(desk_entry(table, seat="bob", key=table.keys["bob"]))
    assert "--replace" in one_line(exc)
    assert profile.config_path().read_bytes() == before
    profile.add(desk_entry(table, seat="bob", key=table.keys["bob"]), replace=True)
    assert profile.load()["tally-test"].seat == "bob"
    with pytest.raises(UsageError) as exc:
        profile.remove("nothing-here")
    one_line(exc)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[games\nseat = ", "is not valid TOML"),
        ('[games."g1"]\nseat = "alice"\n', "has no key"),
        ('[games."g1"]\nseat = 3\n', "must be a string"),
        ('[games."g1"]\nseat="a"\nkey="k"\nvia="desk"\nmanifest="m"\n', "has no folder"),
        ('[games."g1"]\nseat="a"\nkey="k"\nvia="desk"\nmanifest="m"\nfolder="f"\nclone="c"\n',
         "unknown key"),
        ('[other]\n', "unknown table"),
        ('[games."G 1"]\n', "game id"),
    ],
)
def test_broken_profile_is_one_line(text: str, said: str) -> None:
    path = profile.config_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(UsageError) as exc:
        profile.load()
    message = one_line(exc)
    assert said in message and str(path) in message


def test_broken_profile_is_not_overwritten(tmp_path: Path) -> None:
    table = started(tmp_path)
    path = profile.config_path()
    path.parent.mkdir(parents=True)
    path.write_text("[games\n")
    with pytest.raises(UsageError):
        profile.add(desk_entry(table))
    assert path.read_text() == "[games\n"


def test_hand_written_relative_paths(tmp_path: Path) -> None:
    path = profile.config_path()
    path.parent.mkdir(parents=True)
    path.write_text('[games."g1"]\nseat="alice"\nkey="~/k"\nvia="git"\nmanifest="m.json"\n'
                    'clone="c"\npath="games/g1"\n')
    entry = profile.load()["g1"]
    assert entry.key == Path(os.environ["HOME"]) / "k"
    assert entry.manifest == path.parent / "m.json"
    assert entry.settings == {"clone": str(path.parent / "c"), "path": "games/g1"}
