"""``arbiter play --web``: one seat's game served to a local browser page.

The page is a view and a remote control; the session (and so the key) stays here. The
server is reachable only from this machine and only by whoever holds the URL:

- bound to 127.0.0.1, on a port the OS picks;
- a random token is the first segment of every path; a request without it (or with a
  wrong one) gets a bare 404, so nothing helps guess it (compared in constant time);
- the ``Host`` header must name this loopback port (a web site that rebinds its DNS name
  to 127.0.0.1 still sends its own name), and a POST must come from the page's own
  origin (another site's page cannot make this browser pick or send);
- no inline script (``Content-Security-Policy: default-src 'self'``), nothing cached,
  no referrer (the token is in the URL).

The page reads ``/snapshot`` (``Session.snapshot()``: only what the seat's state file
holds), sends ``/pick``, ``/undo``, ``/send``, and long-polls ``/events`` for a new
version. A background thread fetches the seat's files every few seconds and bumps the
version when the head moves, so the page redraws when a state mail or a pull arrives.
Nothing is logged: request lines carry the token.
"""

from __future__ import annotations

import hmac
import html
import json
import os
import secrets
import sys
import tempfile
import threading
import webbrowser
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from arbiter.core.errors import (
    ArbiterError,
    Duplicate,
    GameOver,
    NotReady,
    OutOfTurn,
    StaleHead,
    UsageError,
)
from arbiter.play.session import Moved, Session
from arbiter.play.transports.base import Fetched

HOST = "127.0.0.1"
POLL_SECONDS = 25.0
"""How long ``/events`` waits for a change before answering "nothing new" (a browser and
any proxy keep a request this long open)."""
MAX_BODY = 4096
"""A pick is a number or a name: anything longer is refused unread."""

CONFLICT = (StaleHead, OutOfTurn, GameOver, Duplicate, NotReady)
"""Errors that say the game is not where the page thought (409); the rest are 400."""

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}


def static_files() -> dict[str, bytes]:
    """The files the page may load, by name: this package's static folder, and the replay
    page's drawings and style (served, not copied). Nothing else is reachable: a request
    names one of these keys or gets 404, so no path is ever joined from a URL."""
    files: dict[str, bytes] = {}
    viewer = resources.files("arbiter.viewer") / "static"
    for item in viewer.iterdir():
        if item.name in ("viewer.css", "dom.js") or (
            item.name.startswith("draw_") and item.name.endswith(".js")
        ):
            files[item.name] = item.read_bytes()
    own = resources.files("arbiter.play.web") / "static"
    for item in own.iterdir():
        if item.name.endswith((".js", ".css", ".svg")):
            files[item.name] = item.read_bytes()
    return files


def page_html(files: dict[str, bytes]) -> bytes:
    """The page, with one ``<script src>`` per engine drawing (the page picks the one for
    its engine; an engine without one gets the plain table)."""
    template = (resources.files("arbiter.play.web") / "static" / "page.html").read_text("utf-8")
    drawings = "\n".join(
        f'<script src="static/{name}" defer></script>'
        for name in sorted(files)
        if name.startswith("draw_")
    )
    return template.replace("{{drawings}}", drawings).encode("utf-8")


def error_body(error: ArbiterError) -> dict[str, Any]:
    """The JSON the page shows in its alert region: the one-line message, and the error's
    class (its stable code and the CLI's exit code for it)."""
    body: dict[str, Any] = {"error": error.message, "code": error.code, "exit": error.exit_code}
    if isinstance(error, Moved):
        body["story"] = [{"entry": n, "line": line} for n, line in error.lines]
    return body


