"""``arbiter.core.timeline``: each entry as one viewer saw it, for the replay tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from replay_kit import EXAMPLES, GAMES

from arbiter.core import timeline
from arbiter.core.canonical import pretty
from arbiter.core.errors import NotReady, UsageError
from arbiter.core.gamedir import GameDir


def _chain(root: Path) -> list[dict]:
    return [json.loads(line) for line in (root / "chain.jsonl").read_text().splitlines()]


def _log_entry(path: Path, seq: int) -> list[str]:
    tag = f"- `#{seq}` "
    return [line[len(tag):] for line in path.read_text().splitlines() if line.startswith(tag)]


@pytest.mark.parametrize("game", GAMES)
def test_the_last_frame_of_every_viewer_is_the_published_state_file(game):
    root = EXAMPLES / game / "game"
    gd = GameDir(root)
    seats = [s["seat"] for s in json.loads(gd.manifest.read_text())["seats"]]
    assert timeline.viewers(root) == [None, *seats]
    for viewer in timeline.viewers(root):
        frames = list(timeline.frames(root, viewer))
        assert [f.seq for f in frames] == list(range(len(_chain(root))))
        last = frames[-1]
        published = gd.public_state if viewer is None else gd.seat_state(viewer)
        assert pretty(last.state) == published.read_bytes()
        # The same keys in the same order as the file read back (a renderer walks them).
        assert json.dumps(last.state) == json.dumps(json.loads(published.read_bytes()))
        log = gd.public_log if viewer is None else gd.seat_log(viewer)
        for frame in (frames[0], frames[len(frames) // 2], last):
            assert frame.lines == _log_entry(log, frame.seq)
        assert timeline.frame_at(root, "-1", viewer) == last


@pytest.mark.parametrize("game", GAMES)
def test_frame_at_by_number_from_the_end_and_by_turn(game):
    root = EXAMPLES / game / "game"
    chain = _chain(root)
    frames = list(timeline.frames(root, None))
    last = len(chain) - 1
    assert timeline.last_entry(root) == last
    for at, seq in (("0", 0), ("7", 7), (str(last), last), ("-1", last), (f"-{last + 1}", 0)):
        frame = timeline.frame_at(root, at, None)
        assert frame == frames[seq]
        assert (frame.kind, frame.seat) == (chain[seq]["kind"], chain[seq]["seat"])
        assert frame.state["seq"] == seq and frame.state["head"] == chain[seq]["hash"]
    turns = [f.turn for f in frames]
    for k in sorted({t for t in turns if t is not None}):
        frame = timeline.frame_at(root, f"turn:{k}", None)
        assert frame.seq == turns.index(k) and frame.turn == k
    assert turns[-1] == max(t for t in turns if t is not None)
    assert turns[0] is None  # the game is not set up before the joins


def test_turns_follow_each_engines_public_view():
    for game, read in (
        ("mottainai", lambda view: view["turn"]),
        ("momiji", lambda view: view["turn"]["number"]),
        ("motcoin", lambda view: view["round"]),
    ):
        for frame in timeline.frames(EXAMPLES / game / "game", None):
            view = frame.state["view"]
            assert frame.turn == (None if view is None else read(view)), (game, frame.seq)


_LAST = len((EXAMPLES / "mottainai" / "game" / "chain.jsonl").read_text().splitlines()) - 1
_TURNS = timeline.frame_at(EXAMPLES / "mottainai" / "game", "-1", None).turn
"""The Mottainai example's last entry and turn (the figures follow the example)."""


