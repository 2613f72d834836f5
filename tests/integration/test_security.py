"""Attacks on the site, each probe made as an attacker would: sockets, rounds, request data, the channel layer,
client addresses, accounts, health and CSP."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection

from games.engine import hunt
from games.hunts import services as hunt_services
from games.hunts.models import FoundWord, HuntRound, RoundStatus

BOARD = hunt.Board([["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["p", "l", "u", "m"]])


# --------------------------------------------------------------------------- websockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_deeply_nested_json_is_refused_as_malformed(ws_connect, caplog):
    """JSON nested 1,000 deep gets the malformed-message reason, and no traceback is logged."""
    ws = await ws_connect("/ws/presence/")
    caplog.set_level(logging.WARNING, logger="wordfall.websocket")
    await ws.send_to(text_data="[" * 1000 + "]" * 1000)
    reply = json.loads(await ws.receive_from(timeout=5))
    assert reply == {"type": "error", "reason": "Messages must be JSON text."}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await ws.receive_from(timeout=5)) == {"type": "pong"}


# --------------------------------------------------------------------------- hunt rounds


@pytest.mark.django_db
def test_a_round_with_an_id_beyond_32_bits_accepts_words_and_ends(make_user):
    """A round whose id is 2**31 or more takes its lock, stores a find and is totalled."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [HuntRound._meta.db_table, 2**31 + 7])
    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="rampage", seat_count=2)
    hunt_services.table_join(table_id=table.pk, user=bob)
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    assert game_round.pk >= 2**31
    HuntRound.objects.filter(pk=game_round.pk).update(board=BOARD.to_text())
    game_round.refresh_from_db()
    now = game_round.starts_at + timedelta(seconds=1)
    result = hunt_services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)
    assert result.outcome == "accepted", result.reason
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    game_round.refresh_from_db()
    assert game_round.status == RoundStatus.FINISHED
    assert list(FoundWord.objects.filter(round=game_round).values_list("word", flat=True)) == ["cat"]


# --------------------------------------------------------------------------- request data


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/u/%00/", "/u/ann%00/", "/u/a%2Fb/"])
def test_a_profile_address_that_is_no_username_is_not_found(client, make_user, path):
    """A NUL byte (or a slash) in a profile address answers 404, never reaches PostgreSQL."""
    make_user("ann")
    assert client.get(path).status_code == 404
    assert client.get("/u/ann/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("seat", ["²", "-1", "0", "5", "1e3", "x"])
def test_leaving_with_a_malformed_seat_changes_nothing(client, make_user, seat):
    """A seat that is no seat number is refused: no error page, and the host's table stays open."""
    from games.hunts.models import HuntTable, TableStatus

    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="rampage", seat_count=3, bots=("easy",))
    hunt_services.table_join(table_id=table.pk, user=bob)
    client.force_login(ann)
    response = client.post(f"/hunts/{table.pk}/leave/", {"seat": seat}, follow=True)
    assert response.status_code == 200
    assert "No such seat." in response.content.decode()
    table.refresh_from_db()
    assert table.status != TableStatus.CLOSED and table.host_id == ann.pk
    assert HuntTable.objects.get(pk=table.pk).seats.filter(left_at__isnull=True).count() == 3


# --------------------------------------------------------------------------- channel layer


@pytest.mark.asyncio
async def test_two_deployments_on_one_redis_do_not_see_each_others_events(settings):
    """Layers with different prefixes (here also different db numbers) keep their groups apart."""
    from django.utils.module_loading import import_string

    layer_settings = settings.CHANNEL_LAYERS["default"]
    config = layer_settings["CONFIG"]
    assert settings.DATABASES["default"]["NAME"].removeprefix("test_") in config["prefix"]
    host = config["hosts"][0]
    base = (host["address"] if isinstance(host, dict) else host).rsplit("/", 1)[0]
    layer_class = import_string(layer_settings["BACKEND"])

    def layer(db: int, prefix: str):
        return layer_class(hosts=[f"{base}/{db}"], prefix=prefix)

    ours, also_ours, theirs = layer(3, config["prefix"]), layer(3, config["prefix"]), layer(4, "wf.another-site.")
    try:
        channel = await ours.new_channel()
        await ours.group_add("round.1", channel)
        await theirs.group_send("round.1", {"type": "round.found", "word": "theirs"})
        await also_ours.group_send("round.1", {"type": "round.found", "word": "ours"})
        message = await asyncio.wait_for(ours.receive(channel), timeout=5)
        assert message["word"] == "ours"
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ours.receive(channel), timeout=0.5)
    finally:
        for layer in (ours, also_ours, theirs):
            await layer.flush()


