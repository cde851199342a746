"""Peer games (docs/peer.md): the normal engines played with no trusted referee. The
protocol's public state (``protocol``), a seat's private side (``seat``), the encrypted
decks (``decks``) and the messages (``wire``); the cryptography is ``arbiter.core.peer``."""
