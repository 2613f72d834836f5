"""The installable site: web app manifest, service worker and the page shown offline.

The service worker is served from the site's root (``/sw.js``) so that its scope is the
whole site; it is a template so it can name the static files by their stored (hashed)
names, which change with each release and so renew its cache.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control

#: Static files every page needs: cached when the service worker installs.
CORE_STATIC = (
    "css/site.css",
    "js/site.js",
    "js/sound.js",
    "js/install.js",
    "favicon.svg",
    "icons/icon.svg",
    "icons/maskable.svg",
)


@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: name, icons, colours, and the home page as the start."""
    data = {
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_NAME,
        "description": "Live word hunts and correspondence crossword games.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f3ec",
        "theme_color": "#1f2a37",
        "icons": [
            # PNGs first for installers that take no SVG; drawn from the SVGs by scripts/render_icons.py.
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": static("icons/maskable.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "maskable"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


# A new worker must be fetched on every visit, or a stale one would keep old files.
@cache_control(no_cache=True, max_age=0)
def service_worker(request):
    core = [static(name) for name in CORE_STATIC] + ["/offline/"]
    version = hashlib.sha256("\n".join(core).encode()).hexdigest()[:12]
    response = render(
        request,
        "sw.js",
        {"core": json.dumps(core), "version": version, "icon": json.dumps(static("icons/icon-192.png"))},
        content_type="text/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


def offline(request):
    """What the service worker shows for a page asked for while the network is down."""
    return render(request, "offline.html")


@cache_control(max_age=3600)
def favicon(request):
    """The site's icon at the address browsers, feed readers and monitors ask without a page.

    Pages name the SVG icon themselves; a temporary redirect, since its stored name changes
    with each release.
    """
    return redirect(static("favicon.svg"))
