"""Setting up from nothing: the production settings, the throwaway servers, a half-made venv repaired."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.services import PostgresServer, RedisServer

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import install  # noqa: E402  (tools/ is a folder of scripts, not a package)


def production_env(**extra: str) -> dict[str, str]:
    """The environment of a deployment: server mode, a real key, nothing the test run set.

    Only the basics are inherited: the test run's own variables (WORDFALL_TESTING, the
    browser tests' DJANGO_ALLOW_ASYNC_UNSAFE, ...) would not be there on a server.
    """
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
    env.update(
        DATABASE_URL="postgres://wordfall:secret@db.internal:5432/wordfall",
        REDIS_URL="redis://redis.internal:6379/0",
        SECRET_KEY="x7-Qm2vR9tLz_4kPf8HwYc3Nb6Jd1Gs5Ae0Uo-Ti9Wl2Xr7Kq4Mn8Vb3Pz6Hy1Cj5",
        ALLOWED_HOSTS="play.example.org",
        CSRF_TRUSTED_ORIGINS="https://play.example.org",
        SITE_URL="https://play.example.org",
    )
    env.update(extra)
    return env


def test_production_settings_pass_check_deploy_with_no_warning():
    """Server mode with DEBUG off and a long key: `check --deploy` finds nothing, not even a warning."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_refuse_a_missing_or_short_secret_key():
    """Without the test switch, server mode will not start on no key or a short one."""
    for key in ("", "too-short"):
        result = subprocess.run(
            [sys.executable, "manage.py", "check"],
            cwd=ROOT,
            env=production_env(SECRET_KEY=key),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode != 0
        assert "SECRET_KEY" in result.stderr


def test_redis_server_killed_and_restarted_keeps_its_port_and_starts_empty():
    """SIGKILL stops it at once; restart answers on the same URL with no data (no persistence)."""
    with RedisServer() as server:
        client = redis.Redis.from_url(server.url, socket_timeout=2)
        client.set("round", "playing")
        url = server.url
        server.kill()
        assert not server.running
        with pytest.raises(redis.ConnectionError):
            redis.Redis.from_url(url, socket_timeout=1).ping()
        server.restart()
        assert server.url == url
        assert redis.Redis.from_url(url).get("round") is None
    assert not server.dir.exists()


def test_postgres_server_survives_a_kill_with_committed_rows():
    """A throwaway cluster of its own: a committed row is still there after SIGKILL and restart."""
    import psycopg

    with PostgresServer() as server:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute("CREATE TABLE words (word text)")
            conn.execute("INSERT INTO words VALUES ('rampage')")
        server.kill()
        assert not server.running
        server.restart()
        with psycopg.connect(server.url) as conn:
            assert conn.execute("SELECT word FROM words").fetchall() == [("rampage",)]
    assert not server.dir.exists()


def test_a_half_made_venv_is_made_again(tmp_path, capsys):
    """A venv whose python has no pip (Debian without python3-venv) is removed and rebuilt with pip."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    assert (venv / "bin" / "python").exists() and not install.venv_usable(venv)

    install.create_venv(venv, python=sys.executable)

    assert install.venv_usable(venv)
    assert "half-made" in capsys.readouterr().err


def test_a_python_that_cannot_make_a_venv_gets_the_package_to_install(tmp_path, capsys):
    """When `python -m venv` fails, nothing half-made is left and the message names python3-venv."""
    broken = tmp_path / "python3"
    broken.write_text("#!/bin/sh\necho 'ensurepip is not available' >&2\nexit 1\n")
    broken.chmod(0o755)
    venv = tmp_path / "venv"

    with pytest.raises(SystemExit) as exit_:
        install.create_venv(venv, python=str(broken))

    assert exit_.value.code == 1
    assert not venv.exists()
    assert "apt-get install python3-venv" in capsys.readouterr().err  # the fake python does not run


def test_missing_packages_as_a_user_print_the_one_command_to_run(monkeypatch, capsys):
    """Not root: nothing is installed, and the message is the apt-get line for exactly what is missing."""
    import tests.services as services

    monkeypatch.setattr(services, "missing_programs", lambda: ["redis-server", "chromium"])
    monkeypatch.setattr(services.os, "geteuid", lambda: 1000)

    assert services.ensure_system(install=True) == 1
    assert "sudo apt-get install -y redis-server chromium" in capsys.readouterr().err


def test_given_servers_need_no_server_packages(monkeypatch):
    """With TEST_DATABASE_URL and TEST_REDIS_URL given, PostgreSQL and Redis need not be installed."""
    import tests.services as services

    monkeypatch.setattr(services, "postgres_bin_dir", lambda: None)
    monkeypatch.setattr(services.shutil, "which", lambda name: None)
    monkeypatch.setattr(services.os.path, "exists", lambda path: path == services.CHROMIUM)
    monkeypatch.delenv("TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("TEST_REDIS_URL", raising=False)
    assert {"postgres", "redis-server"} <= set(services.missing_programs())

    monkeypatch.setenv("TEST_DATABASE_URL", "postgres://postgres@db.internal/wordfall")
    monkeypatch.setenv("TEST_REDIS_URL", "redis://redis.internal:6379/3")
    assert not {"postgres", "redis-server"} & set(services.missing_programs())


def test_a_run_on_a_given_redis_keeps_to_its_own_queue_and_cache_keys():
    """WORDFALL_TEST_RUN names the Celery queue and cache prefix under test; a server ignores it."""
    show = (
        "from django.conf import settings; "
        "print(settings.CELERY_TASK_DEFAULT_QUEUE if hasattr(settings, 'CELERY_TASK_DEFAULT_QUEUE') else 'celery', "
        "settings.CACHES['default']['KEY_PREFIX'])"
    )

    def queue_and_prefix(**extra):
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", show],
            cwd=ROOT,
            env=production_env(WORDFALL_TEST_RUN="run42", **extra),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    assert queue_and_prefix(WORDFALL_TESTING="1") == ["wf-test-run42", "wf-test-run42"]
    assert queue_and_prefix() == ["celery", "wf"]


def test_only_the_test_settings_trade_the_password_hashers_cost_for_speed():
    """A server hashes with Django's PBKDF2; the test switch puts a fast hasher first and keeps PBKDF2."""
    show = "from django.contrib.auth.hashers import get_hashers; print(*(h.algorithm for h in get_hashers()))"

    def hashers(**extra):
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", show],
            cwd=ROOT,
            env=production_env(**extra),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    assert hashers()[0] == "pbkdf2_sha256"
    assert hashers(WORDFALL_TESTING="1") == ["md5", "pbkdf2_sha256"]


def test_each_test_worker_has_a_redis_database_and_live_event_channels_of_its_own():
    """pytest-xdist workers share the run's servers: on a Redis the run started each takes a
    database of its own, on someone else's a queue and cache keys of its own; pub/sub ignores
    databases, so each one's channel prefix is its own too (pytest-django names the databases)."""
    from tests.services import OWNED_REDIS, share_with_worker

    run = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/wordfall", "REDIS_URL": "redis://127.0.0.1:6379/0"}
    owned = {**run, OWNED_REDIS: run["REDIS_URL"]}
    workers = [dict(owned), dict(owned)]
    for number, environ in enumerate(workers):
        share_with_worker(environ, f"gw{number}")
    assert [w["REDIS_URL"] for w in workers] == ["redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/14"]
    assert [w["CHANNEL_LAYER_PREFIX"] for w in workers] == ["wf.wordfall_gw0.", "wf.wordfall_gw1."]
    given = [{**run, "WORDFALL_TEST_RUN": "run42"}, {**run, "WORDFALL_TEST_RUN": "run42"}]
    for number, environ in enumerate(given):
        share_with_worker(environ, f"gw{number}")
    assert [w["REDIS_URL"] for w in given] == [run["REDIS_URL"]] * 2
    assert [w["WORDFALL_TEST_RUN"] for w in given] == ["run42-gw0", "run42-gw1"]


@pytest.mark.parametrize("server_class", [RedisServer, PostgresServer])
def test_a_port_taken_before_the_first_start_is_given_up_for_another(server_class):
    """Another program listening on the picked port: the server starts on a new free port, itself."""
    import socket

    server = server_class()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", server.port))
    squatter.listen()
    try:
        taken = server.port
        server.start()
        assert server.port != taken and server.running
        port = server.port
        server.restart()
        assert server.port == port
    finally:
        squatter.close()
        server.cleanup()


@pytest.mark.django_db
def test_a_live_site_that_never_listens_leaves_no_process_behind(monkeypatch):
    """daphne does not listen in time: the start fails and ends the three processes it started."""
    from django.conf import settings

    import tests.conftest
    from tests.conftest import LiveSite, _database_url

    def never_listening(port, process, timeout=0):
        raise RuntimeError(f"nothing listening on port {port}")

    monkeypatch.setattr(tests.conftest, "wait_for_port", never_listening)
    site = LiveSite({**os.environ, "DATABASE_URL": _database_url(settings.DATABASES["default"])})
    with pytest.raises(RuntimeError, match="nothing listening"):
        site.start()
    assert len(site.processes) == 3
    assert all(process.poll() is not None for process in site.processes)
