"""Whole games through ``arbiter play`` at a desk on this machine (issue 26, item 7):
each player adds the game to its own profile, joins when asked, and plays by numbers and
card names; the game is then revealed and verified."""

from __future__ import annotations

import pytest

from .e2e import Players, play_to_the_end, waiting_in
from .kit import real_game

GAMES = [
    pytest.param("mottainai", 2, id="mottainai"),
    pytest.param("momiji", 2, id="momiji"),
    pytest.param("motcoin", 3, id="motcoin", marks=pytest.mark.slow),  # ~160 turns
]


@pytest.mark.parametrize(("engine", "seats"), GAMES)
def test_a_whole_game_at_a_kitchen_table(engine, seats, tmp_path, cli, monkeypatch, capsys):
    table = real_game(tmp_path, engine, seats, joined=False, game_id=f"desk-{engine}")
    players = Players(tmp_path, table.seats, monkeypatch, capsys, f"desk/{engine}")
    for seat in table.seats:
        players.be(seat)
        added = cli("play", "add", table.root / "game.json", "--seat", seat,
                    "--key", table.keys[seat], "--via", "desk")
        assert added.code == 0, added.err
    runs = play_to_the_end(players, cli, f"desk-{engine}", waiting_in(table.root))
    assert runs >= 10
    typed = [t for p in players.people.values() for t in p.typed]
    assert any(not t.isdigit() and t not in ("y",) for t in typed)  # names were typed too
    assert cli("reveal", table.root).code == 0
    verified = cli("verify", table.root)
    assert verified.code == 0, verified.err
