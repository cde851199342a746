"""`arbiter export` of a finished, revealed game of each engine: the same bytes every
time, a file that fits its schema, binds to the chain entry by entry, carries every
decision, and that `arbiter verify --record` accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Cli, ok
from export_kit import ENGINES
from jsonschema import Draft202012Validator

from arbiter.core.canonical import digest

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "record.schema.json"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_export_is_stable_and_verifies(
    engine: str, revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    game = revealed[engine]
    first = ok(cli("export", game)).out
    again = ok(cli("export", game)).out
    assert first == again, "the same game exports the same bytes"
    path = tmp_path / "record.json"
    said = ok(cli("export", game, "-o", path)).out
    assert said.startswith(f"wrote {path}: the record of ")
    assert path.read_text(encoding="utf-8") == first
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"], "no temporary file left"

    record = json.loads(first)
    Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8"))).validate(record)

    checked = ok(cli("verify", game, "--record", path)).out
    assert f"ok  record: {path} is exactly this game's record" in checked
    assert "verified game" in checked.splitlines()[-1]
    as_json = ok(cli("verify", game, "--record", path, "--json")).json()
    assert any(line.startswith("record: ") for line in as_json["checks"])


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_the_record_is_the_games(engine: str, revealed: dict[str, Path], cli: Cli) -> None:
    """Header from game.json, reveal.json and the public state; one entry per chain line
    with its hash, and each signed file's decisions."""
    game = revealed[engine]
    record = json.loads(ok(cli("export", game)).out)
    manifest = json.loads((game / "game.json").read_text(encoding="utf-8"))
    state = json.loads((game / "public" / "state.json").read_text(encoding="utf-8"))
    reveal = json.loads((game / "reveal" / "reveal.json").read_text(encoding="utf-8"))
    assert record["format"] == "arbiter.record/1"
    assert (record["game"], record["engine"], record["seats"], record["options"]) == (
        manifest["game"], manifest["engine"], manifest["seats"], manifest["options"],
    )  # fmt: skip
    assert record["manifest"] == digest(manifest)
    assert record["seed"] == {"commitment": manifest["commitment"], "secret": reveal["secret"]}
    assert (record["event"], record["round"], record["table"]) == (None, None, None)
    assert record["date"] == {"start": manifest["created"], "end": None}  # no deadlines
    assert record["terms"] == {
        "join": True, "sealed": False, "deadline": None, "takebacks": "none", "substitutes": False,
    }  # fmt: skip
    assert record["result"]["status"] == "over"
    assert record["result"]["outcome"] == state["outcome"]
    chain = lines(game / "chain.jsonl")
    last = chain[-1]["seq"]
    assert record["result"]["reason"] == {
        "kind": "end", "entry": last, "seat": None,
        "text": f"The game ended by its rules at entry #{last}.",
    }  # fmt: skip
    assert record["head"] == reveal["head"] == chain[-1]["hash"]

    timeline = record["timeline"]
    assert [e["seq"] for e in timeline] == [e["seq"] for e in chain]
    signed = [None, *lines(game / "reveal" / "signed.jsonl")]
    prev = None
    for entry, line, file in zip(timeline, chain, signed, strict=True):
        for name in ("kind", "seat", "digest", "hash", "summary"):
            assert entry[name] == line[name], (entry["seq"], name)
        # Self-contained: each hash is recomputed from the record alone (docs/chain.md §4).
        hashed = {name: entry[name] for name in ("digest", "kind", "seat", "seq", "summary")}
        assert digest({**hashed, "format": "arbiter.chain/1", "prev": prev}) == entry["hash"]
        prev = entry["hash"]
        if entry["kind"] == "move":
            assert file is not None and entry["actions"] == file["actions"]
            assert entry["seat"] == file["seat"]
        if entry["kind"] == "join":
            assert file is not None and entry["entropy"] == file["entropy"]
    moves = [e for e in timeline if e["kind"] == "move"]
    assert moves and all(e["summary"] for e in moves), "each move says what happened"
