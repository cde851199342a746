"""Players can push anything: the desk trusts only its own record (issue 12, items 5, 6, 8)."""

from __future__ import annotations

import os
from pathlib import Path

from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.player import make_move, seal_move
from arbiter.core.replay import verify
from arbiter.core.sealing import is_sealed, unpad, unseal
from git.gitkit import Player, World, git


def verified(world: World, player: Player) -> None:
    """The repository ends as the referee published it, and a player's clone verifies."""
    world.assert_published()
    player.pull()
    verify(player.folder)


def test_a_forged_move_is_rejected_and_its_reason_sealed_to_the_seat_it_names(
    world: World, tmp_path: Path
) -> None:
    mallory_key = make_keys(tmp_path / "mallory", ["mallory"])["mallory"]
    alice = world.player("alice")
    forged = make_move(alice.state(), mallory_key, [alice.state()["legal"][0]])
    alice.push_file("forged.json.age", seal_move(forged, alice.folder / "game.json"))
    result = world.round()
    assert [h.accepted for h in result.files] == [False]
    public = world.receipt("forged.json.age")
    assert public == (
        "rejected (exit 7, bad-signature): the reason is sealed to alice: "
        "receipts/forged.json.age.txt.age"
    )
    sealed = world.remote_files()["receipts/forged.json.age.txt.age"][1]
    reason = unpad(unseal(sealed, world.keys["alice"], "receipt")).decode()
    assert reason.startswith("rejected (exit 7, bad-signature): inbox/forged.json.age: ")
    assert world.inbox() == []
    assert world.log(count=1)[0]["subject"] == "inbox: 1 file(s) rejected"
    verified(world, alice)


