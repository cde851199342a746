"""Each engine's rulings for a long game's life (issue 27): what a resignation does
(M-R120, MC-R16, MOM-R18) and how an end by agreement scores the game as it stands
(M-R121, MC-R17, MOM-R19). Played through the CLI by bots, then revealed and verified."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from clikit import Cli
from lifekit import Table

from arbiter.core.gamedir import GameDir
from arbiter.core.referee import heal

# (engine, options, the fewest seats it takes, ruling numbers: resign, score now)
ENGINES = [
    ("mottainai", [], 2, ("M-R120", "M-R121")),
    ("motcoin", [], 3, ("MC-R16", "MC-R17")),
    ("momiji", [], 2, ("MOM-R18", "MOM-R19")),
]
NAMES = ["alice", "bob", "carol", "erin"]


def _table(cli: Cli, tmp_path: Path, engine: str, options: list[str], seats: int) -> Table:
    extra: list[Any] = []
    for option in options:
        extra += ["--option", option]
    return Table(cli, tmp_path, engine, NAMES[:seats], *extra)


@pytest.mark.parametrize(("engine", "options", "fewest", "rulings"), ENGINES)
def test_resigning_at_the_fewest_seats(
    cli: Cli, tmp_path: Path, engine: str, options: list[str], fewest: int, rulings: Any
) -> None:
    """{M-R120, MC-R16, MOM-R18}.1: with two seats the resignation ends the game, the
    resigning seat ranked last; with Mot Coin's three, the seat leaves and play goes on."""
    t = _table(cli, tmp_path, engine, options, fewest)
    for n in range(3):
        t.bot_move(n)
    t.submit(t.sign("resign", "alice"))
    if fewest == 2:
        assert t.read()["status"] == "over"
    else:
        assert t.read()["status"] == "playing"
        t.play_out()
    outcome = t.read()["outcome"]
    assert outcome["ranking"][-1] == ["alice"]
    assert "verified game" in t.verify()


@pytest.mark.parametrize(("engine", "options", "fewest", "rulings"), ENGINES)
def test_a_seat_that_left_takes_the_default_decision(
    cli: Cli, tmp_path: Path, engine: str, options: list[str], fewest: int, rulings: Any
) -> None:
    """{M-R120, MC-R16, MOM-R18}.2: with more seats the one that resigned leaves; its
    cards stay where they are; whenever it would decide, the timeout's default decision
    is taken for it in the same entry, so nobody waits for it; it is ranked last, above
    nobody, whatever its score."""
    t = _table(cli, tmp_path, engine, options, max(fewest, 3) + 1)
    for n in range(2):
        t.bot_move(n)
    t.submit(t.sign("resign", "bob"))
    deciders = t.play_out()
    assert "bob" not in deciders
    assert _defaults_after_leaving(t, "bob") > 0  # bob's turns came and went
    outcome = t.read()["outcome"]
    assert outcome["ranking"][-1] == ["bob"]
    assert "bob" in outcome["scores"]
    assert "verified game" in t.verify()


def _defaults_after_leaving(t: Table, seat: str) -> int:
    """Lines of the public log after the seat left that narrate its default decisions."""
    log = (t.root / "public" / "log.md").read_text()
    after = log.split(f"{seat} resigns and leaves the game", 1)[1].splitlines()[1:]
    return sum(1 for line in after if seat in line)


@pytest.mark.parametrize(("engine", "options", "fewest", "rulings"), ENGINES)
def test_score_now_is_the_provisional_scoring(
    cli: Cli, tmp_path: Path, engine: str, options: list[str], fewest: int, rulings: Any
) -> None:
    """{M-R121, MC-R17, MOM-R19}.1: an end by agreement, scored as it stands, gives the
    scores and ranking the engine's early-end scoring (M-R77, MC-R15, MOM-R17) gives the
    table at that entry."""
    t = _table(cli, tmp_path, engine, options, 3)
    for n in range(8):
        t.bot_move(n)
    table = heal(GameDir(t.root)).rebuilt.table
    expected = table.engine.provisional_outcome(table.state)
    t.submit(t.sign("propose-end", "carol"))
    t.submit(t.sign("answer", "alice", "--accept"))
    t.submit(t.sign("answer", "bob", "--accept"))
    outcome = t.read()["outcome"]
    assert outcome["scores"] == expected.scores
    assert outcome["ranking"] == expected.ranking
    assert outcome["tiebreak"].startswith("The game ended by agreement, scored as it stood.")
    assert "verified game" in t.verify()
