"""Fixtures shared by every test layer: players, websockets, a live site, a browser."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# Speed is measured by the benchmarks, never by a test: no example has a deadline, and a
# machine busy enough to draw examples slowly does not fail a property.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database as `make run` leaves it: lexicon rows, moderators, precompiled lists.

    Transactional tests flush the tables afterwards, so code that needs the rows creates
    them on demand; the precompiled lists on disk stay.
    """
    from django.core.management import call_command
    from django.db import connection

    with django_db_blocker.unblock():
        call_command("load_lexicons", verbosity=0)
    yield
    # Worker threads of this process (the sockets' reads) keep Django connections of their
    # own, which pytest-django cannot close; the test database cannot be dropped while
    # they are open.
    if connection.vendor == "postgresql":
        from django.db import DatabaseError

        with django_db_blocker.unblock(), connection.cursor() as cursor:
            try:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    " AND backend_type = 'client backend' AND usename = current_user"
                )
            except DatabaseError as error:  # not ours to end; dropping the database says so
                warnings.warn(f"could not close the test database's other sessions: {error}", stacklevel=1)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test has its own event loop, so each gets its own channel layer instance."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def current_celery_app_kept():
    """A test that makes a Celery app of its own must leave the project's app current.

    Every ``shared_task`` sends through the current app, so a probe app made current (the
    default of ``Celery(...)``) would send the later tests' tasks to its broker. Make such
    apps with ``set_as_current=False``; this names the test that forgot and puts it right.
    """
    from celery import _state

    before = _state.get_current_app()
    yield
    after = _state.get_current_app()
    project = sys.modules.get("config.celery")
    if after is not before and (project is None or after is not project.app):
        before.set_current()
        pytest.fail(f"the test left its Celery app {after.main!r} current; make it with set_as_current=False")


@pytest.fixture
def rate_window_held(monkeypatch):
    """django-ratelimit counts in fixed windows, each key's edge at its own second: a
    test's requests that straddled an edge would start counting again. The clock it
    reads stands still through the test."""
    import django_ratelimit.core

    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def make_user(django_user_model):
    """Create players: ``make_user("ann")``; the password is always ``"correct-horse-9"``."""
    counter = {"n": 0}

    def make(username: str | None = None, **fields):
        counter["n"] += 1
        username = username or f"player{counter['n']}"
        fields.setdefault("email", f"{username}@example.com")
        return django_user_model.objects.create_user(username=username, password="correct-horse-9", **fields)

    return make


def session_cookie_for(user) -> str:
    """A real session for ``user``, as the ``cookie`` header a browser would send."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@pytest.fixture
async def ws_connect():
    """Open a websocket to the real ASGI app (real channel layer): ``await ws_connect(path, user)``.

    Use with ``pytest.mark.django_db(transaction=True)``: the consumer reads the database
    from other threads. Communicators still open at the end of the test are closed.
    """
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    opened: list[WebsocketCommunicator] = []

    async def connect(path: str, user=None, origin: str = "http://testserver", expect_accept: bool = True):
        headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
        if user is not None:
            cookie = await sync_to_async(session_cookie_for)(user)
            headers.append((b"cookie", cookie.encode()))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect(timeout=5)
        if expect_accept:
            assert connected, f"websocket {path} was refused"
        if connected:
            opened.append(communicator)
            return communicator
        return None

    yield connect
    for communicator in opened:
        try:
            await communicator.disconnect(timeout=5)
        except Exception:
            pass
    # The consumers' event-loop clients (hunt submissions) end with this test's loop.
    from config import loop_clients

    await loop_clients.close()


@contextmanager
def celery_worker_running():
    """A real Celery worker, in a thread of this process, consuming from the test Redis."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    if LIVE_SITES:
        # Its worker process consumes the same queue and would take this test's tasks,
        # doing their work (an email to its console, say) where the test cannot see it.
        raise RuntimeError("a live site is running: its worker would take this worker's tasks")
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=20):
        yield


