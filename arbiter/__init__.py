"""arbiter: a referee for board games played asynchronously with signed JSON move files."""

__version__ = "0.5.0"