class _QuietServer(ThreadingHTTPServer):
    """Threads that die with the program, and no traceback when a browser goes away
    mid-answer (a closed tab, a long-poll cut short)."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return
        # One line, never the request (its path holds the token).
        print(f"arbiter play --web: {type(error).__name__}: {error}", file=sys.stderr)


class PlayServer:
    """Serve ``session`` to a browser page at ``url`` until ``stop()``.

    ``refresh_seconds``: how often the seat's files are fetched again (0: never; tests
    that move the game themselves call ``poke()``). ``poll_seconds``: how long
    ``/events`` waits before answering that nothing changed.
    """

    def __init__(
        self,
        session: Session,
        *,
        refresh_seconds: float = 5.0,
        poll_seconds: float = POLL_SECONDS,
    ):
        self.session = session
        self.refresh_seconds = refresh_seconds
        self.poll_seconds = poll_seconds
        self.token = secrets.token_urlsafe(32)
        self.files = static_files()
        self.page = page_html(self.files)
        self._lock = threading.Lock()  # one request (or the refresher) at a time
        self._fetching = threading.Lock()  # one use of the transport at a time
        self._changed = threading.Condition()
        self._version = 1
        self._stopping = threading.Event()
        self._sent_on: str | None = None  # the head a delivered move was signed against
        self._sent_line: str | None = None
        self._trouble: str | None = None  # the last fetch's failure, shown in the page
        self._httpd: ThreadingHTTPServer | None = None
        self._threads: list[threading.Thread] = []

    # -- life ---------------------------------------------------------------------------
    def start(self) -> str:
        """Bind, start serving and refreshing in background threads; return the URL."""
        if self._httpd is not None:
            return self.url
        handler = type("Handler", (_Handler,), {"app": self})
        self._httpd = _QuietServer((HOST, 0), handler)
        serving = threading.Thread(
            target=self._httpd.serve_forever,
            args=(0.1,),  # how soon stop() is noticed
            name="arbiter-play-web",
            daemon=True,
        )
        serving.start()
        self._threads.append(serving)
        if self.refresh_seconds > 0:
            refresher = threading.Thread(
                target=self._refresh_loop, name="arbiter-play-refresh", daemon=True
            )
            refresher.start()
            self._threads.append(refresher)
        return self.url

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not started")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/{self.token}/"

    def stop(self) -> None:
        """Stop serving and refreshing; wake every waiting long-poll."""
        self._stopping.set()
        with self._changed:
            self._changed.notify_all()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        for thread in self._threads:
            thread.join(timeout=10)
        self._threads.clear()

    def __enter__(self) -> PlayServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the game -----------------------------------------------------------------------
    @property
    def version(self) -> int:
        with self._changed:
            return self._version

    def _bump(self) -> None:
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def wait_for_change(self, after: int, timeout: float) -> int:
        """Return the version once it differs from ``after`` (or after ``timeout``)."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._version != after or self._stopping.is_set(), timeout
            )
            return self._version

    def _refresh_loop(self) -> None:
        while not self._stopping.wait(self.refresh_seconds):
            self.poke()

    def poke(self) -> bool:
        """Fetch the seat's files now; return whether the game moved (the page is told).

        The fetch (a mail server, a pull) runs outside the session's lock, so the page
        stays answerable meanwhile; only taking the new files is under it."""
        with self._fetching:
            generation = self.session.generation
            fetched = self._fetch()
        with self._lock:
            if self.session.generation != generation:
                # The page's own send took newer files between this fetch and now: taking
                # these would go back to a head the game has left (and drop the batch).
                return False
            moved = self._take(fetched)
        if moved:
            self._bump()
        return moved

    def _refresh(self) -> bool:
        """Fetch again under the session's lock (right after an action of the page)."""
        with self._fetching:
            return self._take(self._fetch())

    def _fetch(self) -> Fetched | str:
        """The seat's newest files, or what went wrong (kept for the page, never raised:
        the next round tries again)."""
        try:
            return self.session.transport.fetch()
        except ArbiterError as error:
            return error.message
        except Exception as error:  # the refresher must outlive a transport's surprise
            return f"could not fetch your state: {error}"

    def _take(self, fetched: Fetched | str) -> bool:
        before = self._trouble
        moved = False
        if isinstance(fetched, str):
            self._trouble = fetched
        else:
            try:
                moved = self.session.adopt(fetched)
                self._trouble = None
            except ArbiterError as error:
                self._trouble = error.message
        if moved:
            self._sent_on = self._sent_line = None
        return moved or before != self._trouble

    def snapshot(self) -> dict[str, Any]:
        """What the page draws: the session's snapshot, the version it belongs to, and
        the glossary rows of the card ids it holds (nothing the seat did not see)."""
        with self._lock:
            return self._snapshot()

    def _snapshot(self) -> dict[str, Any]:
        from arbiter.core import registry
        from arbiter.viewer.glossary import glossary

        shot = self.session.snapshot()
        state = shot["state"]
        engine = state.get("engine", {}).get("name", "")
        try:
            info = registry.get(engine).info
            title, columns = info.title, list(info.score_columns)
        except ArbiterError:
            title, columns = engine, []
        sent = self._sent_on is not None and state.get("head") == self._sent_on
        if sent:  # delivered: wait for the referee's answer instead of offering it again
            shot.update(choices=[], open=False, picks=[], preview=None, closed_because=None)
        return {
            **shot,
            "version": self.version,
            "title": title,
            "score_columns": columns,
            "glossary": glossary(engine, [state, shot["preview"], shot["choices"]]),
            "sent": self._sent_line if sent else None,
            "trouble": self._trouble,
        }

    def act(self, what: str, body: dict[str, Any]) -> dict[str, Any]:
        """Apply ``pick``, ``undo`` or ``send``; return the new snapshot (and what was sent).
        Raises the session's ``ArbiterError`` (the handler answers it as JSON)."""
        with self._lock:
            try:
                extra = self._act(what, body)
            except Moved:
                self._bump()  # the session now holds the new state file
                raise
            self._bump()
            return {**self._snapshot(), **extra}

    def _act(self, what: str, body: dict[str, Any]) -> dict[str, Any]:
        session = self.session
        _check_seen(body, session)
        if what == "pick":
            if self._sent_on is not None and session.state.get("head") == self._sent_on:
                raise OutOfTurn("your move is sent: wait for the referee's new state")
            session.pick(_typed(body))
            return {}
        if what == "undo":
            session.undo()
            return {}
        head = session.state.get("head")
        with self._fetching:  # the background fetch must not pull while this pushes
            sent = session.send()
        self._sent_on, self._sent_line = head, sent.where
        self._refresh()  # a desk shows the new state at once; mail and git when it comes
        return {"delivered": {"name": sent.name, "where": sent.where, "decisions": sent.decisions}}


