"""Action boosters, "for your …" (Bell, Brick, Crane, Flute, Robe, Socks, Straw, Sword).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from arbiter.games.mottainai.effects.registry import effect  # noqa: F401
