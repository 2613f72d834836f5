"""The site's metrics in the Prometheus format, summed over every process of a machine.

Each process (every daphne, every Celery worker and its pool's children, beat) writes
its samples to files of its own in ``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's
multi-process mode), and ``/metrics`` on any web process reads them all: one scrape per
machine sees the machine. The folder is emptied when the machine's processes start
(`make run`; under systemd a runtime directory, docs/operations.md). It is chosen here,
before prometheus-client is imported, since the library picks its storage on import.

Every metric is declared in this module and documented in docs/operations.md, with the
alerts worth setting; the code that observes one imports it from here.
"""

from __future__ import annotations

import atexit
import hmac
import os
import shutil
import tempfile
import time
from pathlib import Path


def _folder() -> str:
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "") if os.environ.get("WORDFALL_TESTING") else ""
    if given and worker and Path(given).name != worker:
        # A test worker and the sites it starts count apart from the run's other workers,
        # whose submissions and sockets would show in its scrapes; its children inherit this.
        given = str(Path(given) / worker)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = given
    if given:
        return given
    if os.environ.get("WORDFALL_TESTING"):
        # One folder for a test run and every process it starts, which inherit it; the
        # process that made it removes it as it exits (not a child forked meanwhile).
        folder = tempfile.mkdtemp(prefix="wordfall-metrics-")
        maker = os.getpid()
        atexit.register(lambda: os.getpid() == maker and shutil.rmtree(folder, ignore_errors=True))
    else:
        var = Path(os.environ.get("VAR_DIR", Path(__file__).resolve().parent.parent / "var"))
        folder = str(var / "metrics")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    return folder


FOLDER = _folder()
os.makedirs(FOLDER, exist_ok=True)

