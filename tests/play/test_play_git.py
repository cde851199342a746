"""Whole games through ``arbiter play`` through a shared git repository (issue 26, item
7): a real bare repository, the referee's clone and its git desk, and one clone per
player; each player adds the game from the game.json in its own clone, joins when asked
and plays by numbers and card names (its files sealed to its key, its moves sealed to the
referee, pushed by ``arbiter play``). Then reveal and verify."""

from __future__ import annotations

import pytest
from git.gitkit import GAME, GIT_ENV, make_world

from .e2e import Players, play_to_the_end, waiting_in

GAMES = [
    pytest.param("mottainai", ("alice", "bob"), marks=pytest.mark.slow),
    pytest.param("momiji", ("alice", "bob"), marks=[pytest.mark.slow, pytest.mark.full]),
    # ~2 minutes on two cores: benchmarks/full.sh runs it.
    pytest.param("motcoin", ("alice", "bob", "carol"), marks=[pytest.mark.slow, pytest.mark.full]),
]


@pytest.mark.parametrize(("engine", "seats"), GAMES)
def test_a_whole_game_through_git(engine, seats, tmp_path, cli, monkeypatch, capsys,
                                  stop: int | None = None) -> None:
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    game_id = f"git-{engine}"
    world = make_world(tmp_path / "w", engine, seats, game_id=game_id, joined=False)
    players = Players(tmp_path, list(seats), monkeypatch, capsys, f"git/{engine}")
    for seat in seats:
        clone = world.player(seat, pull=False).clone
        players.be(seat)
        added = cli("play", "add", clone / GAME / "game.json", "--seat", seat,
                    "--key", world.keys[seat], "--via", "git")
        assert added.code == 0, added.err

    def desk_round() -> None:
        world.round()

    runs = play_to_the_end(players, cli, game_id, waiting_in(world.secret), desk_round, stop)
    if stop is not None:
        assert runs == stop and cli("verify", world.secret).code == 0  # the chain so far
        return
    assert runs >= 10
    world.assert_published()
    assert cli("reveal", world.secret).code == 0
    verified = cli("verify", world.secret)
    assert verified.code == 0, verified.err


def test_joins_and_first_moves_through_git(tmp_path, cli, monkeypatch, capsys) -> None:
    """The default suite's sample: both joins and a few decisions, then the chain verifies."""
    test_a_whole_game_through_git("momiji", ("alice", "bob"), tmp_path, cli, monkeypatch,
                                  capsys, stop=6)
