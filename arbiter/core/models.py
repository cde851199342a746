"""The file formats as pydantic models; ``schemas/`` is generated from them.

Every top-level file carries ``"format": "arbiter.<kind>/1"``. Incoming files are first
validated against the committed JSON Schemas (``arbiter.core.schemas``), then read into
these models. Field docstrings flow into the schemas.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbiter.core.formats import GAME_ID, SEAT_ID

DIGEST = r"^sha256:[0-9a-f]{64}$"
HEX32 = r"^[0-9a-f]{64}$"
PUBKEY = r"^(ssh-ed25519|ecdsa-sha2-nistp256|ecdsa-sha2-nistp384|ecdsa-sha2-nistp521|ssh-rsa) [A-Za-z0-9+/=]+( .*)?$"
ARMORED = r"^-----BEGIN SSH SIGNATURE-----\n[A-Za-z0-9+/=\n]+\n-----END SSH SIGNATURE-----\n?$"


class Strict(BaseModel):
    """Base of every file model: unknown fields are errors, nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class EngineRef(Strict):
    """The engine that referees the game, pinned by version."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$")
    """Registry name of the engine (see `arbiter games`)."""
    version: str = Field(max_length=32)
    """Engine version; replays must use the same rules version."""


class Seat(Strict):
    """A seat at the table and the key that signs for it."""

    seat: str = Field(pattern=SEAT_ID)
    """Seat id used in every file (lower case)."""
    name: str = Field(min_length=1, max_length=64)
    """Display name."""
    key: str = Field(pattern=PUBKEY, max_length=2048)
    """Public key in authorized_keys form."""


class Manifest(Strict):
    """`game.json`: what is played, by whom, and the commitment to the secret seed."""

    format: Literal["arbiter.game/1"]
    game: str = Field(pattern=GAME_ID)
    """Game id; every join and move file names it."""
    engine: EngineRef
    options: dict[str, Any]
    """Engine options as the engine parsed them (data embedded, never file paths)."""
    seats: list[Seat] = Field(min_length=1, max_length=16)
    """Seats in turn order."""
    commitment: str = Field(pattern=DIGEST)
    """sha256("arbiter-commit/1" ‖ secret): the seed is fixed before anyone joins."""
    join: bool
    """True: every seat sends a signed join file with fresh entropy before setup."""
    created: str = Field(max_length=40)
    """Creation time (UTC, ISO 8601); informational only."""


class JoinFile(Strict):
    """A seat's signed join: fresh entropy mixed into the seed (namespace arbiter-join)."""

    format: Literal["arbiter.join/1"]
    game: str = Field(pattern=GAME_ID)
    seat: str = Field(pattern=SEAT_ID)
    manifest: str = Field(pattern=DIGEST)
    """Digest of the game.json being joined: the player accepts exactly these terms."""
    entropy: str = Field(pattern=HEX32)
    """32 fresh random bytes, hex."""
    signature: str = Field(pattern=ARMORED, max_length=4096)
    """SSHSIG over the canonical bytes of this object without `signature`."""


class Decision(BaseModel):
    """One engine decision; the engine's own schema checks the rest."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    kind: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$")


class MoveFile(Strict):
    """A seat's signed batch of decisions (namespace arbiter-move)."""

    format: Literal["arbiter.move/1"]
    game: str = Field(pattern=GAME_ID)
    seat: str = Field(pattern=SEAT_ID)
    after: str = Field(pattern=DIGEST)
    """The chain head this move was built against; a stale head is rejected."""
    actions: list[Decision] = Field(min_length=1, max_length=64)
    """Decisions applied in order, all or none."""
    signature: str = Field(pattern=ARMORED, max_length=4096)
    """SSHSIG over the canonical bytes of this object without `signature`."""


class ChainEntry(Strict):
    """One line of `chain.jsonl`: an accepted file, linked to the previous line."""

    format: Literal["arbiter.chain/1"]
    seq: int = Field(ge=0)
    """0 is the genesis entry (the manifest); then one per accepted file."""
    kind: Literal["genesis", "join", "move"]
    seat: str | None = Field(pattern=SEAT_ID)
    prev: str | None = Field(pattern=DIGEST)
    """Hash of the previous entry (null for genesis)."""
    digest: str = Field(pattern=DIGEST)
    """Digest of the accepted file's canonical bytes (the manifest for genesis)."""
    summary: list[str]
    """The public log lines this entry produced."""
    hash: str = Field(pattern=DIGEST)
    """Digest of this entry without `hash`: what the next entry and move files cite."""


class PromptModel(Strict):
    """Who must decide now and what kind of decision."""

    seat: str
    kind: str
    detail: dict[str, Any]


class OutcomeModel(Strict):
    """The final result."""

    scores: dict[str, int]
    ranking: list[list[str]]
    winners: list[str]
    breakdown: dict[str, dict[str, int]]
    tiebreak: str | None


class StateFile(Strict):
    """`players/<seat>/state.json` and `public/state.json`: one viewer's whole picture."""

    format: Literal["arbiter.state/1"]
    game: str = Field(pattern=GAME_ID)
    engine: EngineRef
    seat: str | None
    """The viewer; null for the public (spectator) state."""
    seats: list[str]
    status: Literal["joining", "playing", "over"]
    seq: int = Field(ge=0)
    head: str = Field(pattern=DIGEST)
    """Chain head hash: the `after` of the next move file."""
    waiting_for: list[str]
    """Seats whose join or decision the game waits for."""
    prompt: PromptModel | None
    legal: list[dict[str, Any]] | None
    """This seat's legal decisions now (null when it is not their turn)."""
    view: dict[str, Any] | None
    """The engine's redacted view (null before setup)."""
    outcome: OutcomeModel | None


class RevealFile(Strict):
    """`reveal/reveal.json`: the secret, so anyone can re-derive the seed and replay."""

    format: Literal["arbiter.reveal/1"]
    game: str = Field(pattern=GAME_ID)
    secret: str = Field(pattern=HEX32)
    head: str = Field(pattern=DIGEST)
    """Chain head at reveal time."""
    forced: bool
    """True when the referee revealed before the game was over (`--force`)."""


SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "manifest": Manifest,
    "join": JoinFile,
    "move": MoveFile,
    "chain-entry": ChainEntry,
    "state": StateFile,
    "reveal": RevealFile,
}
