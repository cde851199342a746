"""Take back with consent through the CLI (issue 27 item 3, docs/game-life.md §4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from clikit import Cli, Game, error_line, new_game, ok

from arbiter.core import chain as chainlib
from arbiter.core.canonical import canonical, digest, pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.referee import _rebuild
from arbiter.core.signing import NAMESPACE_ANSWER, sign


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def state(game: Game, seat: str | None = None) -> dict[str, Any]:
    return dict(json.loads(game.state(seat).read_text()))


def hand(game: Game, seat: str) -> list[int]:
    return list(state(game, seat)["view"]["hand"])


def submit(game: Game, *files: Path) -> None:
    ok(game.cli("submit", game.root, *files))


def request(game: Game, seat: str, to: int) -> Path:
    path = game.out(f"takeback-{seat}")
    args = ["takeback", game.state(seat), "--key", game.keys / seat, "--to", to, "-o", path]
    ok(game.cli(*args))
    return path


def answer(game: Game, seat: str, said: str = "accept", key: str | None = None) -> Path:
    """An answer file to the open request (signed by ``key``'s owner: a forgery if not ``seat``)."""
    pending = state(game, seat)["pending"]
    obj: dict[str, Any] = {
        "format": "arbiter.answer/1",
        "game": state(game)["game"],
        "seat": seat,
        "request": pending["request"],
        "answer": said,
    }
    obj["signature"] = sign(obj, game.keys / (key or seat), NAMESPACE_ANSWER)
    path = game.out(f"answer-{seat}")
    path.write_bytes(pretty(obj))
    return path


def log(game: Game, seat: str | None = None) -> str:
    return (game.root / ("public" if seat is None else f"players/{seat}") / "log.md").read_text()


def end_of_deck(cli: Cli, tmp_path: Path, keys: Path, *extra: str) -> Game:
    """A tally game played until the deck is empty, then alice and bob each play and end:
    entries 1–4 drew the deck's four cards, 5 (alice) and 6 (bob) ended without drawing."""
    game = new_game(cli, tmp_path, keys, "--no-join", "--option", "cards=8", *extra)
    for seat in ("alice", "bob", "alice", "bob"):
        submit(
            game, game.move(seat, {"kind": "play", "card": hand(game, seat)[0]}, {"kind": "draw"})
        )
    for seat in ("alice", "bob"):
        submit(
            game, game.move(seat, {"kind": "play", "card": hand(game, seat)[0]}, {"kind": "end"})
        )
    assert state(game)["seq"] == 6
    return game


def test_take_back_with_the_others_acceptance_and_verify(
    cli: Cli, tmp_path: Path, keys: Path
) -> None:
    game = end_of_deck(cli, tmp_path, keys)
    before = {seat: hand(game, seat) for seat in ("alice", "bob")}
    submit(game, request(game, "alice", 4))  # entry 7: undoes alice's 5 and bob's 6
    pending = state(game, "bob")["pending"]
    assert pending["kind"] == "takeback" and pending["to"] == 4
    assert pending["waiting_for"] == ["bob"]
    submit(game, answer(game, "bob"))  # entry 8, then the referee's takeback, entry 9
    public = state(game)
    assert public["seq"] == 9 and "pending" not in public
    assert public["prompt"]["seat"] == "alice"
    assert len(hand(game, "alice")) == len(before["alice"]) + 1
    assert len(hand(game, "bob")) == len(before["bob"]) + 1
    assert public["view"]["tallies"]["alice"] == public["view"]["tallies"]["alice"][:2]
    chain = [json.loads(line) for line in (game.root / "chain.jsonl").read_text().splitlines()]
    assert [e["kind"] for e in chain[7:]] == ["takeback-request", "answer", "takeback"]
    assert "Takeback: the game resumes after entry #4" in log(game)
    # The redo is played along the kept branch, and the whole game verifies after reveal.
    submit(
        game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[-1]}, {"kind": "end"})
    )
    ok(cli("verify", game.root))
    ok(cli("reveal", game.root, "--force"))
    report = ok(cli("verify", game.root, "--json")).json()
    assert report["replayed"] is True
    # Stepping through the game shows the kept branch after the takeback.
    frame = ok(cli("replay", game.root, "--at", "9", "--seat", "alice", "--json")).json()
    assert frame["seq"] == 9 and len(frame["view"]["hand"]) == len(before["alice"]) + 1


