"""What the benchmarks that run the whole site share: its environment and its database.

Each such benchmark uses a PostgreSQL database of its own ($BENCH_DATABASE_URL, default
``postgres://postgres@127.0.0.1:5432/<name>``, created and migrated if missing) and
Redis ($BENCH_REDIS_URL, default $REDIS_URL, else ``redis://127.0.0.1:6379/14``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def bench_env(database: str) -> dict[str, str]:
    """This process's environment for a server-mode run on the benchmark database ``database``."""
    env = dict(os.environ)
    # Connections from the site's pool, as a server deployment has them (DATABASE_POOL_SIZE).
    env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{database}")
    env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"))
    env.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    env.setdefault("SITE_URL", "http://127.0.0.1:8000")
    env["DJANGO_SETTINGS_MODULE"] = os.environ.get("BENCH_SETTINGS", "config.settings")
    env["DEBUG"] = "0"
    env["SECURE_SSL_REDIRECT"] = "0"
    env["LOG_LEVEL"] = "WARNING"
    return env


def ensure_database(url: str) -> None:
    """Create the database of ``url`` if it does not exist."""
    import psycopg

    base = url.split("?", 1)[0]
    name = base.rsplit("/", 1)[1]
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def prepared_env(database: str) -> dict[str, str]:
    """Set this process up for ``database`` (environment, database, migrations); its environment."""
    env = bench_env(database)
    os.environ.update(env)
    ensure_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    return env
