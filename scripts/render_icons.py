"""Render the app's PNG icons from its SVG icons (``static/icons/*.svg``).

    python -m scripts.render_icons

Browsers that install the site, and iOS's home screen (which takes no SVG), want PNG
icons at fixed sizes. They are drawn by headless Chromium through Playwright, both
already used by the browser tests, so the PNGs are exactly what a browser makes of the
SVGs and no image library is added for a task run once per icon change. The PNGs are
committed; run this again after changing an SVG.

- ``icon-192.png``, ``icon-512.png``: the rounded icon on a transparent background;
- ``maskable-512.png``: the full-bleed icon whose tile stays inside the safe zone;
- ``apple-touch-icon.png`` (180): iOS rounds the corners itself and shows transparency
  as black, so it is drawn from the full-bleed icon.
"""

from __future__ import annotations

import argparse
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"

#: (PNG to write, SVG it is drawn from, size in pixels)
RENDERS = (
    ("icon-192.png", "icon.svg", 192),
    ("icon-512.png", "icon.svg", 512),
    ("maskable-512.png", "maskable.svg", 512),
    ("apple-touch-icon.png", "maskable.svg", 180),
)


def render(icons: Path = ICONS, chromium: str = CHROMIUM) -> list[Path]:
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            for png, svg, size in RENDERS:
                page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
                markup = (icons / svg).read_text()
                page.set_content(
                    "<!doctype html><style>html,body{margin:0;background:transparent}"
                    f"svg{{display:block;width:{size}px;height:{size}px}}</style>{markup}"
                )
                target = icons / png
                page.screenshot(path=str(target), omit_background=True)
                page.close()
                written.append(target)
        finally:
            browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=CHROMIUM, help="the Chromium binary to draw with")
    args = parser.parse_args()
    for path in render(chromium=args.chromium):
        print(path.relative_to(ICONS.parent.parent))


if __name__ == "__main__":
    main()
