"""`arbiter orders`: standing orders through the CLI (issue 27 item 7, docs/standing-orders.md).

The tally game: alice plays first; each turn is plays (up to two), then ``draw``. Bob's
orders answer alice's turn without another file from bob.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clikit import Cli, Game, error_line, ok
from helpers.tables import snapshot

from arbiter.core import chain as chainlib
from arbiter.core.canonical import canonical, digest, parse_strict, sha256_hex
from arbiter.core.signing import NAMESPACE_MOVE, NAMESPACE_ORDER_STEP, NAMESPACE_ORDERS, sign


def _state(game: Game, seat: str | None = None) -> dict[str, Any]:
    return dict(json.loads(game.state(seat).read_bytes()))


def _hand(game: Game, seat: str) -> list[int]:
    return list(_state(game, seat)["view"]["hand"])


def _step(when: list[dict[str, Any]], then: list[dict[str, Any]]) -> str:
    return json.dumps(when) + "=>" + json.dumps(then)


def _orders(game: Game, seat: str, *steps: str, cancel: bool = False) -> Path:
    path = game.out(f"orders-{seat}")
    args: list[Any] = ["orders", game.state(seat), "--key", game.keys / seat, "-o", path]
    for step in steps:
        args += ["--step", step]
    ok(game.cli(*args, *(["--cancel"] if cancel else [])))
    return path


def _kinds(game: Game) -> list[str]:
    return [json.loads(line)["kind"] for line in (game.root / "chain.jsonl").read_text().splitlines()]


def _bob_answers(game: Game, alice_card: int) -> tuple[str, int]:
    """Bob orders: when alice plays ``alice_card`` and draws, play his lowest card and draw."""
    bob_card = min(_hand(game, "bob"))
    step = _step(
        [{"kind": "play", "card": alice_card}, {"kind": "draw"}],
        [{"kind": "play", "card": bob_card}, {"kind": "draw"}],
    )
    return step, bob_card


def test_a_step_fires_and_the_next_seat_is_prompted(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    step, bob_card = _bob_answers(game, card)
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    assert _state(game, "bob")["orders"]["next"] == 0
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    assert _kinds(game)[-2:] == ["move", "order-step"]
    public = _state(game)
    assert public["prompt"]["seat"] == "alice"  # bob's turn was played by his order
    assert bob_card in public["view"]["tallies"]["bob"]
    assert "orders" not in _state(game, "bob")  # all applied
    log = (game.root / "public" / "log.md").read_text()
    assert "bob's standing order applies (step 1)." in log
    assert "Your standing orders are all applied." in (game.root / "players/bob/log.md").read_text()


def test_the_first_mismatch_drops_the_rest(cli: Cli, game: Game) -> None:
    hand = sorted(_hand(game, "alice"))
    step, _ = _bob_answers(game, hand[0])
    later = _step([{"kind": "draw"}], [{"kind": "draw"}])
    ok(cli("submit", game.root, _orders(game, "bob", step, later)))
    other = hand[1]
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": other}, {"kind": "draw"})))
    assert _kinds(game)[-1] == "move"
    assert _state(game)["prompt"]["seat"] == "bob"  # bob must answer by mail
    assert "orders" not in _state(game, "bob")
    bob_log = (game.root / "players/bob/log.md").read_text()
    assert "stop at step 1" in bob_log and "the rest are dropped" in bob_log


def test_replace_and_cancel(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    step, _ = _bob_answers(game, card)
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    first = _state(game, "bob")["orders"]
    ok(cli("submit", game.root, _orders(game, "bob", step, _step([], [{"kind": "draw"}]))))
    second = _state(game, "bob")["orders"]
    assert second["orders"] != first["orders"] and len(second["steps"]) == 2
    assert "they replace those of entry" in (game.root / "players/bob/log.md").read_text()
    ok(cli("submit", game.root, _orders(game, "bob", cancel=True)))
    assert "orders" not in _state(game, "bob")
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    assert _kinds(game)[-1] == "move" and _state(game)["prompt"]["seat"] == "bob"


def test_hidden_from_the_other_seats_and_the_public(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    step, bob_card = _bob_answers(game, card)
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    assert "orders" not in _state(game, "alice") and "orders" not in _state(game)
    entry = json.loads((game.root / "chain.jsonl").read_text().splitlines()[-1])
    assert entry["kind"] == "orders" and entry["summary"] == ["bob sent standing orders."]
    secret_part = json.dumps({"kind": "play", "card": bob_card})
    for path in [game.root / "public/log.md", game.root / "players/alice/log.md",
                 game.root / "public/state.json", game.root / "players/alice/state.json"]:
        text = path.read_text()
        assert "standing orders" not in text or "bob sent standing orders." in text
        assert secret_part not in text and '"orders"' not in text


def test_bad_orders_leave_the_folder_unchanged(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    step, _ = _bob_answers(game, card)
    stale = _orders(game, "bob", step)
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    before = snapshot(game.root)
    assert "old chain head" in error_line(cli("submit", game.root, stale), 8)
    assert snapshot(game.root) == before
    bad = cli("orders", game.state("bob"), "--key", game.keys / "bob", "--step", "[]", "-o",
              game.out("x"))
    assert "WHEN=>THEN" in error_line(bad, 2)


def test_verify_after_reveal_passes(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    step, _ = _bob_answers(game, card)
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    ok(cli("verify", game.root))
    ok(cli("reveal", game.root, "--force"))
    report = ok(cli("verify", game.root, "--json")).json()
    assert report["replayed"] is True


def test_a_forged_step_against_its_condition_is_caught(cli: Cli, game: Game) -> None:
    hand = sorted(_hand(game, "alice"))
    step, _ = _bob_answers(game, hand[0])
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": hand[0]}, {"kind": "draw"})))
    ok(cli("reveal", game.root, "--force"))
    # The referee forges: bob's orders said "when alice plays another card", yet the step
    # was applied after this one. Every later line is re-signed and re-linked, so only
    # the replay of the condition can tell.
    forged_when = [{"kind": "play", "card": hand[1]}, {"kind": "draw"}]
    _rewrite_orders(game, lambda orders: orders["steps"][0].__setitem__("when", forged_when))
    # ... and bob's log says the orders stopped at alice's move, as the replay will.
    log = game.root / "players/bob/log.md"
    lines = log.read_text().splitlines(keepends=True)
    last = max(n for n, line in enumerate(lines) if line.startswith("- `#4`"))
    drop = (
        "- `#4` Your standing orders (entry #3) stop at step 1: alice's decisions are not "
        "those of step 1; the rest are dropped.\n"
    )
    log.write_text("".join([*lines[: last + 1], drop, *lines[last + 1 :]]))
    result = cli("verify", game.root)
    assert "applied against its condition" in error_line(result, 16)


def _rewrite_orders(game: Game, change: Any) -> None:
    """Change bob's orders file and re-sign and re-link every line from it on, as a
    dishonest referee holding every key could (the test has them all)."""
    root = game.root
    chain = [json.loads(line) for line in (root / "chain.jsonl").read_text().splitlines()]
    signed = (root / "referee/signed.jsonl").read_bytes().splitlines()
    keys = {"alice": game.keys / "alice", "bob": game.keys / "bob"}
    referee = root / "referee" / "key"
    start = next(n for n, e in enumerate(chain) if e["kind"] == "orders")
    renamed: dict[str, str] = {}
    head = chain[start - 1]["hash"]
    for n in range(start, len(chain)):
        entry, record = chain[n], parse_strict(signed[n - 1], "signed")
        record.pop("signature")
        if n == start:
            change(record)
        if "after" in record:
            record["after"] = head
        if "orders" in record and isinstance(record["orders"], str):
            record["orders"] = renamed[record["orders"]]
        if entry["kind"] == "orders":
            record["signature"] = sign(record, keys[record["seat"]], NAMESPACE_ORDERS)
        elif entry["kind"] == "order-step":
            record["signature"] = sign(record, referee, NAMESPACE_ORDER_STEP)
        else:
            record["signature"] = sign(record, keys[record["seat"]], NAMESPACE_MOVE)
        renamed[entry["digest"]] = digest(record)
        signed[n - 1] = canonical(record)
        assert sha256_hex(signed[n - 1]) == digest(record)
        chain[n] = chainlib.make_entry(
            n, entry["kind"], entry["seat"], head, digest(record), entry["summary"], entry.get("time")
        )
        head = chain[n]["hash"]
    old_head = json.loads((root / "chain.jsonl").read_text().splitlines()[-1])["hash"]
    (root / "chain.jsonl").write_bytes(b"".join(chainlib.line(e) for e in chain))
    data = b"".join(line + b"\n" for line in signed)
    (root / "referee/signed.jsonl").write_bytes(data)
    (root / "reveal/signed.jsonl").write_bytes(data)
    for path in [root / "reveal/reveal.json", *root.glob("*/state.json"), *root.glob("players/*/state.json")]:
        path.write_text(path.read_text().replace(old_head, head))


def test_sealed_orders_fire_and_show_only_in_the_seat_s_sealed_state(tmp_path: Path) -> None:
    from clikit import arbiter
    from helpers.sealed import sealed_started

    table = sealed_started(tmp_path, 2)
    first, second = table.turn(), next(s for s in table.seats if s != table.turn())
    card = min(table.state(first)["view"]["hand"])
    own = min(table.state(second)["view"]["hand"])
    step = _step(
        [{"kind": "play", "card": card}, {"kind": "draw"}],
        [{"kind": "play", "card": own}, {"kind": "draw"}],
    )
    out = tmp_path / "orders.json"
    made = arbiter("orders", table.gd.sealed_state(second), "--key", table.keys[second],
                   "--step", step, "-o", out, "--seal")
    assert made.returncode == 0, made.stderr
    assert not out.exists()
    done = arbiter("submit", table.root, tmp_path / "orders.json.age")
    assert done.returncode == 0, done.stderr
    assert table.state(second)["orders"]["next"] == 0 and "orders" not in table.state(first)
    move = tmp_path / "move.json"
    made = arbiter("move", table.gd.sealed_state(first), "--key", table.keys[first],
                   "-a", json.dumps({"kind": "play", "card": card}), "-a", '{"kind": "draw"}',
                   "-o", move)
    assert made.returncode == 0, made.stderr
    assert arbiter("submit", table.root, move).returncode == 0
    assert table.state()["prompt"]["seat"] == first  # the second seat's turn was its order
    assert own in table.state()["view"]["tallies"][second]


def test_a_due_step_left_out_is_caught(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    step, _ = _bob_answers(game, card)
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    # The referee drops the step it owed and republishes the folder at alice's move.
    for name in ("chain.jsonl", "referee/signed.jsonl"):
        path = game.root / name
        path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-1]))
    ok(cli("repair", game.root))
    assert _state(game)["prompt"]["seat"] == "bob"
    ok(cli("reveal", game.root, "--force"))
    result = cli("verify", game.root)
    assert "was due here, but the referee did not apply it" in error_line(result, 16)


def test_a_step_not_legal_when_its_condition_is_met_drops_the_rest(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    not_bobs = next(c for c in range(1, 61) if c not in _hand(game, "bob") and c != card)
    step = _step(
        [{"kind": "play", "card": card}, {"kind": "draw"}],
        [{"kind": "play", "card": not_bobs}, {"kind": "draw"}],
    )
    ok(cli("submit", game.root, _orders(game, "bob", step)))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    assert _kinds(game)[-1] == "move" and _state(game)["prompt"]["seat"] == "bob"
    assert "orders" not in _state(game, "bob")
    assert "are not legal here; the rest are dropped" in (game.root / "players/bob/log.md").read_text()
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))


def test_MC_R19_a_pass_ordered_in_an_auction_fires(cli: Cli, tmp_path: Path) -> None:
    """MC-R19: in a Mot Coin auction carol orders "when alice and bob pass, I pass": the
    referee applies it in the operation that took bob's pass, and nobody waits for carol."""
    keys = tmp_path / "keys"
    for seat in ("alice", "bob", "carol"):
        ok(cli("keygen", seat, "--dir", keys))
    root = tmp_path / "mc"
    args: list[Any] = ["new", root, "--game", "motcoin", "--no-join"]
    for seat in ("alice", "bob", "carol"):
        args += ["--seat", f"{seat}={keys / seat}.pub"]
    ok(cli(*args))
    game = Game(root, keys, tmp_path / "files", cli)
    game.files.mkdir()
    assert _state(game)["prompt"]["seat"] == "alice"
    passing = json.dumps([{"kind": "pass"}])
    when = json.dumps([{"kind": "pass"}, {"kind": "pass"}])
    ok(cli("submit", root, _orders(game, "carol", f"{when}=>{passing}")))
    ok(cli("submit", root, game.move("alice", {"kind": "pass"})))
    assert _state(game)["prompt"]["seat"] == "bob"
    ok(cli("submit", root, game.move("bob", {"kind": "pass"})))
    assert _kinds(game)[-2:] == ["move", "order-step"]
    assert _state(game)["prompt"]["seat"] != "carol" or _state(game)["prompt"]["detail"]["card"] != "6"
    ok(cli("reveal", root, "--force"))
    ok(cli("verify", root))


