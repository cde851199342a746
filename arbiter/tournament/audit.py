"""``tournament verify``'s checks of the tournament itself (docs/tournament-record.md §3).

Everything here is recomputed from the signed record and the game folders and compared:
``tournament.json``, every round's seed and pairing, the set of game folders and each
game's ``game.json`` digest, each recorded result against its game, and the published
standings files byte for byte. The games' own replays run after these checks, in
parallel (``arbiter verify``'s runner). Each failure is one line naming what differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import VerificationFailed
from arbiter.tournament import folder, record
from arbiter.tournament.folder import Deal, Entrant, Round, Table, Terms, Tournament


@dataclass
class Audit:
    """What the checks found (they raise at the first failure)."""

    tournament: Tournament
    lines: list[record.Line] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def audit(root: Path) -> Audit:
    """Run every check of §3 but the games' replays; raise ``VerificationFailed``."""
    tournament = folder.load(root)
    if not tournament.recorded:
        return Audit(
            tournament,
            notes=[
                "a format-1 tournament: no signed record, so only its games are checked "
                "(pairings, folders and standings are not)"
            ],
        )
    lines = record.read(root)
    expected = rebuild(lines)
    compare_json(tournament, expected)
    check_order(lines)
    for line in lines:
        if line.kind == "round":
            check_pairing(expected, lines, line)
    check_games(root, expected, lines)
    dealt = check_deals(root, expected)
    check_standings(root, expected)
    rounds = sum(1 for line in lines if line.kind == "round")
    results = sum(1 for line in lines if line.kind == "result")
    state = "finished" if expected.finished else "in progress"
    return Audit(
        expected,
        lines,
        [
            f"record: {len(lines)} signed lines ({rounds} rounds, {results} results, "
            f"{state}); every pairing recomputed and equal; tournament.json and the "
            "published standings agree",
            *dealt,
        ],
    )


def rebuild(lines: list[record.Line]) -> Tournament:
    """The ``tournament.json`` the record gives."""
    terms = lines[0].body
    schedule: list[Round] = []
    finished = False
    players = [Entrant(**p.model_dump()) for p in terms.players]
    for line in lines[1:]:
        if line.kind == "drop":
            players = [
                p.model_copy(update={"dropped": line.body.from_round})
                if p.name == line.body.name
                else p
                for p in players
            ]
        elif line.kind == "enter":
            body = line.body
            players.append(
                Entrant(name=body.name, key=body.key, comment=body.comment, entered=body.from_round)
            )
        elif line.kind == "round":
            body = line.body
            schedule.append(
                Round(
                    round=body.round,
                    paired=body.paired,
                    tables=[Table(**t.model_dump()) for t in body.tables],
                    byes=list(body.byes),
                    seed=body.seed,
                    deals=[Deal(**d.model_dump()) for d in body.deals],
                )
            )
        elif line.kind == "finish":
            finished = True
    return Tournament(
        format=folder.TOURNAMENT_FORMAT,
        id=terms.id,
        engine=terms.engine,
        options=dict(terms.options),
        pairing=terms.pairing,
        rounds=terms.rounds,
        table_size=terms.table_size,
        players=players,
        terms=Terms(**terms.terms.model_dump()),
        created=terms.created,
        organiser=terms.organiser,
        schedule=schedule,
        finished=finished,
        tiebreaks=list(terms.tiebreaks),
        duplicate=terms.duplicate,
    )


