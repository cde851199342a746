"""examples/git-referee: the two CI workflows, checked as files and run as shell.

Both workflows (GitHub Actions, Forgejo/Gitea Actions) must

- parse as YAML and run on pushes to main that touch a game's inbox, one run at a time,
  with a token that may push (``contents: write``);
- run the git desk as it exists: ``arbiter git run . --game games/... --secret-dir ...
  --once --push``, every option of it listed by ``arbiter git run --help``, from a full
  clone (the desk orders inbox files by commit and notices rewritten history);
- force nothing;
- and keep the referee's record safe. Their shell steps run here for real, with the real
  desk, against repositories on disk: the record reaches its private repository before
  any entry it holds reaches the shared one (the shared repository refuses it otherwise),
  and a run whose record save is refused (another run saved first) publishes nothing.

The README beside them must explain every secret and variable they read.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from git.gitkit import GAME, cli_env, git, make_world
from helpers.tools import needs

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "git-referee"
WORKFLOWS = {"github": EXAMPLES / "github-actions.yml", "forgejo": EXAMPLES / "forgejo-actions.yml"}
FLAVOURS = sorted(WORKFLOWS)
STOPS = {"||", "&&", ";", "|"}
needs_git = needs("git", "the workflows are run against real repositories")


def load(flavour: str) -> dict[str, Any]:
    doc = yaml.safe_load(WORKFLOWS[flavour].read_text(encoding="utf-8"))
    assert isinstance(doc, dict), f"{WORKFLOWS[flavour].name} is not a YAML mapping"
    return doc


def triggers(doc: dict[str, Any]) -> dict[str, Any]:
    """Return the ``on:`` block (YAML 1.1, as PyYAML reads it, turns the key ``on`` into True)."""
    found = doc.get("on", doc.get(True))
    assert isinstance(found, dict), "the workflow needs an on: mapping"
    return found


def steps(doc: dict[str, Any]) -> list[dict[str, Any]]:
    jobs = list(doc["jobs"].values())
    assert len(jobs) == 1, "one job: the desk"
    return list(jobs[0]["steps"])


def shell_lines(script: str) -> list[str]:
    """Return the lines of a run: script with backslash continuations joined."""
    return script.replace("\\\n", " ").splitlines()


def desk_commands(doc: dict[str, Any]) -> list[tuple[dict[str, Any], list[str]]]:
    """Return (step, argv) for every ``arbiter git run`` in the workflow's run: scripts."""
    found = []
    for step in steps(doc):
        for line in shell_lines(step.get("run", "")):
            if "arbiter git run" not in line:
                continue
            words = shlex.split(line[line.index("arbiter git run") :])
            cut = next((i for i, word in enumerate(words) if word in STOPS), len(words))
            found.append((step, words[:cut]))
    return found


def option(argv: list[str], name: str) -> str:
    assert name in argv, f"the desk command lacks {name}: {shlex.join(argv)}"
    return argv[argv.index(name) + 1]


# -- the files -----------------------------------------------------------------------------


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_runs_on_pushes_to_the_inbox(flavour: str) -> None:
    on = triggers(load(flavour))
    push = on["push"]
    assert push["branches"] == ["main"]
    paths = push["paths"]
    assert paths and all(p.startswith("games/") and "/inbox/" in p for p in paths), paths
    assert "workflow_dispatch" in on, "the first round (publishing the game) is started by hand"


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_one_desk_at_a_time_with_a_token_that_may_push(flavour: str) -> None:
    doc = load(flavour)
    job = next(iter(doc["jobs"].values()))
    concurrency = job.get("concurrency", doc.get("concurrency"))
    assert concurrency == {"group": "arbiter-referee", "cancel-in-progress": False}
    assert job.get("permissions", doc.get("permissions")) == {"contents": "write"}


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_step_runs_the_git_desk_once_and_pushes(flavour: str) -> None:
    doc = load(flavour)
    commands = desk_commands(doc)
    assert commands, "no step runs `arbiter git run`"
    checkouts = [s for s in steps(doc) if str(s.get("uses", "")).startswith("actions/checkout@")]
    assert len(checkouts) == 1
    checkout = checkouts[0]["with"]
    assert checkout["fetch-depth"] == 0, "the desk needs the whole history, not a shallow clone"
    for step, argv in commands:
        assert argv[:4] == ["arbiter", "git", "run", "."], argv
        assert step["working-directory"] == checkout["path"], "run the desk in the checkout"
        assert "--once" in argv and "--push" in argv
        assert option(argv, "--game").startswith("games/")
        assert option(argv, "--secret-dir").startswith("$ARBITER_WORK/"), "outside the checkout"


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_nothing_is_forced(flavour: str) -> None:
    text = WORKFLOWS[flavour].read_text(encoding="utf-8")
    assert "--force" not in text
    for line in shell_lines(text):
        if "git push" in line:
            words = line[line.index("git push") :].split()
            assert "-f" not in words and not any(w.startswith("+") for w in words), line


