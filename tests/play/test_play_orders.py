"""``arbiter play orders``: standing orders from the player's desk (issue 27 item 7,
docs/standing-orders.md) — a bot proposes, the player agrees, the orders travel as a move."""

from __future__ import annotations

import json

from helpers.tables import snapshot

from arbiter.play import terminal

from .kit import real_game


def _kinds(table) -> list[str]:
    return [json.loads(line)["kind"] for line in table.gd.chain.read_text().splitlines()]


def test_the_bot_proposes_and_a_yes_sends_them(tmp_path, cli):
    table = real_game(tmp_path, "mottainai", 3)
    waiting = next(s for s in table.seats if s != table.turn())
    state = table.gd.seat_state(waiting)
    ran = cli("play", "orders", state, "--key", table.keys[waiting], "--yes")
    assert ran.code == 0, ran.err
    assert "The greedy bot's standing orders for your next turn:" in ran.out
    assert "decide: " in ran.out and "signed and sent: " in ran.out
    assert _kinds(table)[-1] == "orders"
    mine = json.loads(state.read_bytes())
    assert len(mine["orders"]["steps"]) == 1
    again = cli("play", "orders", state, "--key", table.keys[waiting], "--cancel", "--yes")
    assert again.code == 0, again.err
    assert f"your standing orders of entry #{mine['orders']['seq']} are pending: 1 step" in again.out
    assert "orders" not in json.loads(state.read_bytes())


def test_no_answer_signs_nothing(tmp_path, cli, monkeypatch):
    table = real_game(tmp_path, "mottainai", 3)
    waiting = next(s for s in table.seats if s != table.turn())
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "n")
    before = snapshot(table.root)
    ran = cli("play", "orders", table.gd.seat_state(waiting), "--key", table.keys[waiting])
    assert ran.code == 0 and "nothing signed" in ran.out
    assert snapshot(table.root) == before


def test_on_your_own_turn_decide_instead(tmp_path, cli):
    table = real_game(tmp_path, "mottainai", 3)
    seat = table.turn()
    before = snapshot(table.root)
    ran = cli("play", "orders", table.gd.seat_state(seat), "--key", table.keys[seat], "--yes")
    assert ran.code == 11
    assert ran.err == (
        "arbiter: error: it is your turn: decide it now (`arbiter play`); orders are for "
        "later turns\n"
    )
    assert snapshot(table.root) == before


def test_an_engine_without_orders_says_so(tmp_path, cli):
    table = real_game(tmp_path, "momiji")
    waiting = next(s for s in table.seats if s != table.turn())
    before = snapshot(table.root)
    ran = cli("play", "orders", table.gd.seat_state(waiting), "--key", table.keys[waiting], "--yes")
    assert ran.code == 2 and "momiji does not take standing orders yet" in ran.err
    assert snapshot(table.root) == before


def test_waiting_at_the_table_says_how_or_what_is_pending(tmp_path, cli, monkeypatch):
    table = real_game(tmp_path, "mottainai", 3)
    waiting = next(s for s in table.seats if s != table.turn())
    state, key = table.gd.seat_state(waiting), table.keys[waiting]
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "q")
    ran = cli("play", state, "--key", key, "--plain")
    assert ran.code == 11
    assert "While you wait, `arbiter play orders` lets a bot order your next turn." in ran.out
    assert cli("play", "orders", state, "--key", key, "--yes").code == 0
    ran = cli("play", state, "--key", key, "--plain")
    assert ran.code == 11 and "Your standing orders of entry #" in ran.out
