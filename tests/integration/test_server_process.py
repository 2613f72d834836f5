"""What a server process does once the site is loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.conftest import _database_url

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, time
import config.asgi
start = time.perf_counter()
gc.collect()
print(json.dumps({"frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects()),
                  "full_collection_ms": (time.perf_counter() - start) * 1000}))
"""


def test_the_site_is_loaded_out_of_the_garbage_collectors_view():
    """Django, the routes and the site's modules are frozen once ``config.asgi`` has loaded
    them, so a full collection in a server walks only what sockets and requests made since:
    it would otherwise walk about 120,000 objects and stall every socket for tens of ms."""
    env = dict(
        os.environ, DATABASE_URL=_database_url(settings.DATABASES["default"]), DJANGO_SETTINGS_MODULE="config.settings"
    )
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["frozen"] > 50_000
    assert probe["tracked"] < probe["frozen"] / 20
