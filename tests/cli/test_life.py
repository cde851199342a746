"""The life of a long game through the CLI (issue 27, docs/game-life.md): resign and
leave, end by agreement, hand a seat over, appoint a substitute — each a signed file that
becomes a chain entry, and ``arbiter verify`` replays every one after the reveal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, error_line, ok
from lifekit import Table, snapshot

from arbiter.core.life_files import make_answer


@pytest.fixture
def momiji3(cli: Cli, tmp_path: Path) -> Table:
    return Table(cli, tmp_path, "momiji", ["alice", "bob", "carol"])


@pytest.fixture
def momiji2(cli: Cli, tmp_path: Path) -> Table:
    return Table(cli, tmp_path, "momiji", ["alice", "bob"])


# -- resign and leave -------------------------------------------------------------------


def test_resign_with_two_seats_ends_the_game_out_of_turn(momiji2: Table) -> None:
    t = momiji2
    t.bot_move(1)
    waiting = t.read()["prompt"]["seat"]
    other = "alice" if waiting == "bob" else "bob"
    said = t.submit(t.sign("resign", other))  # not its turn: accepted all the same
    assert f"{other} resigns: the game ends, {other} ranked last." in said
    public = t.read()
    assert public["status"] == "over"
    assert public["outcome"]["ranking"] == [[waiting], [other]]
    assert f"{other} resigned and is ranked last" in public["outcome"]["tiebreak"]
    assert t.chain()[-1]["kind"] == "resign"
    assert (t.root / "referee" / "receipts" / f"{len(t.chain()) - 1}.json").is_file()
    # The game is over: nothing else is taken, and nothing changes.
    before = snapshot(t.root)
    error_line(t.cli("resign", t.state(waiting), "--key", t.keys / waiting, "-o", t.out("x")), 10)
    assert snapshot(t.root) == before
    assert "verified game" in t.verify()


def test_resign_with_three_seats_leaves_and_play_goes_on(momiji3: Table) -> None:
    t = momiji3
    t.bot_move(1)
    said = t.submit(t.sign("resign", "carol"))
    assert "carol resigns and leaves the game, ranked last" in said
    assert t.read()["status"] == "playing"
    assert t.read("carol")["resigned"] == ["carol"]
    deciders = t.play_out()
    assert "carol" not in deciders  # its turns take the default decision (MOM-R18)
    outcome = t.read()["outcome"]
    assert outcome["ranking"][-1] == ["carol"]
    assert "carol" in t.read()["outcome"]["scores"]
    log = (t.root / "public" / "log.md").read_text()
    assert "carol resigns and leaves the game" in log
    assert "verified game" in t.verify()


def test_a_seat_that_resigned_sends_nothing_more(momiji3: Table) -> None:
    t = momiji3
    resign = t.sign("resign", "bob")
    t.submit(resign)
    before = snapshot(t.root)
    # Its own state file already says so, before anything is signed.
    err = error_line(
        t.cli("propose-end", t.state("bob"), "--key", t.keys / "bob", "-o", t.out("p")), 11
    )
    assert "resigned" in err
    # The same file again is a duplicate; another resignation is refused.
    error_line(t.cli("submit", t.root, resign), 9)
    assert snapshot(t.root) == before


# -- end by agreement ------------------------------------------------------------------


def test_end_by_agreement_scores_the_game_as_it_stands(momiji3: Table) -> None:
    t = momiji3
    for n in range(4):
        t.bot_move(n)
    said = t.submit(t.sign("propose-end", "bob"))
    assert "bob proposes to end the game now, scored as it stands" in said
    pending = t.read("alice")["pending"]
    assert pending["seat"] == "bob" and pending["waiting_for"] == ["alice", "carol"]
    status = ok(t.cli("status", t.root)).out
    assert "proposal: bob proposes to end the game now, scored as it stands (entry #5)" in status
    shown = ok(t.cli("show", t.state("alice"), "--plain")).out
    assert "answer it: `arbiter answer STATE" in shown
    assert "answer it" not in ok(t.cli("show", t.state("bob"), "--plain")).out
    t.submit(t.sign("answer", "alice", "--accept"))
    assert t.read()["status"] == "playing"
    said = t.submit(t.sign("answer", "carol", "--accept"))
    assert "the game ends by agreement, scored as it stands" in said
    public = t.read()
    assert public["status"] == "over"
    assert "ended by agreement" in public["outcome"]["tiebreak"]
    assert sorted(s for group in public["outcome"]["ranking"] for s in group) == t.seats
    assert "verified game" in t.verify()


def test_a_decline_or_a_move_lets_the_proposal_lapse(momiji3: Table) -> None:
    t = momiji3
    t.submit(t.sign("propose-end", "alice", "--abandon"))
    # A second proposal while one is open: the state file already refuses it.
    error_line(t.cli("propose-end", t.state("bob"), "--key", t.keys / "bob", "-o", t.out("p")), 11)
    said = t.submit(t.sign("answer", "bob", "--decline"))
    assert "bob declines alice's proposal (entry #1): it lapses." in said
    assert "pending" not in t.read("bob") or t.read("bob")["pending"] is None
    # Nothing to answer now.
    error_line(
        t.cli("answer", t.state("carol"), "--key", t.keys / "carol", "--accept", "-o", t.out("a")),
        8,
    )
    t.submit(t.sign("propose-end", "carol"))
    stale_answer = t.sign("answer", "alice", "--accept")
    t.first_move()  # the next move lets it lapse
    assert "lapses" in (t.root / "public" / "log.md").read_text()
    before = snapshot(t.root)
    err = error_line(t.cli("submit", t.root, stale_answer), 8)
    assert "no open proposal" in err
    assert snapshot(t.root) == before


def test_an_abandoned_game_has_no_result(momiji2: Table) -> None:
    t = momiji2
    t.bot_move(1)
    t.submit(t.sign("propose-end", "alice", "--abandon"))
    said = t.submit(t.sign("answer", "bob", "--accept"))
    assert "the game ends by agreement, with no result" in said
    public = t.read()
    assert public["status"] == "over" and public["outcome"] is None
    assert "result: none (the game was abandoned by agreement)" in ok(t.cli("status", t.root)).out
    assert "verified game" in t.verify()


def test_verify_catches_a_forged_acceptance(
    momiji2: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = momiji2
    t.submit(t.sign("propose-end", "alice", "--abandon"))
    # bob never accepted: alice signs bob's acceptance with her own key. The honest
    # referee refuses it (exit 7) and nothing changes.
    forged = forge(t, "bob", "alice", lambda state, key: make_answer(state, key, "accept"))
    before = snapshot(t.root)
    error_line(t.cli("submit", t.root, forged), 7)
    assert snapshot(t.root) == before
    # A dishonest referee takes it anyway; after the reveal anyone sees it.
    import arbiter.core.signing as signing

    with _referee_skips_signatures(monkeypatch, signing):
        t.submit(forged)
    assert t.read()["status"] == "over"
    ok(t.cli("reveal", t.root))
    result = t.cli("verify", t.root)
    assert result.code == 16, result
    assert "entry #2: the answer file is not signed by the key bob held" in result.err


def handover_by(state: dict[str, Any], key: Path, new: str) -> dict[str, Any]:
    """A handover of the seat to ``new`` signed by ``key`` (``make_handover`` refuses one
    signed by the new key itself)."""
    from arbiter.core.signing import NAMESPACE_HANDOVER, read_public_key, sign

    record = {
        "format": "arbiter.handover/1",
        "game": state["game"],
        "seat": state["seat"],
        "after": state["head"],
        "key": read_public_key(new),
    }
    record["signature"] = sign(record, key, NAMESPACE_HANDOVER)
    return record


def forge(t: Table, seat: str, key: str, make: Any) -> Path:
    """A file for ``seat`` signed by another seat's ``key`` (the CLI refuses to make one)."""
    from arbiter.core.canonical import pretty
    from arbiter.core.player import load_state

    path = t.out(f"forged-{seat}")
    path.write_bytes(pretty(make(load_state(t.state(seat)), t.keys / key)))
    return path


