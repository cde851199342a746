"""arbiter TRF: a tournament as lines of text, in the spirit of FIDE's Tournament Report
File (docs/trf.md has every record, field by field, and an example).

FIDE's TRF gives each chess player one fixed-column line holding every round (opponent,
colour, result). arbiter's tables seat 2 to 5 players and a game ends in a ranking with
scores, so arbiter TRF keeps TRF's shape — a version line first, a three-character record
code opening every line, tournament header records, one ``001`` line per player — and
adds one line per round (``RND``), per table (``TBL``) and per bye (``BYE``). Fields are
separated by spaces (the player lines are padded into columns); no field holds a space.

``write(root)`` gives the text of a tournament folder, ``read(text)`` the data back (a
``TournamentExportFile``, the JSON export's model), and ``standings_from_export(data)``
the standings recomputed from that data alone. The same folder always gives the same
bytes, and ``read(write(root))`` is ``export_data.collect(root)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from pydantic import ValidationError

from arbiter.core.errors import MalformedInput, SchemaViolation
from arbiter.core.models import ExportSeat, TournamentExportFile
from arbiter.tournament.export_data import (
    EXPORT_FORMAT,
    collect,
    result_problem,
    standings_from_export,
)

__all__ = ["VERSION", "read", "render", "standings_from_export", "write"]

VERSION = "arbiter-trf/1"
NONE = "-"
"""A field with no value (JSON null)."""
COMMENT = "###"
HEADER = ("012", "022", "032", "042", "062", "092", "102", "122", "142", "202", "212", "232")
"""The tournament records: each exactly once, before the players (written in this order)."""
INTEGER = re.compile(r"-?[0-9]{1,18}")
WHAT = "arbiter TRF"


def write(root: Path) -> str:
    """The arbiter TRF text of the tournament in ``root``."""
    return render(collect(root))


def render(data: TournamentExportFile) -> str:
    """The arbiter TRF text of an export's data."""
    lines = [f"000 {VERSION}", *_header(data), *_players(data), *_rounds(data)]
    return "".join(line + "\n" for line in lines)


def _header(data: TournamentExportFile) -> list[str]:
    options = [
        f"{quote(k, safe='')}={quote(v, safe='/:')}" for k, v in sorted(data.options.items())
    ]
    terms = data.terms
    kept = data.source.record
    fields: dict[str, list[str]] = {
        "012": [data.tournament],
        "022": [data.engine.name, _opt(data.engine.version)],
        "032": options or [NONE],
        "042": [data.created],
        "062": [str(len(data.players))],
        # A duplicate tournament says so as a third field (docs/duplicate.md).
        "092": [data.pairing, str(data.table_size), *(["duplicate"] if data.duplicate else [])],
        "102": [_opt(data.organiser)],
        "122": [
            _opt(terms.deadline),
            str(terms.grace),
            terms.on_timeout,
            _opt(terms.forfeit_after),
        ],
        "142": [str(data.rounds), "finished" if data.finished else "running"],
        "202": [str(name) for name in data.tiebreaks] or [NONE],
        "212": [_opt(data.lot_seed)],
        "232": [
            data.source.format,
            _opt(kept.lines if kept else None),
            _opt(kept.head if kept else None),
        ],
    }
    return [_line(code, values) for code, values in fields.items()]


def _players(data: TournamentExportFile) -> list[str]:
    titles = ["no", "name", "fingerprint", "entered", "dropped", "rank", "points", "games",
              "byes", "opponents", "score", *data.tiebreaks]  # fmt: skip
    rows = [
        [str(p.number), p.name, p.fingerprint, _opt(p.entered), _opt(p.dropped), str(p.rank),
         str(p.points), str(p.games), str(p.byes), str(p.opponents), str(p.score),
         *(p.tiebreaks[name] for name in data.tiebreaks)]
        for p in data.players
    ]  # fmt: skip
    widths = [max(len(cells[n]) for cells in [titles, *rows]) for n in range(len(titles))]
    # Names and fingerprints read best left-aligned, numbers right-aligned, as in TRF.
    left = {1, 2}

    def aligned(code: str, cells: list[str]) -> str:
        _checked(code, cells)
        padded = [
            cell.ljust(widths[n]) if n in left else cell.rjust(widths[n])
            for n, cell in enumerate(cells)
        ]
        return f"{code} {' '.join(padded)}".rstrip()

    return [aligned(COMMENT, titles), *(aligned("001", cells) for cells in rows)]


