"""Decisions: what a seat may do now, exact checks with one-line reasons, the JSON Schema.

Every decision is a small JSON object tagged by ``kind``; ``legal_actions`` lists them
all (supports in id order give each SMITH one spelling). ``check`` accepts exactly the
listed decisions and explains a refusal from the acting seat's view only.
"""

from __future__ import annotations

import itertools
from typing import Any

from arbiter.core.engine import reject
from arbiter.core.hidden import Hidden, is_hidden
from arbiter.games.mottainai import actions, flow, om
from arbiter.games.mottainai.cards import MATERIALS, TASKS, card
from arbiter.games.mottainai.effects import dispatch, obstruction
from arbiter.games.mottainai.state import HAND_LIMIT, WINGS, State

DONE: dict[str, Any] = {"kind": "done"}
NO_TASK: dict[str, Any] = {"kind": "no_task"}
FIELDS: dict[str, tuple[str, ...]] = {
    "return": ("card",),
    "done": (),
    "task": ("card",),
    "no_task": (),
    "clerk": ("card",),
    "monk": ("card",),
    "potter": ("card",),
    "tailor": (),
    "smith": ("work", "support", "wing"),
    "craft": ("work", "wing"),
    "prayer": (),
    "tuck": ("card", "edge"),
    "place": ("card",),
}
OM_KINDS = frozenset({"clerk", "monk", "potter", "place"})
"""Wutai: decisions that may name an Om work (``"om": WORK``) to tuck their card under."""
OWN_KIND = {mat: name.lower() for mat, name in TASKS.items()}
"""The decision kind of each material's task action (``clerk`` for PAPER, …)."""
WANT = {kind: frozenset({"kind", *fields}) for kind, fields in FIELDS.items()}
"""The exact field set of each decision kind but ``use``."""
USE_FIELDS = ("target", "cards", "material", "wing", "option")
"""Parameters an effect may ask for in ``{"kind": "use", "card": WORK, ...}``."""
RULE = {
    "return": "Rules: Morning",
    "old-task": "Rules: Morning",
    "task": "Rules: Morning",
    "action": "Rules: Noon",
    "tailor": "Rules: TAILOR, M-R19",
    "effect": "Rules: Effects, M-R8",
    "tuck": "Wutai rules: Completing Om Works, M-R106",
    "place": "Wutai rules: Adding to Om Works, M-R119",
}


def legal_actions(state: State, seat: str) -> list[dict[str, Any]]:
    """Return every decision ``seat`` may take now ([] if it is not its decision)."""
    kind = flow.due(state)
    if kind is None or seat != state.current:
        return []
    p = state.players[seat]
    if kind == "action":
        return actions.legal(state, seat)
    if kind == "tailor":
        return [{"kind": "return", "card": c} for c in p.hand] + [DONE]
    if kind == "effect":
        return dispatch.frame_actions(state, state.frames[-1])
    if kind == "tuck":
        return om.tuck_actions(state, state.frames[-1])
    if kind == "place":
        return om.place_actions(state, state.frames[-1])
    if kind == "task":
        out = [{"kind": "task", "card": c} for c in p.hand] + [NO_TASK]
        return out + dispatch.step_offers(state, seat, "choose-task")
    if kind == "old-task":
        return [*dispatch.step_offers(state, seat, "old-task"), DONE]
    over = len(p.hand) > HAND_LIMIT
    out = [{"kind": "return", "card": c} for c in p.hand] if over else []
    if not state.memo.get("returned"):
        out += dispatch.step_offers(state, seat, "hand-limit")
    if not over:
        out.append(DONE)
    return out


def check(state: State, seat: str, action: Any) -> None:
    """Raise ``IllegalAction`` unless ``action`` is one of ``legal_actions``."""
    where = flow.due(state)
    if where is None:
        raise reject("the game is over: no more decisions", "Rules: Game End")
    if seat != state.current:
        raise reject(
            f"it is {state.current}'s decision ({where}), not {seat}'s", "Rules: Your turn"
        )
    if isinstance(action, dict):
        fast = _fast(state, seat, where, action)
        if fast or (fast is None and action in legal_actions(state, seat)):
            return
    raise reject(*_refusal(state, seat, where, action))


