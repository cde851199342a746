"""Clocks through the CLI (issue 27 item 5, docs/clocks.md): a time bank with an
increment and a cap, leave files, automatic leave, weekend pauses, status and verify.

The referee's clock is injected as ``ARBITER_NOW`` (docs/tournaments.md, "The clock"),
the one way time enters arbiter; 2026-01-01 is a Thursday.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import Cli, Game, error_line, new_game, ok
from helpers.tables import snapshot

START = "2026-01-01T00:00:00Z"  # a Thursday
DAY = 86400
HOUR = 3600


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch):
    """Set the referee's clock."""

    def set_clock(time: str) -> None:
        monkeypatch.setenv("ARBITER_NOW", time)

    return set_clock


def _new(cli: Cli, tmp_path: Path, keys: Path, at, *terms: str) -> Game:
    at(START)
    return new_game(cli, tmp_path, keys, "--no-join", *terms)


def _turn(g: Game, when: str, at) -> dict:
    """The waiting seat plays its turn (its ``draw`` or ``end``) at ``when``."""
    at(when)
    seat = g.turn()
    state = json.loads(g.state(seat).read_text())
    last = next(a for a in state["legal"] if a["kind"] in ("draw", "end"))
    path = g.move(seat, last)
    return ok(g.cli("submit", g.root, path, "--json")).json()[0]


def _clock(g: Game) -> dict:
    return json.loads(g.state().read_text())["clock"]


def _chain(g: Game) -> list[dict]:
    return [json.loads(line) for line in (g.root / "chain.jsonl").read_text().splitlines()]


def _reveal_and_verify(g: Game) -> dict:
    ok(g.cli("reveal", g.root, "--force"))
    report = ok(g.cli("verify", g.root, "--json")).json()
    assert report["replayed"], report
    return report


BANK = ("--bank", "2d", "--increment", "12h", "--cap", "3d")


def test_the_bank_takes_time_used_and_adds_the_increment_up_to_the_cap(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK)
    manifest = json.loads((g.root / "game.json").read_text())
    assert manifest["deadline"]["bank"] == 2 * DAY
    assert manifest["deadline"]["increment"] == 12 * HOUR
    assert manifest["deadline"]["cap"] == 3 * DAY
    assert _clock(g)["banks"] == {"alice": 2 * DAY, "bob": 2 * DAY}
    assert _clock(g)["due"] == "2026-01-03T00:00:00Z"
    # alice takes 6 hours: 2d − 6h + 12h.
    _turn(g, "2026-01-01T06:00:00Z", at)
    assert _clock(g)["banks"] == {"alice": 2 * DAY + 6 * HOUR, "bob": 2 * DAY}
    assert (_clock(g)["waiting"], _clock(g)["due"]) == ("bob", "2026-01-03T06:00:00Z")
    # Both answer at once, twice each: the banks grow to the cap and no further.
    for _ in range(4):
        _turn(g, "2026-01-01T06:00:00Z", at)
    assert _clock(g)["banks"] == {"alice": 3 * DAY, "bob": 3 * DAY}
    # bob takes a day and a half of his three: 1d12h + 12h left.
    _turn(g, "2026-01-02T18:00:00Z", at)
    assert _clock(g)["banks"]["bob"] == 2 * DAY
    # Every entry is dated; the chain is all the fold reads.
    assert all("time" in entry for entry in _chain(g))
    _reveal_and_verify(g)


def test_a_seat_times_out_once_its_bank_and_grace_are_spent(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, "--bank", "1d", "--grace", "6h")
    _turn(g, "2026-01-01T20:00:00Z", at)  # alice: 4h left, no increment
    _turn(g, "2026-01-01T20:00:00Z", at)  # bob
    assert _clock(g)["due"] == "2026-01-02T00:00:00Z"
    assert _clock(g)["final"] == "2026-01-02T06:00:00Z"
    at("2026-01-02T05:59:59Z")
    early = ok(cli("timeout", g.root, "--json")).json()
    assert not early["timed_out"] and early["due"] == "2026-01-02T00:00:00Z"
    status = ok(cli("status", g.root)).out
    assert "alice is overdue since 2026-01-02T00:00:00Z, in the grace until" in status
    at("2026-01-02T06:00:00Z")
    done = ok(cli("timeout", g.root, "--json")).json()
    assert done["timed_out"] and done["policy"] == "pass"
    assert _chain(g)[-1]["kind"] == "timeout"
    # A bank spent to nothing stays at nothing (no increment here): alice's next wait
    # has only the grace.
    assert _clock(g)["banks"]["alice"] == 0
    _reveal_and_verify(g)


