"""Integration fixtures: a live site lives for one test module only."""

import pytest

from tests.conftest import live_site_running


@pytest.fixture(scope="module")
def live_site(django_db_setup, django_db_blocker):
    """The whole platform in server mode, stopped when the module's tests are done.

    The session-wide one would keep its worker process consuming the test queue through
    every later integration test, taking the tasks that their in-process workers
    (``celery_worker``) wait for.
    """
    with live_site_running() as site:
        yield site