@pytest.fixture
def celery_worker(transactional_db):
    from config.celery import app

    # Tasks earlier tests queued and no worker ran (an email about their rows, say) are
    # not this test's: started on them, the worker would send them into this test's outbox.
    app.control.purge()
    with celery_worker_running():
        yield


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 120) -> None:
    """Wait until ``process`` listens on ``port``; it fails at once if the process ends.

    The deadline only bounds a hung start-up: daphne loads the whole site before it
    listens, a few seconds on a quiet machine and more than 30 on a busy one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listening on port {port}")


class LiveSite:
    """daphne + a Celery worker + beat, as separate processes, on the test database."""

    def __init__(self, env: dict[str, str]):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.logs = ROOT / "var" / "test-logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.processes: list[subprocess.Popen] = []

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.logs / f"{name}-{self.port}.log", "w")
        process = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def start(self) -> LiveSite:
        bin_dir = Path(sys.executable).parent
        web = self._spawn(
            "daphne", [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"]
        )
        self._spawn(
            "worker",
            [str(bin_dir / "celery"), "-A", "config", "worker", "--pool=threads", "--concurrency=4", "--loglevel=INFO"],
        )
        self._spawn(
            "beat",
            [
                str(bin_dir / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel=INFO",
                f"--schedule={self.logs}/beat-{self.port}",
            ],
        )
        try:
            wait_for_port(self.port, web)
        except BaseException:
            self.stop()  # a site that never came up leaves no process behind
            raise
        return self

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


# The live sites' VAPID key (tests/e2e/test_push_notifications.py subscribes to it).
LIVE_SITE_VAPID_KEY = "Yz2lTrNi4-N-1u9HiPDbdWhDoZ3mIjgLUd4y5RZ9Xfo"

# The live sites running now, whose worker consumes this process's Celery queue.
LIVE_SITES: list[LiveSite] = []


@pytest.fixture(scope="session")
def live_site(django_db_setup, django_db_blocker):
    """The whole platform in server mode on the test database (use with ``transactional_db``).

    It runs to the end of the session, so only the browser tests, which run last, use it;
    tests/integration/conftest.py gives the integration tests one per module.
    """
    with live_site_running() as site:
        yield site


@contextmanager
def live_site_running():
    """Start a ``LiveSite`` on the test database and Redis; stop it on leaving."""
    from django.conf import settings

    from config.celery import app

    env = dict(os.environ)
    env["DATABASE_URL"] = _database_url(settings.DATABASES["default"])
    # The default prefix comes from the database name, which pytest-django changed here
    # only: the site's processes must publish and listen where this process does.
    if getattr(settings, "CHANNEL_LAYER_PREFIX", None):
        env["CHANNEL_LAYER_PREFIX"] = settings.CHANNEL_LAYER_PREFIX
    # The live site offers Web Push, as a deployment with a key does (the tests' own
    # process has none unless a test sets one: its query counts stay a push-off site's).
    env.setdefault("WEBPUSH_VAPID_PRIVATE_KEY", LIVE_SITE_VAPID_KEY)
    # Tasks the earlier tests queued (countdowns, a stopped worker's ETA tasks) belong to
    # rows long flushed: the live worker must not run them against this phase's rows.
    app.control.purge()
    site = LiveSite(env).start()
    LIVE_SITES.append(site)
    try:
        yield site
    finally:
        LIVE_SITES.remove(site)
        site.stop()


def _database_url(db: dict) -> str:
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture(scope="session")
def browser():
    """Headless Debian chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is needed for browser tests: apt-get install chromium")
    # Playwright's sync API keeps an event loop running in this thread; the test's own
    # database work (fixtures, flushes) is still plain synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_site, transactional_db):
    context = browser.new_context(base_url=live_site.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def new_page(browser, live_site, transactional_db):
    """Open more browser contexts (one per player): ``new_page()``, or with Playwright's
    context options, e.g. ``new_page(viewport=..., has_touch=True)``."""
    contexts = []

    def make(**options):
        options = {"viewport": {"width": 1280, "height": 900}, **options}
        context = browser.new_context(base_url=live_site.url, **options)
        context.set_default_timeout(15000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Browser tests run last, after pytest-django's own ordering (db, transactional, no db).

    Playwright's sync API leaves its event loop running in this thread for the rest of the
    session, so an async test ordered after the first browser test could not start its own
    loop; the live site they share also runs from the first browser test to the end.
    """
    items.sort(key=lambda item: item.path.parent.name == "e2e")


def _is_deadlock(error: BaseException | None) -> bool:
    while error is not None:
        if getattr(error, "sqlstate", None) == "40P01":
            return True
        error = error.__cause__
    return False


def pytest_configure(config):
    """A transactional test's database is emptied with TRUNCATE, which takes every table's
    exclusive lock in turn. The live site's processes keep working meanwhile (a sweep that
    reads two tables in one transaction), and PostgreSQL may end the deadlock between the
    two by cancelling the TRUNCATE; the emptying is then run again, as it is safe to."""
    from django.conf import settings
    from django.core.management.base import CommandError
    from django.core.management.commands import flush

    # A connection pool is per process, and the tests' own threads (an async test's
    # sync_to_async, a worker that stops) end without handing their connection back, so
    # this process connects per request; the servers the tests start keep the pool.
    settings.DATABASES["default"].get("OPTIONS", {}).pop("pool", None)

    emptying = flush.Command.handle

    def handle(self, **options):
        for attempt in range(3):
            try:
                return emptying(self, **options)
            except CommandError as error:
                if attempt == 2 or not _is_deadlock(error):
                    raise
                time.sleep(0.2 * (attempt + 1))

    flush.Command.handle = handle
