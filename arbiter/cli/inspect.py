"""Read-only commands anyone can run: ``status``, ``verify``, ``games``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output
from arbiter.core.deal import AWAITING_DEAL


def status(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show a game's status from its public files."""
    from arbiter.core.chain import last_time
    from arbiter.core.errors import SchemaViolation, Tampered
    from arbiter.core.gamedir import GameDir
    from arbiter.core.ledger import manifest_schema, read_json
    from arbiter.core.schemas import validate
    from arbiter.core.waiting import waiting_clock

    out = Output(as_json)
    gd = GameDir(folder)
    gd.require()
    # A consistent snapshot: the manifest and the state of one moment (GameDir.consistent).
    manifest, state, revealed, since = gd.consistent(
        lambda: (
            read_json(gd.manifest, "game.json"),
            read_json(gd.public_state, "public/state.json"),
            gd.reveal_record.is_file(),
            last_time(gd.chain),
        )
    )
    try:
        validate(manifest_schema(manifest), manifest, "game.json")
    except SchemaViolation as exc:
        raise Tampered(f"{exc.message} (was game.json edited?)") from None
    validate("state", state, "public/state.json")
    info = {
        "game": manifest.get("game"),
        "engine": state["engine"],
        "seats": state["seats"],
        "status": state["status"],
        "seq": state["seq"],
        "head": state["head"],
        "waiting_for": state["waiting_for"],
        "prompt": state["prompt"],
        "revealed": revealed,
        "sealed": bool(manifest.get("sealed", False)),
        "winners": state["outcome"]["winners"] if state["outcome"] else None,
        "deadline": waiting_clock(manifest, state, since),
        "pending": state.get("pending"),
        "resigned": state.get("resigned", []),
    }
    if as_json:
        out.json(info)
        return
    out.line(
        f"game {info['game']} · {state['engine']['name']} {state['engine']['version']} · seats {', '.join(state['seats'])}"
        + (" · sealed" if info["sealed"] else "")
    )
    out.line(f"status: {state['status']} after entry #{state['seq']} (head {state['head'][:19]}…)")
    if state["status"] == "joining":
        out.line(
            f"waiting for joins from: {', '.join(state['waiting_for'])}"
            if state["waiting_for"]
            else "waiting for the deal: " + AWAITING_DEAL
        )
    elif state["prompt"] is not None:
        out.line(f"waiting for {state['prompt']['seat']}: {state['prompt']['kind']}")
    clock = info["deadline"]
    if clock is not None and "banks" in clock:  # a clocked game (docs/clocks.md)
        from arbiter.core.clocks import status_lines

        for text in status_lines(clock):
            out.line(text)
        clock = None
    if clock is not None and clock["timeout_owed"]:
        out.line(
            f"deadline: {clock['seat']} is overdue since {clock['due']} (grace ended "
            f"{clock['final']}): `arbiter timeout` applies {clock['policy']} (waiting since "
            f"{clock['since']})"
        )
    elif clock is not None and clock["overdue"]:
        out.line(
            f"deadline: {clock['seat']} is overdue since {clock['due']}, in the grace until "
            f"{clock['final']}; then {clock['policy']} (waiting since {clock['since']})"
        )
    elif clock is not None:
        grace = f", grace until {clock['final']}" if clock["final"] != clock["due"] else ""
        out.line(
            f"deadline: {clock['seat']} has until {clock['due']}{grace}; then {clock['policy']} "
            f"(waiting since {clock['since']})"
        )
    from arbiter.cli.render import life_lines

    for line in life_lines(state):
        out.line(line)
    if info["winners"]:
        out.line(f"winners: {', '.join(info['winners'])}")
    out.line(
        "revealed: yes — run `arbiter verify` to replay"
        if info["revealed"]
        else "revealed: not yet"
    )


