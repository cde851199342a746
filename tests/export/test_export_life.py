"""A game's life around its moves reads in its record: every kind of entry with what it
decided (a takeback with the entries it undid, each undone entry with its takeback, an
answer with the request it answers...), and the reason the game ended."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Cli, ok
from lifegame import LifeGame

from arbiter.core.gamedir import deferred_sync


@pytest.fixture(autouse=True)
def _no_fsync() -> Any:
    """These games need not survive a power cut: no fsync per file, faster tests."""
    with deferred_sync():
        yield


def export(cli: Cli, game: LifeGame, tmp_path: Path) -> dict[str, Any]:
    """Reveal (forced if the game is not over), export, and check the record verifies."""
    forced = ["--force"] if game.public()["status"] != "over" else []
    ok(cli("reveal", game.root, *forced))
    path = tmp_path / "record.json"
    ok(cli("export", game.root, "-o", path))
    ok(cli("verify", game.root, "--record", path))
    return dict(json.loads(path.read_text(encoding="utf-8")))


def test_every_life_event_reads_in_the_record(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = LifeGame(
        cli, tmp_path, monkeypatch, ("alice", "bob", "carol"),
        "--bank", "2d", "--increment", "1d", "--cap", "3d", "--leave", "3d", "--leave-auto",
        "--substitutes",
    )  # fmt: skip
    g.tick(1)
    g.send("leave", "carol", "--days", "1")
    g.tick(2)
    g.turn("alice")
    g.send("propose-end", "alice")
    g.send("answer", "bob", "--decline")
    g.turn("bob")
    g.tick(30)
    before = g.public()["seq"]
    g.send(
        "move",
        "carol",
        "--action",
        json.dumps({"kind": "play", "card": max(g.view("carol")["hand"])}),
    )
    g.send("takeback", "carol", "--to", before)
    g.turn("carol")
    g.send("handover", "bob", "--to", g.keys / "dave.pub")
    g.holder["bob"] = "dave"
    step = json.dumps([{"kind": "play", "card": min(g.view("alice")["hand"])}, {"kind": "draw"}])
    then = json.dumps([{"kind": "play", "card": min(g.view("bob")["hand"])}, {"kind": "draw"}])
    g.send("orders", "bob", "--step", f"{step}=>{then}")
    g.tick(1)
    g.turn("alice")
    g.tick(24 * 4)
    ok(cli("timeout", g.root))
    g.tick(24 * 6)
    ok(cli("timeout", g.root))
    g.tick(1)
    g.send("resign", "carol")
    ok(cli("appoint", g.root, "carol", "--key", g.keys / "erin.pub"))
    g.holder["carol"] = "erin"
    g.play_out()
    record = export(cli, g, tmp_path)

    timeline = record["timeline"]
    assert [e["kind"] for e in timeline] == g.kinds()
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for entry in timeline:
        by_kind.setdefault(entry["kind"], []).append(entry)
        assert "time" in entry, "a game with a clock dates every entry"
    assert record["date"] == {"start": timeline[0]["time"], "end": timeline[-1]["time"]}
    assert record["terms"]["deadline"]["bank"] == 2 * 86400
    assert record["terms"]["takebacks"] == "consent" and record["terms"]["substitutes"] is True

    assert by_kind["leave"][0]["days"] == 1 and by_kind["leave"][0]["seat"] == "carol"
    proposal = by_kind["propose-end"][0]
    assert (proposal["seat"], proposal["result"]) == ("alice", "score")
    answer = by_kind["answer"][0]
    assert (answer["seat"], answer["answer"], answer["request"]) == (
        "bob",
        "decline",
        proposal["seq"],
    )

    request, takeback = by_kind["takeback-request"][0], by_kind["takeback"][0]
    assert (request["seat"], request["to"]) == ("carol", before)
    assert (takeback["seat"], takeback["to"], takeback["request"]) == (
        "carol",
        before,
        request["seq"],
    )
    assert takeback["undone"] == list(range(before + 1, takeback["seq"]))
    for seq in takeback["undone"]:
        assert timeline[seq]["undone_by"] == takeback["seq"]
    assert [e["seq"] for e in timeline if "undone_by" in e] == takeback["undone"]
    assert timeline[before + 1]["kind"] == "move" and timeline[before + 1]["seat"] == "carol"

    handover = by_kind["handover"][0]
    assert handover["seat"] == "bob"
    assert handover["key"] == " ".join((g.keys / "dave.pub").read_text().split()[:2])
    orders, order_step = by_kind["orders"][0], by_kind["order-step"][0]
    assert orders["seat"] == "bob" and len(orders["steps"]) == 1
    assert (order_step["seat"], order_step["orders"], order_step["step"]) == (
        "bob",
        orders["seq"],
        0,
    )
    assert order_step["actions"] == orders["steps"][0]["then"]
    auto = by_kind["leave-auto"][0]
    assert auto["seat"] == "carol" and auto["days"] >= 1 and "start" in auto
    timeout = by_kind["timeout"][0]
    assert timeout["seat"] == "carol" and timeout["policy"] == "pass" and timeout["actions"]
    resign = by_kind["resign"][0]
    assert resign["seat"] == "carol" and any("resigns" in line for line in resign["summary"])
    appoint = by_kind["appoint"][0]
    assert (appoint["seat"], appoint["reason"]) == ("carol", resign["seq"])
    for entry in timeline:  # each entry says in words what happened (genesis and joins too)
        assert entry["summary"], entry["seq"]

    result = record["result"]
    assert result["status"] == "over" and result["reason"]["kind"] == "end"
    assert result["outcome"] == g.public()["outcome"]


def _duel(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *terms: Any) -> LifeGame:
    g = LifeGame(cli, tmp_path, monkeypatch, ("alice", "bob"), *terms)
    g.turn("alice")
    g.turn("bob")
    return g


def test_a_resignation_ends_a_duel(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _duel(cli, tmp_path, monkeypatch)
    g.send("resign", "bob")
    reason = export(cli, g, tmp_path)["result"]["reason"]
    seq = len(g.kinds()) - 1
    assert reason == {
        "kind": "resignation", "entry": seq, "seat": "bob",
        "text": f"bob resigned at entry #{seq}: the game ended, bob ranked last.",
    }  # fmt: skip


@pytest.mark.parametrize("result", ["score", "abandon"])
def test_an_end_by_agreement(
    result: str, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _duel(cli, tmp_path, monkeypatch)
    g.send("propose-end", "alice", *(["--abandon"] if result == "abandon" else []))
    g.send("answer", "bob", "--accept")
    record = export(cli, g, tmp_path)
    reason = record["result"]["reason"]
    seq = len(g.kinds()) - 1
    assert (reason["kind"], reason["entry"], reason["seat"]) == (
        "agreement" if result == "score" else "abandon", seq, "alice",
    )  # fmt: skip
    assert f"alice's proposal of entry #{seq - 1}" in reason["text"]
    assert (record["result"]["outcome"] is None) == (result == "abandon")


def test_a_forfeit_on_a_timeout(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    g = _duel(cli, tmp_path, monkeypatch, "--deadline", "1h", "--on-timeout", "forfeit")
    g.tick(2)
    ok(cli("timeout", g.root))
    record = export(cli, g, tmp_path)
    reason = record["result"]["reason"]
    assert (reason["kind"], reason["seat"]) == ("forfeit", "alice")
    assert record["timeline"][-1]["actions"] == [] and record["timeline"][-1]["policy"] == "forfeit"
    assert record["result"]["outcome"]["ranking"][-1] == ["alice"]


def test_a_forced_reveal(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    g = _duel(cli, tmp_path, monkeypatch)
    result = export(cli, g, tmp_path)["result"]
    seq = len(g.kinds()) - 1
    assert result == {
        "status": "playing",
        "outcome": None,
        "reason": {
            "kind": "forced", "entry": seq, "seat": None,
            "text": f"The referee revealed the secret after entry #{seq}, before the game was "
            "over: no result.",
        },
    }  # fmt: skip