# --------------------------------------------------------------------------- client address


async def asgi_request(method: str, path: str, *, peer: tuple[str, int], headers=(), body: bytes = b""):
    """One HTTP request through the project's ASGI application, from socket peer ``peer``."""
    from asgiref.testing import ApplicationCommunicator

    from config.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": peer,
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await communicator.receive_output(10)
    content = b""
    while True:
        part = await communicator.receive_output(10)
        content += part.get("body", b"")
        if not part.get("more_body"):
            break
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(10)
    return start["status"], start["headers"], content


async def log_in(*, peer, forwarded_for: str | None, password: str) -> int:
    import re
    from urllib.parse import urlencode

    extra = [(b"x-forwarded-for", forwarded_for.encode())] if forwarded_for else []
    status, headers, content = await asgi_request("GET", "/accounts/login/", peer=peer, headers=extra)
    cookie = next(v for k, v in headers if k.lower() == b"set-cookie" and v.startswith(b"csrftoken="))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', content).group(1).decode()
    form = urlencode({"csrfmiddlewaretoken": token, "username": "ann", "password": password}).encode()
    status, _, _ = await asgi_request(
        "POST",
        "/accounts/login/",
        peer=peer,
        body=form,
        headers=[*extra, (b"cookie", cookie.split(b";")[0]), (b"content-type", b"application/x-www-form-urlencoded")],
    )
    return status


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("proxies", [0, 1])
async def test_a_client_forging_x_forwarded_for_is_still_locked_out(make_user, settings, proxies):
    """Each guess claims another address in X-Forwarded-For; the lock-out comes after the limit anyway."""
    from channels.db import database_sync_to_async

    settings.TRUSTED_PROXY_COUNT = proxies
    await database_sync_to_async(make_user)("ann")
    peer = ("10.0.0.1", 40000) if proxies else ("203.0.113.9", 40000)
    real = "198.51.100.7"

    def header(forged: str) -> str:
        return f"{forged}, {real}" if proxies else forged

    answers = [
        await log_in(peer=peer, forwarded_for=header(f"6.6.6.{guess}"), password="nope")
        for guess in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    assert await log_in(peer=peer, forwarded_for=header("6.6.6.99"), password="correct-horse-9") == 429
    if proxies:
        # Behind the proxy, another real client is told apart and may still log in.
        assert await log_in(peer=peer, forwarded_for="198.51.100.8", password="correct-horse-9") == 302


def test_the_client_is_the_entry_the_outermost_trusted_proxy_wrote():
    """With n trusted proxies the n-th X-Forwarded-For entry from the right is the client."""
    from config.proxies import client_address

    scope = {
        "client": ("10.0.0.2", 5000),
        "headers": [(b"x-forwarded-for", b"6.6.6.6, 198.51.100.7"), (b"x-forwarded-for", b"10.0.0.1")],
    }
    assert client_address(scope, 0) == ("10.0.0.2", 5000)
    assert client_address(scope, 1) == ("10.0.0.1", 0)
    assert client_address(scope, 2) == ("198.51.100.7", 0)
    assert client_address(scope, 4) == ("10.0.0.2", 5000)  # fewer entries than proxies
    assert client_address({"client": ("10.0.0.2", 1), "headers": [(b"x-forwarded-for", b"junk")]}, 1) == ("10.0.0.2", 1)


def test_daphne_does_not_take_the_left_most_forwarded_address():
    """The Procfile starts daphne without --proxy-headers (the client chooses the left-most entry)."""
    from pathlib import Path

    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text()
    assert "daphne" in procfile and "--proxy-headers" not in procfile


# --------------------------------------------------------------------------- accounts


def page_text(response, email: str) -> str:
    """The page without the typed address and the per-response CSRF token."""
    import re

    return re.sub(r"[Tt]oken[^A-Za-z0-9]+[A-Za-z0-9]{32,}", "token", response.content.decode().replace(email, "@"))


def sign_up(client, username: str, email: str):
    return client.post(
        "/signup/", {"username": username, "email": email, "password1": "tile-rack-2026", "password2": "tile-rack-2026"}
    )


@pytest.mark.django_db
def test_sign_up_does_not_tell_whether_an_email_has_an_account(client, make_user, django_capture_on_commit_callbacks):
    """A taken address gets the same answer as a new one; its owner is told by email, after the commit."""
    from django.core import mail

    from accounts.models import User
    from config.celery import app

    make_user("ann", email="ann@example.com")
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            taken = sign_up(client, "ann2", "Ann@Example.com")
            assert mail.outbox == [], "no email is sent inside the request"
        with django_capture_on_commit_callbacks(execute=True):
            fresh = sign_up(client, "bob", "bob@example.com")
    finally:
        app.conf.task_always_eager = False
    assert taken.status_code == fresh.status_code == 200
    assert page_text(taken, "ann@example.com") == page_text(fresh, "bob@example.com")
    assert not User.objects.filter(username="ann2").exists()
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["ann@example.com"], "[Wordfall] You already have an account"),
        (["bob@example.com"], "[Wordfall] Finish creating your account"),
    ]
    assert '"ann"' in mail.outbox[0].body and "/accounts/password_reset/" in mail.outbox[0].body


