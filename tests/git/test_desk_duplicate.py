"""A git desk serving one table of a duplicate round (docs/duplicate.md): the deal entry is
appended outside the desk (`arbiter tournament deal`, or the core's deal_ready as here),
and the desk's next round publishes it — the repository then holds exactly the referee's
dealt folder, and the seat's sealed state file says the game is being played."""

from __future__ import annotations

from pathlib import Path

from helpers.tables import CREATED, REFEREE_SEED, make_keys

from arbiter.core.canonical import pretty
from arbiter.core.player import make_join
from arbiter.core.referee import deal_ready, new_game, submit
from arbiter.core.rng import commitment
from git.gitkit import GAME, World, git

GROUP_SECRET = bytes(range(32))


def test_the_desk_publishes_a_deal_it_did_not_make(tmp_path: Path) -> None:
    tables = {"dup-r1-t1": ["alice", "bob"], "dup-r1-t2": ["carol", "dave"]}
    keys = make_keys(tmp_path / "keys", [s for seats in tables.values() for s in seats])
    terms = {"group": "dup-r1-s2", "commitment": commitment(GROUP_SECRET), "games": list(tables)}
    folders = {
        "dup-r1-t1": tmp_path / "secret" / "g1",  # the table this repository serves
        "dup-r1-t2": tmp_path / "other" / "g2",
    }
    for game, seats in tables.items():
        new_game(folders[game], "momiji", [(s, f"{keys[s]}.pub") for s in seats], {},
                 game_id=game, created=CREATED, secret=bytes([len(game)]) * 32,
                 referee_seed=REFEREE_SEED, sealed=True, deal=(terms, GROUP_SECRET))  # fmt: skip
        for seat in seats:
            made = make_join(folders[game] / "game.json", seat, keys[seat])
            submit(folders[game], pretty(made), f"join-{seat}.json")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    referee = tmp_path / "referee-clone"
    git(tmp_path, "clone", "-q", str(bare), str(referee))
    world = World(tmp_path, bare, referee, folders["dup-r1-t1"], {s: keys[s] for s in tables["dup-r1-t1"]},
                  tables["dup-r1-t1"])  # fmt: skip
    world.round()
    world.assert_published()
    alice = world.player("alice")
    assert alice.state()["status"] == "joining"
    dealt = deal_ready(folders)
    assert sorted(path.name for path, _ in dealt) == ["g1", "g2"]
    result = world.round()
    assert result.commits, "the desk published nothing after the deal"
    world.assert_published()
    alice = world.player("alice")
    state = alice.state()
    assert state["status"] == "playing" and state["seq"] == 3
    assert (alice.clone / GAME / "chain.jsonl").read_text().count('"kind":"deal"') == 1
