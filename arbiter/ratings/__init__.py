"""``arbiter ratings``: multi-player skill ratings from verified games (docs/ratings.md).

- ``facts``: what is known of each game folder (a rated game's seats, or why not);
- ``games``: which game folders count (verified, revealed, over with a result) and why
  the others are left out;
- ``order``: the order the games are rated in (each game's last entry time, then id);
- ``plackett_luce``: the rating model, OpenSkill's Plackett–Luce (the optional
  ``openskill`` package, imported only when ratings are computed);
- ``ladder``: the players by key, updated game by game, ranked by their display rating;
- ``document``: ``ratings.json`` and ``ratings.md``.

Nothing here imports ``openskill`` at import time: the core and the rest of the CLI run
without it.
"""
