"""Duplicate matches on a Ray cluster: ``fivehundred arena --backend ray``.

Every match is a pure function of its task (see :mod:`fivehundred.arena.runner`), so the
cluster returns exactly the results of the local process pool for the same seed; results
come back in task order. The cluster is ``RAY_ADDRESS`` when it is set (``ray start
--head`` on one machine, ``ray start --address=HEAD:6379`` on the others, each with this
package installed), otherwise a local Ray started for the run with ``workers`` CPUs and
stopped after it. ``pip install 'fivehundred[ray]'``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from typing import Any

from fivehundred.arena.runner import MatchOutcome, MatchTask, play_match

#: Matches per Ray task: a few, so that scheduling costs little beside the play.
MAX_CHUNK = 16
#: Tasks kept in flight per worker (the rest wait, so memory stays flat on huge runs).
IN_FLIGHT = 4


def play_chunk(tasks: list[MatchTask]) -> list[MatchOutcome]:
    """Play several matches in one Ray task."""
    return [play_match(task) for task in tasks]


def chunk_size(tasks: int, workers: int) -> int:
    """Matches per Ray task: about eight tasks per worker, at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, tasks // max(1, workers * 8)))


def _init(workers: int) -> bool:
    """Connect to ``RAY_ADDRESS`` or start a local Ray; True when this run started it."""
    import ray

    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
    address = os.environ.get("RAY_ADDRESS")
    try:
        if address:
            ray.init(address=address, **quiet)
        else:
            start_local_ray(workers, **quiet)
    except Exception as error:  # Ray raises several kinds (ConnectionError, RuntimeError …)
        where = f"the Ray cluster at RAY_ADDRESS={address}" if address else "a local Ray"
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise RayUnavailable(f"cannot start or join {where}: {first}") from None
    return True


def start_local_ray(cpus: int, **options: Any) -> None:
    """Start a local Ray; tried twice, since its start-up gives up after 30 s on a machine
    that is very busy."""
    import ray

    for attempt in (1, 2):
        try:
            ray.init(num_cpus=cpus, include_dashboard=False, **options)
            return
        except Exception:
            ray.shutdown()
            if attempt == 2:
                raise


class RayUnavailable(RuntimeError):
    """Ray could not be started or joined (one line, for the command line)."""


def iterate_ray(tasks: list[MatchTask], workers: int) -> Iterator[MatchOutcome]:
    """Play ``tasks`` on Ray, yielding the outcomes in task order."""
    import ray

    started = _init(workers)
    try:
        remote = ray.remote(num_cpus=1)(play_chunk)
        size = chunk_size(len(tasks), workers)
        chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
        limit = max(1, workers) * IN_FLIGHT
        pending: deque[Any] = deque()
        for chunk in chunks:
            pending.append(remote.remote(chunk))
            if len(pending) >= limit:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        if started:
            ray.shutdown()
