"""The replay page in a real browser: Debian's headless Chromium, driven by selenium.

For each example game the page is built afresh, opened from file://, moved with the
slider, the buttons, the keyboard, the turn box and the seat chooser; at every stop the
DOM (entry, current log lines, each seat's count badge, the scores) is compared with
``timeline.frame_at`` at the entry the page shows. One screenshot per game must be a
real picture (many colours), and the page must load nothing.
"""

from __future__ import annotations

import os
import time  # noqa: TID251 (the test waits for the page to play on)
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.tools import needs
from viewer_kit import COUNT_CLASS, EXAMPLES, GAMES, colours, shown_count

from arbiter.core import timeline
from arbiter.viewer.page import build

pytestmark = [
    pytest.mark.browser,
    needs("chromium", "the replay page is tested in a real browser"),
    needs("chromedriver", "selenium drives Chromium through it (Debian's chromium-driver)"),
]

READ_DOM = """
const countClass = arguments[0];
const seats = {};
document.querySelectorAll('#table [data-seat]').forEach(panel => {
  const badge = panel.querySelector('.' + countClass);
  if (badge) seats[panel.dataset.seat] = badge.textContent;
});
const scores = document.querySelector('#scores');
let table = null;
if (scores) {
  table = {};
  scores.querySelectorAll('tbody tr').forEach(tr => {
    table[tr.dataset.seat] = tr.querySelector('.score').textContent;
  });
}
const current = document.querySelectorAll('#log > li.current');
return {
  seq: Number(document.body.dataset.seq),
  viewer: document.body.dataset.viewer,
  entry: document.getElementById('entry').textContent,
  current: current.length,
  currentSeq: current.length ? Number(current[0].dataset.seq) : null,
  lines: current.length ? [...current[0].querySelectorAll('.line')].map(e => e.textContent) : [],
  counts: seats,
  scores: table,
};
"""


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if not os.environ.get("CI"):
        pytest.importorskip("selenium", reason="pip install -e '.[test]' installs selenium")
    from viewer_browser import browser

    with browser() as session:
        yield session


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for game in GAMES:
        out[game] = folder / f"{game}.html"
        out[game].write_bytes(build(EXAMPLES / game / "game").data)
    return out


def _dom(driver: Any, game: str) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(READ_DOM, COUNT_CLASS[game])
    return result


def _check(driver: Any, game: str, viewer: str | None, seq: int | None = None) -> timeline.Frame:
    """Compare the DOM with the timeline at the entry the page shows; return that frame."""
    root = EXAMPLES / game / "game"
    got = _dom(driver, game)
    if seq is not None:
        assert got["seq"] == seq
    frame = timeline.frame_at(root, str(got["seq"]), viewer)
    assert got["viewer"] == ("" if viewer is None else viewer)
    assert got["entry"].startswith(f"#{frame.seq} of ")
    assert got["current"] == 1 and got["currentSeq"] == frame.seq
    assert got["lines"] == frame.lines
    view = frame.state["view"]
    if view is None:
        assert got["counts"] == {}
    else:
        assert got["counts"] == {
            seat: str(shown_count(game, view, seat)) for seat in frame.state["seats"]
        }
    outcome = frame.state["outcome"]
    if outcome is None:
        assert got["scores"] is None
    else:
        assert got["scores"] == {seat: str(n) for seat, n in outcome["scores"].items()}
    return frame


def _press(driver: Any, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def _click(driver: Any, element_id: str) -> None:
    driver.find_element("id", element_id).click()


@pytest.mark.parametrize("game", GAMES)
def test_stepping_matches_the_timeline(driver: Any, pages: dict[str, Path], game: str) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    root = EXAMPLES / game / "game"
    spectator = list(timeline.frames(root, None))
    last = spectator[-1].seq
    driver.get(pages[game].as_uri())
    # It opens at the setup: the first entry with a table.
    opening = next(f.seq for f in spectator if f.state["view"] is not None)
    _check(driver, game, None, opening)
    # The slider (keyboard on the focused range input): to the end, then back one.
    slider = driver.find_element("id", "slider")
    slider.click()
    slider.send_keys(Keys.END)
    frame = _check(driver, game, None, last)
    assert frame.state["outcome"] is not None
    slider.send_keys(Keys.ARROW_LEFT)
    _check(driver, game, None, last - 1)
    # The keyboard on the page: arrows, Home and End.
    driver.find_element("id", "status").click()
    _press(driver, Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    _check(driver, game, None, last - 4)
    _press(driver, Keys.HOME)
    _check(driver, game, None, 0)
    _press(driver, Keys.ARROW_RIGHT)
    _check(driver, game, None, 1)
    # The buttons.
    _click(driver, "last")
    _check(driver, game, None, last)
    _click(driver, "first")
    _click(driver, "next")
    _click(driver, "next")
    _click(driver, "next")
    _click(driver, "prev")
    _check(driver, game, None, 2)
    # Jump to a turn in the middle of the game.
    turns = sorted({f.turn for f in spectator if f.turn is not None})
    turn = turns[len(turns) // 2]
    box = driver.find_element("id", "turn")
    box.clear()
    box.send_keys(str(turn))
    _click(driver, "goturn")
    wanted = timeline.frame_at(root, f"turn:{turn}", None)
    _check(driver, game, None, wanted.seq)
    # The seat chooser: the same entry as each seat saw it; a seat sees its own hand.
    chooser = Select(driver.find_element("id", "viewer"))
    for seat in spectator[-1].state["seats"]:
        chooser.select_by_value(seat)
        frame = _check(driver, game, seat, wanted.seq)
        hand = frame.state["view"]["players"][seat].get("hand")
        if hand is not None:
            shown = driver.execute_script(
                "return [...document.querySelectorAll("
                "'#table [data-seat=\"' + arguments[0] + '\"] [data-zone=hand] [data-card]')]"
                ".map(e => e.dataset.card);",
                seat,
            )
            assert shown == hand
    chooser.select_by_value("")
    _check(driver, game, None, wanted.seq)
    # The log pane shows the current entry.
    inside = driver.execute_script(
        "const pane = document.getElementById('logpane').getBoundingClientRect();"
        "const item = document.querySelector('#log > li.current').getBoundingClientRect();"
        "return item.top >= pane.top - 1 && item.top < pane.bottom;"
    )
    assert inside
    # Nothing was fetched: no resource besides the page itself.
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0


@pytest.mark.parametrize("game", GAMES)
def test_screenshot_is_a_picture(
    driver: Any, pages: dict[str, Path], game: str, tmp_path: Path
) -> None:
    driver.get(pages[game].as_uri() + "#entry=-1")
    _click(driver, "last")
    png = driver.get_screenshot_as_png()
    (tmp_path / f"replay-{game}.png").write_bytes(png)
    assert colours(png) > 40, "the screenshot is (nearly) blank"


def test_play_and_pause(driver: Any, pages: dict[str, Path]) -> None:
    driver.get(pages["mottainai"].as_uri() + "#entry=5")
    assert _dom(driver, "mottainai")["seq"] == 5
    _click(driver, "play")
    deadline = time.monotonic() + 5
    while _dom(driver, "mottainai")["seq"] < 7 and time.monotonic() < deadline:
        time.sleep(0.1)
    _click(driver, "play")
    stopped = _dom(driver, "mottainai")["seq"]
    assert stopped >= 7
    assert driver.find_element("id", "play").get_attribute("data-playing") == "no"
    time.sleep(1.0)
    _check(driver, "mottainai", None, stopped)
