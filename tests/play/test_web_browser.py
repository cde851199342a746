"""``arbiter play --web`` in a real browser: Debian's headless Chromium, driven by selenium.

A whole 2-player Momiji game is played through two pages (one server and one browser per
seat), each seat clicking its first decision until the game is over; the referee then
reveals and ``arbiter verify`` replays it. Shorter tests (in the default suite): a few
decisions through both pages, keyboard-only play, every decision's accessible name, a
stale head shown as an alert, a page that loads nothing from anywhere else, and the plain
table for an engine without a drawing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from helpers.tools import needs

from arbiter.play.session import Session
from arbiter.play.web import PlayServer

from .web_kit import Game, started_game

pytestmark = [
    pytest.mark.browser,
    needs("chromium", "the player's page is tested in a real browser"),
    needs("chromedriver", "selenium drives Chromium through it (Debian's chromium-driver)"),
]

WHOLE_GAME_ID = "play-web-6"
"""The game id of the shortest of 16 deals when each seat always takes its first decision
(56 decisions in 41 moves)."""
REFRESH = 0.1
"""How often the test servers fetch the seat's files (the product's default is 5 s)."""
WAIT = 30.0


def _browser() -> Any:
    if not os.environ.get("CI"):
        pytest.importorskip("selenium", reason="pip install -e '.[test]' installs selenium")
    from viewer.viewer_browser import browser  # the replay page tests' driver, offline

    return browser()


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with _browser() as session:
        yield session


def load(game: Game, seat: str) -> Session:
    session = Session(game.transport(seat), game.keys[seat])
    session.load()
    return session


def wait(driver: Any, test: Callable[[Any], Any], what: str, timeout: float = WAIT) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.03).until(test, what)


PAGE = """
const body = document.body;
return {
  ready: body.dataset.ready === "yes", busy: body.dataset.busy === "yes",
  version: Number(body.dataset.version || 0), seq: Number(body.dataset.seq || -1),
  status: body.dataset.status || "", open: body.dataset.open === "yes",
  picks: [...document.querySelectorAll('#picks li')].map(li => li.textContent),
  choices: document.querySelectorAll('#choices button.choice').length,
  sent: body.dataset.sent === "yes",
  statusText: document.getElementById('status').textContent,
  alert: document.getElementById('alert').textContent,
  result: !!document.getElementById('scores'),
};
"""


def page(driver: Any) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(PAGE)
    return result


def settled(driver: Any) -> dict[str, Any] | None:
    """The page once drawn and not waiting for an answer (else ``None``)."""
    shot = page(driver)
    return shot if shot["ready"] and not shot["busy"] else None


def seat_state(game: Game, seat: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((game.root / "players" / seat / "state.json").read_bytes())
    return data


def click_first_decision(driver: Any) -> None:
    from selenium.webdriver.common.by import By

    before = page(driver)
    driver.find_element(By.CSS_SELECTOR, "#choices button.choice").click()
    wait(
        driver,
        lambda d: (s := settled(d)) and len(s["picks"]) == len(before["picks"]) + 1,
        "the pick shows in the batch",
    )


def send_by_clicks(driver: Any) -> None:
    from selenium.webdriver.common.by import By

    before = page(driver)
    driver.find_element(By.ID, "send").click()
    dialog = driver.find_element(By.ID, "confirm")
    wait(driver, lambda d: dialog.get_attribute("open") is not None, "the confirmation opens")
    shown = [li.text for li in dialog.find_elements(By.CSS_SELECTOR, "#confirm-picks li")]
    assert shown == before["picks"], "the confirmation shows the whole batch"
    driver.find_element(By.ID, "confirm-send").click()
    wait(
        driver,
        lambda d: (s := settled(d)) and (s["seq"] > before["seq"] or s["sent"]),
        "the move is sent and the page shows the new state",
    )
    assert page(driver)["alert"] == ""


def play_one_move(driver: Any) -> int:
    """Click first decisions until the batch is complete, then send it; return how many."""
    picks = 0
    while page(driver)["open"]:
        click_first_decision(driver)
        picks += 1
    send_by_clicks(driver)
    return picks


def play_through_pages(game: Game, drivers: dict[str, Any], moves: int | None) -> int:
    """Let the seat on turn play by clicks in its own page, ``moves`` times (``None``:
    until the game is over); return the decisions made. The page of the seat on turn
    must come to offer its decisions by itself (the refresher and /events)."""
    decisions = 0
    done = 0
    while moves is None or done < moves:
        public = json.loads((game.root / "public" / "state.json").read_bytes())
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        driver = drivers[seat]
        seq = public["seq"]
        wait(
            driver,
            lambda d, seq=seq: (s := settled(d)) and s["seq"] == seq and s["open"],
            f"{seat}'s page offers the decisions of entry #{seq}",
        )
        decisions += play_one_move(driver)
        done += 1
    return decisions


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return started_game(tmp_path)


def open_page(driver: Any, server: PlayServer, stack: ExitStack) -> None:
    """Open the server's page (the browser's log drained first, so a test reads only its
    own page's errors); leave it before the server stops (a page polling a stopped server
    logs failed requests)."""
    driver.get_log("browser")
    driver.get(server.url)
    stack.callback(driver.get, "about:blank")
    wait(driver, settled, "the page is drawn")


def two_pages(game: Game, stack: ExitStack, first: Any) -> dict[str, Any]:
    """Serve each seat and open its page in its own browser (``first`` is reused)."""
    drivers = {"alice": first, "bob": stack.enter_context(_browser())}
    for seat, driver in drivers.items():
        server = stack.enter_context(PlayServer(load(game, seat), refresh_seconds=REFRESH))
        open_page(driver, server, stack)
    return drivers


def arbiter_cli(*args: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def no_console_errors(driver: Any) -> None:
    """Nothing failed in the page: no script error, no refused load (a CSP violation is
    logged as an error too)."""
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


# -- playing -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_whole_game_through_two_pages_then_reveal_and_verify(tmp_path: Path, driver: Any) -> None:
    game = started_game(tmp_path, WHOLE_GAME_ID)
    with ExitStack() as stack:
        drivers = two_pages(game, stack, driver)
        decisions = play_through_pages(game, drivers, None)
        assert decisions > 20
        for seat, each in drivers.items():
            wait(
                each,
                lambda d: (s := settled(d)) and s["status"] == "over" and s["result"],
                f"{seat}'s page shows the result without a reload",
            )
            assert page(each)["choices"] == 0
            assert "the game is over" in page(each)["statusText"].lower()
            no_console_errors(each)
    assert seat_state(game, "alice")["status"] == "over"
    revealed = arbiter_cli("reveal", game.root)
    assert revealed.returncode == 0, revealed.stderr
    verified = arbiter_cli("verify", game.root)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_few_moves_through_two_pages(game: Game, driver: Any) -> None:
    with ExitStack() as stack:
        drivers = two_pages(game, stack, driver)
        assert page(drivers["bob"])["choices"] == 0  # alice begins
        assert page(drivers["bob"])["statusText"].startswith("Not your turn: alice decides")
        play_through_pages(game, drivers, 3)
        for each in drivers.values():
            no_console_errors(each)
    public = json.loads((game.root / "public" / "state.json").read_bytes())
    assert public["seq"] >= 5 and public["status"] == "playing"
    verified = arbiter_cli("verify", game.root)
    assert verified.returncode == 0, verified.stdout + verified.stderr


# -- the page itself -------------------------------------------------------------------------------


@pytest.fixture
def alice_page(game: Game, driver: Any) -> Iterator[PlayServer]:
    with ExitStack() as stack:
        server = stack.enter_context(PlayServer(load(game, "alice"), refresh_seconds=0))
        open_page(driver, server, stack)
        yield server


FOCUS = """
const el = document.activeElement;
const style = getComputedStyle(el);
return {
  tag: el.tagName, id: el.id, cls: el.className, number: el.dataset.number || null,
  label: el.getAttribute('aria-label'), visible: el.matches(':focus-visible'),
  outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
};
"""


def focused(driver: Any) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(FOCUS)
    return result


def open_then_closed(game: Game) -> int:
    """The number of one of alice's first decisions that leaves her batch open."""
    session = load(game, "alice")
    for choice in session.menu():
        session.pick(choice.number)
        if session.snapshot()["open"]:
            return choice.number
        session.undo()
    raise AssertionError("every first decision closes the batch")


