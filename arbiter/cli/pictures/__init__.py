"""Pictures of a game's table for the terminal (``arbiter show``, ``arbiter replay``).

Each engine with a picture has a module here whose ``draw(view, seat)`` returns rich
renderables: panels and tables with cards as coloured chips (the colours are data of
the engine, ``arbiter/games/<game>/pictures.py``). The engine's own ``render`` text
stays the ``--plain`` form, for mail and logs.

A state file is untrusted: every string from it goes through ``chip``/``text`` (literal,
control characters escaped, never read as markup), and a view the picture cannot read
is refused as a ``SchemaViolation`` before anything is printed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Any

from arbiter.cli.output import literal
from arbiter.core.errors import SchemaViolation
from arbiter.core.safeio import visible

PICTURES = {"mottainai", "motcoin", "momiji"}
"""Engines with a picture (a module of this package named after the engine)."""

# What a picture raises on a view that is not its engine's shape.
_NOT_ITS_VIEW = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def chip(label: Any, colours: tuple[str, str]) -> Any:
    """Return a card as a coloured chip: `` label `` in (background, text) colours."""
    from rich.text import Text

    background, foreground = colours
    return Text(f" {visible(str(label))} ", style=f"{foreground} on {background}")


class Chips:
    """Chips side by side, wrapped between chips only (never inside a card's label)."""

    def __init__(self, items: list[Any], empty: str, sep: str):
        self.items, self.empty, self.sep = items, empty, sep

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        if not self.items:
            yield Text(self.empty, style="dim")
            return
        width = options.max_width
        line = Text()
        for item in self.items:
            if line and line.cell_len + len(self.sep) + item.cell_len > width:
                yield line
                line = Text()
            if line:
                line.append(self.sep)
            line.append_text(item)
        yield line

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        if not self.items:
            return Measurement(len(self.empty), len(self.empty))
        widths = [item.cell_len for item in self.items]
        total = sum(widths) + len(self.sep) * (len(widths) - 1)
        return Measurement(min(max(widths), options.max_width), min(total, options.max_width))


def chips(items: Iterable[Any], empty: str = "-", sep: str = " ") -> Chips:
    """Return chips (or any ``Text`` pieces) side by side, or a dim ``empty``."""
    return Chips(list(items), empty, sep)


def text(*pieces: Any) -> Any:
    """Return a line of literal pieces: a ``str``, a ``(str, style)`` pair or a ``Text``."""
    from rich.text import Text

    line = Text()
    for piece in pieces:
        if isinstance(piece, Text):
            line.append_text(piece)
        elif isinstance(piece, tuple):
            line.append(visible(str(piece[0])), style=piece[1])
        else:
            line.append(visible(str(piece)))
    return line


def panel(body: Any, title: Any = None, style: str = "") -> Any:
    from rich.panel import Panel

    return Panel(body, title=title, title_align="left", border_style=style, expand=True)


def grid(rows: Iterable[tuple[str, Any]]) -> Any:
    """Return a two-column grid of (label, content) rows."""
    from rich.table import Table

    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for label, content in rows:
        table.add_row(literal(label), content)
    return table


def draw(state: dict[str, Any]) -> list[Any] | None:
    """Return the picture of a state file's view, or ``None`` when its engine has none.

    Raises ``SchemaViolation`` when the view is not that engine's shape.
    """
    name = state["engine"]["name"]
    view = state["view"]
    if name not in PICTURES or not view:
        return None
    module = import_module(f"arbiter.cli.pictures.{name}")
    drawer: Callable[[dict[str, Any], str | None], list[Any]] = module.draw
    try:
        return drawer(view, state["seat"])
    except _NOT_ITS_VIEW as exc:
        raise SchemaViolation(
            f"the state file's view is not a {name} view ({type(exc).__name__} while "
            "drawing it: an unknown card or a missing field): use the state file the "
            "referee wrote, or print it with --json"
        ) from None