def test_redo_draws_the_same_cards(cli: Cli, game: Game, tmp_path: Path) -> None:
    twin = Game(tmp_path / "twin", game.keys, tmp_path / "twin-files", cli)
    shutil.copytree(game.root, twin.root)
    twin.files.mkdir()
    first, second = hand(game, "alice")
    submit(game, game.move("alice", {"kind": "play", "card": first}))  # entry 3
    submit(game, request(game, "alice", 2))  # 4, and at once the takeback, 5
    assert state(game)["seq"] == 5
    assert "nobody else is concerned: it takes effect at once" in log(game)
    assert hand(game, "alice") == [first, second]
    redo = [{"kind": "play", "card": second}, {"kind": "draw"}]
    submit(game, game.move("alice", *redo))  # entry 6, drawing from ply 3
    submit(twin, twin.move("alice", *redo))  # entry 3 of a game without the takeback
    assert hand(game, "alice") == hand(twin, "alice")
    drawn = [log(g, "alice").splitlines()[-1].partition("` ")[2] for g in (game, twin)]
    assert drawn[0] == drawn[1] and drawn[0].startswith("you draw ")
    # The streams did not move: entry 6 draws from the stream of ply 3 (docs/rng.md).
    table = _rebuild(GameDir(game.root))[2].table
    assert [table.ply(seq) for seq in (6, 7)] == [3, 4] and table.ply_offset == 3
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))


def test_decline_lapses_the_request(cli: Cli, tmp_path: Path, keys: Path) -> None:
    game = end_of_deck(cli, tmp_path, keys)
    alice = hand(game, "alice")
    submit(game, request(game, "alice", 4))
    submit(game, answer(game, "bob", "decline"))
    assert "pending" not in state(game)
    assert state(game)["seq"] == 8 and hand(game, "alice") == alice
    assert "bob declines alice's takeback request (entry #7): it lapses." in log(game)
    # Asked again, accepted: the lapsed request and its answer are undone with the rest.
    submit(game, request(game, "alice", 4))  # 9
    submit(game, answer(game, "bob"))  # 10, and the takeback, 11
    assert state(game)["seq"] == 11 and len(hand(game, "alice")) == len(alice) + 1
    submit(
        game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[0]}, {"kind": "end"})
    )
    submit(game, game.move("bob", {"kind": "play", "card": hand(game, "bob")[0]}, {"kind": "end"}))
    # A second takeback, within the kept branch after the first.
    submit(game, request(game, "bob", 12))  # 14, nobody else concerned: the takeback, 15
    assert state(game)["seq"] == 15 and state(game)["prompt"]["seat"] == "bob"
    error_line(cli("submit", game.root, request(game, "alice", 8)), 12)  # before #11
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))


def test_a_move_lapses_the_request(cli: Cli, tmp_path: Path, keys: Path) -> None:
    game = end_of_deck(cli, tmp_path, keys)
    submit(game, request(game, "alice", 4))
    late = answer(game, "bob")
    submit(
        game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[0]}, {"kind": "end"})
    )
    assert "alice's takeback request (entry #7) lapses: alice moved." in log(game)
    before = snapshot(game.root)
    error_line(cli("submit", game.root, late), 8)
    assert snapshot(game.root) == before


def test_refused_in_a_game_without_takebacks(cli: Cli, tmp_path: Path, keys: Path) -> None:
    game = new_game(cli, tmp_path, keys, "--no-join", "--takebacks", "none")
    assert json.loads((game.root / "game.json").read_text())["takebacks"] == "none"
    submit(game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[0]}))
    path = request(game, "alice", 0)
    before = snapshot(game.root)
    err = error_line(cli("submit", game.root, path), 12)
    assert "terms allow no takebacks" in err
    assert snapshot(game.root) == before


def test_refused_across_a_private_draw(cli: Cli, game: Game) -> None:
    submit(
        game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[0]}, {"kind": "draw"})
    )
    path = request(game, "alice", 2)
    before = snapshot(game.root)
    err = error_line(cli("submit", game.root, path), 12)
    assert "entry #3 showed alice something only alice saw (draw)" in err
    assert snapshot(game.root) == before


def test_refused_from_another_seats_decision(cli: Cli, game: Game) -> None:
    submit(
        game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[0]}, {"kind": "draw"})
    )
    submit(game, game.move("bob", {"kind": "play", "card": hand(game, "bob")[0]}))
    err = error_line(cli("submit", game.root, request(game, "bob", 2)), 12)
    assert "the first decision after entry #2 is alice's (entry #3)" in err


