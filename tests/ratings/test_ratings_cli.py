"""``arbiter ratings``: its one-line errors (nothing written), the optional library, and
ratings.json against its schema in validators outside Python too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ratings_kit import Cli, error_line

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "ratings.schema.json"


def test_a_folder_that_does_not_exist(cli: Cli, archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    err = error_line(cli("ratings", archive, tmp_path / "nowhere", "--out", out), 17)
    assert "nowhere" in err and "is not a folder" in err
    assert not out.exists()


def test_a_folder_with_no_game(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    out = tmp_path / "out"
    err = error_line(cli("ratings", tmp_path / "empty", "--out", out), 17)
    assert "no game folder" in err
    assert not out.exists()


def test_out_must_be_a_folder(cli: Cli, archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "ratings.json"
    out.write_text("mine\n")
    err = error_line(cli("ratings", archive, "--out", out), 2)
    assert "--out" in err and "not a folder" in err
    assert out.read_text() == "mine\n"


def test_without_the_library_it_says_what_to_install(
    cli: Cli, archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library absent (its import made to fail, as when it is not installed)."""
    for name in [m for m in sys.modules if m == "openskill" or m.startswith("openskill.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openskill", None)  # `import openskill` raises
    out = tmp_path / "out"
    err = error_line(cli("ratings", archive, "--out", out), 2)
    assert "pip install 'arbiter[ratings]'" in err
    assert not out.exists()


def test_arbiter_starts_without_the_library() -> None:
    """Neither the CLI nor the ratings package imports openskill until ratings are computed."""
    code = (
        "import sys\n"
        "import arbiter.cli.main, arbiter.cli.ratings\n"
        "import arbiter.ratings.games, arbiter.ratings.ladder, arbiter.ratings.document\n"
        "print(sorted(m for m in sys.modules if m.startswith('openskill')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def test_help_names_the_command(cli: Cli) -> None:
    done = cli("--help")
    assert done.code == 0
    assert any(line.split()[:1] == ["ratings"] for line in done.out.splitlines())


def _ajv() -> str | None:
    return os.environ.get("AJV") or shutil.which("ajv")


def _check_jsonschema() -> str | None:
    beside = Path(sys.executable).with_name("check-jsonschema")
    return str(beside) if beside.exists() else shutil.which("check-jsonschema")


@pytest.fixture
def written(cli: Cli, archive: Path, tmp_path: Path) -> tuple[Path, Path]:
    """ratings.json of the archive, and the same with a field too many."""
    assert cli("ratings", archive, "--out", tmp_path / "site").code == 0
    good = tmp_path / "site" / "ratings.json"
    bad = tmp_path / "extra.json"
    bad.write_text(json.dumps({**json.loads(good.read_text()), "x": 1}))
    return good, bad


@pytest.mark.skipif(
    _ajv() is None and not os.environ.get("CI"),
    reason="ajv (npm ajv-cli) is not installed; set AJV=path (.ci/run installs it)",
)
def test_ajv_accepts_ratings_json(written: tuple[Path, Path]) -> None:
    ajv = _ajv()
    assert ajv is not None, "ajv is not installed: .ci/run installs it with npm"
    good, bad = written
    for data, accepted in ((good, True), (bad, False)):
        done = subprocess.run(
            [ajv, "validate", "--spec=draft2020", "-s", str(SCHEMA), "-d", str(data)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert (done.returncode == 0) == accepted, done.stdout + done.stderr
        assert "strict mode" not in done.stderr


@pytest.mark.skipif(
    _check_jsonschema() is None and not os.environ.get("CI"),
    reason="check-jsonschema is not installed: pip install -e '.[test]'",
)
def test_check_jsonschema_accepts_ratings_json(written: tuple[Path, Path]) -> None:
    good, bad = written
    tool = _check_jsonschema() or "check-jsonschema"
    for args, accepted in (
        (["--check-metaschema", str(SCHEMA)], True),
        (["--schemafile", str(SCHEMA), str(good)], True),
        (["--schemafile", str(SCHEMA), str(bad)], False),
    ):
        done = subprocess.run(
            [tool, *args], capture_output=True, text=True, timeout=120, check=False
        )
        assert (done.returncode == 0) == accepted, done.stdout + done.stderr
