"""No input ends in a traceback: real files mutated, through every command and engine.

Each example takes a file the referee wrote (a state file, a move or join file,
``game.json``, ``chain.jsonl``, a log, a receipt...), edits it (``fuzz.mutate``) and runs
the command that reads it, in this process (``fuzz.targets``). Whatever the edit: an exit
code from the documented table, one ``arbiter: error:`` line when it fails, no
traceback, and the game folder byte for byte unchanged (a command that writes may change
it by succeeding, and, refusing, only the derived files it heals first).

The default run tries a few examples of every command on every engine (Wutai Mountain
included), the same ones every time; ``-m slow`` tries many more, and
``benchmarks/fuzz.py`` a million (docs/fuzzing.md).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz import corpus as corpora
from fuzz import targets

FLAVOURS = sorted(corpora.FLAVOURS)


class Draws:
    """Choices drawn by hypothesis: a failing case shrinks to small choices."""

    def __init__(self, data: st.DataObject):
        self.data = data

    def below(self, n: int) -> int:
        return self.data.draw(st.integers(0, n - 1)) if n > 1 else 0


def check(command: str, flavour: str, data: st.DataObject) -> None:
    case = targets.make(command, corpora.get(flavour), Draws(data))
    outcome = case.run()
    assert not outcome.problems, f"{case.argv}\n{outcome.report()}"


QUICK = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
THOROUGH = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("command", targets.COMMANDS)
@QUICK
@given(data=st.data())
def test_a_mutated_file_gets_one_line_and_a_documented_code(
    command: str, flavour: str, data: st.DataObject
) -> None:
    check(command, flavour, data)


@pytest.mark.slow
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("command", targets.COMMANDS)
@THOROUGH
@given(data=st.data())
def test_many_mutated_files_get_one_line_and_a_documented_code(
    command: str, flavour: str, data: st.DataObject
) -> None:
    check(command, flavour, data)