@pytest.mark.parametrize(
    ("at", "words"),
    [
        (
            str(_LAST + 1),
            f"entry {_LAST + 1} is out of range: this game has entries 0 to {_LAST} "
            f"(or -1 to -{_LAST + 1} from the end)",
        ),
        (str(-_LAST - 2), f"entry {-_LAST - 2} is out of range"),
        ("turn:0", f"turn 0 is out of range: this game has turns 1 to {_TURNS}"),
        (f"turn:{_TURNS + 1}", f"turn {_TURNS + 1} is out of range"),
        ("turn:x", "write turn:K"),
        ("seven", "give an entry number N"),
        ("", "give an entry number N"),
    ],
)
def test_an_entry_or_turn_out_of_range_is_a_usage_error(at, words):
    with pytest.raises(UsageError, match=words.replace("(", r"\(").replace(")", r"\)")):
        timeline.frame_at(EXAMPLES / "mottainai" / "game", at, None)


def test_an_unknown_seat_is_a_usage_error():
    with pytest.raises(UsageError, match="'zed' is not a seat of this game: choose one of alice, bob"):
        timeline.frame_at(EXAMPLES / "mottainai" / "game", "3", "zed")
    with pytest.raises(UsageError):
        timeline.frames(EXAMPLES / "mottainai" / "game", "zed")


def test_frames_are_independent_of_the_live_table():
    root = EXAMPLES / "mottainai" / "game"
    kept = list(timeline.frames(root, "alice"))
    for frame in (kept[3], kept[20]):
        assert frame == timeline.frame_at(root, str(frame.seq), "alice")


# -- before the reveal ---------------------------------------------------------------


def test_before_the_reveal_the_referee_replays_the_spectator(unrevealed):
    gd = GameDir(unrevealed)
    assert timeline.viewers(unrevealed) == [None]
    frames = list(timeline.frames(unrevealed, None))
    assert pretty(frames[-1].state) == gd.public_state.read_bytes()
    assert frames[5] == timeline.frame_at(unrevealed, "5", None)
    assert frames[-1].lines == _log_entry(gd.public_log, frames[-1].seq)


def test_before_the_reveal_a_seat_is_refused_but_for_its_own_head(unrevealed):
    gd = GameDir(unrevealed)
    message = "before the reveal only the spectator's view can be replayed"
    with pytest.raises(NotReady, match=message):
        timeline.frames(unrevealed, "alice")
    with pytest.raises(NotReady, match=message):
        timeline.frame_at(unrevealed, "3", "alice")
    with pytest.raises(NotReady, match=message):
        timeline.frame_at(unrevealed, "turn:2", "alice")
    head = timeline.frame_at(unrevealed, "-1", "alice")
    assert pretty(head.state) == gd.seat_state("alice").read_bytes()
    assert head.lines == _log_entry(gd.seat_log("alice"), head.seq)
    assert head.turn == timeline.frame_at(unrevealed, "-1", None).turn
    gd.seat_state("alice").unlink()  # a seat without its file (a sealed game) sees nothing
    with pytest.raises(NotReady, match=message):
        timeline.frame_at(unrevealed, "-1", "alice")


def test_a_published_copy_shows_only_the_head(unrevealed, published):
    gd = GameDir(published)
    last = timeline.last_entry(published)
    head = timeline.frame_at(published, str(last), None)
    assert pretty(head.state) == gd.public_state.read_bytes()
    assert head.lines == _log_entry(gd.public_log, last)
    assert pretty(timeline.frame_at(published, "-1", "bob").state) == gd.seat_state("bob").read_bytes()
    for at in ("0", str(last - 1), "turn:1"):
        with pytest.raises(NotReady, match="the seed is secret until the reveal"):
            timeline.frame_at(published, at, None)
    with pytest.raises(NotReady, match="the seed is secret until the reveal"):
        timeline.frames(published, None)


def test_a_stale_state_file_on_disk_is_not_shown_as_the_head(published):
    gd = GameDir(published)
    state = json.loads(gd.public_state.read_text())
    state["seq"] -= 1
    gd.public_state.write_bytes(pretty(state))
    with pytest.raises(NotReady, match="not at the chain head"):
        timeline.frame_at(published, "-1", None)


def test_after_the_reveal_every_seat(unrevealed):
    from arbiter.core.referee import reveal

    reveal(unrevealed)
    gd = GameDir(unrevealed)
    assert timeline.viewers(unrevealed) == [None, "alice", "bob"]
    frames = list(timeline.frames(unrevealed, "bob"))
    assert pretty(frames[-1].state) == gd.seat_state("bob").read_bytes()


