"""Key commands: ``keygen`` and ``signed-bytes``."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def keygen(
    name: str = typer.Argument(..., help="Key name: writes NAME and NAME.pub.", metavar="NAME"),
    directory: Path = typer.Option(Path("."), "--dir", "-d", help="Folder for the key files."),
) -> None:
    """Write a new OpenSSH Ed25519 key pair (unencrypted; protect the file)."""
    from arbiter.cli.output import Output
    from arbiter.core.signing import finish_pair
    from arbiter.core.signing import keygen as make

    out = Output()
    # A keygen killed between its two files left the private key alone: finish the pair.
    finished = finish_pair(name, directory) if name and "/" not in name else None
    if finished is None:
        private, public = make(name, directory)
    else:
        private, public = finished.with_name(name), finished
        out.line(f"{private} had no public key (an earlier keygen stopped?): wrote it, no new key")
    out.line(f"private key: {private}")
    out.line(f"public key:  {public}")


def signed_bytes(
    file: Path = typer.Argument(..., help="A join or move file.", metavar="FILE"),
) -> None:
    """Print the exact bytes a join or move file's signature covers."""
    from arbiter.core.errors import SchemaViolation
    from arbiter.core.ledger import read_json
    from arbiter.core.safeio import shown
    from arbiter.core.signing import signed_bytes as compute

    obj = read_json(file, str(file))
    if not isinstance(obj, dict):
        raise SchemaViolation(f"{shown(file)}: expected a JSON object (a join or move file)")
    sys.stdout.buffer.write(compute(obj))
    sys.stdout.buffer.flush()


def register(app: typer.Typer) -> None:
    app.command("keygen")(keygen)
    app.command("signed-bytes")(signed_bytes)