def compare_json(found: Tournament, expected: Tournament) -> None:
    """``tournament.json`` must be what the record signs."""
    where = _first_difference(found.model_dump(mode="json"), expected.model_dump(mode="json"))
    if where is not None:
        raise VerificationFailed(
            f"tournament.json: {where} is not what the signed record gives: the file was "
            "edited (rebuild it from record.jsonl, or find who changed it)"
        )


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}".lstrip(".")
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_difference(x, y, f"{path}[{index}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{path} (length)".lstrip(".")
    return None if a == b else (path.lstrip(".") or "the file")


def check_order(lines: list[record.Line]) -> None:
    """Kinds in an order the rules allow: a round only once every game of the round
    before has its result; results only of the last paired round, once each; nothing
    after ``finish``, which comes after the last round's results."""
    terms = lines[0].body
    paired: list[Any] = []
    results: set[str] = set()
    finished = False
    names = {p.name for p in terms.players}
    keys = {p.key for p in terms.players}
    dropped: set[str] = set()
    for number, line in enumerate(lines[1:], start=2):
        where = f"{record.RECORD} line {number}"
        if finished:
            raise VerificationFailed(f"{where}: a {line.kind} line after the finish")
        if line.kind == "drop":
            body = line.body
            if body.name not in names or body.name in dropped:
                raise VerificationFailed(f"{where}: drops {body.name}, who is not playing")
            if body.from_round != len(paired) + 1:
                raise VerificationFailed(
                    f"{where}: a drop takes effect from the next round ({len(paired) + 1}), "
                    f"not round {body.from_round}"
                )
            dropped.add(body.name)
        elif line.kind == "enter":
            body = line.body
            if terms.pairing != "swiss" or body.name in names or body.key in keys:
                raise VerificationFailed(f"{where}: an entry the rules do not allow ({body.name})")
            if not len(paired) < body.from_round <= terms.rounds:
                raise VerificationFailed(
                    f"{where}: enters {body.name} from round {body.from_round}, which is "
                    "already paired or beyond the last round"
                )
            names.add(body.name)
            keys.add(body.key)
        if line.kind == "round":
            if paired and not all(t.game in results for t in paired[-1].tables):
                raise VerificationFailed(
                    f"{where}: round {line.body.round} was paired before every result of "
                    f"round {paired[-1].round} was recorded"
                )
            if line.body.round != len(paired) + 1 or line.body.round > terms.rounds:
                raise VerificationFailed(f"{where}: round {line.body.round} out of order")
            paired.append(line.body)
        elif line.kind == "result":
            games = {t.game: t.table for t in paired[-1].tables} if paired else {}
            if line.body.game not in games or line.body.round != paired[-1].round:
                raise VerificationFailed(
                    f"{where}: a result for {line.body.game}, not a game of the round being played"
                )
            if line.body.table != games[line.body.game] or line.body.game in results:
                raise VerificationFailed(f"{where}: the result of {line.body.game} again, or at another table")
            results.add(line.body.game)
        elif line.kind == "finish":
            if len(paired) != terms.rounds or not all(t.game in results for t in paired[-1].tables):
                raise VerificationFailed(f"{where}: finished before every round was played")
            finished = True


def check_pairing(expected: Tournament, lines: list[record.Line], line: record.Line) -> None:
    """Pair the round again from what the record held before it, and compare."""
    from arbiter.tournament.rounds import compute, last_heads, recorded

    body = line.body
    before = lines[: int(line.entry["seq"])]
    seed = record.round_seed(lines[0].hash, body.round, last_heads(before, body.round - 1))
    if body.seed != seed:
        raise VerificationFailed(
            f"round {body.round}: the recorded seed is not the one the terms and round "
            f"{body.round - 1}'s final chain heads give ({seed[:16]}…)"
        )
    pairing = compute(expected, recorded(expected, before), body.round, seed)
    tables = [list(t.seats) for t in body.tables]
    if tables != pairing.tables or list(body.byes) != pairing.byes:
        for k, (got, want) in enumerate(zip(tables, pairing.tables, strict=False), start=1):
            if got != want:
                raise VerificationFailed(
                    f"round {body.round}, table {k}: recorded {', '.join(got)}, but the rules "
                    f"pair {', '.join(want)}"
                )
        raise VerificationFailed(
            f"round {body.round}: recorded {len(tables)} tables and byes {body.byes}, but the "
            f"rules give {len(pairing.tables)} tables and byes {pairing.byes}"
        )


def check_games(root: Path, expected: Tournament, lines: list[record.Line]) -> None:
    """The game folders are exactly the scheduled ones, bound by their game.json digest;
    each recorded result is what its game's files say."""
    from arbiter.core.canonical import parse_strict
    from arbiter.tournament.rounds import final, manifest_digest

    scheduled = {t.folder: t for r in expected.schedule for t in r.tables}
    games = root / folder.GAMES
    present = sorted(
        f"{folder.GAMES}/{p.name}"
        for p in (games.iterdir() if games.is_dir() else [])
        if not p.name.startswith(".")
    )
    for name in present:
        if name not in scheduled:
            raise VerificationFailed(f"{name} is not a game of the record: an extra game folder")
    keys = {p.name: p.key for p in expected.players}
    for name, table in scheduled.items():
        game = root / name
        if not (game / "game.json").is_file():
            raise VerificationFailed(f"{name} ({table.game}) is missing: the record schedules it")
        manifest = parse_strict((game / "game.json").read_bytes(), "game.json")
        seats = [(s.get("seat"), s.get("key")) for s in manifest.get("seats", [])]
        if seats != [(n, keys[n]) for n in table.seats]:
            raise VerificationFailed(
                f"{name}/game.json: its seats and keys are not the table's players with the "
                "keys the terms register"
            )
        if manifest_digest(game) != table.manifest:
            why = (
                "it holds another game"
                if manifest.get("game") != table.game
                else "it is another game.json (another secret, seats or keys) than the one recorded"
            )
            raise VerificationFailed(f"{name}/game.json: {why}")
    for line in lines:
        if line.kind != "result":
            continue
        name = next(t.folder for t in scheduled.values() if t.game == line.body.game)
        head, outcome = final(root / name, expected.duplicate)
        if head != line.body.head:
            raise VerificationFailed(
                f"{name}: the game's chain head is not the final head the record signs "
                "(the game changed after its result was recorded)"
            )
        if outcome != line.body.outcome:
            raise VerificationFailed(f"{name}: the game's outcome is not the one the record signs")


def check_deals(root: Path, expected: Tournament) -> list[str]:
    """Duplicate rounds (docs/duplicate.md): each round's groups are its tables of each
    size, committed to one round secret; every game.json of the round carries its group's
    terms; every revealed game of the round lists the same games in its deal entry, each
    bound by the digest of that table's game.json and its seats' keys; and no round secret
    was revealed before every table of the round was over. Returns the notes to print."""
    from arbiter.core.canonical import digest, parse_strict
    from arbiter.tournament.duplicate import deal_terms, group_id, groups_of, status_of

    if not expected.duplicate:
        return []
    groups = revealed = 0
    for played in expected.schedule:
        want = [
            (group_id(expected.id, played.round, n), n, games)
            for n, games in groups_of(played.tables)
        ]
        if [(d.group, d.seats, d.games) for d in played.deals] != want or len(
            {d.commitment for d in played.deals}
        ) != 1:
            raise VerificationFailed(
                f"round {played.round}: its duplicate groups are not its tables of each size, "
                "committed to one round secret"
            )
        groups += len(played.deals)
        tables = {t.game: root / t.folder for t in played.tables}
        manifests: dict[str, dict[str, Any]] = {}
        for group in played.deals:
            for game in group.games:
                manifest = parse_strict((tables[game] / "game.json").read_bytes(), "game.json")
                manifests[game] = manifest
                if manifest.get("deal") != deal_terms(played, group):
                    raise VerificationFailed(
                        f"{game}/game.json: its deal terms are not group {group.group}'s as recorded"
                    )
        over = all(status_of(path) == "over" for path in tables.values())
        lists = []
        for game, path in tables.items():
            if not (path / "reveal" / "reveal.json").is_file():
                continue
            if not over:
                raise VerificationFailed(
                    f"{game} was revealed, with its round's secret, before every table of "
                    f"round {played.round} was over"
                )
            found = _deal_record(path)
            if found is None:
                raise VerificationFailed(f"{game}: a revealed duplicate game without a deal entry")
            lists.append(found["games"])
            revealed += 1
        for listed in lists:
            if listed != lists[0]:
                raise VerificationFailed(
                    f"round {played.round}: its games' deal entries list different joins"
                )
            for slot in listed:
                manifest = manifests.get(slot["game"])
                keys = [(s["seat"], s["key"]) for s in (manifest or {}).get("seats", [])]
                if manifest is None or slot["manifest"] != digest(manifest) or keys != [
                    (s["seat"], s["key"]) for s in slot["seats"]
                ]:
                    raise VerificationFailed(
                        f"round {played.round}: the deal binds {slot['game']} to another "
                        "game.json, or to other seats or keys, than the table's"
                    )
    return [
        f"duplicate: {groups} group(s), each game.json committed to its round's secret; "
        f"{revealed} revealed game(s) list the same joins, bound to every table's game.json"
    ]


def _deal_record(game: Path) -> dict[str, Any] | None:
    """A revealed game's deal entry (its signed file from reveal/signed.jsonl)."""
    from arbiter.core.chain import iter_chain
    from arbiter.core.gamedir import GameDir
    from arbiter.core.ledger import Records, load_manifest

    gd = GameDir(game)
    _, manifest_digest, _ = load_manifest(gd)
    with Records(gd.reveal_signed) as records:
        for entry in iter_chain(gd.chain, manifest_digest):
            if entry["seq"] == 0:
                continue
            signed = records.read(entry["seq"], entry["digest"])  # read in order: a stream
            if entry["kind"] == "deal":
                return signed
    return None


def check_standings(root: Path, expected: Tournament) -> None:
    """Every published standings file in the folder equals the one recomputed now."""
    from arbiter.tournament import report
    from arbiter.tournament.rounds import lot_seed
    from arbiter.tournament.standings import read_results, standings

    results = read_results(root, expected)
    ranked = standings(expected, results, lot_seed=lot_seed(root, expected))
    files = report.render(root, expected, ranked, results, root)
    for name in report.NAMES:
        path = root / name
        if not path.is_file():
            continue
        found, want = path.read_bytes().splitlines(), files[name].splitlines()
        if found == want:
            continue
        for number, (a, b) in enumerate(zip(found, want, strict=False), start=1):
            if a != b:
                raise VerificationFailed(
                    f"{name} line {number} differs from the standings the games give: "
                    f"{b.decode(errors='replace')[:120]!r}"
                )
        raise VerificationFailed(f"{name} has {len(found)} lines, the recomputed one {len(want)}")