def _rounds(data: TournamentExportFile) -> list[str]:
    out = [
        "### RND round paired seed",
        "### TBL round table game manifest status seat:place:score:points ... (seat order)",
        "### BYE round name points",
    ]
    for played in data.schedule:
        out.append(_line("RND", [str(played.round), played.paired, _opt(played.seed)]))
        for table in played.tables:
            seats = [_seat(seat) for seat in table.seats]
            fields = [str(played.round), str(table.table), table.game, _opt(table.manifest),
                      table.status, *seats]  # fmt: skip
            out.append(_line("TBL", fields))
        for bye in played.byes:
            out.append(_line("BYE", [str(played.round), bye.name, str(bye.points)]))
    return out


def _seat(seat: ExportSeat) -> str:
    if seat.place is None:
        return seat.name
    left = ":left" if seat.left else ""  # a seat that left its game (duplicate tournaments)
    return f"{seat.name}:{seat.place}:{seat.score}:{_opt(seat.points)}{left}"


def _opt(value: object) -> str:
    return NONE if value is None else str(value)


def _line(code: str, values: list[str]) -> str:
    return f"{code} {' '.join(_checked(code, values))}"


def _checked(code: str, values: list[str]) -> list[str]:
    for value in values:
        # Fields are split at spaces: a value that holds one (or nothing) would shift
        # every field after it. Only an organiser's hand edit of tournament.json can.
        if not value or any(ch.isspace() or not ch.isprintable() for ch in value):
            raise SchemaViolation(
                f"{WHAT}: record {code} cannot hold the value {value[:40]!r} (empty or with "
                "a space): check tournament.json"
            )
    return values


# -- reading ---------------------------------------------------------------------------


