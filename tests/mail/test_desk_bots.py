"""A seat the mail desk plays with a bot: after a player's entry the desk lets the bot
move from its own state file and mails everyone the new entry (real Dovecot and SMTP)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_move
from arbiter.core.referee import new_game, submit
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config


def test_the_desk_plays_a_bot_seat(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay,
                                   new_user) -> None:
    referee, alice = new_user("referee"), new_user("alice")
    games = tmp_path / "games"
    games.mkdir()
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    folder = games / "bots"
    new_game(folder, "mottainai", [(s, f"{keys[s]}.pub") for s in keys], {}, game_id="bots",
             join=False, created="2026-12-01T00:00:00Z")
    store(folder, "alice", alice.address)
    done = subprocess.run([sys.executable, "-m", "arbiter", "mail", "bot", str(folder), "bob",
                           "--level", "greedy", "--key", str(keys["bob"])],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "bob" in json.loads((folder / "referee" / "bots.json").read_bytes())["seats"]
    wrong = subprocess.run([sys.executable, "-m", "arbiter", "mail", "bot", str(folder), "bob",
                            "--key", str(keys["alice"])], capture_output=True, text=True, check=False)
    assert wrong.returncode == 2 and "not the key registered for seat bob" in wrong.stderr
    config = load(desk_config(tmp_path, dovecot, smtp_relay, referee, games))
    # Alice moves by hand, the desk answers for bob each time. Until bob has moved: the
    # deal is random, and alice may have a dozen decisions in a row (a TAILOR task that
    # returns card after card).
    for _ in range(60):
        public = load_state(folder / "public" / "state.json")
        if public["status"] != "playing" or _moves(folder, "bob") >= 2:
            break
        if public["prompt"]["seat"] == "alice":
            state = load_state(folder / "players" / "alice" / "state.json")
            submit(folder, pretty(make_move(state, keys["alice"], [state["legal"][0]])), "a.json")
        desk = MailDesk(config)
        desk.run(once=True)
        public = load_state(folder / "public" / "state.json")
        assert public["status"] != "playing" or public["prompt"]["seat"] == "alice"
    chain = [json.loads(line) for line in (folder / "chain.jsonl").read_text().splitlines()]
    assert {e["seat"] for e in chain if e["kind"] == "move"} == {"alice", "bob"}
    titles = [str(m["Subject"]) for m in Mailbox(dovecot, alice.name, alice.password).messages()]
    bob_moves = [e["seq"] for e in chain if e["seat"] == "bob"]
    assert any(f"entry #{bob_moves[-1]} — your files (alice)" in t for t in titles), titles


def _moves(folder: Path, seat: str) -> int:
    chain = [json.loads(line) for line in (folder / "chain.jsonl").read_text().splitlines()]
    return sum(1 for e in chain if e["kind"] == "move" and e["seat"] == seat)


def test_a_bot_seat_answers_a_proposal_to_end(tmp_path: Path, dovecot: Dovecot,
                                              smtp_relay: SmtpRelay, new_user) -> None:
    """Issue 27: a proposal to end the game waits for the bot's seat; the desk has the bot
    answer it by its evaluation (docs/bots.md, "Ending by agreement") and mails the entry."""
    from arbiter.bots.agreement import accepts_end
    from arbiter.bots.levels import bot_rng
    from arbiter.core.life_files import make_propose_end
    from arbiter.core.registry import get
    from arbiter.desks.mail import bots

    referee, alice = new_user("referee"), new_user("alice")
    games = tmp_path / "games"
    games.mkdir()
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    folder = games / "agree"
    new_game(folder, "momiji", [(s, f"{keys[s]}.pub") for s in keys], {}, game_id="agree",
             join=False, created="2026-12-01T00:00:00Z")
    store(folder, "alice", alice.address)
    done = subprocess.run([sys.executable, "-m", "arbiter", "mail", "bot", str(folder), "bob",
                           "--key", str(keys["bob"])], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    state = load_state(folder / "players" / "alice" / "state.json")
    submit(folder, pretty(make_propose_end(state, keys["alice"], "score")), "end.json")
    bob = load_state(folder / "players" / "bob" / "state.json")
    seed = bots.load(GameDir(folder))["bob"].seed
    expected = accepts_end(get("momiji"), bob, bot_rng(seed, bob))
    config = load(desk_config(tmp_path, dovecot, smtp_relay, referee, games))
    MailDesk(config).run(once=True)
    chain = [json.loads(line) for line in (folder / "chain.jsonl").read_text().splitlines()]
    assert chain[2]["kind"] == "answer" and chain[2]["seat"] == "bob"
    public = load_state(folder / "public" / "state.json")
    assert public["status"] == ("over" if expected else "playing")
    assert public.get("pending") is None
    titles = [str(m["Subject"]) for m in Mailbox(dovecot, alice.name, alice.password).messages()]
    said = "game over — your files (alice)" if expected else "entry #2 — your files (alice)"
    assert any(said in t for t in titles), titles