class CountingHasher(MD5PasswordHasher):
    """The test settings' hasher, counting the passwords it hashes."""

    algorithm = "counting_md5"
    hashed = 0

    def encode(self, password, salt):
        CountingHasher.hashed += 1
        return super().encode(password, salt)


@pytest.mark.django_db
def test_sign_up_with_a_taken_address_hashes_the_password_as_a_new_one_does(client, make_user, settings):
    """Hashing is the slow step of a sign-up: both answers pay it once, so neither is quicker."""
    make_user("ann", email="ann@example.com")
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    hashed = []
    for username, email in (("ann2", "ann@example.com"), ("bob", "bob@example.com")):
        CountingHasher.hashed = 0
        assert sign_up(client, username, email).status_code == 200
        hashed.append(CountingHasher.hashed)
    assert hashed == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_password_reset_answers_alike_and_emails_through_the_worker(client, make_user, celery_worker):
    """Known and unknown addresses: same redirect, same queries (none on accounts); the worker sends.

    Every email is sent on a thread that is not the request's, and both addresses' tasks ran
    in the worker (its postrun signal), the unknown one sending nothing.
    """
    import re
    import threading
    import time

    from celery.signals import task_postrun
    from django.core import mail
    from django.core.mail.backends.locmem import EmailBackend
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sent_on, finished = [], []
    send_messages = EmailBackend.send_messages

    def recording_send(backend, messages):
        sent_on.append(threading.get_ident())
        return send_messages(backend, messages)

    def task_finished(sender=None, args=None, retval=None, **_):
        if sender is not None and sender.name.endswith("send_password_reset"):
            finished.append((tuple(args or ()), retval))

    task_postrun.connect(task_finished, weak=False)
    EmailBackend.send_messages = recording_send
    try:
        make_user("ann", email="ann@example.com")
        answers, queries = [], []
        for address in ("ann@example.com", "nobody@example.com"):
            with CaptureQueriesContext(connection) as captured:
                response = client.post("/accounts/password_reset/", {"email": address})
            answers.append((response.status_code, response.url))
            queries.append([re.sub(r"'[^']*'", "?", q["sql"]) for q in captured.captured_queries])
        deadline = time.monotonic() + 15
        while len(finished) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        EmailBackend.send_messages = send_messages
        task_postrun.disconnect(task_finished)
    assert answers[0] == answers[1] == (302, "/accounts/password_reset/done/")
    assert queries[0] == queries[1]
    assert not [sql for sql in queries[0] if "accounts_user" in sql], "the request never looks the address up"
    assert sorted(finished) == [(("ann@example.com",), 1), (("nobody@example.com",), 0)]
    assert sent_on and threading.get_ident() not in sent_on, "no email is sent inside the request"
    assert [m.to for m in mail.outbox] == [["ann@example.com"]]
    assert "/accounts/reset/" in mail.outbox[0].body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "accepted"),
    [
        ("аlice", False),  # Cyrillic а, Latin lice
        ("ѕсоре", False),  # all Cyrillic, reads as "scope"
        ("Ωmega", False),  # Greek and Latin
        ("alice_2", True),
        ("jürgen", True),
        ("山田", True),
    ],
)
def test_usernames_that_pass_for_latin_ones_are_refused(client, username, accepted):
    """Mixed-script names, and names with letters that look Latin but are not, are refused."""
    from accounts.models import User

    response = sign_up(client, username, "someone@example.com")
    assert User.objects.filter(username=username).exists() is accepted
    if not accepted:
        errors = " ".join(response.context["form"].errors["username"])
        assert "one alphabet" in errors or "look like Latin" in errors


# --------------------------------------------------------------------------- healthz and CSP


