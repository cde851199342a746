"""``arbiter play --web``: the player's game in a local browser page (docs/player-desk.md).

A loopback HTTP server (standard library) serves one static page and the session's
snapshot; picks, undo and send are requests the server applies to the session, so the
key is used only in this process and never reaches the browser.
"""

from arbiter.play.web.server import PlayServer, serve

__all__ = ["PlayServer", "serve"]
