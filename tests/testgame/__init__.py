"""The tally test game: a small engine that exercises the whole engine protocol."""

from testgame.engine import TallyEngine

__all__ = ["TallyEngine"]
