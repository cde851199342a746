"""Shared builders for the referee, verify and CLI tests (imported as ``helpers.*``)."""
