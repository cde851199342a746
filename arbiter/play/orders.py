"""``arbiter play orders``: standing orders from the player's desk (docs/standing-orders.md).

While another seat decides, a bot of the player's chosen level proposes the obvious
standing orders for the seat's next turn (``arbiter.bots.orders``): the condition in
words, the decisions by name. The player confirms, and the signed orders file travels
as a move does (desk, mail or git: the session's transport). ``cancel`` sends an orders
file with no steps. Nothing is signed without a yes (``--yes`` for scripts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.cli.output import Output
from arbiter.core.errors import GameOver, OutOfTurn, UsageError
from arbiter.play.session import Session


def _label(engine: Any, decision: dict[str, Any]) -> str:
    """A decision's name; a pattern decision that names too little for the engine's
    label is shown as written."""
    import json

    try:
        return str(engine.label(decision))
    except (KeyError, TypeError, ValueError, IndexError):
        return json.dumps(decision, sort_keys=True)


def describe_when(engine: Any, when: list[Any]) -> str:
    """The condition of a step, in words."""
    named = [_label(engine, item) for item in when if item != "*"]
    if not named:
        return "whatever the others do, when your turn comes"
    loose = "*" in when
    joined = "; then ".join(named)
    return f"if the others' decisions {'include, in this order' if loose else 'are exactly'}: {joined}"


def pending_line(state: dict[str, Any]) -> str | None:
    """The seat's pending standing orders, in one line (``None``: none)."""
    orders = state.get("orders")
    if not orders:
        return None
    n = len(orders["steps"])
    return (
        f"your standing orders of entry #{orders['seq']} are pending: {n} step"
        f"{'s' if n != 1 else ''} (the next is step {orders['next'] + 1})"
    )


def propose(session: Session, level: str, seed: str) -> list[dict[str, Any]]:
    """The bot's orders for this seat's next turn, or a one-line refusal."""
    from arbiter.bots.levels import LEVELS, bot_rng
    from arbiter.bots.orders import standing_orders
    from arbiter.core.orders import supported

    if level not in LEVELS:
        raise UsageError(f"--level takes {', '.join(LEVELS)}, not {level!r}")
    _check_waiting(session)
    engine = session.engine
    if not supported(engine):
        raise UsageError(f"{engine.info.name} does not take standing orders yet: send your moves")
    steps = standing_orders(engine, session.state, bot_rng(seed, session.state), level)
    if not steps:
        raise UsageError(
            "the bot sees no obvious order for your next turn: decide it when it comes"
        )
    return steps


def _check_waiting(session: Session) -> None:
    state = session.state
    if state["status"] == "over":
        raise GameOver("the game is over: nothing to order")
    if state["status"] != "playing":
        raise OutOfTurn("the game has not started: standing orders come once it is played")
    if session.my_turn():
        raise OutOfTurn("it is your turn: decide it now (`arbiter play`); orders are for later turns")


def run(
    session: Session,
    out: Output,
    *,
    level: str,
    seed: str,
    cancel: bool,
    yes: bool,
    ask: Callable[[str], str],
) -> int:
    """Propose (or cancel), confirm, sign and deliver; the exit code."""
    from arbiter.core.orders import make_orders

    session.load()
    state = session.state
    line = pending_line(state)
    if line is not None:
        out.line(line)
    if cancel:
        _check_waiting(session)
        if line is None:
            out.line("you have no standing orders to cancel")
            return 0
        steps: list[dict[str, Any]] = []
        question = "Cancel your standing orders? [y/n]: "
    else:
        steps = propose(session, level, seed)
        engine = session.engine
        out.line(f"The {level} bot's standing orders for your next turn:")
        out.line(f"  {describe_when(engine, steps[0]['when'])},")
        out.line("  decide: " + "; ".join(engine.label(a) for a in steps[0]["then"]) + ".")
        out.line(
            "The referee plays them only if they are legal when your turn comes; otherwise "
            "it asks you as usual."
        )
        replaces = " (they replace the pending ones)" if line is not None else ""
        question = f"Sign and send these standing orders{replaces}? [y/n]: "
    if not yes:
        try:
            answer = ask(question).strip().lower()
        except EOFError:
            answer = ""
        if answer not in ("y", "yes"):
            out.line("nothing signed")
            return 0

    def make(fresh: dict[str, Any], key: Any) -> dict[str, Any]:
        return make_orders(fresh, key, steps)

    sent = session.send_life("orders", make)
    out.line(f"signed and sent: {sent.where}")
    return 0
