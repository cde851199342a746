"""The record's JSON Schema is clean for validators outside Python too: ajv (strict mode,
draft 2020-12) compiles it, accepts a record arbiter wrote and refuses one with a member
too many, as Python's jsonschema does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "record.schema.json"


def _ajv() -> str | None:
    return os.environ.get("AJV") or shutil.which("ajv")


@pytest.fixture(scope="module")
def records(revealed: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Each engine's record, and one with a member too many in an entry."""
    from arbiter.export.record import export

    folder = tmp_path_factory.mktemp("schema")
    made = []
    for engine, game in sorted(revealed.items()):
        path = folder / f"{engine}.json"
        path.write_bytes(export(game, "Friday club", 1, 2))
        made.append(path)
    record = json.loads(made[0].read_text(encoding="utf-8"))
    record["timeline"][1]["colour"] = "blue"
    extra = folder / "extra.json"
    extra.write_text(json.dumps(record), encoding="utf-8")
    return [*made, extra]


def test_jsonschema_accepts_the_records(records: list[Path]) -> None:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    *good, extra = records
    for path in good:
        validator.validate(json.loads(path.read_text(encoding="utf-8")))
    assert not validator.is_valid(json.loads(extra.read_text(encoding="utf-8")))


@pytest.mark.skipif(
    _ajv() is None and not os.environ.get("CI"),
    reason="ajv (npm ajv-cli) is not installed; set AJV=path (.ci/run installs it)",
)
def test_ajv_compiles_the_schema_and_accepts_the_records(records: list[Path]) -> None:
    ajv = _ajv()
    assert ajv is not None, "ajv is not installed: .ci/run installs it with npm"
    *good, extra = records

    def run(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [ajv, "validate", "--spec=draft2020", "-s", str(SCHEMA), "-d", str(path)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip

    for path in good:
        done = run(path)
        assert done.returncode == 0, (path.name, done.stdout + done.stderr)
        assert "strict mode" not in done.stderr
    assert run(extra).returncode != 0
