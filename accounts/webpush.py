"""Web Push: the site's VAPID key and sending one push to one device.

A device that opts in subscribes with its push service to the key's public half (the
"application server key") and gives the site the subscription: the service's endpoint,
and the device's own P-256 public key and auth secret, with which a push is encrypted
(RFC 8291, ``aes128gcm``) so that only the device reads it. The site signs each push
with the private half (VAPID, RFC 8292); pywebpush does both.
"""

from __future__ import annotations

import base64
import functools
import json

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

#: How long a push service keeps a push for a device that is off (seconds): a turn is
#: still news a day later; the site's own notification stays in any case.
TTL = 86400


class Gone(Exception):
    """The push service no longer knows the subscription (404 or 410): the device
    unsubscribed, or the browser dropped it."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def enabled() -> bool:
    return bool(settings.WEBPUSH_VAPID_PRIVATE_KEY)


def new_private_key() -> str:
    """A new VAPID private key: the 32-byte P-256 secret, base64url (what the setting holds)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


@functools.cache
def application_server_key_of(private: str) -> str:
    """The public half of the VAPID key ``private``, base64url (an uncompressed P-256 point)."""
    key = ec.derive_private_key(int.from_bytes(b64url_decode(private), "big"), ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def application_server_key() -> str:
    """The public half of the site's key, as ``pushManager.subscribe`` takes it ("" when off)."""
    return application_server_key_of(settings.WEBPUSH_VAPID_PRIVATE_KEY) if enabled() else ""


def send(*, endpoint: str, p256dh: str, auth: str, message: dict) -> None:
    """Encrypt ``message`` (JSON) for one device and hand it to its push service.

    Raises ``Gone`` when the service says the subscription is no more, and pywebpush's
    ``WebPushException`` (or a connection error, an ``OSError``) for any other failure.
    """
    # Imported here: only the worker sends, and web processes need not load its HTTP clients.
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(message),
            vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.WEBPUSH_SUBJECT},
            ttl=TTL,
            timeout=10,
            headers={"Urgency": "high"},
        )
    except WebPushException as error:
        if error.response is not None and error.response.status_code in (404, 410):
            raise Gone(endpoint) from error
        raise
