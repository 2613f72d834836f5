"""In-process Celery worker and beat for the embedded default.

With no broker running, the web server process runs the worker and beat itself, in
threads, over Celery's in-memory transport; a task's countdown or ETA is honoured by the
worker exactly as it is with Redis, so timed round ends and bot turns still happen.
"""

from __future__ import annotations

import logging
import threading

from celery.beat import EmbeddedService

from .celery import app

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_threads: dict[str, threading.Thread] = {}


def start() -> None:
    """Start the worker and beat threads once per process."""
    with _lock:
        if _threads:
            return
        worker = app.WorkController(
            pool_cls="threads",
            concurrency=4,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="INFO",
        )
        worker_thread = threading.Thread(target=worker.start, name="embedded-celery-worker", daemon=True)
        worker_thread.start()
        beat = EmbeddedService(app, thread=True)
        beat.start()
        _threads["worker"] = worker_thread
        _threads["beat"] = beat
        logger.info("Embedded Celery worker and beat started")


def worker_alive() -> bool:
    thread = _threads.get("worker")
    return bool(thread and thread.is_alive())