@pytest.mark.django_db(transaction=True)
def test_healthz_shows_details_only_to_staff_and_local_monitors(client, make_user, settings):
    """From outside: just the status; staff and a direct local request also see each part."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # down, so the answer is 503 either way
    public = client.get("/healthz", REMOTE_ADDR="198.51.100.7")
    assert (public.status_code, json.loads(public.content)) == (503, {"status": "down"})
    proxied = client.get("/healthz", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert json.loads(proxied.content) == {"status": "down"}, "a proxied request is not local"
    local = json.loads(client.get("/healthz").content)
    assert local["redis"].startswith("down") and local["status"] == "down"
    client.force_login(make_user("mod", is_staff=True))
    staff = json.loads(client.get("/healthz", REMOTE_ADDR="198.51.100.7").content)
    assert staff["redis"].startswith("down") and "database" in staff


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_scripts(client, make_user):
    """Every page is served with a CSP that allows scripts from the site only, and no page inlines one."""
    import re

    client.force_login(make_user("ann", is_staff=True, is_superuser=True))
    table = hunt_services.table_create(host=make_user("bob"), game="rampage")
    for path in (
        "/",
        "/hunts/",
        f"/hunts/{table.pk}/",
        "/words/",
        "/games/",
        "/games/new/",
        "/u/ann/",
        "/settings/",
        "/notifications/",
        "/admin/",
        "/admin/accounts/user/",
        "/admin/accounts/user/add/",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        policy = dict(d.strip().split(" ", 1) for d in response.headers["Content-Security-Policy"].split(";"))
        assert policy["script-src"] == policy["default-src"] == "'self'", path
        assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'", path
        html = response.content.decode()
        inline = [
            tag for tag in re.findall(r"<script\b[^>]*>", html) if "src=" not in tag and "application/json" not in tag
        ]
        assert not inline, (path, inline)
        assert not re.search(r"\son[a-z]+\s*=", html.replace("\\n", " ")), path
        assert "<style" not in html, path


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/u/%00/",
        "/api/players/%00",
        "/api/players/ann%00/games",
        "/api/players/ann/games?page=%C2%B2",
        "/api/players/ann/games?pool=%00",
        "/api/leaderboards/%00",
        "/api/leaderboards/rampage?page=%00",
        "/ratings/rampage/?page=%C2%B2",
        "/ratings/rampage/?page=%00",
        "/words/?word=%00",
        "/words/changes/?lexicon=%00&page=%C2%B2",
        "/words/request/?word=%00&lexicon=%00&action=%00",
        "/hunts/daily/?day=%00",
        "/hunts/999999999999999999999/",
        "/games/999999999999999999999/",
    ],
)
def test_no_address_answers_500_to_junk(client, make_user, path):
    """NUL bytes, superscript digits and ids beyond 64 bits get a 4xx or a page, never a 500."""
    client.force_login(make_user("ann"))
    client.raise_request_exception = False
    assert client.get(path).status_code < 500, path


@pytest.mark.django_db
def test_the_admin_refuses_a_confusable_username_too(client, make_user):
    """The rule lives on the model field, so an account made in the admin is checked as well."""
    from accounts.models import User

    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    response = client.post(
        "/admin/accounts/user/add/",
        {"username": "rооt", "password1": "tile-rack-2026", "password2": "tile-rack-2026", "usable_password": "true"},
    )
    assert response.status_code == 200
    assert "one alphabet" in str(response.context["adminform"].form.errors["username"])
    assert not User.objects.filter(username="rооt").exists()


@pytest.mark.django_db
def test_one_address_gets_at_most_a_few_account_emails_an_hour(client, make_user, django_capture_on_commit_callbacks):
    """Resets and sign-ups for one address stop emailing after the hourly allowance; the answer stays the same."""
    from django.core import mail

    from accounts.services import ACCOUNT_EMAILS_PER_HOUR
    from config.celery import app

    make_user("ann", email="ann@example.com")
    app.conf.task_always_eager = True
    try:
        answers = set()
        for _attempt in range(ACCOUNT_EMAILS_PER_HOUR + 2):
            with django_capture_on_commit_callbacks(execute=True):
                response = client.post("/accounts/password_reset/", {"email": "ann@example.com"})
            answers.add((response.status_code, response.url))
        with django_capture_on_commit_callbacks(execute=True):
            taken = sign_up(client, "ann2", "ann@example.com")
        with django_capture_on_commit_callbacks(execute=True):
            sign_up(client, "bob", "bob@example.com")
    finally:
        app.conf.task_always_eager = False
    assert answers == {(302, "/accounts/password_reset/done/")}
    assert "Check your email" in taken.content.decode()
    assert [m.to[0] for m in mail.outbox].count("ann@example.com") == ACCOUNT_EMAILS_PER_HOUR
    assert [m.to[0] for m in mail.outbox].count("bob@example.com") == 1, "other addresses are not affected"
