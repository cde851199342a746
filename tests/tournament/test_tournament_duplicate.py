"""Duplicate rounds (docs/duplicate.md): the deal seed's frozen vector, the terms a
duplicate tournament needs, and each tampering an organiser could try — a group secret
swapped at the reveal, a game revealed before its group is over, a deal that lists other
joins at one table than at another — caught by `arbiter verify` or `tournament verify`."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
from pathlib import Path

import pytest
from cli.clikit import arbiter

from arbiter.core import deal as deals
from arbiter.core.errors import Tampered
from arbiter.core.referee import deal, deal_slot
from arbiter.tournament import duplicate, folder
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import pair_next
from tournament.duplicate_kit import join_all, play
from tournament.kit import players_file

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


def test_deal_seed_vector() -> None:
    """docs/duplicate.md §2, computed here from its words with the standard library."""
    secret, entropies = bytes(range(32)), [bytes([k]) * 32 for k in (1, 2, 3)]
    message = b"arbiter-deal/1\x00t-r1-s3\x00" + b"".join(entropies)
    want = hmac.new(secret, message, hashlib.sha256).hexdigest()
    assert deals.deal_seed(secret, "t-r1-s3", entropies).hex() == want
    assert want == "efefc2d59f52cf4b90379d94266b618009d24981cd34e871d6e227b4734a1bd0"  # frozen: docs/duplicate.md
    with pytest.raises(ValueError):
        deals.deal_seed(bytes(31), "g", [])


def _new(
    tmp: Path, names: list[str], *, rounds: int = 1, deadline: int | None = None
) -> tuple[Path, dict[str, Path]]:
    players, keys = players_file(tmp, names)
    root = tmp / "dup"
    create(
        root, engine="momiji", players=read(players), options={}, pairing="swiss",
        rounds=rounds, table_size=3, terms=Terms(deadline=deadline, grace=0, on_timeout="pass"),
        tournament_id="dup", created="2026-10-01T00:00:00Z", duplicate=True,
    )  # fmt: skip
    return root, keys


def test_duplicate_needs_full_tables_of_one_size(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="do not fill at least two tables of 3"):
        _new(tmp_path, [*NAMES, "gus"])
    assert not (tmp_path / "dup").exists()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path], list[Path]]:
    """A one-round, two-table duplicate tournament, joined, dealt, played and revealed."""
    tmp = tmp_path_factory.mktemp("duplicate")
    root, keys = _new(tmp, NAMES)
    paired = pair_next(root, "2026-10-02T00:00:00Z", seed=b"duplicate tests")
    games = [root / t.folder for t in paired.round.tables]
    for game in games:
        join_all(game, keys)
    assert duplicate.deal(root).dealt == [t.game for t in paired.round.tables]
    for game in games:
        play(game, keys, game.name)
    assert len(duplicate.reveal(root).revealed) == 2
    return root, keys, games


def _published(root: Path, where: Path) -> Path:
    shutil.copytree(root, where, ignore=shutil.ignore_patterns("referee", "organiser"))
    return where


def test_the_published_tournament_verifies(played, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = played[0]
    copy = _published(root, tmp_path / "pub")
    said = arbiter("tournament", "verify", copy)
    assert said.returncode == 0, said.stdout + said.stderr
    assert "duplicate: 1 group(s)" in said.stdout and "2 revealed game(s)" in said.stdout
    # A game's own record carries its group's secret, and re-checks against its chain.
    game = copy / "games" / "r1-t1"
    exported = arbiter("export", game, "-o", tmp_path / "r1-t1.json")
    assert exported.returncode == 0, exported.stdout + exported.stderr
    record = json.loads((tmp_path / "r1-t1.json").read_text())
    assert record["seed"]["deal"]["group"] == "dup-r1-s3"
    assert [e["kind"] for e in record["timeline"]][4] == "deal"
    checked = arbiter("verify", game, "--record", tmp_path / "r1-t1.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for fmt in ("json", "trf"):
        made = arbiter("tournament", "export", copy, "--format", fmt, "-o", tmp_path / f"t.{fmt}")
        assert made.returncode == 0, made.stdout + made.stderr


def test_the_exports_carry_matchpoints_anyone_can_recompute(played) -> None:  # type: ignore[no-untyped-def]
    """The JSON and TRF exports of a duplicate tournament say so, give each seat its
    matchpoints, and the standings recomputed from the export alone are the folder's."""
    from arbiter.core.errors import SchemaViolation
    from arbiter.tournament import export_data, trf
    from arbiter.tournament.rounds import lot_seed
    from arbiter.tournament.standings import read_results, standings

    root = played[0]
    data = export_data.collect(root)
    assert data.duplicate is True
    assert trf.read(trf.write(root)) == data
    assert export_data.from_json(export_data.to_json(data)) == data
    assert "092 swiss 3 duplicate" in trf.write(root)
    export_data.check(data)
    tournament = folder.load(root)
    rows = standings(tournament, read_results(root, tournament), lot_seed=lot_seed(root, tournament))
    assert [(r.name, r.points) for r in export_data.standings_from_export(data)] == [
        (r.name, r.points) for r in rows
    ]
    # Each position: one table scores 2 (or both 1): matchpoints, not points by place.
    (table1, table2) = data.schedule[0].tables
    for a, b in zip(table1.seats, table2.seats, strict=True):
        assert a.points + b.points == 2
    raw = json.loads(export_data.to_json(data))
    seat = raw["schedule"][0]["tables"][0]["seats"][0]
    seat["points"] = (seat["points"] + 1) % 3  # any other value
    forged = export_data.from_json(json.dumps(raw).encode())
    with pytest.raises(SchemaViolation, match="matchpoints, but the group's scores give"):
        export_data.check(forged)