def _check_seen(body: dict[str, Any], session: Session) -> None:
    """Refuse an action the page built on a table it no longer shows: the page names the
    head it drew (``head``) and, for a send, how many picks it confirmed (``picks``).
    Without this a send confirmed on a batch the game has since replaced would be read
    against the new one."""
    head, picks = body.get("head"), body.get("picks")
    if head is not None and head != session.state.get("head"):
        raise StaleHead(
            "the table changed while you were deciding (nothing was signed): "
            "look at it again and decide"
        )
    if picks is not None and picks != len(session.picks):
        raise StaleHead(
            "your batch changed while you were confirming (nothing was signed): "
            "look at it again and send"
        )


def _typed(body: dict[str, Any]) -> int | str:
    """The decision a pick names: ``{"number": N}`` or ``{"name": "..."}``."""
    number, name = body.get("number"), body.get("name")
    if isinstance(number, int) and not isinstance(number, bool):
        return number
    if isinstance(name, str) and 0 < len(name) <= 200:
        return name
    raise UsageError('a pick is {"number": N} or {"name": "..."}')


class _Handler(BaseHTTPRequestHandler):
    """One request. ``app`` is set on a subclass per server."""

    app: PlayServer
    server_version = "arbiter-play"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Log nothing: the request line holds the token."""

    # -- answers ----------------------------------------------------------------------
    def _send(self, status: int, body: bytes = b"", content_type: str | None = None) -> None:
        self.send_response(status)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8")

    def _refuse(self, status: int = 404) -> None:
        """An empty answer: nothing in it tells a guesser anything."""
        self.close_connection = True
        self._send(status)

    # -- checks -----------------------------------------------------------------------
    def _hosts(self) -> tuple[str, ...]:
        port = self.app.port
        return (f"{HOST}:{port}", f"localhost:{port}")

    def _route(self) -> tuple[str, dict[str, list[str]]] | None:
        """The path after the token, and the query; ``None`` after refusing."""
        if self.headers.get("Host", "") not in self._hosts():
            self._refuse(403)  # DNS rebinding: another name pointed at this port
            return None
        parts = urlsplit(self.path)
        segments = parts.path.split("/", 2)  # "", token, rest
        token = segments[1] if len(segments) > 1 else ""
        if not hmac.compare_digest(token.encode(), self.app.token.encode()):
            self._refuse(404)
            return None
        if len(segments) == 2:  # /TOKEN: the page's relative URLs need the slash
            self.send_response(308)
            self.send_header("Location", f"/{self.app.token}/")
            for name, value in SECURITY_HEADERS.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return segments[2], parse_qs(parts.query)

    def _same_origin(self) -> bool:
        origin = self.headers.get("Origin")
        return origin is not None and origin in {f"http://{h}" for h in self._hosts()}

    def _body(self) -> dict[str, Any] | None:
        """The POST's JSON object; ``None`` after refusing."""
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self._refuse(415)  # a form from elsewhere cannot send this type without asking
            return None
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._refuse(413)
            return None
        raw = self.rfile.read(length) if length else b"{}"
        try:
            value = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            value = None
        if not isinstance(value, dict):
            self._json(400, {"error": "the request is not a JSON object", "code": "malformed"})
            return None
        return value

    # -- methods ----------------------------------------------------------------------
    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        route = self._route()
        if route is None:
            return
        rest, query = route
        if rest == "":
            self._send(200, self.app.page, TYPES[".html"])
        elif rest.startswith("static/"):
            self._static(unquote(rest[len("static/") :]))
        elif rest == "snapshot":
            self._json(200, self.app.snapshot())
        elif rest == "events":
            self._events(query)
        else:
            self._refuse(404)

    def _static(self, name: str) -> None:
        data = self.app.files.get(name)
        if data is None:
            self._refuse(404)
            return
        suffix = name[name.rindex(".") :]
        self._send(200, data, TYPES.get(suffix, "application/octet-stream"))

    def _events(self, query: dict[str, list[str]]) -> None:
        try:
            after = int(query.get("after", ["0"])[0])
        except ValueError:
            after = 0
        version = self.app.wait_for_change(after, self.app.poll_seconds)
        self._json(200, {"version": version})

    def do_POST(self) -> None:
        route = self._route()
        if route is None:
            return
        rest, _ = route
        if rest not in ("pick", "undo", "send"):
            self._refuse(404)
            return
        if not self._same_origin():
            self._refuse(403)  # another site's page posting through this browser
            return
        body = self._body()
        if body is None:
            return
        try:
            self._json(200, self.app.act(rest, body))
        except ArbiterError as error:
            self._json(409 if isinstance(error, CONFLICT) else 400, error_body(error))
        except Exception as error:  # a bug: say so in the page rather than drop the request
            message = f"arbiter play failed: {type(error).__name__}: {error}"
            self._json(500, {"error": message, "code": "error", "exit": 1})


