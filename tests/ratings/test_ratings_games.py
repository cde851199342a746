"""Which games count: failed verifications, unrevealed and unfinished games, copies and
shared keys are listed with their reason and left out; the same inputs give the same bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from ratings_kit import ORDER, Cli, play, play_on, send, state_of

from arbiter.core.life_files import make_answer, make_handover, make_propose_end, make_resign
from arbiter.core.referee import reveal


def rate(cli: Cli, *args: Any) -> dict[str, Any]:
    done = cli("ratings", *args, "--json")
    assert done.code == 0, done
    return dict(json.loads(done.out))


def tamper(path: Path, needle: bytes) -> None:
    """Change one byte of ``path``: the first byte after ``needle``."""
    data = bytearray(path.read_bytes())
    at = data.index(needle) + len(needle)
    data[at] = ord("A") if data[at] != ord("A") else ord("B")
    path.write_bytes(bytes(data))


def test_a_game_that_fails_verification_is_listed_and_left_out(
    archive: Path, cli: Cli, tmp_path: Path
) -> None:
    clean = rate(cli, archive)
    extra = tmp_path / "extra"
    # A copy of r-west with one byte of a signed move changed (a signature's base64).
    shutil.copytree(archive / "g1", extra / "signed")
    tamper(extra / "signed" / "reveal" / "signed.jsonl", b"-----BEGIN SSH SIGNATURE-----\\n")
    # And one with one byte of its chain changed.
    shutil.copytree(archive / "g4", extra / "chain")
    tamper(extra / "chain" / "chain.jsonl", b'"summary":["')
    doc = rate(cli, archive, extra)
    assert [(g["folder"], g["game"], g["code"]) for g in doc["left_out"]] == [
        (str(extra / "chain"), "a-north", "verify-failed"),
        (str(extra / "signed"), "r-west", "verify-failed"),
    ]
    for row in doc["left_out"]:
        assert row["reason"] and "\n" not in row["reason"]
    # Everything else is as without them.
    assert {k: v for k, v in doc.items() if k != "left_out"} == {
        k: v for k, v in clean.items() if k != "left_out"
    }


def test_a_copy_of_a_rated_game_is_rated_once(archive: Path, cli: Cli, tmp_path: Path) -> None:
    shutil.copytree(archive / "g3", tmp_path / "again")
    doc = rate(cli, archive, tmp_path / "again")
    assert [g["game"] for g in doc["games"]] == ORDER
    (row,) = doc["left_out"]
    assert (row["game"], row["code"]) == ("r-tie", "duplicate")
    assert str(archive / "g3") in row["reason"]


def test_unrevealed_and_unfinished_games_are_left_out(
    cli: Cli, tmp_path: Path, keys: dict[str, Path]
) -> None:
    seats = [("ann", keys["ann"]), ("ben", keys["ben"])]
    play(tmp_path / "a" / "over", "over", seats, "over", created="2026-01-01T00:00:00Z")
    play(
        tmp_path / "a" / "unrevealed",
        "unrevealed",
        seats,
        "west",
        created="2026-01-01T00:00:00Z",
        reveal_at_end=False,
    )
    play(
        tmp_path / "a" / "stopped",
        "stopped",
        seats,
        "s",
        created="2026-01-01T00:00:00Z",
        finish=False,
    )
    reveal(tmp_path / "a" / "stopped", force=True)
    doc = rate(cli, tmp_path / "a")
    assert [g["game"] for g in doc["games"]] == ["over"]
    assert [(g["game"], g["code"]) for g in doc["left_out"]] == [
        ("stopped", "not-over"),
        ("unrevealed", "not-revealed"),
    ]
    reasons = [g["reason"] for g in doc["left_out"]]
    assert "--force" in reasons[0] and "arbiter reveal" in reasons[1]


def test_a_seat_that_changed_hands_is_not_rated(
    cli: Cli, tmp_path: Path, keys: dict[str, Path]
) -> None:
    """ann hands her seat to cat's key mid-game: the result belongs to no single key. So
    too when cat hands it back to ann's key before the end."""
    seats = [("ann", keys["ann"]), ("ben", keys["ben"])]
    public = {p: Path(str(keys[p]) + ".pub").read_text() for p in ("ann", "cat")}
    for name, back in (("handed", False), ("handed-back", True)):
        game = tmp_path / "g" / name
        play(game, name, seats, name, created="2026-01-01T00:00:00Z", finish=False)
        send(game, make_handover(state_of(game, "ann"), keys["ann"], public["cat"]), None, "h")
        holder = keys["cat"]
        if back:
            send(game, make_handover(state_of(game, "ann"), holder, public["ann"]), None, "b")
            holder = keys["ann"]
        play_on(game, {"ann": holder, "ben": keys["ben"]}, name)
        reveal(game)
    doc = rate(cli, tmp_path / "g")
    assert doc["games"] == [] and doc["players"] == []
    assert [(g["game"], g["code"]) for g in doc["left_out"]] == [
        ("handed", "changed-hands"),
        ("handed-back", "changed-hands"),
    ]


