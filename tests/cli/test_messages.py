"""Messages a newcomer can act on (issue 24, item 6), through the real command line.

Every refusal is one line that says which field is wrong, what was expected and the
nearest legal name, in every engine and for every file kind the schemas check; ``move``
refuses what the referee will refuse; and no message shows a Python repr or jsonschema's
own words, or anything the reader's own view does not hold.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, Game, error_line, ok
from conformance.harness import cases
from helpers.tables import CREATED, REFEREE_SEED, SECRET, from_template, make_keys, snapshot

from arbiter.core import registry
from arbiter.core.referee import new_game

CASES = cases()

# What a message must never show: a Python repr of the file's content, jsonschema's own
# words, Python's constants, schema jargon.
NOT_SAID = re.compile(
    r"\{'|\['|is not valid under|is not of type|\bNone\b|\bTrue\b|\bFalse\b|breaks the schema"
    r"|top level|\bat at\b"
)


def plain(message: str) -> str:
    """Check a message reads as words, not code; return it."""
    assert not NOT_SAID.search(message), message
    return message


# -- a game of every engine ----------------------------------------------------------------


def engine_game(name: str, tmp_path: Path, cli: Cli) -> Game:
    """A game of engine ``name`` at its fewest seats, set up at once (``--no-join``)."""
    seats = ["alice", "bob", "carol", "dave", "erin"][: registry.get(name).info.min_seats]

    def build(base: Path) -> None:
        keys = make_keys(base / "keys", seats)
        pairs = [(seat, str(keys[seat]) + ".pub") for seat in seats]
        new_game(
            base / "g1",
            name,
            pairs,
            {},
            join=False,
            game_id="g1",
            created=CREATED,
            secret=SECRET,
            referee_seed=REFEREE_SEED,
        )
        (base / "files").mkdir()

    from_template(("messages", name), tmp_path, build)
    return Game(tmp_path / "g1", tmp_path / "keys", tmp_path / "files", cli)


def on_turn(game: Game) -> tuple[str, list[dict[str, Any]]]:
    """Return the seat on turn and its listed decisions."""
    public = json.loads(game.state().read_text())
    seat = public["prompt"]["seat"]
    return seat, json.loads(game.state(seat).read_text())["legal"]


def refused_alike(game: Game, seat: str, action: dict[str, Any], code: int) -> str:
    """``move`` refuses ``action`` and ``submit`` refuses the forced file with the same
    line and exit code, the folder unchanged; return the message."""
    path = game.out(seat)
    args = ["move", game.state(seat), "--key", game.keys / seat, "-o", path]
    err = error_line(game.cli(*args, "--action", json.dumps(action)), code)
    assert not path.exists()
    assert err.endswith(" (--force writes it anyway)\n"), err
    forced = ok(game.cli(*args, "--action", json.dumps(action), "--force"))
    assert forced.err.startswith("arbiter: warning: ") and forced.err.count("\n") == 1
    before = snapshot(game.root)
    said = error_line(game.cli("submit", game.root, path), code)
    assert snapshot(game.root) == before
    message = said.removeprefix("arbiter: error: ").rstrip("\n")
    assert err == f"arbiter: error: {message} (--force writes it anyway)\n"
    return plain(message)


ENGINES = registry.names()


@pytest.mark.parametrize("name", ENGINES)
def test_a_mistyped_kind_names_the_kinds_and_the_nearest(name: str, tmp_path: Path, cli: Cli):
    game = engine_game(name, tmp_path, cli)
    seat, legal = on_turn(game)
    kind = legal[0]["kind"]
    typo = kind[:-1]
    message = refused_alike(game, seat, {**legal[0], "kind": typo}, 4)
    assert message.startswith(f"action 1: no decision kind '{typo}': this game has "), message
    assert kind in message and message.endswith(f"; did you mean '{kind}'?"), message


@pytest.mark.parametrize("name", ENGINES)
def test_a_field_of_the_wrong_type_is_named(name: str, tmp_path: Path, cli: Cli):
    game = engine_game(name, tmp_path, cli)
    seat, legal = on_turn(game)
    action = next(a for a in legal if len(a) > 1)
    field = next(k for k in sorted(action) if k != "kind")
    wrong = 7 if not isinstance(action[field], int) else "seven"
    message = refused_alike(game, seat, {**action, field: wrong}, 4)
    assert message.startswith(f"action 1: {field} must be "), message
    assert message.endswith(", not an integer" if wrong == 7 else ", not a string"), message


@pytest.mark.parametrize("name", ENGINES)
def test_a_mistyped_field_name_gets_the_nearest(name: str, tmp_path: Path, cli: Cli):
    game = engine_game(name, tmp_path, cli)
    seat, legal = on_turn(game)
    action = next(a for a in legal if len(a) > 1)
    field = next(k for k in sorted(action) if k != "kind")
    message = refused_alike(game, seat, {**action, field + "s": action[field]}, 4)
    assert message.startswith(f"action 1: unknown field '{field}s': did you mean '{field}'?")


def test_a_card_typed_in_capitals(tmp_path: Path, cli: Cli) -> None:
    """The issue's own case: "Bell" for bell."""
    game = engine_game("mottainai", tmp_path, cli)
    seat, legal = on_turn(game)
    card = next(a["card"] for a in legal if a["kind"] == "task")
    message = refused_alike(game, seat, {"kind": "task", "card": card.capitalize()}, 4)
    assert message == (
        f"action 1: unknown card '{card.capitalize()}': card ids are lower case, "
        f"did you mean '{card}'?"
    )