@contextmanager
def _referee_skips_signatures(monkeypatch: pytest.MonkeyPatch, signing: Any) -> Iterator[None]:
    """A referee that does not check signatures (the forgery it lets in is what verify
    must catch); restored before verify runs."""
    with monkeypatch.context() as patch:
        patch.setattr(signing, "verify", lambda *args, **kwargs: None)
        yield


# -- hand over and appoint ---------------------------------------------------------------


def test_a_handover_moves_the_seat_to_the_new_key(momiji2: Table) -> None:
    t = momiji2
    dave_pub = t.keys / "dave.pub"
    said = t.submit(t.sign("handover", "bob", "--to", dave_pub))
    assert "bob hands the seat over to a new key" in said
    for n in range(30):
        seat = t.read()["prompt"]["seat"]
        if seat == "bob":
            break
        t.bot_move(n)
    # bob's old key signs nothing any more; dave's does. Beside its game the state file
    # already says so; a copy sent by mail gets the referee's refusal.
    path = t.out("old-key")
    err = error_line(t.cli("bot", t.state("bob"), "--key", t.keys / "bob", "-o", path), 2)
    assert "is not the key seat bob holds now (the seat was handed over" in err
    mailed = t.files / "bob-state.json"
    mailed.write_bytes(t.state("bob").read_bytes())
    ok(t.cli("bot", mailed, "--key", t.keys / "bob", "-o", path, "-l", "random", "--seed", 1))
    before = snapshot(t.root)
    error_line(t.cli("submit", t.root, path), 7)
    assert snapshot(t.root) == before
    t.bot_move(2, key="dave")
    assert "verified game" in t.verify()


