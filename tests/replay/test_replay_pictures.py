"""Pictures in the terminal: ``arbiter show``/``arbiter replay`` draw the table with rich
panels and tables, cards coloured by material or type; ``--plain`` keeps the text lines."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import error_line, ok, subprocess_env
from replay_kit import EXAMPLES, GAMES

from arbiter.cli import pictures
from arbiter.core import registry, timeline
from arbiter.core.errors import SchemaViolation
from arbiter.games.mottainai.cards import INSTANCES
from arbiter.games.mottainai.pictures import MATERIAL_COLOURS

MOTTAINAI = EXAMPLES / "mottainai" / "game"


def _write(tmp_path: Path, state: dict[str, Any], name: str = "state.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(state))
    return path


def _frame(game: str, at: str, seat: str | None) -> dict[str, Any]:
    return timeline.frame_at(EXAMPLES / game / "game", at, seat).state


def test_mottainai_shows_every_zone_with_card_names_and_hand_counts(cli, tmp_path):
    # An entry where alice is to play, seen by bob, with work in every zone (late enough).
    state = next(
        frame
        for at in range(20, 60)
        if (frame := _frame("mottainai", str(at), "bob"))["view"]["current"] == "alice"
        and frame["prompt"] is not None
    )
    view = state["view"]
    out = ok(cli("show", _write(tmp_path, state), "--pictures")).out
    for zone in ("Floor", "task", "helpers", "craft bench", "sales", "gallery", "gift shop"):
        assert zone in out
    for card in view["floor"] + view["players"]["bob"]["hand"]:
        assert f" {INSTANCES[card].name} {INSTANCES[card].value} " in out
    for seat in view["seats"]:
        p = view["players"][seat]
        for zone in ("helpers", "craft_bench", "sales", "gallery", "gift_shop"):
            for card in p[zone]:
                assert INSTANCES[card].name in out
    assert f"{view['players']['alice']['hand_count']} cards" in out  # the other hand: a count
    assert "bob (you)" in out and "alice  ← to play" in out
    assert "PAPER 1 CLERK" in out and "METAL 3 SMITH" in out  # the legend


def test_motcoin_shows_the_auction_the_dice_and_the_prices(cli, tmp_path):
    state = _frame("motcoin", "60", None)
    view = state["view"]
    out = ok(cli("show", _write(tmp_path, state), "--pictures")).out
    auction = view["auction"]
    assert "Auction" in out and view["cards"][auction["card"]]["name"] in out
    assert f"to act    {auction['turn']}" in out
    for seat in view["seats"]:
        p = view["players"][seat]
        assert f"{p['available']} of {p['dice']}" in out
        for held in p["cards"]:
            assert view["cards"][held["card"]]["name"] in out
            if held["dice"]:
                assert "[" + " ".join(map(str, held["dice"])) + "]" in out
    assert "Prices" in out and "fluctuation" in out and "crash" in out
    brief = next(b for b in view["cards"].values() if "price" in b and b["id"] in out)
    assert str(brief["price"]) in out


def test_momiji_shows_the_garden_piles_acorns_and_objectives(cli, tmp_path):
    from arbiter.games.momiji.narrate import card

    state = _frame("momiji", "-5", "alice")
    view = state["view"]
    out = ok(cli("show", _write(tmp_path, state), "--pictures")).out
    assert "Garden" in out and "Objectives in the centre" in out
    for code in view["garden"] + view["players"]["alice"]["hand"]:
        assert card(code) in out
    for seat in view["seats"]:
        p = view["players"][seat]
        assert f"acorns     {p['acorns']}" in out
        for pile in p["piles"]:
            assert card(pile["top"]) in out
        for token in p["objectives"]:
            assert view["objective_texts"][token]["name"] in out
    assert f"{view['players']['bob']['hand_size']} card" in out


@pytest.mark.parametrize("game", GAMES)
def test_replay_draws_pictures_too(cli, game):
    out = ok(cli("replay", EXAMPLES / game / "game", "--at", "10", "--pictures")).out
    assert out.startswith("entry #10 of ") and "╭" in out
    assert "╭" not in ok(cli("replay", EXAMPLES / game / "game", "--at", "10", "--plain")).out


@pytest.mark.parametrize("game", GAMES)
def test_plain_is_the_engines_text_lines(cli, game):
    """--plain prints what show printed before pictures: header, turn, render() lines."""
    path = EXAMPLES / game / "game" / "players" / "alice" / "state.json"
    state = json.loads(path.read_text())
    lines = registry.get(game).render(state["view"], "alice")
    out = ok(cli("show", path, "--plain")).out.splitlines()
    start = out.index(lines[0])
    assert out[start : start + len(lines)] == lines
    assert out[0].startswith(f"{state['game']} · {game} ")
    assert not any("╭" in line for line in out)


def test_show_draws_pictures_only_on_a_terminal(cli, monkeypatch):
    path = MOTTAINAI / "public" / "state.json"
    plain = ok(cli("show", path)).out
    assert "╭" not in plain and plain == ok(cli("show", path, "--plain")).out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    drawn = ok(cli("show", path)).out
    assert "╭" in drawn and "Floor" in drawn
    assert "╭" not in ok(cli("show", path, "--plain")).out


def test_cards_are_painted_in_their_materials_colours():
    # A process of its own: rich keeps each style's escape codes from its first use.
    env = {**subprocess_env(), "FORCE_COLOR": "1", "COLORTERM": "truecolor"}
    env.pop("NO_COLOR", None)
    args = ["replay", MOTTAINAI, "--at", "20", "--pictures"]
    done = subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    for card in _frame("mottainai", "20", None)["view"]["floor"]:
        row = INSTANCES[card]
        background, text = MATERIAL_COLOURS[row.material]
        rgb = [";".join(str(int(c[i : i + 2], 16)) for i in (1, 3, 5)) for c in (text, background)]
        assert f"38;2;{rgb[0]};48;2;{rgb[1]}m {row.name} {row.value} " in done.stdout


def test_strings_from_a_state_file_print_literally(cli, tmp_path):
    state = _frame("momiji", "-5", "alice")
    token = state["view"]["objectives"][0]
    state["view"]["objective_texts"][token]["name"] = "[bold red]boom[/] \x1b[2J"
    out = ok(cli("show", _write(tmp_path, state), "--pictures")).out
    assert "[bold red]boom[/] \\x1b[2J" in out and "\x1b" not in out


def test_a_view_the_picture_cannot_read_is_refused_in_one_line(cli, tmp_path):
    state = _frame("mottainai", "21", "bob")  # alice chooses her task, seen by bob
    state["view"]["floor"][0] = "no-such-card"
    result = cli("show", _write(tmp_path, state), "--pictures")
    assert "names a card this game does not have" in error_line(result, 4)
    assert result.out == ""


@pytest.mark.parametrize(
    ("game", "at"),
    [
        ("mottainai", "20"),
        ("momiji", "30"),
        pytest.param("motcoin", "60", marks=pytest.mark.slow),  # 6 s: its view lists every card
    ],
)
def test_pictures_survive_any_one_changed_view_value(game, at):
    """Every leaf of the view replaced in turn by an unknown name, a number or null: a
    picture or a SchemaViolation, never another error."""
    from rich.console import Console

    base = _frame(game, at, "alice")
    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, where: tuple[Any, ...]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*where, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*where, index))
        else:
            paths.append(where)

    walk(base["view"], ())
    console = Console(file=io.StringIO(), width=100, markup=False, emoji=False)
    for where in paths:
        for replacement in ("no-such-card", -1, None):
            state = json.loads(json.dumps(base))
            node = state["view"]
            for key in where[:-1]:
                node = node[key]
            node[where[-1]] = replacement
            try:
                drawn = pictures.draw(state)
            except SchemaViolation:
                continue
            for part in drawn or []:
                console.print(part)
