"""Run the per-game jobs on an existing Dask distributed cluster (``--scheduler``).

Imported only when ``--scheduler`` is given: arbiter never imports Dask otherwise, and
only the ``arbiter[dask]`` extra installs it. The workers run the same job as the local
pool (``arbiter.archive.job.verify_batch``), so they need arbiter installed (the same
release, with the same engines) and must read the game folders at the same absolute
paths as this machine: put the archive on a shared path (NFS, a cluster file system, or
the same copy at the same place on every node). The jobs are CPU-bound Python: start
workers with one thread each (``dask worker ADDRESS --nworkers N --nthreads 1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbiter.archive.folders import GameFolder
from arbiter.archive.job import Result, failed, verify_batch
from arbiter.archive.pool import Done, batch_size, batches
from arbiter.core.errors import NotReady, UsageError
from arbiter.core.safeio import visible

CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the scheduler to answer, and for a first worker."""


def run_dask(games: Sequence[GameFolder], scheduler: str, done: Done) -> list[Result]:
    """Verify ``games`` on the cluster whose scheduler listens at ``scheduler``."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError(
            "--scheduler needs Dask's distributed package: pip install 'arbiter[dask]'"
        ) from None
    _check_address(scheduler)
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise NotReady(
            f"cannot reach the Dask scheduler at {visible(scheduler)} ({visible(reason)}): "
            "check the address and that the scheduler runs"
        ) from None
    results: list[Result] = []
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            raise NotReady(
                f"the Dask scheduler at {visible(scheduler)} has no workers: start some "
                f"(dask worker {visible(scheduler)})"
            ) from None
        threads = sum(client.nthreads().values())
        work = batches(games, batch_size(len(games), threads))
        # pure=False: a batch is not cached by its arguments; the files may have changed.
        futures: list[Any] = client.map(verify_batch, work, pure=False)
        batch_of = {future.key: batch for future, batch in zip(futures, work, strict=True)}
        for future in as_completed(futures, loop=client.loop):
            try:
                got = future.result()
            except Exception as exc:  # a worker died, or could not import arbiter
                why = f"its Dask task failed: {type(exc).__name__}: {exc}"
                got = [failed(name, path, why) for name, path in batch_of[future.key]]
            done(got)
            results.extend(got)
            future.release()
    finally:
        client.close()
    return results


def _check_address(scheduler: str) -> None:
    """Refuse an address Dask cannot parse before connecting (``tcp://HOST:PORT``)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    try:
        scheme, location = parse_address(scheduler, strict=True)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError) as exc:
        reason = " ".join(str(exc).split())
        raise UsageError(
            f"--scheduler {visible(scheduler)}: {visible(reason)}; give the scheduler's "
            "address as tcp://HOST:PORT"
        ) from None
