"""How a player's files travel: ``desk`` (a folder on this machine), ``mail``, ``git``."""
