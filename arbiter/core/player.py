"""The player's side: join a game, read a state file, build and sign a move.

Needs no referee secret: a state file carries the head to sign against and the seat's
legal decisions.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from arbiter.core.canonical import digest, parse_strict
from arbiter.core.errors import (
    ArbiterError,
    GameOver,
    IllegalAction,
    OutOfTurn,
    SchemaViolation,
    UnknownSeat,
    UsageError,
)
from arbiter.core.formats import JOIN_FORMAT, JOIN_FORMAT_1, MANIFEST_FORMAT_1, MOVE_FORMAT
from arbiter.core.ledger import read_json
from arbiter.core.safeio import shown
from arbiter.core.schemas import names_of, validate


def read_state_bytes(path: Path, identity: Path | None = None) -> bytes:
    """Return a state file's bytes; a sealed one (``.age``) decrypted with ``identity``.

    A sealed file that a git checkout converted (``core/committed.py``) is read as the
    repository holds it: only bytes that decrypt are taken, so nothing else gets in.
    """
    from arbiter.core import committed, sealing
    from arbiter.core.errors import MalformedInput
    from arbiter.core.safeio import MAX_BYTES, read_input

    what = f"state file {shown(path)}"
    data = read_input(path, what)
    if not sealing.is_sealed(data) and path.name.endswith(sealing.SEALED_SUFFIX):
        data = committed.first(path, MAX_BYTES, sealing.is_sealed) or data
    if not sealing.is_sealed(data):
        return data
    if identity is None:
        raise UsageError(
            f"{shown(path)} is sealed: pass your key with --key (or --identity) to open it"
        )
    try:
        return sealing.unpad(sealing.unseal(data, identity, what))
    except MalformedInput:
        blob = committed.first(path, MAX_BYTES, lambda b: b != data and sealing.is_sealed(b))
        if blob is None:
            raise
        return sealing.unpad(sealing.unseal(blob, identity, what))


def load_state(path: Path, identity: Path | None = None) -> dict[str, Any]:
    """Read and validate a state file (a regular file of at most 1 MiB, not a symlink);
    a sealed one is decrypted with ``identity`` (a private SSH key file).

    Besides the schema, the fields the commands rely on must agree: a game being played
    has a prompt, and legal decisions belong to the prompted seat. The view must be one
    its engine could have written for the file's reader (``arbiter.core.viewcheck``): only
    then may engine code (``show``'s drawing, a bot) read it.
    """
    return parse_state(read_state_bytes(path, identity), f"state file {shown(path)}", str(path))


def parse_state(data: bytes, what: str, where: str | None = None) -> dict[str, Any]:
    """Parse and check a state file's bytes as ``load_state`` does (``what`` names it in
    messages: ``state file g1/players/alice/state.json``, ``the state mail of …``)."""
    from arbiter.core import viewcheck

    state = parse_strict(data, "state file")
    validate("state", state, where or what)
    prompt = state["prompt"]
    if (state["status"] == "playing" and prompt is None) or (
        state["legal"] is not None and (prompt is None or prompt["seat"] != state["seat"])
    ):
        raise SchemaViolation(
            f"{what} contradicts itself (status, prompt and legal decisions "
            "disagree): use the state file the referee wrote"
        )
    viewcheck.check(state, what)
    return dict(state)


def check_key(key: Path, expected: str, seat: str, handed: bool = False) -> None:
    """Fail early, before signing, when the key is not the seat's (its ``.pub``, when one
    lies beside it, must be ``expected``: the key the manifest registers for ``seat``, or
    the one it holds since a handover or an appointment when ``handed``)."""
    from arbiter.core.signing import read_public_key

    pub = key if key.suffix == ".pub" else key.with_name(key.name + ".pub")
    if pub.is_file():
        mine = read_public_key(str(pub)).split()[:2]
        if mine != expected.split()[:2]:
            if handed:
                raise UsageError(
                    f"{pub} is not the key seat {seat} holds now (the seat was handed over "
                    "to another key, your state file's `keys`): use that key"
                )
            raise UsageError(
                f"{pub} is not the key registered for seat {seat}: use that seat's key"
            )


_check_key = check_key  # the old private name


def make_join(manifest_path: Path, seat: str, key: Path) -> dict[str, Any]:
    """Return ``seat``'s signed join file for the game.json at ``manifest_path``.

    For a version-2 game the entropy is derived from a deterministic signature by the
    seat's key over the manifest's digest (``arbiter.core.joins``): the same key and
    game.json always give the same file, so a referee cannot shop among several joins.
    A version-1 game gets 32 random bytes, as before.
    """
    from arbiter.core import joins
    from arbiter.core.signing import NAMESPACE_JOIN, sign

    manifest = read_json(manifest_path, "game.json")
    schema = "manifest-v1" if isinstance(manifest, dict) and manifest.get("format") == MANIFEST_FORMAT_1 else "manifest"
    validate(schema, manifest, str(manifest_path))
    keys = {s["seat"]: s["key"] for s in manifest["seats"]}
    if seat not in keys:
        raise UnknownSeat(
            f"seat {seat!r} is not in game {manifest['game']} (seats: {', '.join(keys)})"
        )
    if not manifest["join"]:
        raise UsageError("this game was created with --no-join: it needs no join files")
    check_key(key, keys[seat], seat)
    manifest_digest = digest(manifest)
    join: dict[str, Any]
    if manifest["format"] == MANIFEST_FORMAT_1:
        join = {
            "format": JOIN_FORMAT_1,
            "game": manifest["game"],
            "seat": seat,
            "manifest": manifest_digest,
            "entropy": os.urandom(32).hex(),
        }
    else:
        proof, entropy = joins.sign_entropy(manifest["game"], seat, manifest_digest, key)
        join = {
            "format": JOIN_FORMAT,
            "game": manifest["game"],
            "seat": seat,
            "manifest": manifest_digest,
            "entropy": entropy.hex(),
            "entropy_signature": proof,
        }
    join["signature"] = sign(join, key, NAMESPACE_JOIN)
    return join


def parse_actions(texts: list[str]) -> list[dict[str, Any]]:
    """Parse ``--action JSON`` values; each must be an object with a ``kind``."""
    actions = []
    for index, text in enumerate(texts, start=1):
        try:
            action = parse_strict(text.encode(), f"--action {index}")
        except ArbiterError as exc:
            raise UsageError(exc.message) from None
        if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
            raise UsageError(
                f'--action {index} must be a JSON object with a "kind", e.g. \'{{"kind": "pass"}}\''
            )
        actions.append(action)
    if not actions:
        raise UsageError("give at least one --action (see `arbiter moves STATEFILE`)")
    return actions


def make_move(state: dict[str, Any], key: Path, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a move file signed against the head recorded in ``state``."""
    from arbiter.core.signing import NAMESPACE_MOVE, sign

    seat = own_state(state)
    move = {
        "format": MOVE_FORMAT,
        "game": state["game"],
        "seat": seat,
        "after": state["head"],
        "actions": actions,
    }
    move["signature"] = sign(move, key, NAMESPACE_MOVE)
    validate("move", move, "move file")
    return move


