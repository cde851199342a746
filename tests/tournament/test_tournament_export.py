"""`arbiter tournament export` (issue 28 item 7, docs/trf.md): arbiter TRF and JSON, from
which the standings are recomputed alone and equal the tournament's own.

Three finished tally tournaments, played by seeded random bots through the real path, are
built once each: a 2-player Swiss with the default tie-breaks; 7 players at tables of 3
(3 + 4) with head-to-head, place points and the lot, where a game ends in a tie; 5
players at tables of 4, where someone sits out every round, with opponents' points cut 1,
game score, head-to-head and the lot.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from arbiter.cli.main import run
from arbiter.core.errors import MalformedInput, SchemaViolation
from arbiter.core.models import ExportSeat, ExportTable
from arbiter.tournament import export_data, folder, record, trf
from arbiter.tournament.create import create
from arbiter.tournament.folder import TOURNAMENT_FORMAT_1, Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import finish, lot_seed, pair_next
from arbiter.tournament.standings import Row, read_results, standings
from tournament.kit import play_out, players_file

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "tournament-export.schema.json"
CREATED = "2026-01-01T00:00:00Z"
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina"]
KINDS = {
    # id: (players, table size, rounds, tie-breaks)
    "swiss": (6, 2, 3, None),
    "threes": (7, 3, 2, ["head-to-head", "place-points", "lot"]),
    "byes": (5, 4, 3, ["opponents-points-cut1", "game-score", "head-to-head", "lot"]),
}


def build(base: Path, tid: str, *, play: bool = True) -> Path:
    count, size, rounds, tiebreaks = KINDS[tid]
    players, keys = players_file(base, NAMES[:count])
    root = base / tid
    create(
        root, engine="tally", players=read(players), options={"cards": "4", "hand": "1"},
        pairing="swiss", rounds=rounds, table_size=size,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"), tournament_id=tid,
        created=CREATED, organiser_seed=b"o" * 32, tiebreaks=tiebreaks,
    )  # fmt: skip
    if not play:
        pair_next(root, CREATED, seed=tid.encode())
        return root
    for _ in range(rounds):
        played = pair_next(root, CREATED, seed=tid.encode())
        for table in played.round.tables:
            play_out(root / table.folder, keys, table.game)
    finish(root, CREATED)
    return root


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Each kind of tournament, built the first time a test asks for it."""
    made: dict[str, Path] = {}

    def get(tid: str) -> Path:
        if tid not in made:
            made[tid] = build(tmp_path_factory.mktemp(tid), tid)
        return made[tid]

    return get


@pytest.fixture(scope="module", params=sorted(KINDS))
def built(request: pytest.FixtureRequest, tournaments: Callable[[str], Path]) -> Path:
    return tournaments(request.param)


@pytest.fixture(scope="module")
def swiss(tournaments: Callable[[str], Path]) -> Path:
    """The finished Swiss tournament, for the tests that read or change a copy of it."""
    return tournaments("swiss")


@pytest.fixture(scope="module")
def swiss_text(swiss: Path) -> str:
    return trf.write(swiss)


def cli(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str, str]:
    """Run ``arbiter ARGS...`` in this process: exit code, stdout, stderr."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        run([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def exported(capsys: pytest.CaptureFixture[str], root: Path, kind: str, out: Path) -> bytes:
    code, said, err = cli(capsys, "tournament", "export", root, "--format", kind, "-o", out)
    assert code == 0, err
    assert said.startswith(f"wrote {out}: ")
    return out.read_bytes()


def own(root: Path) -> list[Row]:
    """The tournament's own standings, as `tournament standings` computes them."""
    tournament = folder.load(root)
    results = read_results(root, tournament)
    return standings(tournament, results, lot_seed=lot_seed(root, tournament))


