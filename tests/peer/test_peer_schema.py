"""The peer message's JSON Schema (``schemas/peer-move.schema.json``, docs/peer.md §5.1)
is clean outside Python too: ajv (strict mode, draft 2020-12) compiles it and accepts a
message of each kind a real game sends, and refuses one with a field too many."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.peer_play import doubles, new_table, play

from arbiter.core import schemas
from arbiter.core.errors import SchemaViolation

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "peer-move.schema.json"
FIELDS = ["key", "shuffles", "shares", "openings", "claims", "rerandomise"]


@pytest.fixture(scope="module")
def samples() -> dict[str, dict[str, Any]]:
    """The first message carrying each field, from whole 3-seat Momiji games."""
    found: dict[str, dict[str, Any]] = {}
    for seed in range(4, 24):
        table = play(new_table("momiji", 3, seed), seed, choose=doubles(seed))
        for message in table.messages:
            for field in FIELDS:
                if field in message and field not in found:
                    found[field] = message
        if len(found) == len(FIELDS):
            break
    return found


def test_every_kind_of_message_fits_the_schema(samples: dict[str, dict[str, Any]]) -> None:
    assert sorted(samples) == sorted(FIELDS), "the game sent every kind of message"
    for message in samples.values():
        schemas.validate("peer-move", message, "a peer message")
    with pytest.raises(SchemaViolation, match="x"):
        schemas.validate("peer-move", {**samples["key"], "x": 1}, "a peer message")


def _ajv() -> str | None:
    return os.environ.get("AJV") or shutil.which("ajv")


@pytest.mark.skipif(
    _ajv() is None and not os.environ.get("CI"),
    reason="ajv (npm ajv-cli) is not installed; set AJV=path (.ci/run installs it)",
)
def test_ajv_accepts_each_kind_and_refuses_a_field_too_many(
    samples: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    assert _ajv() is not None, "ajv is not installed: .ci/run installs it with npm"
    for field, message in samples.items():
        for name, data, accepted in (
            (field, message, True),
            (f"{field}-x", {**message, "x": 1}, False),
        ):
            path = tmp_path / f"{name}.json"
            path.write_text(json.dumps(data))
            done = subprocess.run(
                [_ajv(), "validate", "--spec=draft2020", "-s", str(SCHEMA), "-d", str(path)],
                capture_output=True, text=True, timeout=120, check=False,
            )  # fmt: skip
            assert (done.returncode == 0) == accepted, (name, done.stdout + done.stderr)
            assert "strict mode" not in done.stderr
