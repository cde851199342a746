"""``arbiter git run``: the referee of a shared repository, one round at a time.

A loop around ``core.referee.submit``. One round:

1. fetch the branch; if the commit the desk pushed last is no longer an ancestor of the
   remote head (someone force-pushed), start with a merge of both that restores the
   game folder; else, if the repository's game folder (outside the inbox) differs from
   what the referee's private folder says it is, start with a commit that rebuilds it;
   else, if a file that changes how git writes the game's bytes is not the desk's
   (``owned.py``: ``.gitattributes`` at every level down to the game folder,
   ``.gitmodules``, ``.lfsconfig``), start with a commit that puts the desk's back. Every
   commit of the desk carries the desk's versions of those files; the first one that
   reverts someone else's says so in its message;
2. take the inbox files in the order they were added (``inbox.py``) and judge each:
   a link or other non-file is refused, a plain move in a sealed game is refused, the
   rest goes to ``submit``; each gets a text receipt (``receipts.py``);
3. one commit per accepted entry ("entry #N: move by alice"), the rejections riding in
   the next one (or in a final "inbox: N file(s) rejected"), each removing its files
   from the inbox;
4. push as a fast-forward; when the remote refuses (someone pushed meanwhile) fetch,
   rebuild the same commits on the new head and try again, waiting a little longer each
   time. Never a forced push. The clone ends at the pushed commit.

A round can be killed anywhere (``write_point`` marks the places between durable writes,
for the crash tests). Before its push the chain is the record: the next round finds the
inbox files again, ``submit`` calls the accepted ones duplicates of the entries they
became, and the same commits are made. Between the push and the desk's record, the
record written ahead of the push (``receipts.Record.pending``) says which commit was on
its way, and the next round finds it in the remote's history.

The published game folder always comes from the referee's own folder (``--secret-dir``),
never from the repository: only inbox files are read from it, as blobs.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import (
    ArbiterError,
    UsageError,
)
from arbiter.core.gamedir import GameDir, deferred_sync, pause, write_point
from arbiter.core.safeio import shown
from arbiter.desks.git import inbox, judge, messages, owned, receipts, trees
from arbiter.desks.git.judge import Handled
from arbiter.desks.git.plumbing import Entry, Git, GitFailed
from arbiter.desks.git.settings import (
    Settings,
    clean_game_path,
    current_branch,
    parse_author,
    sealed_manifest,
)

__all__ = ["GitDesk", "Planned", "Round", "Settings", "clean_game_path", "parse_author"]

BACKOFF = 0.05
PUSH_TRIES = 8


@dataclass
class Planned:
    """A commit to make on whatever base the push finds: message, the published game
    folder after it, and the inbox entries (path, blob) handled up to it."""

    message: str
    files: dict[str, str]
    handled: frozenset[tuple[str, str]]


@dataclass
class Round:
    """What one round did (``--json`` prints it)."""

    remote_head: str | None = None
    files: list[Handled] = field(default_factory=list)
    commits: list[dict[str, str]] = field(default_factory=list)
    pushed: str | None = None
    retries: int = 0
    restored: bool = False
    repaired: list[str] = field(default_factory=list)
    opening: str | None = None
    """The first line of a restore, publish, update or repair commit that opened the round."""
    timeout: int | None = None
    """The entry of a timeout this round recorded (a game with deadlines)."""
    guarded: list[str] = field(default_factory=list)
    """The files the desk owns that the round's first commit put back (``owned.py``)."""

    def as_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["files"] = [f.as_dict() for f in self.files]
        return out


