"""The desk transport on real game folders: fetch, kitchen-table submit, a drop folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers.sealed import sealed_started
from helpers.tables import CREATED, REFEREE_SEED, SECRET, make_keys, snapshot, started

from arbiter.core.canonical import pretty
from arbiter.core.errors import BadSignature, NotReady, OutOfTurn, StaleHead, UsageError
from arbiter.core.player import load_state, make_join, make_move, seal_move
from arbiter.core.referee import new_game, submit
from arbiter.play import profile
from arbiter.play.profile import GameEntry
from arbiter.play.transports import open_transport
from arbiter.play.transports.desk import DeskTransport


def test_fetch_plain(tmp_path: Path) -> None:
    table = started(tmp_path)
    got = DeskTransport(table.root, "alice", None).fetch()
    assert got.state == table.gd.seat_state("alice").read_bytes()
    assert got.log == table.gd.seat_log("alice").read_text()
    assert got.time is None  # a game without deadlines records no clock
    assert got.where.endswith("players/alice/state.json")
    with pytest.raises(NotReady) as exc:
        DeskTransport(table.root, "zoe", None).fetch()
    assert "no state file for seat zoe" in exc.value.message
    with pytest.raises(NotReady):
        DeskTransport(tmp_path / "nowhere", "alice", None).fetch()


def test_fetch_sealed(tmp_path: Path) -> None:
    table = sealed_started(tmp_path)
    got = DeskTransport(table.root, "bob", table.keys["bob"]).fetch()
    assert json.loads(got.state) == table.state("bob")
    assert got.log is not None and "bob" in got.log
    with pytest.raises(UsageError) as exc:
        DeskTransport(table.root, "bob", None).fetch()
    assert "is sealed: pass your key" in exc.value.message


def test_fetch_time_of_a_timed_game(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    root = tmp_path / "game"
    new_game(root, "tally", [(s, f"{keys[s]}.pub") for s in keys], {}, game_id="timed",
             created=CREATED, secret=SECRET, referee_seed=REFEREE_SEED, deadline=3600)
    submit(root, pretty(make_join(root / "game.json", "alice", keys["alice"])), "j1",
           now="2026-01-01T00:00:05Z")
    submit(root, pretty(make_join(root / "game.json", "bob", keys["bob"])), "j2",
           now="2026-01-01T00:01:07Z")
    assert DeskTransport(root, "alice", None).fetch().time == "2026-01-01T00:01:07Z"


def signed_move(root: Path, seat: str, key: Path) -> bytes:
    state = load_state(root / "players" / seat / "state.json")
    return pretty(make_move(state, key, [state["legal"][0]]))


def test_kitchen_table_submit(tmp_path: Path) -> None:
    table = started(tmp_path)
    seat = table.turn()
    transport = DeskTransport(table.root, seat, table.keys[seat])
    before = table.state()["seq"]
    said = transport.deliver(f"{seat}-move.json", signed_move(table.root, seat, table.keys[seat]))
    assert f"accepted as entry #{before + 1}" in said
    assert table.state()["seq"] == before + 1


def test_kitchen_table_refusals_change_nothing(tmp_path: Path) -> None:
    table = started(tmp_path)
    seat = table.turn()
    stale = signed_move(table.root, seat, table.keys[seat])
    table.step()  # the game moves on: the first move is now stale
    folder = snapshot(table.root)
    waiting = table.turn()
    idle = next(s for s in table.seats if s != waiting)
    cases: list[tuple[str, bytes, type[Exception]]] = [
        (seat, stale, StaleHead),
        # signed by the wrong key: the referee's error, its exit class
        (waiting, pretty(make_move(table.state(waiting), table.keys[idle],
                                   [table.state(waiting)["legal"][0]])), BadSignature),
        (idle, pretty(make_move(table.state(idle), table.keys[idle], [{"kind": "draw"}])), OutOfTurn),
    ]
    for who, data, error in cases:
        with pytest.raises(error):
            DeskTransport(table.root, who, table.keys[who]).deliver("m.json", data)
        assert snapshot(table.root) == folder  # byte for byte


def test_drop_folder(tmp_path: Path) -> None:
    table = started(tmp_path)
    copy = tmp_path / "published"  # what a player sees: the folder without referee/
    shutil.copytree(table.root, copy, ignore=shutil.ignore_patterns("referee"))
    drop = tmp_path / "drop"
    drop.mkdir()
    seat = table.turn()
    data = signed_move(copy, seat, table.keys[seat])
    with pytest.raises(UsageError) as exc:
        DeskTransport(copy, seat, table.keys[seat]).deliver("m.json", data)
    assert "give --drop" in exc.value.message
    transport = DeskTransport(copy, seat, table.keys[seat], drop=drop)
    assert "dropped into" in transport.deliver("m.json", data)
    assert (drop / "m.json").read_bytes() == data
    assert "already" in transport.deliver("m.json", data)  # the same file again: fine
    with pytest.raises(UsageError) as exc:
        transport.deliver("m.json", data + b" ")
    assert "already exists with other content" in exc.value.message
    assert (drop / "m.json").read_bytes() == data
    assert sorted(p.name for p in drop.iterdir()) == ["m.json"]  # no temporary file left
    with pytest.raises(UsageError):
        transport.deliver("../m.json", data)
    # the referee collects it: the same file is accepted
    accepted = submit(table.root, (drop / "m.json").read_bytes(), "m.json")
    assert accepted.seat == seat


def test_open_transport_from_the_profile(tmp_path: Path) -> None:
    table = started(tmp_path)
    entry = profile.add(GameEntry("tally-test", "alice", table.keys["alice"], "desk",
                                  table.gd.manifest, {"folder": str(table.root)}))
    transport = open_transport(profile.load()["tally-test"])
    assert isinstance(transport, DeskTransport) and transport.name == "desk"
    assert transport.fetch().state == table.gd.seat_state("alice").read_bytes()
    assert entry.via == "desk"


def test_sealed_kitchen_table(tmp_path: Path) -> None:
    table = sealed_started(tmp_path)
    seat = table.turn()
    state = table.state(seat)
    data = seal_move(make_move(state, table.keys[seat], [state["legal"][0]]), table.gd.manifest)
    said = DeskTransport(table.root, seat, table.keys[seat]).deliver("m.json.age", data)
    assert f"accepted as entry #{state['seq'] + 1}" in said
