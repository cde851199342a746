"""Hostile files through every command, a million at a time: no traceback, ever.

    python benchmarks/fuzz.py [--inputs N] [-j J] [--seed S] [--commands show,bot,...]
                              [--flavours mottainai,wutai,...] [--replay I]

The generators of ``tests/fuzz`` (``fuzz.mutate``, ``fuzz.targets``): input ``i`` takes a
file the referee wrote in one of the games of ``fuzz.corpus`` (every engine, Wutai
Mountain included), edits it with the choices of ``Rng("SEED:i")`` and runs the command
that reads it in this process. Every run is judged as the tests judge it: an exit code
from the documented table, one ``arbiter: error:`` line on failure, no traceback, the
game folder unchanged (docs/fuzzing.md). The inputs are spread over ``-j`` worker
processes (each builds its own games, the same ones); ``--replay I`` runs input ``I``
alone and prints it. The counts are printed per command and engine, with the exit codes
seen and the crashes (which must be 0: a crash is fixed in the code, with a test).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The repository and the tests' helpers (fuzz.*) on the path, in place of this folder.
sys.path[0] = str(ROOT)
sys.path.insert(1, str(ROOT / "tests"))

WEIGHTS = {
    "show": 6, "moves": 6, "move": 6, "bot": 6, "signed-bytes": 3, "join": 3,
    "status": 2, "replay": 2, "submit": 3, "verify": 1, "html": 1, "reveal": 1,
    "repair": 1, "timeout": 1,
}
"""How often each command is drawn: the readers of a player's state file most (they meet
the most engine code), the whole-game replays (verify, html) least (each replays a game)."""
CHUNK = 500


def _setup() -> None:
    import conftest  # noqa: F401  (registers the tally test engine)


def _draw(rng: object, commands: list[str], flavours: list[str]) -> tuple[str, str]:
    weights = [WEIGHTS[c] for c in commands]
    pick = rng.below(sum(weights))  # type: ignore[attr-defined]
    chosen = commands[-1]
    for command, weight in zip(commands, weights, strict=True):
        if pick < weight:
            chosen = command
            break
        pick -= weight
    return chosen, flavours[rng.below(len(flavours))]  # type: ignore[attr-defined]


def run_one(seed: str, index: int, commands: list[str], flavours: list[str]) -> tuple:
    """Run input ``index``: (command, flavour, exit code, problems, argv)."""
    from fuzz import corpus, targets

    from arbiter.core.rng import Rng

    rng = Rng(f"{seed}:{index}".encode())
    command, flavour = _draw(rng, commands, flavours)
    case = targets.make(command, corpus.get(flavour), rng)
    outcome = case.run()
    return command, flavour, outcome.code, outcome.problems, case.argv, outcome.err


def run_chunk(seed: str, start: int, stop: int, commands: list[str], flavours: list[str]) -> dict:
    """Run inputs ``start..stop-1`` in this process; return their counts."""
    _setup()
    inputs: Counter[tuple[str, str]] = Counter()
    codes: Counter[tuple[str, int]] = Counter()
    crashes: list[tuple[int, str, str, list[str], list[str]]] = []
    for index in range(start, stop):
        command, flavour, code, problems, argv, _err = run_one(seed, index, commands, flavours)
        inputs[(command, flavour)] += 1
        codes[(command, code)] += 1
        if problems:
            crashes.append((index, command, flavour, problems, argv))
    return {"inputs": inputs, "codes": codes, "crashes": crashes}


def report(inputs: Counter, codes: Counter, crashes: list, seconds: float, args: argparse.Namespace) -> None:
    total = sum(inputs.values())
    flavours = sorted({f for _, f in inputs})
    commands = sorted({c for c, _ in inputs}, key=list(WEIGHTS).index)
    print(f"\ninputs {total:,} in {seconds:,.0f} s ({total / max(seconds, 1e-9):,.0f}/s, -j {args.jobs}, seed {args.seed!r})")
    width = max(len(f) for f in flavours) + 2
    print(f"{'command':<14}" + "".join(f"{f:>{width}}" for f in flavours) + f"{'total':>10}  exit codes seen")
    for command in commands:
        row = [inputs[(command, f)] for f in flavours]
        seen = sorted((code, n) for (c, code), n in codes.items() if c == command)
        text = ", ".join(f"{code}:{n:,}" for code, n in seen)
        print(f"{command:<14}" + "".join(f"{n:>{width},}" for n in row) + f"{sum(row):>10,}  {text}")
    print(f"crashes: {len(crashes)}")
    for index, command, flavour, problems, _argv in crashes[:20]:
        print(f"  input {index} ({command}, {flavour}): {'; '.join(problems)}  (--replay {index})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--seed", default="fuzz-1")
    parser.add_argument("--commands", default=",".join(WEIGHTS))
    parser.add_argument("--flavours", default="mottainai,wutai,motcoin,momiji,tally")
    parser.add_argument("--replay", type=int, default=None, help="run this input alone")
    args = parser.parse_args()
    commands, flavours = args.commands.split(","), args.flavours.split(",")
    if args.replay is not None:
        _setup()
        command, flavour, code, problems, argv, err = run_one(args.seed, args.replay, commands, flavours)
        print(f"input {args.replay}: {command} ({flavour}) exit {code}\n  arbiter {' '.join(argv)}\n{err}")
        print("problems: " + ("; ".join(problems) or "none"))
        return 1 if problems else 0
    inputs: Counter[tuple[str, str]] = Counter()
    codes: Counter[tuple[str, int]] = Counter()
    crashes: list = []
    began = time.perf_counter()
    chunks = [(s, min(s + CHUNK, args.inputs)) for s in range(0, args.inputs, CHUNK)]
    done = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_chunk, args.seed, a, b, commands, flavours) for a, b in chunks]
        for future in as_completed(futures):
            part = future.result()
            inputs.update(part["inputs"])
            codes.update(part["codes"])
            crashes += part["crashes"]
            for index, command, flavour, problems, _argv in part["crashes"]:
                # Said at once: a long run stopped early still names what it found.
                print(f"crash: input {index} ({command}, {flavour}): {'; '.join(problems)}", file=sys.stderr)
            done += sum(part["inputs"].values())
            rate = done / (time.perf_counter() - began)
            print(
                f"{done:,} / {args.inputs:,} inputs, {rate:,.0f}/s, crashes {len(crashes)}",
                file=sys.stderr, flush=True,
            )
    crashes.sort()
    report(inputs, codes, crashes, time.perf_counter() - began, args)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