def test_forged_answer_refused_by_submit_and_by_verify(
    cli: Cli, tmp_path: Path, keys: Path
) -> None:
    game = end_of_deck(cli, tmp_path, keys)
    submit(game, request(game, "alice", 4))
    forged = answer(game, "bob", key="alice")
    before = snapshot(game.root)
    error_line(cli("submit", game.root, forged), 7)
    assert snapshot(game.root) == before
    # A referee that accepted it anyway: the signed file and the chain made consistent.
    submit(game, answer(game, "bob"))
    signed = game.root / "referee" / "signed.jsonl"
    records = [json.loads(line) for line in signed.read_text().splitlines()]
    record = records[7]  # entry 8, bob's answer
    assert record["format"] == "arbiter.answer/1"
    record["signature"] = sign(
        {k: v for k, v in record.items() if k != "signature"}, game.keys / "alice", NAMESPACE_ANSWER
    )
    signed.write_bytes(b"".join(canonical(r) + b"\n" for r in records))
    entries = [json.loads(line) for line in (game.root / "chain.jsonl").read_text().splitlines()]
    entries[8]["digest"] = digest(record)
    for entry in entries[8:]:
        rebuilt = chainlib.make_entry(
            entry["seq"],
            entry["kind"],
            entry["seat"],
            entries[entry["seq"] - 1]["hash"],
            entry["digest"],
            entry["summary"],
            entry.get("time"),
        )
        entries[entry["seq"]] = rebuilt
    (game.root / "chain.jsonl").write_bytes(b"".join(chainlib.line(e) for e in entries))
    for seq in (8, 9):
        (game.root / "receipts" / f"{seq}.json").unlink(missing_ok=True)
    ok(cli("repair", game.root))
    ok(cli("reveal", game.root, "--force"))
    err = error_line(cli("verify", game.root), 16)
    assert "entry #8: the answer file is not signed by the key bob held at that entry" in err


def test_only_the_seats_concerned_answer(cli: Cli, tmp_path: Path, keys: Path) -> None:
    ok(cli("keygen", "carol", "--dir", keys))
    root = tmp_path / "g3"
    seats = [arg for s in ("alice", "bob", "carol") for arg in ("--seat", f"{s}={keys / s}.pub")]
    ok(cli("new", root, "--game", "tally", *seats, "--no-join", "--option", "cards=8"))
    (tmp_path / "files").mkdir()
    game = Game(root, keys, tmp_path / "files", cli)
    for seat in ("alice", "bob"):  # the deck's last two cards
        submit(
            game, game.move(seat, {"kind": "play", "card": hand(game, seat)[0]}, {"kind": "draw"})
        )
    for seat in ("carol", "alice", "bob"):  # entries 3, 4, 5
        submit(
            game, game.move(seat, {"kind": "play", "card": hand(game, seat)[0]}, {"kind": "end"})
        )
    submit(game, request(game, "alice", 3))  # undoes alice's 4 and bob's 5: carol is not asked
    assert state(game, "carol")["pending"]["waiting_for"] == ["bob"]
    err = error_line(cli("submit", game.root, answer(game, "carol")), 11)
    assert "carol is not concerned by this request" in err
    submit(game, answer(game, "bob"))
    assert state(game)["seq"] == 8 and state(game)["prompt"]["seat"] == "alice"


def test_new_refuses_unknown_takeback_terms(cli: Cli, tmp_path: Path, keys: Path) -> None:
    seats = [arg for s in ("alice", "bob") for arg in ("--seat", f"{s}={keys / s}.pub")]
    err = error_line(
        cli("new", tmp_path / "g", "--game", "tally", *seats, "--takebacks", "maybe"), 2
    )
    assert "--takebacks 'maybe': say none or consent" in err
    assert not (tmp_path / "g").exists()


def test_a_sealed_request(cli: Cli, game: Game) -> None:
    submit(game, game.move("alice", {"kind": "play", "card": hand(game, "alice")[0]}))
    path = game.out("takeback-sealed")
    args = ["takeback", game.state("alice"), "--key", game.keys / "alice", "--to", 2, "-o", path]
    said = ok(cli(*args, "--seal")).out
    sealed = path.with_name(path.name + ".age")
    assert "sealed to the referee" in said and sealed.is_file() and not path.exists()
    submit(game, sealed)
    assert state(game)["seq"] == 5


