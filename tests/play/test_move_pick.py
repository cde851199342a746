"""``arbiter moves --json`` and ``arbiter move --pick/--card`` (issue 26, item 4): the
scripted path numbers and names decisions as ``arbiter play`` does and builds the same
batch, pick by pick."""

from __future__ import annotations

import json

from helpers.tables import snapshot

from arbiter.core.player import load_state
from arbiter.core.viewcheck import known_engine
from arbiter.play.preview import Batch

from .kit import real_game


def _first_seat(table):
    seat = table.turn()
    return seat, table.gd.seat_state(seat)


def test_moves_json_numbers_with_cards(tmp_path, cli):
    table = real_game(tmp_path, "mottainai")
    _, path = _first_seat(table)
    ran = cli("moves", path, "--json")
    assert ran.code == 0, ran.err
    listed = json.loads(ran.out)
    state = load_state(path)
    assert [c["number"] for c in listed] == list(range(1, len(state["legal"]) + 1))
    assert [c["action"] for c in listed] == state["legal"]
    task = next(c for c in listed if c["kind"] == "task")
    assert task["cards"][0]["name"] and task["cards"][0]["type"] and task["cards"][0]["text"]


def test_pick_by_number_and_name_builds_the_play_batch(tmp_path, cli):
    table = real_game(tmp_path, "mottainai")
    seat, path = _first_seat(table)
    state = load_state(path)
    engine = known_engine(state)
    # The same picks in the preview: a task by name, then the first decision each time.
    hand = state["view"]["players"][seat]["hand"]
    task = next(a for a in state["legal"] if a.get("card") == hand[0])
    batch = Batch(engine, state)
    batch.pick(task)
    while batch.open and len(batch.picks) < 3:
        batch.pick(batch.legal()[0])
    from arbiter.play.cards import card_info

    name = card_info("mottainai", hand[0], state["view"]).name
    picks = ["--card", name.upper()] + ["--pick", "1"] * (len(batch.picks) - 1)
    out = tmp_path / "move.json"
    ran = cli("move", path, "--key", table.keys[seat], *picks, "-o", out)
    assert ran.code == 0, ran.err
    move = json.loads(out.read_text())
    assert move["actions"] == batch.picks and move["after"] == state["head"]
    accepted = table.submit_bytes(out.read_bytes())
    assert accepted.seq == state["seq"] + 1


def test_pick_errors_are_one_line_and_write_nothing(tmp_path, cli):
    table = real_game(tmp_path, "mottainai")
    seat, path = _first_seat(table)
    before = snapshot(tmp_path)
    out = tmp_path / "move.json"
    cases = [
        (["--pick", "task"], "--pick 1: 'task' could mean"),
        (["--pick", "zzz"], "--pick 1: no decision is called 'zzz': try "),
        (["--pick", "99"], "--pick 1: there is no decision 99"),
        (["--pick", "1", "--action", '{"kind": "no_task"}'], "either as --pick or as --action"),
    ]
    for args, said in cases:
        ran = cli("move", path, "--key", table.keys[seat], *args, "-o", out)
        assert ran.code == 2, (args, ran.err)
        assert said in ran.err and ran.err.count("\n") == 1, ran.err
    assert snapshot(tmp_path) == before
    other = next(s for s in table.seats if s != seat)
    ran = cli("move", table.gd.seat_state(other), "--key", table.keys[other], "--pick", "1",
              "-o", out)
    assert ran.code == 11 and f"it is {seat}'s turn" in ran.err
    assert snapshot(tmp_path) == before


def test_pick_past_the_barrier_is_refused(tmp_path, cli):
    table = real_game(tmp_path, "momiji")
    seat, path = _first_seat(table)
    state = load_state(path)
    batch = Batch(known_engine(state), state)
    while batch.open:
        batch.pick(batch.legal()[0])
    picks = ["--pick", "1"] * (len(batch.picks) + 1)
    ran = cli("move", path, "--key", table.keys[seat], *picks, "-o", tmp_path / "m.json")
    assert ran.code == 2 and "goes past the end of the batch" in ran.err, ran.err
