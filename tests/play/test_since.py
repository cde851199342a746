""""What happened since you last decided" (issue 26, item 1): after a seat's move, its
next visit shows exactly the entries made since, from its own log."""

from __future__ import annotations

import json

from arbiter.play import terminal
from arbiter.play.since import entries

from .kit import real_game


def test_the_story_starts_after_the_seats_own_entry(tmp_path, cli, monkeypatch):
    table = real_game(tmp_path, "momiji")
    me = table.turn()
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "y" if "[y" in prompt else "1")
    runs = []
    while table.turn() == me:  # my turn, played through arbiter play until it passes
        runs.append(cli("play", table.gd.seat_state(me), "--key", table.keys[me], "--plain"))
        assert runs[-1].code == 0, runs[-1].err
    assert "Lately:" in runs[0].out and "signed and sent" in runs[0].out
    mine = json.loads(table.gd.public_state.read_bytes())["seq"]
    # The others play until it is my turn again.
    while table.turn() != me:
        seat = table.turn()
        table.play(seat, table.state(seat)["legal"][0])
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "q")
    now = json.loads(table.gd.public_state.read_bytes())["seq"]
    assert now > mine
    second = cli("play", table.gd.seat_state(me), "--key", table.keys[me], "--plain")
    assert second.code == 0
    story = second.out.split("Since you last decided:\n", 1)[1].split("\n\n", 1)[0]
    shown = [line.strip() for line in story.splitlines()]
    log = (table.gd.seat_state(me).parent / "log.md").read_text()
    assert shown == [f"#{n} {line}" for n, line in entries(log) if mine < n <= now]
