"""All printing goes through here; domain errors become exit codes in exactly one place.

Text printed here is untrusted: file and folder names, seat names and anything a state
file says. So nothing is read as rich markup (``m[@click=(].json`` prints as typed) and
control characters (ESC, CR, newlines...) are printed as visible escapes (``\x1b``).
Styling is asked for explicitly, with ``style=`` or ``Output.styled`` pieces.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from arbiter.core.errors import ArbiterError
from arbiter.core.safeio import visible

Piece = str | tuple[str, str]
"""Part of a styled line: plain text, or ``(text, style)``; the text is always literal."""


def literal(value: Any, style: str | None = None) -> Any:
    """Return a rich ``Text`` of ``value`` printed literally (no markup, no emoji codes)."""
    from rich.text import Text

    return Text(visible(str(value)), style=style or "")


class Output:
    """Print human text to the terminal, or JSON with ``--json``."""

    def __init__(self, as_json: bool = False):
        self.as_json = as_json
        self._console: Any = None

    @property
    def console(self) -> Any:
        if self._console is None:
            from rich.console import Console

            # No markup, emoji codes or highlighting: strings print as they are.
            self._console = Console(highlight=False, soft_wrap=True, markup=False, emoji=False)
        return self._console

    def json(self, value: Any) -> None:
        sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False) + "\n")

    def line(self, text: str = "", style: str | None = None) -> None:
        """Print one line literally: markup is not read, control characters are escaped."""
        if self.as_json:
            return
        if style is None:
            sys.stdout.write(visible(text) + "\n")
        else:
            self.console.print(literal(text, style))

    def styled(self, *pieces: Piece) -> None:
        """Print one line made of pieces, each literal; ``(text, style)`` pieces are styled."""
        if self.as_json:
            return
        from rich.text import Text

        line = Text()
        for piece in pieces:
            content, style = (piece, "") if isinstance(piece, str) else piece
            line.append(visible(content), style=style)
        self.console.print(line)

    def table(self, title: str | None, columns: list[str], rows: list[list[str]]) -> None:
        """Print a table; every cell is literal text."""
        from rich.table import Table

        table = Table(title=title, show_header=True, header_style="bold")
        for column in columns:
            table.add_column(literal(column))
        for row in rows:
            table.add_row(*(literal(cell) for cell in row))
        self.console.print(table)


def error(exc: ArbiterError) -> int:
    """Print a domain error as one line on stderr and return its exit code."""
    message = visible(" ".join(exc.message.split()))
    sys.stderr.write(f"arbiter: error: {message}\n")
    return exc.exit_code


def os_error(exc: OSError) -> int:
    """Print an operating-system error about a path as one line; exit as ``NotReady``."""
    from arbiter.core.errors import NotReady
    from arbiter.core.safeio import shown

    name = exc.filename
    where = shown(os.fsdecode(name)) if isinstance(name, (str, bytes, os.PathLike)) else "a file"
    reason = exc.strerror or type(exc).__name__
    return error(NotReady(f"cannot use {where} ({reason}): check the path and its permissions"))


def interrupted() -> int:
    sys.stderr.write("arbiter: interrupted\n")
    return 130