def test_both_workflows_run_the_same_desk_and_the_same_record_steps() -> None:
    github, forgejo = load("github"), load("forgejo")
    assert [argv for _, argv in desk_commands(github)] == [
        argv for _, argv in desk_commands(forgejo)
    ]
    assert github["env"] == forgejo["env"]
    for key in ("on", True, "permissions", "concurrency"):
        assert github.get(key) == forgejo.get(key), key

    def record_steps(doc: dict[str, Any]) -> list[dict[str, Any]]:
        return [s for s in steps(doc) if "uses" not in s and "pip install" not in s["run"]]

    assert record_steps(github) == record_steps(forgejo)


def test_readme_explains_every_secret_and_variable() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for flavour in FLAVOURS:
        text = WORKFLOWS[flavour].read_text(encoding="utf-8")
        assert WORKFLOWS[flavour].name in readme
        for name in re.findall(r"\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}", text):
            assert f"`{name}`" in readme, f"README.md does not explain {name}"
    for folder in (".github/workflows/", ".forgejo/workflows/", ".gitea/workflows/"):
        assert folder in readme


# -- the command ---------------------------------------------------------------------------


def test_the_desk_command_exists_with_every_option_the_workflows_use() -> None:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    result = subprocess.run(
        [sys.executable, "-m", "arbiter", "git", "run", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"`arbiter git run --help` failed:\n{result.stderr}"
    used = {
        word for flavour in FLAVOURS for _, argv in desk_commands(load(flavour)) for word in argv
    }
    for name in sorted(w for w in used if w.startswith("--")):
        assert name in result.stdout, f"`arbiter git run --help` does not list {name}"


# -- the shell steps, run against bare repositories with the real desk ------------------------

# The shared repository refuses a round whose entries the referee's record does not hold yet.
RECORD_FIRST = """#!/bin/sh
set -eu
while read -r old new ref; do
  published=$(git show "$new:{game}/chain.jsonl")
  saved=$(env -u GIT_DIR -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES \\
    -u GIT_QUARANTINE_PATH git --git-dir="{record}" show "main:g1/chain.jsonl")
  if [ "$(echo "$published" | wc -l)" -gt "$(echo "$saved" | wc -l)" ]; then
    echo "entries published before the record holding them was saved" >&2
    exit 1
  fi
done
"""


class Forge:
    """The shared repository (a published sealed game, alice's move in its inbox), the
    private record repository holding the referee's folder, and a runner's workspace."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.world = make_world(tmp / "world")
        self.env = {k: v for k, v in cli_env().items() if not k.startswith("GITHUB_")}
        seed = tmp / "seed"
        shutil.copytree(self.world.secret, seed / "g1", symlinks=True)
        git(tmp, "init", "-q", "-b", "main", str(seed))
        git(seed, "add", "-A")
        git(seed, "commit", "-q", "-m", "g1: the referee's record")
        self.record = tmp / "record.git"
        git(tmp, "clone", "-q", "--bare", str(seed), str(self.record))
        alice = self.world.player("alice")
        alice.push_file("m1.json.age", alice.move())
        hook = self.world.bare / "hooks" / "pre-receive"
        hook.write_text(RECORD_FIRST.format(record=self.record, game=GAME))
        hook.chmod(0o755)
        self.workspace = tmp / "workspace"
        git(tmp, "clone", "-q", str(self.world.bare), str(self.workspace / "shared"))
        self.bin = tmp / "bin"
        self.bin.mkdir()
        (self.bin / "arbiter").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m arbiter "$@"\n')
        (self.bin / "arbiter").chmod(0o755)
        self.before = self.world.head()

    def chain(self, bare: Path, path: str) -> list[str]:
        return git(bare, "show", f"main:{path}").splitlines()

    def another_run_saves_first(self) -> None:
        """Push to the record repository from another clone, as an overlapping run would."""
        other = self.tmp / "other-run"
        git(self.tmp, "clone", "-q", str(self.record), str(other))
        (other / "NOTE").write_text("saved by another run\n")
        git(other, "add", "NOTE")
        git(other, "commit", "-q", "-m", "another run")
        git(other, "push", "-q", "origin", "HEAD")


def condition_holds(condition: str | None, failed: bool, outcomes: dict[str, str]) -> bool:
    """Evaluate the few `if:` forms the workflows use: always(), steps.ID.outcome == '...'."""
    if condition is None:
        return not failed
    terms = [t.strip() for t in condition.split("&&")]
    if "always()" not in terms and failed:
        return False
    for term in terms:
        found = re.fullmatch(r"steps\.(\w+)\.outcome == '(\w+)'", term)
        assert term == "always()" or found, f"unknown condition {term!r}"
        if found and outcomes.get(found.group(1)) != found.group(2):
            return False
    return True


def run_job(
    flavour: str, forge: Forge, between: dict[str, Callable[[], None]] | None = None
) -> dict[str, subprocess.CompletedProcess[str] | None]:
    """Run the job's shell steps in order, as a runner would; return each step's process
    (None: skipped). The checkout is the fixture's clone and arbiter is installed here:
    steps that use an action or install software are left out. ``between[name]()`` runs
    before the step of that name."""
    doc = load(flavour)
    values = {
        "ARBITER_RECORD_REPO": str(forge.record),
        "ARBITER_RECORD_KNOWN_HOSTS": "",
        "ARBITER_RECORD_KEY": "(not used for a repository on disk)",
    }
    github_env = forge.tmp / "github-env"
    github_env.write_text("")
    env = {**forge.env, **{k: str(v) for k, v in doc["env"].items()}}
    env |= {"GAMES": "g1", "ARBITER_SAVE_PAUSES": "", "GITHUB_RUN_ID": "7"}
    env |= {"GITHUB_ENV": str(github_env), "GITHUB_WORKSPACE": str(forge.workspace)}
    env["PATH"] = f"{forge.bin}{os.pathsep}{env['PATH']}"
    done: dict[str, subprocess.CompletedProcess[str] | None] = {}
    outcomes: dict[str, str] = {}
    failed = False
    for step in steps(doc):
        if "uses" in step or "pip install" in step["run"]:
            continue
        name = step["name"]
        if not condition_holds(step.get("if"), failed, outcomes):
            done[name] = None
            continue
        if between and name in between:
            between[name]()
        step_env = dict(env)
        for key, value in step.get("env", {}).items():
            found = re.fullmatch(r"\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}", str(value))
            step_env[key] = values[found.group(1)] if found else str(value)
        script = forge.tmp / "step.sh"
        script.write_text(step["run"])
        done[name] = process = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=forge.workspace / step.get("working-directory", "."),
            env=step_env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        failed |= process.returncode != 0
        outcomes[step.get("id", name)] = "success" if process.returncode == 0 else "failure"
        for line in github_env.read_text().splitlines():
            key, _, value = line.partition("=")
            env[key] = value
    assert env.get("ARBITER_WORK") and not Path(env["ARBITER_WORK"]).exists(), "record left"
    return done


def code(process: subprocess.CompletedProcess[str] | None) -> int | None:
    return None if process is None else process.returncode


@needs_git
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_the_record_is_saved_before_the_round_is_published(flavour: str, tmp_path: Path) -> None:
    forge = Forge(tmp_path)
    done = run_job(flavour, forge)
    judged = done["Judge the inbox and publish the round"]
    assert code(judged) == 0, judged
    assert "inbox/m1.json.age: accepted as entry #3 (move by alice)" in judged.stdout
    assert code(done["Save the referee's record"]) == 0
    # The shared repository's pre-receive hook refused any entry the record did not hold yet.
    published = forge.chain(forge.world.bare, f"{GAME}/chain.jsonl")
    assert len(published) == 4  # genesis, two joins, alice's move
    assert forge.chain(forge.record, "g1/chain.jsonl") == published
    assert forge.world.inbox() == []


@needs_git
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_run_whose_record_save_is_refused_publishes_nothing(flavour: str, tmp_path: Path) -> None:
    forge = Forge(tmp_path)
    judge = "Judge the inbox and publish the round"
    done = run_job(flavour, forge, {judge: forge.another_run_saves_first})
    judged = done[judge]
    assert code(judged) != 0 and "the referee's record could not be saved" in judged.stderr
    assert code(done["Save the referee's record"]) != 0
    assert code(done["Remove the record from the runner"]) == 0
    assert forge.world.head() == forge.before, "the losing run published its round"
    assert forge.world.inbox() == ["inbox/m1.json.age"]
    assert len(forge.chain(forge.record, "g1/chain.jsonl")) == 3
