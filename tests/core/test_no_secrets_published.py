"""No published file carries the secret, the seed or a stream key before the reveal."""

from __future__ import annotations

import json
from pathlib import Path

from arbiter.bots import selfplay
from arbiter.core.gamedir import GameDir
from arbiter.core.rng import derive_seed, stream_key


def _published(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file()
        and "referee" not in p.relative_to(root).parts
        and "reveal" not in p.relative_to(root).parts
    }


def test_secret_and_seed_stay_private_until_reveal(tmp_path: Path, monkeypatch) -> None:
    snapshots: list[dict[str, bytes]] = []
    from arbiter.core import referee

    original = referee.submit

    def spying_submit(root: Path, data: bytes, what: str):  # type: ignore[no-untyped-def]
        accepted = original(root, data, what)
        snapshots.append(_published(Path(root)))
        return accepted

    monkeypatch.setattr(referee, "submit", spying_submit)
    run = selfplay.play(tmp_path / "run", "tally", 3, "leak")
    gd = GameDir(run.game)
    secret = bytes.fromhex(gd.secret.read_text().strip())
    manifest = json.loads(gd.manifest.read_text())
    entropies = []
    for line in gd.referee_signed.read_bytes().splitlines():
        signed = json.loads(line)
        if signed["format"] == "arbiter.join/1":
            entropies.append((signed["seat"], bytes.fromhex(signed["entropy"])))
    order = [s["seat"] for s in manifest["seats"]]
    seed = derive_seed(
        secret, manifest["game"], [e for _, e in sorted(entropies, key=lambda p: order.index(p[0]))]
    )
    forbidden = [secret.hex(), seed.hex(), stream_key(seed, 0).hex(), stream_key(seed, 1).hex()]
    forbidden += [entropy.hex() for _, entropy in entropies]
    assert len(snapshots) == run.files > 3
    for snapshot in snapshots:
        for name, data in snapshot.items():
            for value in forbidden:
                assert value.encode() not in data, f"{name} leaks a secret value"
