"""The tournament's live page for spectators (issue 28 item 8): ``tournament report
--site DIR [--public-delay 24h]``.

One Mottainai tournament of 4 players at 2-player tables with deadlines is built once:
round 1's first game is played out and revealed; the second is running, with entries at
three times (joins and four decisions long ago, four decisions in the last hours), so a
24-hour delay must cut it between them. Time is the referee's clock, set with
ARBITER_NOW for every submit and every report. The browser tests open the site in
Debian's headless Chromium, as the replay page's tests do.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.tools import needs

from arbiter.cli.main import run
from arbiter.core import timeline
from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import submit
from arbiter.spectate import delay as delays
from arbiter.spectate.delay import Entry
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import pair_next
from arbiter.viewer import payload
from arbiter.viewer.glossary import strings_in
from arbiter.viewer.page import embedded
from tournament.kit import play_out, players_file

NAMES = ["alice", "bob", "carol", "dave"]
CREATED = "2026-03-01T10:00:00Z"
JOINED = "2026-03-01T11:00:00Z"
OLD = "2026-03-01T12:00:00Z"
"""Four decisions of the running game, two days before NOW."""
NEW = "2026-03-03T10:00:00Z"
"""Four more, two hours before NOW: within the delay."""
NOW = "2026-03-03T12:00:00Z"
DAY = 86400


@dataclass
class Cup:
    root: Path
    finished: Path
    running: Path
    cut: int
    """The last entry of the running game older than 24 h at NOW."""
    public_at_cut: dict[str, Any]
    """public/state.json as it stood right after that entry."""
    hands: set[str]
    """Card ids in the running game's seats' hands at the cut and at the head."""
    later: list[str]
    """The public log lines of the entries after the cut."""


def _decide(game: Path, keys: dict[str, Path], count: int, name: str) -> None:
    """``count`` decisions, one a file, each the first legal one of the prompted seat."""
    gd = GameDir(game)
    for n in range(count):
        seat = load_state(gd.public_state)["prompt"]["seat"]
        state = load_state(gd.seat_state(seat))
        move = make_move(state, keys[seat], [state["legal"][0]])
        submit(game, pretty(move), f"{name}-{n}.json")


def _hands(gd: GameDir) -> set[str]:
    seats = load_state(gd.public_state)["seats"]
    out: set[str] = set()
    for seat in seats:
        view = load_state(gd.seat_state(seat))["view"]
        out.update(view["players"][seat]["hand"])
    return out


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Cup:
    base = tmp_path_factory.mktemp("site")
    players, keys = players_file(base, NAMES)
    root = base / "cup"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARBITER_NOW", CREATED)
        create(
            root, engine="mottainai", players=read(players), options={}, pairing="swiss",
            rounds=2, table_size=2, terms=Terms(deadline=72 * 3600, grace=DAY, on_timeout="pass"),
            tournament_id="cup", created=CREATED, organiser_seed=b"o" * 32,
        )  # fmt: skip
        first, second = pair_next(root, CREATED, seed=b"cup").round.tables
        finished, running = root / first.folder, root / second.folder
        play_out(finished, keys, "site")
        gd = GameDir(running)
        patch.setenv("ARBITER_NOW", JOINED)
        for seat in second.seats:
            submit(running, pretty(make_join(gd.manifest, seat, keys[seat])), f"join-{seat}.json")
        patch.setenv("ARBITER_NOW", OLD)
        _decide(running, keys, 4, "old")
        public_at_cut = load_state(gd.public_state)
        hands = _hands(gd)
        patch.setenv("ARBITER_NOW", NEW)
        _decide(running, keys, 4, "new")
        hands |= _hands(gd)
    cut = public_at_cut["seq"]
    chain = [json.loads(line) for line in gd.chain.read_text().splitlines()]
    assert [e["time"] for e in chain[cut:cut + 2]] == [OLD, NEW]  # fmt: skip
    shown = {line for e in chain[: cut + 1] for line in e["summary"]}
    later = [line for e in chain[cut + 1 :] for line in e["summary"] if line not in shown]
    assert later, "the decisions after the cut must say something new"
    return Cup(root, finished, running, cut, public_at_cut, hands, later)


def cli(*args: Any, now: str = NOW) -> tuple[int, str, str]:
    """Run ``arbiter ARGS...`` in this process with the referee's clock at ``now``."""
    out, err = io.StringIO(), io.StringIO()
    with (
        pytest.MonkeyPatch.context() as patch,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.raises(SystemExit) as info,
    ):
        patch.setenv("ARBITER_NOW", now)
        run([str(arg) for arg in args])
    code = info.value.code
    return (0 if code is None else int(code)), out.getvalue(), err.getvalue()


