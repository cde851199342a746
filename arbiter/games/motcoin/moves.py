"""Mot Coin decisions (pydantic models, JSON Schema) and bid strength (rules 4.2).

A bid is the multiset of faces shown; its strength is the count of 6s, then of 5s, …
then of 1s, compared in that order (MC-R2).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from arbiter.core.engine import reject

MAX_DICE = 9
"""The most dice a player owns (rules 3: 9 dice with 3 players)."""

Strength = tuple[int, int, int, int, int, int]


class _Decision(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


class Bid(_Decision):
    """Bid for the card on auction with available dice showing the faces of your choice."""

    kind: Literal["bid"]
    dice: list[Annotated[int, Field(ge=1, le=6)]] = Field(min_length=1, max_length=MAX_DICE)
    """The faces shown, one per available die used, in any order (e.g. [6, 6, 3])."""


class Pass(_Decision):
    """Pass: you take no further part in bidding for this card."""

    kind: Literal["pass"]


class Remove(_Decision):
    """Take back your lowest die from this card ("Remove one die", when it is on several)."""

    kind: Literal["remove"]
    card: str = Field(min_length=1, max_length=8)
    """The id of the card to take the die from: "12" for No.12, "S3" for a Stable Coin."""


Decision = Annotated[Bid | Pass | Remove, Field(discriminator="kind")]
_ADAPTER: TypeAdapter[Bid | Pass | Remove] = TypeAdapter(Decision)

EXAMPLES = '{"kind": "bid", "dice": [6, 3]}, {"kind": "pass"} or {"kind": "remove", "card": "12"}'


@lru_cache(maxsize=1)
def action_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of one decision, a tagged union on ``kind``."""
    schema = _ADAPTER.json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mot Coin decision",
        **schema,
    }


# Decisions already parsed, by value: a replay checks and applies each decision (two
# parses), and a game repeats the same few. The models are frozen and the engine never
# changes a bid's list in place, so one model may serve every equal decision.
_PARSED: dict[Any, Bid | Pass | Remove] = {}
_PASS = Pass(kind="pass")


def _known(action: Any) -> Bid | Pass | Remove | None:
    """Return the model of a well-formed decision seen before (``None``: validate it)."""
    if type(action) is not dict:
        return None
    kind = action.get("kind")
    if kind == "pass" and len(action) == 1:
        return _PASS
    if kind == "bid" and len(action) == 2:
        dice = action.get("dice")
        # Strict as the model: a list of ints (a bool is no die), so the key is exact.
        if type(dice) is list and all(type(face) is int for face in dice):
            return _PARSED.get(("bid", *dice))
    elif kind == "remove" and len(action) == 2:
        card = action.get("card")
        if type(card) is str:
            return _PARSED.get(("remove", card))
    return None


def parse(action: Any) -> Bid | Pass | Remove:
    """Return the decision model or raise ``IllegalAction`` with a one-line reason."""
    known = _known(action)
    if known is not None:
        return known
    decision = _validate(action)
    if len(_PARSED) < 4096:
        if isinstance(decision, Bid):
            _PARSED[("bid", *decision.dice)] = decision
        elif isinstance(decision, Remove):
            _PARSED[("remove", decision.card)] = decision
    return decision


def _validate(action: Any) -> Bid | Pass | Remove:
    try:
        return _ADAPTER.validate_python(action)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "decision"
        raise reject(
            f"malformed decision ({where}: {error['msg']}); expected {EXAMPLES}", "schema"
        ) from None


def normalise(dice: list[int]) -> list[int]:
    """Return a bid's faces highest first, the form kept in state and events."""
    return sorted(dice, reverse=True)


def strength(dice: list[int]) -> Strength:
    """Return (number of 6s, of 5s, …, of 1s): bids compare as these tuples (rules 4.2)."""
    counts = [0, 0, 0, 0, 0, 0]
    for face in dice:
        counts[6 - face] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def faces(vector: Strength | tuple[int, ...]) -> list[int]:
    """Return the faces (highest first) of a strength vector."""
    out: list[int] = []
    for i, count in enumerate(vector):
        out.extend([6 - i] * count)
    return out


def stronger(dice: list[int], high: list[int]) -> bool:
    """Return whether ``dice`` beats ``high`` (any bid beats no bid)."""
    return not high or strength(dice) > strength(high)


def can_beat(available: int, high: list[int]) -> bool:
    """Return whether ``available`` dice can make a bid stronger than ``high``.

    The strongest bid of n dice is n sixes; it beats ``high`` iff n exceeds its 6s.
    """
    return available >= 1 and (not high or available > strength(high)[0])


def weakest_above(high: list[int], size: int) -> list[int] | None:
    """Return the weakest bid of exactly ``size`` dice stronger than ``high`` (or None).

    Keep the longest prefix of ``high``'s counts, raise the next count by one and put
    every remaining die on a 1: the result is the next vector in the strength order.
    """
    if size < 1:
        return None
    if not high:
        return [1] * size
    return _weakest_above(strength(high), size)


def _weakest_above(h: Strength, size: int) -> list[int] | None:
    for i in range(5, -1, -1):
        prefix = sum(h[:i])
        if i == 5:
            if size - prefix > h[5]:
                return faces((*h[:5], size - prefix))
            continue
        rest = size - prefix - h[i] - 1
        if rest >= 0:
            return faces(h[:i] + (h[i] + 1,) + (0,) * (4 - i) + (rest,))
    return None


def minimal_bids(available: int, high: list[int]) -> list[list[int]]:
    """Return, for each number of dice the player has, the weakest bid beating ``high``."""
    if not high:
        return [[1] * size for size in range(1, available + 1)]
    h = strength(high)
    out = []
    for size in range(1, available + 1):
        bid = _weakest_above(h, size)
        if bid is not None:
            out.append(bid)
    return out