def test_status_shows_each_seats_bank_and_leave_and_overdue(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK, "--leave", "3d")
    _turn(g, "2026-01-01T06:00:00Z", at)
    at("2026-01-02T00:00:00Z")
    out = ok(cli("status", g.root)).out
    assert "deadline: bob has until 2026-01-03T06:00:00Z; then pass" in out
    assert "clock: alice: bank 2d6h, leave 3d left at 2026-01-01T06:00:00Z" in out
    assert "clock: bob (waiting): bank 2d, leave 3d left" in out
    at("2026-01-03T06:00:00Z")
    info = ok(cli("status", g.root, "--json")).json()["deadline"]
    assert info["overdue"] and info["timeout_owed"]
    assert info["banks"] == {"alice": 2 * DAY + 6 * HOUR, "bob": 2 * DAY}
    assert info["leave"] == {"alice": 3, "bob": 3}
    assert "bob is overdue since 2026-01-03T06:00:00Z" in ok(cli("status", g.root)).out


def _leave(g: Game, seat: str, days: int) -> Path:
    path = g.out(f"leave-{seat}")
    ok(g.cli("leave", g.state(seat), "--key", g.keys / seat, "--days", days, "-o", path))
    return path


def test_a_leave_file_stops_every_clock_and_is_announced(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK, "--leave", "3d")
    # bob takes leave while alice is to move: every clock stops, alice's too.
    at("2026-01-01T12:00:00Z")
    leave = _leave(g, "bob", 2)
    record = json.loads(leave.read_text())
    assert (record["format"], record["days"]) == ("arbiter.leave/1", 2)
    accepted = ok(cli("submit", g.root, leave, "--json")).json()[0]
    assert accepted["kind"] == "leave"
    said = "bob takes 2 days of leave from now: the game waits, every clock stopped"
    assert said in accepted["summary"][0]
    for reader in ("public", "players/alice", "players/bob"):
        assert said in (g.root / reader / "log.md").read_text()
    clock = _clock(g)
    assert clock["leave"] == {"alice": 3, "bob": 1}
    assert clock["on_leave"] == [
        {"seat": "bob", "start": "2026-01-01T12:00:00Z", "end": "2026-01-03T12:00:00Z"}
    ]
    # alice had 1d12h left at noon; two days of leave push her time out by two days.
    assert clock["due"] == "2026-01-05T00:00:00Z"
    at("2026-01-02T00:00:00Z")
    assert "on leave: bob until 2026-01-03T12:00:00Z" in ok(cli("status", g.root)).out
    # Her move during the leave costs her nothing after its start.
    _turn(g, "2026-01-02T00:00:00Z", at)
    assert _clock(g)["banks"]["alice"] == 2 * DAY - 12 * HOUR + 12 * HOUR
    _reveal_and_verify(g)


def test_leave_beyond_what_is_left_is_refused_and_changes_nothing(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK, "--leave", "3d")
    at("2026-01-01T01:00:00Z")
    ok(cli("submit", g.root, _leave(g, "alice", 2)))
    # The player's command refuses at once from the state file ...
    err = error_line(
        cli("leave", g.state("alice"), "--key", g.keys / "alice", "--days", 2, "-o", g.out("x")), 12
    )
    assert "alice has 1 day of leave left, not 2" in err
    # ... and the referee refuses a file made anyway (from the older state file).
    stale_state = g.files / "old-state.json"
    at("2026-01-01T02:00:00Z")
    state = json.loads(g.state("alice").read_text())
    state["clock"]["leave"]["alice"] = 3
    stale_state.write_text(json.dumps(state))
    path = g.out("too-much")
    ok(cli("leave", stale_state, "--key", g.keys / "alice", "--days", 2, "-o", path))
    before = snapshot(g.root)
    err = error_line(cli("submit", g.root, path), 12)
    assert "alice has 1 day of leave left, not 2: take at most 1" in err
    assert snapshot(g.root) == before


def test_leave_in_a_game_without_leave_is_refused(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK)
    err = error_line(
        cli("leave", g.state("bob"), "--key", g.keys / "bob", "--days", 1, "-o", g.out("x")), 12
    )
    assert "this game gives no leave" in err


