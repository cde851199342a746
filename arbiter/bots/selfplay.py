"""Play a whole game through the real path: keys, game, joins, signed move files, reveal.

Used by ``arbiter demo``, the end-to-end tests and the benchmarks. Each bot reads only its
own state file (as a player would), picks a legal decision, signs a move file and submits
it to the referee.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arbiter.core.canonical import pretty
from arbiter.core.formats import MOVE_FORMAT
from arbiter.core.gamedir import GameDir, atomic_write
from arbiter.core.rng import Rng
from arbiter.core.table import Table

SEAT_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


@dataclass
class SelfPlay:
    """Where a self-played game lives and how it went."""

    root: Path
    game: Path
    keys: Path
    moves: Path
    seats: list[str]
    files: int = 0
    decisions: int = 0
    status: str = ""
    winners: list[str] = field(default_factory=list)


def _derive(seed: str, label: str) -> bytes:
    return hashlib.sha256(f"arbiter-demo/1\x00{seed}\x00{label}".encode()).digest()


def play(
    root: Path,
    engine_name: str,
    players: int,
    seed: str,
    *,
    options: dict[str, str] | None = None,
    created: str = "2026-01-01T00:00:00Z",
    progress: Callable[[int], None] | None = None,
    max_files: int = 100_000,
    batch: bool = True,
    reveal_at_end: bool = True,
    sealed: bool = False,
    levels: list[str] | None = None,
) -> SelfPlay:
    """Create ``root/{keys,game,moves}`` and play a full game with random bots.

    The referee's secret, the join entropies and the bots' choices all derive from
    ``seed``, so the same seed plays the same game. With ``batch`` each move file carries
    the bot's decisions up to the next information barrier or the next seat's turn, as a
    player would send a whole turn; otherwise one decision per file. ``sealed``: a sealed
    game (docs/sealing.md), whose bots open their sealed state files with their keys and
    seal their move files to the referee, as players in a shared repository do.
    ``levels``: one bot level per seat (``arbiter.bots.levels``), each deciding its batch
    from its state file alone, as ``arbiter bot`` does; ``None``: the random bots above.
    """
    from arbiter.core.player import load_state, make_join, make_move, seal_move
    from arbiter.core.referee import new_game, reveal, submit
    from arbiter.core.signing import keygen

    seats = list(SEAT_NAMES[:players])
    run = SelfPlay(root, root / "game", root / "keys", root / "moves", seats)
    for seat in seats:
        # Players' and referee's keys derive from the seed too: joins derive their
        # entropy from the keys, and the same seed must play the same game.
        keygen(seat, run.keys, seed=_derive(seed, f"key:{seat}"))
    pairs = [(seat, str(run.keys / f"{seat}.pub")) for seat in seats]
    game_id = "demo-" + hashlib.sha256(f"{engine_name}:{seed}".encode()).hexdigest()[:12]
    new_game(
        run.game,
        engine_name,
        pairs,
        options or {},
        join=True,
        created=created,
        secret=_derive(seed, "secret"),
        game_id=game_id,
        referee_seed=_derive(seed, "referee"),
        sealed=sealed,
    )
    gd = GameDir(run.game)

    def send(path: Path, obj: dict) -> None:
        data = pretty(obj)
        if sealed and obj["format"] == MOVE_FORMAT:
            path, data = path.with_name(path.name + ".age"), seal_move(obj, gd.manifest)
        atomic_write(path, data, mode=0o644)
        submit(run.game, path.read_bytes(), path.name)
        run.files += 1

    shadow = _shadow(gd, _derive(seed, "secret"))
    for seat in seats:
        join = make_join(gd.manifest, seat, run.keys / seat)
        send(run.moves / f"join-{seat}.json", join)
        shadow.join(seat, bytes.fromhex(join["entropy"]))
    choices = Rng(_derive(seed, "bots"))
    while run.files < max_files:
        public = load_state(gd.public_state)
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        if sealed:
            state = load_state(gd.sealed_state(seat), run.keys / seat)
        else:
            state = load_state(gd.seat_state(seat))
        if levels is not None:
            actions = _bot_batch(state, levels[seats.index(seat)], _derive(seed, f"bot:{seat}"))
            if not batch:
                actions = actions[:1]
        else:
            actions = [choices.choice(state["legal"])]
            if batch:
                actions = _plan_batch(shadow, seat, state["seq"] + 1, actions[0], choices)
        move = make_move(state, run.keys / seat, actions)
        send(run.moves / f"{state['seq'] + 1:05d}-{seat}.json", move)
        shadow.move(state["seq"] + 1, seat, actions)
        run.decisions += len(actions)
        if progress is not None:
            progress(run.decisions)
    if reveal_at_end:
        reveal(run.game)
    final = load_state(gd.public_state)
    run.status = final["status"]
    run.winners = final["outcome"]["winners"] if final["outcome"] else []
    return run


def _bot_batch(state: dict, level: str, seed: bytes) -> list[dict]:
    """Return the batch a bot of ``level`` decides from the seat's state file alone."""
    from arbiter.bots.levels import bot_rng, decide
    from arbiter.core import registry

    engine = registry.get(state["engine"]["name"])
    return decide(engine, state, level, bot_rng(seed.hex(), state))


def _shadow(gd: GameDir, secret: bytes) -> Table:
    """Return a referee-side table the bots use to plan their batches."""
    from arbiter.core.ledger import load_manifest

    manifest, _, engine = load_manifest(gd)
    table = Table(manifest, engine, secret)
    table.genesis()
    return table


def _plan_batch(shadow: Table, seat: str, seq: int, first: dict, choices: Rng) -> list[dict]:
    """Return the bot's decisions from ``first`` up to the next barrier or other seat's turn.

    Until a barrier nothing hidden reaches the seat, so these are decisions the player
    could have planned from their own view.
    """
    engine = shadow.engine
    assert shadow.seed is not None
    scratch = engine.decode(engine.encode(shadow.state))
    rng = Rng.for_entry(shadow.seed, seq)
    actions = [first]
    while len(actions) < 64:
        events = engine.apply(scratch, seat, actions[-1], rng)
        prompt = engine.prompt(scratch)
        if any(e.barrier for e in events) or prompt is None or prompt.seat != seat:
            break
        actions.append(choices.choice(engine.legal_actions(scratch, seat)))
    return actions
