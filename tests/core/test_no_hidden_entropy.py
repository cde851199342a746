"""Engines and the replay path take randomness only from the Rng they are given.

ruff's banned-API rule (TID251) says the same for every linted file; this test keeps the
promise even where ruff is not run. Only the referee's edge may draw fresh randomness
(the secret in `referee.py`, join entropy in `player.py`, the player's page token in
`play/web/server.py`) or read the clock (`clock.py`,
the referee's clock; the mail desk's hourly limit per sender; the archive verifier's
games per second).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ARBITER = Path(__file__).resolve().parents[2] / "arbiter"
BANNED_MODULES = {"random", "time", "datetime", "secrets", "uuid"}
BANNED_CALLS = {"urandom", "getrandbits", "token_bytes"}
EDGE = {
    "core/referee.py", "core/player.py", "cli/referee.py", "cli/demo.py", "desks/mail/desk.py",
    # the referee's clock itself, and the archive verifier timing its run for people
    "core/clock.py", "cli/verify_many.py",
    # the player's page: a fresh access token for its address (nothing of the game)
    "play/web/server.py",
    # the peer protocol's per-game keys and proof nonces (docs/peer.md §4)
    "core/peer/fresh.py",
}


def _modules() -> list[Path]:
    return sorted(p for p in ARBITER.rglob("*.py") if str(p.relative_to(ARBITER)) not in EDGE)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ARBITER)))
def test_no_module_reads_the_clock_or_draws_its_own_randomness(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
        elif isinstance(node, ast.Attribute) and node.attr in BANNED_CALLS:
            pytest.fail(f"{path.name}:{node.lineno} calls {node.attr}: use the Rng passed in")
        else:
            continue
        assert not names & BANNED_MODULES, f"{path.name}:{node.lineno} imports {names & BANNED_MODULES}"


def test_the_edge_list_is_real() -> None:
    for name in EDGE:
        assert (ARBITER / name).is_file(), name