class GitDesk:
    """The desk for one game in one repository."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.stopping = threading.Event()
        self.git: Git
        self.gd: GameDir
        self.manifest: dict[str, Any] = {}
        self.branch = ""
        self.who = ("", "")
        self.hasher: trees.Hasher
        self.prepared = False
        self.on_branch = False

    # -- checks before anything is written ----------------------------------------------
    def prepare(self) -> None:
        """Check the settings; raise a one-line ``UsageError`` (nothing written) if unsafe."""
        if self.prepared:
            return
        s = self.settings
        self.game_path = clean_game_path(s.game_path)
        if not s.repo.is_dir():
            raise UsageError(f"{shown(s.repo)} is not a folder: pass the referee's git clone")
        git = Git(s.repo)
        done = git.run(["rev-parse", "--is-inside-work-tree", "--show-toplevel"], check=False)
        lines = done.stdout.decode("utf-8", "surrogateescape").split("\n")
        if done.returncode != 0 or lines[0] != "true":
            raise UsageError(f"{shown(s.repo)} is not a git work tree: pass the referee's clone")
        top = Path(lines[1]).resolve()
        self.git = Git(top)
        secret = s.secret_dir.expanduser().resolve()
        if secret == top or top in secret.parents or secret in top.parents:
            raise UsageError(
                f"the referee's folder {shown(s.secret_dir)} lies inside the repository (or holds "
                "it): keep it outside, it holds the secret and every seat's private record"
            )
        self.gd = GameDir(secret)
        self.manifest = sealed_manifest(self.gd)
        if not self.gd.secret.is_file():
            raise UsageError(
                f"{shown(s.secret_dir)} has no referee/secret: pass the referee's own game folder"
            )
        url = git.run(["remote", "get-url", s.remote], check=False)
        if url.returncode != 0:
            raise UsageError(f"the clone has no remote {s.remote!r}: pass --remote")
        self.branch = s.branch or current_branch(self.git)
        if not self.git.ok("check-ref-format", f"refs/heads/{self.branch}"):
            raise UsageError(f"{self.branch!r} is not a branch name: pass --branch")
        self.who = parse_author(s.author, self.manifest["game"])
        # The record of what the desk pushed holds for this repository, branch and folder.
        remote_url = url.stdout.decode("utf-8", "surrogateescape").strip()
        self.where = f"{remote_url} {self.branch} {self.game_path}"
        self.hasher = trees.Hasher(self.git)
        self.owned = owned.Owned(self.git, self.game_path)
        self.judge = judge.Judge(self.gd, self.manifest, self.hasher, self.game_path)
        git_dir = Path(self.git.text("rev-parse", "--absolute-git-dir"))
        self.index = git_dir / "arbiter-desk.index"
        self.prepared = True

    # -- the loop ------------------------------------------------------------------------
    def run(self, once: bool = False, report: Any = None) -> int:
        """Run rounds until stopped (SIGINT, SIGTERM, or ``stopping``); ``once``: one round.

        ``report(round, None)`` is called after each round, ``report(None, error)`` after a
        round that failed in a loop (the loop goes on; with ``once`` the error is raised).
        """
        self.prepare()
        main = threading.current_thread() is threading.main_thread()
        signals = (signal.SIGTERM, signal.SIGINT) if main and not once else ()
        previous = {sig: signal.signal(sig, self._stop) for sig in signals}
        rounds = 0
        try:
            while not self.stopping.is_set():
                try:
                    result = self.round()
                except ArbiterError as exc:
                    if once or isinstance(exc, UsageError) or report is None:
                        raise
                    report(None, exc)
                else:
                    if report is not None:
                        report(result, None)
                rounds += 1
                if once:
                    break
                self.stopping.wait(self.settings.interval)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return rounds

    def _stop(self, signum: int, frame: Any) -> None:
        self.stopping.set()

    # -- one round -----------------------------------------------------------------------
    def round(self) -> Round:
        """Fetch, judge the inbox, commit, push (with ``push``)."""
        self.prepare()
        with self._locked():
            return self._round()

    def _round(self) -> Round:
        s = self.settings
        result = Round()
        trees.remove_temporaries(self.gd)
        tracking = self.git.fetch_ref(s.remote, self.branch)
        loaded = receipts.Record.load(self.gd, self.where)
        # The remote's head and the record's commits resolved in one git command.
        asked = [ref for ref in (tracking, loaded.commit, loaded.pending) if ref]
        known = dict(zip(asked, self.git.commits_of(asked), strict=True))
        head = known[tracking] if tracking else None
        record = self._landed(loaded, head, known)
        result.remote_head = head
        ours = record.commit if record.commit and known.get(record.commit) else None
        listing = self._listing(head)
        published_before = trees.outside_inbox(listing, self.game_path)
        start = self._start(published_before)
        waiting = (
            inbox.in_order(
                self.git, inbox.waiting(listing, self.game_path), head, ours, self.game_path
            )
            if head
            else []
        )
        self._refuse_leaked_secrets(published_before)
        with deferred_sync():  # one sync for every file the inbox's judging wrote
            plans = self._judge_all(waiting, published_before, result)
        if waiting:
            self.judge.sync()
        self._clock(plans, result)
        write_point()  # judged; nothing committed yet
        published = trees.fingerprint(plans[-1].files if plans else start)
        for attempt in range(PUSH_TRIES):
            commits = self._build(head, listing, start, plans, ours, record, result)
            tip = commits[-1][0] if commits else head
            if tip is None or tip == head:  # nothing to commit
                self._check_out(head)
                return result
            result.commits = [{"commit": c, "message": m} for c, m in commits]
            if not s.push:
                self._check_out(tip)
                return result
            write_point()  # committed; not pushed
            record.ahead(tip, published).save(self.gd)
            if self.git.push(s.remote, tip, self.branch):
                write_point()  # pushed; not recorded
                result.pushed = tip
                receipts.Record(tip, published, self.where).save(self.gd)
                self._check_out(tip)
                return result
            result.retries += 1
            pause(BACKOFF * (2**attempt))
            head = self.git.fetch(s.remote, self.branch)
            listing = self._listing(head)
        raise GitFailed(
            f"the push to {s.remote}/{self.branch} was refused {PUSH_TRIES} times (others keep "
            "pushing): run the desk again; what it judged is kept and will be published"
        )

    def _landed(
        self, record: receipts.Record, head: str | None, known: dict[str, str | None]
    ) -> receipts.Record:
        """``record``, its pending push settled: taken as done when the remote's history
        holds the commit (a round killed between its push and its record), else dropped.
        ``known``: the record's commits resolved (``Git.commits_of``)."""
        if record.pending is None:
            return record
        pending = record.pending
        landed = (
            head is not None
            and known.get(pending) is not None
            and self.git.is_ancestor(pending, head)
        )
        if landed:
            settled = receipts.Record(pending, record.pending_published, self.where)
        else:
            settled = receipts.Record(record.commit, record.published, self.where)
        settled.save(self.gd)
        return settled

    def _start(self, published: dict[str, str]) -> dict[str, str]:
        """The snapshot a round starts from. When the referee's folder differs from the
        repository, a round or command killed after the chain's commit may have left
        derived files behind it: they are brought to the chain head first, as every
        command that writes does (``core.referee.repair``; a sound folder is untouched)."""
        from arbiter.core.referee import repair

        start = trees.snapshot(self.gd, self.hasher)
        if not trees.changed(published, start):
            return start
        repair(self.gd.root)
        return trees.snapshot(self.gd, self.hasher)

    def _listing(self, head: str | None) -> list[Entry]:
        return self.git.ls_tree(head, self.game_path, *self.owned.outside) if head else []

    def _check_out(self, commit: str | None) -> None:
        """Put the clone at ``commit`` on the branch (HEAD is moved once per desk)."""
        if commit is not None:
            if not self.on_branch:
                self.git.run(["symbolic-ref", "HEAD", f"refs/heads/{self.branch}"])
                self.on_branch = True
            self.git.run(["reset", "-q", "--hard", commit])

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One desk at a time per referee folder (a cron job and a hand-started run)."""
        folder = trees.desk_folder(self.gd)
        self.gd.make_dirs(folder)
        fd = os.open(folder / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    # -- judging -------------------------------------------------------------------------
    def _judge_all(
        self,
        waiting: list[Entry],
        published_before: dict[str, str],
        result: Round,
    ) -> list[Planned]:
        """Judge each waiting file; return the commits to make."""
        blobs = (
            self.git.sizes_and_blobs([e.sha for e in waiting if e.regular], judge.MAX_BLOB)
            if waiting
            else {}
        )
        plans: list[Planned] = []
        handled: set[tuple[str, str]] = set()
        pending: list[Handled] = []
        for entry in waiting:
            outcome = self.judge.file(entry, blobs.get(entry.sha), published_before)
            handled.add((entry.path, entry.sha))
            result.files.append(outcome)
            pending.append(outcome)
            if outcome.accepted:
                title = f"entry #{outcome.entry}: {outcome.kind} by {outcome.seat}"
                plans.append(
                    Planned(messages.handled(title, pending), self._snapshot(), frozenset(handled))
                )
                pending = []
        if pending:
            title = f"inbox: {len(pending)} file(s) rejected"
            plans.append(
                Planned(messages.handled(title, pending), self._snapshot(), frozenset(handled))
            )
        return plans

    def _refuse_leaked_secrets(self, published: dict[str, str]) -> None:
        """Stop when the repository holds the referee's real private files (the secret or
        the referee key): the game is compromised, and judging on would hide it. Anything
        else a player pushes under ``referee/`` is junk, removed by the repair commit."""
        private = [
            path
            for path in (self.gd.secret, self.gd.referee_key)
            if path.is_file() and not path.is_symlink()
        ]
        if not private:
            return
        ids = dict(zip(private, self.hasher.ids(private), strict=True))
        leaked = [
            path.relative_to(self.gd.root).as_posix()
            for path, sha in ids.items()
            if published.get(path.relative_to(self.gd.root).as_posix()) == sha
        ]
        if leaked:
            raise UsageError(
                f"the repository holds the referee's own {', '.join(leaked)}: the game is "
                "compromised (anyone can read the seed or sign as the referee); stop it, "
                "remove the file from the history and start a new game with a new secret"
            )

    def _clock(self, plans: list[Planned], result: Round) -> None:
        """In a game with deadlines, apply the timeout policy once the waiting seat's grace
        has run out (docs/tournaments.md): its entry is one more commit of the round."""
        from arbiter.core.referee import timeout

        if "deadline" not in sealed_manifest(self.gd):
            return
        try:
            waiting = timeout(self.gd.root)
        except ArbiterError:
            return  # not started, over or revealed: no clock runs
        done = waiting.timed_out
        if done is None:
            return
        result.timeout = done.seq
        handled = plans[-1].handled if plans else frozenset()
        title = messages.timeout_title(done.seq, done.seat, waiting.policy)
        if done.kind == "leave-auto":  # docs/clocks.md: leave taken instead of a timeout
            title = f"entry #{done.seq}: automatic leave of {done.seat}"
        plans.append(Planned(title, self._snapshot(), handled))

    def _snapshot(self) -> dict[str, str]:
        return trees.snapshot(self.gd, self.hasher)

    # -- building commits ----------------------------------------------------------------
    def _build(
        self,
        head: str | None,
        listing: list[Entry],
        start: dict[str, str],
        plans: list[Planned],
        ours: str | None,
        record: receipts.Record,
        result: Round,
    ) -> list[tuple[str, str]]:
        """Make the round's commits on ``head``; return (commit, first line) in order."""
        base, base_listing = head, listing
        if ours is not None and base is None:
            # The branch was deleted: start again from the referee's last commit.
            base, base_listing = ours, self._listing(ours)
        keep_all = inbox.waiting(base_listing, self.game_path)
        in_repo = trees.outside_inbox(base_listing, self.game_path)
        deleted = ours is not None and head is None
        result.restored = deleted or (
            ours is not None and base is not None and not self.git.is_ancestor(ours, base)
        )
        result.repaired = trees.changed(in_repo, start)
        guard = self.owned.changes(base_listing)
        result.guarded = [c.line() for c in guard]
        # A round that opens with another commit anyway puts the desk's files back in it,
        # and says so when they were someone else's.
        notice = "\n\n" + owned.message(guard) if any(c.reverted for c in guard) else ""
        owned_edits = self.owned.edits(base_listing)
        result.opening = None
        made: list[tuple[str, str]] = []

        def commit(
            files: dict[str, str], keep: list[Entry], parents: list[str], message: str
        ) -> None:
            tree = trees.compose(
                self.git, self.index, base, base_listing, self.game_path, files, keep, owned_edits
            )
            made.append(
                (self.git.commit_tree(tree, parents, message, self.who), message.split("\n")[0])
            )

        if result.restored:
            assert ours is not None and base is not None
            title = "restore: the branch was rewritten; the referee's commits are restored"
            commit(
                start,
                keep_all,
                [base] if deleted else [base, ours],
                messages.body(title, result.repaired) + notice,
            )
        elif result.repaired:
            message = messages.opening(
                self.manifest["game"],
                in_repo,
                record.published,
                result.repaired,
                self._unpublished_timeouts(in_repo, record),
            )
            commit(start, keep_all, [base] if base else [], message + notice)
        elif guard:
            commit(start, keep_all, [base] if base else [], owned.message(guard))
        if made:
            result.opening = made[0][1]
        for plan in plans:
            keep = [e for e in keep_all if (e.path, e.sha) not in plan.handled]
            parent = made[-1][0] if made else base
            commit(plan.files, keep, [parent] if parent else [], plan.message)
        return made

    def _unpublished_timeouts(self, in_repo: dict[str, str], record: receipts.Record) -> list[str]:
        """Titles of timeouts a killed round recorded and never pushed (``messages.py``):
        read only from a repository that holds exactly what the desk last pushed."""
        sha = in_repo.get("chain.jsonl")
        if sha is None or record.published != trees.fingerprint(in_repo):
            return []
        chain = self.git.sizes_and_blobs([sha], 1 << 30).get(sha)
        return messages.timeouts_after(self.gd, self.manifest, chain) if chain else []
