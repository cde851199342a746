"""``arbiter notify`` by webhook, against a real HTTP server on loopback: the payloads of
every preset, one digest per recipient per period, nothing for a seat nothing waits for,
no hidden information, and bad settings refused before anything is sent or written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.tables import snapshot
from jsonschema import Draft202012Validator

from notify.conftest import configure
from notify.hookserver import Hooks

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "notice.schema.json").read_text())
DAY = 86400


def at(monkeypatch: pytest.MonkeyPatch, time: str) -> None:
    monkeypatch.setenv("ARBITER_NOW", time)


def test_one_generic_digest_lists_every_game_waiting_for_the_recipient(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch
) -> None:
    g1 = make_game("g1", ["alice", "bob"], deadline=2 * DAY, grace=3600)
    g2 = make_game("g2", ["alice", "bob"], deadline=DAY)
    g3 = make_game("g3", ["bob", "alice"])  # bob decides: nothing for alice here
    for folder in (g1, g2, g3):
        configure(folder, f'[seats.alice]\nwebhook = "{hooks.url("/alice")}"\n'
                          f'[seats.bob]\nwebhook = "{hooks.url("/bob")}"\npreset = "slack"\n')
    at(monkeypatch, "2026-12-02T08:00:00Z")
    result = cli("notify", g1, g2, g3)
    assert result.code == 0, result
    [alice] = hooks.to("/alice")
    assert alice.headers["Content-Type"] == "application/json; charset=utf-8"
    payload = alice.json()
    Draft202012Validator(SCHEMA).validate(payload)
    head1 = json.loads((g1 / "public" / "state.json").read_bytes())["head"]
    assert payload["format"] == "arbiter.notice/1"
    assert payload["time"] == "2026-12-02T08:00:00Z"
    assert payload["period"] == {"start": "2026-12-02T00:00:00Z", "end": "2026-12-03T00:00:00Z"}
    assert payload["title"] == "arbiter: 2 games wait for your decision (1 overdue)"
    assert payload["games"][0] == {
        "game": "g1", "engine": "tally", "seat": "alice", "decision": "turn", "entry": 0,
        "head": head1, "since": "2026-12-01T00:00:00Z", "due": "2026-12-03T00:00:00Z",
        "final": "2026-12-03T01:00:00Z", "policy": "pass", "overdue": False,
    }
    assert payload["games"][1]["game"] == "g2" and payload["games"][1]["overdue"] is True
    assert payload["text"].splitlines()[:2] == [
        "- g1 (tally), seat alice: turn since entry #0, due 2026-12-03T00:00:00Z, grace until "
        "2026-12-03T01:00:00Z; then pass",
        "- g2 (tally), seat alice: turn since entry #0, OVERDUE since 2026-12-02T00:00:00Z; then pass",
    ]
    [bob] = hooks.to("/bob")  # g3 only, as Slack wants it
    assert set(bob.json()) == {"text"}
    assert bob.json()["text"].startswith("*arbiter: 1 game waits for your decision*\n- g3 (tally)")
    assert "sent: json webhook at 127.0.0.1 (g1/alice, g2/alice)" in result.out
    # The same inputs give the same bytes (the clock comes in through ARBITER_NOW).
    assert json.loads(alice.body) == payload


@pytest.mark.parametrize("preset", ["ntfy", "slack", "discord"])
def test_presets_carry_the_digest_in_the_shape_each_service_takes(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch, preset: str
) -> None:
    game = make_game("g1", ["alice", "bob"], deadline=DAY)
    configure(game, f'[seats.alice]\nwebhook = "{hooks.url("/srv/alice_topic")}"\npreset = "{preset}"\n')
    at(monkeypatch, "2026-12-01T09:30:00Z")
    assert cli("notify", game).code == 0
    [post] = hooks.posts
    body = post.json()
    line = "g1 (tally), seat alice: turn since entry #0, due 2026-12-02T00:00:00Z; then pass"
    if preset == "ntfy":  # JSON publishing: to the server's root, the topic in the body
        assert post.path == "/srv/"
        assert body == {
            "topic": "alice_topic", "title": "arbiter: 1 game waits for your decision",
            "message": body["message"], "tags": ["game_die"], "priority": 3,
        }
        assert body["message"].startswith(f"- {line}\n")
    elif preset == "slack":
        assert post.path == "/srv/alice_topic"
        assert body["text"].startswith(f"*arbiter: 1 game waits for your decision*\n- {line}")
    else:
        assert post.path == "/srv/alice_topic"
        assert body["allowed_mentions"] == {"parse": []}  # a notice pings nobody
        assert body["content"].startswith("**arbiter: 1 game waits for your decision**\n- g1")
        assert len(body["content"]) <= 2000


def test_one_digest_per_period_across_runs(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game("g1", ["alice", "bob"], deadline=3 * DAY)
    configure(game, f'[seats.alice]\nwebhook = "{hooks.url("/alice")}"\n')
    at(monkeypatch, "2026-12-01T08:00:00Z")
    assert cli("notify", game).code == 0
    assert len(hooks.posts) == 1
    record = json.loads((game / "referee" / "notices.json").read_bytes())
    assert record["format"] == "arbiter.notices-sent/1"
    [(key, sent)] = record["sent"].items()
    assert key.startswith("sha256:") and "127.0.0.1" not in json.dumps(record)  # no URL copied
    assert sent == {"time": "2026-12-01T08:00:00Z", "period": "2026-12-01T00:00:00Z", "entry": 0}
    before = snapshot(game)
    for later in ("2026-12-01T08:00:01Z", "2026-12-01T23:59:59Z"):  # cron again, same day
        at(monkeypatch, later)
        result = cli("notify", game)
        assert result.code == 0 and "already sent this period: json webhook" in result.out
    assert len(hooks.posts) == 1 and snapshot(game) == before
    assert json.loads(cli("notify", game, "--json").out) == {
        "period": {"start": "2026-12-01T00:00:00Z", "end": "2026-12-02T00:00:00Z"},
        "sent": [], "failed": [], "no_mail": [],
        "skipped": [{"channel": "json webhook at 127.0.0.1", "games": ["g1/alice"]}],
    }
    at(monkeypatch, "2026-12-02T00:00:00Z")  # a new day: a new digest
    assert cli("notify", game).code == 0
    assert len(hooks.posts) == 2
    at(monkeypatch, "2026-12-02T11:59:59Z")
    assert cli("notify", game, "--period", "12h").code == 0  # the same 12 hours
    at(monkeypatch, "2026-12-02T12:00:00Z")
    assert cli("notify", game, "--period", "12h").code == 0  # the next 12 hours
    at(monkeypatch, "2026-12-02T13:00:00Z")
    assert cli("notify", game, "--period", "7d").code == 0  # sent within this week already
    assert len(hooks.posts) == 3


def test_a_seat_nothing_waits_for_gets_nothing(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game("g1", ["alice", "bob"])
    configure(game, f'[seats.bob]\nwebhook = "{hooks.url("/bob")}"\n')
    at(monkeypatch, "2026-12-01T08:00:00Z")
    before = snapshot(game)
    result = cli("notify", game)
    assert result.code == 0 and result.out.startswith("nothing to send")
    assert hooks.posts == [] and snapshot(game) == before


def test_joins_and_open_requests_wait_for_seats_too(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter.core.canonical import pretty
    from arbiter.core.referee import submit
    from arbiter.core.signing import NAMESPACE_PROPOSE_END, sign

    joining = make_game("g1", ["alice", "bob"], join=True, deadline=DAY)
    asked = make_game("g2", ["alice", "bob"], deadline=DAY)
    head = json.loads((asked / "public" / "state.json").read_bytes())["head"]
    proposal = {"format": "arbiter.propose-end/1", "game": "g2", "seat": "alice", "after": head,
                "result": "abandon"}
    proposal["signature"] = sign(proposal, make_game.keys["alice"], NAMESPACE_PROPOSE_END)
    submit(asked, pretty(proposal), "propose.json", now="2026-12-01T01:00:00Z")
    for folder in (joining, asked):
        configure(folder, "".join(f'[seats.{s}]\nwebhook = "{hooks.url("/" + s)}"\n' for s in ("alice", "bob")))
    at(monkeypatch, "2026-12-01T08:00:00Z")
    assert cli("notify", joining, asked).code == 0
    bob = hooks.to("/bob")[0].json()
    Draft202012Validator(SCHEMA).validate(bob)
    assert [(g["game"], g["decision"], g["due"]) for g in bob["games"]] == [
        ("g1", "join", None), ("g2", "answer propose-end", None),
    ]
    assert bob["title"] == "arbiter: 2 games wait for your decision"
    alice = hooks.to("/alice")[0].json()
    assert [(g["game"], g["decision"], g["due"]) for g in alice["games"]] == [
        ("g1", "join", None), ("g2", "turn", "2026-12-02T01:00:00Z"),
    ]


def test_a_notice_carries_no_hidden_card(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game("m1", ["alice", "bob"], engine="mottainai", deadline=DAY)
    waits = json.loads((game / "public" / "state.json").read_bytes())["prompt"]["seat"]
    configure(game, "".join(
        f'[seats.{seat}]\nwebhook = "{hooks.url("/" + seat)}"\npreset = "{preset}"\n'
        for seat, preset in (("alice", "json"), ("bob", "json"))
    ))
    at(monkeypatch, "2026-12-01T08:00:00Z")
    assert cli("notify", game).code == 0
    [post] = hooks.posts
    assert post.path == f"/{waits}"
    hands = {
        card
        for seat in ("alice", "bob")
        for card in json.loads((game / "players" / seat / "state.json").read_bytes())["view"]["players"][seat]["hand"]
    }
    assert len(hands) == 10 and not any(card in post.body.decode() for card in hands)


def test_one_failing_webhook_does_not_stop_the_others(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch
) -> None:
    g1 = make_game("g1", ["alice", "bob"])
    g2 = make_game("g2", ["bob", "alice"])
    g3 = make_game("g3", ["carol", "alice"])
    configure(g1, f'[seats.alice]\nwebhook = "{hooks.url("/fail")}"\n')
    configure(g2, f'[seats.bob]\nwebhook = "{hooks.url("/bob")}"\n')
    closed = "http://127.0.0.1:9/carol"  # the discard port: nobody listens
    configure(g3, f'[seats.carol]\nwebhook = "{closed}"\n')
    at(monkeypatch, "2026-12-01T08:00:00Z")
    result = cli("notify", g1, g2, g3)
    assert result.code == 17, result
    assert result.err.count("\n") == 1 and result.err.startswith("arbiter: error: 2 of 3 digests")
    assert "failed: json webhook at 127.0.0.1 (g1/alice): 127.0.0.1 answered HTTP 500" in result.out
    assert "failed: json webhook at 127.0.0.1 (g3/carol): cannot reach 127.0.0.1" in result.out
    assert "/fail" not in result.out + result.err and ":9/" not in result.out + result.err
    assert sorted(p.path for p in hooks.posts) == ["/bob", "/fail"]
    assert not (g1 / "referee" / "notices.json").exists()
    assert (g2 / "referee" / "notices.json").exists()
    # The next run retries the failed ones only.
    configure(g1, f'[seats.alice]\nwebhook = "{hooks.url("/alice")}"\n')
    result = cli("notify", "--desk", g1.parent)
    assert result.code == 17 and [p.path for p in hooks.posts][2:] == ["/alice"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[seats.alice\n", "is not valid TOML"),
        ('[seats.zoe]\nwebhook = "http://127.0.0.1/x"\n', "seat 'zoe' is not in this game"),
        ('[seats.alice]\nwebhook = "ftp://example.org/x"\n', "must be an http or https URL"),
        ('[seats.alice]\nwebhook = "http://127.0.0.1/x"\npreset = "teams"\n', "preset must be one of"),
        ('[seats.alice]\nhook = "http://127.0.0.1/x"\n', "unknown key 'hook'"),
        ('[seats.alice]\nwebhook = "https://ntfy.sh/"\npreset = "ntfy"\n', "ntfy topic URL"),
        ('[seats.alice]\nmail = true\n', "the seat has no address"),
        ('[seats.alice]\nmail = "alice"\n', "must be one mail address, true or false"),
        ('period = "1d"\n', "unknown key 'period'"),
    ],
)
def test_bad_settings_are_one_line_and_change_nothing(
    cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    good = make_game("g1", ["alice", "bob"])
    bad = make_game("g2", ["alice", "bob"])
    configure(good, f'[seats.alice]\nwebhook = "{hooks.url("/alice")}"\n')
    configure(bad, text)
    at(monkeypatch, "2026-12-01T08:00:00Z")
    before = snapshot(good.parent)
    result = cli("notify", good, bad)
    assert result.code == 2, result
    assert result.err.startswith("arbiter: error: ") and result.err.count("\n") == 1
    assert message in result.err and "notices.toml" in result.err
    assert hooks.posts == [] and snapshot(good.parent) == before


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ((), 2, "give game folders or --desk DIR"),
        (("--period", "often"), 2, "--period 'often' must look like"),
        (("--period", "30s"), 2, "must be between 60 seconds"),
        (("--config", "missing.toml"), 17, "cannot read mail config"),
    ],
)
def test_bad_arguments(cli, make_game, tmp_path: Path, args: tuple[str, ...], code: int, message: str) -> None:
    game = make_game("g1", ["alice", "bob"])
    result = cli("notify", *((game, *args) if args else ()))
    assert result.code == code, result
    assert message in result.err and result.err.count("\n") == 1
    not_a_game = cli("notify", tmp_path)
    assert not_a_game.code == 17 and "is not a game folder" in not_a_game.err


def test_a_damaged_record_is_one_line(cli, make_game, hooks: Hooks, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("g1", ["alice", "bob"])
    configure(game, f'[seats.alice]\nwebhook = "{hooks.url("/alice")}"\n')
    (game / "referee" / "notices.json").write_text('{"format": "something/1"}')
    at(monkeypatch, "2026-12-01T08:00:00Z")
    result = cli("notify", game)
    assert result.code == 15 and "notices.json is damaged" in result.err
    assert result.err.count("\n") == 1 and hooks.posts == []
