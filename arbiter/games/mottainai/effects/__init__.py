"""Card behaviour: one module per timing window, the registry and the dispatcher.

Importing this package imports every window module, so every ``@effect`` is registered
(and checked) once, at import.
"""

from arbiter.games.mottainai.effects import (  # noqa: F401  (registration by import)
    after_action,
    after_this,
    after_work,
    before_tailor,
    before_task,
    boosters,
    continuous,
    instead_of,
    morning_night,
    obstruction,
    scoring,
)
from arbiter.games.mottainai.effects.registry import REGISTRY, Effect, effect, implemented, missing

__all__ = ["REGISTRY", "Effect", "effect", "implemented", "missing"]