def test_automatic_leave_instead_of_a_timeout(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, "--bank", "1d", "--leave", "2d", "--leave-auto")
    assert _clock(g)["due"] == "2026-01-02T00:00:00Z"
    # The time ran out at midnight; cron runs at 10:00: one day taken from midnight.
    at("2026-01-02T10:00:00Z")
    done = ok(cli("timeout", g.root, "--json")).json()
    assert done["leave_auto"] and not done["timed_out"]
    entry = _chain(g)[-1]
    assert (entry["kind"], entry["seat"], entry["time"]) == ("leave-auto", "alice", "2026-01-02T10:00:00Z")
    assert "alice's time ran out at 2026-01-02T00:00:00Z: 1 day of its leave taken" in entry["summary"][0]
    clock = _clock(g)
    assert clock["leave"]["alice"] == 1 and clock["due"] == "2026-01-03T00:00:00Z"
    # Nothing more before then; after it, the second day; then the timeout.
    at("2026-01-02T23:00:00Z")
    assert not ok(cli("timeout", g.root, "--json")).json()["leave_auto"]
    at("2026-01-03T00:00:00Z")
    assert ok(cli("timeout", g.root, "--json")).json()["leave_auto"]
    at("2026-01-04T00:00:00Z")
    last = ok(cli("timeout", g.root, "--json")).json()
    assert last["timed_out"] and not last["leave_auto"]
    kinds = [entry["kind"] for entry in _chain(g)]
    assert kinds == ["genesis", "leave-auto", "leave-auto", "timeout"]
    # The referee's own entries get no receipt.
    assert not list((g.root / "referee" / "receipts").glob("*.json"))
    _reveal_and_verify(g)
    # The replay viewer folds the clocks too: its last frame is the published state.
    shown = ok(cli("replay", g.root, "--at", 3, "--json")).json()
    assert shown["clock"] == _clock(g)
    ok(cli("html", g.root, "-o", tmp_path / "replay.html"))


def test_weekends_do_not_count_when_paused(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, "--bank", "3d", "--weekends", "pause")
    # Thursday 00:00 + 3 days of weekdays: Thursday, Friday, Monday → Tuesday 00:00.
    assert _clock(g)["due"] == "2026-01-06T00:00:00Z"
    # alice moves on Monday noon: 2.5 days used, the weekend free.
    _turn(g, "2026-01-05T12:00:00Z", at)
    assert _clock(g)["banks"]["alice"] == 12 * HOUR
    # The same game counting weekends ran out on Sunday.
    plain = _new(cli, tmp_path / "b", keys, at, "--bank", "3d")
    assert _clock(plain)["due"] == "2026-01-04T00:00:00Z"
    _reveal_and_verify(g)


def test_a_deadline_with_weekends_paused_and_no_bank(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, "--deadline", "3d", "--weekends", "pause")
    assert _clock(g)["banks"] is None
    # Thursday, Friday, then Monday: the deadline is Tuesday 00:00.
    assert _clock(g)["due"] == "2026-01-06T00:00:00Z"
    at("2026-01-05T23:59:59Z")
    assert not ok(cli("timeout", g.root, "--json")).json()["timed_out"]
    at("2026-01-06T00:00:00Z")
    assert ok(cli("timeout", g.root, "--json")).json()["timed_out"]
    _reveal_and_verify(g)


def test_bad_clock_terms_are_refused_and_make_no_folder(cli, keys, tmp_path, at):
    at(START)
    for terms, said in [
        (("--increment", "1d"), "--increment and --cap are for a time bank"),
        (("--bank", "2d", "--cap", "1d"), "is less than --bank"),
        (("--bank", "2d", "--leave", "36h"), "must be whole days"),
        (("--bank", "2d", "--leave-auto"), "give --leave too"),
        (("--bank", "2d", "--weekends", "skip"), "--weekends must be pause or count"),
        (("--leave", "2d"), "give --deadline or --bank"),
        (("--bank", "soon"), "--bank 'soon' must look like"),
    ]:
        root = tmp_path / "bad"
        result = cli(
            "new", root, "--game", "tally", "--seat", f"alice={keys / 'alice.pub'}",
            "--seat", f"bob={keys / 'bob.pub'}", "--no-join", *terms,
        )
        assert said in error_line(result, 2), terms
        assert not root.exists()


def test_a_game_without_clock_terms_has_no_clock_member(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, "--deadline", "3d")
    state = json.loads(g.state().read_text())
    manifest = json.loads((g.root / "game.json").read_text())
    assert "clock" not in state
    assert sorted(manifest["deadline"]) == ["bot", "forfeit_after", "grace", "on_timeout", "seconds"]


