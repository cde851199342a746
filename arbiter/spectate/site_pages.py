"""The site's replay pages: ``arbiter html``'s page of a game, cut at an entry, with a
Content-Security-Policy; and when a page already in the site can be kept as it is.

The policy allows nothing but the page's own inline style and script, each by its hash:
no request of any kind (no image, font, frame, fetch or form target), so even a page
someone managed to inject text into could load nothing. The replay page is the viewer's
own (``arbiter.viewer.page.build``), not a copy of it.

Replaying is the costly part of a site (one whole replay per game), and a site is
regenerated after every submit, so a page is kept when nothing it follows from changed:
the entry it ends at (whose hash fixes every entry before it), the reveal, the arbiter
release and the viewer's assets; and only when its bytes on disk are the ones
``site.json`` recorded.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arbiter.spectate.delay import Shown


def replay_page(game: Path, upto: int) -> bytes:
    """The game's replay page (``arbiter html``) through entry ``upto``, with its CSP."""
    from arbiter.viewer.page import build as build_page

    return with_csp(build_page(game, None, upto=upto).html).encode("utf-8")


def _inline_hashes(text: str, tag: str) -> list[str]:
    """The CSP hash sources of each ``<tag>`` element without attributes (a JSON data
    ``<script type=...>`` is not run, so it needs none)."""
    found = re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.DOTALL)
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in found
    ]


def policy(text: str) -> str:
    """A Content-Security-Policy allowing nothing but the page's own inline style and
    script: no request of any kind, no base, no form target."""
    parts = ["default-src 'none'"]
    scripts, styles = _inline_hashes(text, "script"), _inline_hashes(text, "style")
    if scripts:
        parts.append("script-src " + " ".join(scripts))
    if styles:
        parts.append("style-src " + " ".join(styles))
    parts += ["base-uri 'none'", "form-action 'none'"]
    return "; ".join(parts)


CHARSET = '<meta charset="utf-8">'


def with_csp(text: str) -> str:
    """Put the page's policy right after its charset, before anything it governs."""
    if CHARSET not in text:
        raise AssertionError("the page has no charset meta to put its policy after")
    content = html.escape(policy(text), quote=False)  # a policy has no '"' to escape
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content}">'
    return text.replace(CHARSET, CHARSET + "\n" + meta, 1)


def page_key(game: str, shown: Shown, revealed: bool) -> str:
    """What a page's bytes follow from: the entry it ends at (whose hash fixes every
    entry before it), whether the game is revealed (seats' views), and the release and
    replay page assets that draw it."""
    from arbiter import __version__
    from arbiter.core.canonical import canonical

    return hashlib.sha256(
        canonical(
            {
                "arbiter": __version__,
                "assets": _assets_digest(),
                "game": game,
                "upto": shown.upto,
                "hash": shown.hash,
                "revealed": revealed,
            }
        )
    ).hexdigest()


@functools.cache
def _assets_digest() -> str:
    from importlib import resources

    digest = hashlib.sha256()
    static = resources.files("arbiter.viewer") / "static"
    for item in sorted(static.iterdir(), key=lambda p: p.name):
        if item.is_file():
            digest.update(item.name.encode() + b"\0" + item.read_bytes() + b"\0")
    return digest.hexdigest()


def reusable(previous: Mapping[str, Any] | None) -> dict[str, dict[str, str]]:
    """The pages a previous site.json says it built: path → {key, sha256}."""
    out: dict[str, dict[str, str]] = {}
    if not previous:
        return out
    for played in previous.get("rounds", []):
        for table in played.get("tables", []):
            replay = table.get("replay") or {}
            built = replay.get("built")
            if isinstance(replay.get("page"), str) and isinstance(built, dict):
                out[replay["page"]] = built
    return out


def reused(out: Path | None, page: str, built: dict[str, str] | None, key: str) -> bytes | None:
    """The page already in the site, when it was built from the same things and its
    bytes are the ones recorded (else it is built again)."""
    if out is None or built is None or built.get("key") != key:
        return None
    try:
        data = (out / page).read_bytes()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == built.get("sha256") else None
