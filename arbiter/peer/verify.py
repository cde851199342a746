"""``arbiter verify`` of a peer game (docs/peer.md §8).

Always: every message's signature by its seat and every proof of the protocol, replayed
in the chain's order (``folder.load``). Once the game is over and every seat has
published its secret (``reveals/<seat>.json``, signed): each secret against the seat's
key, the decks decrypted, and the game replayed through the normal engine with those
decks. After every step, every reader's view, and at the end every seat's log and the
public log, must be exactly what the peer game showed. A game whose secrets were not all
published still has every proof checked; the report says which seats' are missing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core import schemas, signing
from arbiter.core.canonical import canonical
from arbiter.core.errors import ArbiterError, Tampered, UsageError
from arbiter.core.gamedir import atomic_write
from arbiter.core.peer import group
from arbiter.peer import folder as files
from arbiter.peer import reveal

NAMESPACE = "arbiter-peer-reveal"
FORMAT = "arbiter.peer-reveal/1"


@dataclass
class Report:
    game: str
    messages: int
    over: bool
    missing: list[str]
    replayed: bool = False
    checks: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


def publish(
    root: Path, seat: str, key: Path, deliver: Callable[[Path, bytes], None] | None = None
) -> Path:
    """Write ``reveals/<seat>.json``: the seat's secret, signed, once the game is over
    (``deliver``: a transport that also sends it)."""
    loaded = files.load(root, seat)
    loaded.check_key(seat, key)
    if not loaded.game.over:
        raise UsageError("the game is not over: a secret published now would open every card")
    secret = files.read_secret(loaded.terms, seat)
    if secret is None:
        raise UsageError(f"no secret of {seat} here ({files.secret_path(loaded.terms, seat)})")
    body = {"format": FORMAT, "game": loaded.terms["game"], "seat": seat, "secret": secret.hex()}
    signed = {**body, "signature": signing.sign(body, key, NAMESPACE)}
    path = root / "reveals" / f"{seat}.json"
    if deliver is None:
        atomic_write(path, canonical(signed) + b"\n")
    else:
        deliver(path, canonical(signed) + b"\n")
    return path


def _secrets(root: Path, terms: dict[str, Any]) -> dict[str, bytes]:
    keys = {s["seat"]: s["key"] for s in terms["seats"]}
    found: dict[str, bytes] = {}
    for path in sorted((root / "reveals").glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            schemas.validate("peer-reveal", doc, f"reveals/{path.name}")
            if doc["game"] != terms["game"] or doc["seat"] not in keys or path.stem != doc["seat"]:
                raise Tampered("it is not a reveal of this game's seat named by the file")
            signing.verify(doc, keys[doc["seat"]], NAMESPACE)
            found[doc["seat"]] = group.scalar(bytes.fromhex(doc["secret"]), "the secret")
        except (ValueError, ArbiterError) as error:
            raise Tampered(f"reveals/{path.name}: {error}") from None
    return found


def verify(root: Path) -> Report:
    """Check a peer game folder; replay it once every secret is published."""
    terms = files.load_terms(root)
    secrets = _secrets(root, terms)
    seats = [s["seat"] for s in terms["seats"]]
    if sorted(secrets) != sorted(seats):
        # A seat timed out under escrow never reveals: its holders rebuilt its secret.
        rebuilt = files.load(root).game.stand_ins
        secrets.update({s: b.secret for s, b in rebuilt.items() if s not in secrets})
    complete = sorted(secrets) == sorted(seats)
    public: list[dict[str, Any]] = []

    def watch(folder: files.Folder) -> None:
        if complete:
            game = folder.game

            def snapshot() -> None:
                # The public view once a step settles; each seat records its own once its
                # openings are in (``PeerSeat.seen``).
                while len(public) < game.settled:
                    public.append(game.engine.view(game.states[len(public)], None))

            game.on_settle.append(snapshot)

    loaded = files.load(root, secrets=secrets if complete else None, watch=watch)
    game = loaded.game
    report = Report(
        terms["game"], loaded.messages, game.over, [s for s in seats if s not in secrets]
    )
    report.checks.append(
        f"{loaded.messages} messages: every signature, key, shuffle, share, opening, claim, return, fact and pass"
    )
    for seat, round_ in game.out.items():
        what = "forfeits" if game.forfeit == seat else "its escrow rebuilt its key; a bot played it"
        report.checks.append(f"{seat} timed out in round {round_} (every signer agreed): {what}")
    if not (game.over and complete):
        return report
    decks = reveal.orders(game, secrets)
    report.checks.append(
        f"every secret is the one behind its seat's key; {len(decks)} "
        f"{'deck' if len(decks) == 1 else 'decks'} decrypted"
    )
    referee = reveal.replay(game, decks, secrets)
    seen = [
        {None: view, **{s: p.seen[step] for s, p in loaded.players.items()}}
        for step, view in enumerate(public)
    ]
    if seen != referee.views:
        step = next(i for i, (a, b) in enumerate(zip(seen, referee.views, strict=False)) if a != b)
        raise Tampered(f"step {step}: a view of the peer game is not the replay's")
    if game.narrate(game.opened, None) != referee.log(game.engine, None):
        raise Tampered("the public log of the peer game is not the replay's")
    for seat, player in loaded.players.items():
        if player.log() != referee.log(game.engine, seat):
            raise Tampered(f"{seat}'s log in the peer game is not the replay's")
    report.replayed = True
    report.result = referee.views[-1][None].get("result")
    name, version = terms["engine"]["name"], terms["engine"]["version"]
    report.checks.append(
        f"replayed through {name} {version}: {len(referee.views)} steps, every view and log as played"
    )
    return report
