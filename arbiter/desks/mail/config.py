"""The mail desk's configuration file (TOML): where mail comes from, goes to, and games live.

    [imap]
    host = "imap.example.org"
    port = 993                      # default: 993 with tls, else 143
    user = "referee"
    password_file = "~/.arbiter/imap-password"   # or password_env = "ARBITER_IMAP_PASSWORD"
    tls = "tls"                     # tls | starttls | none
    verify_certificate = true       # default true; cafile = "..." to trust a private CA
    mailbox = "INBOX"
    processed = "processed"
    rejected = "rejected"
    quarantine = "quarantine"       # mail that cannot be read; created if missing

    [smtp]
    host = "smtp.example.org"
    port = 465                      # default: 465 with tls, 587 with starttls, else 25
    user = "referee"                # optional: no AUTH without it
    password_file = "..."
    tls = "tls"
    from = "Referee <referee@example.org>"

    [desk]
    games = "~/games"               # one folder per game below it
    poll_seconds = 60               # when the server has no IDLE
    observers = ["watcher@example.org"]
    max_per_sender = 60             # files judged per sender per hour (a flood guard)

    [notices]                       # optional: turn-notice digests (docs/notices.md)
    period = "1d"                   # at most one digest per seat per period (default 1d)

Passwords come from a file or an environment variable, never from the command line or
the config itself. A bad file is one line naming the key (exit 2).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, UsageError
from arbiter.core.safeio import read_input, shown

TLS_MODES = ("tls", "starttls", "none")


@dataclass(frozen=True)
class Server:
    """How to reach one server."""

    host: str
    port: int
    tls: str
    user: str | None
    password: str | None = field(repr=False)
    verify_certificate: bool
    cafile: Path | None


@dataclass(frozen=True)
class Imap(Server):
    mailbox: str = "INBOX"
    processed: str = "processed"
    rejected: str = "rejected"
    quarantine: str = "quarantine"


@dataclass(frozen=True)
class Smtp(Server):
    sender: str = ""
    """The desk's own From: address (``from`` in the file)."""

    @property
    def address(self) -> str:
        """The bare address of ``sender`` (lower case), to recognise the desk's own mail."""
        return getaddresses([self.sender])[0][1].lower()


@dataclass(frozen=True)
class Desk:
    games: Path
    poll_seconds: int = 60
    observers: tuple[str, ...] = ()
    max_per_sender: int = 60


@dataclass(frozen=True)
class Notices:
    """The desk's turn notices (``[notices]``): each seat's digest of waiting games."""

    period: int = 86400
    """Seconds: at most one digest per recipient in each period."""


@dataclass(frozen=True)
class Config:
    imap: Imap
    smtp: Smtp
    desk: Desk
    path: Path
    notices: Notices | None = None
    """None when the config has no ``[notices]`` section: the desk sends no digests."""


def _read(path: Path) -> tuple[dict[str, Any], Path]:
    where = shown(path)
    data = read_input(path, f"mail config {where}")
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{where} is not valid TOML ({exc}): fix the file") from None
    _only(raw, "", {"imap", "smtp", "desk", "notices"})
    return raw, path.expanduser().resolve().parent


def load_smtp(path: Path) -> Smtp:
    """Read only the ``[smtp]`` section (a player's `arbiter mail send` needs no more)."""
    raw, base = _read(path)
    return _smtp(_section(raw, "smtp"), base)


def _smtp(smtp_raw: dict[str, Any], base: Path) -> Smtp:
    _only(smtp_raw, "smtp.", {*_SERVER_KEYS, "from"})
    sender = _text(smtp_raw, "smtp.from", None)
    if sender is None or not _address(sender):
        raise UsageError("smtp.from must be a mail address, e.g. 'Referee <ref@example.org>'")
    return Smtp(**_server(smtp_raw, "smtp", base, {"tls": 465, "starttls": 587}, 25), sender=sender)


def load_mailboxes(path: Path) -> tuple[Imap, Smtp]:
    """Read only ``[imap]`` and ``[smtp]`` (a player's own mailbox and sender: `arbiter
    play` by mail needs no ``[desk]``)."""
    raw, base = _read(path)
    return _imap(_section(raw, "imap"), base), _smtp(_section(raw, "smtp"), base)


def _imap(imap_raw: dict[str, Any], base: Path) -> Imap:
    _only(imap_raw, "imap.", {*_SERVER_KEYS, "mailbox", "processed", "rejected", "quarantine"})
    return Imap(
        **_server(imap_raw, "imap", base, {"tls": 993}, 143),
        mailbox=_text(imap_raw, "imap.mailbox", None) or "INBOX",
        processed=_text(imap_raw, "imap.processed", None) or "processed",
        rejected=_text(imap_raw, "imap.rejected", None) or "rejected",
        quarantine=_text(imap_raw, "imap.quarantine", None) or "quarantine",
    )


