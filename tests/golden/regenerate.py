"""Write a golden example game for an engine (run by hand, then commit the result).

    PYTHONPATH=tests python tests/golden/regenerate.py ENGINE [--players N] [--seed S]
        [--option K=V ...] [--name FOLDER]

Real engines go to ``examples/<engine>/``, test-only engines to ``tests/golden/<engine>/``;
a game played with options goes where ``--name`` says (``examples/mottainai-wutai`` is
``mottainai --option wutai=yes --name mottainai-wutai``).
The folder holds the revealed game (without ``referee/``) plus the players' signed move
files, the referee's receipts and the public keys, so a reader can follow it and ``arbiter verify`` can replay it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import conftest  # noqa: F401  (registers the test-only engines)

from arbiter.bots.selfplay import play
from arbiter.core import registry


def target(engine: str) -> Path:
    """Return where the golden example of ``engine`` lives."""
    if engine in registry.BUILTIN:
        return ROOT / "examples" / engine
    return ROOT / "tests" / "golden" / engine


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", default=None, help="default: golden-NAME (a secret per example)")
    parser.add_argument("--option", action="append", default=[], help="engine option K=V")
    parser.add_argument("--name", default=None, help="the example's folder under examples/")
    args = parser.parse_args()
    info = registry.get(args.engine).info
    players = args.players or info.min_seats
    options = dict(o.split("=", 1) for o in args.option)
    name = args.name or args.engine
    out = ROOT / "examples" / name if args.name else target(args.engine)
    with tempfile.TemporaryDirectory() as tmp:
        run = play(
            Path(tmp) / "run", args.engine, players, args.seed or f"golden-{name}", options=options
        )
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(run.game, out / "game", ignore=shutil.ignore_patterns("referee"))
        shutil.copytree(run.moves, out / "moves")
        # The referee's receipts, as the players keep them (`arbiter verify --receipt`).
        shutil.copytree(run.game / "referee" / "receipts", out / "receipts")
        (out / "keys").mkdir()
        for pub in sorted(run.keys.glob("*.pub")):
            shutil.copy(pub, out / "keys" / pub.name)
    print(f"wrote {out}: {run.decisions} decisions; commit it")


if __name__ == "__main__":
    main()