class _Reader:
    """Reads the records in order into the JSON export's shape, checking each line."""

    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.players: list[dict[str, Any]] = []
        self.schedule: list[dict[str, Any]] = []
        self.number = 0

    def fail(self, message: str) -> MalformedInput:
        return MalformedInput(f"{WHAT} line {self.number}: {message}")

    def whole(self, text: str, what: str) -> int:
        if not INTEGER.fullmatch(text):
            raise self.fail(f"{what} must be a whole number, not {text[:20]!r}")
        return int(text)

    def opt_whole(self, text: str, what: str) -> int | None:
        return None if text == NONE else self.whole(text, what)

    def fields(self, values: list[str], count: int, what: str) -> list[str]:
        if len(values) != count:
            raise self.fail(f"{what} has {count} fields, not {len(values)}")
        return values

    def line(self, code: str, values: list[str]) -> None:
        if code in HEADER:
            self.header_record(code, values)
        elif code == "001":
            self.player(values)
        elif code == "RND":
            self.round(values)
        elif code == "TBL":
            self.table(values)
        elif code == "BYE":
            self.bye(values)
        else:
            raise self.fail(f"{code!r} is not a record of {VERSION}")

    def header_record(self, code: str, values: list[str]) -> None:
        if self.players or self.schedule:
            raise self.fail(f"record {code} comes after the players: the header comes first")
        if code in self.header:
            raise self.fail(f"a second {code} record")
        if code in ("032", "202"):  # lists: their values, or - for none
            self.header[code] = [] if values == [NONE] else values
            return
        count = {"022": 2, "092": 2, "122": 4, "142": 2, "232": 3}.get(code, 1)
        if code == "092" and values[2:] == ["duplicate"]:
            count = 3
        v = self.fields(values, count, f"record {code}")
        parsed: dict[str, Any] = {
            "012": lambda: v[0],
            "022": lambda: {"name": v[0], "version": _none(v[1])},
            "042": lambda: v[0],
            "062": lambda: self.whole(v[0], "the number of players"),
            "092": lambda: (v[0], self.whole(v[1], "the table size"), len(v) == 3),
            "102": lambda: _none(v[0]),
            "122": lambda: {
                "deadline": self.opt_whole(v[0], "the deadline"), "grace": self.whole(v[1], "the grace"),
                "on_timeout": v[2], "forfeit_after": self.opt_whole(v[3], "forfeit after"),
            },
            "142": lambda: (self.whole(v[0], "the rounds"), self.finished(v[1])),
            "212": lambda: _none(v[0]),
            "232": lambda: (v[0], self.record(v[1], v[2])),
        }  # fmt: skip
        self.header[code] = parsed[code]()

    def finished(self, text: str) -> bool:
        if text not in ("finished", "running"):
            raise self.fail(f"record 142 says {text[:20]!r}, not finished or running")
        return text == "finished"

    def record(self, lines: str, head: str) -> dict[str, Any] | None:
        if (lines == NONE) != (head == NONE):
            raise self.fail("record 232 gives the record's lines and head, or neither")
        return (
            None
            if lines == NONE
            else {"lines": self.whole(lines, "the record's lines"), "head": head}
        )

    def player(self, values: list[str]) -> None:
        if self.schedule:
            raise self.fail("a player after the rounds: the players come first")
        missing = [code for code in HEADER if code not in self.header]
        if missing:
            raise self.fail(f"the header has no {missing[0]} record before the players")
        order = self.header["202"]
        v = self.fields(values, 11 + len(order), "a 001 record (with the 202 tie-breaks)")
        number = self.whole(v[0], "the starting number")
        if number != len(self.players) + 1:
            raise self.fail(f"player {number} is out of order: {len(self.players) + 1} comes next")
        self.players.append({
            "number": number, "name": v[1], "fingerprint": v[2],
            "entered": self.opt_whole(v[3], "entered"), "dropped": self.opt_whole(v[4], "dropped"),
            "rank": self.whole(v[5], "the rank"), "points": self.whole(v[6], "the points"),
            "games": self.whole(v[7], "the games"), "byes": self.whole(v[8], "the byes"),
            "opponents": self.whole(v[9], "the opponents' points"),
            "score": self.whole(v[10], "the game score"), "tiebreaks": dict(zip(order, v[11:], strict=True)),
        })  # fmt: skip

    def round(self, values: list[str]) -> None:
        if not self.players:
            raise self.fail("a round before the players")
        v = self.fields(values, 3, "an RND record")
        number = self.whole(v[0], "the round")
        if number != len(self.schedule) + 1:
            raise self.fail(f"round {number} is out of order: {len(self.schedule) + 1} comes next")
        self.schedule.append(
            {"round": number, "paired": v[1], "seed": _none(v[2]), "tables": [], "byes": []}
        )

    def current(self, text: str) -> dict[str, Any]:
        number = self.whole(text, "the round")
        if not self.schedule or self.schedule[-1]["round"] != number:
            raise self.fail(f"round {number} has no RND record just before it")
        return self.schedule[-1]

    def table(self, values: list[str]) -> None:
        if len(values) < 6:
            raise self.fail(f"a TBL record has at least 6 fields, not {len(values)}")
        played = self.current(values[0])
        number = self.whole(values[1], "the table")
        if number != len(played["tables"]) + 1 or played["byes"]:
            raise self.fail(
                f"table {number} is out of order: table {len(played['tables']) + 1} comes "
                "next, before the byes"
            )
        status = values[4]
        seats = [self.seat(text, status) for text in values[5:]]
        if status == "over":
            self.check_result(seats)
        played["tables"].append({
            "table": number, "game": values[2], "manifest": _none(values[3]),
            "status": status, "seats": seats,
        })  # fmt: skip

    def seat(self, text: str, status: str) -> dict[str, Any]:
        parts = text.split(":")
        if status != "over":
            if len(parts) != 1:
                raise self.fail(f"a game {status[:20]} has no result: seat {text[:40]!r} has one")
            return {"name": text, "place": None, "score": None, "points": None}
        left = len(parts) == 5 and parts[4] == "left" and self.header["092"][2]
        if len(parts) != 4 and not left:
            raise self.fail(f"seat {text[:40]!r} of a game over is name:place:score:points")
        name, place, score, points = parts[:4]
        seat = {
            "name": name, "place": self.whole(place, "a place"), "score": self.whole(score, "a score"),
            # A duplicate game whose group is not over yet has no matchpoints: "-".
            "points": self.opt_whole(points, "a seat's points") if self.header["092"][2]
            else self.whole(points, "a seat's points"),
        }  # fmt: skip
        if left:
            seat["left"] = True
        return seat

    def check_result(self, seats: list[dict[str, Any]]) -> None:
        duplicate = self.header["092"][2]
        problem = result_problem([ExportSeat.model_construct(**seat) for seat in seats], duplicate)
        if problem:
            raise self.fail(problem)

    def bye(self, values: list[str]) -> None:
        v = self.fields(values, 3, "a BYE record")
        played = self.current(v[0])
        size = self.header["092"][1]
        points = self.whole(v[2], "a bye's points")
        # A duplicate round's bye is the group's average: the whole data's check says.
        if points != size - 1 and not self.header["092"][2]:
            raise self.fail(f"a bye scores {size - 1} (the table size less one), not {points}")
        played["byes"].append({"name": v[1], "points": points})

    def data(self) -> dict[str, Any]:
        h = self.header
        if not self.players:
            raise MalformedInput(f"{WHAT}: no 001 record: a tournament has players")
        if h["062"] != len(self.players):
            raise MalformedInput(
                f"{WHAT}: record 062 counts {h['062']} players, the file has {len(self.players)}"
            )
        (fmt, record), (rounds, finished) = h["232"], h["142"]
        return {
            "format": EXPORT_FORMAT, "tournament": h["012"], "engine": h["022"],
            "options": _options(h["032"]), "created": h["042"], "pairing": h["092"][0],
            "table_size": h["092"][1], "organiser": h["102"], "terms": h["122"],
            **({"duplicate": True} if h["092"][2] else {}),
            "rounds": rounds, "finished": finished, "tiebreaks": h["202"], "lot_seed": h["212"],
            "source": {"format": fmt, "record": record},
            "players": self.players, "schedule": self.schedule,
        }  # fmt: skip