def _fast(state: State, seat: str, where: str, action: dict[str, Any]) -> bool | None:
    """Decide a decision without listing them all (None: left to the full list).

    It gives exactly the verdict of ``action in legal_actions(...)`` (the conformance
    suite checks both). A listed decision has exactly the fields of its kind, so a field
    count and membership tests of the values decide. ``use`` decisions, whose parameters
    the effects define, are left to the list, as is a kind that is not a plain string.
    """
    kind = action.get("kind")
    if type(kind) is not str or kind == "use" or where in ("tuck", "place") or "om" in action:
        return None
    if where == "action":
        return _fast_action(state, seat, kind, action)
    size = len(action)
    if where == "effect":  # done declines the trigger, if it may be declined
        return kind == "done" and size == 1 and bool(state.frames[-1].get("optional", True))
    hand = state.players[seat].hand
    if where == "tailor":
        if kind == "return":
            return size == 2 and action.get("card") in hand
        return kind == "done" and size == 1
    if where == "task":
        if kind == "task":
            return size == 2 and action.get("card") in hand
        return kind == "no_task" and size == 1
    if where == "old-task":
        return kind == "done" and size == 1
    # The hand-limit step: return cards while over the limit, done once at or under it.
    over = len(hand) > HAND_LIMIT
    if kind == "return":
        return over and size == 2 and action.get("card") in hand
    return kind == "done" and size == 1 and not over


def _fast_action(state: State, seat: str, kind: str, action: dict[str, Any]) -> bool | None:
    """Decide an action of the current task that is not a ``use``, as ``actions.legal``."""
    task = state.task
    assert task is not None
    mat = task["material"]
    own = OWN_KIND[mat]
    mask = task.get("mask", False)
    size = len(action)
    if kind == "prayer":
        return size == 1 and not mask  # Mask: only the task's own action (rules FAQ)
    if kind == "done":
        return size == 1 and bool(mask)  # Mask: the action may be skipped (M-R4)
    if kind != own and kind != "craft":
        return False  # another task's action, or no action at all
    if kind == "tailor":
        return size == 1
    if kind != "smith" and kind != "craft":  # clerk, monk, potter
        zone = state.players[seat].bench if kind == "clerk" else state.floor
        return size == 2 and action.get("card") in zone
    if kind == "craft" and mask:
        return False
    if _shape(action) is not None:
        return None  # typed fields (a wing, a support list): let the list decide
    if kind == "smith":
        return _fast_smith(state, seat, action)
    work = action["work"]
    p = state.players[seat]
    if work not in p.hand or card(work).material != mat:
        return False
    on_bench = sum(1 for c in p.bench if card(c).material == mat)
    return actions.supports_needed(state, seat, work, "craft") <= on_bench


def _fast_smith(state: State, seat: str, action: dict[str, Any]) -> bool:
    """Decide a well-formed SMITH on a SMITH task, as ``actions.smith_options`` lists."""
    work, support = action["work"], action["support"]
    hand = state.players[seat].hand
    if work not in hand:
        return False
    wmat = card(work).material
    if any(s == work or s not in hand or card(s).material != wmat for s in support):
        return False
    if any(a >= b for a, b in itertools.pairwise(support)):
        return False  # one spelling: ids strictly increasing (M-R24)
    return len(support) == actions.supports_needed(state, seat, work, "smith")


def _shape(action: Any) -> str | None:
    """Return what is malformed about a decision, or None."""
    if not isinstance(action, dict) or type(action.get("kind")) is not str:
        return 'a decision is an object with a "kind", e.g. {"kind": "prayer"}'
    kind = action["kind"]
    want = WANT.get(kind)
    if want is None:
        if kind == "use":
            extra = sorted(set(action) - {"kind", "card", *USE_FIELDS})
            return f"unknown fields {extra} for use" if extra else None
        return f"unknown kind {kind!r}: one of {', '.join(sorted([*FIELDS, 'use']))}"
    if action.keys() != want and not (kind in OM_KINDS and action.keys() == want | {"om"}):
        return f"a {kind} decision has exactly the fields {sorted(want)}"
    if "om" in action and type(action["om"]) is not str:
        return "om must be a string (an Om work of yours)"
    for name in FIELDS[kind]:
        value = action[name]
        if name == "support":
            if type(value) is not list or any(type(v) is not str for v in value):
                return "support is a list of card ids"
        elif type(value) is not str:
            return f"{name} must be a string"
    if "wing" in want and action["wing"] not in WINGS:
        return f"wing is one of {list(WINGS)}"
    return None


