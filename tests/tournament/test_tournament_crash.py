"""``arbiter tournament`` killed at its write points: the same command again finishes.

What "recovers by itself" means for a tournament:

- ``tournament new``: the folder is made whole or not at all; the same command again
  makes it (no "already exists" for a folder nobody finished), and nothing is left beside
  it or in the temporary folder.
- ``tournament round``: the round is recorded in ``tournament.json`` (its commit point),
  then its games are created, then the signed record takes the round with each game's
  digest. Run again, the command finishes the round: the recorded
  pairing is kept (a round killed before it was recorded is paired again, to the same
  tables), each game is created once and none is missing, and no half-made game or
  temporary file is left. Run once more, it pairs nothing (the round is not over).
- ``tournament report``: the standings files are written whole; run again, they are the
  files one run writes.

Game secrets are drawn afresh by each ``arbiter new`` underneath, so a recovered game is
compared with the uninterrupted run's less its commitment and referee key; ``arbiter
verify`` then checks every byte of it against its own chain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.crash import (
    Killed,
    arbiter,
    kill_at_write_points,
    parallel,
    show,
    sweeps,
    temporaries,
)
from helpers.tables import snapshot

from arbiter.core.errors import NotReady
from arbiter.tournament import folder
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import pair_next
from arbiter.tournament.standings import read_results, standings
from tournament.kit import play_out, players_file

NAMES = ["alice", "bob", "carol", "dave"]
SHORT = {"cards": "4", "hand": "1"}  # short tally games
CREATED = "2026-01-01T00:00:00Z"
NOW = {"ARBITER_NOW": "2026-01-02T00:00:00Z"}


def listing(root: Path) -> list[str]:
    """Every file and folder under ``root``, hidden ones included, less the games' own
    contents (compared game by game)."""
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if len(p.relative_to(root).parts) <= 2
    )


def game(path: Path) -> tuple[list[str], dict[str, object]]:
    """A game as created, less what follows from its fresh secret: its file names and
    game.json without commitment and referee key."""
    manifest = json.loads((path / "game.json").read_bytes())
    for field in ("commitment", "referee"):
        manifest.pop(field)
    return sorted(snapshot(path)), manifest


def terms_less_key(root: Path) -> tuple[dict[str, object], dict[str, object]]:
    """tournament.json and the record's signed terms, less what follows from the fresh
    organiser key each run makes (the key itself and the signature)."""
    made = json.loads((root / folder.FILE).read_bytes())
    made.pop("organiser")
    lines = (root / "record.jsonl").read_bytes().splitlines()
    assert len(lines) == 1, "the record holds the signed terms only"
    terms = json.loads(lines[0])
    terms.pop("signature")
    terms["body"].pop("organiser")
    return made, terms


# -- tournament new -------------------------------------------------------------------


# The default run kills in the first trial game and at the last write point (the folder
# whole, not yet in place).
@pytest.mark.parametrize("points", sweeps(1, -1))
def test_new_killed_at_its_write_points_is_made_by_the_same_command(
    tmp_path: Path, points: tuple[int, ...] | None
) -> None:
    players, _ = players_file(tmp_path, NAMES)
    pristine = tmp_path / "empty"
    pristine.mkdir()
    scratch = tmp_path / "tmpdir"  # the runs' temporary folder: nothing may stay there
    scratch.mkdir()
    extra = {**NOW, "TMPDIR": str(scratch)}
    args = ["--game", "tally", "--players", players, "--option", "cards=4", "--option", "hand=1"]
    kills, reference = kill_at_write_points(
        pristine, tmp_path / "runs", lambda f: ["tournament", "new", f / "t", *args], points,
        extra=extra,
    )  # fmt: skip
    expected = terms_less_key(reference / "t")

    def again(killed: Killed) -> None:
        result = arbiter("tournament", "new", killed.folder / "t", *args, extra=extra)
        assert result.returncode == 0, f"point {killed.point}: {show(result)}"
        assert listing(killed.folder) == listing(reference), killed.point
        assert terms_less_key(killed.folder / "t") == expected
        ok = arbiter("tournament", "verify", killed.folder / "t", extra=extra)
        assert ok.returncode == 0, f"point {killed.point}: {show(ok)}"

    parallel(again, kills)
    assert not list(scratch.iterdir()), "left in the temporary folder"


# -- tournament round -----------------------------------------------------------------


def less_manifests(root: Path) -> dict[str, object]:
    """tournament.json less each game.json's digest (each game's secret is fresh)."""
    made = json.loads((root / folder.FILE).read_bytes())
    for played in made["schedule"]:
        for table in played["tables"]:
            table.pop("manifest")
    return made


def new_tournament(base: Path, pairing: str) -> tuple[Path, dict[str, Path]]:
    players, keys = players_file(base, NAMES)
    root = base / "t"
    create(
        root,
        engine="tally",
        players=read(players),
        options=SHORT,
        pairing=pairing,
        rounds=3,
        table_size=2,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"),
        tournament_id="cup",
        created=CREATED,
    )
    return root, keys


@pytest.fixture(scope="module")
def before_round(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Tournaments about to pair round 1 (round-robin) and round 2 (Swiss, round 1 played)."""
    first, _ = new_tournament(tmp_path_factory.mktemp("round1"), "round-robin")
    second, keys = new_tournament(tmp_path_factory.mktemp("round2"), "swiss")
    played = pair_next(second, CREATED, seed=b"round 1")
    for table in played.round.tables:
        play_out(second / table.folder, keys, table.game)
    return {1: first, 2: second}