def test_verify_catches_a_handover_signed_by_the_new_key(
    momiji2: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = momiji2
    dave = (t.keys / "dave.pub").read_text()
    forged = forge(t, "bob", "dave", lambda state, key: handover_by(state, key, dave))
    error_line(t.cli("submit", t.root, forged), 7)
    import arbiter.core.signing as signing

    with _referee_skips_signatures(monkeypatch, signing):
        t.submit(forged)
    ok(t.cli("reveal", t.root, "--force"))
    result = t.cli("verify", t.root)
    assert result.code == 16, result


def test_a_sealed_game_seals_to_the_new_key(cli: Cli, tmp_path: Path) -> None:
    t = Table(cli, tmp_path, "momiji", ["alice", "bob"], "--sealed")
    sealed = t.root / "players" / "bob" / "state.json.age"
    handover = t.out("handover")
    ok(
        t.cli(
            "handover", sealed, "--key", t.keys / "bob", "--to", t.keys / "dave.pub", "-o", handover
        )
    )
    t.submit(handover)
    # dave opens the seat's state file; bob no longer can.
    ok(t.cli("show", sealed, "--key", t.keys / "dave", "--json"))
    assert t.cli("show", sealed, "--key", t.keys / "bob", "--json").code != 0


def test_the_referee_appoints_a_substitute_after_a_resignation(cli: Cli, tmp_path: Path) -> None:
    t = Table(cli, tmp_path, "momiji", ["alice", "bob", "carol"], "--substitutes")
    t.submit(t.sign("resign", "bob"))
    said = ok(t.cli("appoint", t.root, "bob", "--key", t.keys / "dave.pub")).out
    assert "appointed a substitute for bob as entry #2" in said
    assert "the seat plays again" in said
    assert t.chain()[-1]["kind"] == "appoint"
    deciders = t.play_out({"bob": "dave"})
    assert "bob" in deciders
    assert "verified game" in t.verify()


def test_appointing_needs_the_terms_and_a_reason(momiji3: Table) -> None:
    t = momiji3
    before = snapshot(t.root)
    err = error_line(t.cli("appoint", t.root, "bob", "--key", t.keys / "dave.pub"), 2)
    assert "substitutes" in err
    assert snapshot(t.root) == before


def test_the_referee_appoints_a_substitute_after_a_timeout(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_NOW", "2026-06-01T00:00:00Z")
    t = Table(cli, tmp_path, "momiji", ["alice", "bob"], "--substitutes", "--deadline", "1d")
    monkeypatch.setenv("ARBITER_NOW", "2026-06-03T00:00:00Z")
    ok(t.cli("timeout", t.root))
    assert t.chain()[-1]["kind"] == "timeout" and t.chain()[-1]["seat"] == "alice"
    # Only that seat's timeout or resignation is a reason.
    before = snapshot(t.root)
    err = error_line(t.cli("appoint", t.root, "bob", "--key", t.keys / "dave.pub"), 2)
    assert "bob has neither timed out nor resigned" in err
    err = error_line(
        t.cli("appoint", t.root, "alice", "--key", t.keys / "dave.pub", "--reason", 0), 2
    )
    assert snapshot(t.root) == before
    # The key of another seat is no substitute.
    error_line(t.cli("appoint", t.root, "alice", "--key", t.keys / "bob.pub"), 2)
    said = ok(t.cli("appoint", t.root, "alice", "--key", t.keys / "dave.pub")).out
    assert "after entry #1." in said
    assert t.read("alice")["keys"]["alice"] == (t.keys / "dave.pub").read_text().split(" dave")[0]
    deciders = t.play_out({"alice": "dave"})
    assert "alice" in deciders
    assert "verified game" in t.verify()


def test_a_bot_answers_an_open_proposal_by_its_evaluation(momiji3: Table) -> None:
    """`arbiter bot` with a proposal waiting for the seat writes the bot's answer
    (arbiter.bots.agreement), whoever's turn it is; the referee takes it."""
    from arbiter.bots.agreement import accepts_end
    from arbiter.bots.levels import bot_rng
    from arbiter.core.player import load_state
    from arbiter.core.registry import get

    t = momiji3
    for n in range(6):
        t.bot_move(n)
    t.submit(t.sign("propose-end", "alice"))
    for seat in ("bob", "carol"):
        state = load_state(t.state(seat))
        expected = accepts_end(get("momiji"), state, bot_rng("", state))
        path = t.out(f"bot-answer-{seat}")
        said = ok(t.cli("bot", t.state(seat), "--key", t.keys / seat, "-o", path)).out
        record = json.loads(path.read_text())
        assert record["format"] == "arbiter.answer/1"
        assert record["answer"] == ("accept" if expected else "decline")
        assert f"{record['answer']} alice's proposal to end the game" in said
        t.submit(path)
        if not expected:
            break
    status = t.read()["status"]
    assert status == ("over" if expected else "playing")