# -- patterns (arbiter.orders/2) ------------------------------------------------------------


def test_a_star_answers_whatever_the_others_do(cli: Cli, game: Game) -> None:
    """`"*"` matches any number of decisions: bob's turn is ordered for any turn of alice's."""
    bob_card = min(_hand(game, "bob"))
    step = _step(["*"], [{"kind": "play", "card": bob_card}, {"kind": "draw"}])
    path = _orders(game, "bob", step)
    assert json.loads(path.read_bytes())["format"] == "arbiter.orders/2"
    ok(cli("submit", game.root, path))
    card = max(_hand(game, "alice"))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    assert _kinds(game)[-2:] == ["move", "order-step"]
    assert bob_card in _state(game)["view"]["tallies"]["bob"]
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))


def test_a_decision_matches_on_the_fields_it_names(cli: Cli, game: Game) -> None:
    """`{"kind": "play"}` is any play; a card named must be the card played."""
    hand = sorted(_hand(game, "alice"))
    bob_card = min(_hand(game, "bob"))
    then = [{"kind": "play", "card": bob_card}, {"kind": "draw"}]
    ok(cli("submit", game.root, _orders(game, "bob", _step([{"kind": "play"}, "*"], then))))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": hand[1]}, {"kind": "draw"})))
    assert _kinds(game)[-1] == "order-step"
    # Two seats: alice decides again; bob's next orders name the card she must play.
    assert _state(game)["prompt"]["seat"] == "alice"
    named = _step([{"kind": "play", "card": hand[0]}, "*"], [{"kind": "draw"}])
    ok(cli("submit", game.root, _orders(game, "bob", named)))
    alice_now = sorted(_hand(game, "alice"))
    other = next(c for c in alice_now if c != hand[0])
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": other}, {"kind": "draw"})))
    assert _kinds(game)[-1] == "move" and _state(game)["prompt"]["seat"] == "bob"
    assert "stop at step 1" in (game.root / "players/bob/log.md").read_text()
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))


