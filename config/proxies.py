"""The client's address when the site runs behind a known number of reverse proxies.

Every proxy appends the address it received the request from to ``X-Forwarded-For``, so
with ``TRUSTED_PROXY_COUNT = n`` the address the outermost proxy saw is the n-th entry
from the right; anything further left was written by the client and proves nothing.
With the default 0 the header is ignored and the socket's peer is the client.

The address is settled once, on the ASGI scope, so Django (``REMOTE_ADDR``), the log-in
lock-out (django-axes) and the websocket consumers all see the same one. daphne's own
``--proxy-headers`` takes the left-most entry, which the client chooses, so it is not used.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(scope: dict, trusted_proxies: int) -> tuple[str, int] | None:
    """The client of an HTTP or websocket ``scope`` behind ``trusted_proxies`` proxies."""
    peer = scope.get("client")
    if trusted_proxies <= 0:
        return peer
    values = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"x-forwarded-for"]
    hops = [hop.strip() for hop in ",".join(values).split(",") if hop.strip()]
    if len(hops) < trusted_proxies:
        # Fewer entries than proxies: the request did not come through all of them.
        return peer
    address = hops[-trusted_proxies]
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return peer
    return (address, 0)


class TrustedProxiesMiddleware:
    """ASGI middleware: replaces ``scope["client"]`` by the address the proxies vouch for."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            scope = dict(scope, client=client_address(scope, settings.TRUSTED_PROXY_COUNT))
        return await self.app(scope, receive, send)


def request_address(request) -> str | None:
    """django-axes' client address: the one the middleware settled on."""
    return request.META.get("REMOTE_ADDR")
