"""One hostile input per call, for every command that reads a game's files, and its verdict.

``make(command, corpus, chooser)`` builds a ``Case``: the command line and, when the
input is a file of a game folder, that file mutated in place. ``Case.run`` runs
``arbiter`` in this process and judges it as the issue asks: an exit code from the
documented table, exactly one ``arbiter: error:`` line on stderr when it fails, no
traceback, and the folder byte for byte as it was (a command that writes may change it
by succeeding, and, refusing, only its derived files: it heals them first). Afterwards
the folder is put back as the referee left it, for the next case.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import traceback
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import ALL_ERRORS
from fuzz.corpus import Corpus, work_dir
from fuzz.mutate import Chooser, dump, mutate_bytes, mutate_json, mutate_jsonl, pick, pretty

CODES = frozenset({0} | {cls.exit_code for cls in ALL_ERRORS})
"""The documented exit codes (README, "Exit codes"); 1 is a bug."""
READERS = ("show", "moves", "move", "bot")
FOLDER_READERS = ("status", "verify", "replay", "html")
WRITERS = ("submit", "reveal", "repair", "timeout")
OTHERS = ("join", "signed-bytes")
COMMANDS = READERS + FOLDER_READERS + WRITERS + OTHERS
RECORDS = frozenset(
    {"game.json", "chain.jsonl", "referee/secret", "referee/key", "referee/key.pub", "reveal/reveal.json"}
)
"""The files a game folder's others are derived from (views, logs, receipts, copies)."""


# -- running ------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one run did, and what was wrong with it (``problems``: empty when all held)."""

    command: str
    flavour: str
    code: int
    err: str
    problems: list[str] = field(default_factory=list)

    def report(self) -> str:
        return f"{self.command} ({self.flavour}): exit {self.code}; {'; '.join(self.problems)}\n{self.err}"


_COMMANDS: dict[int, Any] = {}


def _built_once(app: Any) -> Any:
    """Typer builds its click command tree on every call (a tenth of a second); a fuzzer
    calling ``arbiter.cli.main.run`` a million times builds it once."""
    if id(app) not in _COMMANDS:
        _COMMANDS[id(app)] = _GET_COMMAND(app)
    return _COMMANDS[id(app)]


def _get_command() -> Any:
    import typer.main

    return typer.main.get_command


_GET_COMMAND = _get_command()


def run_cli(argv: list[str]) -> tuple[int, str, str | None]:
    """Run ``arbiter ARGV`` in this process (``arbiter.cli.main.run``, the entry point):
    exit code, stderr, traceback (a crash)."""
    import typer.main

    from arbiter.cli.main import run

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    err = io.StringIO()
    crash = None
    code = 0
    typer.main.get_command = _built_once
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                run(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Exception:  # any exception escaping `run` is a crash: what we look for
                crash = traceback.format_exc()
                code = 1
    finally:
        typer.main.get_command = _GET_COMMAND
    return code, err.getvalue(), crash


def snapshot(root: Path) -> dict[str, bytes]:
    """Return {relative path: bytes} of every file under ``root`` (links as their target
    path, so that a link replacing a file shows)."""
    out: dict[str, bytes] = {}
    top = str(root)
    for folder, _dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, top)
            if os.path.islink(path):
                out[rel] = b"link:" + os.fsencode(os.readlink(path))
                continue
            with open(path, "rb") as handle:
                out[rel] = handle.read()
    return out


_PRISTINE: dict[Path, dict[str, bytes]] = {}


def pristine(root: Path) -> dict[str, bytes]:
    """The folder as the referee left it (taken once, before any case touched it)."""
    if root not in _PRISTINE:
        _PRISTINE[root] = snapshot(root)
    return _PRISTINE[root]


def restore(root: Path, now: dict[str, bytes] | None = None) -> None:
    """Put a folder back as the referee left it (``now``: its snapshot, if taken)."""
    want = pristine(root)
    now = snapshot(root) if now is None else now
    for name in set(now) - set(want):
        (root / name).unlink()
    for name, data in want.items():
        if now.get(name) != data:
            path = root / name
            if path.is_symlink() or path.is_dir():
                shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