def test_a_swapped_group_secret_fails_the_games_verify(played, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, _, games = played
    copy = _published(root, tmp_path / "pub")
    reveal = copy / "games" / games[0].name / "reveal" / "reveal.json"
    data = json.loads(reveal.read_text())
    data["deal_secret"] = "ab" * 32
    reveal.write_text(json.dumps(data, indent=2) + "\n")
    said = arbiter("verify", copy / "games" / games[0].name)
    assert said.returncode == 16
    assert "group secret does not match the deal commitment" in said.stderr + said.stdout


def test_a_game_revealed_before_its_group_is_over_is_named(tmp_path: Path) -> None:
    """The organiser bypasses `tournament reveal` and publishes table 1 with the group
    secret while table 2 still plays: table 2's players could read their cards from it."""
    from arbiter.core.referee import reveal

    root, keys = _new(tmp_path, NAMES)
    paired = pair_next(root, "2026-10-02T00:00:00Z", seed=b"duplicate tests")
    games = [root / t.folder for t in paired.round.tables]
    for game in games:
        join_all(game, keys)
    duplicate.deal(root)
    play(games[0], keys, games[0].name)
    assert duplicate.reveal(root).revealed == []  # the tournament's own reveal waits
    # The live site shows nothing of the finished table while its group plays on.
    site = tmp_path / "site"
    built = arbiter("tournament", "report", root, "--site", site)
    assert built.returncode == 0, built.stdout + built.stderr
    index = (site / "index.html").read_text()
    assert "hidden until every table of its duplicate round is over" in index
    assert not list((site / "games").glob("*.html")) if (site / "games").exists() else True
    reveal(games[0], group_over=True)
    said = arbiter("tournament", "verify", _published(root, tmp_path / "pub"))
    assert said.returncode == 16
    assert "before every table of round 1 was over" in said.stderr + said.stdout


def test_a_deal_listing_other_joins_at_one_table_is_caught(tmp_path: Path) -> None:
    """An organiser deals table 1 from a list whose table-2 slot is a stranger's key (a
    valid entropy signature, but not table 2's player): table 1 verifies on its own, and
    `tournament verify` names the group."""
    from helpers.tables import make_keys

    from arbiter.core.joins import sign_entropy

    root, keys = _new(tmp_path, NAMES)
    paired = pair_next(root, "2026-10-02T00:00:00Z", seed=b"duplicate tests")
    games = [root / t.folder for t in paired.round.tables]
    for game in games:
        join_all(game, keys)
    slots = [deal_slot(game) for game in games]
    assert all(slot is not None for slot in slots)
    forged = json.loads(json.dumps(slots))
    stranger = make_keys(tmp_path / "stranger", ["zed"])["zed"]
    seat = forged[1]["seats"][0]
    seat["key"] = " ".join(Path(f"{stranger}.pub").read_text().split()[:2])
    seat["entropy_signature"], _ = sign_entropy(
        forged[1]["game"], seat["seat"], forged[1]["manifest"], stranger
    )
    deal(games[0], forged)
    with pytest.raises(Tampered, match="other seats or keys"):
        deal(games[1], forged)  # table 2 checks its own slot and refuses
    deal(games[1], slots)
    for game in games:
        play(game, keys, game.name)
    duplicate.reveal(root)
    alone = arbiter("verify", games[0])
    assert alone.returncode == 0, alone.stdout + alone.stderr
    said = arbiter("tournament", "verify", _published(root, tmp_path / "pub"))
    assert said.returncode == 16
    assert "round 1: the deal binds dup-r1-t2 to another game.json, or to other seats or keys" in (
        said.stderr + said.stdout
    )


def test_a_game_is_not_dealt_before_its_group_has_joined(tmp_path: Path) -> None:
    root, keys = _new(tmp_path, NAMES)
    paired = pair_next(root, "2026-10-02T00:00:00Z", seed=b"duplicate tests")
    games = [root / t.folder for t in paired.round.tables]
    join_all(games[0], keys)
    before = {p: p.read_bytes() for p in games[0].rglob("*") if p.is_file()}
    assert duplicate.deal(root).waiting == {"dup-r1": [paired.round.tables[1].game]}
    assert {p: p.read_bytes() for p in games[0].rglob("*") if p.is_file()} == before
    status = arbiter("status", games[0], "--json")
    assert json.loads(status.stdout)["status"] == "joining"
    moved = arbiter("reveal", games[0])
    assert moved.returncode != 0
    assert folder.load(root).schedule[0].deals[0].games == [t.game for t in paired.round.tables]


def test_deadlines_run_from_the_deal(tmp_path: Path) -> None:
    """With deadlines, nobody's clock runs while a table waits for its group's deal (no
    seat can act); the first seat's deadline counts from the deal entry's time."""
    from arbiter.core.errors import NotReady
    from arbiter.core.player import load_state
    from arbiter.core.referee import timeout

    root, keys = _new(tmp_path, NAMES, deadline=3600)
    paired = pair_next(root, "2026-10-02T00:00:00Z", seed=b"duplicate tests")
    games = [root / t.folder for t in paired.round.tables]
    for game in games:
        join_all(game, keys)
    with pytest.raises(NotReady, match="waits for the deal of duplicate group dup-r1-s3"):
        timeout(games[0], now="2099-10-09T00:00:00Z")
    # (the joins are stamped with today's clock: the deal comes later, in 2099)
    duplicate.deal(root, now="2099-10-10T00:00:00Z")
    waiting = timeout(games[0], now="2099-10-10T00:30:00Z")
    assert waiting.timed_out is None and waiting.due == "2099-10-10T01:00:00Z"
    done = timeout(games[0], now="2099-10-10T01:00:01Z")
    assert done.timed_out is not None
    assert load_state(games[0] / "public" / "state.json")["status"] == "playing"
    # The timeout, the deal's time and every clock check replay in the verify.
    from arbiter.core.replay import verify

    for game in games:
        play(game, keys, game.name)
    assert len(duplicate.reveal(root).revealed) == 2
    for game in games:
        assert verify(game).status == "over"


def test_a_round_of_two_table_sizes_shares_one_secret_and_waits_for_every_table(
    tmp_path: Path,
) -> None:
    """Two late entries make 8 players: tables of 3, 3 and 2. The tables of 3 play one
    deal, the table of 2 its own (nobody to compare with: the average), all from one
    round secret mixed with every join of the round; nothing is dealt or revealed before
    every table of the round is ready."""
    from helpers.tables import make_keys

    from arbiter.core.player import load_state
    from arbiter.tournament.field import enter
    from arbiter.tournament.standings import read_results, standings

    root, keys = _new(tmp_path, NAMES, rounds=2)
    first = pair_next(root, "2026-10-02T00:00:00Z", seed=b"duplicate tests").round
    for table in first.tables:
        join_all(root / table.folder, keys)
    duplicate.deal(root)
    for table in first.tables:
        play(root / table.folder, keys, table.game)
    duplicate.reveal(root)
    keys.update(make_keys(tmp_path / "late", ["gus", "hal"]))
    for name in ("gus", "hal"):
        public = " ".join(Path(f"{keys[name]}.pub").read_text().split()[:2])
        enter(root, name, public, "", None, "2026-10-03T00:00:00Z")
    second = pair_next(root, "2026-10-04T00:00:00Z", seed=b"duplicate tests").round
    assert [len(t.seats) for t in second.tables] == [3, 3, 2]
    assert [(d.group, d.games) for d in second.deals] == [
        ("dup-r2-s3", ["dup-r2-t1", "dup-r2-t2"]), ("dup-r2-s2", ["dup-r2-t3"]),
    ]  # fmt: skip
    assert len({d.commitment for d in second.deals}) == 1
    games = [root / t.folder for t in second.tables]
    for game in games[:2]:
        join_all(game, keys)
    assert duplicate.deal(root).waiting == {"dup-r2": ["dup-r2-t3"]}
    join_all(games[2], keys)
    assert duplicate.deal(root).dealt == [t.game for t in second.tables]
    manifest = json.loads((games[2] / "game.json").read_text())
    assert manifest["deal"]["games"] == [t.game for t in second.tables]
    for game in games[:2]:
        play(game, keys, game.name)
    said = duplicate.reveal(root)
    assert said.revealed == [] and "waits for dup-r2-t3" in said.waiting["dup-r2-t1"]
    tournament = folder.load(root)
    results = {r.table.game: r for r in read_results(root, tournament)}
    assert not results["dup-r2-t1"].counted  # the round is not over yet
    play(games[2], keys, games[2].name)
    assert duplicate.reveal(root).revealed == [t.game for t in second.tables]
    results = {r.table.game: r for r in read_results(root, tournament)}
    assert results["dup-r2-t3"].points == dict.fromkeys(second.tables[2].seats, 1)
    assert sum(results["dup-r2-t1"].points.values()) + sum(results["dup-r2-t2"].points.values()) == 6
    rows = standings(tournament, list(results.values()))
    assert sum(row.points for row in rows) == 6 + 6 + 2  # round 1, the threes, the lone pair
    said = arbiter("tournament", "verify", _published(root, tmp_path / "pub"))
    assert said.returncode == 0, said.stdout + said.stderr
    assert "duplicate: 3 group(s)" in said.stdout
    assert load_state(games[2] / "public" / "state.json")["status"] == "over"
