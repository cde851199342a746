"""How a peer game's shared folder travels (docs/peer.md §6): as it is (a synced folder,
a network share), inside a clone of the game's git repository (``--via git``: pulled
before it is read, and each new file committed and pushed, tried again after someone
else's push and never forced: ``GitTransport.publish``, the player desk's own), or by
mail (``--via mail``: each player keeps its own copy, and each new file is mailed to the
other seats and taken from each player's mailbox: ``arbiter.play.peer_mail``)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from arbiter.core.errors import UsageError
from arbiter.core.safeio import visible

Deliver = Callable[[Path, bytes], None]


class Via:
    def __init__(self, folder: Path, how: str, seat: str | None = None, mail: Path | None = None):
        if how not in ("folder", "git", "mail"):
            raise UsageError(f"--via {how!r}: use folder, git or mail")
        if how == "mail" and mail is None:
            raise UsageError(
                "--via mail needs --mail CONFIG: your mail settings ([imap], your own "
                "mailbox, and [smtp], as arbiter play uses them)"
            )
        if how != "mail" and mail is not None:
            raise UsageError("--mail CONFIG goes with --via mail: add it, or leave --mail out")
        self.git = None
        self.mail = None
        self.root = folder
        self.seat = seat
        if how == "mail":
            from arbiter.play.peer_mail import PeerMail

            assert mail is not None
            self.mail = PeerMail(folder, mail, seat)
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
            self.git = GitTransport(self.root, rel, seat or "peer", None)

    def addresses(self, pairs: list[str], seats: list[str]) -> dict[str, str]:
        """``--address NAME=EMAIL`` of ``new``, checked; by mail every seat needs one."""
        from arbiter.play.peer_mail import addresses

        return addresses(pairs, seats, every=self.mail is not None)

    def pull(self) -> None:
        if self.git is not None:
            self.git.pull()
        if self.mail is not None:
            for note in self.mail.pull():  # hostile or stray mail: refused, and said so
                sys.stderr.write(f"arbiter: warning: {visible(note)}\n")
            if self.seat is not None:
                self.mail.check_terms()  # before anything is drawn or sent

    def deliver(self) -> Deliver | None:
        """What ``Folder.write`` sends a file through (None: it writes the file in place)."""
        if self.mail is not None:
            return self.mail.deliver
        git = self.git
        if git is None:
            return None
        root = self.root.resolve()

        def send(path: Path, data: bytes) -> None:
            git.publish(str(path.resolve().relative_to(root)), data, f"{git.seat}: {path.name}")

        return send
