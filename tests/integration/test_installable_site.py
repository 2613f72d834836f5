"""The installable site: manifest, service worker and offline page."""

import json

import pytest

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_site_its_icons_and_start(client):
    """The manifest is JSON of its own type with a standalone display, the home page as start and both icons."""
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Wordfall" and data["start_url"] == "/" and data["display"] == "standalone"
    assert {i["purpose"] for i in data["icons"]} == {"any", "maskable"}
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").content.decode()


def test_the_service_worker_caches_the_core_files_and_the_offline_page(client):
    """/sw.js is JavaScript for the whole site, never cached by the browser, listing files that exist."""
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/" and "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    core = json.loads(body.split("const CORE = ", 1)[1].split(";\n", 1)[0])
    assert "/offline/" in core and any(path.endswith("site.css") for path in core)
    for path in core:
        assert client.get(path).status_code == 200, path
    offline = client.get("/offline/")
    assert offline.status_code == 200 and "You are offline." in offline.content.decode()
