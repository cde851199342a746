"""Bots that play any registered engine (the random legal-move bot, later better ones)."""

from arbiter.bots.random_bot import PlayoutTooLong, Step, choose, iter_playout, playout

__all__ = ["PlayoutTooLong", "Step", "choose", "iter_playout", "playout"]