def serve(
    session: Session,
    *,
    open_browser: bool = True,
    refresh_seconds: float = 5.0,
    say: Callable[[str], None] | None = None,
) -> None:
    """Serve ``session`` at a fresh loopback URL until Ctrl-C: print the URL (to stdout,
    for the player only), open it in the default browser unless ``open_browser`` is
    false. ``session`` must be loaded."""
    show = say or (lambda line: print(line, flush=True))
    with PlayServer(session, refresh_seconds=refresh_seconds) as server:
        show(f"your page: {server.url}")
        show("(only this machine can open it; keep the address to yourself; Ctrl-C stops)")
        opener = launch_file(server.url) if open_browser else None
        try:
            if opener is not None:
                webbrowser.open(opener.as_uri())
            wait_for_ctrl_c()
        except KeyboardInterrupt:
            show("stopped: the page no longer answers")
        finally:
            if opener is not None:
                opener.unlink(missing_ok=True)


def launch_file(url: str) -> Path:
    """A page readable only by this user that sends the browser on to ``url``: the browser
    is started with this file's path, so the token is not in its command line (which
    other users of the machine can list)."""
    handle, name = tempfile.mkstemp(prefix="arbiter-play-", suffix=".html")  # mode 0600
    quoted = html.escape(url, quote=True)
    page = (
        '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
        f'<meta http-equiv="refresh" content="0;url={quoted}">'
        f'<title>arbiter play</title><p><a href="{quoted}">Open your game</a></p>\n'
    )
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(page)
    return Path(name)


def wait_for_ctrl_c() -> None:
    """Block until Ctrl-C (a lock wait without a timeout is interruptible on POSIX)."""
    threading.Event().wait()