def test_keyboard_only_play(game: Game, driver: Any, alice_page: PlayServer) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    def press(*keys: str) -> None:
        ActionChains(driver).send_keys(*keys).perform()

    target = open_then_closed(game)  # a first pick after which the batch stays open
    for _ in range(200):
        press(Keys.TAB)
        if focused(driver)["number"] == str(target):
            break
    now = focused(driver)
    assert now["number"] == str(target), "Tab reaches every decision"
    assert now["visible"] and now["outline"] != "none" and now["width"] >= 2, "a focus ring"
    label = now["label"].split(": ", 1)[1]
    press(Keys.ENTER)
    wait(driver, lambda d: (s := settled(d)) and s["picks"] == [label], "Enter picks it")
    after = focused(driver)
    assert after["number"] == "1", "focus moves to the first of the next decisions"
    assert after["visible"], "visibly"
    second = after["label"].split(": ", 1)[1]
    press(Keys.SPACE)
    wait(driver, lambda d: (s := settled(d)) and s["picks"] == [label, second], "Space picks")
    press("u")
    wait(driver, lambda d: (s := settled(d)) and s["picks"] == [label], "u takes it back")
    # Tab to Send (Shift+Tab from the decisions, or there already), Enter, confirm with Enter.
    for _ in range(200):
        if focused(driver)["id"] == "send":
            break
        press(Keys.SHIFT, Keys.TAB) if page(driver)["choices"] else press(Keys.TAB)
    assert focused(driver)["id"] == "send"
    press(Keys.ENTER)
    assert focused(driver)["id"] == "confirm-send", "the confirmation takes the focus"
    seq = page(driver)["seq"]
    press(Keys.ENTER)
    wait(driver, lambda d: (s := settled(d)) and s["seq"] == seq + 1, "Enter sends")
    assert seat_state(game, "alice")["seq"] == seq + 1
    assert focused(driver)["id"] == "status"
    no_console_errors(driver)


