"""The legal decisions numbered and grouped, and what a player types resolved to one.

Numbers are positions in the list of legal decisions, from 1, in the engine's order
(fixed: the same state file gives the same numbers in the terminal, the page, ``arbiter
moves --json`` and ``arbiter move --pick``). Groups are the decision kinds in order of
first appearance; numbers run on across groups.

A name resolves case-insensitively (spaces, ``-`` and ``_`` alike) against each
decision's terms: its kind, its label, and the name and id of every card or value it
names. An exact term wins when it selects one decision, then a prefix of a term, then
every word of the text as a prefix of some word of the same decision's terms (``use kite
lamp``). More than one decision: the error lists them; none: it lists names that would do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.core.errors import UsageError
from arbiter.play.cards import CardInfo, card_info

MAX_LISTED = 12
"""Matches or suggestions an error names before "…" (a line, not a page)."""


class NoSuchDecision(UsageError):
    """A typed number or name that selects no single decision; ``matches``: the numbers
    of the decisions it could mean (empty: none)."""

    def __init__(self, message: str, matches: Sequence[int] = ()):
        super().__init__(message)
        self.matches = list(matches)


@dataclass(frozen=True)
class Choice:
    """One legal decision as a player sees it."""

    number: int
    action: dict[str, Any]
    kind: str
    label: str
    cards: tuple[CardInfo, ...]
    terms: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The form ``arbiter moves --json`` prints and the web page reads."""
        return {
            "number": self.number,
            "kind": self.kind,
            "label": self.label,
            "action": self.action,
            "cards": [
                {"id": c.id, "name": c.name, "type": c.type, "text": c.text} for c in self.cards
            ],
        }


def normal(text: str) -> str:
    """Lower case, ``-``/``_`` as spaces, spaces collapsed: how names are compared."""
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _label(engine: Any, action: Mapping[str, Any]) -> str:
    if engine is None:
        parts = [f"{k}={v}" for k, v in sorted(action.items()) if k != "kind"]
        return " ".join([str(action.get("kind", "?")), *parts])
    return str(engine.label(dict(action)))


def choices(
    engine: Any, legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any] | None = None
) -> list[Choice]:
    """Return the decisions numbered from 1 (``engine`` may be ``None``: an engine this
    release does not have; the decisions are then labelled by their fields)."""
    name = engine.info.name if engine is not None else ""
    out = []
    for number, listed in enumerate(legal, start=1):
        # Keys in canonical order, as state files hold them: a decision met in a preview
        # reads the same as in the next state file (its cards in the same order).
        action = dict(sorted(listed.items()))
        kind = str(action.get("kind", "?"))
        label = _label(engine, action)
        cards: list[CardInfo] = []
        terms = [kind, label]
        for key, value in action.items():
            if key == "kind":
                continue
            for text in _strings(value):
                info = card_info(name, text, view)
                if info is not None:
                    if info not in cards:
                        cards.append(info)
                    terms += [info.name, info.id]
                else:
                    terms.append(text)
        unique = tuple(dict.fromkeys(normal(t) for t in terms if normal(t)))
        out.append(Choice(number, dict(action), kind, label, tuple(cards), unique))
    return out


def groups(menu: Sequence[Choice]) -> list[tuple[str, list[Choice]]]:
    """The decisions by kind, kinds in order of first appearance."""
    by_kind: dict[str, list[Choice]] = {}
    for choice in menu:
        by_kind.setdefault(choice.kind, []).append(choice)
    return list(by_kind.items())


def _listing(found: Sequence[Choice]) -> str:
    shown = [f"{c.number} ({c.label})" for c in found[:MAX_LISTED]]
    return ", ".join(shown) + (", …" if len(found) > MAX_LISTED else "")


def suggestions(menu: Sequence[Choice]) -> list[str]:
    """Names a player may type now: the card names, then the kinds."""
    names = [c.name for choice in menu for c in choice.cards]
    names += [choice.kind for choice in menu]
    return list(dict.fromkeys(names))


def resolve(text: str, menu: Sequence[Choice]) -> Choice:
    """Return the one decision ``text`` (a number or a name) selects, or raise
    ``NoSuchDecision`` saying which would do."""
    typed = text.strip()
    if not menu:
        raise NoSuchDecision("there is no decision to make now")
    if typed.isdigit():
        number = int(typed)
        if 1 <= number <= len(menu):
            return menu[number - 1]
        raise NoSuchDecision(f"there is no decision {number}: pick 1–{len(menu)}")
    query = normal(typed)
    if not query:
        raise NoSuchDecision(f"type a number 1–{len(menu)} or a name")
    for test in (
        lambda c: query in c.terms,
        lambda c: any(t.startswith(query) for t in c.terms),
        lambda c: _every_word(query, c),
    ):
        found = [c for c in menu if test(c)]
        if len(found) == 1:
            return found[0]
        if found:
            raise NoSuchDecision(
                f"{typed!r} could mean {len(found)} decisions: {_listing(found)}; "
                "type its number or more of the name",
                [c.number for c in found],
            )
    names = suggestions(menu)
    listed = ", ".join(names[:MAX_LISTED]) + (", …" if len(names) > MAX_LISTED else "")
    raise NoSuchDecision(
        f"no decision is called {typed!r}: try {listed} (or a number 1–{len(menu)})"
    )


def _every_word(query: str, choice: Choice) -> bool:
    words = [w for term in choice.terms for w in term.split()]
    return all(any(w.startswith(q) for w in words) for q in query.split())


def explain(choice: Choice, hint: str | None = None) -> list[str]:
    """What ``?`` prints for a decision: its label, each card it names in one line, and
    the prompt's hint (the engine's sentence for this kind of decision)."""
    lines = [f"{choice.number}. {choice.label}"]
    lines += [f"   {card.line()}" for card in choice.cards]
    if hint:
        lines.append(f"   ({hint})")
    return lines