def _refusal(state: State, seat: str, where: str, action: Any) -> tuple[str, str]:
    """Return the reason and the rule cited; a card that forbids it is named (Mask, Tower)."""
    if _shape(action) is None:
        by_card = obstruction.why(state, seat, where, action)
        if by_card is not None:
            return by_card
    return _why(state, seat, where, action), RULE[where]


def _why(state: State, seat: str, where: str, action: Any) -> str:
    """Return a one-line reason, from what ``seat`` can see, why ``action`` is refused."""
    problem = _shape(action)
    if problem is not None:
        return f"malformed decision: {problem}"
    kind = action["kind"]
    p = state.players[seat]
    kinds = sorted({a["kind"] for a in legal_actions(state, seat)})
    allowed = f"now: {', '.join(kinds)}"
    c = action.get("card")
    if kind == "use":
        return f"{c!r} offers no effect usable now ({allowed})"
    if where == "return" and kind == "return" and c not in p.hand:
        return f"{c} is not in your hand"
    if where == "return" and kind == "return":
        return f"your hand is at the limit of {HAND_LIMIT}: send done"
    if where == "return" and kind == "done":
        return f"return cards until your hand holds {HAND_LIMIT} (it holds {len(p.hand)})"
    if where in ("task", "tailor") and kind in ("task", "return"):
        return f"{c} is not in your hand"
    if where == "place" and kind == "place":
        return _why_place(state, seat, action)
    if where != "action":
        return f"not a {kind} decision now ({allowed})"
    task = state.task
    assert task is not None
    name = TASKS[task["material"]]
    if kind in actions.TASK_KINDS and kind != name.lower():
        if task.get("mask"):  # Card: Mask: only the task's own action, or skip it
            owner = task["owner"]
            return f"this is a {name} task under {owner}'s Mask: take {name.lower()} or done"
        return f"this is a {name} task: take {name.lower()}, craft ({task['material']}) or prayer"
    if kind == "clerk":
        return f"{c} is not in your craft bench"
    if kind in ("monk", "potter"):
        return f"{c} is not on the floor"
    if kind == "craft":
        return _why_craft(state, seat, action, task["material"])
    if kind == "smith":
        return _why_smith(state, seat, action)
    return f"not a {kind} decision now ({allowed})"


def _why_place(state: State, seat: str, action: dict[str, Any]) -> str:
    first = state.frames[-1]["queue"][0]["card"]
    if action["card"] != first:
        return f"place {first} first: the cards are placed one at a time, in order"
    works = ", ".join(om.om_works(state, seat))
    return f"{action['om']} is not an Om work of yours (yours: {works})"


def _why_craft(state: State, seat: str, action: dict[str, Any], mat: str) -> str:
    work = action["work"]
    if work not in state.players[seat].hand:
        return f"{work} is not in your hand (Rules: CRAFT)"
    if card(work).material != mat:
        return f"a CRAFT on a {TASKS[mat]} task completes a {mat} work, not {card(work).material}"
    need = actions.supports_needed(state, seat, work, "craft")
    return f"{card(work).name} needs {need} {mat} in your craft bench (Rules: CRAFT)"


def _why_smith(state: State, seat: str, action: dict[str, Any]) -> str:
    work, support = action["work"], action["support"]
    hand = state.players[seat].hand
    if work not in hand:
        return f"{work} is not in your hand (Rules: SMITH)"
    mat = card(work).material
    need = actions.supports_needed(state, seat, work, "smith")
    if any(s not in hand or s == work for s in support):
        return "supports come from your hand only, the work excluded (rules FAQ)"
    if any(card(s).material != mat for s in support):
        return f"supports for {card(work).name} must be {mat}"
    if len(support) != need:
        return f"{card(work).name} needs exactly {need} {mat} supports"
    return "list each support once, in id order"


