"""The preview never shows a sampled card as known: after every pick it draws, the view
it shows is the very view the referee's true state gives the seat (issue 26, item 1).

Positions come from random games of each engine; at each decision a random batch is
built pick by pick in the preview, and the same picks are applied to the true state.
"""

from __future__ import annotations

import pytest

from arbiter.core import registry
from arbiter.core.rng import Rng
from arbiter.play.preview import Batch

SEATS = ["alice", "bob", "carol", "dave", "erin"]
ENGINES = [
    ("mottainai", {}, 10),
    ("mottainai", {"wutai": "yes"}, 10),
    ("motcoin", {}, 0),  # every bid passes the turn: nothing to draw after a pick
    ("momiji", {}, 10),
]


def _state_file(engine, state, seat, turn):
    prompt = engine.prompt(state)
    return {
        "game": "preview-truth",
        "seat": seat,
        "head": f"sha256:{turn:064x}",
        "view": engine.view(state, seat),
        "prompt": prompt.to_json() if prompt else None,
        "legal": engine.legal_actions(state, seat),
    }


@pytest.mark.parametrize(
    ("name", "raw", "drawn"), ENGINES, ids=[f"{n}-{len(o)}" for n, o, _ in ENGINES]
)
def test_each_previewed_view_is_the_true_one(name, raw, drawn):
    engine = registry.get(name)
    options = engine.parse_options(raw)
    picks_checked = batches = 0
    low, high = engine.info.min_seats, engine.info.max_seats
    counts = sorted({low, min(low + 1, high), min(4, high)})
    for game, count in enumerate(counts):
        seats = SEATS[:count]
        rng = Rng(f"preview-truth/{name}/{len(raw)}/{game}".encode())
        state, _ = engine.setup(options, seats, rng)
        for turn in range(80):
            prompt = engine.prompt(state)
            if prompt is None:
                break
            seat = prompt.seat
            batch = Batch(engine, _state_file(engine, state, seat, turn))
            truth = engine.copy(state)
            batches += 1
            while batch.open:
                legal = batch.legal()
                action = legal[rng.below(len(legal))]
                batch.pick(action)
                engine.apply(truth, seat, action, rng)
                shown = batch.view()
                if shown is not None:
                    assert shown == engine.view(truth, seat), (game, turn, action)
                    assert batch.legal() == engine.legal_actions(truth, seat)
                    picks_checked += 1
            state = truth
    assert batches >= 40
    assert picks_checked >= drawn  # the preview did draw tables after picks
