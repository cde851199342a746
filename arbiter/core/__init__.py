"""The game-agnostic referee. Engines import from here; nothing here imports an engine."""