def load(path: Path) -> Config:
    """Read and check a configuration file; raise ``UsageError`` naming the bad key."""
    raw, base = _read(path)
    imap_raw = _section(raw, "imap")
    smtp_raw = _section(raw, "smtp")
    desk_raw = _section(raw, "desk")
    imap = _imap(imap_raw, base)
    _only(desk_raw, "desk.", {"games", "poll_seconds", "observers", "max_per_sender"})
    where = shown(path)
    smtp = _smtp(smtp_raw, base)
    games = _text(desk_raw, "desk.games", None)
    if games is None:
        raise UsageError(f"{where}: desk.games is missing: give the folder that holds the games")
    observers = desk_raw.get("observers", [])
    if not isinstance(observers, list) or not all(isinstance(o, str) and _address(o) for o in observers):
        raise UsageError(f"{where}: desk.observers must be a list of mail addresses")
    desk = Desk(
        games=_path(games, base),
        poll_seconds=_int(desk_raw, "desk.poll_seconds", 60, 1, 86_400),
        observers=tuple(observers),
        max_per_sender=_int(desk_raw, "desk.max_per_sender", 60, 1, 100_000),
    )
    return Config(imap, smtp, desk, path, _notices(raw))


def _notices(raw: dict[str, Any]) -> Notices | None:
    if "notices" not in raw:
        return None
    from arbiter.core.deadlines import parse_duration

    section = _section(raw, "notices")
    _only(section, "notices.", {"period"})
    period = _text(section, "notices.period", None) or "1d"
    return Notices(parse_duration(period, "notices.period", minimum=60))


_SERVER_KEYS = {
    "host", "port", "user", "password_file", "password_env", "tls", "verify_certificate", "cafile",
}


def _server(
    raw: dict[str, Any], name: str, base: Path, ports: dict[str, int], plain_port: int
) -> dict[str, Any]:
    host = _text(raw, f"{name}.host", None)
    if not host:
        raise UsageError(f"{name}.host is missing: give the {name.upper()} server's name")
    tls = _text(raw, f"{name}.tls", None) or "tls"
    if tls not in TLS_MODES:
        raise UsageError(f"{name}.tls must be one of {', '.join(TLS_MODES)}, not {tls[:20]!r}")
    port = _int(raw, f"{name}.port", ports.get(tls, plain_port), 1, 65_535)
    verify = raw.get("verify_certificate", True)
    if not isinstance(verify, bool):
        raise UsageError(f"{name}.verify_certificate must be true or false")
    cafile = _text(raw, f"{name}.cafile", None)
    user = _text(raw, f"{name}.user", None)
    return {
        "host": host,
        "port": port,
        "tls": tls,
        "user": user,
        "password": _password(raw, name, base, required=user is not None),
        "verify_certificate": verify,
        "cafile": _path(cafile, base) if cafile else None,
    }


def _password(raw: dict[str, Any], name: str, base: Path, required: bool) -> str | None:
    """Read the password from ``password_file`` or the variable named by ``password_env``."""
    if "password_file" in raw and "password_env" in raw:
        raise UsageError(f"{name}: give password_file or password_env, not both")
    if "password_env" in raw:
        variable = _text(raw, f"{name}.password_env", None) or ""
        value = os.environ.get(variable)
        if value is None:
            raise UsageError(f"{name}.password_env names {variable[:40]!r}, which is not set")
        return value
    if "password_file" in raw:
        path = _path(_text(raw, f"{name}.password_file", None) or "", base)
        try:
            text = read_input(path, f"{name}.password_file {shown(path)}", 4096)
        except ArbiterError as exc:  # a config mistake: exit 2 like every other
            raise UsageError(exc.message) from None
        return text.decode("utf-8", "replace").rstrip("\r\n")
    if required:
        raise UsageError(f"{name}.user is set but no password: add password_file or password_env")
    return None


def _section(raw: dict[str, Any], name: str) -> dict[str, Any]:
    section = raw.get(name)
    if not isinstance(section, dict):
        raise UsageError(f"the [{name}] section is missing from the mail config")
    return section


def _only(raw: dict[str, Any], prefix: str, allowed: set[str]) -> None:
    for key in raw:
        if key not in allowed:
            raise UsageError(
                f"unknown key {prefix}{key[:40]} in the mail config: allowed are {', '.join(sorted(allowed))}"
            )


def _text(raw: dict[str, Any], key: str, default: str | None) -> str | None:
    value = raw.get(key.rsplit(".", 1)[-1], default)
    if value is not None and not isinstance(value, str):
        raise UsageError(f"{key} must be a string")
    return value


def _int(raw: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = raw.get(key.rsplit(".", 1)[-1], default)
    if type(value) is not int or not low <= value <= high:
        raise UsageError(f"{key} must be a whole number from {low} to {high}")
    return value


def _path(text: str, base: Path) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


def _address(text: str) -> bool:
    """Return whether ``text`` holds exactly one plausible mail address."""
    found = getaddresses([text])
    if len(found) != 1 or "@" not in found[0][1]:
        return False
    try:
        local, _, domain = found[0][1].rpartition("@")
        Address(username=local, domain=domain)
    except (ValueError, IndexError):
        return False
    return True
