"""Game records: ``arbiter export GAME`` and ``arbiter verify GAME --record FILE``.

A record (format ``arbiter.record/1``, docs/records.md) is one self-contained JSON file of
a revealed game: a header (event, round, table, date, seats, engine, terms, seed, result)
and every chain entry in order with what it decided. It is built from the game's chain
and revealed signed files only, so the same game always gives the same bytes, and a
record is checked by building it again and comparing.
"""
