"""``arbiter verify --scheduler``: the same report from a Dask cluster as from this machine.

The cluster is a ``distributed.LocalCluster`` with worker processes started by the test;
``arbiter`` runs as a real subprocess that connects to it. Without the ``distributed``
package these tests are skipped on a developer's machine and fail in CI (``CI`` set),
which installs it with ``.[test]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from archive_kit import Cli, name, tamper

try:
    import distributed
except ImportError:  # pragma: no cover - CI installs it
    distributed = None

needs_distributed = pytest.mark.skipif(
    distributed is None and not os.environ.get("CI"),
    reason="the distributed package is not installed (pip install -e '.[test]' installs it)",
)


def arbiter(*args: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=300,
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A two-worker local Dask cluster (worker processes, one thread each): its address."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as local:
        yield local.scheduler_address


@needs_distributed
def test_the_dask_report_equals_the_local_one(cluster: str, archive: Path) -> None:
    entry = tamper(archive / name(3), "revealed")
    local = arbiter("verify", archive, "-j", "2", "--json")
    remote = arbiter("verify", archive, "--scheduler", cluster, "--json")
    assert local.returncode == remote.returncode == 16, (local, remote)
    assert remote.stdout == local.stdout  # byte for byte
    assert remote.stderr == local.stderr
    assert f"{archive / name(3)}: " in remote.stderr and entry in remote.stderr


@needs_distributed
def test_the_dask_run_prints_the_same_table(cluster: str, archive: Path) -> None:
    local = arbiter("verify", archive, "-j", "1")
    remote = arbiter("verify", archive, "--scheduler", cluster)
    assert local.returncode == remote.returncode == 0, (local, remote)
    assert remote.stderr == ""
    # The same table; only the summary line says where and how fast.
    assert remote.stdout.splitlines()[:-1] == local.stdout.splitlines()[:-1]
    assert "the Dask cluster at tcp://" in remote.stdout.splitlines()[-1]


def test_without_distributed_the_error_says_what_to_install(
    cli: Cli, archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = cli("verify", archive, "--scheduler", "tcp://127.0.0.1:8786")
    assert result.code == 2, result
    assert result.err.count("\n") == 1
    assert "pip install 'arbiter[dask]'" in result.err
    assert result.out == ""


@needs_distributed
def test_a_malformed_scheduler_address_is_refused(cli: Cli, archive: Path) -> None:
    for address in ("nonsense", "tcp://host-without-port"):
        result = cli("verify", archive, "--scheduler", address)
        assert result.code == 2, result
        assert result.err.count("\n") == 1 and "tcp://HOST:PORT" in result.err