from prometheus_client import (  # noqa: E402  (after the folder is chosen)
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily  # noqa: E402

# Latencies a player notices: a live reply within tens of milliseconds, a page within a few hundred.
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SLOW = (5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)

HTTP_SECONDS = Histogram(
    "wordfall_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by view (URL name).",
    ["view", "method", "status"],
    buckets=(*FAST, *SLOW[:2]),
)
SOCKETS_OPEN = Gauge(
    "wordfall_websockets_open",
    "Websockets open now, by kind (the route: presence, hunts, hunts.lobby, games, ...).",
    ["kind"],
    multiprocess_mode="livesum",
)
HUNT_SUBMISSIONS = Counter(
    "wordfall_hunt_submissions",
    "Words submitted at hunt tables from a socket, by outcome (accepted, taken, invalid, late, refused).",
    ["outcome"],
)
HUNT_SUBMIT_TO_BROADCAST = Histogram(
    "wordfall_hunt_submit_to_broadcast_seconds",
    "From an accepted word's arrival on its socket to its find published to the table.",
    buckets=FAST,
)
CROSSWORD_MOVES = Counter(
    "wordfall_crossword_moves",
    "Moves made in Word Grid and Wordgame games, by variant and kind of move.",
    ["variant", "kind"],
)
TASK_SECONDS = Histogram(
    "wordfall_celery_task_duration_seconds", "Run time of Celery tasks, by task.", ["task"], buckets=(*FAST, *SLOW)
)
TASK_FAILURES = Counter("wordfall_celery_task_failures", "Celery tasks that raised, by task.", ["task"])
MATCH_WAIT = Histogram(
    "wordfall_matchmaking_wait_seconds",
    "How long a ranked player waited in the queue before being seated, by pool.",
    ["pool"],
    buckets=(1, 2, 5, 10, 20, 30, 60, 120, 300, 600),
)
RATING_LAG = Histogram(
    "wordfall_rating_lag_seconds",
    "From a rated game's end to its rating changes being applied, by pool.",
    ["pool"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
SWEEP_CATCH_UPS = Counter(
    "wordfall_sweep_catch_ups",
    "Work a beat sweep did because the task queued for it was lost or late, by sweep task.",
    ["sweep"],
)


def _living(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def forget_dead_processes() -> None:
    """Drop the live gauges (open sockets) of processes that have died without saying so.

    Counters and histograms of a dead process stay: a total never goes back.
    """
    for name in os.listdir(FOLDER):
        if name.startswith("gauge_live") and name.endswith(".db"):
            pid = name.rsplit("_", 1)[1][:-3]
            if pid.isdigit() and not _living(int(pid)):
                multiprocess.mark_process_dead(int(pid), FOLDER)


class QueueLengthCollector:
    """The Celery queue's length in Redis, read when scraped (one process reads it for all)."""

    def collect(self):
        from django.conf import settings

        family = GaugeMetricFamily(
            "wordfall_celery_queue_length", "Tasks waiting in the Celery queue for a worker.", labels=["queue"]
        )
        if settings.SERVER_MODE:
            import redis

            queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
            try:
                client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=1, socket_connect_timeout=1)
                family.add_metric([queue], client.llen(queue))
            except redis.RedisError:
                pass  # the scrape still answers; /healthz says Redis is down
        yield family


def exposition() -> bytes:
    """Every process's samples, summed, and the queue's length: the text a scrape reads."""
    forget_dead_processes()
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=FOLDER)
    registry.register(QueueLengthCollector())
    return generate_latest(registry)


def may_scrape(request) -> bool:
    """A scraper with the token (``METRICS_TOKEN``), or, without one set, this machine only.

    "This machine" is a loopback peer through no proxy: behind nginx on the same machine
    every player's request arrives from loopback too, with ``X-Forwarded-For``.
    """
    from django.conf import settings

    if settings.METRICS_TOKEN:
        given = request.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {settings.METRICS_TOKEN}".encode())
    return request.META.get("REMOTE_ADDR") in ("127.0.0.1", "::1") and "HTTP_X_FORWARDED_FOR" not in request.META


def view(request):
    """``/metrics``: the exposition for a scraper that may read it; a plain 404 for anyone else."""
    from django.http import Http404, HttpResponse

    if not may_scrape(request):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


# --- HTTP and websockets, measured around the whole ASGI application -----------------


class Measured:
    """ASGI middleware: each request's time by view, and the websockets open by kind.

    A socket's kind is the route its path matches, less its numbers (``ws/hunts/<int:table_id>/``
    is ``hunts``), from the ``socket_routes`` the ASGI application serves. Django's
    ``ViewNameMiddleware`` leaves a request's view (URL name) in the scope's ``wordfall``
    slot, which every copy of the scope shares.
    """

    def __init__(self, app, *, socket_routes=()):
        self.app = app
        self.socket_routes = tuple(socket_routes)
        self._socket_kinds: dict[str, str] = {}

    def socket_kind(self, path: str) -> str:
        kind = self._socket_kinds.get(path)
        if kind is None:
            kind = "unknown"
            for route in self.socket_routes:
                if route.pattern.match(path.lstrip("/")):
                    parts = str(route.pattern).strip("/").split("/")[1:]
                    kind = ".".join(part for part in parts if not part.startswith("<")) or "root"
                    break
            if len(self._socket_kinds) < 10_000:  # paths with ids are many; the kinds are few
                self._socket_kinds[path] = kind
        return kind

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            gauge = SOCKETS_OPEN.labels(self.socket_kind(scope["path"]))
            gauge.inc()
            try:
                return await self.app(scope, receive, send)
            finally:
                gauge.dec()
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        slot = {"view": "unmatched"}
        status = 0

        async def send_counted(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = time.perf_counter()
        try:
            await self.app({**scope, "wordfall": slot}, receive, send_counted)
        finally:
            HTTP_SECONDS.labels(slot["view"], scope["method"], f"{status // 100}xx" if status else "none").observe(
                time.perf_counter() - started
            )


class ViewNameMiddleware:
    """Names the request's view for ``Measured``: the URL name, or the static files."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        slot = request.scope.get("wordfall") if hasattr(request, "scope") else None
        if slot is not None:
            match = request.resolver_match
            slot["view"] = (match.view_name if match else None) or "unnamed"


def task_started(task_id=None, **kwargs) -> None:
    _task_started[task_id] = time.perf_counter()


def task_ended(task_id=None, task=None, **kwargs) -> None:
    started = _task_started.pop(task_id, None)
    name = getattr(task, "name", "unknown")
    if started is not None:
        TASK_SECONDS.labels(name).observe(time.perf_counter() - started)


def task_failed(sender=None, **kwargs) -> None:
    TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()


_task_started: dict[str, float] = {}


def caught_up(sweep, count: int) -> None:
    """Count work the sweep task ``sweep`` did because the task queued for it was lost or
    late: a round whose end task never ran, a bot turn, a rating, a game start. A sweep's
    routine work (deadlines passing, invitations expiring) is not counted: the alert on
    this counter means work is being lost."""
    if count:
        SWEEP_CATCH_UPS.labels(sweep.name).inc(count)
