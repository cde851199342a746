"""Deadlines: terms fixed in game.json, and the arithmetic of times the referee records.

A game created with ``--deadline`` records ``{"seconds", "grace", "on_timeout", "bot"}``
in ``game.json`` (players sign these terms when they join), and every chain entry of such
a game carries the referee's clock reading as ``time`` (UTC, ``YYYY-MM-DDTHH:MM:SSZ``).
The seat a game waits for has ``seconds`` from the last entry's time, then ``grace``;
after that ``arbiter timeout`` records a timeout entry applying the policy
(docs/tournaments.md). Engines never see any of this: time enters at the referee's edge
as a string argument, and this module only does arithmetic on those strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from arbiter.core.errors import UsageError

POLICIES = ("pass", "bot", "forfeit")
BOTS = ("random", "greedy", "search")
TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"
_TIME = re.compile(TIME_PATTERN)
_DURATION = re.compile(r"([0-9]+)([smhd])")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}
# Longer than any correspondence game allows (ICCF: 40 days without a move loses).
MAX_SECONDS = 366 * 86400


def parse_duration(text: str, what: str = "--deadline", minimum: int = 1) -> int:
    """Return seconds for ``72h``, ``3d``, ``90m``, ``45s`` or a sum like ``1d12h``
    (``minimum``: 0 for a grace period, which may be none)."""
    cleaned = text.strip().lower()
    parts = _DURATION.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise UsageError(f"{what} {text[:20]!r} must look like 72h, 3d, 90m or 1d12h")
    seconds = sum(int(n) * _UNIT[u] for n, u in parts)
    if not minimum <= seconds <= MAX_SECONDS:
        raise UsageError(f"{what} {text[:20]!r} must be between {minimum} seconds and 366 days")
    return seconds


def describe_duration(seconds: int) -> str:
    """Return ``72h`` for 259200, ``1d12h`` style for mixed units, ``0s`` for zero."""
    out = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size:
            out.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(out) or "0s"


def check_time(text: str, what: str = "time") -> str:
    """Return ``text`` if it is a UTC time as the referee records it, else raise."""
    if not isinstance(text, str) or not _TIME.fullmatch(text):
        raise UsageError(f"{what} {str(text)[:30]!r} must be a UTC time like 2026-12-01T10:00:00Z")
    try:
        _parse(text)
    except UsageError:
        raise UsageError(
            f"{what} {text!r} is not a valid date and time: use a UTC time like "
            "2026-12-01T10:00:00Z"
        ) from None
    return text


# Date arithmetic by hand (the proleptic Gregorian calendar, as Howard Hinnant's
# days_from_civil and civil_from_days): the core imports no clock module at all.
def _days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, d


def _parse(text: str) -> int:
    """Return seconds since 1970-01-01T00:00:00Z of a checked time string."""
    y, mo, d = int(text[0:4]), int(text[5:7]), int(text[8:10])
    h, mi, s = int(text[11:13]), int(text[14:16]), int(text[17:19])
    days_in = [31, 29 if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else 28, 31, 30, 31,
               30, 31, 31, 30, 31, 30, 31]
    if not (1 <= mo <= 12 and 1 <= d <= days_in[mo - 1] and h < 24 and mi < 60 and s < 60):
        raise UsageError(f"{text[:30]!r} is not a valid date and time")
    return _days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s


def _format(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    y, m, d = _civil_from_days(days)
    return f"{y:04d}-{m:02d}-{d:02d}T{rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}Z"


def seconds_between(start: str, end: str) -> int:
    """``end - start`` in seconds (negative when ``end`` comes first)."""
    return _parse(end) - _parse(start)


def add(time: str, seconds: int) -> str:
    """Return ``time`` plus ``seconds``, in the same form."""
    return _format(_parse(time) + seconds)


def at_or_after(a: str, b: str) -> bool:
    """Whether time ``a`` is at or after time ``b`` (the fixed form sorts as text)."""
    return a >= b


@dataclass(frozen=True)
class Terms:
    """A game's deadline terms, as game.json records them."""

    seconds: int
    grace: int
    on_timeout: str
    bot: str | None
    forfeit_after: int | None = None
    """After this many timeouts of one seat in a row (no move of its own between them),
    the next forfeits instead (ICCF: a player who stops moving loses)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seconds": self.seconds,
            "grace": self.grace,
            "on_timeout": self.on_timeout,
            "bot": self.bot,
            "forfeit_after": self.forfeit_after,
        }

    def policy_for(self, in_a_row: int) -> str:
        """The policy of a seat's next timeout, after ``in_a_row`` timeouts before it."""
        if self.forfeit_after is not None and in_a_row + 1 >= self.forfeit_after:
            return "forfeit"
        return self.on_timeout

    def due(self, since: str) -> str:
        """When the waiting seat's time runs out (the grace period starts)."""
        return add(since, self.seconds)

    def final(self, since: str) -> str:
        """When the grace period ends: from then on the timeout policy applies."""
        return add(since, self.seconds + self.grace)

    def half(self, since: str) -> str:
        """Half time: the first reminder."""
        return add(since, self.seconds // 2)


def make_terms(
    seconds: int | None,
    grace: int = 0,
    on_timeout: str = "pass",
    bot: str | None = None,
    forfeit_after: int | None = None,
) -> Terms | None:
    """Return checked terms for ``arbiter new`` (``None`` when there is no deadline)."""
    if seconds is None:
        if grace or on_timeout != "pass" or bot is not None or forfeit_after is not None:
            raise UsageError(
                "--grace, --on-timeout, --timeout-bot and --forfeit-after need a --deadline"
            )
        return None
    if forfeit_after is not None and not 1 <= forfeit_after <= 1000:
        raise UsageError("--forfeit-after must be a number of timeouts from 1 to 1000")
    if on_timeout not in POLICIES:
        raise UsageError(f"--on-timeout must be one of {', '.join(POLICIES)}, not {on_timeout!r}")
    if on_timeout == "bot":
        bot = bot or "random"
        if bot not in BOTS:
            raise UsageError(f"--timeout-bot must be one of {', '.join(BOTS)}, not {bot!r}")
    elif bot is not None:
        raise UsageError("--timeout-bot is for --on-timeout bot")
    return Terms(seconds, grace, on_timeout, bot, forfeit_after)


def terms_of(manifest: dict[str, Any]) -> Terms | None:
    """Return the deadline terms of a game, or ``None`` when it has none."""
    raw = manifest.get("deadline")
    if raw is None:
        return None
    return Terms(
        raw["seconds"], raw["grace"], raw["on_timeout"], raw.get("bot"), raw.get("forfeit_after")
    )
