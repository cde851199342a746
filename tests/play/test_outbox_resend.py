"""Nothing is half-sent (issue 26, item 2): a move whose delivery fails stays in the
player's outbox, and the next ``arbiter play`` offers to send it again."""

from __future__ import annotations

import json

from git.gitkit import GAME, GIT_ENV, make_world

from arbiter.play import terminal
from arbiter.play.outbox import Outbox


def test_a_failed_push_waits_in_the_outbox_and_is_sent_next_time(tmp_path, cli, monkeypatch):
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    world = make_world(tmp_path / "w", "momiji", ("alice", "bob"), game_id="resend")
    seat = json.loads((world.secret / "public" / "state.json").read_bytes())["prompt"]["seat"]
    clone = world.player(seat, pull=False).clone
    assert cli("play", "add", clone / GAME / "game.json", "--seat", seat, "--key",
               world.keys[seat], "--via", "git").code == 0
    head_before = world.head()
    # The remote refuses pushes (a hook: a server down for maintenance) while the player
    # sends: it still lets the player pull, so the move is signed, then not delivered.
    hook = world.bare / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'closed for maintenance' >&2\nexit 1\n")
    hook.chmod(0o755)
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: "y" if "[y" in prompt else "1")
    failed = cli("play", "resend")
    assert failed.code in (2, 17) and failed.err.count("\n") == 1, failed.err
    assert "closed for maintenance" in failed.err
    hook.unlink()
    pending = Outbox("resend").pending()
    assert len(pending) == 1 and pending[0][1]["seat"] == seat  # kept, plain, signed
    assert world.head() == head_before
    # Next time: offered, sent, accepted by the desk.
    asked = []
    monkeypatch.setattr(terminal, "ask_line", lambda prompt: asked.append(prompt) or "y"
                        if "not delivered" in prompt else "q")
    again = cli("play", "resend")
    assert again.code == 0, again.err
    assert any("was signed but not delivered: send it now?" in p for p in asked)
    assert f"sent {pending[0][0].name}: pushed" in again.out
    assert Outbox("resend").pending() == []
    world.round()
    public = json.loads((world.secret / "public" / "state.json").read_bytes())
    assert public["seq"] == 3  # two joins, then the move sent the second time
