"""The JSON Schemas of a long game's files (issue 27, item 9) are clean for validators
outside Python too: ajv (strict mode, draft 2020-12) and check-jsonschema compile each
and accept the files arbiter writes, and refuse one with a field too many."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import Cli, ok
from lifekit import Table

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
KINDS = ["resign", "propose-end", "answer", "handover", "appoint"]


def _ajv() -> str | None:
    return os.environ.get("AJV") or shutil.which("ajv")


def _check_jsonschema() -> str | None:
    beside = Path(sys.executable).with_name("check-jsonschema")
    return str(beside) if beside.exists() else shutil.which("check-jsonschema")


@pytest.fixture
def samples(cli: Cli, tmp_path: Path) -> dict[str, Path]:
    """One file of each kind, as arbiter signed them in a game (appoint: the referee's,
    from signed.jsonl)."""
    t = Table(cli, tmp_path, "momiji", ["alice", "bob", "carol"], "--substitutes")
    made = {
        "propose-end": t.sign("propose-end", "alice"),
    }
    t.submit(made["propose-end"])
    made["answer"] = t.sign("answer", "bob", "--decline")
    t.submit(made["answer"])
    made["handover"] = t.sign("handover", "alice", "--to", t.keys / "dave.pub")
    t.submit(made["handover"])
    made["resign"] = t.sign("resign", "carol")
    t.submit(made["resign"])
    ok(t.cli("keygen", "erin", "--dir", t.keys))
    ok(t.cli("appoint", t.root, "carol", "--key", t.keys / "erin.pub"))
    signed = (t.root / "referee" / "signed.jsonl").read_text().splitlines()
    made["appoint"] = t.files / "appoint.json"
    made["appoint"].write_text(signed[-1])
    return made


@pytest.mark.skipif(
    _ajv() is None and not os.environ.get("CI"),
    reason="ajv (npm ajv-cli) is not installed; set AJV=path (.ci/run installs it)",
)
def test_ajv_compiles_each_schema_and_accepts_the_files(
    samples: dict[str, Path], tmp_path: Path
) -> None:
    assert _ajv() is not None, "ajv is not installed: .ci/run installs it with npm"
    for kind in KINDS:
        schema = SCHEMAS / f"{kind}.schema.json"
        done = subprocess.run(
            [_ajv(), "validate", "--spec=draft2020", "-s", str(schema), "-d", str(samples[kind])],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, (kind, done.stdout + done.stderr)
        assert "strict mode" not in done.stderr
        extra = tmp_path / f"{kind}-extra.json"
        extra.write_text(json.dumps({**json.loads(samples[kind].read_text()), "x": 1}))
        done = subprocess.run(
            [_ajv(), "validate", "--spec=draft2020", "-s", str(schema), "-d", str(extra)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode != 0, kind


@pytest.mark.skipif(
    _check_jsonschema() is None and not os.environ.get("CI"),
    reason="check-jsonschema is not installed: pip install -e '.[test]'",
)
def test_check_jsonschema_accepts_the_files(samples: dict[str, Path]) -> None:
    for kind in KINDS:
        schema = SCHEMAS / f"{kind}.schema.json"
        for args in (
            ["--check-metaschema", str(schema)],
            ["--schemafile", str(schema), str(samples[kind])],
        ):
            done = subprocess.run(
                [_check_jsonschema() or "check-jsonschema", *args],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert done.returncode == 0, (kind, done.stdout + done.stderr)
