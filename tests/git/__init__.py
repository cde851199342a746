"""Tests of the git desk against real git repositories on disk (see gitkit.py)."""
