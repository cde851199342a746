"""``arbiter play`` at a real terminal (issue 26, item 1): a person reads the pictures,
types a card name in any case, takes it back, asks for help, picks by number, confirms;
the move is signed and judged at once at a kitchen-table desk."""

from __future__ import annotations

import json
import os
import re

from helpers.tables import snapshot

from .kit import real_game
from .pty_person import Person

CARD_LINE = re.compile(r"^ {9}(.+?) \[", re.M)


def _env(tmp_path):
    env = dict(os.environ)
    env.update({
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "home" / "config"),
        "XDG_STATE_HOME": str(tmp_path / "home" / "state"),
        "TERM": "xterm-256color",
        "COLUMNS": "120",
        "LINES": "50",
    })
    return env


def test_a_person_plays_a_turn_at_a_terminal(tmp_path):
    table = real_game(tmp_path, "mottainai")
    seat = table.turn()
    before = json.loads(table.gd.public_state.read_bytes())["seq"]
    person = Person(["play", str(table.gd.seat_state(seat)), "--key", str(table.keys[seat])],
                    _env(tmp_path))
    screen = person.wait_for("> ")
    assert "Lately:" in screen and "decision(s) now (task)" in screen  # a first visit
    assert "your turn" in screen
    assert any(c in screen for c in "│┃╭┏─━")  # a terminal gets the pictures (rich panels)
    name = CARD_LINE.findall(screen)[0]
    person.type("?")
    assert "u takes back the last pick" in person.wait_for("> ")
    person.type(name.lower())
    screen = person.wait_for("> ")
    assert f"picked 1: task {name}" in screen
    assert "The table after your picks (not sent yet):" in screen
    person.type("u")
    assert "took back the last pick" in person.wait_for("> ")
    person.type(f"? {name.upper()}")
    assert "[" in person.wait_for("> ")  # the card's line: name [type]: what it does
    person.type(name.upper())
    while person.wait_any(["> ", "[y = sign and send"])[0] == "> ":
        person.type("1")  # the first decision each time, until the batch is complete
    person.type("y")
    person.wait_for("signed and sent")
    assert person.finish() == 0
    after = json.loads(table.gd.public_state.read_bytes())
    assert after["seq"] == before + 1


def test_a_refused_name_changes_nothing(tmp_path):
    table = real_game(tmp_path, "mottainai")
    seat = table.turn()
    before = snapshot(table.root)
    person = Person(["play", str(table.gd.seat_state(seat)), "--key", str(table.keys[seat]),
                     "--plain"], _env(tmp_path))
    person.wait_for("> ")
    person.type("bellz")
    assert "no decision is called 'bellz': try " in person.wait_for("> ")
    person.type("q")
    person.wait_for("left without signing anything")
    assert person.finish() == 0
    assert snapshot(table.root) == before