def read(text: str) -> TournamentExportFile:
    """The data of an arbiter TRF text (refused in one line, naming the line, when it is
    not one: ``MalformedInput`` for its layout, ``SchemaViolation`` for a value)."""
    from arbiter.core.schemas import validate

    reader = _Reader()
    for reader.number, line in _lines(text):
        if reader.number == 1:
            if line != f"000 {VERSION}":
                raise reader.fail(f"the first line must be '000 {VERSION}' (the version)")
            continue
        if line.startswith(COMMENT) or not line.strip():
            continue  # comments and blank lines are for people
        if len(line) < 5 or line[3] != " ":
            raise reader.fail("a record is a three-character code, a space and its fields")
        reader.line(line[:3], [value for value in line[4:].split(" ") if value])
    data = reader.data()
    validate("tournament-export", data, WHAT)
    try:
        return TournamentExportFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise SchemaViolation(f"{WHAT}: {where}: {first['msg']}") from None


def _lines(text: str) -> Iterator[tuple[int, str]]:
    if not text.endswith("\n"):
        raise MalformedInput(f"{WHAT}: the last line has no newline: the file was cut short")
    for number, line in enumerate(text[:-1].split("\n"), start=1):
        if any(not ch.isprintable() for ch in line):
            raise MalformedInput(
                f"{WHAT} line {number}: a tab, carriage return or other control character: "
                "fields are separated by spaces, lines end with a newline alone"
            )
        yield number, line


def _none(text: str) -> str | None:
    return None if text == NONE else text


def _options(values: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        key, equals, text = value.partition("=")
        if not equals or not key:
            raise MalformedInput(f"{WHAT}: record 032 holds {value[:40]!r}, not KEY=VALUE")
        out[unquote(key)] = unquote(text)
    return out