def test_an_abandoned_game_is_not_rated_and_a_resigned_one_is(
    cli: Cli, tmp_path: Path, keys: dict[str, Path]
) -> None:
    """Abandoned by agreement: no result, not rated. A resignation is a result (the seat
    that resigned is ranked last), rated like any other."""
    seats = [("ann", keys["ann"]), ("ben", keys["ben"])]
    dropped = tmp_path / "g" / "dropped"
    play(dropped, "dropped", seats, "d", created="2026-01-01T00:00:00Z", finish=False)
    send(dropped, make_propose_end(state_of(dropped, "ann"), keys["ann"], "abandon"), None, "p")
    send(dropped, make_answer(state_of(dropped, "ben"), keys["ben"], "accept"), None, "a")
    reveal(dropped)
    resigned = tmp_path / "g" / "resigned"
    play(resigned, "resigned", seats, "r", created="2026-01-01T00:00:00Z", finish=False)
    send(resigned, make_resign(state_of(resigned, "ann"), keys["ann"]), None, "resign")
    reveal(resigned)
    doc = rate(cli, tmp_path / "g")
    assert [(g["game"], g["code"]) for g in doc["left_out"]] == [("dropped", "no-result")]
    (game,) = doc["games"]
    assert [(s["seat"], s["place"]) for s in game["seats"]] == [("ann", 2), ("ben", 1)]


def test_one_key_in_two_seats_is_not_rated() -> None:
    """arbiter new refuses such a game; a game.json made by other means is still refused."""
    from arbiter.ratings.games import identity_problem

    outcome = {"ranking": [["ann"], ["alias"]]}
    seats = [("ann", "ssh-ed25519 AAAA1"), ("alias", "ssh-ed25519 AAAA1")]
    assert identity_problem(seats, set(), outcome) == (
        "shared-key",
        "seats ann and alias are held by the same key: a player cannot be rated against themself",
    )
    assert identity_problem(seats[:1], set(), {"ranking": [["ann"]]})[0] == "one-seat"


def test_the_same_games_give_the_same_bytes(archive: Path, cli: Cli, tmp_path: Path) -> None:
    """Twice, and with the folders given in another order: ratings.json is the same bytes,
    and --json prints them."""
    folders = sorted(archive.iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    assert cli("ratings", *folders, "--out", first).code == 0
    assert cli("ratings", *reversed(folders), "--out", second).code == 0
    data = (first / "ratings.json").read_bytes()
    assert data == (second / "ratings.json").read_bytes()
    assert (first / "ratings.md").read_bytes() == (second / "ratings.md").read_bytes()
    assert cli("ratings", *folders, "--json").out.encode() == data
    again = tmp_path / "again"
    assert cli("ratings", *folders, "--out", again).code == 0
    assert (again / "ratings.json").read_bytes() == data


def test_the_markdown_and_the_table(archive: Path, cli: Cli, tmp_path: Path) -> None:
    done = cli("ratings", archive, "--out", tmp_path / "site")
    assert done.code == 0, done
    assert "ratings.json" in done.out and "ratings.md" in done.out
    assert "rated 4 games (0 left out)" in done.out
    page = (tmp_path / "site" / "ratings.md").read_text()
    doc = json.loads((tmp_path / "site" / "ratings.json").read_text())
    for row in doc["players"]:
        assert f"| {row['rank']} | {', '.join(row['names'])} | `{row['fingerprint']}` |" in page
    body = page.split("## Games rated, in order")[1].split("## Left out")[0]
    assert [line.split(" | ")[2] for line in body.splitlines() if line.startswith("| 1")] == [
        "r-tie"
    ]
    assert page.index("r-tie") < page.index("a-north") < page.index("r-west") < page.index("r-east")


def test_markdown_escapes_what_the_folders_are_called(
    cli: Cli, tmp_path: Path, archive: Path
) -> None:
    odd = tmp_path / "a|b <i>*x*"
    shutil.copytree(archive / "g4", odd / "g")
    doc_dir = tmp_path / "out"
    assert cli("ratings", odd, "--out", doc_dir).code == 0
    page = (doc_dir / "ratings.md").read_text()
    assert "a\\|b \\<i\\>\\*x\\*" in page and "<i>" not in page
