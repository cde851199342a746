"""The git desk: the referee of a game played through a shared repository (``arbiter git run``).

``plumbing`` runs git, ``inbox`` says which files wait and in which order, ``trees``
computes what is published and composes the commits' trees, ``receipts`` writes the text
receipts and the desk's record, ``desk`` is the round loop.
"""
