"""`arbiter move` refuses another seat's key when the state file sits in its game folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.tables import started

from arbiter.cli.main import run


def _run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        run([str(a) for a in args])
    return int(info.value.code or 0), capsys.readouterr().err


def test_another_seats_key_is_refused_before_signing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = started(tmp_path)
    seat = table.turn()
    other = next(s for s in table.seats if s != seat)
    state = table.gd.seat_state(seat)
    code, err = _run(
        capsys,
        "move",
        state,
        "--key",
        table.keys[other],
        "--action",
        '{"kind": "draw"}',
        "-o",
        tmp_path / "m.json",
    )
    assert code == 2 and f"not the key registered for seat {seat}" in err
    assert not (tmp_path / "m.json").exists()
    code, _ = _run(
        capsys,
        "move",
        state,
        "--key",
        table.keys[seat],
        "--action",
        '{"kind": "draw"}',
        "-o",
        tmp_path / "m.json",
    )
    assert code == 0 and (tmp_path / "m.json").is_file()


def test_a_state_file_received_alone_signs_and_the_referee_judges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = started(tmp_path)
    seat = table.turn()
    other = next(s for s in table.seats if s != seat)
    alone = tmp_path / "inbox" / "state.json"
    alone.parent.mkdir()
    shutil.copy(table.gd.seat_state(seat), alone)
    code, _ = _run(
        capsys,
        "move",
        alone,
        "--key",
        table.keys[other],
        "--action",
        '{"kind": "draw"}',
        "-o",
        tmp_path / "m.json",
    )
    assert code == 0
    code, err = _run(capsys, "submit", table.gd.root, tmp_path / "m.json")
    assert code == 7 and "another key" in err
