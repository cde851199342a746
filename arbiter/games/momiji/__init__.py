"""Momiji: collect autumn leaves from the imperial garden, pile them and meet objectives."""

from arbiter.games.momiji.engine import MomijiEngine

__all__ = ["MomijiEngine"]
