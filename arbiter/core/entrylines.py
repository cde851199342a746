"""The log lines one chain entry produced (kept apart so the table and the life of a
game can both build them without importing each other)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class EntryLines:
    """The log lines one entry produced: public ones and each seat's own view of them."""

    public: list[str] = field(default_factory=list)
    seats: dict[str, list[str]] = field(default_factory=dict)

    def add_common(self, seats: list[str], text: str) -> None:
        """Add a referee line that every reader sees alike (creation, joins)."""
        self.public.append(text)
        for seat in seats:
            self.seats.setdefault(seat, []).append(text)

    def extend(self, other: EntryLines) -> None:
        self.public.extend(other.public)
        for seat, lines in other.seats.items():
            self.seats.setdefault(seat, []).extend(lines)
