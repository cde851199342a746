"""Mottainai: acolytes of a temple complete works of art from cards that are also tasks."""

from arbiter.games.mottainai.engine import MottainaiEngine

__all__ = ["MottainaiEngine"]
