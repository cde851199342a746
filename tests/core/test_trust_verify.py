"""The audit's findings on verify and submit (issue 10): each fails on the old code."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers.tables import Table, expect_rejection, started
from helpers.tools import needs

from arbiter.bots.selfplay import play
from arbiter.core import registry
from arbiter.core.canonical import pretty
from arbiter.core.errors import Duplicate, VerificationFailed
from arbiter.core.referee import reveal
from arbiter.core.replay import verify
from arbiter.core.signing import NAMESPACE_MOVE, sign

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"cards": "4", "hand": "1"}


# -- 1. a finished game verifies before its reveal ------------------------------------------


# Mot Coin's whole game (3 seats, ~150 entries) takes a quarter of a minute: with the
# slow suites; the others keep the default run under ten minutes.
ENGINES = [
    pytest.param(name, marks=pytest.mark.slow) if name == "motcoin" else name
    for name in [*registry.BUILTIN, "tally"]
]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_finished_game_verifies_before_the_reveal(engine: str, tmp_path: Path) -> None:
    """The result table's columns come from the engine, not from the sorted state file."""
    info = registry.get(engine).info
    run = play(tmp_path / "run", engine, info.min_seats, "unrevealed", reveal_at_end=False)
    assert run.status == "over"
    report = verify(run.game)
    assert report.status == "over" and not report.revealed
    log = (run.game / "public" / "log.md").read_text(encoding="utf-8")
    header = next(line for line in log.splitlines() if line.startswith("| place |"))
    columns = [cell.strip() for cell in header.strip("|").split("|")][3:]
    assert columns and columns == [c for c in info.score_columns if c in columns]
    reveal(run.game)
    assert verify(run.game).replayed


# -- 3. readers see a consistent snapshot ---------------------------------------------------


def _env() -> dict[str, str]:
    return dict(
        os.environ,
        ARBITER_ENGINES="tally=testgame:TallyEngine",
        PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT)]),
    )


def test_verify_during_submits_never_fails_falsely(tmp_path: Path) -> None:
    """Submits run in other processes while this one verifies over and over."""
    table = started(tmp_path, options={"cards": "24", "hand": "1"})
    moves = []
    # Prepare a run of moves on a scratch copy, then submit them for real meanwhile.
    scratch = tmp_path / "scratch"
    shutil.copytree(table.root, scratch / "game")
    shutil.copytree(table.root.parent / "keys", scratch / "keys")
    shadow = Table(scratch / "game", {s: scratch / "keys" / s for s in table.seats}, table.seats, scratch)
    for index in range(10):
        if shadow.state()["status"] != "playing":
            break
        seat = shadow.turn()
        legal = shadow.state(seat)["legal"]
        move = shadow.move_file(seat, [legal[0]])
        path = tmp_path / f"move-{index}.json"
        path.write_bytes(pretty(move))
        shadow.submit_obj(move)
        moves.append(path)
    assert len(moves) >= 6
    failures: list[str] = []
    done = threading.Event()

    def submitter() -> None:
        for path in moves:
            subprocess.run(
                [sys.executable, "-m", "arbiter", "submit", str(table.root), str(path)],
                check=True, capture_output=True, env=_env(),
            )
        done.set()

    thread = threading.Thread(target=submitter)
    thread.start()
    checks = 0
    while not done.is_set() or checks < 60:
        try:
            verify(table.root)
        except VerificationFailed as exc:
            failures.append(exc.message)
        checks += 1
    thread.join()
    assert not failures, failures[:3]
    assert table.state()["seq"] == 2 + len(moves)


def test_verify_of_a_copy_being_updated_retries(tmp_path: Path) -> None:
    """A published copy has no lock: a file replaced during the check means a retry."""
    table = started(tmp_path / "ref", options=SMALL)
    mirror = tmp_path / "mirror"
    shutil.copytree(table.root, mirror, ignore=shutil.ignore_patterns("referee"))
    table.step()
    newer = tmp_path / "newer"
    shutil.copytree(table.root, newer, ignore=shutil.ignore_patterns("referee"))

    import arbiter.core.replay as replay

    original = replay._public_only
    calls = []

    def slow_public_only(*args: object) -> None:
        calls.append(1)
        if len(calls) == 1:  # a sync lands in the middle of the first read
            for path in sorted(newer.rglob("*")):
                if path.is_file():
                    target = mirror / path.relative_to(newer)
                    os.replace(shutil.copy(path, target.with_suffix(".sync")), target)
        original(*args)  # type: ignore[arg-type]

    replay._public_only = slow_public_only  # type: ignore[assignment]
    try:
        report = verify(mirror)
    finally:
        replay._public_only = original  # type: ignore[assignment]
    assert len(calls) >= 2 and report.entries == 4


