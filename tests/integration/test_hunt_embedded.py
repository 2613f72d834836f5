"""A hunt in the embedded default: daphne alone (SQLite, in-process channel layer and Celery).

The round is started over HTTP like a person would; the in-process worker must run the
bot and end the round at its deadline with nothing else running.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, free_port, wait_for_port

pytestmark = pytest.mark.worker

SETUP = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
from games.hunts import services
from games.hunts.models import HuntTable
ann = User.objects.create_user("ann", "ann@example.com", "correct-horse-9")
table = services.table_create(host=ann, bots=("hard",))
HuntTable.objects.filter(pk=table.pk).update(round_seconds=30)
store = SessionStore()
store[SESSION_KEY] = str(ann.pk)
store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
store[HASH_SESSION_KEY] = ann.get_session_auth_hash()
store.create()
print(json.dumps({"table": table.pk, "session": store.session_key}))
"""

STATUS = """
from games.hunts.models import HuntRound
r = HuntRound.objects.order_by("-pk").first()
print(json.dumps({"status": r.status if r else None,
                  "words": r.found_words.count() if r else 0,
                  "scores": sorted(r.players.values_list("score", flat=True)) if r else []}))
"""


def shell(env, code: str) -> dict:
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", "import json\n" + code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def embedded(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "WORDFALL_TESTING", "DJANGO_SETTINGS_MODULE")
    }
    env["VAR_DIR"] = str(tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    port = free_port()
    log = open(tmp_path / "daphne.log", "w")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, server)
        yield f"http://127.0.0.1:{port}", env
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_bot_round_ends_on_time_in_the_embedded_default(embedded):
    """Started over HTTP, the round's bot plays and the round is scored at its deadline."""
    url, env = embedded
    made = shell(env, SETUP)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    jar.set_cookie(
        http.cookiejar.Cookie(
            0,
            "sessionid",
            made["session"],
            None,
            False,
            "127.0.0.1",
            False,
            False,
            "/",
            True,
            False,
            None,
            False,
            None,
            None,
            {},
        )
    )
    page = opener.open(f"{url}/hunts/{made['table']}/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    request = urllib.request.Request(
        f"{url}/hunts/{made['table']}/start/",
        data=f"csrfmiddlewaretoken={token}".encode(),
        headers={"Referer": f"{url}/hunts/{made['table']}/"},
        method="POST",
    )
    assert opener.open(request).status == 200
    deadline = time.monotonic() + 60
    status = shell(env, STATUS)
    while status["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(3)
        status = shell(env, STATUS)
    assert status["status"] == "finished"
    assert status["words"] >= 3 and status["scores"][0] == 0 and status["scores"][1] > 0
