"""The git desk judges what players push to the inbox (issue 12, items 5 and 8)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time  # noqa: TID251 (the test waits for a real process)

from git.gitkit import World, arbiter, cli_env, git

REFEREE = "arbiter referee <referee@sealed-git.invalid>"


def test_first_round_publishes_the_game(world: World) -> None:
    log = world.log()
    assert [c["subject"] for c in log] == ["publish: game sealed-git from the referee's record"]
    assert log[0]["author"] == log[0]["committer"] == REFEREE
    world.assert_published()
    published = world.remote_files()
    assert "receipts/entry-1.json" in published and "receipts/entry-2.json" in published
    assert not any(p.startswith("referee/") for p in published)
    assert all(
        data.startswith(b"age-encryption.org/v1\n")
        for path, (_, data) in published.items()
        if path.startswith("players/")
    )
    assert git(world.referee, "status", "--porcelain") == ""
    assert git(world.referee, "rev-parse", "HEAD") == world.head()


def test_a_move_pushed_to_the_inbox_is_judged_by_the_real_command(world: World) -> None:
    alice = world.player("alice")
    before = world.head()
    alice.push_file("m1.json.age", alice.move())
    done = world.run()
    assert done.returncode == 0, done.stderr
    assert "inbox/m1.json.age: accepted as entry #3 (move by alice)" in done.stdout
    assert "pushed 1 commit(s)" in done.stdout
    log = world.log()
    assert log[0]["subject"] == "entry #3: move by alice"
    assert log[0]["author"] == log[0]["committer"] == REFEREE
    assert log[1]["subject"] == "alice: m1.json.age" and log[2]["sha"] == before
    assert world.inbox() == []
    assert world.receipt("m1.json.age") == "accepted as entry #3 (move by alice)"
    world.assert_published()
    assert world.remote_files()["receipts/entry-3.json"][1] == world.gd.receipt(3).read_bytes()
    # The referee's clone ends clean, at the pushed commit.
    assert git(world.referee, "status", "--porcelain") == ""
    assert git(world.referee, "rev-parse", "HEAD") == world.head()
    # Anyone's clone verifies; alice reads her new state from her own clone.
    alice.pull()
    verified = arbiter("verify", alice.folder)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert alice.state()["head"] == json.loads(world.gd.chain.read_text().splitlines()[-1])["hash"]


def test_files_are_taken_in_the_order_of_the_commit_that_first_added_them(world: World) -> None:
    alice = world.player("alice")
    first, second = alice.move([{"kind": "draw"}]), alice.move()
    # b.json.age is added first (a draft), a.json.age next, then b gets its final content:
    # b counts from its first commit, so it is judged first although its name sorts last.
    alice.push_file("b.json.age", b"draft", "alice: draft")
    alice.push_file("a.json.age", second, "alice: second move")
    alice.push_file("c.json", b"{not json", "alice: c")
    alice.push_file("b.json.age", first, "alice: first move, final")
    result = world.round()
    assert [(h.file, h.accepted) for h in result.files] == [
        ("inbox/b.json.age", True),
        ("inbox/a.json.age", False),
        ("inbox/c.json", False),
    ]
    subjects = [c["subject"] for c in world.log(count=2)]
    assert subjects == ["inbox: 2 file(s) rejected", "entry #3: move by alice"]
    assert world.receipt("b.json.age") == "accepted as entry #3 (move by alice)"
    assert world.receipt("a.json.age").startswith("rejected (exit 8, stale): the reason is sealed")
    assert world.receipt("c.json").startswith("rejected (exit 3, malformed): inbox/c.json is neither")
    assert world.inbox() == []
    world.assert_published()


def test_rejections_ride_in_the_next_entry_commit(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("junk.txt", b"hello")
    alice.push_file("move.json.age", alice.move())
    world.round()
    log = world.log(count=1)[0]
    assert log["subject"] == "entry #3: move by alice"
    assert "inbox/junk.txt: rejected (exit 3, malformed)" in log["body"]
    assert "inbox/move.json.age: accepted as entry #3" in log["body"]
    assert world.inbox() == []


def test_an_idle_round_changes_nothing(world: World) -> None:
    head = world.head()
    done = world.run()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "nothing to do: the inbox is empty and the repository is up to date"
    assert world.head() == head
    as_json = world.run("--json")
    round_ = json.loads(as_json.stdout)
    assert round_["files"] == [] and round_["commits"] == [] and round_["pushed"] is None


def test_files_outside_the_game_folder_are_the_players_business(world: World) -> None:
    alice = world.player("alice")
    (alice.clone / "chat.md").write_text("good luck!\n")
    (alice.clone / "games" / "notes.txt").write_text("mine\n")
    git(alice.clone, "add", "chat.md", "games/notes.txt")
    git(alice.clone, "commit", "-q", "-m", "chat")
    alice.push_file("m.json.age", alice.move())
    world.round()
    top = git(world.bare, "ls-tree", "--name-only", "main")
    assert "chat.md" in top.split("\n")
    assert git(world.bare, "show", "main:games/notes.txt") == "mine"
    world.assert_published()


def test_without_push_the_commits_stay_in_the_clone(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("m.json.age", alice.move())
    head = world.head()
    result = world.round(push=False)
    assert result.pushed is None and len(result.commits) == 1
    assert world.head() == head
    assert git(world.referee, "log", "-1", "--format=%s") == "entry #3: move by alice"
    # A later pushing round publishes it: the file left in the inbox is the same entry.
    later = world.round()
    assert [h.line for h in later.files] == ["accepted as entry #3 (move by alice)"]
    assert world.inbox() == []
    world.assert_published()


def test_the_loop_stops_cleanly_on_sigterm(world: World) -> None:
    alice = world.player("alice")
    process = subprocess.Popen(
        [sys.executable, "-m", "arbiter", "git", "run", str(world.referee), "--game",
         world.game, "--secret-dir", str(world.secret), "--push", "--interval", "0.2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(),
    )
    try:
        alice.push_file("m.json.age", alice.move())
        for _ in range(200):
            if world.log(count=1)[0]["subject"].startswith("entry #3"):
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "inbox/m.json.age: accepted as entry #3 (move by alice)" in out
    world.assert_published()


def test_a_game_moved_to_another_repository_starts_afresh_there(world: World) -> None:
    bare = world.tmp / "elsewhere.git"
    git(world.tmp, "init", "-q", "--bare", "-b", "main", str(bare))
    clone = world.tmp / "elsewhere"
    git(world.tmp, "clone", "-q", str(bare), str(clone))
    result = world.desk(repo=clone).round()
    assert not result.restored
    assert git(bare, "log", "--format=%s", "main") == (
        "publish: game sealed-git from the referee's record"
    )
    assert git(bare, "log", "--format=%P", "main") == ""  # a root commit: no history merged in
    # Back in the first repository, the desk knows nothing was rewritten there either.
    assert not world.round().restored
