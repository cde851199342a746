"""Real games to mutate, one per engine flavour (Wutai Mountain is one): made once per
process by the referee's own path (``arbiter.bots.selfplay``: keys, joins, signed moves).

Each ``Corpus`` holds a game in play (``live``: the referee's folder, ``referee/``
included, with the seats' private keys), the same game revealed early (``revealed``:
every entry can be replayed), the state files every reader had after every entry, and
the signed move and join files (the live game's and the golden example's).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

FLAVOURS: dict[str, tuple[str, int, dict[str, str], Path]] = {
    "mottainai": ("mottainai", 2, {}, ROOT / "examples" / "mottainai"),
    "wutai": ("mottainai", 3, {"wutai": "yes"}, ROOT / "examples" / "mottainai-wutai"),
    "motcoin": ("motcoin", 3, {}, ROOT / "examples" / "motcoin"),
    "momiji": ("momiji", 2, {}, ROOT / "examples" / "momiji"),
    "tally": ("tally", 2, {}, ROOT / "tests" / "golden" / "tally"),
}
"""Flavour → (engine, seats, options, golden example)."""
LIVE_FILES = {"tally": 7}
"""Files played into the live game (default 10): tally's ends sooner."""


@dataclass
class Corpus:
    """One flavour's games and files, in a folder of this process."""

    flavour: str
    engine: str
    live: Path
    revealed: Path
    keys: Path
    seats: list[str]
    states: list[dict[str, Any]] = field(default_factory=list)
    """State files as their readers had them (every entry, every seat, the spectator)."""
    signed: list[bytes] = field(default_factory=list)
    """Signed join and move files of this game and of the golden example."""
    vocabulary: list[Any] = field(default_factory=list)
    """Plausible values from elsewhere: the seats, every game's card ids."""

    def playing(self) -> list[dict[str, Any]]:
        """State files whose reader must decide now (what ``bot`` and ``move`` read)."""
        return [s for s in self.states if s["status"] == "playing" and s["legal"]]


_CORPORA: dict[str, Corpus] = {}
_WORK: list[Path] = []


def work_dir() -> Path:
    """Return this process's scratch folder (removed at exit)."""
    if not _WORK:
        import atexit

        # In memory where the system offers it: a case writes and reads a few dozen files.
        shm = Path("/dev/shm")
        where = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
        path = Path(tempfile.mkdtemp(prefix="arbiter-fuzz-", dir=where))
        atexit.register(shutil.rmtree, path, True)
        _WORK.append(path)
    return _WORK[0]


def get(flavour: str) -> Corpus:
    """Return the corpus of ``flavour``, built on first use."""
    if flavour not in _CORPORA:
        _CORPORA[flavour] = _build(flavour)
    return _CORPORA[flavour]


def _build(flavour: str) -> Corpus:
    from arbiter.bots.selfplay import play
    from arbiter.core.referee import reveal
    from arbiter.core.timeline import frames, viewers

    engine, seats, options, example = FLAVOURS[flavour]
    base = work_dir() / flavour
    run = play(
        base / "run", engine, seats, f"fuzz-{flavour}", options=options,
        max_files=LIVE_FILES.get(flavour, 10), reveal_at_end=False,
    )
    revealed = base / "revealed"
    shutil.copytree(run.game, revealed)
    reveal(revealed, force=True)
    corpus = Corpus(flavour, engine, run.game, revealed, run.keys, run.seats)
    for viewer in viewers(revealed):
        corpus.states += [frame.state for frame in frames(revealed, viewer)]
    for path in sorted((example / "game").glob("**/state.json")):
        corpus.states.append(json.loads(path.read_bytes()))
    moves = sorted(run.moves.glob("*.json")) + sorted((example / "moves").glob("*.json"))
    corpus.signed = [path.read_bytes() for path in moves]
    corpus.vocabulary = [*run.seats, "spectator", *_card_ids()]
    return corpus


def _card_ids() -> list[str]:
    """A few card ids of every game (a card of another game is a classic wrong value)."""
    from arbiter.games.momiji.data import BUILTIN, catalog
    from arbiter.games.mottainai.cards import deck_ids

    momiji = sorted(catalog(BUILTIN).cards)
    return [*deck_ids(2)[::9], "om-01", "om-50", "urn", "1", "24", "S1", "S7", *momiji[::7]]
