"""The referee's clock: the one place arbiter reads the time (DESIGN.md "Time enters at
the edge"), at the core's edge: ``core/referee.py`` reads it when no time is given, and it
imports nothing above the core.

Engines and replays never see it. The referee stamps chain entries of games with
deadlines with it and compares it with deadlines (``arbiter timeout``); the CLI stamps
``created``. ``ARBITER_NOW`` (a UTC time like ``2026-12-01T10:00:00Z``) replaces the
clock: tests inject time this way, and a referee can re-run a cron job's decision.
"""

from __future__ import annotations

import datetime
import os


def now_utc() -> str:
    """Return the current UTC time to the second, e.g. ``2026-12-01T10:00:00Z``."""
    fixed = os.environ.get("ARBITER_NOW")
    if fixed:
        from arbiter.core.deadlines import check_time

        return check_time(fixed.strip(), "ARBITER_NOW")
    return (
        datetime.datetime.now(datetime.UTC)
        .replace(microsecond=0)
        .isoformat()
        .replace("+00:00", "Z")
    )