# -- the JSON Schema ----------------------------------------------------------------------

_ID = {
    "type": "string",
    "pattern": "^[a-z0-9]+(-[a-z0-9]+)*(#2)?$",
    "description": "a card instance id",
}
_OM = {**_ID, "description": "Wutai: an Om work of yours to tuck the card under (M-R108)"}


def _variant(
    kind: str, doc: str, props: dict[str, Any], required: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {
        "type": "object",
        "description": doc,
        "properties": {"kind": {"const": kind}, **props},
        "required": ["kind", *required],
        "additionalProperties": False,
    }


def action_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of one decision: a tagged union on ``kind``."""
    wing = {"enum": list(WINGS), "description": "where the completed work goes"}
    card_prop = {"card": _ID}
    om_prop = {"card": _ID, "om": _OM}
    variants = [
        _variant("return", "Return a hand card to the bottom of the deck.", card_prop, ("card",)),
        _variant("done", "Stop returning cards, or decline the remaining effects.", {}),
        _variant("task", "Put a hand card in your task slot.", card_prop, ("card",)),
        _variant("no_task", "Choose no task: you will pray at Noon.", {}),
        _variant("clerk", "CLERK: move a craft-bench card to your sales.", om_prop, ("card",)),
        _variant("monk", "MONK: hire a floor card as a helper.", om_prop, ("card",)),
        _variant("potter", "POTTER: move a floor card to your craft bench.", om_prop, ("card",)),
        _variant("tailor", "TAILOR: return cards, then draw up to five.", {}),
        _variant(
            "smith",
            "SMITH: complete a hand work, revealing its supports from your hand (id order).",
            {"work": _ID, "support": {"type": "array", "items": _ID}, "wing": wing},
            ("work", "support", "wing"),
        ),
        _variant(
            "craft",
            "CRAFT: complete a hand work of the task's material.",
            {"work": _ID, "wing": wing},
            ("work", "wing"),
        ),
        _variant("prayer", "PRAYER: draw a card to your waiting area.", {}),
        _variant(
            "tuck",
            "Wutai: tuck a hand card under the Om work just completed (M-R106).",
            {"card": _ID, "edge": {"enum": ["helpers", "materials", "sales"]}},
            ("card", "edge"),
        ),
        _variant(
            "place",
            "Wutai: the card an effect just tucked under your temple stays there, or goes "
            "under the Om work named (M-R119).",
            om_prop,
            ("card",),
        ),
        _variant(
            "use",
            "Use the effect of one of your works.",
            {
                "card": _ID,
                "target": {"type": "string"},
                "cards": {"type": "array", "items": _ID},
                "material": {"enum": list(MATERIALS)},
                "wing": wing,
                "option": {"type": "string"},
            },
            ("card",),
        ),
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mottainai decision",
        "oneOf": variants,
    }


def label(action: dict[str, Any]) -> str:
    """Return a short human label for a decision (``arbiter moves``)."""
    kind = str(action.get("kind", "?"))
    if kind == "return" and is_hidden(action.get("card")):
        return "return a card"  # a peer game's face-down return names a place (M-R125)
    try:
        if kind in ("return", "task", "clerk", "monk", "potter"):
            c = card(action["card"])
            what = {"task": c.task, "monk": c.task, "clerk": c.material, "potter": c.material}
            return f"{kind} {c.name} [{what.get(kind, c.material)}]"
        if kind == "place":
            where = f"under {card(action['om']).name}" if "om" in action else "in the temple"
            return f"place {card(action['card']).name} {where}"
        if kind in ("smith", "craft"):
            c = card(action["work"])
            sup = action.get("support")
            with_ = f" with {', '.join(card(s).name for s in sup)}" if sup else ""
            return f"{kind} {c.name} ({c.material} {c.value}){with_} -> {action['wing']}"
        if kind == "use":
            rest = " ".join(
                f"{k}={v}" for k, v in sorted(action.items()) if k not in ("kind", "card")
            )
            return f"use {card(action['card']).name} {rest}".strip()
    except (KeyError, TypeError, Hidden):
        pass  # not a card of this game, or a card whose face this state does not hold
    return kind
