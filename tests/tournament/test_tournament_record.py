"""The signed tournament record (issue 28 item 1, docs/tournament-record.md): a player
holding only the published folder learns from `tournament verify` whether every pairing,
game, point and rank is what the rules give — and each tampering an audit tried is named.

One Swiss tournament of 6 tally players at 2-player tables, 3 rounds, played by seeded
random bots, finished and reported, is built once; each test tampers with a copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli.clikit import arbiter

from arbiter.core.canonical import canonical
from arbiter.core.referee import new_game
from arbiter.core.signing import sign
from arbiter.tournament import folder, record
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import finish, pair_next
from tournament.kit import play_out, players_file

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
CREATED = "2026-01-01T00:00:00Z"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("cup")
    players, keys = players_file(base, NAMES)
    root = base / "cup"
    create(
        root, engine="tally", players=read(players), options={"cards": "6", "hand": "1"},
        pairing="swiss", rounds=3, table_size=2,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"), tournament_id="cup",
        created=CREATED, organiser_seed=b"o" * 32,
    )  # fmt: skip
    for number in range(1, 4):
        played = pair_next(root, CREATED, seed=b"cup")
        assert played.round.round == number
        for table in played.round.tables:
            play_out(root / table.folder, keys, table.game)
    finish(root, CREATED)
    assert arbiter("tournament", "report", root).returncode == 0
    return root


def copy(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "cup"
    shutil.copytree(built, root)
    return root


def verify(root: Path) -> tuple[int, str, str]:
    result = arbiter("tournament", "verify", "-j", "1", root)
    return result.returncode, result.stdout, result.stderr


def failed(root: Path) -> str:
    code, out, err = verify(root)
    assert code == 16, (out, err)
    assert err.startswith("arbiter: error: ") and err.count("\n") == 1, err
    return err


def test_an_honest_tournament_verifies(built: Path, tmp_path: Path) -> None:
    root = copy(built, tmp_path)
    for hidden in [root / record.ORGANISER, *root.glob("games/*/referee")]:
        shutil.rmtree(hidden)  # what the organiser publishes
    code, out, err = verify(root)
    assert code == 0, (out, err)
    assert "record: 14 signed lines (3 rounds, 9 results, finished)" in out
    assert "every pairing recomputed and equal" in out
    kinds = [json.loads(line)["kind"] for line in (root / record.RECORD).read_text().splitlines()]
    assert kinds == ["terms", "round", *["result"] * 3, "round", *["result"] * 3, "round",
                     *["result"] * 3, "finish"]  # fmt: skip
    checked = arbiter("tournament", "check", root, "--round", "2", "--json")
    assert checked.returncode == 0, checked.stderr
    second = json.loads((root / folder.FILE).read_text())["schedule"][1]
    assert json.loads(checked.stdout) == {
        "round": 2, "seed": second["seed"], "byes": [],
        "tables": [table["seats"] for table in second["tables"]],
    }  # fmt: skip


def test_a_removed_game_is_named(built: Path, tmp_path: Path) -> None:
    root = copy(built, tmp_path)
    shutil.rmtree(root / "games/r2-t1")
    assert "games/r2-t1 (cup-r2-t1) is missing: the record schedules it" in failed(root)


def test_an_extra_game_is_named(built: Path, tmp_path: Path) -> None:
    root = copy(built, tmp_path)
    shutil.copytree(root / "games/r1-t1", root / "games/r4-t1")
    assert "games/r4-t1 is not a game of the record: an extra game folder" in failed(root)


@pytest.mark.parametrize("field", ["name", "key"])
def test_names_or_keys_swapped_in_tournament_json_are_named(
    built: Path, tmp_path: Path, field: str
) -> None:
    root = copy(built, tmp_path)
    data = json.loads((root / folder.FILE).read_bytes())
    players = data["players"]
    players[0][field], players[1][field] = players[1][field], players[0][field]
    (root / folder.FILE).write_text(json.dumps(data, indent=2))
    assert f"tournament.json: players[0].{field} is not what the signed record gives" in failed(root)


@pytest.mark.parametrize("name", ["standings.md", "standings.html", "standings.json"])
def test_edited_standings_are_named(built: Path, tmp_path: Path, name: str) -> None:
    root = copy(built, tmp_path)
    path = root / name
    lines = path.read_text().splitlines(keepends=True)
    rows = [n for n, line in enumerate(lines) if "alice" in line or "bob" in line][:2]
    lines[rows[0]], lines[rows[1]] = lines[rows[1]], lines[rows[0]]
    path.write_text("".join(lines))
    assert f"{name} line {min(rows) + 1} differs from the standings the games give" in failed(root)


def test_a_game_recreated_with_another_secret_is_named(built: Path, tmp_path: Path) -> None:
    root = copy(built, tmp_path)
    game = root / "games/r3-t2"
    manifest = json.loads((game / "game.json").read_bytes())
    shutil.rmtree(game)
    new_game(
        game, "tally", [(s["seat"], s["key"]) for s in manifest["seats"]], manifest["options"],
        game_id=manifest["game"], created=manifest["created"], secret=b"\x01" * 32,
        takebacks="none",
    )  # fmt: skip
    assert "games/r3-t2/game.json: it is another game.json (another secret" in failed(root)


def test_an_edited_record_line_fails_its_signature(built: Path, tmp_path: Path) -> None:
    root = copy(built, tmp_path)
    path = root / record.RECORD
    lines = path.read_bytes().splitlines()
    entry = json.loads(lines[3])
    assert entry["kind"] == "result"
    entry["body"]["outcome"]["scores"] = {k: 99 for k in entry["body"]["outcome"]["scores"]}
    lines[3] = canonical(entry)
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    assert "record.jsonl line 4 is not signed by the organiser key" in failed(root)


def test_a_pairing_the_rules_do_not_give_is_named_even_when_signed(
    built: Path, tmp_path: Path
) -> None:
    """The organiser holds its key and re-signs a round 2 of its choosing, and every line
    after it: the links and signatures hold, only pairing the round again tells."""
    root = copy(built, tmp_path)
    key = root / record.ORGANISER / "key"
    path = root / record.RECORD
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    second = next(n for n, e in enumerate(lines) if e["kind"] == "round" and e["body"]["round"] == 2)
    tables = lines[second]["body"]["tables"]
    tables[0]["seats"][1], tables[1]["seats"][1] = tables[1]["seats"][1], tables[0]["seats"][1]
    raw: list[bytes] = []
    for n, entry in enumerate(lines):
        entry.pop("signature")
        entry["prev"] = record.line_hash(raw[-1]) if raw else None
        entry["signature"] = sign(entry, key, record.NAMESPACE)
        raw.append(canonical(entry))
        assert n == entry["seq"]
    path.write_bytes(b"".join(line + b"\n" for line in raw))
    data = json.loads((root / folder.FILE).read_bytes())
    data["schedule"][1]["tables"] = tables
    (root / folder.FILE).write_text(json.dumps(data, indent=2))
    err = failed(root)
    assert "round 2, table 1: recorded" in err and "but the rules pair" in err
    checked = arbiter("tournament", "check", root, "--round", "2")
    assert checked.returncode == 16 and "round 2, table 1" in checked.stderr
