"""``arbiter play --web``'s server without a browser: who may ask it what, and what it does.

Each test serves a real 2-player Momiji game (``web_kit``) and talks HTTP to it with
``http.client``, which lets a test send any ``Host`` and ``Origin`` a hostile page could.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import snapshot as folder_bytes

from arbiter.play.session import Session
from arbiter.play.web import PlayServer, serve
from arbiter.play.web import server as web_server

from .web_kit import Game, started_game


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return started_game(tmp_path)


def session(game: Game, seat: str) -> Session:
    out = Session(game.transport(seat), game.keys[seat])
    out.load()
    return out


@pytest.fixture
def alice(game: Game) -> Iterator[PlayServer]:
    """Alice's page (her turn first); the game moves only when a test moves it."""
    with PlayServer(session(game, "alice"), refresh_seconds=0) as server:
        yield server


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        assert self.headers["content-type"].startswith("application/json"), self.headers
        return json.loads(self.body)


def call(
    server: PlayServer,
    method: str,
    path: str,
    body: Any = None,
    *,
    host: str | None = None,
    origin: str | None = "page",
    content_type: str = "application/json",
    timeout: float = 30,
) -> Answer:
    """``path`` is relative to the page (``snapshot``), or absolute (``/x``) to leave the
    token out. ``origin="page"``: the page's own origin on a POST; ``None``: no header."""
    port = server.port
    headers = {"Host": host or f"127.0.0.1:{port}"}
    if method == "POST":
        if origin is not None:
            headers["Origin"] = f"http://127.0.0.1:{port}" if origin == "page" else origin
        headers["Content-Type"] = content_type
    data = None if body is None else json.dumps(body).encode()
    if method == "POST" and data is None:
        data = b"{}"
    target = path if path.startswith("/") else f"/{server.token}/{path}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, target, body=data, headers=headers)
        response = connection.getresponse()
        got = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, got)
    finally:
        connection.close()


def pick_until_closed(server: PlayServer) -> dict[str, Any]:
    """Pick the first decision until the batch is complete; return the last snapshot."""
    shot = call(server, "GET", "snapshot").json()
    while shot["open"]:
        answer = call(server, "POST", "pick", {"number": 1})
        assert answer.status == 200, answer.body
        shot = answer.json()
    return shot


def play_turn(game: Game, seat: str) -> None:
    """Let ``seat`` pick first decisions and send, from another session, until another
    seat decides."""
    other = session(game, seat)
    while other.state["prompt"]["seat"] == seat:
        while other.snapshot()["open"]:
            other.pick(1)
        other.send()
        other.refresh()


# -- who may ask ----------------------------------------------------------------------------


def test_the_url_is_loopback_with_a_long_random_token(alice: PlayServer) -> None:
    assert alice.url.startswith(f"http://127.0.0.1:{alice.port}/")
    assert alice.url == f"http://127.0.0.1:{alice.port}/{alice.token}/"
    assert len(alice.token) >= 43  # 32 random bytes, base64url
    assert alice.token != PlayServer(alice.session).token


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_without_the_token_every_request_is_an_empty_404(alice: PlayServer, method: str) -> None:
    wrong = alice.token[:-1] + ("A" if alice.token[-1] != "A" else "B")
    for path in (
        "/",
        "/snapshot",
        "/pick",
        f"/{wrong}/",
        f"/{wrong}/snapshot",
        f"/{wrong}/pick",
        f"/{alice.token[:10]}/snapshot",
        f"/x/{alice.token}/snapshot",
        f"/{wrong}/static/page.js",
        "/favicon.ico",
    ):
        answer = call(alice, method, path, {"number": 1} if method == "POST" else None)
        assert (answer.status, answer.body) == (404, b""), path
    assert call(alice, "GET", "snapshot").json()["picks"] == []


def test_the_page_and_its_headers(alice: PlayServer) -> None:
    answer = call(alice, "GET", "")
    assert answer.status == 200
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert answer.headers["content-security-policy"].startswith("default-src 'self'")
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-content-type-options"] == "nosniff"
    page = answer.body.decode()
    assert "<script>" not in page and "<script " in page  # scripts by src only (the CSP)
    assert 'src="static/draw_momiji.js"' in page
    redirect = call(alice, "GET", f"/{alice.token}")
    assert redirect.status == 308 and redirect.headers["location"] == f"/{alice.token}/"