# -- 4. a forced reveal cannot be relabelled ------------------------------------------------


@pytest.fixture
def playing(tmp_path: Path) -> Table:
    table = started(tmp_path, options=SMALL)
    table.step()
    return table


def test_a_forced_reveal_relabelled_everywhere_is_caught(playing: Table) -> None:
    """Record and every log edited alike, as the audit did: the replay knows better."""
    reveal(playing.root, force=True)
    record = json.loads(playing.gd.reveal_record.read_bytes())
    record["forced"] = False
    playing.gd.reveal_record.write_bytes(pretty(record))
    forced = "The referee revealed the secret **before the game was over** (forced)."
    normal = "The referee revealed the secret after the game ended."
    for log in playing.root.rglob("log.md"):
        text = log.read_text(encoding="utf-8")
        assert forced in text
        log.write_text(text.replace(forced, normal), encoding="utf-8")
    with pytest.raises(VerificationFailed, match="not forced, but the replayed game is not over"):
        verify(playing.root)


# -- 7. duplicates by meaning ---------------------------------------------------------------


def _accepted_move(table: Table) -> dict:
    seat = table.turn()
    move = table.move_file(seat, [table.state(seat)["legal"][0]])
    table.submit_obj(move)
    return move


def test_a_rewrapped_signature_of_an_accepted_move_is_a_duplicate(playing: Table) -> None:
    move = _accepted_move(playing)
    body = "".join(move["signature"].splitlines()[1:-1])
    lines = [body[i : i + 50] for i in range(0, len(body), 50)]
    move["signature"] = "\n".join(
        ["-----BEGIN SSH SIGNATURE-----", *lines, "-----END SSH SIGNATURE-----", ""]
    )
    exc = expect_rejection(playing, Duplicate, 9, playing.submit_obj, move)
    assert "same content" in exc.message


@needs("ssh-keygen")
def test_a_sha256_signature_of_an_accepted_move_is_a_duplicate(playing: Table, tmp_path: Path) -> None:
    from arbiter.core.signing import signed_bytes

    move = _accepted_move(playing)
    message = tmp_path / "move.bytes"
    message.write_bytes(signed_bytes(move))
    subprocess.run(
        ["ssh-keygen", "-Y", "sign", "-O", "hashalg=sha256", "-f", str(playing.keys[move["seat"]]),
         "-n", NAMESPACE_MOVE, str(message)],
        check=True, capture_output=True,
    )
    move["signature"] = (tmp_path / "move.bytes.sig").read_text()
    expect_rejection(playing, Duplicate, 9, playing.submit_obj, move)


def test_another_move_against_the_same_head_is_still_stale(playing: Table) -> None:
    """Only the same content is a duplicate: another decision there is a stale move."""
    from arbiter.core.errors import StaleHead

    seat = playing.turn()
    state = playing.state(seat)
    legal = state["legal"]
    playing.submit_obj(playing.move_file(seat, [legal[0]], state=state))
    if len(legal) > 1:
        other = playing.move_file(seat, [legal[1]], state=state)
    else:
        other = {k: v for k, v in playing.move_file(seat, [legal[0]], state=state).items()}
        other["actions"] = [*other["actions"], legal[0]]
        other.pop("signature")
        other["signature"] = sign(other, playing.keys[seat], NAMESPACE_MOVE)
    expect_rejection(playing, StaleHead, 8, playing.submit_obj, other)


# -- 8. permissions -------------------------------------------------------------------------


def test_public_files_are_world_readable_and_referee_files_private(tmp_path: Path) -> None:
    old = os.umask(0o077)  # a careful referee's umask must not hide the public files
    try:
        table = started(tmp_path, options=SMALL)
        table.step()
        reveal(table.root, force=True)
    finally:
        os.umask(old)
    referee = table.gd.referee
    for path in [table.root, *table.root.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        private = path == referee or referee in path.parents
        if path.is_dir():
            assert mode == (0o700 if private else 0o755), (path, oct(mode))
        else:
            assert mode == (0o600 if private else 0o644), (path, oct(mode))
