"""What a digest says: the games waiting for a seat, and the payloads that carry it.

Built from public files only — ``public/state.json`` (who must decide, and what kind of
decision), ``game.json`` (the deadline terms) and the chain's last time — never from a
seat's state file or the engine's state: a notice that went astray tells nobody anything
the public game folder does not (docs/notices.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from arbiter.core.deadlines import add, at_or_after, seconds_between, terms_of
from arbiter.core.gamedir import GameDir

FORMAT = "arbiter.notice/1"
EPOCH = "1970-01-01T00:00:00Z"
DISCORD_LIMIT = 2000
"""Characters in a Discord message's ``content``."""


@dataclass(frozen=True)
class Waiting:
    """One game waiting for one seat's decision (``NoticeGame`` in the payload)."""

    game: str
    engine: str
    seat: str
    decision: str
    entry: int
    head: str
    since: str | None
    due: str | None
    final: str | None
    policy: str | None
    overdue: bool

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def line(self) -> str:
        """One line of the digest's text."""
        head = f"{self.game} ({self.engine}), seat {self.seat}: {self.decision} since entry #{self.entry}"
        if self.due is None:
            return f"{head}, no deadline"
        grace = f", grace until {self.final}" if self.final != self.due else ""
        if self.overdue:
            return f"{head}, OVERDUE since {self.due}{grace}; then {self.policy}"
        return f"{head}, due {self.due}{grace}; then {self.policy}"


def period_of(now: str, seconds: int) -> tuple[str, str]:
    """The period holding ``now``: periods of ``seconds`` counted from 1970-01-01T00:00:00Z
    (with a day, UTC days), so cron runs at any hour fall into the same one."""
    start = seconds_between(EPOCH, now) // seconds * seconds
    return add(EPOCH, start), add(EPOCH, start + seconds)


def waiting(gd: GameDir, now: str) -> tuple[str, list[str], list[Waiting]]:
    """Return the game id, its seats, and what the game at ``gd`` waits for: the seats'
    joins, the prompt's seat (with the deadline), the answers an open request needs
    (``pending``); nothing when the game is over or revealed."""
    from arbiter.core.chain import last_time
    from arbiter.core.errors import SchemaViolation, Tampered
    from arbiter.core.ledger import manifest_schema, read_json
    from arbiter.core.schemas import validate

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
        validate("state", state, "public/state.json")
    except SchemaViolation as exc:
        raise Tampered(f"{gd.root}: {exc.message}") from None
    game = str(manifest["game"])
    seats = [str(seat["seat"]) for seat in manifest["seats"]]
    if revealed or state["status"] == "over":
        return game, seats, []

    terms = terms_of(manifest)

    def item(seat: str, decision: str, clock: bool = False) -> Waiting:
        """``clock``: the seat's deadline runs (the prompt's seat, in a game with deadlines)."""
        timed = terms if clock and since is not None else None
        due = timed.due(str(since)) if timed else None
        final = timed.final(str(since)) if timed else None
        banked = state.get("clock") if timed else None
        if isinstance(banked, dict) and banked.get("waiting") == seat and banked.get("due"):
            # A bank, leave or weekend pauses (docs/clocks.md): the state file's due times.
            due, final = str(banked["due"]), str(banked["final"])
        return Waiting(
            game=game,
            engine=str(state["engine"]["name"]),
            seat=seat,
            decision=decision,
            entry=int(state["seq"]),
            head=str(state["head"]),
            since=since if timed else None,
            due=due,
            final=final,
            policy=timed.on_timeout if timed else None,
            overdue=due is not None and at_or_after(now, due),
        )

    if state["status"] == "joining":
        return game, seats, [item(str(seat), "join") for seat in state["waiting_for"]]
    found = []
    prompt = state["prompt"]
    if prompt is not None:
        found.append(item(str(prompt["seat"]), str(prompt["kind"]), clock=True))
    pending = state.get("pending")
    if pending is not None:
        found += [item(str(seat), f"answer {pending['kind']}") for seat in pending["waiting_for"]]
    return game, seats, found


def title(items: list[Waiting]) -> str:
    late = sum(1 for item in items if item.overdue)
    games = len({item.game for item in items})
    count = f"{games} game waits" if games == 1 else f"{games} games wait"
    return f"arbiter: {count} for your decision" + (f" ({late} overdue)" if late else "")


def text(items: list[Waiting], period: int) -> str:
    from arbiter.core.deadlines import describe_duration

    lines = [f"- {item.line()}" for item in items]
    return (
        "\n".join(lines)
        + f"\n\n(At most one digest every {describe_duration(period)}; "
        "`arbiter play` or `arbiter moves STATE` shows your choices.)"
    )


def notice(items: list[Waiting], now: str, period: int) -> dict[str, Any]:
    """The ``arbiter.notice/1`` payload (schemas/notice.schema.json) of one digest."""
    start, end = period_of(now, period)
    ordered = sorted(items, key=lambda item: (item.game, item.seat, item.decision))
    return {
        "format": FORMAT,
        "time": now,
        "period": {"start": start, "end": end},
        "title": title(ordered),
        "text": text(ordered, period),
        "games": [item.to_json() for item in ordered],
    }


def body(payload: dict[str, Any], preset: str, url: str) -> tuple[str, bytes]:
    """Return the URL to POST to and the JSON body for ``preset``."""
    if preset == "ntfy":
        # ntfy's JSON publishing: to the server's root, the topic in the body
        # (https://docs.ntfy.sh/publish/#publish-as-json).
        root, _, topic = url.rpartition("/")
        late = any(game["overdue"] for game in payload["games"])
        shaped: dict[str, Any] = {
            "topic": topic,
            "title": payload["title"],
            "message": payload["text"],
            "tags": ["hourglass"] if late else ["game_die"],
            "priority": 4 if late else 3,
        }
        url = root + "/"
    elif preset == "slack":
        # Slack (and Mattermost, Rocket.Chat...) incoming webhooks: mrkdwn text.
        shaped = {"text": _slack_escape(f"*{payload['title']}*\n{payload['text']}")}
    elif preset == "discord":
        content = _discord_escape(f"**{payload['title']}**\n{payload['text']}")
        if len(content) > DISCORD_LIMIT:
            content = content[: DISCORD_LIMIT - 1] + "…"
        # No @mention in a notice pings anyone.
        shaped = {"content": content, "allowed_mentions": {"parse": []}}
    else:
        shaped = payload
    return url, json.dumps(shaped, ensure_ascii=False, sort_keys=True).encode("utf-8")


def _slack_escape(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _discord_escape(value: str) -> str:
    # Seat names may hold underscores; keep the bold title and the list as they are.
    return value.replace("_", "\\_").replace("`", "\\`")
