"""After an action (Cup, Deck Of Cards, Gong, Plane, Ring).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from arbiter.games.mottainai.effects.registry import effect  # noqa: F401