def test_verify_before_the_reveal_and_a_leave_signed_by_another_key(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK, "--leave", "3d")
    _turn(g, "2026-01-01T06:00:00Z", at)
    at("2026-01-01T07:00:00Z")
    ok(cli("submit", g.root, _leave(g, "alice", 1)))
    report = ok(cli("verify", g.root, "--json")).json()
    assert not report["replayed"] and report["entries"] == 3
    # A leave file for bob signed with alice's key: the referee refuses it (exit 7).
    outside = g.files / "bob-state.json"
    outside.write_bytes(g.state("bob").read_bytes())
    path = g.out("forged")
    ok(cli("leave", outside, "--key", g.keys / "alice", "--days", 1, "-o", path))
    before = snapshot(g.root)
    error_line(cli("submit", g.root, path), 7)
    assert snapshot(g.root) == before


def test_a_sealed_game_takes_a_sealed_leave_file(cli, keys, tmp_path, at):
    g = _new(cli, tmp_path, keys, at, *BANK, "--leave", "3d", "--sealed")
    state = g.root / "players" / "bob" / "state.json.age"
    path = g.files / "leave.json"
    out = ok(cli("leave", state, "--key", g.keys / "bob", "--days", 1, "-o", path, "--seal")).out
    assert "sealed to the referee" in out
    sealed = g.files / "leave.json.age"
    assert sealed.is_file() and not path.exists()
    accepted = ok(cli("submit", g.root, sealed, "--json")).json()[0]
    assert accepted["kind"] == "leave" and accepted["seat"] == "bob"


def test_verify_catches_a_referee_who_takes_more_automatic_leave_than_due(
    cli, keys, tmp_path, at, monkeypatch
):
    from arbiter.core import clocks

    g = _new(cli, tmp_path, keys, at, "--bank", "1d", "--leave", "3d", "--leave-auto")
    honest = clocks.Fold.auto_days
    monkeypatch.setattr(clocks.Fold, "auto_days", lambda self, now: min(2, honest(self, now) + 1))
    at("2026-01-02T10:00:00Z")
    assert ok(cli("timeout", g.root, "--json")).json()["leave_auto"]
    monkeypatch.setattr(clocks.Fold, "auto_days", honest)
    ok(cli("reveal", g.root, "--force"))
    err = error_line(cli("verify", g.root), 16)
    assert "entry #1: the automatic leave takes other days than the terms give" in err


def test_verify_catches_a_timeout_before_the_bank_ran_out(cli, keys, tmp_path, at, monkeypatch):
    from arbiter.core import clocks

    g = _new(cli, tmp_path, keys, at, "--bank", "2d")
    _turn(g, "2026-01-01T01:00:00Z", at)
    monkeypatch.setattr(clocks.Fold, "final", lambda self: "2026-01-01T02:00:00Z")
    at("2026-01-01T02:00:00Z")
    assert ok(cli("timeout", g.root, "--json")).json()["timed_out"]
    monkeypatch.undo()
    at("2026-01-01T03:00:00Z")
    ok(cli("reveal", g.root, "--force"))
    err = error_line(cli("verify", g.root), 16)
    assert "entry #2 times out at 2026-01-01T02:00:00Z, before the deadline and grace ran out" in err


def test_clocks_start_when_the_last_seat_joins(cli, keys, tmp_path, at):
    at(START)
    g = new_game(cli, tmp_path, keys, *BANK)
    assert _clock(g)["waiting"] is None and _clock(g)["due"] is None
    joins = []
    for seat in ("alice", "bob"):
        path = g.out(f"join-{seat}")
        ok(cli("join", g.root / "game.json", "--seat", seat, "--key", g.keys / seat, "-o", path))
        joins.append(path)
    at("2026-01-01T10:00:00Z")
    ok(cli("submit", g.root, joins[0]))
    at("2026-01-02T10:00:00Z")
    ok(cli("submit", g.root, joins[1]))
    clock = _clock(g)
    assert clock["banks"] == {"alice": 2 * DAY, "bob": 2 * DAY}
    assert (clock["waiting"], clock["due"]) == ("alice", "2026-01-04T10:00:00Z")
    _turn(g, "2026-01-02T11:00:00Z", at)
    assert _clock(g)["banks"]["alice"] == 2 * DAY + 11 * HOUR
    _reveal_and_verify(g)
