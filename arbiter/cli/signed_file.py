"""What the commands that sign a file from the seat's state file share (``resign``,
``propose-end``, ``answer``, ``handover``, ``takeback``, ``leave``, ``orders``): the same
options, and one way to read the state file, sign, write (sealed when asked) and say so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.cli.output import Output

STATE_HELP = "Your players/<seat>/state.json (or state.json.age)."
KEY_HELP = "Your private key (or .pub to use ssh-agent)."
IDENTITY_HELP = "The private key that opens a sealed state file, if not --key."
SEAL_HELP = "Write OUTPUT.age sealed to the referee's key (a shared repository)."
MANIFEST_HELP = "The game's game.json, for --seal (default: the one above the state file)."

Make = Callable[[dict[str, Any]], dict[str, Any]]


def write_signed(
    state_file: Path,
    key: Path,
    identity: Path | None,
    output: Path,
    seal: bool,
    manifest: Path | None,
    make: Make,
    what: str | Callable[[dict[str, Any]], str],
) -> None:
    """Read the state file, build and sign the file with ``make(state)``, write it (sealed
    to the referee when asked) and say what it is (``what``, or ``what(state)``)."""
    from arbiter.cli.player import _write, _write_bytes
    from arbiter.core.player import (
        check_key_for_state,
        load_state,
        manifest_beside,
        own_state,
        seal_move,
    )

    state = load_state(state_file, identity or key)
    own_state(state)
    check_key_for_state(state_file, state, key)
    record = make(state)
    said = what if isinstance(what, str) else what(state)
    if seal:
        target = output if output.name.endswith(".age") else output.with_name(output.name + ".age")
        _write_bytes(target, seal_move(record, manifest or manifest_beside(state_file)))
        Output().line(f"wrote {target} ({said}), sealed to the referee: send it to the referee")
        return
    _write(output, record)
    Output().line(f"wrote {output} ({said}): send it to the referee")
