"""All printing goes through here; domain errors become exit codes in exactly one place."""

from __future__ import annotations

import json
import sys
from typing import Any

from arbiter.core.errors import ArbiterError


class Output:
    """Print human text to the terminal, or JSON with ``--json``."""

    def __init__(self, as_json: bool = False):
        self.as_json = as_json
        self._console: Any = None

    @property
    def console(self) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, soft_wrap=True)
        return self._console

    def json(self, value: Any) -> None:
        sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False) + "\n")

    def line(self, text: str = "", style: str | None = None) -> None:
        if self.as_json:
            return
        if style is None and "[" not in text:
            sys.stdout.write(text + "\n")
        else:
            self.console.print(text, style=style)

    def table(self, title: str | None, columns: list[str], rows: list[list[str]]) -> None:
        from rich.table import Table

        table = Table(title=title, show_header=True, header_style="bold")
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        self.console.print(table)


def error(exc: ArbiterError) -> int:
    """Print a domain error as one line on stderr and return its exit code."""
    message = " ".join(exc.message.split())
    sys.stderr.write(f"arbiter: error: {message}\n")
    return exc.exit_code


def interrupted() -> int:
    sys.stderr.write("arbiter: interrupted\n")
    return 130
