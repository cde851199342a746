"""A cheating peer is caught at the message where it cheats (issue 29, items 1 and 7):
each forged message below is refused with a one-line reason naming its seat and round,
and the game is left exactly as it was; the honest message is then taken."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from helpers.peer_play import Table, chooser, doubles, new_table, play

from arbiter.core.errors import Tampered
from arbiter.core.peer import elgamal, group, schnorr
from arbiter.core.peer.cards import point
from arbiter.peer import wire
from arbiter.peer.protocol import DECISION, SHARES, SHUFFLE, PeerGame


def _fingerprint(game: PeerGame) -> Any:
    state = None if game.state is None else game.engine.encode(game.state)
    decks = {d: (list(x.cipher), x.shuffled) for d, x in game.decks.items()}
    return (game.round, dict(game.waiting), dict(game.answered), state, decks, dict(game.opened),
            copy.deepcopy(game.shares), copy.deepcopy(game.told), dict(game.keys))  # fmt: skip


def refused(table: Table, message: dict[str, Any], reason: str) -> None:
    before = _fingerprint(table.game)
    with pytest.raises(Tampered, match=reason) as caught:
        table.game.receive(message)
    seat, round_ = message.get("seat"), message.get("round")
    assert str(caught.value).startswith(f"{seat}'s message of round {round_}: ")
    assert "\n" not in str(caught.value)
    assert _fingerprint(table.game) == before


def stop_at(kind: str) -> Any:
    return lambda table, seat: table.game.owed(seat).kind == kind


def test_keys_need_their_proof_and_are_each_seat_own() -> None:
    table = new_table("momiji", 3, 1)
    honest = table.players["s0"].compose(chooser(1))
    forged = dict(
        honest, proof=wire.hexed(schnorr.prove(group.from_int(5), table.game.context("s0")))
    )
    refused(table, forged, "proof")
    replayed = dict(honest, seat="s1")  # s0's key and proof sent as s1's: bound to s0
    refused(table, replayed, "proof")
    refused(table, dict(honest, key=wire.hexed(group.IDENTITY)), "identity")
    table.game.receive(honest)
    refused(table, honest, "already answered")
    copied = dict(table.players["s1"].compose(chooser(1)), key=honest["key"], proof=honest["proof"])
    refused(table, copied, "proof")


def test_a_shuffle_must_permute_the_same_cards() -> None:
    table = play(new_table("momiji", 3, 2), 2, until=stop_at(SHUFFLE))
    seat = next(s for s in table.players if table.game.owed(s) is not None)
    honest = table.players[seat].compose(chooser(2))
    cards = honest["shuffles"][0]["cards"]
    # A duplicated card: slot 1 replaced by slot 0.
    dup = copy.deepcopy(honest)
    dup["shuffles"][0]["cards"][1] = cards[0]
    refused(table, dup, "shuffle")
    # A self-encrypted substitute: slot 0 replaced by the seat's own encryption of a card.
    fake = elgamal.encrypt(point("momiji", "maple-3", 0), table.game.joint, group.from_int(7))
    sub = copy.deepcopy(honest)
    sub["shuffles"][0]["cards"][0] = [wire.hexed(fake[0]), wire.hexed(fake[1])]
    refused(table, sub, "shuffle")
    # The right deck, the wrong order of decks, and a proof from another round.
    refused(table, dict(honest, shuffles=honest["shuffles"][::-1]), "in that order")
    refused(table, dict(honest, round=honest["round"] + 1), "the game is at round")
    idle = next(s for s in table.players if s != seat)
    refused(table, dict(honest, seat=idle), "owes nothing")
    table.game.receive(honest)
    following = next(s for s in table.players if table.game.owed(s) is not None)
    replay = dict(honest, seat=following, round=table.game.round, after=table.game.head)
    refused(table, replay, "shuffle")
    # A message made against another history (a stale or forged head) is refused.
    mine = table.players[following].compose(chooser(2))
    refused(table, dict(mine, after=honest["after"]), "another history")
    table.game.receive(mine)


def test_a_share_must_be_the_seat_own_for_the_card_owed() -> None:
    table = play(new_table("momiji", 3, 3), 3, until=stop_at(SHARES))
    seat = next(s for s in table.players if table.game.owed(s) is not None)
    honest = table.players[seat].compose(chooser(3))
    wrong = copy.deepcopy(honest)
    wrong["shares"][0]["share"] = wire.hexed(group.base(group.from_int(11)))
    refused(table, wrong, "decryption share")
    swapped = copy.deepcopy(honest)
    if len(swapped["shares"]) > 1:
        swapped["shares"][0]["card"], swapped["shares"][1]["card"] = (
            swapped["shares"][1]["card"], swapped["shares"][0]["card"])  # fmt: skip
        refused(table, swapped, "decryption share")
    refused(table, dict(honest, shares=honest["shares"][1:]), "not the")
    refused(table, dict(honest, game="another-game"), "not a message of peer game")
    refused(table, dict(honest, decision={"kind": "end"}), "carries no decision")
    # The same seat's shares of the same card in another game with the same secrets and
    # decks: equal shares, but their proofs name the other game, so they fail here.
    other = play(new_table("momiji", 3, 3, game_id="another-game"), 3, until=stop_at(SHARES))
    theirs = other.players[seat].compose(chooser(3))
    assert [x["share"] for x in theirs["shares"]] == [x["share"] for x in honest["shares"]]
    refused(table, dict(honest, shares=theirs["shares"]), "decryption share")
    table.game.receive(honest)


def test_decisions_open_only_held_cards_and_claims_must_hold() -> None:
    table = new_table("momiji", 3, 4)
    choose = doubles(4)
    message: dict[str, Any] = {}
    for _ in range(2000):
        play(table, 4, until=stop_at(DECISION), choose=choose)
        seat = next(s for s in table.players if table.game.owed(s) is not None)
        message = table.players[seat].compose(choose)
        if message.get("claims"):
            break
        table.game.receive(message)
    assert message.get("claims"), "no card was buried at once"
    seat = message["seat"]
    # An opening of a card the seat does not hold (another seat's hidden card).
    theirs = next(c for s, held in table.game.told.items() if s != seat for c in sorted(held)
                  if c not in table.game.opened)  # fmt: skip
    stolen = copy.deepcopy(message)
    stolen["openings"][0]["card"] = theirs
    refused(table, stolen, "not a card this seat holds hidden")
    # A claim whose proof is for other cards, or no claim at all.
    forged = copy.deepcopy(message)
    forged["claims"][0]["proof"] = "00" * (len(bytes.fromhex(forged["claims"][0]["proof"])))
    refused(table, forged, "claim")
    refused(table, {k: v for k, v in message.items() if k != "claims"}, "needs claims")
    # A decision the rules refuse: the same cards in the other order.
    backwards = copy.deepcopy(message)
    backwards["decision"]["cards"] = backwards["decision"]["cards"][::-1]
    refused(table, backwards, "needs claims of \\[\\]")
    del backwards["claims"]
    refused(table, backwards, "may stay hidden")
    table.game.receive(message)


def test_a_rerandomisation_must_shuffle_the_whole_hand() -> None:
    table = new_table("momiji", 3, 4)
    message: dict[str, Any] = {}
    for _ in range(5000):
        play(table, 4, until=stop_at(DECISION))
        seat = next(s for s in table.players if table.game.owed(s) is not None)
        message = table.players[seat].compose(chooser(4))
        if "rerandomise" in message:
            break
        table.game.receive(message)
    assert "rerandomise" in message, "no hand was re-randomised"
    (mixed,) = message["rerandomise"]  # Momiji has one deck: one mix
    fake = elgamal.encrypt(
        point("momiji", "maple-3", 0), table.game.keys[message["seat"]], group.from_int(9)
    )
    swapped = copy.deepcopy(message)
    swapped["rerandomise"][0]["cipher"][0] = [wire.hexed(fake[0]), wire.hexed(fake[1])]
    refused(table, swapped, "shuffle")
    partial = copy.deepcopy(message)
    partial["rerandomise"][0]["cards"][0] = "?d0.999"
    refused(table, partial, "whole hand")
    short = copy.deepcopy(message)
    short["rerandomise"][0]["cards"] = mixed["cards"][:1]
    refused(table, short, "at least 2")
    table.game.receive(message)
    new = [
        [wire.hexed(a), wire.hexed(b)] for a, b in (table.game.held[c][1] for c in mixed["cards"])
    ]
    assert new == mixed["cipher"]
