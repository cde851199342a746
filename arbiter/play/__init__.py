"""The player's desk: ``arbiter play`` (docs/player-desk.md).

Everything here runs on the player's machine with the player's key; it reads only the
seat's own state file and log, never the referee's folder beyond the published files.
"""
