"""Transports that feed the referee: each is a loop around ``core.referee.submit``."""
