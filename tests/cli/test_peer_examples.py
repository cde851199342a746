"""The golden peer games (issue 30, item 3): ``examples/mottainai-peer`` and
``examples/mottainai-wutai-peer``, three seats each, played to their end with no referee
and revealed (``tests/golden/peer_regenerate.py``). A stranger who holds no secret of its
own checks every message, decrypts the decks with the published secrets and replays the
whole game through the normal engine: every view and log as played."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clikit import Cli, ok

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"mottainai-peer": False, "mottainai-wutai-peer": True}


@pytest.mark.parametrize(("name", "wutai"), EXAMPLES.items())
def test_a_golden_peer_game_verifies_for_a_stranger(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, wutai: bool
) -> None:
    source = ROOT / "examples" / name
    terms = json.loads((source / "game.json").read_bytes())
    assert terms["engine"]["name"] == "mottainai" and len(terms["seats"]) == 3
    assert bool(terms["options"].get("wutai")) is wutai
    assert sorted(p.name for p in (source / "reveals").iterdir()) == [
        f"{s['seat']}.json" for s in terms["seats"]
    ]
    assert not [p for p in source.rglob("*") if "secret" in p.name], "no private file"
    copy = tmp_path / name
    shutil.copytree(source, copy)
    monkeypatch.setenv("ARBITER_PEER_HOME", str(tmp_path / "stranger"))
    checked = ok(cli("verify", copy)).out
    assert "every secret is the one behind its seat's key" in checked
    assert f"{2 if wutai else 1} deck" in checked
    assert "replayed through mottainai 0.4.0" in checked
    assert f"verified peer game {name}: replayed, every view and log as played" in checked
    messages = sorted((source / "messages").iterdir())
    assert any(b'"returns"' in m.read_bytes() for m in messages), "cards went back face down"


def test_a_game_of_the_earlier_protocol_is_refused_with_the_release_that_plays_it(
    cli: Cli, tmp_path: Path
) -> None:
    """Protocol 2 owes the openings to a seat that does not decide next on later
    messages (docs/peer-mottainai.md §3.5): a game begun under protocol 1 would replay
    into another schedule of rounds and look forged. It is refused as what it is, named,
    with the release that plays it, and its folder is left as it was."""
    copy = tmp_path / "old"
    shutil.copytree(ROOT / "examples" / "mottainai-peer", copy)
    terms = json.loads((copy / "game.json").read_bytes())
    terms["format"] = "arbiter.peer-game/1"
    (copy / "game.json").write_text(json.dumps(terms))
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    for args in (("verify", copy), ("peer", "status", copy)):
        refused = cli(*args)
        assert refused.code == 2, refused
        assert "earlier peer protocol (arbiter.peer-game/1)" in refused.err
        assert "play and verify it with arbiter 0.4.0" in refused.err
        assert len(refused.err.strip().splitlines()) == 1
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before