def test_an_illegal_decision_is_explained_only_to_its_seat(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("bad.json.age", alice.move([{"kind": "play", "card": 999}]))
    world.round()
    assert "999" not in world.receipt("bad.json.age")
    sealed = world.remote_files()["receipts/bad.json.age.txt.age"][1]
    reason = unpad(unseal(sealed, world.keys["alice"], "receipt")).decode()
    assert reason.startswith("rejected (exit 12, illegal):") and "999" in reason


def test_a_plaintext_move_in_a_sealed_game_is_refused(world: World) -> None:
    alice = world.player("alice")
    move = make_move(alice.state(), alice.key, [alice.state()["legal"][0]])
    alice.push_file("plain.json", pretty(move))
    result = world.round()
    assert [h.accepted for h in result.files] == [False]
    assert world.receipt("plain.json") == (
        "rejected (exit 4, schema): inbox/plain.json: plain move files in a sealed game expose "
        "private decisions to the other players: seal it with `arbiter move --seal`"
    )
    assert world.inbox() == []
    assert world.gd.chain.read_text().count("\n") == 3  # genesis and two joins: nothing new
    verified(world, alice)


def test_a_plain_join_is_judged_like_any_file(world: World) -> None:
    from arbiter.core.player import make_join

    alice = world.player("alice")
    join = make_join(alice.folder / "game.json", "alice", alice.key)
    alice.push_file("join.json", pretty(join))
    world.round()
    receipt = world.receipt("join.json")
    assert receipt.startswith("rejected (exit 9, duplicate)") or "already-joined" in receipt
    assert "plain move files" not in receipt


def test_a_symlink_in_the_inbox_is_refused_without_being_followed(world: World) -> None:
    alice = world.player("alice")
    inbox = alice.folder / "inbox"
    inbox.mkdir()
    os.symlink("../../../../keys/alice", inbox / "link.json")
    os.symlink("/etc/passwd", inbox / "abs.json")
    git(alice.clone, "add", "-A")
    git(alice.clone, "commit", "-q", "-m", "links")
    alice.push()
    result = world.round()
    assert [(h.file, h.accepted) for h in result.files] == [
        ("inbox/abs.json", False),
        ("inbox/link.json", False),
    ]
    assert world.receipt("link.json") == (
        "rejected (exit 3, malformed): inbox/link.json is a symbolic link: push the signed "
        "file itself into the inbox"
    )
    assert world.inbox() == []
    verified(world, alice)


def test_an_edited_chain_is_rebuilt_and_the_repair_says_so(world: World) -> None:
    alice = world.player("alice")
    chain = alice.folder / "chain.jsonl"
    chain.write_text(chain.read_text().replace("alice", "mallory"))
    git(alice.clone, "commit", "-q", "-am", "I won")
    alice.push()
    world.round()
    log = world.log(count=1)[0]
    assert log["subject"] == (
        "repair: files outside the inbox rebuilt from the referee's record (chain.jsonl)"
    )
    verified(world, alice)


def test_a_deleted_state_file_and_an_extra_file_are_repaired_before_judging(world: World) -> None:
    alice = world.player("alice")
    git(alice.clone, "rm", "-q", f"{world.game}/players/bob/state.json.age")
    (alice.folder / "public" / "extra.json").write_text("{}\n")
    (alice.folder / "players" / "bob" / "state.json").write_text('{"hand": "made up"}\n')
    git(alice.clone, "add", "-A")
    git(alice.clone, "commit", "-q", "-m", "mess")
    alice.push_file("m.json.age", alice.move())
    world.round()
    subjects = [c["subject"] for c in world.log(count=2)]
    assert subjects == [
        "entry #3: move by alice",
        "repair: files outside the inbox rebuilt from the referee's record "
        "(players/bob/state.json, players/bob/state.json.age, public/extra.json)",
    ]
    verified(world, alice)


def test_a_force_push_that_drops_the_referees_commits_is_restored(world: World) -> None:
    alice, bob = world.player("alice"), world.player("bob")
    alice.push_file("m.json.age", alice.move())
    world.round()
    referee_commit = world.head()
    # bob rewrites the branch to before alice's entry and forces it over the remote.
    bob.pull()
    git(bob.clone, "reset", "-q", "--hard", "HEAD~2")
    (bob.clone / "history.md").write_text("what entry?\n")
    git(bob.clone, "add", "history.md")
    git(bob.clone, "commit", "-q", "-m", "rewrite")
    git(bob.clone, "push", "-q", "--force", "origin", "HEAD:main")
    assert not git(world.bare, "merge-base", "--is-ancestor", referee_commit, "main", check=False)
    result = world.round()
    assert result.restored
    restore = world.log(count=1)[0]
    assert restore["subject"] == "restore: the branch was rewritten; the referee's commits are restored"
    assert restore["parents"].split() == [git(bob.clone, "rev-parse", "HEAD"), referee_commit]
    git(world.bare, "merge-base", "--is-ancestor", referee_commit, "main")
    assert git(world.bare, "show", "main:history.md") == "what entry?"
    verified(world, alice)
    # The next move goes on as usual.
    alice.push_file("m2.json.age", alice.move())
    world.round()
    assert world.log(count=1)[0]["subject"] == "entry #4: move by alice"


def test_a_deleted_branch_is_pushed_again(world: World) -> None:
    git(world.bare, "update-ref", "-d", "refs/heads/main")
    result = world.round()
    assert result.restored and result.pushed
    world.assert_published()


def test_sealed_files_stay_sealed_in_the_repository(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("m.json.age", alice.move())
    world.round()
    for path, (_, data) in world.remote_files().items():
        if path.startswith("players/") or path.endswith(".age"):
            assert is_sealed(data), path


def test_hostile_names_in_the_inbox_get_receipts_named_by_their_hash(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("we ird\tname\u202e.json", b"x")
    alice.push_file("nested/deeper/m.json.age", alice.move())
    result = world.round()
    assert [(h.accepted, h.file) for h in result.files] == [
        (False, "inbox/we ird\\tname\\u202e.json"),
        (True, "inbox/nested/deeper/m.json.age"),
    ]
    receipts = sorted(p for p in world.remote_files() if p.startswith("receipts/") and ".txt" in p)
    assert receipts[0].startswith("receipts/file-") and receipts[0].endswith(".txt")
    assert "receipts/nested/deeper/m.json.age.txt" in receipts
    assert world.inbox() == []
    world.assert_published()


def test_a_file_where_the_game_folder_belongs_is_replaced(world: World) -> None:
    alice = world.player("alice")
    git(alice.clone, "rm", "-r", "-q", "games")
    (alice.clone / "games").write_text("no more game\n")
    git(alice.clone, "add", "games")
    git(alice.clone, "commit", "-q", "-m", "gone")
    alice.push()
    world.round()
    assert world.log(count=1)[0]["subject"].startswith("repair: ")
    verified(world, alice)


def test_gitkeep_is_left_alone(world: World) -> None:
    alice = world.player("alice")
    alice.push_file(".gitkeep", b"")
    result = world.round()
    assert result.files == [] and world.inbox() == ["inbox/.gitkeep"]
