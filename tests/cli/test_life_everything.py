"""One game that uses every event of a long game's life (issue 27), then revealed and
replayed by `arbiter verify`: leave, automatic leave, an end proposal declined, a
takeback, a handover, standing orders and their step, a resignation and an appointment.

The tally test game with three seats, a time bank, leave days and substitutes; the
referee's clock is set by ARBITER_NOW as cron would run it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, ok


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.monkeypatch, self.hours = monkeypatch, 0
        self.tick(0)

    def tick(self, hours: int) -> None:
        self.hours += hours
        day, hour = divmod(self.hours, 24)
        self.monkeypatch.setenv("ARBITER_NOW", f"2026-06-{1 + day:02d}T{hour:02d}:00:00Z")


def test_a_game_with_every_life_event_verifies(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    keys = tmp_path / "keys"
    for name in ("alice", "bob", "carol", "dave", "erin"):
        ok(cli("keygen", name, "--dir", keys))
    root, files = tmp_path / "g", tmp_path / "files"
    files.mkdir()
    seats = ("alice", "bob", "carol")
    args: list[Any] = ["new", root, "--game", "tally", "--no-join", "--option", "cards=40"]
    for seat in seats:
        args += ["--seat", f"{seat}={keys / seat}.pub"]
    ok(cli(*args, "--bank", "2d", "--increment", "1d", "--cap", "3d", "--leave", "3d",
           "--leave-auto", "--substitutes"))
    count = [0]
    holder = {s: s for s in seats}  # the key each seat holds

    def out(name: str) -> Path:
        count[0] += 1
        return files / f"{count[0]:03d}-{name}.json"

    def public() -> dict[str, Any]:
        return dict(json.loads((root / "public" / "state.json").read_text()))

    def state(seat: str) -> Path:
        return root / "players" / seat / "state.json"

    def send(command: str, seat: str, *extra: Any) -> str:
        path = out(f"{command}-{seat}")
        ok(cli(command, state(seat), "--key", keys / holder[seat], *extra, "-o", path))
        return ok(cli("submit", root, path)).out

    def hand(seat: str) -> list[int]:
        return list(json.loads(state(seat).read_text())["view"]["hand"])

    def turn(seat: str) -> str:
        view = json.loads(state(seat).read_text())["view"]
        last = {"kind": "draw"} if view["deck"] else {"kind": "end"}
        first = [{"kind": "play", "card": min(view["hand"])}] if view["hand"] else []
        actions = [a for action in [*first, last] for a in ("--action", json.dumps(action))]
        return send("move", seat, *actions)

    def kinds() -> list[str]:
        return [json.loads(line)["kind"] for line in (root / "chain.jsonl").read_text().splitlines()]

    # carol takes a day of leave; alice and bob play.
    clock.tick(1)
    send("leave", "carol", "--days", "1")
    clock.tick(2)
    turn("alice")
    clock.tick(2)
    # alice proposes to end; bob declines.
    send("propose-end", "alice")
    send("answer", "bob", "--decline")
    turn("bob")
    # carol plays a card, then takes it back (nobody else concerned: at once).
    clock.tick(30)
    seq_before = public()["seq"]
    send("move", "carol", "--action", json.dumps({"kind": "play", "card": max(hand("carol"))}))
    send("takeback", "carol", "--to", seq_before)
    assert kinds()[-2:] == ["takeback-request", "takeback"]
    turn("carol")
    # bob hands his seat to dave; dave sends standing orders answering alice's turn.
    send("handover", "bob", "--to", keys / "dave.pub")
    holder["bob"] = "dave"
    card = min(hand("alice"))
    step = json.dumps([{"kind": "play", "card": card}, {"kind": "draw"}]) + "=>" + json.dumps(
        [{"kind": "play", "card": min(hand("bob"))}, {"kind": "draw"}]
    )
    send("orders", "bob", "--step", step)
    clock.tick(1)
    turn("alice")
    assert kinds()[-2:] == ["move", "order-step"]
    # carol's time runs out: automatic leave first, then her timeout.
    clock.tick(24 * 4)
    ok(cli("timeout", root))
    assert kinds()[-1] == "leave-auto"
    clock.tick(24 * 6)
    ok(cli("timeout", root))
    assert kinds()[-1] == "timeout"
    # carol resigns (three seats: she leaves); the referee appoints erin in her place.
    clock.tick(1)
    send("resign", "carol")
    ok(cli("appoint", root, "carol", "--key", keys / "erin.pub"))
    holder["carol"] = "erin"
    for _ in range(200):
        if public()["status"] != "playing":
            break
        clock.tick(1)
        seat = public()["prompt"]["seat"]
        legal = json.loads(state(seat).read_text())["legal"]
        send("move", seat, "--action", json.dumps(legal[0]))
    assert public()["status"] == "over"
    used = set(kinds())
    assert used >= {"leave", "leave-auto", "propose-end", "answer", "takeback-request", "takeback",
                    "handover", "orders", "order-step", "timeout", "resign", "appoint"}, used
    ok(cli("reveal", root))
    said = ok(cli("verify", root)).out
    assert "verified game" in said