def test_a_version_1_file_is_still_judged_exactly(cli: Cli, game: Game) -> None:
    """An `arbiter.orders/1` file (older tools) is accepted, and its `when` means what it
    always did: `{"kind": "play"}` is not the same decision as a play of card 3."""
    bob = _state(game, "bob")
    record = {
        "format": "arbiter.orders/1",
        "game": bob["game"],
        "seat": "bob",
        "after": bob["head"],
        "steps": [{"when": [{"kind": "play"}, {"kind": "draw"}], "then": [{"kind": "draw"}]}],
    }
    record["signature"] = sign(record, game.keys / "bob", NAMESPACE_ORDERS)
    path = game.out("v1")
    path.write_bytes(canonical(record))
    ok(cli("submit", game.root, path))
    card = min(_hand(game, "alice"))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    assert _kinds(game)[-1] == "move" and _state(game)["prompt"]["seat"] == "bob"
    assert "stop at step 1" in (game.root / "players/bob/log.md").read_text()
    ok(cli("reveal", game.root, "--force"))
    ok(cli("verify", game.root))


def test_a_star_in_then_is_refused(cli: Cli, game: Game) -> None:
    bad = cli("orders", game.state("bob"), "--key", game.keys / "bob", "--step", '[]=>["*"]',
              "-o", game.out("x"))
    assert 'THEN must be a JSON array of decisions, each {"kind": ...}' in error_line(bad, 2)


def test_a_step_forged_against_its_pattern_is_caught(cli: Cli, game: Game) -> None:
    card = min(_hand(game, "alice"))
    bob_card = min(_hand(game, "bob"))
    then = [{"kind": "play", "card": bob_card}, {"kind": "draw"}]
    ok(cli("submit", game.root, _orders(game, "bob", _step([{"kind": "play"}, "*"], then))))
    ok(cli("submit", game.root, game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})))
    ok(cli("reveal", game.root, "--force"))
    # The referee forges: the orders said "when alice draws first", which she did not.
    _rewrite_orders(game, lambda orders: orders["steps"][0].__setitem__("when", [{"kind": "draw"}, "*"]))
    log = game.root / "players/bob/log.md"
    lines = log.read_text().splitlines(keepends=True)
    last = max(n for n, line in enumerate(lines) if line.startswith("- `#4`"))
    drop = (
        "- `#4` Your standing orders (entry #3) stop at step 1: alice's decisions are not "
        "those of step 1; the rest are dropped.\n"
    )
    log.write_text("".join([*lines[: last + 1], drop, *lines[last + 1 :]]))
    result = cli("verify", game.root)
    assert "applied against its condition" in error_line(result, 16)
