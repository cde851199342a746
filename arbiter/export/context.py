"""Where a game sits in a tournament: the one place a record reads ``tournament.json``.

The tournament's files are changing (issue 28, item 1: a signed tournament record);
keeping the lookup in this one function keeps that change from reaching the records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# How far above a game folder its tournament folder may be: ``T/games/r<R>-t<K>/`` is
# two levels (arbiter.tournament.folder.game_folder); one more allows a nested layout.
_LEVELS = 3


def tournament_context(game_dir: Path) -> dict[str, Any] | None:
    """Return ``{"event", "round", "table"}`` of the game in ``game_dir`` when a tournament
    folder above it schedules this very game (its folder and its game id), else ``None``.

    ``event`` is the tournament's id. A tournament that lists the folder under another
    game id does not own the game in it, so it gives no context either.
    """
    from arbiter.core.ledger import read_json
    from arbiter.tournament import folder

    game = game_dir.resolve()
    for root in list(game.parents)[:_LEVELS]:
        if not (root / folder.FILE).is_file():
            continue
        tournament = folder.load(root)
        manifest = read_json(game / "game.json", "game.json")
        game_id = manifest.get("game") if isinstance(manifest, dict) else None
        for played in tournament.schedule:
            for table in played.tables:
                if table.game == game_id and tournament.table_folder(root, table).resolve() == game:
                    return {"event": tournament.id, "round": played.round, "table": table.table}
        return None
    return None
