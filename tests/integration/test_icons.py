"""PNG icons: the manifest and the page head name PNGs that exist at the sizes they claim."""

import json
import struct

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def png_size(static_path: str) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    with open(finders.find(static_path), "rb") as png:
        head = png.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", static_path
    return struct.unpack(">II", head[16:24])


def test_the_manifest_lists_png_icons_of_192_and_512_and_a_maskable_one(client):
    """Installers that take no SVG find a 192 and a 512 PNG icon, and a 512 maskable PNG."""
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    pngs = {(i["sizes"], i["purpose"]) for i in icons if i["type"] == "image/png"}
    assert pngs == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in icons:
        if icon["type"] == "image/png":
            name = icon["src"].removeprefix("/static/")
            width, height = png_size(name)
            assert f"{width}x{height}" == icon["sizes"]


def test_the_page_names_a_180_apple_touch_icon(client):
    """iOS takes its home-screen icon from a 180 px PNG, which is opaque (iOS shows transparency black)."""
    page = client.get("/").content.decode()
    assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png" sizes="180x180"' in page
    assert png_size("icons/apple-touch-icon.png") == (180, 180)
    with open(finders.find("icons/apple-touch-icon.png"), "rb") as png:
        colour_type = png.read(26)[25]
    assert colour_type == 2  # RGB, no alpha channel
