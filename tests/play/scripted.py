"""A scripted player for ``arbiter play``: it reads what the terminal printed, as a
person would, and types a number or a card name (seeded choices), ``y`` to send.

It stands in for ``arbiter.play.terminal.ask_line`` in this process (the pty test types
into a real pseudo-terminal instead): ``read`` returns what was printed since the last
prompt.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from arbiter.core.rng import Rng

_COUNT = re.compile(r"^(\d+) decision\(s\) now")
_KIND = re.compile(r"^  ([a-z_-]+):$")
_CHOICE = re.compile(r"^ {4}\s*(\d+)\. (.*)$")
_CARD = re.compile(r"^ {9}(.+?) \[")


@dataclass
class ScriptedPlayer:
    """Types into ``arbiter play``. ``names``: how often a card name is typed instead of
    the number (when the decision names a card)."""

    read: Callable[[], str]
    rng: Rng
    names: float = 0.4
    typed: list[str] = field(default_factory=list)
    seen: str = ""

    def __call__(self, prompt: str) -> str:
        printed = self.read()
        self.seen = printed
        if prompt.startswith("Send ") or "[y/n]" in prompt:
            return self._type("y")
        if prompt != "> ":
            raise AssertionError(f"an unexpected prompt: {prompt!r}")
        choices = _choices(printed)
        if not choices:  # a name was refused (ambiguous): the last listing still holds
            choices = self._last
        self._last = choices
        number = 1 + self.rng.below(len(choices))
        name = choices[number - 1]
        if name and self.rng.below(100) < self.names * 100 and "could mean" not in printed:
            return self._type(name.lower() if self.rng.below(2) else name.upper())
        return self._type(str(number))

    _last: list[str | None] = field(default_factory=list)

    def _type(self, text: str) -> str:
        self.typed.append(text)
        return text


def _choices(printed: str) -> list[str | None]:
    """The decisions of the last listing printed: for each, a name that may select it —
    its first card's, or its kind when no other decision has that kind."""
    lines = printed.splitlines()
    starts = [i for i, line in enumerate(lines) if _COUNT.match(line)]
    if not starts:
        return []
    out: list[str | None] = []
    kinds: list[str] = []
    kind = ""
    for line in lines[starts[-1] :]:
        if _KIND.match(line):
            kind = _KIND.match(line).group(1)  # type: ignore[union-attr]
        elif _CHOICE.match(line):
            out.append(None)
            kinds.append(kind)
        elif out and out[-1] is None and _CARD.match(line):
            out[-1] = _CARD.match(line).group(1)  # type: ignore[union-attr]
    for index, name in enumerate(out):
        if name is None and kinds.count(kinds[index]) == 1:
            out[index] = kinds[index].replace("_", " ")
    return out
