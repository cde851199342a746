"""How a peer game's shared folder travels (docs/peer.md §6): as it is (a synced folder,
a network share), or inside a clone of the game's git repository (``--via git``): pulled
before it is read, and each new file committed and pushed, tried again after someone
else's push and never forced (``GitTransport.publish``, the player desk's own)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from arbiter.core.errors import UsageError

Deliver = Callable[[Path, bytes], None]


class Via:
    def __init__(self, folder: Path, how: str, seat: str = "peer"):
        if how not in ("folder", "git"):
            raise UsageError(f"--via {how!r}: use folder or git")
        self.git = None
        self.root = folder
        if how == "git":
            from arbiter.play.transports.git import GitTransport

            here = folder.resolve()
            while not here.is_dir() and here != here.parent:
                here = here.parent  # a game folder not made yet: ask where it will be
            top = subprocess.run(
                ["git", "-C", str(here), "rev-parse", "--show-toplevel"],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if top.returncode != 0:
                raise UsageError(f"{folder} is not in a git clone: clone the game's repository")
            self.root = Path(top.stdout.strip())
            rel = str(folder.resolve().relative_to(self.root.resolve()))
            self.git = GitTransport(self.root, rel, seat, None)

    def pull(self) -> None:
        if self.git is not None:
            self.git.pull()

    def deliver(self) -> Deliver | None:
        """What ``Folder.write`` sends a file through (None: it writes the file in place)."""
        git = self.git
        if git is None:
            return None
        root = self.root.resolve()

        def send(path: Path, data: bytes) -> None:
            git.publish(str(path.resolve().relative_to(root)), data, f"{git.seat}: {path.name}")

        return send
