"""Tournaments: a folder of games paired round by round, with standings and a report.

``players`` reads the players file, ``folder`` owns ``tournament.json``, ``tables``
splits a field into tables and orders seats, ``pairing`` pairs a round (round-robin or
Swiss), ``standings`` turns game rankings into tournament points and tie-breaks,
``rounds`` creates a round's games, ``report`` writes the Markdown and HTML standings.
The rules are documented in docs/tournaments.md. Nothing here draws random numbers or
reads the clock: pairings follow from the players, the results and sha256 tie-breaks.
"""
