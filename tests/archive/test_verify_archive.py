"""``arbiter verify DIR...`` over an archive: the pool, the report, and failures named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from archive_kit import GAMES, TAMPERS, UNREVEALED, Cli, Result, name, set_engine, tamper


def one_error_line(result: Result, code: int) -> str:
    assert result.code == code, result
    assert result.err.startswith("arbiter: error: "), result.err
    assert result.err.count("\n") == 1 and result.err.endswith("\n"), result.err
    return result.err


def test_one_and_two_processes_give_the_same_report(cli: Cli, archive: Path) -> None:
    one = cli("verify", archive, "-j", "1", "--json")
    two = cli("verify", archive, "-j", "2", "--json")
    assert one.code == 0 and two.code == 0, (one, two)
    assert one.out == two.out
    assert one.err == two.err == ""  # not a terminal: no progress bar
    report = one.json()
    assert report["format"] == "arbiter.archive-report/1"
    assert report["ok"] and report["games"] == report["passed"] == GAMES
    assert report["failed"] == 0 and report["replayed"] == GAMES - len(UNREVEALED)
    rows = report["results"]
    assert [row["folder"] for row in rows] == [str(archive / name(i)) for i in range(GAMES)]
    assert all(row["ok"] and row["error"] is None and row["code"] is None for row in rows)
    assert [row["revealed"] for row in rows] == [i not in UNREVEALED for i in range(GAMES)]
    assert all(row["game"].startswith("demo-") and row["entries"] > 10 for row in rows)
    assert report["entries"] == sum(row["entries"] for row in rows)
    assert set(rows[0]) == {"folder", "game", "ok", "revealed", "entries", "error", "code"}


def test_human_output_is_a_table_and_a_summary(cli: Cli, archive: Path) -> None:
    result = cli("verify", archive)
    assert result.code == 0 and result.err == "", result
    assert f"{GAMES} game folders" in result.out
    assert f"verified {GAMES} games in " in result.out
    assert f"{GAMES} passed, 0 failed" in result.out


@pytest.mark.parametrize("where", TAMPERS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tampered_game_is_found_and_named(
    cli: Cli, archive: Path, where: str, jobs: str
) -> None:
    entry = tamper(archive / name(2), where)
    result = cli("verify", archive, "-j", jobs)
    err = one_error_line(result, 16)
    assert f"1 of {GAMES} games failed verification" in err
    assert f"{archive / name(2)}: " in err and entry in err, err
    # The table lists the failed game first, with its first bad entry, then the rest.
    lines = result.out.splitlines()
    failed_at = next(i for i, line in enumerate(lines) if "FAILED (verify-failed)" in line)
    passed_at = next(i for i, line in enumerate(lines) if f"{GAMES - 1} game folders" in line)
    assert failed_at < passed_at
    assert f"{GAMES - 1} passed, 1 failed" in result.out
    report = cli("verify", archive, "-j", jobs, "--json")
    one_error_line(report, 16)
    rows = report.json()["results"]
    bad = [row for row in rows if not row["ok"]]
    assert [row["folder"] for row in bad] == [str(archive / name(2))]
    assert bad[0]["code"] == "verify-failed" and entry in bad[0]["error"]
    assert bad[0]["game"] and bad[0]["game"].startswith("demo-") and bad[0]["revealed"]
    assert report.json()["failed"] == 1 and not report.json()["ok"]


def test_many_failures_are_named_then_counted(cli: Cli, archive: Path) -> None:
    for index in range(5):
        tamper(archive / name(index), "log" if index != 4 else "chain")
    err = one_error_line(cli("verify", archive, "-j", "2"), 16)
    assert "5 of 6 games failed verification" in err
    named = [str(archive / name(i)) for i in range(3)]
    assert all(f"{folder}: " in err for folder in named), err
    assert str(archive / name(3)) not in err and err.rstrip().endswith("; and 2 more")


def test_folders_are_searched_below_and_named_as_found(
    cli: Cli, archive: Path, tmp_path: Path
) -> None:
    # A tournament-like tree: game folders at different depths, other folders and files
    # around them, and a game folder's own sub-folders that are no games.
    tree = tmp_path / "tree"
    (tree / "round-2" / "notes").mkdir(parents=True)
    (tree / "README.md").write_text("not a game\n")
    shutil.move(archive / name(0), tree / "round-1" / "table-b")
    shutil.move(archive / name(1), tree / "round-1" / "table-a")
    shutil.move(archive / name(2), tree / "round-2" / "deep" / "table-c")
    (tree / "empty").mkdir()
    alone = archive / name(3)
    report = cli("verify", tree, alone, tree / "round-1" / "table-a", "-j", "2", "--json")
    assert report.code == 0, report
    folders = [row["folder"] for row in report.json()["results"]]
    assert folders == [
        str(archive / name(3)),
        str(tree / "round-1" / "table-a"),
        str(tree / "round-1" / "table-b"),
        str(tree / "round-2" / "deep" / "table-c"),
    ]


def test_relative_folders_stay_relative(
    cli: Cli, archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(archive.parent)
    report = cli("verify", "archive", "-j", "1", "--json").json()
    assert [row["folder"] for row in report["results"]] == [
        f"archive/{name(i)}" for i in range(GAMES)
    ]


def test_a_folder_without_games_is_refused(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    err = one_error_line(cli("verify", tmp_path / "empty", "-j", "1"), 17)
    assert "no game folder in" in err and "game.json" in err
    err = one_error_line(cli("verify", tmp_path / "missing", tmp_path / "empty"), 17)
    assert "is not a folder" in err


def test_one_game_folder_keeps_the_single_report(cli: Cli, archive: Path) -> None:
    single = cli("verify", archive / name(0))
    assert single.code == 0 and single.out.startswith("ok  "), single
    assert single.out.splitlines()[-1].startswith("verified game demo-")
    report = cli("verify", archive / name(0), "--json").json()
    assert report["ok"] and "checks" in report and "results" not in report
    # With an archive option it is an archive of one.
    report = cli("verify", archive / name(0), "-j", "1", "--json").json()
    assert report["games"] == 1 and report["results"][0]["ok"]


def test_single_game_options_are_refused_with_several(cli: Cli, archive: Path) -> None:
    for extra in (["--receipt", "r.json"], ["--seat", "alice", "--key", "k"]):
        err = one_error_line(cli("verify", archive, *extra), 2)
        assert "one game folder" in err
    err = one_error_line(cli("verify", archive / name(0), archive / name(1), "-r", "r.json"), 2)
    assert "--receipt" in err
    err = one_error_line(cli("verify", archive, "-j", "2", "--scheduler", "tcp://x:1"), 2)
    assert "one of them" in err
    assert cli("verify", archive, "-j", "0").code == 2


def test_an_unexpected_exception_fails_only_its_game(cli: Cli, archive: Path) -> None:
    set_engine(archive / name(1), "raising")
    for jobs in ("1", "2"):
        result = cli("verify", archive, "-j", jobs, "--json")
        one_error_line(result, 16)
        rows = result.json()["results"]
        assert [row["ok"] for row in rows] == [i != 1 for i in range(GAMES)]
        assert rows[1]["code"] == "internal"
        assert rows[1]["error"] == "unexpected RuntimeError: a bug met on one game"
        assert rows[1]["game"] == rows[1]["game"] and rows[1]["game"].startswith("demo-")


def test_a_dying_worker_fails_only_its_game(cli: Cli, archive: Path) -> None:
    # The process verifying game 1 ends abruptly: the pool breaks, the games caught in it
    # are verified again one process each, and only the culprit fails.
    set_engine(archive / name(1), "dying")
    result = cli("verify", archive, "-j", "2", "--json")
    err = one_error_line(result, 16)
    assert "died (exit code 70)" in err
    rows = result.json()["results"]
    assert [row["ok"] for row in rows] == [i != 1 for i in range(GAMES)]
    assert rows[1]["code"] == "internal"


@pytest.mark.parametrize("engine", ["dying", "raising"])
def test_the_first_games_engine_fails_only_its_game(cli: Cli, archive: Path, engine: str) -> None:
    # The pool loads the first game's engine before its workers start, but only an engine
    # of arbiter's own: a plug-in that crashes must take down a worker, not the run.
    set_engine(archive / name(0), engine)
    result = cli("verify", archive, "-j", "2", "--json")
    one_error_line(result, 16)
    rows = result.json()["results"]
    assert [row["ok"] for row in rows] == [i != 0 for i in range(GAMES)]
    assert rows[0]["code"] == "internal"


def test_preload_never_raises(archive: Path, tmp_path: Path) -> None:
    from arbiter.archive.pool import preload

    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "game.json").write_text("[1, 2")
    for path in (archive / name(0), tmp_path / "missing", tmp_path / "bad", tmp_path):
        preload(str(path))


def test_progress_bar_only_when_asked(cli: Cli, archive: Path) -> None:
    quiet = cli("verify", archive, "-j", "1", "--json")
    assert quiet.err == ""
    shown = cli("verify", archive, "-j", "1", "--json", "--progress")
    assert shown.code == 0 and shown.out == quiet.out
    assert f"{GAMES}/{GAMES}" in shown.err and "games/s" in shown.err and "0 failed" in shown.err


def test_the_report_is_plain_json(cli: Cli, archive: Path) -> None:
    # No timing, no host: the same archive gives the same bytes on every run.
    first = cli("verify", archive, "--json").out
    assert first == cli("verify", archive, "--json").out
    assert json.loads(first)["ok"] is True
