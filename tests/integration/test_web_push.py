"""Web Push as a browser gets it: the test is the device and its push service.

It makes the device's P-256 key pair and auth secret, subscribes through the settings
page's address with them and an endpoint it serves itself, and decrypts what a real
Celery worker sends there (RFC 8291, with http-ece), checking the VAPID signature too.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.test import Client, override_settings

from accounts import player_data, webpush
from accounts.models import PushSubscription
from accounts.services import notify
from games.crosswords import services
from tests.integration.test_crossword_queries import best_placement, to_move

pytestmark = pytest.mark.worker

KEY = webpush.new_private_key()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on 127.0.0.1: ``/gone/…`` answers 410, any other path takes the push."""

    def __init__(self):
        self.received: queue.Queue = queue.Queue()
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                arrived = time.perf_counter()
                gone = self.path.startswith("/gone/")
                self.send_response(410 if gone else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()
                received.put((arrived, self.path, {k.lower(): v for k, v in self.headers.items()}, body))

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's push subscription: its own key pair and auth secret."""

    def __init__(self, endpoint: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.json = {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def signed_by_the_site(headers: dict, audience: str) -> dict:
    """The VAPID claims of a push, once its signature is checked against the site's key."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == webpush.application_server_key()
    header, claims, signature = fields["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:  # pragma: no cover - the assertion says it
        raise AssertionError("the push's VAPID signature is not the site's") from None
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience and decoded["exp"] > time.time()
    return decoded


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def subscribe(user, device: Device) -> None:
    client = Client()
    client.force_login(user)
    response = client.post(
        "/settings/push/",
        json.dumps(device.json),
        content_type="application/json",
        headers={"accept": "application/json", "user-agent": "Test browser"},
    )
    assert response.status_code == 201, response.content


def next_push(service: PushService, timeout: float = 20):
    try:
        return service.received.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError("no push arrived") from None


@override_settings(WEBPUSH_VAPID_PRIVATE_KEY=KEY)
def test_turns_results_and_invitations_reach_the_device_encrypted_for_it(celery_worker, make_user, push_service):
    """A correspondence player's device gets "your turn" after the opponent's move, the
    result when the game ends and an invitation, each encrypted for its keys, signed with
    the site's VAPID key and opening the game; the move-to-message time is printed."""
    ann, bob = make_user("ann"), make_user("bob")
    devices = {user.username: Device(f"{push_service.url}/push/{user.username}") for user in (ann, bob)}
    for user in (ann, bob):
        subscribe(user, devices[user.username])

    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    arrived, path, headers, body = next_push(push_service)
    assert path == "/push/bob"
    assert devices["bob"].read(body) == {
        "title": "An invitation to a game",
        "body": f"ann invites you to a {game} game.",
        "url": game.get_absolute_url(),
        "tag": game.get_absolute_url(),
    }
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) == webpush.TTL
    assert signed_by_the_site(headers, push_service.url)["sub"].startswith("mailto:")

    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    mover = to_move(game)
    other = bob if mover == ann else ann
    arrived, path, headers, body = next_push(push_service)  # the game started: the opener's turn
    assert path == f"/push/{mover.username}" and devices[mover.username].read(body)["title"] == "Your turn"
    placement = best_placement(game).placement
    moved = time.perf_counter()
    services.game_play(game_id=game.pk, player=mover, placement=placement, move_count=game.move_count)
    arrived, path, headers, body = next_push(push_service)
    message = devices[other.username].read(body)
    delivered = time.perf_counter() - moved
    assert path == f"/push/{other.username}"
    assert message["title"] == "Your turn" and message["url"] == game.get_absolute_url()
    assert message["body"].endswith(f"your turn in {game}.")
    print(f"push delivery, move to decrypted message: {delivered * 1000:.0f} ms")

    services.game_resign(game_id=game.pk, player=other)
    over = {}
    for _ in range(2):
        arrived, path, headers, body = next_push(push_service)
        name = path.rsplit("/", 1)[1]
        over[name] = devices[name].read(body)
    assert {name: m["title"] for name, m in over.items()} == {"ann": "A game's result", "bob": "A game's result"}
    assert over["ann"]["body"].startswith(f"{game} is over")
    assert push_service.received.empty()


@override_settings(WEBPUSH_VAPID_PRIVATE_KEY=KEY)
def test_a_subscription_the_push_service_calls_gone_is_removed(celery_worker, make_user, push_service):
    """A push service answering 410 for a device removes that subscription alone; the
    player's other device still gets the push."""
    ann, bob = make_user("ann"), make_user("bob")
    kept, gone = Device(f"{push_service.url}/push/bob"), Device(f"{push_service.url}/gone/bob")
    subscribe(bob, kept)
    subscribe(bob, gone)
    game = services.game_create(creator=ann, variant="wordgame", seconds_per_move=86400, invitees=[bob])
    paths = {next_push(push_service)[1] for _ in range(2)}
    assert paths == {"/push/bob", "/gone/bob"}
    deadline = time.monotonic() + 10
    while PushSubscription.objects.filter(endpoint=gone.endpoint).exists():
        assert time.monotonic() < deadline, "the gone subscription was kept"
        time.sleep(0.05)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    assert game.pk


@override_settings(WEBPUSH_VAPID_PRIVATE_KEY=KEY)
def test_live_games_push_nothing(celery_worker, make_user, push_service):
    """A live game's player is at the table: an invitation and turns there are not pushed."""
    ann, bob = make_user("ann"), make_user("bob")
    subscribe(bob, Device(f"{push_service.url}/push/bob"))
    game = services.game_create(creator=ann, variant="wordgame", seconds_per_move=120, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    # A correspondence invitation afterwards: the one push that comes.
    services.game_create(creator=ann, variant="wordgame", seconds_per_move=86400, invitees=[bob])
    assert next_push(push_service)[1] == "/push/bob"
    time.sleep(0.5)
    assert push_service.received.empty()


@pytest.mark.django_db
def test_subscriptions_are_checked_kept_per_device_and_taken_back(make_user, settings):
    """Subscribing refuses what no browser sends, keeps one row per device (the newest
    player on it), at most WEBPUSH_DEVICES_PER_USER a player, and unsubscribing removes it."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = KEY
    settings.WEBPUSH_DEVICES_PER_USER = 2
    ann, bob = make_user("ann"), make_user("bob")
    client = Client()
    client.force_login(ann)

    def post(path, data):
        return client.post(
            path, json.dumps(data), content_type="application/json", headers={"accept": "application/json"}
        )

    device = Device("https://push.example.net/send/abc")
    for broken in (
        {**device.json, "endpoint": "file:///etc/passwd"},
        {**device.json, "keys": {"p256dh": device.json["keys"]["p256dh"][:-4], "auth": device.json["keys"]["auth"]}},
        {**device.json, "keys": {"p256dh": device.json["keys"]["p256dh"], "auth": "!!"}},
        ["not", "an", "object"],
    ):
        response = post("/settings/push/", broken)
        assert response.status_code == 400 and response.json()["ok"] is False, broken
    assert not PushSubscription.objects.exists()

    for n in range(3):
        assert post("/settings/push/", Device(f"https://push.example.net/send/{n}").json).status_code == 201
    assert set(PushSubscription.objects.values_list("endpoint", flat=True)) == {
        "https://push.example.net/send/1",
        "https://push.example.net/send/2",
    }
    client.force_login(bob)
    assert post("/settings/push/", Device("https://push.example.net/send/2").json).status_code == 201
    assert PushSubscription.objects.get(endpoint="https://push.example.net/send/2").user == bob
    assert post("/settings/push/off/", {"endpoint": "https://push.example.net/send/1"}).status_code == 200
    assert PushSubscription.objects.filter(endpoint="https://push.example.net/send/1").exists(), "ann's, not bob's"
    client.force_login(ann)
    post("/settings/push/off/", {"endpoint": "https://push.example.net/send/1"})
    assert not PushSubscription.objects.filter(user=ann).exists()

    # Bob's device is in his data, and goes with his account.
    exported = player_data.account_export(user=bob)["push_devices"]
    assert [d["endpoint"] for d in exported] == ["https://push.example.net/send/2"]
    player_data.account_delete(user=bob)
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_without_a_key_nothing_is_offered_or_queued(make_user, settings, django_capture_on_commit_callbacks):
    """Off by default: with no VAPID key the settings page offers no push, subscribing is
    refused and a turn queues no push."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    page = client.get("/settings/").content.decode()
    assert "data-push" not in page and "push.js" not in page
    response = client.post(
        "/settings/push/",
        json.dumps(Device("https://push.example.net/x").json),
        content_type="application/json",
        headers={"accept": "application/json"},
    )
    assert response.status_code == 404
    PushSubscription.objects.create(user=ann, endpoint="https://push.example.net/x", p256dh="x", auth="y")
    queued = []
    for key in ("", KEY):
        settings.WEBPUSH_VAPID_PRIVATE_KEY = key
        with django_capture_on_commit_callbacks() as callbacks:
            notify(user=ann, kind="crossword.turn", text="Your turn.", url="/games/1/", push_title="Your turn")
        queued.append(len(callbacks))
    assert queued[1] == queued[0] + 1, "only a site with a key queues the push"
    assert f'data-push-key="{webpush.application_server_key()}"' in client.get("/settings/").content.decode()
