"""The tally game's decisions: a tagged union on ``kind``, validated by pydantic."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Decision(BaseModel):
    # Strict: decisions are signed bytes, so "7" or true must never pass for 7.
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


class Play(_Decision):
    """Play a card from your hand face up onto your tally."""

    kind: Literal["play"]
    card: int = Field(ge=1)
    """The number of the card to play."""


class Discard(_Decision):
    """Put a card from your hand face down onto your discard pile."""

    kind: Literal["discard"]
    card: int = Field(ge=1)
    """The number of the card to discard (only you will see it)."""


class Draw(_Decision):
    """Take the top card of the deck and end your turn."""

    kind: Literal["draw"]


class End(_Decision):
    """End your turn without drawing (only once the deck is empty)."""

    kind: Literal["end"]


Decision = Annotated[Play | Discard | Draw | End, Field(discriminator="kind")]

DECISION = TypeAdapter(Decision)


def schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of one decision."""
    out = DECISION.json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "TallyDecision",
        **out,
    }
