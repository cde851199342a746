"""``arbiter notify``: each seat's digest of the games waiting for it, once per period."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output


def notify(
    folders: list[Path] = typer.Argument(None, help="Game folders.", metavar="GAME..."),
    desk: Path | None = typer.Option(
        None, "--desk", help="Every game folder in DIR (a mail desk's games folder).", metavar="DIR"
    ),
    period: str = typer.Option(
        "1d", "--period", metavar="DURATION", help="At most one digest per recipient per period (1d, 12h, 7d...)."
    ),
    config: Path | None = typer.Option(
        None,
        "--config",
        "-c",
        help="A mail config with an [smtp] section: send digests by mail too (the seats' "
        "addresses of `arbiter mail seat`, or referee/notices.toml's).",
        metavar="FILE",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Send each seat one digest of the games waiting for its decision, at most once per
    period, by mail or webhook (referee/notices.toml; docs/notices.md)."""
    from arbiter.cli.referee import now_utc
    from arbiter.core.deadlines import parse_duration
    from arbiter.core.errors import NotReady, UsageError
    from arbiter.desks.notify import run

    if bool(folders) == (desk is not None):
        raise UsageError("give game folders or --desk DIR (one of the two)")
    seconds = parse_duration(period, "--period", minimum=60)
    smtp = None
    if config is not None:
        from arbiter.desks.mail.config import load_smtp

        smtp = load_smtp(config)
    games = run.games_in(desk) if desk is not None else list(folders)
    now = now_utc()
    due, done = run.plan(games, now, seconds, mail=smtp is not None)
    mailer = run.SmtpMailer(smtp) if smtp is not None else None
    try:
        report = run.deliver(due, done, now, seconds, mailer)
    finally:
        if mailer is not None:
            mailer.close()
    out = Output(as_json)
    if as_json:
        out.json(report.to_json())
    for what, rows in (("sent", report.sent), ("already sent this period", report.skipped)):
        for row in rows:
            out.line(f"{what}: {row['channel']} ({', '.join(row['games'])})")
    for row in report.no_mail:
        out.line(f"not sent (no --config for mail): {row['channel']} ({', '.join(row['games'])})")
    for row in report.failed:
        out.line(f"failed: {row['channel']} ({', '.join(row['games'])}): {row['reason']}")
    if not (report.sent or report.skipped or report.failed or report.no_mail):
        out.line(f"nothing to send: no game waits for a seat that gets notices ({len(games)} games)")
    if report.failed:
        first = report.failed[0]
        raise NotReady(
            f"{len(report.failed)} of {len(report.failed) + len(report.sent)} digests could not be delivered (first: "
            f"{first['channel']}: {first['reason']}); the others were sent: run again to retry"
        )


def register(main: typer.Typer) -> None:
    main.command("notify")(notify)
