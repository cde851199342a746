"""What of a decision a standing order's condition may name: each engine's
``public_decision`` leaves out what only the deciding seat knows (docs/standing-orders.md)."""

from __future__ import annotations

from arbiter.core import orders, registry


def test_mottainai_hides_a_returned_card_and_an_effect_s_parameters() -> None:
    engine = registry.get("mottainai")
    assert orders.supported(engine)
    assert engine.public_decision({"kind": "return", "card": "bell"}) == {"kind": "return"}
    used = {"kind": "use", "card": "kite", "cards": ["bell"]}
    assert engine.public_decision(used) == {"kind": "use", "card": "kite"}
    task = {"kind": "task", "card": "bell"}
    assert engine.public_decision(task) == task


def test_motcoin_decisions_are_public_whole() -> None:
    """MC-R19: bids, passes and removals are public as they are taken."""
    engine = registry.get("motcoin")
    assert orders.supported(engine)
    for decision in ({"kind": "pass"}, {"kind": "bid", "dice": [1, 6]}, {"kind": "remove", "card": "7"}):
        assert engine.public_decision(decision) == decision


def test_engines_that_do_not_say_take_no_orders() -> None:
    for name in ("momiji",):
        assert not orders.supported(registry.get(name))
