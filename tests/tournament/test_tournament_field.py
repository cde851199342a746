"""Drops, late entries and byes (issue 28 item 4, arbiter.tournament.field): each a signed
line of the record, taken into every later pairing, and checked by `tournament verify`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli.clikit import arbiter
from helpers.tables import make_keys, snapshot

from arbiter.core.canonical import canonical
from arbiter.core.signing import sign
from arbiter.tournament import folder, record
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import finish, pair_next
from tournament.kit import play_out, players_file

CREATED = "2026-01-01T00:00:00Z"
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def ok(result):  # type: ignore[no-untyped-def]
    assert result.returncode == 0, (result.stdout, result.stderr)
    return result


def refused(result, code: int = 2) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == code, (result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1
    return str(result.stderr)


def new(base: Path, pairing: str, names: list[str]) -> tuple[Path, dict[str, Path]]:
    players, keys = players_file(base, names)
    root = base / "cup"
    create(
        root, engine="tally", players=read(players), options={"cards": "6", "hand": "1"},
        pairing=pairing, rounds=3, table_size=2,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"), tournament_id="cup",
        created=CREATED, organiser_seed=b"f" * 32,
    )  # fmt: skip
    return root, keys


def play_round(root: Path, keys: dict[str, Path]) -> list[list[str]]:
    played = pair_next(root, CREATED, seed=b"field")
    for table in played.round.tables:
        play_out(root / table.folder, keys, table.game)
    return [list(t.seats) for t in played.round.tables]


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Swiss of 6: frank drops after round 1, gina enters from round 2; finished."""
    base = tmp_path_factory.mktemp("swiss")
    root, keys = new(base, "swiss", NAMES)
    keys.update(make_keys(base / "late", ["gina"]))
    play_round(root, keys)
    said = ok(arbiter("tournament", "drop", root, "frank")).stdout
    assert "frank is dropped from round 2 on" in said
    gina = " ".join(Path(f"{keys['gina']}.pub").read_text().split()[:2])
    said = ok(arbiter("tournament", "enter", root, "gina", gina, "--comment", "late")).stdout
    assert "gina enters cup from round 2" in said
    for _ in (2, 3):
        tables = play_round(root, keys)
        seated = {name for seats in tables for name in seats}
        assert "frank" not in seated and "gina" in seated and len(seated) == 6
    finish(root, CREATED)
    ok(arbiter("tournament", "report", root))
    return root


def test_drops_and_entries_are_signed_and_verify(swiss: Path) -> None:
    kinds = [json.loads(line)["kind"] for line in (swiss / record.RECORD).read_text().splitlines()]
    # Results are signed when the next round is paired: after the drop and the entry.
    assert kinds[:7] == ["terms", "round", "drop", "enter", "result", "result", "result"]
    out = ok(arbiter("tournament", "verify", "-j", "1", swiss)).stdout
    assert "every pairing recomputed and equal" in out
    rows = json.loads(ok(arbiter("tournament", "standings", swiss, "--json")).stdout)["standings"]
    by_name = {row["name"]: row for row in rows}
    assert by_name["frank"]["games"] == 1  # the game he finished still counts
    assert by_name["gina"]["games"] == 2 and by_name["gina"]["byes"] == 0
    players = {p["name"]: p for p in json.loads((swiss / folder.FILE).read_text())["players"]}
    assert (players["frank"]["dropped"], players["gina"]["entered"]) == (2, 2)


def test_a_drop_left_out_of_the_record_is_caught(swiss: Path, tmp_path: Path) -> None:
    """The organiser re-signs the record without frank's drop: the rules would then have
    paired him in round 2, which the recorded pairing does not."""
    root = tmp_path / "cup"
    shutil.copytree(swiss, root)
    key = root / record.ORGANISER / "key"
    lines = [json.loads(line) for line in (root / record.RECORD).read_bytes().splitlines()]
    lines = [e for e in lines if e["kind"] != "drop"]
    raw: list[bytes] = []
    for seq, entry in enumerate(lines):
        entry.pop("signature")
        entry["seq"], entry["prev"] = seq, record.line_hash(raw[-1]) if raw else None
        entry["signature"] = sign(entry, key, record.NAMESPACE)
        raw.append(canonical(entry))
    (root / record.RECORD).write_bytes(b"".join(line + b"\n" for line in raw))
    data = json.loads((root / folder.FILE).read_bytes())
    for player in data["players"]:
        if player["name"] == "frank":
            player["dropped"] = None
    (root / folder.FILE).write_text(json.dumps(data, indent=2))
    result = arbiter("tournament", "verify", "-j", "1", root)
    assert result.returncode == 16 and "round 2" in result.stderr and "the rules" in result.stderr


def test_refusals_change_nothing(swiss: Path, tmp_path: Path) -> None:
    root = tmp_path / "cup"
    shutil.copytree(swiss, root)
    before = snapshot(root)
    assert "is finished" in refused(arbiter("tournament", "drop", root, "alice"))
    assert snapshot(root) == before


def test_bad_drops_and_entries(tmp_path: Path) -> None:
    root, keys = new(tmp_path, "swiss", NAMES)
    play_round(root, keys)
    before = snapshot(root)
    assert "no player 'zed'" in refused(arbiter("tournament", "drop", root, "zed"))
    alice = " ".join(Path(f"{keys['alice']}.pub").read_text().split()[:2])
    assert "already a player" in refused(arbiter("tournament", "enter", root, "alice", alice))
    assert "key is already a player's" in refused(arbiter("tournament", "enter", root, "zoe", alice))
    late = make_keys(tmp_path / "late", ["zoe"])["zoe"]
    zoe = " ".join(Path(f"{late}.pub").read_text().split()[:2])
    said = refused(arbiter("tournament", "enter", root, "zoe", zoe, "--round", "1"))
    assert "round 1 is already paired" in said
    assert snapshot(root) == before
    ok(arbiter("tournament", "drop", root, "alice"))
    assert "alice already dropped from round 2" in refused(arbiter("tournament", "drop", root, "alice"))


def test_a_round_robin_gives_a_bye_where_a_dropped_player_would_sit(tmp_path: Path) -> None:
    root, keys = new(tmp_path, "round-robin", ["alice", "bob", "carol", "dave"])
    play_round(root, keys)
    late = make_keys(tmp_path / "late", ["zoe"])["zoe"]
    zoe = " ".join(Path(f"{late}.pub").read_text().split()[:2])
    assert "late entries are for Swiss" in refused(arbiter("tournament", "enter", root, "zoe", zoe))
    ok(arbiter("tournament", "drop", root, "dave"))
    played = pair_next(root, CREATED, seed=b"field")
    seated = [list(t.seats) for t in played.round.tables]
    assert len(seated) == 1 and len(played.round.byes) == 1 and "dave" not in played.round.byes
    for table in played.round.tables:
        play_out(root / table.folder, keys, table.game)
    ok(arbiter("tournament", "verify", "-j", "1", root))
