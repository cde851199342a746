"""Standing orders by mail (docs/standing-orders.md): the step a move completes applies in
the desk's round, and the next seat's state mail is at the head after the step — no mail
from the seat whose order it was."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.tables import make_keys

from arbiter.core.orders import make_orders
from arbiter.core.player import make_move
from arbiter.core.referee import new_game
from arbiter.desks.mail.addresses import store
from mail.players import Player
from mail.servers import Dovecot, SmtpRelay
from mail.test_desk_game import desk_config, run_desk


def test_a_step_applies_in_the_round_and_the_next_seat_gets_the_head(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user
) -> None:
    referee = new_user("referee")
    games = tmp_path / "games"
    games.mkdir()
    seats = ["alice", "bob"]
    keys = make_keys(tmp_path / "keys", seats)
    folder = games / "orders"
    new_game(folder, "tally", [(s, f"{keys[s]}.pub") for s in seats], {}, game_id="orders",
             created="2026-12-01T00:00:00Z")
    players = {}
    for seat in seats:
        user = new_user(seat)
        store(folder, seat, user.address)
        players[seat] = Player(seat, user.address, user.name, user.password, keys[seat],
                               (dovecot.host, dovecot.port), (smtp_relay.host, smtp_relay.port),
                               referee.address)
    config = desk_config(tmp_path, dovecot, smtp_relay, referee, games)
    for player in players.values():
        player.join(folder / "game.json")
    run_desk(config, False)
    alice, bob = players["alice"], players["bob"]
    for player in players.values():
        player.fetch()
    assert alice.state is not None and bob.state is not None and alice.state["legal"]
    card = min(alice.state["view"]["hand"])
    step = {
        "when": [{"kind": "play", "card": card}, {"kind": "draw"}],
        "then": [{"kind": "play", "card": min(bob.state["view"]["hand"])}, {"kind": "draw"}],
    }
    bob.send("orders.json", make_orders(bob.state, bob.key, [step]))
    run_desk(config, False)
    alice.fetch()
    alice.send("move.json", make_move(alice.state, alice.key,
                                      [{"kind": "play", "card": card}, {"kind": "draw"}]))
    run_desk(config, False)
    alice.fetch()
    bob.fetch()
    head = json.loads((folder / "public" / "state.json").read_bytes())
    chain = (folder / "chain.jsonl").read_text().splitlines()
    assert json.loads(chain[-1])["kind"] == "order-step"
    assert alice.state["seq"] == head["seq"] and alice.state["legal"]  # her turn again
    assert bob.state["seq"] == head["seq"] and "orders" not in bob.state
