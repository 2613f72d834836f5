"""Running two database sessions at once in a test, so that they really overlap."""

from __future__ import annotations

import threading
import time

from django.db import connection


def wait_for_a_blocked_session(seconds: float = 10.0) -> bool:
    """Return True once another session of this database waits for a lock."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # Inside a transaction the activity view is a snapshot unless cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


def run_threads(*targets) -> None:
    """Run each target in a thread of its own (each with its own connection, closed at
    its end) and wait for all of them."""

    def closing(target):
        def run():
            try:
                target()
            finally:
                connection.close()

        return run

    threads = [threading.Thread(target=closing(target)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads)
