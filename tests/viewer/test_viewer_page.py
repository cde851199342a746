"""The replay page without a browser: what it embeds, what it must not, and its bytes.

The leak tests check two things. The embedded data decodes to exactly the page's viewers'
frames (so it holds nothing else, at any step). And the file is grepped for the hidden
card ids, computed from the timeline (viewer_kit.hidden_ids): every card id some other
viewer saw that the page's viewer never did. Mottainai's ids name one card each, so its
hands give such ids; Momiji's codes name a value of a type, of which several copies
exist and most end up in sight, so for Momiji the decoding is the proof.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from regenerate import pages
from viewer_kit import EXAMPLES, GAMES, hidden_ids

from arbiter.core import timeline
from arbiter.viewer import payload
from arbiter.viewer.page import build, embedded, script_json

EXTERNAL = re.compile(r"https?:|//cdn|@import|url\(|<link|\bsrc\s*=|<iframe|<object|<embed", re.I)


def _expected(root: Path, viewer: str | None) -> list[dict[str, object]]:
    return [
        {
            "seq": f.seq,
            "kind": f.kind,
            "seat": f.seat,
            "turn": f.turn,
            "state": payload.trimmed(f.state),
            "lines": f.lines,
        }
        for f in timeline.frames(root, viewer)
    ]


def _absent(text: str, ids: set[str]) -> None:
    found = sorted(i for i in ids if f'"{i}"' in text)
    assert not found, f"hidden card ids in the page: {found}"


@pytest.mark.parametrize("game", GAMES)
def test_page_is_self_contained(game: str) -> None:
    text = build(EXAMPLES / game / "game").html
    assert not EXTERNAL.findall(text)
    assert text.count("<script") == 2  # the data, then the inline code
    assert text.count("<style>") == 1


@pytest.mark.parametrize("game", GAMES)
def test_page_embeds_exactly_every_viewers_frames(game: str) -> None:
    root = EXAMPLES / game / "game"
    data = embedded(build(root).html)
    assert data["viewers"] == timeline.viewers(root)
    decoded = payload.decode(data)
    for viewer in data["viewers"]:
        assert decoded[viewer] == _expected(root, viewer)


# The 3-seat Wutai example: in the 2-seat one, the deck ran out and alice saw every card.
@pytest.mark.parametrize("game", ["mottainai-wutai", "momiji"])
def test_a_seats_page_holds_nothing_the_seat_did_not_see(game: str) -> None:
    root = EXAMPLES / game / "game"
    seats = timeline.viewers(root)[1:]
    page = build(root, seats[0])
    data = embedded(page.html)
    assert data["viewers"] == [seats[0]]
    assert payload.decode(data) == {seats[0]: _expected(root, seats[0])}
    hidden = hidden_ids(root, [seats[0]], [None, *seats[1:]])
    assert hidden or game == "momiji", "the other hands must hold cards this seat never saw"
    _absent(page.html, hidden)


@pytest.mark.parametrize("engine", ["mottainai", "momiji"])
def test_a_page_before_the_reveal_is_the_spectators_alone(
    before_reveal: dict[str, tuple[Path, Path]], engine: str
) -> None:
    referee_copy, revealed = before_reveal[engine]
    page = build(referee_copy)
    data = embedded(page.html)
    assert data["viewers"] == [None]
    assert payload.decode(data) == {None: _expected(referee_copy, None)}
    seats = timeline.viewers(revealed)[1:]
    hidden = hidden_ids(revealed, [None], seats)
    assert hidden or engine == "momiji", "the hands must hold cards nobody else saw"
    _absent(page.html, hidden)


def test_a_seats_page_before_the_reveal_is_refused(
    before_reveal: dict[str, tuple[Path, Path]],
) -> None:
    from arbiter.core.errors import NotReady

    with pytest.raises(NotReady, match="after the reveal"):
        build(before_reveal["momiji"][0], "alice")


def test_the_examples_pages_are_up_to_date() -> None:
    for path, data in pages().items():
        assert path.is_file(), f"{path} is missing: run python tests/viewer/regenerate.py"
        assert path.read_bytes() == data, (
            f"{path} is out of date: run python tests/viewer/regenerate.py"
        )


def test_script_json_cannot_close_its_script() -> None:
    text = script_json({"line": "</script><script>alert(1)</script> <!-- \u2028"})
    assert "<" not in text and "\u2028" not in text
    assert __import__("json").loads(text)["line"].startswith("</script>")


def test_deltas_round_trip() -> None:
    old = {"a": 1, "b": {"c": [1, 2], "d": "x"}, "gone": True}
    new = {"a": 1, "b": {"c": [1, 2, 3], "e": None}, "new": {"f": []}}
    ops = payload.diff(old, new)
    assert payload.patch(old, ops) == new
    assert payload.diff(new, new) == []
    assert payload.patch({}, payload.diff({}, new)) == new


def test_published_copy_before_the_reveal_has_nothing_to_replay(
    before_reveal: dict[str, tuple[Path, Path]], tmp_path: Path
) -> None:
    from arbiter.core.errors import NotReady

    copy = tmp_path / "published"
    shutil.copytree(before_reveal["momiji"][0], copy)
    shutil.rmtree(copy / "referee")
    with pytest.raises(NotReady, match="secret until the reveal"):
        build(copy)
