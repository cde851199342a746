"""A person at a real terminal: ``arbiter play`` runs in its own process on a
pseudo-terminal (so it sees a terminal and draws pictures), and this reads the screen and
types lines into it."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time  # noqa: TID251 (a person waits for a real process to print)
from pathlib import Path

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Person:
    """``arbiter ARGS`` on a pseudo-terminal, and what it printed so far (escapes removed)."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path | None = None):
        master, slave = pty.openpty()
        self.master = master
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arbiter", *args],
            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, close_fds=True,
        )
        os.close(slave)
        self.screen = ""
        self._read_upto = 0

    def _pump(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the process is gone and its side of the terminal closed
            return False
        if not data:
            return False
        self.screen += ESCAPES.sub(b"", data).decode("utf-8", "replace")
        return True

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        """Read until ``text`` appears after what was read before; return the new part."""
        return self.wait_any([text], timeout)[1]

    def wait_any(self, texts: list[str], timeout: float = 60.0) -> tuple[str, str]:
        """Read until one of ``texts`` appears (the earliest on screen wins); return it and
        the new part of the screen up to it."""
        deadline = time.monotonic() + timeout
        while True:
            rest = self.screen[self._read_upto :]
            found = [(rest.index(t), t) for t in texts if t in rest]
            if found:
                at, text = min(found)
                part = rest[: at + len(text)]
                self._read_upto += at + len(text)
                return text, part
            left = deadline - time.monotonic()
            if left <= 0 or (not self._pump(min(left, 0.5)) and self.process.poll() is not None):
                if left > 0 and self._pump(0.1):
                    continue
                raise AssertionError(f"never saw {texts!r}; the screen ends:\n{self.screen[-3000:]}")

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def finish(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._pump(0.2)
        while self._pump(0.05):
            pass
        os.close(self.master)
        return self.process.wait(timeout=5)
