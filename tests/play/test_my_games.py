"""'My games' (issue 26, item 3): ``arbiter play list`` (and ``--check``) shows every game
of the profile with whose turn it is, the deadline and the time left; ``arbiter play``
with no argument opens the game waiting for this player with the least time left."""

from __future__ import annotations

import json

from arbiter.core.deadlines import add
from arbiter.play import terminal

from .kit import real_game


def _last_time(table) -> str:
    return json.loads(table.gd.chain.read_text().splitlines()[-1])["time"]


def test_the_list_and_the_game_opened(tmp_path, cli, monkeypatch):
    # Three games: one waits for me with a day, one with an hour, one waits for another.
    day = real_game(tmp_path / "day", "momiji", deadline=86400, game_id="day")
    hour = real_game(tmp_path / "hour", "momiji", deadline=3600, game_id="hour")
    other = real_game(tmp_path / "other", "mottainai", game_id="other")
    waits_for = other.turn()
    mine_in = {"day": day.turn(), "hour": hour.turn(),
               "other": next(s for s in other.seats if s != waits_for)}
    for name, table in (("day", day), ("hour", hour), ("other", other)):
        seat = mine_in[name]
        added = cli("play", "add", table.root / "game.json", "--seat", seat,
                    "--key", table.keys[seat], "--via", "desk")
        assert added.code == 0, added.err
    now = add(_last_time(hour), 600)  # ten minutes after the hour game's last entry
    monkeypatch.setenv("ARBITER_NOW", now)
    listed = cli("play", "list", "--json")
    assert listed.code == 0, listed.err
    rows = {row["game"]: row for row in json.loads(listed.out)}
    assert set(rows) == {"day", "hour", "other"}
    mine = [r["game"] for r in json.loads(listed.out) if r["mine"]]
    assert mine == ["hour", "day"]  # least time left first
    assert rows["hour"]["left"] == 3000 and rows["hour"]["due"] == add(_last_time(hour), 3600)
    assert rows["other"]["due"] is None and not rows["other"]["mine"]
    assert rows["other"]["note"] == f"{waits_for} decides"
    check = cli("play", "--check")
    assert check.code == 0 and check.out.startswith("2 of 3 game(s) wait for you")
    assert "50m left" in check.out or "50 minutes left" in check.out, check.out
    # No argument: the list, then the game with the least time left is opened.
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "q")
    opened = cli("play", "--plain")
    assert opened.code == 0, opened.err
    assert "opening hour" in opened.out and "left without signing anything" in opened.out


def test_an_unreachable_game_is_listed_with_its_reason(tmp_path, cli):
    table = real_game(tmp_path, "momiji", game_id="gone")
    seat = table.turn()
    assert cli("play", "add", table.root / "game.json", "--seat", seat, "--key",
               table.keys[seat], "--via", "desk").code == 0
    (table.root / "players" / seat / "state.json").rename(tmp_path / "moved-away.json")
    listed = cli("play", "list")
    assert listed.code == 0
    assert "gone" in listed.out and "0 of 1 game(s) wait for you" in listed.out
