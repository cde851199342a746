"""The game engines shipped with arbiter, one package per game (see arbiter.core.registry)."""
