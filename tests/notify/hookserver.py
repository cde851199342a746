"""A real webhook receiver for the tests: ``http.server`` in a thread on 127.0.0.1, port 0.

It records every POST and answers 200, or 500 for a path holding ``fail``. Nothing is mocked.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


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


@contextlib.contextmanager
def serve_hooks() -> Iterator[Hooks]:
    """Serve on 127.0.0.1 (a free port) until the block ends."""
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