ACCESSIBLE = """
return [...document.querySelectorAll('#choices button.choice')].map(b => ({
  number: b.dataset.number, label: b.getAttribute('aria-label') || '',
  kind: b.closest('section.group').querySelector('h3').textContent,
  labelledGroup: !!b.closest('section[aria-labelledby]'),
}));
"""


def test_every_decision_has_an_accessible_name(driver: Any, alice_page: PlayServer) -> None:
    from selenium.webdriver.common.by import By

    snapshot = alice_page.snapshot()
    for _ in range(2):  # before and after a pick
        rows = driver.execute_script(ACCESSIBLE)
        expected = [f"{c['number']}: {c['label']}" for c in snapshot["choices"]]
        assert [r["label"] for r in rows] == expected and all(expected)
        assert all(r["labelledGroup"] and r["kind"] for r in rows)
        buttons = driver.find_elements(By.CSS_SELECTOR, "#choices button.choice")
        # The name the browser computes (what a screen reader reads), for a sample.
        for button in buttons[:: max(1, len(buttons) // 8)]:
            assert button.accessible_name == button.get_attribute("aria-label")
            assert button.aria_role == "button"
        if not page(driver)["open"]:
            break
        click_first_decision(driver)
        snapshot = alice_page.snapshot()
    assert driver.find_element(By.ID, "status").get_attribute("role") == "status"
    assert driver.find_element(By.ID, "alert").get_attribute("role") == "alert"


def test_the_page_loads_nothing_from_elsewhere(driver: Any, alice_page: PlayServer) -> None:
    origin = f"http://127.0.0.1:{alice_page.port}/"
    click_first_decision(driver)
    names = driver.execute_script(
        "return [location.href, ...performance.getEntries()"
        ".filter(e => e.entryType === 'navigation' || e.entryType === 'resource')"
        ".map(e => e.name)]"
    )
    assert names[0] == alice_page.url and len(names) > 5  # the page, its files, the fetches
    assert [n for n in names if not n.startswith(origin)] == []
    no_console_errors(driver)


def test_a_stale_head_is_an_alert_and_signs_nothing(
    game: Game, driver: Any, alice_page: PlayServer
) -> None:
    from helpers.tables import snapshot as folder_bytes

    click_first_decision(driver)
    other = load(game, "alice")  # her move goes in from elsewhere meanwhile
    while other.snapshot()["open"]:
        other.pick(1)
    other.send()
    before = folder_bytes(game.root)
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, "send").click()
    driver.find_element(By.ID, "confirm-send").click()
    wait(driver, lambda d: (s := settled(d)) and s["alert"], "the alert says what happened")
    shot = page(driver)
    assert shot["alert"].startswith("the game moved on since your state file")
    assert shot["picks"] == [] and shot["seq"] == seat_state(game, "alice")["seq"]
    assert folder_bytes(game.root) == before


def test_an_engine_without_a_drawing_gets_the_plain_table(tmp_path: Path, driver: Any) -> None:
    from helpers.tables import started

    from .web_kit import FolderTransport

    table = started(tmp_path)  # the tally test engine: no draw_tally.js
    session = Session(FolderTransport(table.root, "alice"), table.keys["alice"])
    session.load()
    with ExitStack() as stack:
        server = stack.enter_context(PlayServer(session, refresh_seconds=0))
        open_page(driver, server, stack)
        assert driver.execute_script("return !!document.querySelector('#table table.generic')")
        if page(driver)["open"]:
            click_first_decision(driver)
        no_console_errors(driver)
