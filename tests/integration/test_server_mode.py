"""Server mode as an operator starts it: the README's own block, run by `make run`."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest

from tests.conftest import ROOT, free_port
from tests.integration.test_setup import production_env
from tests.services import PostgresServer, RedisServer

README = ROOT / "README.md"


def readme_server_block() -> str:
    """The shell block of README's "Server mode" paragraph, as an operator copies it."""
    text = README.read_text()
    section = text[text.index("**Server mode**") :]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def operator_env(**extra: str) -> dict[str, str]:
    """A shell of the machine's basics only: nothing the test run set, no server-mode variable."""
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
    env.update(extra)
    return env


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def get(url: str, **headers: str) -> tuple[int, dict, bytes]:
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers={"Host": "play.example.org", **headers})
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_readme_block_serves_the_site_from_a_server_with_no_database(tmp_path):
    """The README's variables alone, hosts pointed here: the database and administrator are made, /healthz is 200."""
    block = readme_server_block()
    assert re.findall(r"\b([A-Z_]+)=", block) == [
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "SITE_URL",
        "EMAIL_URL",
    ]
    assert block.rstrip().endswith("make run")
    port = free_port()
    with PostgresServer() as postgres, RedisServer() as redis:
        with psycopg.connect(postgres.url, autocommit=True) as conn:
            # The role of the README's URL, allowed to create its database; none exists yet.
            conn.execute("CREATE ROLE wordfall LOGIN PASSWORD 'secret' CREATEDB")
        script = block.replace("db.internal:5432", f"127.0.0.1:{postgres.port}").replace(
            "redis.internal:6379", f"127.0.0.1:{redis.port}"
        )
        log = tmp_path / "make-run.log"
        with open(log, "w") as out:
            run = subprocess.Popen(
                ["bash", "-e", "-c", script],
                cwd=ROOT,
                env=operator_env(PORT=str(port), VAR_DIR=str(tmp_path / "var")),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            healthy = None
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and run.poll() is None:
                try:
                    status, _, body = get(f"http://127.0.0.1:{port}/healthz")
                except OSError:
                    status = None
                if status == 200:
                    healthy = json.loads(body)
                    break
                time.sleep(1)
            output = log.read_text()
            assert healthy is not None, output[-3000:]
            assert healthy["mode"] == "server" and healthy["status"] == healthy["database"] == healthy["redis"] == "ok"

            assert "Created the database wordfall." in output
            assert "username: admin" in output
            assert "Log in at https://play.example.org/accounts/login/" in output
            assert "manage.py changepassword admin" in output
            assert "CRIT" not in output, output
            # Any other page over plain HTTP goes to HTTPS; through the TLS proxy it is served.
            status, headers, _ = get(f"http://127.0.0.1:{port}/")
            assert status == 301 and headers["Location"] == "https://play.example.org/"
            status, _, body = get(f"http://127.0.0.1:{port}/", **{"X-Forwarded-Proto": "https"})
            assert status == 200 and b"Wordfall" in body
        finally:
            os.killpg(run.pid, signal.SIGTERM)
            try:
                run.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()


def test_a_role_that_may_not_create_the_database_is_told_the_command():
    """ensure_database on a role without CREATEDB: exit 1, nothing made, the createdb line to run."""
    with PostgresServer() as postgres:
        with psycopg.connect(postgres.url, autocommit=True) as conn:
            conn.execute("CREATE ROLE player LOGIN")
        url = f"postgres://player@127.0.0.1:{postgres.port}/wordfall"
        result = subprocess.run(
            [sys.executable, "manage.py", "ensure_database"],
            cwd=ROOT,
            env=production_env(DATABASE_URL=url, SITE_URL="https://play.example.org"),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 1
        assert "sudo -u postgres createdb --owner=player wordfall" in result.stderr
        assert "Traceback" not in result.stderr
        with psycopg.connect(postgres.url) as conn:
            assert not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'wordfall'").fetchone()


def test_an_unreachable_server_is_one_line_and_the_commands_to_make_the_role():
    """No PostgreSQL at the address: no traceback, the reason and the createuser/createdb lines."""
    url = f"postgres://wordfall:secret@127.0.0.1:{free_port()}/wordfall"
    result = subprocess.run(
        [sys.executable, "manage.py", "ensure_database"],
        cwd=ROOT,
        env=production_env(DATABASE_URL=url, SITE_URL="https://play.example.org"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "Cannot reach PostgreSQL as wordfall" in result.stderr
    assert "createuser --pwprompt wordfall" in result.stderr


def test_a_busy_port_stops_make_run_before_anything_is_set_up(tmp_path):
    """Something listens on PORT: `make run` says so and exits before installing or migrating."""
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", 0))
    squatter.listen()
    port = squatter.getsockname()[1]
    try:
        result = subprocess.run(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=operator_env(VAR_DIR=str(tmp_path)),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        squatter.close()
    assert result.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert f"make run PORT={port + 1}" in result.stderr
    assert "migrate" not in result.stdout + result.stderr
    assert not list(Path(tmp_path).iterdir())


@pytest.mark.parametrize("site_url", ["", None])
def test_server_mode_refuses_to_start_without_its_public_address(site_url):
    """No SITE_URL in server mode: the settings refuse to load and name the variable."""
    env = production_env()
    env.pop("SITE_URL", None)
    if site_url is not None:
        env["SITE_URL"] = site_url
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "SITE_URL must be set in server mode" in result.stderr


@pytest.mark.parametrize(("value", "disabled"), [(None, False), ("false", True), ("true", False)])
def test_server_side_cursors_turn_off_for_pgbouncer(value, disabled):
    """``DATABASE_SERVER_SIDE_CURSORS=false`` (for PgBouncer's transaction pooling) reaches
    Django's database settings; they stay on by default."""
    env = production_env()
    if value is not None:
        env["DATABASE_SERVER_SIDE_CURSORS"] = value
    read = "from django.conf import settings; print(settings.DATABASES['default']['DISABLE_SERVER_SIDE_CURSORS'])"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {read}"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == str(disabled)
