"""The git desk's batched questions (issue 25): several refs resolved in one command."""

from __future__ import annotations

from pathlib import Path

from arbiter.desks.git.plumbing import Git
from git.gitkit import git


def test_commits_of_resolves_refs_and_ids_in_one_command(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "one")
    head = git(repo, "rev-parse", "HEAD").strip()
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    blob = git(repo, "rev-parse", "HEAD:a.txt").strip()
    g = Git(repo)
    calls: list[str] = []
    run = g.run

    def counted(args, *rest, **kw):
        calls.append(args[0])
        return run(args, *rest, **kw)

    g.run = counted  # type: ignore[method-assign]
    asked = ["refs/heads/main", head, "refs/heads/gone", tree, blob, "0" * 40]
    assert g.commits_of(asked) == [head, head, None, None, None, None]
    assert calls == ["cat-file"]
    # Each answer is commit_of's.
    assert [g.commit_of(ref) for ref in asked] == [head, head, None, None, None, None]
    # Anything else (never seen from the desk) is asked one at a time, as commit_of does.
    calls.clear()
    assert g.commits_of(["HEAD", "main~0"]) == [head, head]
    assert calls == ["rev-parse", "rev-parse"]
    assert g.commits_of([]) == []
