"""Run the whole repository attack corpus against the git desk, with timings.

    python benchmarks/git_attacks.py [--only NAME ...]

For each attack of ``tests/git/repo_attacks.py`` (a sealed 2-seat game published in a
bare repository on disk, as the tests build it): a player pushes the attack, one desk
round runs, then a reader's fresh clone (with the attack's clone settings) and
``git archive`` of the game folder are checked byte for byte against the repository's
blobs, every seat's state file is opened and ``verify`` runs on both. Prints one row per
attack (the desk's round, the reader's checks, what went wrong) and the totals; exits 1
if any attack got through. The test suite runs a sample of the same corpus by default and
all of it with ``-m slow``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("ARBITER_ENGINES", "tally=testgame:TallyEngine")

from git.gitkit import ISOLATED, make_world
from git.repo_attacks import CORPUS, archive, check_folder, clone, push


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", help="run only these attacks")
    args = parser.parse_args()
    os.environ.update(ISOLATED)
    attacks = [a for a in CORPUS if not args.only or a.name in args.only]
    failed = 0
    started = time.perf_counter()
    print(f"{'attack':26} {'desk round':>10} {'reader':>8}  result")
    with tempfile.TemporaryDirectory(prefix="arbiter-git-attacks-") as tmp:
        for number, a in enumerate(attacks):
            world = make_world(Path(tmp) / f"w{number}")
            push(world, a)
            t0 = time.perf_counter()
            result = world.round()
            t1 = time.perf_counter()
            reader = world.tmp / "reader"
            problems = clone(world, a, reader)
            if not problems:
                problems += check_folder(world, reader / world.game, "clone")
            problems += check_folder(world, archive(world, world.tmp / "archive"), "archive")
            t2 = time.perf_counter()
            failed += bool(problems)
            verdict = (
                "exact" + (f" ({len(result.guarded)} file(s) put back)" if result.guarded else "")
                if not problems
                else f"{len(problems)} problem(s): {problems[0]}"
            )
            print(f"{a.name:26} {t1 - t0:9.3f}s {t2 - t1:7.3f}s  {verdict}")
    total = time.perf_counter() - started
    print(f"{len(attacks)} attack(s), {failed} got through, {total:.1f} s in all")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
