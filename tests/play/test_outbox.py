"""The player's outbox and what was seen: nothing signed is lost, a damaged record is set aside."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from arbiter.core.errors import UsageError
from arbiter.play import profile
from arbiter.play.outbox import Outbox, Seen


def move(seq: int, seat: str = "alice") -> bytes:
    return json.dumps({"format": "arbiter.move/1", "game": "g1", "seat": seat, "after": f"h{seq}"}).encode()


def test_put_pending_sent(xdg: Path) -> None:
    box = Outbox("g1")
    assert box.root == profile.state_dir("g1")
    assert box.pending() == []
    first = box.put("alice-3-aaaa.json", move(3))
    second = box.put("alice-5-bbbb.json", move(5))
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    assert box.put("alice-3-aaaa.json", move(3)) == first  # the same file again: nothing new
    with pytest.raises(UsageError) as exc:
        box.put("alice-3-aaaa.json", move(4))
    assert "already waits" in exc.value.message
    assert first.read_bytes() == move(3)
    assert [(p.name, obj["after"]) for p, obj in box.pending()] == [
        ("alice-3-aaaa.json", "h3"), ("alice-5-bbbb.json", "h5")]
    done = box.sent(first)
    assert done == box.root / "sent" / "alice-3-aaaa.json" and done.read_bytes() == move(3)
    assert not first.exists()
    assert [p for p, _ in box.pending()] == [second]
    # a file of that name sent before with other bytes is kept; this one is numbered
    again = box.put("alice-3-aaaa.json", move(33))
    assert box.sent(again).name == "alice-3-aaaa.json.1"
    assert done.read_bytes() == move(3)
    for bad in ("../x.json", ".hidden", "a/b", ""):
        with pytest.raises(UsageError):
            box.put(bad, b"{}")


def test_unreadable_files_stay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    box = Outbox("g1", tmp_path / "state")
    box.put("broken.json", b"{not json")
    box.put("ok.json", move(1))
    assert [p.name for p, _ in box.pending()] == ["ok.json"]
    assert "broken.json cannot be read" in capsys.readouterr().err
    assert (box.outbox / "broken.json").exists()


def state(seq: int, waiting: str | None) -> dict[str, object]:
    prompt = {"seat": waiting, "kind": "turn"} if waiting else None
    return {"seq": seq, "head": f"sha256:{seq:064d}", "prompt": prompt}


def test_seen(xdg: Path) -> None:
    seen = Seen("g1")
    assert seen.last_seen() is None and seen.decided_by(3) is None
    seen.record(state(2, "alice"))
    seen.record(state(3, "bob"))
    seen.record(state(5, None))
    again = Seen("g1")  # read back from seen.json
    assert again.last_seen() == 5
    assert again.decided_by(3) == "alice"  # the game waited for alice at #2
    assert again.decided_by(4) == "bob"
    assert again.decided_by(6) is None and again.decided_by(5) is None  # #4 never seen
    assert again.head(3) == f"sha256:{3:064d}"
    # two programs of one game record in turn: neither loses the other's entries
    seen.record(state(7, "alice"))
    again.record(state(8, "bob"))
    assert Seen("g1").last_seen() == 8 and Seen("g1").decided_by(8) == "alice"
    assert stat.S_IMODE((profile.state_dir("g1") / "seen.json").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "damage",
    [b"{broken", b"[]", b'{"format": "arbiter.play-seen/1", "entries": {"x": 1}}', b"\xff\xfe",
     b"[" * 100_000],
)
def test_damaged_seen_is_set_aside(tmp_path: Path, damage: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "state"
    Seen("g1", folder).record(state(2, "alice"))
    (folder / "seen.json").write_bytes(damage)
    (folder / "seen.json.damaged-1").write_bytes(b"an earlier one")
    seen = Seen("g1", folder)
    assert seen.last_seen() is None
    assert "set aside as seen.json.damaged-2" in capsys.readouterr().err
    assert (folder / "seen.json.damaged-2").read_bytes() == damage
    assert (folder / "seen.json.damaged-1").read_bytes() == b"an earlier one"
    seen.record(state(3, "bob"))
    assert Seen("g1", folder).decided_by(4) == "bob"
