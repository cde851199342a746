"""Which arbiter release ships which engine versions: an archive stays verifiable.

A game replays only with the engine version it was played with (rules change between
versions). ``game.json`` records the release that created it (``arbiter``); games made
before that field existed are matched by engine version. ``arbiter verify`` on a game
this release cannot replay names the release that can (docs/tournaments.md, "Archives").

Every release adds a line here; ``tests/golden/test_releases.py`` checks that the current
one matches the installed engines, and that one game per released engine version either
replays or is referred to the right release.
"""

from __future__ import annotations

from arbiter import __version__

# release -> {engine: version}, oldest first. 0.1.0 is the first audited referee (up to
# git commit eba7e85); 0.2.0 adds referee keys, receipts, sealed games and deadlines, and
# pins the Momiji and Mottainai rules changed in its hardening; 0.3.0 (wave 3) applies
# Wutai Mountain's tucking rule to card effects (Mottainai 0.3.0, M-R119); 0.4.0 lists the
# cards Jar shows and takes, Puppet passes and the Night line names in card order
# (Mottainai 0.4.0, M-R38, M-R128, M-R132), so that a game with no referee shows the same;
# 0.5.0 changes no engine: its peer games follow protocol 2 (arbiter.peer-game/2, deferred
# openings and pre-shares, docs/peer.md §5.2), and a peer game of protocol 1 is played and
# verified with 0.4.0 (arbiter/peer/folder.py, EARLIER).
RELEASES: dict[str, dict[str, str]] = {
    "0.1.0": {"mottainai": "0.1.0", "motcoin": "1.0.0", "momiji": "1.0.0"},
    "0.2.0": {"mottainai": "0.2.0", "motcoin": "1.0.0", "momiji": "1.1.0"},
    "0.3.0": {"mottainai": "0.3.0", "motcoin": "1.0.0", "momiji": "1.1.0"},
    "0.4.0": {"mottainai": "0.4.0", "motcoin": "1.0.0", "momiji": "1.1.0"},
    "0.5.0": {"mottainai": "0.4.0", "motcoin": "1.0.0", "momiji": "1.1.0"},
}


def releases_with(engine: str, version: str) -> list[str]:
    """Return the releases that ship ``engine`` at ``version``, newest first."""
    return [r for r, engines in reversed(RELEASES.items()) if engines.get(engine) == version]


def advice(engine: str, version: str, created_with: str | None) -> str:
    """Return which release to install for a game of ``engine`` ``version``."""
    if created_with is not None and RELEASES.get(created_with, {}).get(engine) == version:
        return f"verify it with arbiter {created_with}, the release that created it"
    known = releases_with(engine, version)
    if known:
        return f"verify it with arbiter {known[0]}, the latest release that ships {engine} {version}"
    made = f" (game.json says arbiter {created_with} made it)" if created_with else ""
    return (
        f"no arbiter release this one knows ships {engine} {version}{made}: "
        f"a newer release may (this is arbiter {__version__})"
    )
