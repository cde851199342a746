"""A bot's batch is planned in worlds rebuilt from its view (``determinize``); every
decision of it must still be legal on the real table. Each table below once failed,
because the view left out something public the next decisions depend on:

- a Doll earlier in the turn gave the seat an extra action on its own task, so every
  world counted one action fewer (the view now shows the turn's settled facts);
- an open trigger's context (the action done, the card placed): Plane after a POTTER
  that Wutai's tucking interrupted was offered on the real table only;
- a declined trigger still open under another (its ``closed`` flag);
- a Jar's reveal still in the view after Night, its taken cards no longer in the hands
  it lists: ``determinize`` found no consistent table (``ImpossibleView``).
"""

from __future__ import annotations

import hashlib

import pytest

from arbiter.bots import match
from arbiter.core import registry


@pytest.mark.parametrize(
    ("tag", "seats", "options"),
    [
        ("random554False", 5, {}),
        ("random570yes", 5, {"wutai": "yes"}),
        ("random5149yes", 5, {"wutai": "yes"}),
        ("random519yes", 5, {"wutai": "yes"}),
        ("random326yes", 3, {"wutai": "yes"}),
        ("random5104yes", 5, {"wutai": "yes"}),
    ],
)
def test_random_bots_batches_are_legal_on_the_real_table(
    tag: str, seats: int, options: dict[str, str]
) -> None:
    engine = registry.get("mottainai")
    levels = {f"s{i}": "random" for i in range(seats)}
    seed = hashlib.sha256(tag.encode()).digest()
    played = match.play(engine, engine.parse_options(options), levels, seed, max_files=400)
    assert played.outcome.ranking and played.decisions > played.files


def test_the_turns_settled_facts_survive_determinize() -> None:
    """The current seat's Doll bonus, limit return and old-task step are in its view and
    in every state rebuilt from it."""
    from arbiter.core.rng import Rng

    engine = registry.get("mottainai")
    state, _ = engine.setup(engine.parse_options({}), ["a", "b", "c"], Rng(b"f" * 32))
    state.memo.update({"own_extra": 1, "returned": True, "old-task": True})
    seat = state.current
    view = engine.view(state, seat)
    entry = view["players"][seat]
    assert (entry["own_extra"], entry["returned_at_limit"], entry["old_task_done"]) == (
        1,
        True,
        True,
    )
    rebuilt = engine.determinize(view, seat, Rng(b"w" * 32))
    assert {k: rebuilt.memo[k] for k in ("own_extra", "returned", "old-task")} == {
        "own_extra": 1, "returned": True, "old-task": True,
    }  # fmt: skip
    assert engine.view(rebuilt, seat) == view
