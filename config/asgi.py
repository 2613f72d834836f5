"""ASGI entry point: HTTP and websockets, served by daphne."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from .logs import RequestContext  # noqa: E402
from .metrics import Measured  # noqa: E402
from .proxies import TrustedProxiesMiddleware  # noqa: E402
from .realtime import ServerLoopMiddleware  # noqa: E402
from .routing import websocket_urlpatterns  # noqa: E402
from .startup import freeze_start_up_objects, log_engine_build  # noqa: E402
from .websocket import socket_auth  # noqa: E402

application = RequestContext(
    Measured(
        ServerLoopMiddleware(
            TrustedProxiesMiddleware(
                ProtocolTypeRouter(
                    {
                        "http": django_asgi_app,
                        "websocket": AllowedHostsOriginValidator(socket_auth(URLRouter(websocket_urlpatterns))),
                    }
                )
            )
        ),
        socket_routes=websocket_urlpatterns,
    )
)

if settings.EMBEDDED and not settings.TESTING:
    from . import embedded

    embedded.start()

log_engine_build("daphne")
freeze_start_up_objects()