@dataclass
class Case:
    """A command line and the game folder it reads or writes (``None``: none)."""

    command: str
    flavour: str
    argv: list[str]
    folder: Path | None = None
    writes: bool = False

    def run(self) -> Outcome:
        before = snapshot(self.folder) if self.folder is not None else None
        after = None
        try:
            code, err, crash = run_cli(self.argv)
            outcome = Outcome(self.command, self.flavour, code, err)
            after = snapshot(self.folder) if self.folder is not None else None
            self._judge(outcome, crash, before, after)
        finally:
            if self.folder is not None:
                restore(self.folder, after)
            _clear(work_dir() / "scratch")
        return outcome

    def _judge(
        self,
        o: Outcome,
        crash: str | None,
        before: dict[str, bytes] | None,
        after: dict[str, bytes] | None,
    ) -> None:
        if crash is not None:
            o.problems.append("traceback: " + crash.strip().splitlines()[-1])
            o.err += crash
        if o.code not in CODES:
            o.problems.append(f"exit code {o.code} is not in the documented table")
        lines = o.err.splitlines()
        if "Traceback" in o.err and crash is None:
            o.problems.append("a traceback on stderr")
        if o.code != 0 and self.command == "move" and len(lines) == 2:
            # `move` warns, then may fail: issue 24 item 6 makes its warnings refusals.
            lines = lines[1:] if lines[0].startswith("arbiter: warning: ") else lines
        if o.code != 0 and (len(lines) != 1 or not lines[0].startswith("arbiter: error: ")):
            o.problems.append(f"{len(lines)} lines on stderr, not one error line")
        if o.code == 0 and (len(lines) > 1 or (lines and not lines[0].startswith("arbiter: warning: "))):
            o.problems.append("stray output on stderr after a success")
        if self.folder is None or before is None or after is None:
            return
        if self.writes and o.code == 0:
            return
        changed = sorted(n for n in set(before) | set(after) if after.get(n) != before.get(n))
        if self.writes:
            # A command that writes first brings derived files back to the chain head
            # (crash recovery, DESIGN.md), even when it then refuses: only the records
            # they derive from must stay as they were.
            changed = [n for n in changed if n in RECORDS]
        if changed:
            o.problems.append(f"the game folder changed: {', '.join(changed[:4])}")


# -- inputs -------------------------------------------------------------------------------


def _clear(folder: Path) -> None:
    """Empty the scratch folder (kept: removing a folder costs more than its files)."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            os.unlink(entry.path)


def _scratch(name: str, data: bytes) -> Path:
    path = work_dir() / "scratch" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _mutated_state(corpus: Corpus, chooser: Chooser, playing: bool) -> tuple[dict[str, Any], bytes]:
    """Return a state file and its mutated bytes: mostly its view edited, sometimes the
    whole file, sometimes raw bytes."""
    states = corpus.playing() if playing and chooser.below(4) else corpus.states
    state = pick(chooser, states)
    how = chooser.below(10)
    if how == 0:
        return state, mutate_bytes(pretty(state), chooser)
    within = ("view",) if how < 7 and state["view"] is not None else ()
    mutated = mutate_json(state, chooser, corpus.vocabulary, within)
    return state, pretty(mutated) if how % 3 == 0 else dump(mutated)


def _key(corpus: Corpus, seat: Any) -> Path:
    path = corpus.keys / str(seat)
    return path if isinstance(seat, str) and path.is_file() else corpus.keys / corpus.seats[0]


def _folder_file(corpus: Corpus, root: Path, chooser: Chooser) -> None:
    """Mutate one file of a game folder in place (``restore`` puts it back)."""
    files = sorted(pristine(root))
    name = pick(chooser, [f for f in files if f != "referee/lock"])
    path = root / name
    data = path.read_bytes()
    if name.endswith(".jsonl"):
        data = mutate_jsonl(data, chooser, corpus.vocabulary)
    elif name.endswith(".json") and chooser.below(5):
        data = pretty(mutate_json(json.loads(data), chooser, corpus.vocabulary))
    else:
        data = mutate_bytes(data, chooser)
    path.write_bytes(data)


def _state_reader(command: str) -> Callable[[Corpus, Chooser], Case]:
    def make(corpus: Corpus, chooser: Chooser) -> Case:
        in_folder = command in ("move", "bot") and chooser.below(3) == 0
        state, data = _mutated_state(corpus, chooser, command in ("move", "bot"))
        seat = state.get("seat") if isinstance(state, dict) else None
        folder = None
        if in_folder:
            seat = pick(chooser, corpus.seats)
            path = corpus.live / "players" / seat / "state.json"
            path.write_bytes(data)
            folder = corpus.live
        else:
            path = _scratch("state.json", data)
        argv = [command, str(path)]
        if command in ("move", "bot"):
            argv += ["--key", str(_key(corpus, seat)), "-o", str(work_dir() / "scratch" / "out.json")]
        if command == "move":
            legal = state.get("legal") or [{"kind": "pass"}]
            action = pick(chooser, legal)
            if chooser.below(4) == 0:
                action = mutate_json(action, chooser, corpus.vocabulary)
            argv += ["--action", json.dumps(action)]
        if command == "bot":
            argv += ["--level", pick(chooser, ("random", "random", "greedy")), "--seed", "fuzz"]
        if command in ("show", "moves") and chooser.below(3) == 0:
            argv.append("--json")
        if command == "show" and chooser.below(2):
            argv.append(pick(chooser, ("--plain", "--pictures")))
        return Case(command, corpus.flavour, argv, folder)

    return make


def _folder_reader(command: str) -> Callable[[Corpus, Chooser], Case]:
    def make(corpus: Corpus, chooser: Chooser) -> Case:
        root = corpus.revealed if command in ("html", "verify") or chooser.below(2) else corpus.live
        _folder_file(corpus, root, chooser)
        argv = [command, str(root)]
        if command == "replay":
            argv += ["--at", pick(chooser, ("-1", "0", "1", "5", "-3", "turn:1", "turn:2"))]
            if chooser.below(2):
                argv += ["--seat", pick(chooser, corpus.seats)]
            if chooser.below(3) == 0:
                argv.append("--json")
        if command == "html":
            argv += ["-o", str(work_dir() / "scratch" / "page.html")]
            if chooser.below(2):
                argv += ["--seat", pick(chooser, corpus.seats)]
        if command == "verify" and chooser.below(4) == 0:
            receipts = sorted((corpus.live / "referee" / "receipts").glob("*.json"))
            receipt = pick(chooser, receipts)
            data = mutate_json(json.loads(receipt.read_bytes()), chooser, corpus.vocabulary)
            argv += ["--receipt", str(_scratch("receipt.json", pretty(data)))]
        if command == "status" and chooser.below(2):
            argv.append("--json")
        (work_dir() / "scratch").mkdir(parents=True, exist_ok=True)
        return Case(command, corpus.flavour, argv, root)

    return make


_NEXT: dict[str, dict[str, Any]] = {}


def next_move(corpus: Corpus) -> dict[str, Any]:
    """Return a legal move of the live game's seat on turn, signed (kept per corpus)."""
    from arbiter.core.player import load_state, make_move

    if corpus.flavour not in _NEXT:
        public = load_state(corpus.live / "public" / "state.json")
        seat = public["prompt"]["seat"]
        state = load_state(corpus.live / "players" / seat / "state.json")
        _NEXT[corpus.flavour] = make_move(state, corpus.keys / seat, [state["legal"][0]])
    return _NEXT[corpus.flavour]


