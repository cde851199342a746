"""Exit codes: one per error class, distinct, and documented in README.md's table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter.cli.output import error
from arbiter.core import errors
from arbiter.core.errors import ALL_ERRORS, ArbiterError

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_error_class_is_listed() -> None:
    def subclasses(cls: type) -> set[type]:
        out = set()
        for sub in cls.__subclasses__():
            out |= {sub} | subclasses(sub)
        return out

    defined = {
        cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, ArbiterError) and cls is not ArbiterError
    }
    assert defined == set(ALL_ERRORS)
    assert subclasses(ArbiterError) >= set(ALL_ERRORS)


def test_exit_codes_are_distinct_and_documented_range() -> None:
    codes = [cls.exit_code for cls in ALL_ERRORS]
    assert len(set(codes)) == len(codes), codes
    names = [cls.code for cls in ALL_ERRORS]
    assert len(set(names)) == len(names), names
    for cls in ALL_ERRORS:
        if cls is errors.UsageError:
            assert cls.exit_code == 2
        else:
            assert cls.exit_code >= 3, cls
    assert 0 not in codes and 1 not in codes


@pytest.mark.parametrize("cls", ALL_ERRORS, ids=lambda cls: cls.__name__)
def test_error_prints_one_line(cls: type[ArbiterError], capsys: pytest.CaptureFixture[str]) -> None:
    exc = (
        cls("first line\nsecond  line")
        if cls is not errors.IllegalAction
        else cls("a\nb", rule="R-1")
    )
    assert error(exc) == cls.exit_code
    err = capsys.readouterr().err
    assert err.startswith("arbiter: error: ") and err.count("\n") == 1


def _exit_code_table() -> dict[int, str]:
    """Return {code: class column} from README's exit-code section, or {} if absent."""
    if not README.is_file():
        return {}
    text = README.read_text(encoding="utf-8")
    match = re.search(
        r"^#+ [^\n]*exit codes?[^\n]*$(.*?)(?=^#+ |\Z)",
        text,
        re.IGNORECASE | re.MULTILINE | re.DOTALL,
    )
    if not match:
        return {}
    table: dict[int, str] = {}
    for line in match.group(1).splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            table[int(cells[0])] = cells[1]
    return table


def test_readme_lists_every_exit_code() -> None:
    table = _exit_code_table()
    if not table:
        pytest.skip("README.md has no exit-code table yet")
    assert table.get(0) is not None, "README should document exit code 0 (success)"
    for cls in ALL_ERRORS:
        assert cls.exit_code in table, (
            f"README's exit-code table lacks {cls.exit_code} ({cls.__name__})"
        )
        assert table[cls.exit_code] == cls.code, (
            f"README says exit {cls.exit_code} is {table[cls.exit_code]!r}, the code says {cls.code!r}"
        )
    documented = {code for code in table if code >= 2}
    assert documented == {cls.exit_code for cls in ALL_ERRORS}, (
        "README lists codes that do not exist"
    )
