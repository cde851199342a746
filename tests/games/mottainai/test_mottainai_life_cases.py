"""Mottainai rules cases MOT-19: the life of a long game (issue 27) — resigning and
leaving (M-R120), scoring a game ended by agreement (M-R121), and which takebacks the
engine allows (M-R122). Played through the referee's own functions, then verified.

The same rulings run for every engine through the CLI in tests/cli/test_life_rulings.py
and tests/games/test_takeback_rulings.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.test_takeback_rulings import (
    _refused,
    _shown_to_all,
    first_decision,
    for_all,
    only_the_actor,
)
from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.life_files import make_answer, make_propose_end, make_resign
from arbiter.core.player import load_state, make_move
from arbiter.core.referee import heal, new_game, reveal, submit
from arbiter.core.replay import verify
from arbiter.core.rng import Rng


class Game:
    """A Mottainai game at the referee; seeded random decisions (one per file)."""

    def __init__(self, tmp: Path, seats: list[str]):
        self.keys = make_keys(tmp / "keys", seats)
        self.root = tmp / "game"
        new_game(
            self.root,
            "mottainai",
            [(s, f"{self.keys[s]}.pub") for s in seats],
            {},
            join=False,
            created="2026-12-01T00:00:00Z",
            game_id="mot-life",
        )
        self.choices = Rng(b"MOT-19" * 5 + b"..")
        self.count = 0

    def state(self, seat: str | None = None) -> dict[str, Any]:
        gd = GameDir(self.root)
        return load_state(gd.public_state if seat is None else gd.seat_state(seat))

    def send(self, record: dict[str, Any]) -> None:
        self.count += 1
        submit(self.root, pretty(record), f"{self.count:04d}.json")

    def move(self) -> str:
        seat = self.state()["prompt"]["seat"]
        state = self.state(seat)
        self.send(make_move(state, self.keys[seat], [self.choices.choice(state["legal"])]))
        return str(seat)

    def play_out(self, limit: int = 3000) -> list[str]:
        deciders = []
        while self.state()["status"] == "playing":
            assert len(deciders) < limit, "the game did not end"
            deciders.append(self.move())
        return deciders

    def verified(self) -> bool:
        reveal(self.root, force=True)
        return verify(self.root) is not None


def test_MOT_19_1_resigning_at_two_seats_ends_the_game(tmp_path: Path) -> None:
    """MOT-19.1 (M-R120): with two seats a resignation, even out of turn, ends the game;
    the resigning seat is ranked last whatever the scores."""
    game = Game(tmp_path, ["alice", "bob"])
    for _ in range(5):
        game.move()
    waiting = game.state()["prompt"]["seat"]
    other = "alice" if waiting == "bob" else "bob"
    game.send(make_resign(game.state(other), game.keys[other]))
    public = game.state()
    assert public["status"] == "over"
    assert public["outcome"]["ranking"] == [[waiting], [other]]
    assert game.verified()


def test_MOT_19_2_a_seat_that_left_prays_and_keeps_its_cards(tmp_path: Path) -> None:
    """MOT-19.2 (M-R120, M-R76): with three seats the seat leaves; its hand, works and
    gallery stay; whenever it would decide the default is taken for it (no task, every
    action a PRAYER), so no move file of it follows; it is ranked last."""
    game = Game(tmp_path, ["alice", "bob", "carol"])
    for _ in range(4):
        game.move()
    works_before = json.dumps(game.state()["view"]["players"]["bob"].get("works"))
    game.send(make_resign(game.state("bob"), game.keys["bob"]))
    after = game.state()["view"]["players"]["bob"]
    assert json.dumps(after.get("works")) == works_before  # nothing taken from it
    deciders = game.play_out()
    assert "bob" not in deciders
    outcome = game.state()["outcome"]
    assert outcome["ranking"][-1] == ["bob"] and "bob" in outcome["scores"]
    log = (game.root / "public" / "log.md").read_text().split("bob resigns and leaves", 1)[1]
    assert "bob prays" in log.lower() or "prayer" in log.lower()
    assert game.verified()


def test_MOT_19_3_score_now_is_the_early_end_scoring(tmp_path: Path) -> None:
    """MOT-19.3 (M-R121, M-R77): a game ended by agreement, scored as it stands, gets the
    scores and ranking the early-end scoring gives the table at that entry."""
    game = Game(tmp_path, ["alice", "bob", "carol"])
    for _ in range(12):
        game.move()
    table = heal(GameDir(game.root)).rebuilt.table
    expected = table.engine.provisional_outcome(table.state)
    game.send(make_propose_end(game.state("alice"), game.keys["alice"], "score"))
    game.send(make_answer(game.state("bob"), game.keys["bob"], "accept"))
    game.send(make_answer(game.state("carol"), game.keys["carol"], "accept"))
    outcome = game.state()["outcome"]
    assert outcome["scores"] == expected.scores and outcome["ranking"] == expected.ranking
    assert game.verified()


def test_M_R122_1_a_night_draw_is_not_taken_back() -> None:
    """MOT-19.4 (M-R122): a decision whose events show a card to its seat alone (the
    Night draw to the hand) cannot be taken back: a redo would draw it again."""
    found = first_decision("mottainai", ["alice", "bob"], only_the_actor)
    reason = _refused(found)
    assert reason is not None and "only" in reason and "(night)" in reason


def test_M_R122_2_a_card_turned_up_for_all_needs_everyone() -> None:
    """MOT-19.5 (M-R122): a card turned up for every seat does not forbid a takeback, but
    every seat saw it, so every seat must accept."""
    found = first_decision(
        "mottainai", ["alice", "bob"], lambda s, e, seen: for_all(s, e, seen) and e.kind != "night"
    )
    assert _refused(found) is None and _shown_to_all(found)


def test_MOT_19_6_a_standing_order_reads_only_the_public_part_of_a_decision() -> None:
    """MOT-19.6 (M-R123, M-R18): a standing order's condition names the others' decisions
    as every seat sees them: a card returned to the deck goes face down (M-R18), and an
    effect's parameters may name hand cards, so only the work used is public."""
    from arbiter.core import registry

    engine = registry.get("mottainai")
    assert engine.public_decision({"kind": "return", "card": "bell"}) == {"kind": "return"}
    used = {"kind": "use", "card": "kite", "cards": ["bell"]}
    assert engine.public_decision(used) == {"kind": "use", "card": "kite"}
    for whole in ({"kind": "task", "card": "bell"}, {"kind": "prayer"}, {"kind": "no_task"}):
        assert engine.public_decision(whole) == whole
