"""Log lines that say what they belong to: a request, a socket or a task (LOG_FORMAT=json).

Every record gets ``context``, the id of the request, socket or Celery task it was logged
in (``-`` outside one), from a context variable: asyncio tasks and asgiref's thread hops
carry it, so a line logged in a view's worker thread or a socket's handler has its id.
A request's id is the proxy's ``X-Request-ID`` when it sends a sane one, so the proxy's
access log and the site's lines can be joined.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import ContextVar

current = ContextVar("log_context", default="-")

_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
access = logging.getLogger("wordfall.access")


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


class ContextFilter(logging.Filter):
    """Adds ``record.context``: the request, socket or task being served."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.context = current.get()
        return True


class RequestContext:
    """ASGI middleware: names each request and socket for its log lines, and logs each request.

    Outside Django's handler, so the handler's own lines (a 404's warning, an error's
    traceback) are named too. A request's line at the end says what daphne's access log
    said, with its name and time, in the site's format; servers run daphne without its
    own (``-v 0``). The answer carries the name back in ``X-Request-ID``.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            current.set(new_id("ws"))
            return await self.app(scope, receive, send)
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        name = _given_id(scope) or new_id("req")
        current.set(name)
        started = time.perf_counter()
        status = 0

        async def send_named(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", name.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_named)
        finally:
            milliseconds = (time.perf_counter() - started) * 1000
            access.info(
                '"%s %s" %s %.1f ms',
                scope["method"],
                scope["path"],
                status or "-",
                milliseconds,
                extra={
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": status,
                    "ms": round(milliseconds, 1),
                },
            )


def _given_id(scope) -> str | None:
    """The proxy's X-Request-ID, if it is a short plain token (it is copied into logs)."""
    for key, value in scope.get("headers", ()):
        if key == b"x-request-id":
            given = value.decode("latin-1")
            return given if _SANE_ID.fullmatch(given) else None
    return None


def task_started(task_id=None, **kwargs) -> None:
    """Celery's ``task_prerun``: the task's own id names its lines."""
    current.set(f"task-{task_id}")


def task_ended(**kwargs) -> None:
    current.set("-")


def logging_config(*, json: bool, level: str) -> dict:
    """The LOGGING setting: readable lines, or one JSON object a line with the same facts."""
    if json:
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": ["asctime", "levelname", "name", "message", "context", "process"],
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
        }
    else:
        formatter = {"format": "%(asctime)s %(levelname)s %(name)s [%(context)s]: %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "config.logs.ContextFilter"}},
        "formatters": {"line": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line", "filters": ["context"]}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.channels.server": {"level": "WARNING"},
            "daphne": {"level": "WARNING"},
            "axes": {"level": "WARNING"},
            # Every task run and beat tick at INFO drowns the console; failures still show.
            "celery.app.trace": {"level": "WARNING"},
            "celery.beat": {"level": "WARNING"},
            "celery.worker.strategy": {"level": "WARNING"},
            "kombu.connection": {"level": "ERROR"},
        },
    }
