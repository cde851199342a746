"""A seat handed over through the git desk (issue 27, item 4): the leaving player pushes
a sealed handover; from the next entry on the desk publishes the seat's files sealed to
the substitute's key, and only the substitute's moves are taken."""

from __future__ import annotations

import pytest
from helpers.tables import make_keys

from arbiter.core.errors import UsageError
from arbiter.core.life_files import make_handover
from arbiter.core.player import load_state, seal_move
from arbiter.core.signing import public_key_of
from git.gitkit import World


def test_a_handover_pushed_to_the_inbox_reseals_the_seat(world: World) -> None:
    dave = make_keys(world.tmp / "more-keys", ["dave"])["dave"]
    bob = world.player("bob")
    handover = make_handover(bob.state(), bob.key, public_key_of(dave))
    bob.push_file("handover.json.age", seal_move(handover, bob.folder / "game.json"))
    result = world.round()
    assert [h.accepted for h in result.files] == [True], result

    substitute = world.player("bob")
    substitute.key = dave  # the same clone, now read with dave's key
    state_file = substitute.folder / "players" / "bob" / "state.json.age"
    state = load_state(state_file, dave)
    assert state["keys"]["bob"] == public_key_of(dave)
    with pytest.raises(UsageError, match="is not sealed to"):
        load_state(state_file, world.keys["bob"])  # the old key opens nothing new

    alice = world.player("alice")
    for n in range(20):
        if alice.state()["prompt"]["seat"] == "bob":
            break
        alice.push_file(f"m{n}.json.age", alice.move())
        assert [h.accepted for h in world.round().files] == [True]
        alice.pull()
    # bob's old key: refused; dave's: taken.
    substitute.pull()
    substitute.push_file("old.json.age", _move_with(substitute, dave, world.keys["bob"]))
    assert [h.accepted for h in world.round().files] == [False]
    substitute.pull()
    substitute.push_file("bob.json.age", substitute.move())
    assert [h.accepted for h in world.round().files] == [True]


def _move_with(player: object, opener: object, signer: object) -> bytes:
    """A move read with the key that opens the state file, signed by another."""
    from arbiter.core.player import make_move

    folder = player.folder  # type: ignore[attr-defined]
    state = load_state(folder / "players" / "bob" / "state.json.age", opener)  # type: ignore[arg-type]
    return seal_move(make_move(state, signer, [state["legal"][0]]), folder / "game.json")  # type: ignore[arg-type]
