"""What a server process does once its application is loaded."""

from __future__ import annotations

import gc
import logging

from games.engine import build

logger = logging.getLogger(__name__)


def engine_build() -> str:
    """Which build of the engine this process runs ("compiled with Cython 3.3.1", or
    "pure Python (...)" and why), for /healthz and the start-up log."""
    return build.status().detail


def log_engine_build(process: str) -> None:
    """One line at a server process's start saying which engine build it runs."""
    logger.info("%s runs the engine %s", process, engine_build())


def freeze_start_up_objects() -> None:
    """Take everything loaded so far out of the garbage collector's view.

    Django, the URL routes, the models and the site's modules live as long as the
    process, yet a full collection walks all of them each time: with the site loaded
    that is about 120,000 objects and 60-70 ms on the development machine, during which
    every socket of the process waits (the live-round benchmark's p99 tails were these
    pauses). Frozen, a full collection walks only what sockets and requests made since.
    Garbage is collected first so that none is kept for good.
    """
    gc.collect()
    gc.freeze()
