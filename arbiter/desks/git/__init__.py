"""The git desk: the referee of a game played through a shared repository (``arbiter git run``).

``plumbing`` runs git, ``settings`` checks what the desk is told, ``inbox`` says which
files wait and in which order, ``trees`` computes what is published and composes the
commits' trees, ``owned`` keeps the files that change how git writes the game's bytes,
``judge`` judges one inbox file, ``receipts`` writes the text receipts and the desk's
record, ``messages`` the commit messages, ``desk`` is the round loop, and ``export``
verifies a game as a commit holds it (``arbiter git verify``).
"""