def test_verify_refuses_a_takeback_nobody_accepted(cli: Cli, tmp_path: Path, keys: Path) -> None:
    """A referee that records a takeback before the seats concerned accepted it: the
    referee's own tools refuse to build on it, and verify names the entry."""
    from arbiter.core.signing import NAMESPACE_TAKEBACK_RECORD

    game = end_of_deck(cli, tmp_path, keys)
    submit(game, request(game, "alice", 4))  # entry 7, waiting for bob
    record: dict[str, Any] = {
        "format": "arbiter.takeback-record/1",
        "game": state(game)["game"],
        "seat": "alice",
        "request": state(game)["pending"]["request"],
        "to": 4,
    }
    record["signature"] = sign(record, game.root / "referee" / "key", NAMESPACE_TAKEBACK_RECORD)
    signed = game.root / "referee" / "signed.jsonl"
    signed.write_bytes(signed.read_bytes() + canonical(record) + b"\n")
    head = state(game)["head"]
    entry = chainlib.make_entry(8, "takeback", "alice", head, digest(record), [])
    chain = game.root / "chain.jsonl"
    chain.write_bytes(chain.read_bytes() + chainlib.line(entry))
    error_line(cli("repair", game.root), 15)
    reveal = game.root / "reveal"
    reveal.mkdir()
    secret = (game.root / "referee" / "secret").read_text().strip()
    record_file = {
        "format": "arbiter.reveal/1",
        "game": record["game"],
        "secret": secret,
        "head": entry["hash"],
        "forced": True,
    }
    (reveal / "reveal.json").write_bytes(pretty(record_file))
    (reveal / "signed.jsonl").write_bytes(signed.read_bytes())
    err = error_line(cli("verify", game.root), 16)
    assert "entry #8: a takeback record no accepted request calls for" in err


def test_answering_a_takeback_with_the_commands(cli: Cli, tmp_path: Path, keys: Path) -> None:
    """`arbiter status` and `arbiter show` say what the request asks; `arbiter answer`
    signs the answer from bob's state file; `arbiter bot` for a bot seat accepts."""
    game = end_of_deck(cli, tmp_path, keys)
    submit(game, request(game, "alice", 4))
    status = ok(cli("status", game.root)).out
    assert "takeback: alice asks to take back its decisions after entry #4 (entry #7)" in status
    assert "waiting for bob" in status
    assert "answer it" in ok(cli("show", game.state("bob"), "--plain")).out
    # alice asked: the command refuses her own answer before signing anything.
    error_line(
        cli(
            "answer",
            game.state("alice"),
            "--key",
            game.keys / "alice",
            "--accept",
            "-o",
            game.out("own"),
        ),
        11,
    )
    bot_file = game.out("bot-answer")
    said = ok(cli("bot", game.state("bob"), "--key", game.keys / "bob", "-o", bot_file)).out
    assert "accept alice's takeback request" in said
    path = game.out("answer-bob")
    ok(cli("answer", game.state("bob"), "--key", game.keys / "bob", "--accept", "-o", path))
    assert json.loads(path.read_text()) == json.loads(bot_file.read_text())
    submit(game, path)
    assert [
        e["kind"] for e in map(json.loads, (game.root / "chain.jsonl").read_text().splitlines())
    ][-1] == "takeback"


def test_entries_that_draw_nothing_do_not_move_the_streams(cli: Cli, game: Game, tmp_path: Path) -> None:
    """docs/rng.md §3: a proposal and its answer draw nothing and take no ply, so the
    decision after them draws what it would have drawn without them (no re-roll by
    sending a file that changes nothing)."""
    twin = Game(tmp_path / "twin", game.keys, tmp_path / "twin-files", cli)
    shutil.copytree(game.root, twin.root)
    twin.files.mkdir()
    proposal = game.out("propose")
    ok(cli("propose-end", game.state("alice"), "--key", game.keys / "alice", "-o", proposal))
    submit(game, proposal)
    no = game.out("decline")
    ok(cli("answer", game.state("bob"), "--key", game.keys / "bob", "--decline", "-o", no))
    submit(game, no)
    play = [{"kind": "play", "card": hand(game, "alice")[0]}, {"kind": "draw"}]
    submit(game, game.move("alice", *play))
    submit(twin, twin.move("alice", *play))
    assert state(game)["seq"] == state(twin)["seq"] + 2
    assert hand(game, "alice") == hand(twin, "alice")
    # The move drew from the stream of the same ply in both games.
    table = _rebuild(GameDir(game.root))[2].table
    assert table.ply(state(game)["seq"]) == state(twin)["seq"]
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))
