"""Run the per-game jobs on this machine: in-process, or one worker process per core."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, cast

from arbiter.archive.folders import GameFolder
from arbiter.archive.job import Result, failed, verify_batch, verify_game

Done = Callable[[list[Result]], None]
"""Called in the calling process with each batch of results as it completes."""

MAX_BATCH = 32
BATCHES_PER_WORKER = 8
LOCAL_BATCH = 8
"""Games per task of the local pool at most: a task costs it a fraction of a millisecond
(a pipe, a pickle of a few small dicts), and small tasks leave a short tail, when one
worker finishes its last task while the others still have a whole one to do."""


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def batch_size(total: int, workers: int) -> int:
    """Games per task: big enough that a thousand small games pay little per-task cost,
    small enough that every worker gets several tasks (the load balances, the progress
    bar moves)."""
    return max(1, min(MAX_BATCH, total // (max(1, workers) * BATCHES_PER_WORKER)))


def batches(games: Sequence[GameFolder], size: int) -> list[list[tuple[str, str]]]:
    pairs = [(game.name, game.path) for game in games]
    return [pairs[start : start + size] for start in range(0, len(pairs), size)]


def run_local(games: Sequence[GameFolder], jobs: int, done: Done) -> list[Result]:
    """Verify ``games`` with ``jobs`` processes (``1``: in this process, no pool)."""
    if jobs <= 1 or len(games) <= 1:
        results = []
        for game in games:
            result = verify_game(game.name, game.path)
            done([result])
            results.append(result)
        return results
    return _pool(games, jobs, done)


def _pool(games: Sequence[GameFolder], jobs: int, done: Done) -> list[Result]:
    """Run batches in a process pool; games caught in a broken pool run again, isolated."""
    import gc
    from concurrent.futures import Future, ProcessPoolExecutor, as_completed

    # Loaded before the workers start (the engine of the first game, the signature
    # libraries): forked workers inherit them instead of each paying the imports again.
    preload(games[0].path)
    work = batches(games, min(LOCAL_BATCH, batch_size(len(games), jobs)))
    results: list[Result] = []
    again: list[tuple[str, str]] = []
    # What the parent holds stays out of the workers' garbage collections: they neither
    # walk it again nor copy the pages it sits on (the gc module's advice for fork).
    gc.freeze()
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)))
    try:
        futures: dict[Future[list[Result]], list[tuple[str, str]]] = {
            pool.submit(verify_batch, batch): batch for batch in work
        }
        for future in as_completed(futures):
            try:
                got = future.result()
            except Exception:
                # A worker died (killed, out of memory, a crash in C code): the pool is
                # broken and every unfinished batch fails with it, guilty or not.
                again.extend(futures[future])
                continue
            done(got)
            results.extend(got)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        gc.unfreeze()
    pool.shutdown()
    if again:
        results.extend(_isolated(sorted(again), jobs, done))
    return results


def preload(path: str) -> None:
    """Import what verifying the game at ``path`` needs (its engine, the signature
    libraries), best effort: any problem is the verify's to report, in its worker.

    Only arbiter's own engines load here: a plug-in's could crash the process, and the
    pool exists to keep a crash to the game that caused it.
    """
    import arbiter.core.replay  # noqa: F401

    try:
        from cryptography.hazmat.primitives.asymmetric import ed25519  # noqa: F401
        from sshsig import PublicKey  # noqa: F401

        from arbiter.core import registry
        from arbiter.core.canonical import parse_strict
        from arbiter.core.safeio import open_nofollow_read

        manifest = parse_strict(open_nofollow_read(os.path.join(path, "game.json")), "game.json")
        if manifest["engine"]["name"] in registry.BUILTIN:
            registry.get(manifest["engine"]["name"])
    except Exception:  # a damaged game fails in its worker, with its message
        pass


def _isolated(pairs: list[tuple[str, str]], jobs: int, done: Done) -> list[Result]:
    """Verify each game in a process of its own (``jobs`` at a time): one that dies takes
    only its own game down, which is reported failed with how its process ended."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    context = multiprocessing.get_context()
    queue = list(reversed(pairs))
    running: dict[Any, tuple[Any, str, str]] = {}
    results: list[Result] = []
    try:
        while queue or running:
            while queue and len(running) < jobs:
                name, path = queue.pop()
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(name, path, send), daemon=True)
                process.start()
                send.close()
                running[receive] = (process, name, path)
            for ready in wait(list(running)):
                pipe = cast("Connection", ready)
                process, name, path = running.pop(pipe)
                try:
                    got: list[Result] = [pipe.recv()]
                except EOFError:  # it died before sending its result
                    process.join()
                    got = [failed(name, path, _died(process.exitcode))]
                pipe.close()
                process.join()
                done(got)
                results.extend(got)
    finally:
        for process, _name, _path in running.values():
            process.kill()
    return results


def _died(code: int | None) -> str:
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return f"the process verifying it died ({how}): a bug in arbiter, please report it"


def _child(name: str, path: str, send: Any) -> None:
    send.send(verify_game(name, path))
    send.close()
