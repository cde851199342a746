"""A seat's turn in a peer game (docs/peer.md §6): send everything it owes, then say where
the game stands. Shared by ``arbiter peer play`` and the player's desk (``arbiter play``
on a peer game), so both compose, sign and show alike.

``send`` composes each message the seat owes (its key, shuffles, shares, and a decision
when it was given one), signs it with the seat's SSH key and hands it to the folder's
transport; ``status`` prints what the game waits for, the end of the seat's log, its view
and its numbered legal decisions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbiter.cli.output import Output

if TYPE_CHECKING:
    from arbiter.cli.peer_via import Via
    from arbiter.peer.folder import Folder

HEADER = "your decisions (play --pick N, or --action JSON):"
"""The line above the numbered decisions in ``arbiter peer play``."""


def send(loaded: Folder, seat: str, key: Path, decision: Any, out: Output, travel: Via) -> None:
    """Compose, sign and write each message the seat owes, until it owes none or a
    decision it was not given (``decision``: ``("pick", N)``, an action, ``"bot"`` or
    None)."""
    from arbiter.core.errors import UsageError
    from arbiter.peer import folder as files
    from arbiter.peer.protocol import DECISION, KEY

    loaded.check_key(seat, key)
    game, player = loaded.game, loaded.player
    assert player is not None, "a folder loaded for one seat"
    if seat in game.out:
        raise UsageError(f"{seat} timed out in round {game.out[seat]}: {out_reason(game, seat)}")
    _check_escrow(loaded, seat, key)
    given = [decision] if decision is not None else []
    while (owed := game.owed(seat)) is not None:
        if owed.kind == KEY and player.secret is None:
            player.secret = files.new_secret(loaded.terms, seat)
        if owed.kind == DECISION and not given:
            return
        choose = _chooser(game.engine, given.pop() if owed.kind == DECISION else None)
        round_, what = game.round, owed.describe()
        message = player.compose(choose)
        if owed.kind == KEY and game.remedy == "escrow":
            assert player.secret is not None
            message["escrow"] = _deal(loaded, seat, player.secret)
        path = loaded.write(message, key, travel.deliver())
        out.line(f"sent {path.name}: {what} (round {round_})")


def _deal(loaded: Folder, seat: str, secret: bytes) -> dict[str, Any]:
    """The escrow of ``seat``'s secret, sealed to each holder's SSH key (docs/peer.md §7)."""
    from arbiter.peer import escrow, timeouts

    keys = timeouts.signer_keys(loaded.terms)
    return escrow.deal(secret, [(h, keys[h]) for h in loaded.game.holders(seat)])


def _check_escrow(loaded: Folder, seat: str, key: Path) -> None:
    """Open and check every escrow share dealt to ``seat`` (its SSH key is at hand): a
    false one names its dealer before anything more is sent."""
    from arbiter.peer import escrow

    game = loaded.game
    for dealer, (commitments, field) in game.escrow.items():
        holders = game.holders(dealer)
        if seat in holders:
            escrow.open_share(field, commitments, holders.index(seat) + 1, key, dealer)


def out_reason(game: Any, seat: str) -> str:
    """What became of a seat that timed out."""
    if game.forfeit == seat:
        return "it forfeited and the game is over"
    return "its escrow was opened and a bot plays its seat"


def _chooser(engine: Any, wanted: Any) -> Any:
    """The decision maker of one message: the decision given (checked against the legal
    ones, with the engine's reason if it is not one), or a bot's random choice."""
    from arbiter.core.errors import IllegalAction, UsageError
    from arbiter.core.peer import fresh, group

    def choose(state: Any, seat: str, legal: list[Any]) -> Any:
        if wanted in (None, "bot") or wanted == ("bot", "random"):
            return legal[group.to_int(fresh.scalar()) % len(legal)]
        if isinstance(wanted, tuple) and wanted[0] == "bot":
            return _bot(engine, state, seat, wanted[1])
        if isinstance(wanted, tuple):
            if wanted[1] > len(legal):
                raise UsageError(f"--pick {wanted[1]}: there are {len(legal)} decisions")
            return legal[wanted[1] - 1]
        if wanted not in legal:
            engine.check(state, seat, wanted)
            raise IllegalAction(f"{json.dumps(wanted)} is not one of your decisions now")
        return wanted

    return choose


def _bot(engine: Any, state: Any, seat: str, level: str) -> Any:
    """A bot's decision (``bots.levels``) from the seat's own private state: its view, its
    prompt and its legal decisions, as its state file would carry them; nothing of the
    others' cards but what the seat was shown (docs/peer-mottainai.md §4.6)."""
    from arbiter.bots.levels import decide
    from arbiter.bots.match import state_file
    from arbiter.core.peer import fresh
    from arbiter.core.rng import Rng

    return decide(engine, state_file(engine, state, seat), level, Rng(fresh.scalar()))[0]


def status(
    loaded: Folder,
    seat: str | None,
    out: Output,
    lines: int = 8,
    header: str = HEADER,
) -> list[Any]:
    """Print what the game waits for, the end of the log, and ``seat``'s view with its
    numbered legal decisions (under ``header``); return those decisions.

    When the last step's cards are still being opened and the shares still owed ride on
    this seat's decision (docs/peer.md §5.2), the seat sees the table it decides on, with
    the cards its own shares open: the same decisions, in the same order, that
    ``PeerSeat.compose`` chooses from (so ``--pick N`` means what was listed)."""
    game = loaded.game
    if game.forfeit is not None:
        out.line(
            f"the game is over: {game.forfeit} did not answer round {game.out[game.forfeit]} "
            "in time and forfeits (ranked last)"
        )
    elif game.over:
        out.line(f"the game is over after {game.round} rounds")
    else:
        out.line(f"round {game.round} waits for: " + "; ".join(waiting_for(game)))
        _deadline(loaded, seat, out)
    if loaded.pending:
        out.line(f"{len(loaded.pending)} message(s) of later rounds wait for this round's")
    for gone in sorted(game.stand_ins):
        out.line(f"{gone} timed out in round {game.out[gone]}: a bot plays its seat")
    log = game.narrate(game.opened, None) if loaded.player is None else loaded.player.log()
    for line in log[-lines:]:
        out.line("  " + line)
    private = _deciding(loaded, seat)
    if private is None or seat is None:
        return []
    behind = game.settled - game.ready[seat]
    if behind:
        coming = sorted(game.asked[seat])
        owing = [
            s
            for s in game.seats
            if s != seat and any(s not in game.shares.get(c, {}) for c in coming)
        ]
        whose = " and ".join(owing)
        out.line(
            f"you see the table as it was {behind} step(s) ago: {len(coming)} card(s) "
            f"coming to your hand open with {whose}'s next {'messages' if len(owing) > 1 else 'message'}"
        )
    view = game.engine.view(private, seat)
    for line in game.engine.render(view, seat) or [json.dumps(view, sort_keys=True)]:
        out.line(line)
    owed = game.owed(seat)
    if owed is None or owed.kind != "decision":
        return []
    legal: list[Any] = game.engine.legal_actions(private, seat)
    out.line(header)
    for n, action in enumerate(legal, start=1):
        out.line(f"  {n:3}. {game.engine.label(action)}    {json.dumps(action, sort_keys=True)}")
    return legal


def waiting_for(game: Any) -> list[str]:
    """What the round in progress still waits for, one phrase per seat ("bob's decision")."""
    return [o.describe() for s, o in game.waiting.items() if s not in game.answered]


def _deciding(loaded: Folder, seat: str | None) -> Any:
    """The private state ``seat`` sees now (None: nothing to show yet): the one its
    decision is made on, which ``PeerSeat.compose`` also lists the legal decisions of."""
    from arbiter.core.hidden import private_state

    game, player = loaded.game, loaded.player
    if player is None or player.secret is None or game.state is None:
        return None
    if game.settled == len(game.history):
        if game.ready[player.seat] < game.settled:
            # Cards still being opened to it (a Night's, docs/peer-mottainai.md §3.5): the
            # table as it last read it.
            return player.last
        return player.private()
    owed = game.owed(seat) if seat is not None else None
    if owed is None or owed.kind != "decision" or not owed.cards:
        return None  # the last step's cards are still being opened: nothing to show yet
    # The cards its own shares open, as PeerSeat._decide opens them before deciding.
    shown = player.riding(owed.cards)
    return private_state(game.engine, game.state, {**shown, **player.known()})


def _deadline(loaded: Folder, seat: str | None, out: Output) -> None:
    """When the round in progress is due, by this seat's clock (docs/peer.md §7)."""
    found = due(loaded, seat)
    if found is None:
        return
    opened, at = found
    game = loaded.game
    if seat is not None and game.owed(seat) is not None:
        out.line(f"you have until {at} by your clock (this round opened for you at {opened})")
        return
    late = [s for s in game.seats if s in game.waiting and s not in game.answered]
    out.line(
        f"{' and '.join(late)} {'has' if len(late) == 1 else 'have'} until {at} by your clock; "
        f"after that: arbiter peer timeout (the remedy is {loaded.terms['dropout']['remedy']})"
    )


def due(loaded: Folder, seat: str | None) -> tuple[str, str] | None:
    """When ``seat`` saw the round in progress open and when it is due, by its own clock
    (None: the game has no deadlines, or no seat reads it)."""
    from arbiter.peer import folder as files
    from arbiter.peer import timeouts

    dropout = loaded.terms.get("dropout")
    if dropout is None or seat is None:
        return None
    opened = timeouts.opened(files.secret_home(), loaded.terms, seat, loaded.game)
    return opened, timeouts.due(opened, dropout["seconds"])