ROUNDS = [
    # The default run kills before and after tournament.json records the round, and at
    # the last write point (every game built, the last not yet in place).
    pytest.param(1, (1, 2, -1), id="round1-few-points"),
    pytest.param(1, None, id="round1-every-point", marks=pytest.mark.slow),
    pytest.param(2, None, id="round2-swiss-every-point", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("number", "points"), ROUNDS)
def test_round_killed_at_its_write_points_is_finished_by_the_same_command(
    before_round: dict[int, Path], tmp_path: Path, number: int, points: tuple[int, ...] | None
) -> None:
    recorded: dict[int, bool] = {}
    signed: dict[int, bool] = {}

    def look(killed: Killed) -> None:
        schedule = folder.load(killed.folder / "t").schedule
        recorded[killed.point] = len(schedule) == number
        # Killed after the record signed the round: the command's work was all done.
        lines = (killed.folder / "t" / "record.jsonl").read_bytes().splitlines()
        signed[killed.point] = any(json.loads(line)["kind"] == "round" and
                                   json.loads(line)["body"]["round"] == number for line in lines)

    kills, reference = kill_at_write_points(
        before_round[number].parent, tmp_path, lambda f: ["tournament", "round", f / "t"],
        points, extra=NOW, look=look,
    )  # fmt: skip
    ref = reference / "t"
    paired = folder.load(ref).schedule[-1]
    assert paired.round == number
    games = [table.folder for table in paired.tables]
    expected = {name: game(ref / name) for name in games}
    ranked = standings(folder.load(ref), read_results(ref, folder.load(ref)))
    assert any(recorded.values()) and not all(recorded.values()), recorded

    def again(killed: Killed) -> None:
        root, point = killed.folder / "t", killed.point
        result = arbiter("tournament", "round", root, "--json", extra=NOW)
        if signed[point]:
            assert result.returncode == 17, f"point {point}: {show(result)}"
            assert f"round {number} is not over" in result.stderr
        else:
            assert result.returncode == 0, f"point {point}: {show(result)}"
            said = json.loads(result.stdout)
            assert (said["round"], said["resumed"]) == (number, recorded[point]), show(result)
        # The round one uninterrupted run pairs, every game once, nothing else left.
        assert less_manifests(root) == less_manifests(ref), point
        assert listing(root) == listing(ref), f"point {point}"
        assert not temporaries(root), temporaries(root)
        assert {name: game(root / name) for name in games} == expected, point
        checked = arbiter("verify", "-j", "1", *(root / name for name in games))
        assert checked.returncode == 0, f"point {point}: {show(checked)}"
        # The record signs the round once, bound to the games this run made.
        audited = arbiter("tournament", "verify", "-j", "1", root)
        assert audited.returncode == 0, f"point {point}: {show(audited)}"
        tournament = folder.load(root)
        assert standings(tournament, read_results(root, tournament)) == ranked, point
        # Nothing is paired twice: the round's games are not over.
        with pytest.raises(NotReady, match=f"round {number} is not over"):
            pair_next(root, NOW["ARBITER_NOW"])

    parallel(again, kills)


# -- tournament report ----------------------------------------------------------------


@pytest.mark.slow
def test_report_killed_at_each_write_point_is_written_by_the_same_command(
    before_round: dict[int, Path], tmp_path: Path
) -> None:
    kills, reference = kill_at_write_points(
        before_round[2].parent, tmp_path, lambda f: ["tournament", "report", f / "t"]
    )
    assert len(kills) >= 4
    written = {
        name: (reference / "t" / name).read_bytes() for name in ("standings.md", "standings.html")
    }

    def again(killed: Killed) -> None:
        result = arbiter("tournament", "report", killed.folder / "t")
        assert result.returncode == 0, f"point {killed.point}: {show(result)}"
        for name, data in written.items():
            assert (killed.folder / "t" / name).read_bytes() == data, (killed.point, name)
        assert listing(killed.folder) == listing(reference), killed.point

    parallel(again, kills)
