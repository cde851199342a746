"""`arbiter verify GAME --record FILE` refuses a record that is not exactly the game's,
with verify's exit code for a mismatch (16) and one line naming the first place that
differs. Each tampered record is written as arbiter writes records (sorted, indented), so
only its content differs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Cli, error_line, ok

from arbiter.core.canonical import pretty

Record = dict[str, Any]


def _first(record: Record, kind: str) -> Record:
    return next(e for e in record["timeline"] if e["kind"] == kind)


def change_an_action(record: Record) -> str:
    move = _first(record, "move")
    action = move["actions"][0]
    # Another value of the first member besides "kind" (a card, a count...).
    name = next(n for n in sorted(action) if n != "kind")
    value = action[name]
    action[name] = value + 1 if isinstance(value, int) else f"{value}x"
    return (
        f"record entry #{move['seq']}: the actions differ from the chain's (at actions[0].{name})"
    )


def drop_an_entry(record: Record) -> str:
    seq = _first(record, "move")["seq"] + 1
    del record["timeline"][seq]
    return f"record entry #{seq} is missing: the record goes from entry #{seq - 1} to #{seq + 1}"


def swap_the_seats(record: Record) -> str:
    record["seats"].reverse()
    return "record header: the seats differ from the game's (at seats[0]."


def edit_the_result(record: Record) -> str:
    outcome = record["result"]["outcome"]
    outcome["ranking"].reverse()
    outcome["winners"] = outcome["ranking"][0]
    return "record header: the result differs from the game's (at result.outcome.ranking[0][0])"


def edit_a_summary(record: Record) -> str:
    move = _first(record, "move")
    move["summary"][0] = "Nothing happened."
    return f"record entry #{move['seq']}: the summary differs from the chain's (at summary[0])"


def cut_the_end(record: Record) -> str:
    last = record["timeline"].pop()["seq"]
    return f"the record ends after entry #{last - 1}; the chain goes on to entry #{last}"


def add_an_entry(record: Record) -> str:
    last = record["timeline"][-1]
    record["timeline"].append({**last, "seq": last["seq"] + 1})
    return f"the record has entries after entry #{last['seq']}, the chain's last"


def add_a_member(record: Record) -> str:
    move = _first(record, "move")
    move["undone_by"] = 1
    return f"record entry #{move['seq']}: the takeback that undid it is not in the chain's"


def give_an_event(record: Record) -> str:
    """Outside a tournament the event is the exporter's word: the game cannot contradict it."""
    record["event"] = "Friday club"
    return ""


TAMPERINGS: list[Callable[[Record], str]] = [
    change_an_action,
    drop_an_entry,
    swap_the_seats,
    edit_the_result,
    edit_a_summary,
    cut_the_end,
    add_an_entry,
    add_a_member,
]


@pytest.fixture(scope="module")
def exported(revealed: dict[str, Path]) -> dict[str, Record]:
    """Each engine's record, as `arbiter export` writes it."""
    from arbiter.export.record import export

    return {engine: json.loads(export(game, None, None, None)) for engine, game in revealed.items()}


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_a_tampered_record_is_refused_naming_the_place(
    tamper: Callable[[Record], str],
    exported: dict[str, Record],
    revealed: dict[str, Path],
    cli: Cli,
    tmp_path: Path,
) -> None:
    record = json.loads(json.dumps(exported["mottainai"]))
    expected = tamper(record)
    path = tmp_path / "record.json"
    path.write_bytes(pretty(record))
    said = error_line(cli("verify", revealed["mottainai"], "--record", path), 16)
    assert expected in said, said


def test_an_event_outside_a_tournament_is_the_exporters_word(
    exported: dict[str, Record], revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    record = json.loads(json.dumps(exported["momiji"]))
    give_an_event(record)
    path = tmp_path / "record.json"
    path.write_bytes(pretty(record))
    ok(cli("verify", revealed["momiji"], "--record", path))


def test_a_record_of_another_game_is_refused(
    exported: dict[str, Record], revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(pretty(exported["momiji"]))
    said = error_line(cli("verify", revealed["mottainai"], "--record", path), 16)
    other, this = exported["momiji"]["game"], exported["mottainai"]["game"]
    assert f"record header: the record is of game {other}, not of this game ({this})" in said


def test_the_same_content_in_other_bytes_is_refused(
    exported: dict[str, Record], revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    """The record is identified by its bytes, like reveal.json: re-indented, it says so."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(exported["momiji"], indent=4), encoding="utf-8")
    said = error_line(cli("verify", revealed["momiji"], "--record", path), 16)
    assert "holds the game's record, but not written as arbiter writes it" in said


def test_a_file_that_is_no_record_is_refused(
    revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    path.write_text('{"format": "arbiter.move/1"}\n', encoding="utf-8")
    said = error_line(cli("verify", revealed["momiji"], "--record", path), 16)
    assert "it is not a game record as arbiter writes it" in said
    path.write_text("{", encoding="utf-8")
    said = error_line(cli("verify", revealed["momiji"], "--record", path), 16)
    assert "is not valid JSON" in said
    said = error_line(cli("verify", revealed["momiji"], "--record", tmp_path / "none.json"), 17)
    assert "not found" in said
