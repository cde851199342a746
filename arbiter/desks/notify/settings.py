"""Who gets which notices: ``referee/notices.toml``, private like the mail addresses.

    [seats.alice]
    webhook = "https://ntfy.sh/alice-games-7f3a"   # http or https
    preset = "ntfy"                 # json (default) | ntfy | slack | discord

    [seats.bob]
    mail = "bob@example.org"        # an address, or true: the one referee/addresses.json has

    [seats.carol]
    mail = false                    # no notices at all

A seat not listed, or listed without ``webhook`` and ``mail``, gets its digest by mail at
the address the mail desk has for it, when the run can send mail (an ``[smtp]`` config).
A run that cannot send mail leaves out the mail channels and says so.
A webhook URL is a secret (whoever has it can post there): like an address it never leaves
``referee/``, and output names only its preset and host.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from arbiter.core.errors import UsageError
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import open_nofollow_read, shown

PRESETS = ("json", "ntfy", "slack", "discord")
_SEAT_KEYS = {"webhook", "preset", "mail"}
_NTFY_TOPIC = re.compile(r"[-_A-Za-z0-9]{1,64}")
MAX_BYTES = 256 * 1024


@dataclass(frozen=True)
class Channel:
    """One way to reach one recipient: all the seats (of any games) that share it get one
    digest together."""

    kind: str
    """``mail`` or ``webhook``."""
    target: str
    """The address or the URL."""
    preset: str = "mail"
    """The payload shape of a webhook (``PRESETS``); ``mail`` for mail."""

    @property
    def key(self) -> str:
        """The channel's name in ``referee/notices.json`` (a digest: no URL copied there)."""
        label = f"{self.kind}\n{self.preset}\n{self.target}"
        return "sha256:" + hashlib.sha256(label.encode("utf-8")).hexdigest()

    @property
    def label(self) -> str:
        """How output names it: the preset and host, never the whole URL (a secret)."""
        if self.kind == "mail":
            return f"mail to {self.target}"
        return f"{self.preset} webhook at {urlsplit(self.target).hostname}"


def path(gd: GameDir) -> Path:
    return gd.referee / "notices.toml"


def load(gd: GameDir, seats: list[str], addresses: dict[str, str], mail: bool) -> dict[str, list[Channel]]:
    """Return seat -> its channels in the game at ``gd``.

    ``addresses``: the mail desk's (``referee/addresses.json``); ``mail``: whether this run
    can send mail (without it, only the seats' explicit ``mail`` settings give a mail
    channel, which the run then reports as not sent). Raises ``UsageError`` naming the file and the key on a bad file.
    """
    where = shown(path(gd))
    try:
        data = open_nofollow_read(path(gd), MAX_BYTES)
    except FileNotFoundError:
        raw: dict[str, Any] = {}
    else:
        try:
            raw = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise UsageError(f"{where} is not valid TOML ({exc}): fix the file") from None
    for key in raw:
        if key != "seats":
            raise UsageError(f"{where}: unknown key {key[:40]!r}: the file holds only [seats.NAME] tables")
    table = raw.get("seats", {})
    if not isinstance(table, dict):
        raise UsageError(f"{where}: seats must be tables like [seats.alice]")
    for seat in table:
        if seat not in seats:
            raise UsageError(f"{where}: seat {seat[:40]!r} is not in this game (seats: {', '.join(seats)})")
    out: dict[str, list[Channel]] = {}
    for seat in seats:
        entry = table.get(seat, {})
        if not isinstance(entry, dict):
            raise UsageError(f"{where}: seats.{seat} must be a table")
        out[seat] = _channels(entry, f"{where}: seats.{seat}", addresses.get(seat), mail)
    return out


def _channels(entry: dict[str, Any], where: str, address: str | None, mail: bool) -> list[Channel]:
    for key in entry:
        if key not in _SEAT_KEYS:
            raise UsageError(f"{where}: unknown key {key[:40]!r} (allowed: {', '.join(sorted(_SEAT_KEYS))})")
    channels = []
    webhook = entry.get("webhook")
    preset = entry.get("preset", "json")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise UsageError(f"{where}.preset must be one of {', '.join(PRESETS)}")
    if webhook is not None:
        channels.append(Channel("webhook", check_url(webhook, f"{where}.webhook", preset), preset))
    elif "preset" in entry:
        raise UsageError(f"{where}.preset needs a webhook")
    wanted = entry.get("mail", webhook is None)
    if isinstance(wanted, str):
        from arbiter.desks.mail.addresses import normalise

        try:
            bare = normalise(wanted)
        except UsageError:
            raise UsageError(f"{where}.mail must be one mail address, true or false") from None
        channels.append(Channel("mail", bare.lower()))
    elif not isinstance(wanted, bool):
        raise UsageError(f"{where}.mail must be one mail address, true or false")
    elif wanted and address and (mail or "mail" in entry):
        channels.append(Channel("mail", address.lower()))
    elif wanted and "mail" in entry:
        raise UsageError(f"{where}.mail is true but the seat has no address: `arbiter mail seat` records one")
    return channels


def check_url(value: Any, where: str, preset: str) -> str:
    """Return ``value`` if it is an http(s) URL a preset can post to, else raise."""
    if not isinstance(value, str) or len(value) > 2000 or any(c.isspace() for c in value):
        raise UsageError(f"{where} must be an http or https URL")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{where} must be an http or https URL with a host")
    if preset == "ntfy" and not _NTFY_TOPIC.fullmatch(parts.path.rpartition("/")[2]):
        raise UsageError(f"{where} must be an ntfy topic URL, like https://ntfy.sh/my-topic")
    return value