# -- timeouts ------------------------------------------------------------------------


def test_a_timeout_entry_is_a_frame(tmp_path):
    from helpers.tables import REFEREE_SEED, SECRET, make_keys

    from arbiter.core import deadlines
    from arbiter.core.referee import new_game, reveal, timeout

    names = ["alice", "bob"]
    keys = make_keys(tmp_path / "keys", names)
    start = "2026-01-01T00:00:00Z"
    root = tmp_path / "game"
    new_game(
        root, "tally", [(s, f"{keys[s]}.pub") for s in names], {"cards": "8", "hand": "2"},
        join=False, game_id="timeline-clock", created=start, secret=SECRET,
        referee_seed=REFEREE_SEED, deadline=86400, grace=0, on_timeout="forfeit",
    )
    timed_out = timeout(root, deadlines.add(start, 2 * 86400)).timed_out
    assert timed_out is not None
    with pytest.raises(NotReady):
        timeline.frames(root, "alice")
    reveal(root)
    gd = GameDir(root)
    frame = timeline.frame_at(root, "-1", timed_out.seat)
    assert (frame.kind, frame.seat, frame.state["status"]) == ("timeout", timed_out.seat, "over")
    assert frame.lines == [f"{timed_out.seat} did not decide in time and forfeits: the game ends."]
    assert frame.state["outcome"]["ranking"][-1] == [timed_out.seat]
    assert pretty(frame.state) == gd.seat_state(timed_out.seat).read_bytes()
    assert frame.turn == 1  # the tally view has no turn number: the prompted seat counts


def test_frames_go_on_after_a_pass_timeout(tmp_path, monkeypatch):
    """A pass timeout takes the seat's whole turn; the moves after it replay as usual."""
    from helpers.tables import REFEREE_SEED, SECRET, Table, make_keys

    from arbiter.core.referee import new_game, reveal, timeout

    names = ["alice", "bob"]
    keys = make_keys(tmp_path / "keys", names)
    root = tmp_path / "game"
    new_game(
        root, "tally", [(s, f"{keys[s]}.pub") for s in names], {"cards": "8", "hand": "2"},
        join=False, game_id="timeline-pass", created="2026-01-01T00:00:00Z", secret=SECRET,
        referee_seed=REFEREE_SEED, deadline=86400, grace=0, on_timeout="pass",
    )
    table = Table(root, keys, names, tmp_path / "out")
    monkeypatch.setenv("ARBITER_NOW", "2026-01-01T01:00:00Z")
    table.step()
    assert timeout(root, "2026-01-03T00:00:00Z").timed_out is not None
    monkeypatch.setenv("ARBITER_NOW", "2026-01-03T01:00:00Z")
    table.play_to_end()
    reveal(root)
    gd = GameDir(root)
    kinds = [frame.kind for frame in timeline.frames(root, "bob")]
    assert kinds[:3] == ["genesis", "move", "timeout"] and set(kinds[3:]) == {"move"}
    for viewer in timeline.viewers(root):
        last = list(timeline.frames(root, viewer))[-1]
        published = gd.public_state if viewer is None else gd.seat_state(viewer)
        assert pretty(last.state) == published.read_bytes()
    frame = timeline.frame_at(root, "2", None)
    assert frame.lines[0].endswith("did not decide in time: the referee takes the default decision.")
    turns = [f.turn for f in timeline.frames(root, None)]
    assert turns[:3] == [1, 2, 3]  # alice, bob (who times out), alice again


@pytest.mark.parametrize("game", GAMES)
def test_frames_for_several_viewers_equal_one_replay_each(game):
    root = EXAMPLES / game / "game"
    chosen = timeline.viewers(root)
    together = timeline.frames_for(root, chosen)
    for viewer in chosen:
        assert together[viewer] == list(timeline.frames(root, viewer))