def test_another_host_name_is_refused(alice: PlayServer) -> None:
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1."""
    port = alice.port
    for host in (f"evil.example:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}", f"[::1]:{port}"):
        answer = call(alice, "GET", "snapshot", host=host)
        assert (answer.status, answer.body) == (403, b""), host
        assert call(alice, "POST", "pick", {"number": 1}, host=host).status == 403
    assert call(alice, "GET", "snapshot", host=f"localhost:{port}").status == 200
    assert call(alice, "GET", "snapshot").json()["picks"] == []


def test_a_post_from_another_origin_is_refused(alice: PlayServer) -> None:
    port = alice.port
    for origin in (
        "http://evil.example",
        f"http://127.0.0.1:{port + 1}",
        "null",
        None,
        f"https://127.0.0.1:{port}",
    ):
        for what in ("pick", "undo", "send"):
            answer = call(alice, "POST", what, {"number": 1}, origin=origin)
            assert (answer.status, answer.body) == (403, b""), (origin, what)
    # A form cannot post JSON: anything else is refused before it is read.
    assert call(alice, "POST", "pick", {"number": 1}, content_type="text/plain").status == 415
    assert call(alice, "GET", "snapshot").json()["picks"] == []
    assert call(alice, "POST", "pick", {"number": 1}).status == 200


def test_static_files_are_the_packages_only(alice: PlayServer) -> None:
    for name, kind in (
        ("page.js", "text/javascript"),
        ("page.css", "text/css"),
        ("viewer.css", "text/css"),
        ("draw_momiji.js", "text/javascript"),
    ):
        answer = call(alice, "GET", f"static/{name}")
        assert answer.status == 200 and answer.headers["content-type"].startswith(kind), name
    for path in (
        "static/../snapshot",
        "static/../../../../etc/passwd",
        "static/%2e%2e/server.py",
        "static/..%2fserver.py",
        "static/viewer.html",
        "static/viewer.js",
        "static/page.html",
        "static/__init__.py",
        "static/",
        "static//etc/passwd",
        "static/%2fetc%2fpasswd",
        "static/static/page.js",
        "../server.py",
    ):
        answer = call(alice, "GET", path)
        assert (answer.status, answer.body) == (404, b""), path


def test_nothing_returned_holds_the_key(game: Game, alice: PlayServer) -> None:
    key = game.keys["alice"]
    secret_lines = [line for line in key.read_text().splitlines() if "PRIVATE KEY" not in line]
    forbidden = [str(key), key.name + "\n", *secret_lines]
    answers = [call(alice, "GET", ""), call(alice, "GET", "snapshot")]
    answers += [call(alice, "GET", f"static/{name}") for name in alice.files]
    answers.append(call(alice, "POST", "pick", {"number": 1}))
    answers.append(call(alice, "POST", "undo"))
    pick_until_closed(alice)
    answers.append(call(alice, "POST", "send"))
    assert answers[-1].status == 200
    for answer in answers:
        text = answer.body.decode()
        for secret in forbidden:
            assert secret not in text


# -- playing ----------------------------------------------------------------------------------


def test_pick_undo_send_round_trip_is_accepted_by_the_referee(
    game: Game, alice: PlayServer
) -> None:
    first = call(alice, "GET", "snapshot").json()
    assert first["state"]["seat"] == "alice" and first["open"] and first["choices"]
    assert first["waiting"] is None
    version = first["version"]
    label = first["choices"][0]["label"]
    picked = call(alice, "POST", "pick", {"number": 1}).json()
    assert picked["picks"] == [label] and picked["version"] > version
    undone = call(alice, "POST", "undo").json()
    assert undone["picks"] == [] and undone["choices"] == first["choices"]
    by_name = call(alice, "POST", "pick", {"name": label}).json()
    assert by_name["picks"] == [label]
    shot = pick_until_closed(alice)
    assert not shot["open"] and shot["closed_because"] and shot["choices"] == []
    chain_before = (game.root / "chain.jsonl").read_text().count("\n")
    sent = call(alice, "POST", "send").json()
    assert sent["delivered"]["decisions"] == len(shot["picks"])
    assert sent["delivered"]["where"].startswith("submitted to game as entry #")
    assert (game.root / "chain.jsonl").read_text().count("\n") == chain_before + 1
    # The page shows the new state at once (a desk has it), with a fresh batch.
    now = json.loads((game.root / "players" / "alice" / "state.json").read_bytes())
    assert sent["state"] == now and now["seq"] == first["state"]["seq"] + 1
    assert sent["picks"] == [] and sent["sent"] is None


def test_errors_come_back_as_json_with_their_class(game: Game, alice: PlayServer) -> None:
    answer = call(alice, "POST", "pick", {"number": 999})
    assert answer.status == 400
    assert answer.json()["code"] == "usage" and answer.json()["exit"] == 2
    assert "there is no decision 999" in answer.json()["error"]
    answer = call(alice, "POST", "pick", {"name": "no such card anywhere"})
    assert answer.status == 400 and answer.json()["error"].startswith("no decision is called")
    assert call(alice, "POST", "pick", {"number": True}).status == 400
    assert call(alice, "POST", "pick", {}).status == 400
    assert call(alice, "POST", "send").json()["error"] == "pick at least one decision first"
    with PlayServer(session(game, "bob"), refresh_seconds=0) as bob:
        answer = call(bob, "POST", "pick", {"number": 1})
        assert answer.status == 409
        assert answer.json()["code"] == "out-of-turn" and answer.json()["exit"] == 11
        assert answer.json()["error"].startswith("not your turn: alice decides")


def test_a_stale_head_signs_nothing(game: Game, alice: PlayServer) -> None:
    pick_until_closed(alice)
    # Alice's move goes in from elsewhere (another window, the terminal) meanwhile.
    other = session(game, "alice")
    while other.snapshot()["open"]:
        other.pick(1)
    other.send()
    before = folder_bytes(game.root)
    transport = alice.session.transport
    answer = call(alice, "POST", "send")
    assert answer.status == 409
    body = answer.json()
    assert body["code"] == "stale" and body["exit"] == 8
    assert body["error"].startswith("the game moved on since your state file")
    assert "nothing was signed" in body["error"]
    assert body["story"], "what happened since is shown"
    assert folder_bytes(game.root) == before
    assert getattr(transport, "delivered", None) == []
    shot = call(alice, "GET", "snapshot").json()
    now = json.loads((game.root / "players" / "alice" / "state.json").read_bytes())
    assert shot["picks"] == [] and shot["state"] == now


def test_an_action_on_a_table_the_page_no_longer_shows_is_refused(
    game: Game, alice: PlayServer
) -> None:
    """The page names the head it drew, and a send the picks it confirmed: a batch the
    game replaced while the player looked is never read against the new one."""
    first = call(alice, "GET", "snapshot").json()
    head = first["state"]["head"]
    answer = call(alice, "POST", "pick", {"number": 1, "head": "0" * 64})
    assert answer.status == 409 and answer.json()["code"] == "stale"
    assert answer.json()["error"].startswith("the table changed while you were deciding")
    assert call(alice, "GET", "snapshot").json()["picks"] == []
    shot = pick_until_closed(alice)
    before = folder_bytes(game.root)
    answer = call(alice, "POST", "send", {"head": head, "picks": len(shot["picks"]) + 1})
    assert answer.status == 409
    assert answer.json()["error"].startswith("your batch changed while you were confirming")
    assert folder_bytes(game.root) == before, "nothing was signed or sent"
    sent = call(alice, "POST", "send", {"head": head, "picks": len(shot["picks"])}).json()
    assert sent["delivered"]["decisions"] == len(shot["picks"])


def test_a_fetch_begun_before_the_pages_send_does_not_take_the_page_back(
    game: Game, alice: PlayServer
) -> None:
    """The background fetch runs outside the session's lock. One that read the files
    before the page's own send, and is taken after it, must not put the page back on the
    head the game has left (it once dropped a confirmed batch: a browser test's flake)."""
    transport = alice.session.transport
    real_fetch = transport.fetch
    fetched = threading.Event()

    def fetch_then_signal() -> Any:
        files = real_fetch()
        if threading.current_thread() is poke:
            fetched.set()
        return files

    pick_until_closed(alice)
    transport.fetch = fetch_then_signal  # type: ignore[method-assign]
    moved: list[bool] = []
    poke = threading.Thread(target=lambda: moved.append(alice.poke()))
    with alice._lock:  # the page's request holds the lock, as act() does
        poke.start()
        assert fetched.wait(10), "the background fetch read the files"
        sent = alice._act("send", {})  # waits for the fetch, then sends and takes the new
    poke.join(10)
    assert moved == [False]
    now = json.loads((game.root / "players" / "alice" / "state.json").read_bytes())
    shot = call(alice, "GET", "snapshot").json()
    assert sent["delivered"] and shot["state"] == now


def test_an_older_state_file_never_replaces_a_newer_one(game: Game, alice: PlayServer) -> None:
    """A lagging copy (a slow mirror) of the seat's files is not taken."""
    transport = alice.session.transport
    old = transport.fetch()
    pick_until_closed(alice)
    call(alice, "POST", "send")
    newer = call(alice, "GET", "snapshot").json()["state"]
    transport.fetch = lambda: old  # type: ignore[method-assign]
    assert alice.poke() is False
    assert call(alice, "GET", "snapshot").json()["state"] == newer


# -- keeping up ---------------------------------------------------------------------------------


def test_the_long_poll_wakes_when_a_new_state_arrives(game: Game) -> None:
    with PlayServer(session(game, "bob"), refresh_seconds=0.05, poll_seconds=20) as bob:
        first = call(bob, "GET", "snapshot").json()
        assert first["waiting"].startswith("not your turn")
        woke: list[Answer] = []
        poll = threading.Thread(
            target=lambda: woke.append(call(bob, "GET", f"events?after={first['version']}"))
        )
        poll.start()
        poll.join(0.3)
        assert poll.is_alive(), "nothing changed yet: the poll waits"
        play_turn(game, "alice")
        poll.join(10)
        assert not poll.is_alive() and woke[0].status == 200
        assert woke[0].json()["version"] > first["version"]
        shot = call(bob, "GET", "snapshot").json()
        for _ in range(20):  # alice may have sent several moves: each wakes the poll
            if shot["waiting"] is None:
                break
            call(bob, "GET", f"events?after={shot['version']}")
            shot = call(bob, "GET", "snapshot").json()
        assert shot["waiting"] is None and shot["choices"]
        assert shot["story"] and shot["state"]["seq"] > first["state"]["seq"]


def test_the_long_poll_answers_when_nothing_changes(game: Game) -> None:
    with PlayServer(session(game, "bob"), refresh_seconds=0, poll_seconds=0.2) as bob:
        version = bob.version
        answer = call(bob, "GET", f"events?after={version}")
        assert answer.json() == {"version": version}
        assert call(bob, "GET", "events?after=0").json() == {"version": version}


def test_stop_ends_a_waiting_long_poll(game: Game) -> None:
    server = PlayServer(session(game, "bob"), refresh_seconds=0, poll_seconds=60).__enter__()
    woke: list[Answer] = []
    poll = threading.Thread(
        target=lambda: woke.append(call(server, "GET", f"events?after={server.version}"))
    )
    poll.start()
    poll.join(0.2)
    server.stop()
    poll.join(10)
    assert not poll.is_alive()


# -- serve() -----------------------------------------------------------------------------------


def test_serve_prints_the_url_opens_it_and_stops_on_ctrl_c(
    game: Game, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    said: list[str] = []
    opened: list[str] = []
    fetched: list[int] = []

    def until_ctrl_c() -> None:
        url = said[0].split()[-1]
        port = int(url.split(":")[2].split("/")[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", url.split(str(port), 1)[1] + "snapshot")
        fetched.append(connection.getresponse().status)
        connection.close()
        raise KeyboardInterrupt

    def browser(uri: str) -> None:
        # The browser is given a private file that sends it on: the token is not in argv.
        path = Path(uri.removeprefix("file://"))
        assert path.stat().st_mode & 0o077 == 0
        opened.append(path.read_text())
        opened.append(uri)

    monkeypatch.setattr(web_server, "wait_for_ctrl_c", until_ctrl_c)
    monkeypatch.setattr(web_server.webbrowser, "open", browser)
    serve(session(game, "alice"), refresh_seconds=0.05, say=said.append)
    url = said[0].split()[-1]
    assert url.startswith("http://127.0.0.1:") and fetched == [200]
    assert f'content="0;url={url}"' in opened[0] and url not in opened[1]
    assert opened[1].startswith("file:///") and not Path(opened[1][7:]).exists()
    token = url.rstrip("/").rsplit("/", 1)[1]
    err = capfd.readouterr().err
    assert token not in err  # nothing logged: request lines hold the token
    opened.clear()
    said.clear()
    serve(session(game, "alice"), open_browser=False, refresh_seconds=0, say=said.append)
    assert opened == []


def test_requests_are_not_logged(alice: PlayServer, capfd: pytest.CaptureFixture[str]) -> None:
    call(alice, "GET", "")
    call(alice, "GET", "snapshot")
    call(alice, "POST", "pick", {"number": 1})
    call(alice, "GET", "/nothing")
    out, err = capfd.readouterr()
    assert alice.token not in out + err
    assert err == ""
