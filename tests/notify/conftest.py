"""Fixtures of the turn-notice tests: an in-process ``arbiter``, games, and a real HTTP server.

``hooks`` is ``http.server`` in a thread on 127.0.0.1 (port 0): it records every POST and
answers 200, or 500 for a path holding ``fail`` — nothing is mocked.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import make_keys

from arbiter.cli.main import run
from arbiter.core.referee import new_game

CREATED = "2026-12-01T00:00:00Z"


@dataclass
class Result:
    code: int
    out: str
    err: str


@dataclass
class Post:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Hooks:
    """The test's webhook server: ``url(path)`` to configure, ``posts`` to check."""

    port: int
    posts: list[Post] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def to(self, path: str) -> list[Post]:
        return [post for post in self.posts if post.path == path]


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    lock = threading.Lock()
    server_hooks: list[Hooks] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(size)
            with lock:
                server_hooks[0].posts.append(Post(self.path, dict(self.headers), body))
            status = 500 if "fail" in self.path else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server_hooks.append(Hooks(server.server_address[1]))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server_hooks[0]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run ``arbiter ARGS...`` in-process; return its exit code, stdout and stderr."""

    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The webhook server is on loopback: no proxy of the machine stands between."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def make_game(tmp_path: Path) -> Callable[..., Path]:
    """``make_game("g1", ["alice", "bob"], deadline=…)``: a started game (no joins), the
    first seat of ``seats`` to decide; keys made once under ``tmp/keys``."""
    keys = make_keys(tmp_path / "keys", ["alice", "bob", "carol"])

    def make(
        game: str,
        seats: list[str],
        *,
        engine: str = "tally",
        deadline: int | None = None,
        grace: int = 0,
        root: Path | None = None,
    ) -> Path:
        folder = (root or tmp_path / "games") / game
        folder.parent.mkdir(parents=True, exist_ok=True)
        new_game(
            folder, engine, [(s, f"{keys[s]}.pub") for s in seats], {}, game_id=game,
            join=False, created=CREATED, deadline=deadline, grace=grace, secret=bytes(range(32)),
        )
        return folder

    return make


def configure(folder: Path, text: str) -> None:
    """Write the game's ``referee/notices.toml``."""
    (folder / "referee" / "notices.toml").write_text(text, encoding="utf-8")
