"""Start-up checks for what the hunts' submit path needs of the database connection."""

from __future__ import annotations

from django.core import checks
from django.db import connections


@checks.register(checks.Tags.database)
def submit_statement_binding(app_configs=None, databases=None, **kwargs) -> list[checks.CheckMessage]:
    """The submit path sends the round's lock and the INSERT … SELECT as one simple query
    (one round trip, one implicit transaction; see ``submissions._store_find``). That takes
    psycopg's client-side binding, Django's default: with server-side binding PostgreSQL
    refuses two commands in one prepared statement, and every submission would fail."""
    errors = []
    for alias in connections:
        settings_dict = connections.settings[alias]
        if "postgresql" in settings_dict["ENGINE"] and settings_dict.get("OPTIONS", {}).get("server_side_binding"):
            errors.append(
                checks.Error(
                    f"DATABASES[{alias!r}] sets server_side_binding; the hunts' submit statement needs "
                    "client-side binding (remove the option).",
                    id="hunts.E001",
                )
            )
    return errors
