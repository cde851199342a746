"""Build the self-contained HTML replay page of a game folder.

One file: the page's HTML, CSS and JavaScript inline (package data next to this module),
the engine's drawing script, and the frames of the viewers the page may show as one JSON
``<script type="application/json">``. No network, no font, nothing outside the file: it
works from ``file://``. The bytes depend only on the game folder (no date, no path), so
the committed example pages can be checked for drift.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from arbiter.viewer import glossary, payload

STATIC = ("viewer.css", "dom.js", "viewer.js")


@dataclass
class Page:
    """A built page and what it holds."""

    html: str
    viewers: list[str | None]
    entries: int

    @property
    def data(self) -> bytes:
        return self.html.encode("utf-8")


def _asset(name: str) -> str:
    return (resources.files("arbiter.viewer") / "static" / name).read_text(encoding="utf-8")


def drawing(engine: str) -> str:
    """Return the engine's drawing script, or an empty one (the generic table draws)."""
    path = resources.files("arbiter.viewer") / "static" / f"draw_{engine}.js"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def script_json(value: Any) -> str:
    """Return JSON safe inside a ``<script>`` element: no ``<`` at all (so no ``</script>``
    and no ``<!--``), and the same bytes for the same value."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def choose_viewers(root: Path, seat: str | None) -> list[str | None]:
    """Return the viewers the page offers: all the timeline allows, or only ``seat``."""
    from arbiter.core.errors import NotReady, UnknownSeat
    from arbiter.core.ledger import read_json
    from arbiter.core.timeline import viewers

    allowed = viewers(root)
    if seat is None:
        return allowed
    if seat in allowed:
        return [seat]
    seats = [s["seat"] for s in read_json(root / "game.json", "game.json")["seats"]]
    if seat not in seats:
        raise UnknownSeat(f"seat {seat} is not in this game: its seats are {', '.join(seats)}")
    raise NotReady(
        f"{seat}'s view is available only after the reveal: make the spectator's page "
        "(without --seat), or wait for `arbiter reveal`"
    )


def build(root: Path, seat: str | None = None, upto: int | None = None) -> Page:
    """Return the replay page of the game at ``root`` for ``seat`` (default: every viewer
    the timeline allows: the spectator before the reveal, every seat after it).

    ``upto``: only entries 0..upto, for a page published behind a running game
    (``tournament report --public-delay``); nothing after that entry is embedded."""
    from arbiter.core import registry
    from arbiter.core.timeline import frames_for

    chosen = choose_viewers(root, seat)
    got = frames_for(root, chosen)  # one replay for every viewer
    if upto is not None:
        got = {viewer: [f for f in frames if f.seq <= upto] for viewer, frames in got.items()}
    if not got[chosen[0]]:
        from arbiter.core.errors import NotReady

        raise NotReady(f"{root} has no chain entries yet: nothing to replay")
    last = got[chosen[0]][-1].state
    name = last["engine"]["name"]
    info = registry.get(name).info  # the frames were replayed with it
    title, columns = info.title, list(info.score_columns)
    encoded = payload.encode(chosen, got)
    data = {
        "format": payload.FORMAT,
        "game": last["game"],
        "engine": last["engine"],
        "title": title,
        "seats": last["seats"],
        "score_columns": columns,
        "viewers": chosen,
        # Every string of every embedded state is in the deltas: walk those, not the states.
        "glossary": glossary.glossary(name, encoded["views"]),
        **encoded,
    }
    heading = f"{title} — game {last['game']}"
    text = (
        _asset("viewer.html")
        .replace("{{title}}", html.escape(heading))
        .replace("{{css}}", _asset("viewer.css"))
        .replace("{{js}}", _asset("dom.js") + "\n" + _asset("viewer.js") + "\n" + drawing(name))
        .replace("{{data}}", script_json(data))
    )
    return Page(text, chosen, len(data["entries"]))


def embedded(text: str) -> dict[str, Any]:
    """Return the data a page embeds (tests read it back)."""
    start = text.index('<script type="application/json" id="replay-data">')
    start = text.index(">", start) + 1
    end = text.index("</script>", start)
    result: dict[str, Any] = json.loads(text[start:end])
    return result
