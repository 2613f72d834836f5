"""Create the server's PostgreSQL database when it does not exist (`make run`, server mode)."""

from __future__ import annotations

import shlex

import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from psycopg import sql

# Every cluster has it; a role that may log in at all may connect to it by default.
MAINTENANCE_DATABASE = "postgres"


class Command(BaseCommand):
    help = (
        "Create the database of DATABASE_URL if it does not exist and its role may create databases; "
        "otherwise say the one command that creates it."
    )
    # The checks may read the database this command is here to create.
    requires_system_checks: list[str] = []

    def handle(self, *args, **options):
        database = settings.DATABASES["default"]
        if database["ENGINE"] != "django.db.backends.postgresql":
            return
        name, user = database["NAME"], database.get("USER") or ""
        params = {
            "host": database.get("HOST") or None,
            "port": database.get("PORT") or None,
            "user": user or None,
            "password": database.get("PASSWORD") or None,
            "connect_timeout": 10,
        }
        try:
            with psycopg.connect(dbname=MAINTENANCE_DATABASE, autocommit=True, **params) as conn:
                if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                    return
                may_create = conn.execute(
                    "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
                ).fetchone()[0]
                if may_create:
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
                    self.stdout.write(f"Created the database {name}.")
                    return
        except psycopg.OperationalError as error:
            raise CommandError(
                f"Cannot reach PostgreSQL as {user or 'the default user'}: {first_line(error)}\n"
                "Check DATABASE_URL. A new server needs the role and the database, made once by "
                "PostgreSQL's superuser:\n"
                f"  {create_role_command(user)}\n"
                f"  {create_database_command(name, user)}"
            ) from None
        raise CommandError(
            f"The database {name} does not exist and the role {user} may not create databases. "
            f"Create it once as PostgreSQL's superuser:\n  {create_database_command(name, user)}"
        )


def first_line(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


def create_role_command(user: str) -> str:
    role = user or "wordfall"
    return f"sudo -u postgres createuser --pwprompt {shlex.quote(role)}"


def create_database_command(name: str, user: str) -> str:
    owner = f" --owner={shlex.quote(user)}" if user else ""
    return f"sudo -u postgres createdb{owner} {shlex.quote(name)}"