def test_the_standings_are_recomputed_from_the_trf_alone(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = exported(capsys, built, "trf", tmp_path / "t.trf").decode("utf-8")
    data = trf.read(text)
    recomputed = trf.standings_from_export(data)
    assert recomputed == own(built)
    assert export_data.exported_rows(data) == recomputed
    export_data.check(data)
    code, said, _ = cli(capsys, "tournament", "standings", built, "--json")
    assert code == 0
    assert json.loads(said)["standings"] == [row.to_json() for row in recomputed]
    assert data == export_data.collect(built)


def test_the_json_export_carries_the_same_data(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = exported(capsys, built, "json", tmp_path / "t.json")
    text = exported(capsys, built, "trf", tmp_path / "t.trf").decode("utf-8")
    data = export_data.from_json(raw)
    assert data == trf.read(text)
    assert trf.standings_from_export(data) == own(built)
    Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8"))).validate(json.loads(raw))
    assert json.loads(raw)["format"] == "arbiter.tournament-export/1"


def test_each_tournament_shows_what_it_is_here_for(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, _ = cli(capsys, "tournament", "export", built)  # trf by default, on stdout
    assert code == 0
    lines = text.splitlines()
    header = {line[:3]: line[4:] for line in lines if line[:3].isdigit() and line[:3] != "001"}
    tables = [line.split(" ") for line in lines if line.startswith("TBL ")]
    seats = [fields[6:] for fields in tables]
    byes = [line.split(" ") for line in lines if line.startswith("BYE ")]
    assert lines[0] == "000 arbiter-trf/1"
    assert {fields[5] for fields in tables} == {"over"}
    tournament = folder.load(built)
    assert header["212"] == (lot_seed(built, tournament) or "-")
    assert header["232"].startswith("arbiter.tournament/2 ")
    assert header["232"].endswith(" " + record.read(built)[-1].hash)
    if built.name == "swiss":
        assert header["202"] == "opponents-points game-score" and header["212"] == "-"
        assert {len(s) for s in seats} == {2} and not byes
    if built.name == "threes":
        assert header["202"] == "head-to-head place-points lot"
        assert {len(s) for s in seats} == {3, 4} and not byes
        places = [[seat.split(":")[1] for seat in s] for s in seats]
        assert any(len(set(p)) < len(p) for p in places), "no game ended in a tie"
    if built.name == "byes":
        assert header["202"] == "opponents-points-cut1 game-score head-to-head lot"
        assert {len(s) for s in seats} == {4}
        assert len(byes) == 3 and {bye[3] for bye in byes} == {"3"}


def test_the_same_folder_exports_the_same_bytes(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for kind in ("trf", "json"):
        first = exported(capsys, built, kind, tmp_path / f"a.{kind}")
        assert exported(capsys, built, kind, tmp_path / f"b.{kind}") == first
        code, said, _ = cli(capsys, "tournament", "export", built, "--format", kind)
        assert code == 0 and said.encode("utf-8") == first
    text = (tmp_path / "a.trf").read_text(encoding="utf-8")
    assert trf.render(trf.read(text)) == text


def test_the_published_folder_is_enough(swiss: Path, swiss_text: str, tmp_path: Path) -> None:
    root = tmp_path / "published"
    shutil.copytree(swiss, root)
    for private in [root / record.ORGANISER, *root.glob("games/*/referee")]:
        shutil.rmtree(private)  # what the organiser keeps to itself
    assert trf.write(root) == swiss_text


def test_a_running_tournament_exports_its_games_not_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = build(tmp_path, "threes", play=False)
    text = exported(capsys, root, "trf", tmp_path / "t.trf").decode("utf-8")
    assert "\n142 2 running\n" in text
    tables = [line.split() for line in text.splitlines() if line.startswith("TBL ")]
    assert [t[5] for t in tables] == ["joining", "joining"]
    assert all(":" not in seat for t in tables for seat in t[6:])
    data = trf.read(text)
    assert trf.standings_from_export(data) == own(root)
    assert {row.points for row in own(root)} == {0}


def test_a_format_1_tournament_exports_without_seeds_or_record(
    swiss: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "old"
    shutil.copytree(swiss, root)
    # What a tournament made before the record holds: tournament.json of format 1 (its
    # save drops the fields format 2 added), no record.jsonl, no organiser key.
    tournament = folder.load(root)
    folder.save(root, tournament.model_copy(update={"format": TOURNAMENT_FORMAT_1}))
    (root / record.RECORD).unlink()
    shutil.rmtree(root / record.ORGANISER)
    text = exported(capsys, root, "trf", tmp_path / "t.trf").decode("utf-8")
    lines = text.splitlines()
    assert "232 arbiter.tournament/1 - -" in lines and "102 -" in lines
    assert "022 tally -" in lines and "212 -" in lines
    assert all(line.split()[3] == "-" for line in lines if line.startswith("RND "))
    assert all(line.split()[4] == "-" for line in lines if line.startswith("TBL "))
    data = trf.read(text)
    assert data.source.record is None
    assert trf.standings_from_export(data) == own(root)


def test_refusals_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    code, _, err = cli(capsys, "tournament", "export", tmp_path / "empty")
    assert code == 17 and err.startswith("arbiter: error: ") and err.count("\n") == 1, err
    assert "not a tournament folder" in err
    code, _, err = cli(capsys, "tournament", "export", tmp_path, "--format", "xml")
    assert code == 2 and err.count("\n") == 1 and "--format must be trf or json, not 'xml'" in err


def _edit_line(text: str, code: str, edit: Callable[[str], str]) -> str:
    """Edit the first line that starts with ``code``."""
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith(code))
    lines[at] = edit(lines[at])
    return "\n".join(lines)


def _first_seat(field: int, value: str) -> Callable[[str], str]:
    """Set one field (1 place, 2 score, 3 points) of a TBL line's first seat."""

    def edit(line: str) -> str:
        fields = line.split(" ")
        seat = fields[6].split(":")
        seat[field] = value
        fields[6] = ":".join(seat)
        return " ".join(fields)

    return edit


REFUSED = [
    ("version", lambda t: t.replace("arbiter-trf/1", "arbiter-trf/2", 1), "line 1: the first line"),
    ("unknown code", lambda t: t.replace("\n001 ", "\nXYZ 1\n001 ", 1), "'XYZ' is not a record"),
    ("header twice", lambda t: t.replace("\n012 swiss\n", "\n012 swiss\n012 swiss\n"), "a second 012"),
    ("no header", lambda t: re.sub(r"\n122 [^\n]*", "", t), "has no 122 record"),
    ("tab", lambda t: t.replace("012 swiss", "012\tswiss"), "a tab"),
    ("cut short", lambda t: t[:-1], "the last line has no newline"),
    ("count", lambda t: t.replace("\n062 6\n", "\n062 7\n"), "record 062 counts 7 players"),
    ("places", lambda t: _edit_line(t, "TBL 1 1", _first_seat(1, "3")), "are not a ranking"),
    ("points", lambda t: _edit_line(t, "TBL 1 1", _first_seat(3, "5")), "points, but place"),
    ("order", lambda t: t.replace("RND 1 ", "RND 2 ", 1), "round 2 is out of order"),
    ("a number", lambda t: _edit_line(t, "001", lambda s: s.replace(" - ", " x ", 1)),
     "entered must be a whole number"),
    ("a name", lambda t: re.sub(r"(\n001 +1 )alice", r"\1Alice", t), "at players/0/name"),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "says"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_the_reader_refuses_what_is_not_arbiter_trf(
    swiss_text: str, edit: Callable[[str], str], says: str
) -> None:
    assert edit(swiss_text) != swiss_text
    with pytest.raises((MalformedInput, SchemaViolation)) as info:
        trf.read(edit(swiss_text))
    assert says in info.value.message and "\n" not in info.value.message, info.value.message


def test_check_names_a_line_that_does_not_add_up(swiss_text: str) -> None:
    data = trf.read(swiss_text)
    first = data.players[0]
    more = first.model_copy(update={"points": first.points + 2})
    edited = data.model_copy(update={"players": [more, *data.players[1:]]})
    text = trf.render(edited)
    assert trf.read(text) == edited  # a well-formed file ...
    with pytest.raises(SchemaViolation, match=f"the export's line of {first.name} "):
        export_data.check(edited)  # ... whose standings are not what its games give


def test_entries_drops_options_and_abandoned_games_round_trip(swiss_text: str) -> None:
    data = trf.read(swiss_text)
    players = list(data.players)
    players[1] = players[1].model_copy(update={"entered": 2})
    players[2] = players[2].model_copy(update={"dropped": 3})
    first = data.schedule[0]
    table = first.tables[0]
    abandoned = ExportTable(
        table=table.table, game=table.game, manifest=table.manifest, status="abandoned",
        seats=[ExportSeat(name=s.name, place=None, score=None, points=None) for s in table.seats],
    )  # fmt: skip
    edited = data.model_copy(
        update={
            "players": players,
            "options": {"path": "/a b/c=d%", "x": ""},
            "schedule": [first.model_copy(update={"tables": [abandoned, *first.tables[1:]]}),
                         *data.schedule[1:]],
        }
    )  # fmt: skip
    text = trf.render(edited)
    assert "032 path=/a%20b/c%3Dd%25 x=" in text
    assert f"TBL 1 1 {table.game} {table.manifest} abandoned " in text
    assert trf.read(text) == edited
    assert export_data.from_json(export_data.to_json(edited)) == edited


def test_the_example_in_docs_trf_md_is_what_arbiter_writes() -> None:
    doc = (ROOT / "docs" / "trf.md").read_text(encoding="utf-8")
    example = doc.split("```text arbiter-trf\n", 1)[1].split("```", 1)[0]
    data = trf.read(example)
    export_data.check(data)  # its places, points and standings add up
    assert trf.render(data) == example
    assert [(r.rank, r.name) for r in trf.standings_from_export(data)] == [
        (1, "bob"), (2, "carol"), (3, "erin"), (4, "alice"), (5, "dave"),
    ]  # fmt: skip


def _ajv() -> str | None:
    return os.environ.get("AJV") or shutil.which("ajv")


@pytest.mark.skipif(
    _ajv() is None and not os.environ.get("CI"),
    reason="ajv (npm ajv-cli) is not installed; set AJV=path (.ci/run installs it)",
)
def test_ajv_accepts_the_json_export(swiss: Path, tmp_path: Path) -> None:
    ajv = _ajv()
    assert ajv is not None, "ajv is not installed: .ci/run installs it with npm"
    good = tmp_path / "good.json"
    good.write_bytes(export_data.to_json(export_data.collect(swiss)))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(good.read_text()), "x": 1}))
    for path, accepted in ((good, True), (bad, False)):
        done = subprocess.run(
            [ajv, "validate", "--spec=draft2020", "-s", str(SCHEMA), "-d", str(path)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert (done.returncode == 0) == accepted, done.stdout + done.stderr
        assert "strict mode" not in done.stderr
