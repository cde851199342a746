"""The errors a player meets, said plainly (issue 26, item 6): each through ``arbiter
play`` at a desk, one line, and nothing signed or changed where nothing should be."""

from __future__ import annotations

import json

import pytest
from helpers.tables import make_keys, snapshot

from arbiter.core.deadlines import add
from arbiter.core.referee import timeout
from arbiter.play import terminal
from arbiter.play.session import Moved, Session
from arbiter.play.transports.desk import DeskTransport

from .kit import real_game


def _quit(monkeypatch):
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "q")


def test_the_wrong_key_for_the_seat(tmp_path, cli):
    table = real_game(tmp_path, "mottainai")
    seat = table.turn()
    stranger = make_keys(tmp_path / "other", ["mallory"])["mallory"]
    before = snapshot(table.root)
    ran = cli("play", table.gd.seat_state(seat), "--key", stranger)
    assert ran.code == 2
    assert ran.err == (
        f"arbiter: error: {stranger} is not the key registered for seat {seat}: use that "
        "seat's key (the one whose .pub you gave the referee)\n"
    )
    assert snapshot(table.root) == before


def test_not_your_turn_says_whose_and_since_when(tmp_path, cli, monkeypatch):
    table = real_game(tmp_path, "momiji", deadline=86400)
    seat = table.turn()
    other = next(s for s in table.seats if s != seat)
    _quit(monkeypatch)
    ran = cli("play", table.gd.seat_state(other), "--key", table.keys[other], "--plain")
    assert ran.code == 11  # a script can tell there was nothing to do
    last = json.loads(table.gd.chain.read_text().splitlines()[-1])
    assert ran.err.startswith(f"arbiter: error: not your turn: {seat} decides (")
    assert ran.err.endswith(f") since entry #{last['seq']} at {last['time']}\n")
    assert ran.err.count("\n") == 1
    assert "Lately:" in ran.out  # the table and the story were shown first


def test_the_game_moved_on_nothing_is_signed(tmp_path, monkeypatch):
    table = real_game(tmp_path, "mottainai")
    seat = table.turn()
    first = Session(DeskTransport(table.root, seat, table.keys[seat]), table.keys[seat])
    second = Session(DeskTransport(table.root, seat, table.keys[seat]), table.keys[seat])
    first.load()
    second.load()
    first.pick("1")
    second.pick("2")
    first.send()
    moved = snapshot(table.root)
    with pytest.raises(Moved) as exc:
        second.send()
    assert exc.value.exit_code == 8
    assert "the game moved on since your state file (entry #2 → #3): nothing was signed" in (
        exc.value.message)
    assert exc.value.lines and all(n == 3 for n, _ in exc.value.lines)  # what happened
    assert snapshot(table.root) == moved
    assert second.state["seq"] == 3 and not second.picks  # the new state, a fresh batch


def test_a_sealed_state_without_a_key(tmp_path, cli):
    table = real_game(tmp_path, "momiji", sealed=True)
    seat = table.turn()
    sealed = table.gd.sealed_state(seat)
    ran = cli("show", sealed)
    assert ran.code == 2 and "is sealed: pass your key with --key" in ran.err
    ran = cli("play", sealed)
    assert ran.code == 2
    assert ran.err == (
        "arbiter: error: pass your key with --key (it signs your moves and opens sealed "
        "files)\n"
    )


def test_a_seat_that_timed_out_is_told(tmp_path, cli, monkeypatch):
    table = real_game(tmp_path, "momiji", deadline=3600, on_timeout="pass")
    seat = table.turn()
    last = json.loads(table.gd.chain.read_text().splitlines()[-1])
    timeout(table.root, now=add(last["time"], 7200))  # two hours on: the hour is gone
    _quit(monkeypatch)
    ran = cli("play", table.gd.seat_state(seat), "--key", table.keys[seat], "--plain")
    assert ran.code == 11  # the default decision passed the turn: nothing to decide now
    assert f"you did not decide in time (entry #{last['seq'] + 1}): {seat} did not decide in " \
        "time: the referee takes the default decision." in ran.out


def test_a_name_that_matches_nothing(tmp_path, cli, monkeypatch):
    table = real_game(tmp_path, "mottainai")
    seat = table.turn()
    answers = iter(["bellz", "q"])
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: next(answers))
    before = snapshot(table.root)
    ran = cli("play", table.gd.seat_state(seat), "--key", table.keys[seat], "--plain")
    assert ran.code == 0
    assert "no decision is called 'bellz': try " in ran.out and "(or a number 1–" in ran.out
    assert snapshot(table.root) == before
