"""Mot Coin: bid dice for cryptocurrency cards, then survive the price rise and the crash."""

from arbiter.games.motcoin.engine import MotCoinEngine

__all__ = ["MotCoinEngine"]
