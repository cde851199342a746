"""Instead of a Morning step (Chopsticks, Handkerchief, Sketch, Doll).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from arbiter.games.mottainai.effects.registry import effect  # noqa: F401
