"""Referee commands: ``new``, ``submit``, ``reveal``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output
from arbiter.core.deal import AWAITING_DEAL


def _pairs(values: list[str], what: str) -> list[tuple[str, str]]:
    from arbiter.core.errors import UsageError

    out = []
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key or not rest:
            raise UsageError(f"{what} {value!r} must look like NAME=VALUE")
        out.append((key.strip(), rest.strip()))
    return out


def now_utc() -> str:
    """Return the referee's clock (``arbiter.core.clock``: the one place that reads it)."""
    from arbiter.core.clock import now_utc as clock

    return clock()


def new(
    folder: Path = typer.Argument(..., help="New game folder to create.", metavar="FOLDER"),
    game: str = typer.Option(..., "--game", "-g", help="Engine name (see `arbiter games`)."),
    seat: list[str] = typer.Option(
        ..., "--seat", "-s", help="NAME=PUBKEY (a .pub path or key line), in turn order."
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="Engine option K=V (repeatable)."),
    no_join: bool = typer.Option(
        False, "--no-join", help="Skip join files: the referee's secret alone seeds the game."
    ),
    game_id: str | None = typer.Option(None, "--id", help="Game id (default: the folder name)."),
    email: list[str] = typer.Option(
        [],
        "--email",
        help="SEAT=ADDRESS for the mail desk (repeatable); kept under referee/, never published.",
    ),
    referee_key: Path | None = typer.Option(
        None,
        "--referee-key",
        help="The referee's own private key, which signs receipts (default: a new key "
        "in referee/key). Its public half is published in game.json.",
        metavar="KEY",
    ),
    deadline: str | None = typer.Option(
        None,
        "--deadline",
        help="Time for each decision, e.g. 72h, 3d, 1d12h (recorded in game.json; every "
        "entry is then dated).",
    ),
    grace: str | None = typer.Option(
        None, "--grace", help="Extra time after the deadline before the timeout applies."
    ),
    on_timeout: str = typer.Option(
        "pass",
        "--on-timeout",
        help="pass: the engine's default decision; bot: a bot decides from the seat's view; "
        "forfeit: the game ends, the seat ranked last.",
    ),
    timeout_bot: str | None = typer.Option(
        None,
        "--timeout-bot",
        help="The bot for --on-timeout bot: random (default), greedy or search (docs/bots.md).",
    ),
    forfeit_after: int | None = typer.Option(
        None,
        "--forfeit-after",
        help="After this many timeouts of one seat in a row, the next one forfeits.",
        metavar="N",
    ),
    bank: str | None = typer.Option(
        None,
        "--bank",
        help="Each seat's time bank, e.g. 10d: time used on a turn is taken from it "
        "(docs/clocks.md); --deadline is then optional.",
    ),
    increment: str | None = typer.Option(
        None, "--increment", help="Time added to a seat's bank each turn it plays, e.g. 36h."
    ),
    cap: str | None = typer.Option(None, "--cap", help="The most a bank may hold, e.g. 10d."),
    leave: str | None = typer.Option(
        None,
        "--leave",
        help="Leave per seat per game in whole days, e.g. 5d: taken with `arbiter leave`, "
        "every clock stops meanwhile.",
    ),
    leave_auto: bool = typer.Option(
        False,
        "--leave-auto",
        help="When a seat's time runs out, take its leave a day at a time instead of timing out.",
    ),
    weekends: str | None = typer.Option(
        None, "--weekends", help="pause: Saturdays and Sundays (UTC) do not count as time used."
    ),
    sealed: bool = typer.Option(
        False,
        "--sealed",
        help="Seal each seat's files to its SSH key with age, for play in a shared "
        "repository (docs/sealing.md).",
    ),
    substitutes: bool = typer.Option(
        False,
        "--substitutes",
        help="Allow the referee to appoint a substitute (`arbiter appoint`) for a seat that "
        "timed out or resigned (signed by every join).",
    ),
    takebacks: str = typer.Option(
        "consent",
        "--takebacks",
        help="none: no takebacks; consent: a seat may take back its decisions when every "
        "seat concerned accepts (docs/game-life.md).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Create a game folder; publish only a commitment to the secret seed."""
    from arbiter.core.clocks import make_terms
    from arbiter.core.deadlines import parse_duration
    from arbiter.core.referee import new_game

    out = Output(as_json)
    clock = make_terms(bank, increment, cap, leave, leave_auto, weekends)
    mail_to = _pairs(email, "--email")
    if mail_to and sealed:
        from arbiter.core.errors import UsageError

        raise UsageError(
            "--sealed is for shared repositories; the mail desk already sends each seat only "
            "its own files: choose one"
        )
    if mail_to:  # checked before the folder exists: a typo must not leave half a game
        from arbiter.core.errors import UsageError
        from arbiter.desks.mail.addresses import normalise

        names = {name for name, _ in _pairs(seat, "--seat")}
        for seat_name, address in mail_to:
            normalise(address)
            if seat_name not in names:
                raise UsageError(f"--email names seat {seat_name!r}, which is not a --seat")
    manifest = new_game(
        folder,
        game,
        _pairs(seat, "--seat"),
        dict(_pairs(option, "--option")),
        join=not no_join,
        game_id=game_id,
        created=now_utc(),
        referee_key=referee_key,
        sealed=sealed,
        deadline=parse_duration(deadline) if deadline is not None else None,
        grace=parse_duration(grace, "--grace", minimum=0) if grace is not None else 0,
        on_timeout=on_timeout,
        timeout_bot=timeout_bot,
        forfeit_after=forfeit_after,
        substitutes=substitutes,
        finish=lambda made: _store_addresses(made, mail_to),
        clock=clock,
        takebacks=takebacks,
    )
    if as_json:
        out.json(
            {
                "game": manifest["game"],
                "folder": str(folder),
                "commitment": manifest["commitment"],
                "referee": manifest["referee"],
            }
        )
        return
    out.line(f"created game {manifest['game']} in {folder}")
    out.line(f"seed commitment: {manifest['commitment']}")
    out.line(f"referee key (signs receipts): {manifest['referee']}")
    if clock:
        from arbiter.core.clocks import describe

        out.line(f"clock: {describe(clock)}")
    if "deadline" in manifest:
        from arbiter.core.deadlines import MAX_SECONDS, describe_duration

        terms = manifest["deadline"]
        grace_text = f" + {describe_duration(terms['grace'])} grace" if terms["grace"] else ""
        per = (
            "no limit per decision but the bank"
            if "bank" in terms and terms["seconds"] == MAX_SECONDS
            else f"{describe_duration(terms['seconds'])} per decision"
        )
        out.line(
            f"deadline: {per}{grace_text}, then "
            f"{terms['on_timeout']}"
            + (f" ({terms['bot']} bot)" if terms["bot"] else "")
            + (
                f", forfeit after {terms['forfeit_after']} in a row"
                if terms.get("forfeit_after")
                else ""
            )
            + "; run `arbiter timeout` from cron"
        )
    if manifest["join"]:
        out.line(
            f"next: send each player {folder / 'game.json'}; each adds it with `arbiter play "
            "add game.json --seat NAME --key KEY --via desk|mail|git` and joins with `arbiter "
            "play` (or `arbiter join game.json --seat NAME --key KEY -o join.json`)"
        )
    else:
        name = "state.json.age" if sealed else "state.json"
        out.line(f"next: players read {folder / 'players'}/<seat>/{name} and send moves")
    if sealed:
        out.line(
            "sealed: each seat's files are age files only its key opens; keep this folder "
            "out of the shared repository (`arbiter git run` publishes it)"
        )


def _store_addresses(made: Path, mail_to: list[tuple[str, str]]) -> None:
    """Record the seats' mail addresses in the game being made (part of its creation, so
    a crash leaves the game with them or no game at all)."""
    if not mail_to:
        return
    from arbiter.desks.mail.addresses import store

    for seat_name, address in mail_to:
        store(made, seat_name, address)


def submit(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    files: list[Path] = typer.Argument(
        ..., help="Join or move files, applied in order.", metavar="FILES"
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Judge join and move files in order; stop at the first rejection."""
    from arbiter.core.referee import submit as judge
    from arbiter.core.safeio import read_input

    out = Output(as_json)
    results: list[dict[str, Any]] = []
    for file in files:
        data = read_input(file)  # no symlink, FIFO, device or folder; at most 1 MiB + 1 byte
        accepted = judge(folder, data, file.name)
        results.append(
            {
                "file": str(file),
                "seq": accepted.seq,
                "kind": accepted.kind,
                "seat": accepted.seat,
                "head": accepted.head,
                "summary": accepted.summary,
                "status": accepted.status,
                "waiting_for": accepted.waiting_for,
                "receipt": str(accepted.receipt) if accepted.receipt is not None else None,
            }
        )
        out.line(
            f"accepted {file.name} as entry #{accepted.seq} ({accepted.kind} by {accepted.seat})"
        )
        for text in accepted.summary:
            out.line(f"  {text}")
        if accepted.receipt is not None:
            out.line(f"  receipt for {accepted.seat}: {accepted.receipt}")
    if as_json:
        out.json(results)
    elif results:
        last = results[-1]
        waiting = ", ".join(last["waiting_for"]) or (
            "the deal: " + AWAITING_DEAL if last["status"] == "joining" else "nobody"
        )
        out.line(f"game is {last['status']}; waiting for {waiting}")


def reveal(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    force: bool = typer.Option(
        False, "--force", help="Reveal before the end (recorded in every log)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Publish the secret and every signed file so anyone can replay the game."""
    from arbiter.core.referee import reveal as publish

    out = Output(as_json)
    record = publish(folder, force=force)
    if as_json:
        out.json({"game": record["game"], "forced": record["forced"], "head": record["head"]})
        return
    out.line(
        f"revealed game {record['game']}{' (forced, before the end)' if record['forced'] else ''}"
    )
    out.line(f"anyone can now check every byte: arbiter verify {folder}")


def timeout(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Apply the timeout policy if the waiting seat's deadline and grace have passed.

    Safe to run from cron as often as you like: before the time is up it only reports
    the waiting seat's clock.
    """
    from arbiter.core.referee import timeout as check_clock

    out = Output(as_json)
    waiting = check_clock(folder, now_utc())
    done = waiting.timed_out
    if as_json:
        out.json(
            {
                "seat": waiting.seat,
                "since": waiting.since,
                "due": waiting.due,
                "final": waiting.final,
                "policy": waiting.policy,
                "timed_out": done is not None and done.kind == "timeout",
                "leave_auto": done is not None and done.kind == "leave-auto",
                "seq": done.seq if done else None,
                "summary": done.summary if done else [],
                "status": done.status if done else "playing",
                "waiting_for": done.waiting_for if done else [waiting.seat],
            }
        )
        return
    if done is None:
        grace = f", grace until {waiting.final}" if waiting.final != waiting.due else ""
        out.line(f"{waiting.seat} has until {waiting.due}{grace}: nothing to do yet")
        return
    if done.kind == "leave-auto":
        out.line(f"{waiting.seat}'s time ran out: entry #{done.seq} takes leave instead")
        for text in done.summary:
            out.line(f"  {text}")
        out.line(f"game is {done.status}; waiting for {', '.join(done.waiting_for) or 'nobody'}")
        return
    out.line(f"{waiting.seat} timed out: entry #{done.seq} applies {waiting.policy}")
    for text in done.summary:
        out.line(f"  {text}")
    follows = ", ".join(done.waiting_for) or "nobody"
    out.line(f"game is {done.status}; waiting for {follows}")


def repair(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Bring a game folder back to its chain head after a crash (every write does this too)."""
    from arbiter.core.referee import repair as heal

    out = Output(as_json)
    fixed = heal(folder)
    if as_json:
        out.json({"repaired": [str(path) for path in fixed]})
        return
    if not fixed:
        out.line(f"{folder}: every file is at the chain head; nothing to repair")
    for path in fixed:
        out.line(f"repaired {path}")


def register(app: typer.Typer) -> None:
    app.command("new")(new)
    app.command("submit")(submit)
    app.command("reveal")(reveal)
    app.command("repair")(repair)
    app.command("timeout")(timeout)