def verify(
    folders: list[Path] = typer.Argument(
        ...,
        help="Game folders, or folders holding game folders (searched below).",
        metavar="DIR",
    ),
    receipt: list[Path] = typer.Option(
        [],
        "--receipt",
        "-r",
        help="A receipt from the referee (repeatable): its entry must be in the chain.",
        metavar="RECEIPT",
    ),
    record: Path | None = typer.Option(
        None,
        "--record",
        help="A game record (`arbiter export`): it must be exactly the record this revealed "
        "game gives.",
        metavar="FILE",
    ),
    seat: str | None = typer.Option(
        None, "--seat", "-s", help="In a sealed game: also open this seat's files (with --key)."
    ),
    key: Path | None = typer.Option(
        None, "--key", "-k", help="That seat's private key, which opens its sealed files."
    ),
    jobs: int | None = typer.Option(
        None,
        "--jobs",
        "-j",
        help="Verify many games with N processes (default: one per core; 1: no pool).",
        metavar="N",
    ),
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="Verify on a Dask cluster (pip install 'arbiter[dask]'); its workers must "
        "read the folders at the same absolute paths.",
        metavar="tcp://HOST:PORT",
    ),
    progress: bool | None = typer.Option(
        None,
        "--progress/--no-progress",
        help="Show the progress bar of a many-game run (default: when stderr is a terminal).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Check game folders; after reveal, replay each and compare every published byte.

    One game folder prints its checks; several (or a folder holding game folders) are
    verified in parallel and summed up in one report. Exit 16 if any game fails.
    """
    from arbiter.core.errors import UsageError

    if not _one_game(folders, jobs, scheduler, progress):
        if receipt or record is not None or seat is not None or key is not None:
            raise UsageError(
                "--receipt, --record, --seat and --key check one game folder: give exactly "
                "one game folder (without -j, --scheduler or --progress)"
            )
        from arbiter.cli.verify_many import run

        run(folders, jobs, scheduler, as_json, progress=progress)
        return
    folder = folders[0]
    from arbiter.core.replay import SeatKey
    from arbiter.core.replay import verify as check
    from arbiter.peer.folder import is_peer

    out = Output(as_json)
    if is_peer(folder):
        if receipt or record is not None or seat is not None or key is not None:
            raise UsageError(
                "a peer game has no receipts, record or sealed files: verify its folder alone"
            )
        _verify_peer(folder, out)
        return
    if (seat is None) != (key is None):
        raise UsageError("--seat and --key go together: give the seat and its private key")
    seat_key = SeatKey(seat, key) if seat is not None and key is not None else None
    report = check(folder, receipts=receipt, seat_key=seat_key)
    if record is not None:  # the game verified: now its record (docs/records.md)
        from arbiter.export.compare import check_record

        report.checks.append(check_record(folder, record))
    if as_json:
        out.json(
            {
                "ok": True,
                "game": report.game,
                "revealed": report.revealed,
                "replayed": report.replayed,
                "entries": report.entries,
                "decisions": report.decisions,
                "signatures": report.signatures,
                "status": report.status,
                "checks": report.checks,
            }
        )
        return
    for check_line in report.checks:
        out.line(f"ok  {check_line}")
    what = (
        "replayed and every published byte matches"
        if report.replayed
        else "public files consistent"
    )
    out.line(f"verified game {report.game}: {what}")


def _verify_peer(folder: Path, out: Output) -> None:
    """``verify`` of a peer game (docs/peer.md §8)."""
    from arbiter.peer.verify import verify as check_peer

    report = check_peer(folder)
    if out.as_json:
        out.json({"ok": True, "game": report.game, "peer": True, "messages": report.messages,
                  "over": report.over, "missing": report.missing, "replayed": report.replayed,
                  "checks": report.checks, "result": report.result})  # fmt: skip
        return
    for line in report.checks:
        out.line(f"ok  {line}")
    if report.replayed:
        out.line(f"verified peer game {report.game}: replayed, every view and log as played")
    elif not report.over:
        out.line(f"verified peer game {report.game}: every proof so far (the game goes on)")
    else:
        missing = " and ".join(report.missing)
        verb = "publishes its secret" if len(report.missing) == 1 else "publish their secrets"
        out.line(
            f"verified peer game {report.game}: every proof; its cards stay unknown until "
            f"{missing} {verb} (arbiter peer reveal)"
        )


def _one_game(
    folders: list[Path], jobs: int | None, scheduler: str | None, progress: bool | None
) -> bool:
    """Whether this is the single-game ``verify`` (a game folder, no archive option).

    A path that is not a folder stays here too, so its error is the one it always was.
    """
    if len(folders) != 1 or jobs is not None or scheduler is not None or progress is not None:
        return False
    from arbiter.archive.folders import is_game_folder

    return not folders[0].is_dir() or is_game_folder(folders[0])


def games(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the game engines, their seat ranges and options."""
    from arbiter.core import registry

    out = Output(as_json)
    rows: list[dict[str, Any]] = []
    for name in registry.names():
        info = registry.get(name).info
        rows.append(
            {
                "name": info.name,
                "title": info.title,
                "version": info.version,
                "seats": [info.min_seats, info.max_seats],
                "options": [
                    {"name": o.name, "default": o.default, "description": o.description}
                    for o in info.options
                ],
                "notes": list(info.notes),
            }
        )
    if as_json:
        out.json(rows)
        return
    if not rows:
        out.line("no game engines installed")
        return
    table_rows = []
    for row in rows:
        options = (
            "; ".join(f"{o['name']}={o['default']}: {o['description']}" for o in row["options"])
            or "—"
        )
        notes = " ".join(row["notes"])
        table_rows.append(
            [
                row["name"],
                f"{row['title']} {row['version']}",
                f"{row['seats'][0]}–{row['seats'][1]}",
                options,
                notes,
            ]
        )
    out.table("Game engines", ["name", "game", "seats", "options", "notes"], table_rows)


def register(app: typer.Typer) -> None:
    app.command("status")(status)
    app.command("verify")(verify)
    app.command("games")(games)