def report(cup: Cup, site: Path, *extra: Any, now: str = NOW) -> dict[str, Any]:
    code, out, err = cli(
        "tournament", "report", cup.root, "--site", site, *extra, "--json", now=now
    )
    assert code == 0, (out, err)
    return dict(json.loads(out))


def files(site: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()
    }


def texts(site: Path) -> dict[str, str]:
    """Each file as a reader finds it: HTML unescaped, and every string a page embeds."""
    out = {}
    for name, data in files(site).items():
        text = data.decode()
        extra = ""
        if name.startswith("games/"):
            extra = "\n".join(strings_in(embedded(text)))
        out[name] = "\n".join([text, html.unescape(text), extra])
    return out


def frames(page: Path) -> list[dict[str, Any]]:
    return payload.decode(embedded(page.read_text()))[None]


def row(index: str, game: str) -> str:
    start = index.index(f'<tr data-game="{game}">')
    return html.unescape(index[start : index.index("</tr>", start)])


# -- the delay ---------------------------------------------------------------------------


def test_a_running_games_page_shows_only_entries_older_than_the_delay(
    cup: Cup, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    made = report(cup, site, "--public-delay", "24h")
    assert made["site"]["now"] == NOW and made["site"]["public_delay"] == DAY
    shown = frames(site / "games/cup-r1-t2.html")
    assert [f["seq"] for f in shown] == list(range(cup.cut + 1))
    # The last entry shown is the public state.json exactly as it stood after it.
    public = {k: v for k, v in cup.public_at_cut.items() if k not in payload.DROPPED}
    assert shown[-1]["state"] == public
    # No line of the later entries anywhere in the site (the finished game's own log
    # names other seats, so it cannot hold them either).
    for name, text in texts(site).items():
        for line in cup.later:
            assert line not in text, (name, line)
    index = (site / "index.html").read_text()
    assert f"shown 1d behind: up to entry #{cup.cut} ({OLD})" in row(index, "cup-r1-t2")
    assert "entries up to 2026-03-02T12:00:00Z" in html.unescape(index)
    data = json.loads((site / "site.json").read_bytes())
    assert data["shown_until"] == "2026-03-02T12:00:00Z"
    replay = data["rounds"][0]["tables"][1]["replay"]
    assert (replay["page"], replay["upto"], replay["time"]) == (
        "games/cup-r1-t2.html",
        cup.cut,
        OLD,
    )


def test_time_moves_the_cut_and_a_game_not_yet_old_enough_is_hidden(
    cup: Cup, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    later = "2026-03-05T12:00:00Z"  # every entry is a day old by then
    report(cup, site, "--public-delay", "24h", now=later)
    head = timeline.last_entry(cup.running)
    assert [f["seq"] for f in frames(site / "games/cup-r1-t2.html")] == list(range(head + 1))
    made = report(cup, site, "--public-delay", "30d", now=later)
    assert made["site"]["without_page"] == ["cup-r1-t2"]
    assert not (site / "games/cup-r1-t2.html").exists()  # the old page is gone with it
    assert "hidden: no entry is 30d old yet" in row((site / "index.html").read_text(), "cup-r1-t2")


def test_without_a_delay_the_running_game_is_live(cup: Cup, tmp_path: Path) -> None:
    site = tmp_path / "site"
    report(cup, site)
    head = timeline.last_entry(cup.running)
    assert frames(site / "games/cup-r1-t2.html")[-1]["seq"] == head
    assert "live: every entry so far" in row((site / "index.html").read_text(), "cup-r1-t2")


def test_a_running_game_without_deadlines_is_hidden_whole_by_a_delay(tmp_path: Path) -> None:
    """Its entries carry no time, so no entry can be shown to be old enough."""
    players, keys = players_file(tmp_path, ["erin", "frank"])
    root = tmp_path / "open"
    create(
        root, engine="tally", players=read(players), options={"cards": "8", "hand": "1"},
        pairing=None, rounds=1, table_size=2,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"), tournament_id="open",
        created=CREATED, organiser_seed=b"p" * 32,
    )  # fmt: skip
    (table,) = pair_next(root, CREATED, seed=b"open").round.tables
    game = root / table.folder
    for seat in table.seats:
        submit(game, pretty(make_join(GameDir(game).manifest, seat, keys[seat])), f"{seat}.json")
    site = tmp_path / "site"
    code, out, err = cli("tournament", "report", root, "--site", site, "--public-delay", "1h")
    assert code == 0, err
    assert "no page yet for open-r1-t1" in out
    assert not (site / "games/open-r1-t1.html").exists()
    note = row((site / "index.html").read_text(), "open-r1-t1")
    assert "hidden until it ends: its entries carry no time" in note
    assert cli("tournament", "report", root, "--site", site)[0] == 0  # no delay: live
    assert (site / "games/open-r1-t1.html").is_file()


def test_a_published_copy_has_no_running_replay_to_show(cup: Cup, tmp_path: Path) -> None:
    root = tmp_path / "cup"
    shutil.copytree(cup.root, root)
    for private in [root / "organiser", *root.glob("games/*/referee")]:
        shutil.rmtree(private)  # what the organiser publishes
    site = tmp_path / "site"
    code, out, err = cli("tournament", "report", root, "--site", site)
    assert code == 0, err
    assert "no page yet for cup-r1-t2" in out
    assert sorted(files(site)) == ["games/cup-r1-t1.html", "index.html", "site.json"]
    assert "no replay before the reveal in this copy" in row(
        (site / "index.html").read_text(), "cup-r1-t2"
    )


def test_the_delay_rules() -> None:
    timed = [Entry(0, "2026-01-01T00:00:00Z", "h0"), Entry(1, "2026-01-02T00:00:00Z", "h1"),
             Entry(2, "2026-01-01T12:00:00Z", "h2"), Entry(3, "2026-01-03T00:00:00Z", "h3")]  # fmt: skip
    now = "2026-01-03T06:00:00Z"
    # A prefix: entry 2 is old enough, but it comes after entry 1, which is not.
    got = delays.shown(timed, False, now, 36 * 3600)
    assert (got.upto, got.time, got.hash) == (0, "2026-01-01T00:00:00Z", "h0")
    assert delays.shown(timed, False, now, DAY).upto == 2
    assert delays.shown(timed, False, now, 6 * 3600).upto == 3
    assert delays.shown(timed, False, now, 3 * DAY).upto is None
    assert delays.shown(timed, True, now, 3 * DAY).upto == 3  # finished: whole, at once
    assert delays.shown(timed, False, now, None).upto == 3  # no delay: live
    untimed = [Entry(0, None, "h0"), Entry(1, None, "h1")]
    hidden = delays.shown(untimed, False, now, 60)
    assert hidden.upto is None and "no time" in hidden.note and "until it ends" in hidden.note
    assert delays.shown(untimed, True, now, 60).upto == 1


# -- the index ---------------------------------------------------------------------------


def test_the_index_shows_the_standings_the_waiting_seat_and_its_deadline(
    cup: Cup, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    report(cup, site, "--public-delay", "24h")
    index = (site / "index.html").read_text()
    code, out, err = cli("status", cup.running, "--json")
    assert code == 0, err
    clock = json.loads(out)["deadline"]
    assert (clock["due"], clock["final"]) == ("2026-03-06T10:00:00Z", "2026-03-07T10:00:00Z")
    running = row(index, "cup-r1-t2")
    assert (
        f"{clock['seat']} has until {clock['due']}, grace until {clock['final']}; then pass"
        in running
    )
    assert "<td>playing</td>" in running
    # The standings: the tie-break columns of the report, the same rows as standings.json.
    standings = json.loads((cup.root / "standings.json").read_bytes())["standings"]
    data = json.loads((site / "site.json").read_bytes())
    assert data["standings"] == standings
    assert data["columns"][:3] == ["rank", "player", "points"] and "game score" in data["columns"]
    assert data["rounds"][0]["tables"][1]["deadline"] == {
        k: clock[k] for k in ("seat", "due", "final", "policy", "overdue", "timeout_owed")
    }
    # Later, the same seat is overdue, and says so.
    report(cup, site, "--public-delay", "24h", now="2026-03-06T12:00:00Z")
    late = row((site / "index.html").read_text(), "cup-r1-t2")
    assert f"{clock['seat']} is overdue since {clock['due']}, in the grace until" in late


def test_a_finished_game_links_to_its_whole_replay(cup: Cup, tmp_path: Path) -> None:
    site = tmp_path / "site"
    report(cup, site, "--public-delay", "24h")
    finished = row((site / "index.html").read_text(), "cup-r1-t1")
    assert 'href="games/cup-r1-t1.html"' in finished and "the whole game" in finished
    assert "<td>over</td>" in finished and "(+2)" in finished
    data = embedded((site / "games/cup-r1-t1.html").read_text())
    seats = load_state(GameDir(cup.finished).public_state)["seats"]
    assert data["viewers"] == [None, *seats]  # revealed: every seat's view, as arbiter html
    assert len(data["entries"]) == timeline.last_entry(cup.finished) + 1


# -- what the site may hold --------------------------------------------------------------


def test_nothing_private_reaches_the_site(cup: Cup, tmp_path: Path) -> None:
    site = tmp_path / "site"
    report(cup, site, "--public-delay", "24h")
    seen = {s for f in timeline.frames(cup.running, None) for s in strings_in(f.state)}
    private = cup.hands - seen  # in a hand, never on the public table up to the head
    assert private
    secret = (cup.running / "referee/secret").read_text().strip()
    keys = [cup.root / "organiser/key", cup.running / "referee/key", cup.finished / "referee/key"]
    key_lines = {line for k in keys for line in k.read_text().splitlines() if len(line) > 20}
    assert key_lines
    embedded_running = set(strings_in(embedded((site / "games/cup-r1-t2.html").read_text())))
    assert not private & embedded_running
    for name, text in texts(site).items():
        assert secret not in text, name
        assert not [line for line in key_lines if line in text], name
        assert str(tmp_path) not in text and str(cup.root) not in text, name  # no paths
        if not name.startswith("games/cup-r1-t1"):  # another deal: its own card ids
            assert not [card for card in private if json.dumps(card) in text], name


def test_pages_are_self_contained_with_a_strict_policy(cup: Cup, tmp_path: Path) -> None:
    site = tmp_path / "site"
    report(cup, site, "--public-delay", "24h")
    for name in ("index.html", "games/cup-r1-t1.html", "games/cup-r1-t2.html"):
        text = (site / name).read_text()
        policy = html.unescape(text.split('http-equiv="Content-Security-Policy" content="')[1])
        assert policy.startswith("default-src 'none'; ")
        assert "unsafe" not in policy.split('"')[0]
        for outside in ("http://", "https://", "src=", "<link", "@import", "url("):
            assert outside not in text, (name, outside)


# -- writing it again --------------------------------------------------------------------


def test_the_same_folder_and_clock_give_the_same_bytes(cup: Cup, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    report(cup, one, "--public-delay", "24h")
    first = files(one)
    inodes = {name: (one / name).stat().st_ino for name in first}
    report(cup, one, "--public-delay", "24h")
    assert files(one) == first
    # Nothing changed, nothing was rewritten (a web server serving it sees no change).
    assert {name: (one / name).stat().st_ino for name in first} == inodes
    report(cup, two, "--public-delay", "24h")
    assert files(two) == first
    # A damaged page is built again, not reused.
    page = one / "games/cup-r1-t1.html"
    page.write_bytes(page.read_bytes().replace(b"<title>", b"<title>x"))
    report(cup, one, "--public-delay", "24h")
    assert files(one) == first


def test_only_its_own_stale_pages_are_removed(cup: Cup, tmp_path: Path) -> None:
    site = tmp_path / "site"
    report(cup, site)
    (site / "README.txt").write_text("the organiser's own file\n")
    (site / "games/notes.html").write_text("<p>mine</p>\n")
    (site / "games/cup-r9-t9.html").write_text("a page of a game the tournament lost\n")
    report(cup, site, "--public-delay", "30d")
    assert sorted(files(site)) == [
        "README.txt", "games/cup-r1-t1.html", "games/notes.html", "index.html", "site.json",
    ]  # fmt: skip


def test_the_standings_files_may_share_the_site_folder(cup: Cup, tmp_path: Path) -> None:
    site = tmp_path / "public"
    for _ in range(2):
        code, out, err = cli("tournament", "report", cup.root, "-o", site, "--site", site)
        assert code == 0, (out, err)
    assert {"standings.md", "standings.html", "standings.json", "index.html"} <= set(files(site))


def test_a_folder_that_is_not_its_site_is_refused(cup: Cup, tmp_path: Path) -> None:
    def refused(*args: Any) -> str:
        code, out, err = cli("tournament", "report", cup.root, *args)
        assert code == 2, (out, err)
        assert err.startswith("arbiter: error: ") and err.count("\n") == 1, err
        return err

    other = tmp_path / "other"
    other.mkdir()
    (other / "index.html").write_text("someone else's page\n")
    assert "holds no site written by `tournament report`" in refused("--site", other)
    assert (other / "index.html").read_text() == "someone else's page\n"
    foreign = tmp_path / "foreign"
    report(cup, foreign)
    data = json.loads((foreign / "site.json").read_bytes())
    (foreign / "site.json").write_text(json.dumps({**data, "tournament": "another"}))
    assert "holds the site of tournament 'another', not cup" in refused("--site", foreign)
    assert "inside" in refused("--site", cup.root / "games/site")
    assert not (cup.root / "games/site").exists()
    assert "--public-delay is for the site" in refused("--public-delay", "24h")
    assert "--public-delay '5 hours'" in refused(
        "--site", tmp_path / "s", "--public-delay", "5 hours"
    )


def test_the_tournament_still_verifies_with_its_site_inside(cup: Cup, tmp_path: Path) -> None:
    root = tmp_path / "cup"
    shutil.copytree(cup.root, root)
    code, out, err = cli(
        "tournament", "report", root, "--site", root / "site", "--public-delay", "24h"
    )
    assert code == 0, err
    code, out, err = cli("tournament", "verify", "-j", "1", root)
    assert code == 0, (out, err)


# -- in a browser ------------------------------------------------------------------------

needs_chromium = needs("chromium", "the site is tested in a real browser")
needs_chromedriver = needs(
    "chromedriver", "selenium drives Chromium through it (Debian's chromium-driver)"
)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if not os.environ.get("CI"):
        pytest.importorskip("selenium", reason="pip install -e '.[test]' installs selenium")
    from viewer.viewer_browser import browser as chromium  # the replay page tests' driver

    with chromium() as session:
        yield session


def _loaded_cleanly(driver: Any) -> None:
    """No script error and no refused load (a CSP violation is a console error too), and
    nothing fetched besides the page itself."""
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0


def _seq(driver: Any) -> int:
    return int(driver.execute_script("return document.body.dataset.seq"))


@pytest.mark.browser
@needs_chromium
@needs_chromedriver
@pytest.mark.parametrize("game", ["cup-r1-t1", "cup-r1-t2"])
def test_in_chromium_the_index_links_to_pages_that_replay(
    cup: Cup, tmp_path_factory: pytest.TempPathFactory, driver: Any, game: str
) -> None:
    site = tmp_path_factory.mktemp("browser") / "site"
    report(cup, site, "--public-delay", "24h")
    driver.get_log("browser")  # only this test's page's messages
    driver.get((site / "index.html").as_uri())
    assert driver.find_element("css selector", "h1").text == "cup"
    names = driver.execute_script(
        "return [...document.querySelectorAll('#standings tbody tr td:nth-child(2)')]"
        ".map(e => e.textContent)"
    )
    assert sorted(names) == NAMES
    _loaded_cleanly(driver)
    driver.find_element("css selector", f'tr[data-game="{game}"] a').click()
    assert driver.current_url == (site / "games" / f"{game}.html").as_uri()
    driver.find_element("id", "last").click()
    head = timeline.last_entry(cup.finished) if game == "cup-r1-t1" else cup.cut
    assert _seq(driver) == head
    assert driver.find_elements("css selector", "#table [data-seat]")  # the table is drawn
    _loaded_cleanly(driver)