def _signed_file(corpus: Corpus, chooser: Chooser) -> bytes:
    """A move or join file, mutated: re-signed (so the checks past the signature are
    reached) or not, or its bytes edited."""
    from arbiter.core.signing import NAMESPACE_JOIN, NAMESPACE_MOVE, sign

    how = chooser.below(6)
    if how == 0:
        return mutate_bytes(pick(chooser, corpus.signed), chooser)
    base = next_move(corpus) if how < 4 else json.loads(pick(chooser, corpus.signed))
    doc = mutate_json(base, chooser, corpus.vocabulary)
    if how in (1, 2, 4) and isinstance(doc, dict):
        doc.pop("signature", None)
        seat = doc.get("seat")
        namespace = NAMESPACE_JOIN if doc.get("format") != "arbiter.move/1" else NAMESPACE_MOVE
        # A document too broken to sign (no canonical form) is sent unsigned.
        with suppress(Exception):
            doc["signature"] = sign(doc, _key(corpus, seat), namespace)
    return dump(doc) if chooser.below(2) else pretty(doc)


def _writer(command: str) -> Callable[[Corpus, Chooser], Case]:
    def make(corpus: Corpus, chooser: Chooser) -> Case:
        root = corpus.live
        argv = [command, str(root)]
        if command == "submit":
            how = chooser.below(4)
            if how == 0:
                _folder_file(corpus, root, chooser)
                data = pretty(next_move(corpus))
            else:
                data = _signed_file(corpus, chooser)
            argv.append(str(_scratch("move.json", data)))
        else:
            _folder_file(corpus, root, chooser)
            if command == "reveal" and chooser.below(2):
                argv.append("--force")
        if chooser.below(3) == 0:
            argv.append("--json")
        return Case(command, corpus.flavour, argv, root, writes=True)

    return make


def _join(corpus: Corpus, chooser: Chooser) -> Case:
    manifest = json.loads((corpus.live / "game.json").read_bytes())
    data = pretty(mutate_json(manifest, chooser, corpus.vocabulary))
    if chooser.below(5) == 0:
        data = mutate_bytes(data, chooser)
    path = _scratch("game.json", data)
    seat = pick(chooser, corpus.seats)
    out = work_dir() / "scratch" / "join.json"
    return Case("join", corpus.flavour, ["join", str(path), "--seat", seat, "--key", str(_key(corpus, seat)), "-o", str(out)])


def _signed_bytes(corpus: Corpus, chooser: Chooser) -> Case:
    path = _scratch("file.json", _signed_file(corpus, chooser))
    return Case("signed-bytes", corpus.flavour, ["signed-bytes", str(path)])


MAKERS: dict[str, Callable[[Corpus, Chooser], Case]] = {
    **{c: _state_reader(c) for c in READERS},
    **{c: _folder_reader(c) for c in FOLDER_READERS},
    **{c: _writer(c) for c in WRITERS},
    "join": _join,
    "signed-bytes": _signed_bytes,
}


def make(command: str, corpus: Corpus, chooser: Chooser) -> Case:
    """Return a hostile case of ``command`` on ``corpus``'s games."""
    pristine(corpus.live)
    pristine(corpus.revealed)
    next_move(corpus)  # read from the live folder before a case edits it
    try:
        return MAKERS[command](corpus, chooser)
    except BaseException:
        # hypothesis may stop a case between two draws (its data ran out): the next case
        # must find the folders as the referee left them.
        restore(corpus.live)
        restore(corpus.revealed)
        raise