def seal_move(move: dict[str, Any], manifest_path: Path) -> bytes:
    """Return the move file sealed to the referee key named in the game's game.json."""
    from arbiter.core import sealing
    from arbiter.core.canonical import pretty

    manifest = read_json(manifest_path, "game.json")
    if not isinstance(manifest, dict) or manifest.get("game") != move["game"]:
        raise UsageError(
            f"{shown(manifest_path)} is not the game.json of game {move['game']}: "
            "pass this game's with --manifest"
        )
    validate("manifest", manifest, str(manifest_path))
    return sealing.seal(sealing.pad(pretty(move)), [manifest["referee"]])


def manifest_beside(state_path: Path) -> Path:
    """The game.json of the folder a state file sits in (players/<seat>/state.json)."""
    return state_path.resolve().parent.parent.parent / "game.json"


def check_key_for_state(state_path: Path, state: dict[str, Any], key: Path) -> None:
    """When the state file sits in its game folder, refuse a key that is not the seat's.

    A player who only received their state file (by mail) gets the referee's answer
    instead (exit 7).
    """
    manifest_path = manifest_beside(state_path)
    if state.get("seat") is None or not manifest_path.is_file():
        return
    try:
        manifest = read_json(manifest_path, "game.json")
    except ArbiterError:
        return
    keys = {s.get("seat"): s.get("key") for s in manifest.get("seats", []) if isinstance(s, dict)}
    now = state.get("keys") or {}  # after a handover or appointment: the keys held now
    handed = keys.get(state["seat"]) != now.get(state["seat"], keys.get(state["seat"]))
    keys.update(now)
    expected = keys.get(state["seat"])
    if manifest.get("game") == state["game"] and isinstance(expected, str):
        check_key(key, expected, state["seat"], handed)


