"""Write the golden peer games (run by hand, then commit the result):

    PYTHONPATH=tests python tests/golden/peer_regenerate.py

``examples/mottainai-peer`` (3 seats) and ``examples/mottainai-wutai-peer`` (3 seats,
``wutai=yes``): each made with ``arbiter peer new``, joined with ``arbiter peer join``,
played to its end by random bots whose messages are signed and written exactly as
``arbiter peer play`` writes them, and revealed with ``arbiter peer reveal``. The folder
keeps game.json, every message, every reveal and the seats' public keys: anyone can run
``arbiter verify`` on it. The decks follow from the seats' fresh secrets, so each run
plays another game.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEATS = ["alice", "bob", "carol"]


def arbiter(*args: object, env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "arbiter", *map(str, args)], env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode:
        raise SystemExit(done.stderr)


def make(name: str, options: list[str], seed: int) -> None:
    sys.path.insert(0, str(ROOT))
    from arbiter.core.rng import Rng
    from arbiter.peer import folder as files

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = {**os.environ, "ARBITER_PEER_HOME": str(work / "home")}
        for seat in SEATS:
            arbiter("keygen", seat, "--dir", work / "keys", env=env)
        table = work / name
        seats = [a for s in SEATS for a in ("--seat", f"{s}={work / 'keys' / s}.pub")]
        arbiter("peer", "new", table, "--game", "mottainai", *seats, *options, env=env)
        for seat in SEATS:
            arbiter("peer", "join", table, "--seat", seat, "--key", work / "keys" / seat, env=env)
        os.environ["ARBITER_PEER_HOME"] = env["ARBITER_PEER_HOME"]
        loaded = {seat: files.load(table, seat) for seat in SEATS}
        rng = Rng(bytes([seed]) * 32)
        while not loaded[SEATS[0]].game.over:
            seat = next(s for s in SEATS if loaded[s].game.owed(s) is not None)
            path = loaded[seat].write(
                loaded[seat].player.compose(lambda _s, _seat, legal: rng.choice(legal)),
                work / "keys" / seat,
            )
            signed = json.loads(path.read_bytes())
            for other in SEATS:
                if other != seat:
                    loaded[other].game.receive(signed)
        for seat in SEATS:
            arbiter("peer", "reveal", table, "--seat", seat, "--key", work / "keys" / seat, env=env)
        out = ROOT / "examples" / name
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(table, out)
        (out / "keys").mkdir()
        for seat in SEATS:
            shutil.copy(work / "keys" / f"{seat}.pub", out / "keys" / f"{seat}.pub")
        print(f"wrote {out}: {len(list((out / 'messages').iterdir()))} messages; commit it")


def main() -> None:
    make("mottainai-peer", [], 3)
    make("mottainai-wutai-peer", ["--option", "wutai=yes"], 6)


if __name__ == "__main__":
    main()
