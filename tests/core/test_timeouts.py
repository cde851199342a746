"""Deadlines and timeout entries, with the referee's clock injected at the edge.

The clock is a plain argument of the core (``now``) or ``ARBITER_NOW`` for the CLI; the
engine never sees it. Each policy is applied by ``arbiter timeout`` as a chain entry the
referee signs, and ``arbiter verify`` checks its times before the reveal and replays it
(signature, policy, decisions) after.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.clikit import arbiter, subprocess_env
from helpers.tables import CREATED, REFEREE_SEED, SECRET, Table, make_keys, snapshot

from arbiter.core import deadlines
from arbiter.core.errors import (
    GameOver,
    NotReady,
    SchemaViolation,
    StaleHead,
    UsageError,
    VerificationFailed,
)
from arbiter.core.player import make_move
from arbiter.core.referee import new_game, reveal, submit, timeout
from arbiter.core.replay import verify

START = "2026-01-01T00:00:00Z"
DAY = 86400


def _game(
    tmp: Path, policy: str = "pass", seats: int = 2, grace: int = DAY, forfeit_after: int | None = None
) -> Table:
    names = ["alice", "bob", "carol"][:seats]
    keys = make_keys(tmp / "keys", names)
    new_game(
        tmp / "game",
        "tally",
        [(s, f"{keys[s]}.pub") for s in names],
        {"cards": "8", "hand": "2"},
        join=False,
        game_id="clock-test",
        created=START,
        secret=SECRET,
        referee_seed=REFEREE_SEED,
        deadline=3 * DAY,
        grace=grace,
        on_timeout=policy,
        forfeit_after=forfeit_after,
    )
    return Table(tmp / "game", keys, names, tmp / "out")


def _chain(table: Table) -> list[dict]:
    return [json.loads(line) for line in table.gd.chain.read_text().splitlines()]


def _move(table: Table, now: str):
    seat = table.turn()
    state = table.state(seat)
    move = make_move(state, table.keys[seat], [state["legal"][0]])
    from arbiter.core.canonical import pretty

    return submit(table.root, pretty(move), "m.json", now=now)


def test_terms_are_in_game_json_and_every_entry_is_dated(tmp_path):
    table = _game(tmp_path)
    manifest = table.manifest()
    assert manifest["deadline"] == {
        "seconds": 3 * DAY, "grace": DAY, "on_timeout": "pass", "bot": None, "forfeit_after": None
    }
    _move(table, "2026-01-01T05:00:00Z")
    _move(table, "2026-01-02T00:00:00Z")
    times = [entry["time"] for entry in _chain(table)]
    assert times == [START, "2026-01-01T05:00:00Z", "2026-01-02T00:00:00Z"]
    verify(table.root)


def test_a_clock_set_back_never_dates_an_entry_before_the_last(tmp_path):
    table = _game(tmp_path)
    _move(table, "2026-01-03T00:00:00Z")
    _move(table, "2026-01-02T00:00:00Z")  # the referee's clock went back a day
    assert [e["time"] for e in _chain(table)][-2:] == ["2026-01-03T00:00:00Z"] * 2
    verify(table.root)


def test_nothing_happens_before_the_deadline_and_grace(tmp_path):
    table = _game(tmp_path)
    before = snapshot(table.root)
    waiting = timeout(table.root, "2026-01-04T23:59:59Z")  # deadline passed, grace not
    assert (waiting.seat, waiting.due, waiting.final) == (
        table.turn(), "2026-01-04T00:00:00Z", "2026-01-05T00:00:00Z"
    )
    assert waiting.timed_out is None
    assert snapshot(table.root) == before


def test_pass_takes_the_engines_default_for_the_whole_turn(tmp_path):
    table = _game(tmp_path)
    seat = table.turn()
    waiting = timeout(table.root, "2026-01-05T00:00:00Z")
    done = waiting.timed_out
    assert done is not None and (done.kind, done.seat) == ("timeout", seat)
    entry = _chain(table)[-1]
    assert entry["kind"] == "timeout" and entry["time"] == "2026-01-05T00:00:00Z"
    assert entry["summary"][0] == f"{seat} did not decide in time: the referee takes the default decision."
    assert table.turn() != seat  # the policy played the seat's whole turn
    record = json.loads(table.gd.referee_signed.read_text().splitlines()[-1])
    assert record["format"] == "arbiter.timeout/1" and record["policy"] == "pass"
    assert record["since"] == START and record["actions"] == [{"kind": "draw"}]
    assert not table.gd.receipt(done.seq).exists()  # receipts answer submitted files
    report = verify(table.root)
    assert any(line.startswith("clock: every entry dated in order; 1 timeout") for line in report.checks)


def test_a_game_timed_out_to_its_end_replays_after_the_reveal(tmp_path):
    table = _game(tmp_path, "bot")
    now = START
    for _ in range(100):
        if table.state()["status"] != "playing":
            break
        now = deadlines.add(now, 4 * DAY)
        assert timeout(table.root, now).timed_out is not None
    assert table.state()["status"] == "over"
    reveal(table.root)
    report = verify(table.root)
    assert report.replayed
    kinds = {entry["kind"] for entry in _chain(table)}
    assert kinds == {"genesis", "timeout"}


def test_the_bot_policy_is_deterministic(tmp_path):
    records = []
    for name in ("one", "two"):
        table = _game(tmp_path / name, "bot")
        timeout(table.root, "2026-01-05T00:00:00Z")
        records.append(table.gd.referee_signed.read_bytes())
    assert records[0] == records[1]


def test_forfeit_ends_the_game_and_ranks_the_seat_last(tmp_path):
    table = _game(tmp_path, "forfeit", seats=3)
    _move(table, "2026-01-01T01:00:00Z")
    seat = table.turn()
    done = timeout(table.root, "2026-01-06T00:00:00Z").timed_out
    assert done is not None and done.status == "over"
    outcome = table.state()["outcome"]
    assert outcome["ranking"][-1] == [seat]
    assert seat not in outcome["winners"]
    assert "forfeited" in outcome["tiebreak"]
    with pytest.raises(GameOver):
        timeout(table.root, "2026-02-01T00:00:00Z")
    reveal(table.root)
    assert verify(table.root).replayed


def test_timeouts_need_a_deadline_and_a_started_game(tmp_path):
    plain = tmp_path / "plain"
    keys = make_keys(plain / "keys", ["alice", "bob"])
    new_game(
        plain / "game", "tally", [(s, f"{keys[s]}.pub") for s in keys], {}, created=CREATED,
        secret=SECRET, referee_seed=REFEREE_SEED,
    )
    with pytest.raises(UsageError, match="no deadline"):
        timeout(plain / "game", "2026-01-05T00:00:00Z")
    joining = tmp_path / "joining"
    keys = make_keys(joining / "keys", ["alice", "bob"])
    new_game(
        joining / "game", "tally", [(s, f"{keys[s]}.pub") for s in keys], {}, created=START,
        secret=SECRET, referee_seed=REFEREE_SEED, deadline=DAY,
    )
    with pytest.raises(NotReady, match="waits for joins"):
        timeout(joining / "game", "2026-02-05T00:00:00Z")


def test_a_timeout_signed_by_another_key_fails_verify(tmp_path, monkeypatch):
    """A referee cannot hide behind someone else's key: verify checks game.json's."""
    table = _game(tmp_path)
    from arbiter.core import receipts

    monkeypatch.setattr(receipts, "signing_key", lambda gd: table.keys["alice"])
    timeout(table.root, "2026-01-05T00:00:00Z")
    monkeypatch.undo()
    reveal(table.root, force=True)
    with pytest.raises(VerificationFailed, match="not signed by the referee key"):
        verify(table.root)


def test_an_early_timeout_fails_verify_before_the_reveal(tmp_path, monkeypatch):
    """A referee who times a seat out before its time is caught from public files."""
    table = _game(tmp_path)
    monkeypatch.setattr(deadlines.Terms, "final", lambda self, since: since)
    timeout(table.root, "2026-01-02T00:00:00Z")
    monkeypatch.undo()
    with pytest.raises(VerificationFailed, match="before the deadline and grace ran out"):
        verify(table.root)


def test_a_player_cannot_submit_a_timeout(tmp_path):
    table = _game(tmp_path)
    timeout(table.root, "2026-01-05T00:00:00Z")
    record = table.gd.referee_signed.read_text().splitlines()[-1].encode()
    with pytest.raises(SchemaViolation, match="not a join or move file"):
        submit(table.root, record, "forged.json", now="2026-01-06T00:00:00Z")


def _at(now: str, *args: object):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True, text=True, env={**subprocess_env(), "ARBITER_NOW": now},
        timeout=120, check=False,
    )


def test_the_cli_runs_timeouts_from_the_injected_clock(tmp_path):
    table = _game(tmp_path)
    early = _at("2026-01-02T00:00:00Z", "timeout", table.root, "--json")
    assert early.returncode == 0, early.stderr
    assert json.loads(early.stdout)["timed_out"] is False
    status = json.loads(arbiter("status", table.root, "--json").stdout)
    assert status["deadline"]["due"] == "2026-01-04T00:00:00Z"
    assert status["deadline"]["final"] == "2026-01-05T00:00:00Z"
    late = _at("2026-01-05T00:00:01Z", "timeout", table.root)
    assert late.returncode == 0 and "timed out: entry #1 applies pass" in late.stdout
    bad = _at("tomorrow", "timeout", table.root)
    assert bad.returncode == 2 and "ARBITER_NOW" in bad.stderr


def test_new_refuses_bad_deadline_terms(tmp_path):
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    seats = ["--seat", f"alice={keys['alice']}.pub", "--seat", f"bob={keys['bob']}.pub"]
    for extra, words in (
        (["--deadline", "soon"], "must look like 72h"),
        (["--deadline", "400d"], "between 1 seconds and 366 days"),
        (["--grace", "1d"], "need a --deadline"),
        (["--deadline", "1d", "--on-timeout", "resign"], "must be one of pass, bot, forfeit"),
        (["--deadline", "1d", "--timeout-bot", "random"], "is for --on-timeout bot"),
    ):
        result = arbiter("new", tmp_path / "g", "--game", "tally", *seats, *extra)
        assert result.returncode == 2 and words in result.stderr, (extra, result.stderr)
        assert not (tmp_path / "g").exists()
    ok = arbiter("new", tmp_path / "g", "--game", "tally", *seats, "--deadline", "1d12h",
                 "--on-timeout", "bot")
    assert ok.returncode == 0 and "deadline: 1d12h per decision, then bot (random bot)" in ok.stdout


def test_a_seat_that_keeps_timing_out_forfeits(tmp_path):
    """forfeit_after: the third timeout of one seat in a row, with no move of its own
    between them, forfeits instead of passing (a move of its own resets the count)."""
    table = _game(tmp_path, "pass", seats=2, forfeit_after=3)
    now = START
    policies = []
    for _ in range(20):
        if table.state()["status"] != "playing":
            break
        now = deadlines.add(now, 5 * DAY)
        if table.turn() == "bob" and len(policies) == 1:
            _move(table, now)  # bob moves once himself: his count starts again
            continue
        seat = table.turn()
        waiting = timeout(table.root, now)
        policies.append((seat, waiting.policy))
    assert table.state()["status"] == "over"
    loser = policies[-1][0]
    assert policies[-1][1] == "forfeit"
    assert [p for s, p in policies if s == loser][-3:] == ["pass", "pass", "forfeit"]
    assert table.state()["outcome"]["ranking"][-1] == [loser]
    reveal(table.root)
    assert verify(table.root).replayed


def test_a_timeout_whose_decisions_are_not_the_policys_fails_verify(tmp_path, monkeypatch):
    """A referee who plays a timed-out seat's turn its own way (here: discarding instead
    of the engine's default draw) is caught when verify decides again after the reveal;
    its own rebuilds reuse the recorded decisions meanwhile."""
    table = _game(tmp_path)
    from arbiter.core import registry

    engine = type(registry.get("tally"))
    original = engine.default_action

    def dishonest(self, state, seat):
        legal = self.legal_actions(state, seat)
        other = [a for a in legal if a != original(self, state, seat)]
        return other[0] if other else original(self, state, seat)

    monkeypatch.setattr(engine, "default_action", dishonest)
    timeout(table.root, "2026-01-05T00:00:00Z")
    monkeypatch.undo()
    _move(table, "2026-01-05T01:00:00Z")  # the referee's rebuild takes the record as it is
    reveal(table.root, force=True)
    with pytest.raises(VerificationFailed, match="not what its policy decides"):
        verify(table.root)


def test_status_says_overdue_once_the_deadline_passed(tmp_path):
    """Issue 27, item 5: `arbiter status` no longer says "has until" a time gone by."""
    table = _game(tmp_path)
    before = _at("2026-01-03T00:00:00Z", "status", table.root)
    assert "deadline: alice has until 2026-01-04T00:00:00Z, grace until" in before.stdout
    graced = _at("2026-01-04T12:00:00Z", "status", table.root)
    assert ("deadline: alice is overdue since 2026-01-04T00:00:00Z, in the grace until "
            "2026-01-05T00:00:00Z; then pass") in graced.stdout
    owed = _at("2026-01-05T00:00:00Z", "status", table.root, "--json")
    clock = json.loads(owed.stdout)["deadline"]
    assert clock["overdue"] and clock["timeout_owed"]
    text = _at("2026-01-05T00:00:00Z", "status", table.root).stdout
    assert "is overdue since 2026-01-04T00:00:00Z (grace ended 2026-01-05T00:00:00Z): " \
        "`arbiter timeout` applies pass" in text


def test_a_move_after_the_seats_timeout_says_so(tmp_path):
    """Issue 27, item 5: the late move of a seat that timed out is refused with when and
    what the referee applied, not the generic stale answer."""
    table = _game(tmp_path)
    seat = table.turn()
    late = make_move(table.state(seat), table.keys[seat], [table.state(seat)["legal"][0]])
    applied = timeout(table.root, now="2026-01-05T00:00:01Z")
    assert applied.timed_out
    before = snapshot(table.root)
    with pytest.raises(StaleHead) as exc:
        table.submit_obj(late, "late.json")
    chain = [json.loads(line) for line in table.gd.chain.read_text().splitlines()]
    record = chain[-1]
    assert exc.value.message == (
        f"late.json: you timed out at {record['time']}; the referee applied it at entry "
        f"#{record['seq']} ({record['summary'][0]}); take your new state file (entry "
        f"#{len(chain) - 1})"
    )
    assert snapshot(table.root) == before
    # Any other stale move keeps the plain answer.
    other = next(s for s in table.seats if s != seat)
    legal = table.state(other)["legal"]
    assert len(legal) > 1
    old = make_move(table.state(other), table.keys[other], [legal[-1]])
    table.play(other, legal[0])
    with pytest.raises(StaleHead, match="was built against an old chain head"):
        table.submit_obj(old, "old.json")
