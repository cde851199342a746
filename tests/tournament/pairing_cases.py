"""The 1,000 simulated tournaments of the pairing conformance test (issue 28 item 2).

Case i: 4 + i mod 21 players, tables of 2 + (i div 21) mod 3, Swiss when i mod 3 is not
0, otherwise the default format (round-robin when it fits in the Swiss rounds), seed
``conformance-<i>``. Their pairings' digests are kept in
``tests/golden/tournament-pairings.json``; write them again, after a deliberate change of
the pairing rules only, with ``PYTHONPATH=tests python tests/tournament/pairing_cases.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "tournament-pairings.json"
COUNT = 1000


def case(i: int) -> dict[str, Any]:
    return {
        "case": i,
        "players": 4 + i % 21,
        "table_size": 2 + (i // 21) % 3,
        "format": "swiss" if i % 3 else None,
        "seed": f"conformance-{i}",
    }


def digest(spec: dict[str, Any]) -> str:
    from arbiter.tournament.simulate import simulate

    made = simulate(
        spec["players"], spec["seed"], table_size=spec["table_size"], pairing=spec["format"]
    )
    return str(made["digest"])


def main() -> None:
    rows = [{**case(i), "digest": digest(case(i))} for i in range(COUNT)]
    GOLDEN.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(rows)} digests to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main()