def test_pray_for_prayer(tmp_path: Path, cli: Cli) -> None:
    game = engine_game("mottainai", tmp_path, cli)
    seat, _ = on_turn(game)
    message = refused_alike(game, seat, {"kind": "pray"}, 4)
    assert message.startswith("action 1: no decision kind 'pray': this game has return, ")
    assert message.endswith("; did you mean 'prayer'?")


# -- every file kind the schemas check -----------------------------------------------------


def _mutations(good: dict[str, Any], keep: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    """Typical slips on a good file: wrong types, capitals, a typo'd or missing field
    (``keep``: fields left alone)."""
    out: list[tuple[str, Any]] = [("a list", [good])]
    for field, value in good.items():
        if field in keep:
            continue
        out.append((f"{field} as null", {**good, field: None}))
        out.append((f"{field} as a list", {**good, field: [1]}))
        out.append((f"{field} missing", {k: v for k, v in good.items() if k != field}))
        if isinstance(value, str):
            out.append((f"{field} in capitals", {**good, field: value.upper()[:20]}))
    out.append(("a typo'd field", {**good, "formta": good["format"]}))
    return out


def _files(game: Game) -> dict[str, tuple[Path, list[str]]]:
    """Good files of each kind and the command that reads them (FILE stands for the file)."""
    join = game.files / "join.json"
    ok(
        game.cli(
            "join",
            game.root / "game.json",
            "--seat",
            "alice",
            "--key",
            game.keys / "alice",
            "-o",
            join,
        )
    )
    move = game.move("alice", {"kind": "draw"}, force=True)
    return {
        "join": (join, ["submit", game.root, "FILE"]),
        "move": (move, ["submit", game.root, "FILE"]),
        "manifest": (
            game.root / "game.json",
            [
                "join",
                "FILE",
                "--seat",
                "alice",
                "--key",
                game.keys / "alice",
                "-o",
                game.files / "j.json",
            ],
        ),
        "receipt": (
            game.root / "referee" / "receipts" / "2.json",
            ["verify", game.root, "--receipt", "FILE"],
        ),
        "state": (game.state("alice"), ["show", "FILE"]),
    }


@pytest.mark.parametrize("kind", ["join", "move", "manifest", "receipt", "state"])
def test_every_file_kind_is_explained_in_words(kind: str, game: Game, cli: Cli) -> None:
    path, command = _files(game)[kind]
    good = json.loads(path.read_text())
    said = set()
    # submit tells a join from a move by its format before any schema is read (ledger.py).
    keep = ("format",) if kind in ("join", "move") else ()
    for label, bad in _mutations(good, keep):
        target = game.files / f"bad-{kind}.json"
        target.write_text(json.dumps(bad))
        args = [target if part == "FILE" else part for part in command]
        result = cli(*args)
        if result.code == 0:  # an optional field left out, or null where null is allowed
            assert "missing" in label or "null" in label, (label, result)
            continue
        assert result.err.count("\n") == 1 and result.err.startswith("arbiter: error: "), result
        assert result.err.count(target.name) <= 1, result.err  # said once, not twice
        said.add(plain(result.err))
    # A message per slip, not one vague line for all.
    assert len(said) > len(good), said


# -- move refuses what the referee will refuse ----------------------------------------------


def test_move_refuses_out_of_turn_and_force_writes_it(game: Game, cli: Cli) -> None:
    path = game.out("bob")
    args = ["move", game.state("bob"), "--key", game.keys / "bob", "-a", '{"kind": "draw"}']
    err = error_line(cli(*args, "-o", path), 11)
    assert "it is alice's turn to decide (turn), not bob's" in err and "--force" in err
    assert not path.exists()
    forced = ok(cli(*args, "-o", path, "--force"))
    assert forced.err.startswith("arbiter: warning: it is alice's turn") and path.is_file()
    assert "bob's" in error_line(cli("submit", game.root, path), 11)


def test_move_refuses_a_card_not_in_the_hand(game: Game, cli: Cli) -> None:
    hand = json.loads(game.state("alice").read_text())["view"]["hand"]
    missing = next(n for n in range(1, 100) if n not in hand)
    path = game.out("alice")
    result = cli(
        "move",
        game.state("alice"),
        "--key",
        game.keys / "alice",
        "-a",
        json.dumps({"kind": "play", "card": missing}),
        "-o",
        path,
    )
    err = error_line(result, 12)
    choices = ", ".join(map(str, hand))
    assert f"action 1 (play): card {missing} is not one of your choices: {choices}" in err
    assert not path.exists()


def test_move_refuses_a_decision_not_listed(game: Game, cli: Cli) -> None:
    path = game.out("alice")
    result = cli(
        "move",
        game.state("alice"),
        "--key",
        game.keys / "alice",
        "-a",
        '{"kind": "end"}',
        "-o",
        path,
    )
    err = error_line(result, 12)
    assert "'end' is not a decision you can take now: your choices are play, discard, draw" in err


def test_move_refuses_after_the_end(tmp_path: Path, cli: Cli) -> None:
    from helpers.tables import started

    table = started(tmp_path)
    table.play_to_end()
    path = tmp_path / "late.json"
    result = cli(
        "move",
        table.gd.seat_state("alice"),
        "--key",
        table.keys["alice"],
        "-a",
        '{"kind": "draw"}',
        "-o",
        path,
    )
    assert "the game is over" in error_line(result, 10) and not path.exists()


def test_move_holds_an_incomplete_list_only_to_its_kinds(tmp_path: Path, cli: Cli) -> None:
    """Mot Coin lists only the weakest bids: a stronger one is written and accepted."""
    game = engine_game("motcoin", tmp_path, cli)
    seat, legal = on_turn(game)
    bids = [a["dice"] for a in legal if a["kind"] == "bid"]
    strongest = [6] * max(len(dice) for dice in bids)
    assert {"kind": "bid", "dice": strongest} not in legal
    path = game.move(seat, {"kind": "bid", "dice": strongest})
    assert ok(cli("submit", game.root, path, "--json")).json()[0]["seq"] == 1


def test_the_public_state_file_gets_one_consistent_line(game: Game, cli: Cli) -> None:
    for force in ([], ["--force"]):
        result = cli(
            "move",
            game.state(),
            "--key",
            game.keys / "bob",
            "-a",
            '{"kind": "draw"}',
            "-o",
            game.files / "m.json",
            *force,
        )
        err = error_line(result, 4)
        assert "this is the public state file: use your own players/<seat>/state.json" in err
        assert "turn" not in err and "warning" not in err
    listed = ok(cli("moves", game.state())).out
    assert "this is the public state file" in listed and "not your turn" not in listed


# -- a cut-short file, a verify after a crash -------------------------------------------------


def test_a_cut_short_file_is_named_so(game: Game, cli: Cli) -> None:
    move = game.move("alice", {"kind": "draw"})
    text = move.read_text()
    cut = game.files / "cut.json"
    cut.write_text(text[: text.index("BEGIN SSH") + 3])
    err = plain(error_line(cli("submit", game.root, cut), 3))
    assert "it ends too early (a string that starts at line " in err
    assert "is not closed): it looks cut short" in err


def test_verify_after_a_crash_says_repair_fixes_it(game: Game, cli: Cli) -> None:
    """A crash between the chain's commit and a derived file's write leaves the file
    behind the head: verify names the file and says what brings it up to date."""
    old = {p: p.read_bytes() for p in (game.state("bob"), game.root / "public" / "log.md")}
    ok(cli("submit", game.root, game.move("alice", {"kind": "draw"})))
    for path, data in old.items():
        new = path.read_bytes()
        path.write_bytes(data)
        err = error_line(cli("verify", game.root), 16)
        assert "behind the chain head #3" in err or "ends before entry #3 of the chain" in err
        assert f"`arbiter repair {game.root}` on the referee's folder, or its next submit" in err
        ok(cli("repair", game.root))
        assert path.read_bytes() == new
    ok(cli("verify", game.root))


def test_verify_after_a_crash_in_the_reveal_says_repair_fixes_it(game: Game, cli: Cli) -> None:
    log = game.root / "public" / "log.md"
    before = log.read_bytes()
    ok(cli("reveal", game.root, "--force"))
    revealed = log.read_bytes()
    log.write_bytes(before)  # the reveal's log write never happened
    err = error_line(cli("verify", game.root), 16)
    assert f"{log} ends before its result section (a write cut short by a crash?)" in err
    assert f"`arbiter repair {game.root}`" in err
    ok(cli("repair", game.root))
    assert log.read_bytes() == revealed
    ok(cli("verify", game.root))


# -- --version and shell completion --------------------------------------------------------


def test_version_names_the_release_and_every_engine(cli: Cli) -> None:
    from arbiter import __version__

    lines = ok(cli("--version")).out.splitlines()
    assert lines[0] == f"arbiter {__version__}"
    engines = {line.split()[0]: line.split()[1] for line in lines[1:]}
    assert engines == {n: registry.get(n).info.version for n in registry.names()}


def test_shell_completion(cli: Cli) -> None:
    import os
    import subprocess
    import sys

    from clikit import subprocess_env

    assert "--install-completion" in ok(cli("--help")).out
    script = ok(cli("--show-completion", "bash")).out
    assert "_ARBITER_COMPLETE=complete_bash" in script
    env = {
        **subprocess_env(),
        "_ARBITER_COMPLETE": "complete_bash",
        "COMP_WORDS": "arbiter subm",
        "COMP_CWORD": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "arbiter"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=os.getcwd(),
    )
    assert done.returncode == 0 and done.stdout.split() == ["submit"], done


# -- nothing hidden: a decision's message depends only on the submitter's view ---------------


def _slips(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Decisions of the wrong shape made from listed ones: each kind of slip once."""
    out: list[dict[str, Any]] = [{"kind": legal[0]["kind"][:-1]}, {"card": 1}]
    for action in legal[:6]:
        for field, value in action.items():
            if field == "kind":
                continue
            out.append({**action, field + "s": value})
            out.append({**action, field: 7 if not isinstance(value, int) else "seven"})
            if isinstance(value, str):
                out.append({**action, field: value.upper() + "!"})
                out.append({**action, field: value.capitalize()})
    return out


@pytest.mark.parametrize("name,seats", CASES)
def test_decision_messages_reveal_nothing_hidden(name: str, seats: list[str]) -> None:
    """The referee's message for a decision of the wrong shape names the nearest of the
    submitter's own legal names: redrawing what that seat cannot see changes no word (nor
    in the engine's own refusal, when the shape is right)."""
    from conformance.harness import engine_of, options, recorded, rng

    from arbiter.core.errors import ArbiterError
    from arbiter.core.table import Table

    engine = engine_of(name)
    manifest = {"game": "g", "seats": [{"seat": s} for s in seats], "options": options(engine)}

    def said(state: Any, seat: str, action: dict[str, Any]) -> str:
        table = Table(manifest, engine, SECRET)
        table.state, table.seed = state, SECRET
        with pytest.raises(ArbiterError) as caught:
            table.move(1, seat, [action])
        return caught.value.message

    checked = 0
    trace = recorded(name, tuple(seats), 0)
    for index in trace.sample(5):
        state = trace.state(engine, index)
        prompt = engine.prompt(state)
        if prompt is None:
            continue
        seat = prompt.seat
        other = engine.resample(trace.state(engine, index), seat, rng("messages", name, index))
        for action in _slips(engine.legal_actions(state, seat)):
            message = said(state, seat, action)
            assert message == said(other, seat, action), (action, message)
            assert "\n" not in message and plain(message)
            checked += 1
    assert checked > 10