def own_state(state: dict[str, Any]) -> str:
    """Return the seat of a seat's state file; refuse the public one (it signs nothing)."""
    seat = state.get("seat")
    if seat is None:
        raise SchemaViolation(
            "this is the public state file: use your own players/<seat>/state.json"
        )
    return str(seat)


def move_refusal(
    state: dict[str, Any], actions: list[dict[str, Any]], engine: Any = None
) -> ArbiterError | None:
    """Return the error the referee will answer this move with, as far as the seat's own
    state file tells (``None``: nothing in it says the move will be refused).

    It checks the game's status and whose turn it is, every decision against ``engine``'s
    decision schema (when it is the engine the state file names), and the first decision
    against the listed legal ones: the same exit codes, and messages computed from the
    same seat's view, as the referee's. An engine whose list is incomplete (Mot Coin's
    bids) is held only to the listed kinds.
    """
    seat = own_state(state)
    prompt = state["prompt"]
    if state["status"] == "over":
        return GameOver("the game is over: no more moves are accepted")
    if prompt is None or state["status"] != "playing":
        if state["status"] == "joining" and not state["waiting_for"]:
            from arbiter.core.deal import AWAITING_DEAL

            return OutOfTurn(f"the game has not started: {AWAITING_DEAL}")
        return OutOfTurn("the game has not started: wait until every seat has joined")
    legal = state["legal"]
    if legal is None or prompt["seat"] != seat:
        return OutOfTurn(
            f"it is {prompt['seat']}'s turn to decide ({prompt['kind']}), not {seat}'s: "
            "wait for your next state file"
        )
    if engine is not None and dict(state["engine"]) == {
        "name": engine.info.name,
        "version": engine.info.version,
    }:
        from arbiter.core.schemas import validate_instance

        for index, action in enumerate(actions):
            names = names_of(legal) if index == 0 else None
            try:
                validate_instance(engine.action_schema(), action, f"action {index + 1}", names)
            except SchemaViolation as exc:
                return exc
    complete = engine is not None and getattr(engine, "legal_actions_complete", True)
    return _not_listed(actions[0], legal, complete)


def _not_listed(
    first: dict[str, Any], legal: list[dict[str, Any]], complete: bool
) -> IllegalAction | None:
    """Say how the first decision differs from the listed ones (``None``: it is listed)."""
    from arbiter.core.schemas import listing, nearest, shown

    if first in legal:
        return None
    kind = first.get("kind")
    kinds = list(dict.fromkeys(str(a.get("kind")) for a in legal))
    named = shown(kind) or "this kind"
    if kind not in kinds:
        return IllegalAction(
            f"action 1: {named} is not a decision you can take now: your choices are "
            f"{listing(kinds)}"
        )
    if not complete:
        return None
    same = [a for a in legal if a.get("kind") == kind]
    for field in sorted(k for k in first if k != "kind"):
        rest = {k: v for k, v in first.items() if k != field}
        options = [
            a[field]
            for a in same
            if field in a and {k: v for k, v in a.items() if k != field} == rest
        ]
        if options:
            value = first[field]
            said = f"action 1 ({kind}): {field} {shown(value) or ''}".rstrip()
            said += f" is not one of your choices: {listing(options)}"
            strings = [o for o in options if isinstance(o, str)]
            meant = nearest(value, strings) if isinstance(value, str) else None
            return IllegalAction(said + (f"; did you mean '{meant}'?" if meant else ""))
    return IllegalAction(
        f"action 1 ({kind}) is not one of your {len(same)} listed {kind} decisions: "
        "`arbiter moves` lists them"
    )
