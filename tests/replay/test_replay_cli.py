"""``arbiter replay GAME --at N [--seat S] [--json] [--plain/--pictures]``."""

from __future__ import annotations

import json

import pytest
from cli.clikit import error_line, ok
from replay_kit import EXAMPLES, GAMES

from arbiter.core import timeline

MOTTAINAI = EXAMPLES / "mottainai" / "game"
CHAIN = [json.loads(line) for line in (MOTTAINAI / "chain.jsonl").read_text().splitlines()]
LAST = len(CHAIN) - 1
"""The example's last entry (the figures below follow the example, whatever game it is)."""
TURNS = timeline.frame_at(MOTTAINAI, "-1", None).turn
VERSION = json.loads((MOTTAINAI / "game.json").read_text())["engine"]["version"]


@pytest.mark.parametrize("game", GAMES)
def test_json_is_the_frames_state_file(cli, game):
    root = EXAMPLES / game / "game"
    for at, seat in (("3", None), ("-1", "alice"), ("turn:2", "bob")):
        args = ["replay", root, "--at", at, "--json"] + (["--seat", seat] if seat else [])
        assert ok(cli(*args)).json() == timeline.frame_at(root, at, seat).state
    head = ok(cli("replay", root, "--json", "--seat", "bob")).json()
    assert head == json.loads((root / "players" / "bob" / "state.json").read_text())


def test_the_header_and_the_entrys_log_lines(cli):
    frame = timeline.frame_at(MOTTAINAI, "20", "bob")
    out = ok(cli("replay", MOTTAINAI, "--at", "20", "--seat", "bob", "--plain")).out.splitlines()
    assert out[0] == f"entry #20 of {LAST} (turn {frame.turn}) — move by {CHAIN[20]['seat']}"
    assert out[1].startswith(f"demo-0ec1e07d9b8d · mottainai {VERSION} · seen by bob · entry #20")
    tail = out.index("bob's log, entry #20:")
    assert out[tail + 1 :] == [f"  {line}" for line in frame.lines]
    genesis = ok(cli("replay", MOTTAINAI, "--at", "0", "--plain")).out.splitlines()
    assert genesis[0] == f"entry #0 of {LAST} — genesis"
    assert genesis[-2:] == [
        f"  Game demo-0ec1e07d9b8d created: mottainai {VERSION} for alice, bob.",
        "  Waiting for every seat to join with fresh entropy.",
    ]


@pytest.mark.parametrize("game", GAMES)
def test_plain_at_the_head_is_show_of_the_published_file(cli, game):
    root = EXAMPLES / game / "game"
    for seat, path in ((None, root / "public" / "state.json"), ("alice", root / "players" / "alice" / "state.json")):
        shown = ok(cli("show", path)).out.splitlines()
        assert ok(cli("show", path, "--plain")).out.splitlines() == shown
        args = ["replay", root, "--at", "-1", "--plain"] + (["--seat", seat] if seat else [])
        replayed = ok(cli(*args)).out.splitlines()
        frame = timeline.frame_at(root, "-1", seat)
        assert replayed[1 : -1 - len(frame.lines)] == shown


def test_negative_entries_and_turns(cli):
    by_number = ok(cli("replay", MOTTAINAI, "--at", str(-LAST - 1), "--json")).json()
    assert by_number["seq"] == 0
    by_turn = ok(cli("replay", MOTTAINAI, "--at", "turn:5", "--plain")).out
    assert by_turn.startswith(f"entry #{timeline.frame_at(MOTTAINAI, 'turn:5', None).seq} of {LAST} (turn 5)")


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["--at", str(LAST + 1)], 2, f"entry {LAST + 1} is out of range: this game has entries 0 to {LAST}"),
        (["--at", str(-LAST - 2)], 2, f"entry {-LAST - 2} is out of range"),
        (["--at", "turn:99"], 2, f"turn 99 is out of range: this game has turns 1 to {TURNS}"),
        (["--at", "last"], 2, "give an entry number N"),
        (["--seat", "zed"], 2, "'zed' is not a seat of this game"),
    ],
)
def test_errors_are_one_line_with_their_exit_code(cli, args, code, words):
    assert words in error_line(cli("replay", MOTTAINAI, *args), code)


def test_a_missing_folder_is_not_ready(cli, tmp_path):
    assert "is not a game folder" in error_line(cli("replay", tmp_path / "nothing"), 17)


def test_before_the_reveal(cli, unrevealed):
    spectator = ok(cli("replay", unrevealed, "--at", "4", "--json")).json()
    assert spectator == timeline.frame_at(unrevealed, "4", None).state
    err = error_line(cli("replay", unrevealed, "--at", "4", "--seat", "alice"), 17)
    assert "before the reveal only the spectator's view can be replayed" in err
    own = ok(cli("replay", unrevealed, "--seat", "alice", "--json")).json()
    assert own == json.loads((unrevealed / "players" / "alice" / "state.json").read_text())


def test_a_published_copy_before_the_reveal(cli, published):
    ok(cli("replay", published, "--at", "-1", "--plain"))
    err = error_line(cli("replay", published, "--at", "2"), 17)
    assert "the seed is secret until the reveal" in err


def test_help_names_the_forms_of_at_and_the_plain_default(cli):
    out = ok(cli("replay", "--help")).out
    assert "turn:K" in out and "--plain" in out and "terminal" in out
    assert "terminal" in ok(cli("show", "--help")).out
