"""``referee/notices.json``: when each channel last got a digest about this game.

    {"format": "arbiter.notices-sent/1",
     "sent": {"sha256:<channel>": {"time": "2026-12-05T08:00:00Z",
                                   "period": "2026-12-05T00:00:00Z", "entry": 12}}}

A channel is named by a digest of its kind, preset and target (``settings.Channel.key``),
so no URL or address is copied here. A run skips a channel that any of its games records
at or after the start of the current period: a cron job run twice sends nothing new.
Written atomically under the game's lock, after each delivery.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.errors import Tampered
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import open_nofollow_read

FORMAT = "arbiter.notices-sent/1"


def path(gd: GameDir) -> Path:
    return gd.referee / "notices.json"


def load(gd: GameDir) -> dict[str, dict[str, Any]]:
    """Return channel key -> its last digest's record."""
    try:
        data = open_nofollow_read(path(gd), 1024 * 1024)
    except FileNotFoundError:
        return {}
    record = parse_strict(data, "referee/notices.json")
    sent = record.get("sent") if isinstance(record, dict) else None
    if record.get("format") != FORMAT or not isinstance(sent, dict):
        raise Tampered(f"{gd.root}/referee/notices.json is damaged: delete it (the next run may repeat a digest)")
    return {str(k): v for k, v in sent.items() if isinstance(v, dict) and isinstance(v.get("time"), str)}


def record(gd: GameDir, key: str, time: str, period: str, entry: int) -> None:
    """Record that channel ``key`` got a digest naming this game at ``time``."""
    with gd.locked():
        sent = load(gd)
        sent[key] = {"time": time, "period": period, "entry": entry}
        gd.write(path(gd), pretty({"format": FORMAT, "sent": dict(sorted(sent.items()))}))
