"""The generic engine conformance suite, run against every registered engine."""
