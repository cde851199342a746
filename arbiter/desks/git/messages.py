"""The desk's commit messages: the first line says what the commit is, the body lists why.

- ``entry #N: move by alice`` (with one line per inbox file it handled), ``inbox: N
  file(s) rejected``, ``entry #N: timeout of bob (pass)``;
- the opening commit of a round whose game folder must change first: ``publish:`` (the
  first round), ``reveal:``, ``update:`` (the referee's folder changed since the desk's last
  push: ``arbiter repair`` or ``submit`` by hand, or a round killed before its push),
  ``repair:`` (someone changed the published files), ``restore:`` (a force-push).

A round killed after it recorded a timeout and before its push leaves that entry to the
next round's opening commit: it is titled as the timeout's own commit would have been,
from the chain and the referee's signed record, so no entry loses its commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbiter.core.canonical import digest, parse_strict
from arbiter.core.chain import iter_chain
from arbiter.core.errors import ArbiterError
from arbiter.core.gamedir import GameDir
from arbiter.desks.git.judge import Handled


def few(names: Sequence[str], limit: int = 6) -> str:
    shown_names = ", ".join(names[:limit])
    return shown_names + (f", and {len(names) - limit} more" if len(names) > limit else "")


def body(title: str, names: Sequence[str]) -> str:
    return title + ("\n\n" + "\n".join(names) if names else "")


def handled(title: str, files: Sequence[Handled]) -> str:
    return title + "\n\n" + "\n".join(f"{h.file}: {h.line}" for h in files)


def timeout_title(seq: int, seat: str, policy: str) -> str:
    return f"entry #{seq}: timeout of {seat} ({policy})"


def opening(
    game: str,
    in_repo: Mapping[str, str],
    published_before: str | None,
    names: Sequence[str],
    unpublished_timeouts: Sequence[str],
) -> str:
    """The message of a round's first commit when the game folder must change.

    ``published_before`` is the fingerprint the desk recorded at its last push, and
    ``unpublished_timeouts`` the titles of timeout entries the repository lacks.
    """
    from arbiter.desks.git.trees import fingerprint

    if not in_repo and published_before is None:
        return f"publish: game {game} from the referee's record"
    if published_before is not None and fingerprint(in_repo) == published_before:
        if "reveal/reveal.json" in names and "reveal/reveal.json" not in in_repo:
            return body("reveal: the game is over; its secret and signed files are public", names)
        if unpublished_timeouts:
            return body("; ".join(unpublished_timeouts), [])
        return body("update: the referee's record changed (" + few(names) + ")", names)
    return body(
        "repair: files outside the inbox rebuilt from the referee's record (" + few(names) + ")",
        names,
    )


def timeouts_after(gd: GameDir, manifest: dict[str, Any], published_chain: bytes) -> list[str]:
    """Titles of the timeout entries of the referee's chain after ``published_chain`` (the
    repository's, as the desk last pushed it); empty unless every later entry is one."""
    known = published_chain.count(b"\n")  # entries 0 … known-1 are published
    titles = []
    try:
        for entry in iter_chain(gd.chain, digest(manifest)):
            if entry["seq"] < known:
                continue
            if entry["kind"] != "timeout":
                return []  # moves come back through their inbox files
            titles.append(
                timeout_title(entry["seq"], str(entry["seat"]), _policy(gd, entry["seq"]))
            )
    except (ArbiterError, OSError):
        return []
    return titles


def _policy(gd: GameDir, seq: int) -> str:
    """The policy the referee's signed timeout record for entry ``seq`` names."""
    with open(gd.referee_signed, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if number == seq:
                record = parse_strict(line.rstrip(b"\n"), "referee/signed.jsonl")
                policy = record.get("policy") if isinstance(record, dict) else None
                return policy if isinstance(policy, str) else "?"
    return "?"
