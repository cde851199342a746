"""Tests of the player's desk (``arbiter play``): profile, outbox, transports through real parts."""
