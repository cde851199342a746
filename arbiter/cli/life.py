"""Commands for the life of a long game (docs/game-life.md): a seat's ``resign``,
``propose-end``, ``answer`` and ``handover``; the referee's ``appoint``."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output
from arbiter.cli.signed_file import (
    IDENTITY_HELP,
    KEY_HELP,
    MANIFEST_HELP,
    SEAL_HELP,
    STATE_HELP,
)
from arbiter.cli.signed_file import write_signed as _build


def resign(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    output: Path = typer.Option(..., "-o", "--output", help="Resignation file to write."),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
) -> None:
    """Resign: accepted at any time, even out of turn. With two seats the game ends and
    you are ranked last; with more you leave, ranked last, and play goes on without you."""
    from arbiter.core.life_files import make_resign

    _build(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_resign(state, key), "your resignation",
    )  # fmt: skip


def propose_end(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    output: Path = typer.Option(..., "-o", "--output", help="Proposal file to write."),
    abandon: bool = typer.Option(
        False,
        "--abandon",
        help="End with no result (default: scored as the game stands, the engine's "
        "scoring and tie-breaks applied now).",
    ),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
) -> None:
    """Propose to end the game now. It takes effect when every other seat still playing
    accepts (`arbiter answer`), and lapses at the next move or at a decline."""
    from arbiter.core.life_files import make_propose_end

    result = "abandon" if abandon else "score"
    what = "a proposal to end the game, " + (
        "abandoned with no result" if abandon else "scored as it stands"
    )
    _build(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_propose_end(state, key, result), what,
    )  # fmt: skip


def answer(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    output: Path = typer.Option(..., "-o", "--output", help="Answer file to write."),
    accept: bool | None = typer.Option(
        None, "--accept/--decline", help="Accept or decline the open proposal (required)."
    ),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
) -> None:
    """Accept or decline the open request your state file shows — a proposal to end the
    game or a takeback (`arbiter show` says which)."""
    from arbiter.core.errors import UsageError
    from arbiter.core.life_files import make_answer

    if accept is None:
        raise UsageError("say --accept or --decline")
    choice = "accept" if accept else "decline"
    _build(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_answer(state, key, choice), f"you {choice} the open request",
    )  # fmt: skip


def handover(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    to: str = typer.Option(
        ..., "--to", help="The substitute's public key: a .pub path or an 'ssh-ed25519 …' line."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Handover file to write."),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
) -> None:
    """Hand your seat over to a substitute: from the next entry on, the seat's files are
    signed by the new key and sealed to it. Signed by the key you hold now."""
    from arbiter.core.life_files import make_handover

    _build(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_handover(state, key, to), "the seat handed over to a new key",
    )  # fmt: skip


def appoint(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    seat: str = typer.Argument(..., help="The seat that gets a substitute.", metavar="SEAT"),
    key: str = typer.Option(
        ..., "--key", "-k", help="The substitute's public key: a .pub path or a key line."
    ),
    reason: int | None = typer.Option(
        None,
        "--reason",
        help="The entry that allows it: the seat's timeout or resignation (default: its latest).",
        metavar="N",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Appoint a substitute for a seat that timed out or resigned (only when the game was
    created with --substitutes): the referee's signed entry."""
    from arbiter.cli.referee import now_utc
    from arbiter.core.referee import appoint as judge

    out = Output(as_json)
    accepted = judge(folder, seat, key, reason, now_utc())
    if as_json:
        out.json(
            {
                "seq": accepted.seq,
                "kind": accepted.kind,
                "seat": accepted.seat,
                "head": accepted.head,
                "summary": accepted.summary,
                "status": accepted.status,
                "waiting_for": accepted.waiting_for,
            }
        )
        return
    out.line(f"appointed a substitute for {seat} as entry #{accepted.seq}")
    for text in accepted.summary:
        out.line(f"  {text}")
    out.line(
        f"next: send the substitute {folder / 'game.json'} and their state file "
        f"{folder / 'players' / seat}/"
    )


def register(app: typer.Typer) -> None:
    app.command("resign")(resign)
    app.command("propose-end")(propose_end)
    app.command("answer")(answer)
    app.command("handover")(handover)
    app.command("appoint")(appoint)
