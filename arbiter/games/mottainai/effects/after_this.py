"""After you complete this work (Frog, Jar, Shuriken, Statue, Tablet, Vase).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from arbiter.games.mottainai.effects.registry import effect  # noqa: F401
