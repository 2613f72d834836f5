"""Zooming the crossword board on a phone: pinch, double-tap and the
Zoom button, with Chromium's DevTools touch events as a finger makes them."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.crosswords import selectors, services
from games.crosswords.models import Move
from tests.e2e.flows import deal_with_play, log_in

pytestmark = pytest.mark.e2e
DAY = 86400


@pytest.fixture
def phone_context(new_page):
    """A phone's browser (390×844, touch); ``phone_context(reduced_motion="reduce")``."""

    def make(**options):
        return new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, **options)

    return make


class Finger:
    """Touches through Chromium's DevTools protocol (real touch and pointer events)."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind, points, at=None):
        """``at``: when the touch happened (seconds since the epoch), else when it is sent."""
        event = {"type": kind, "touchPoints": points}
        if at is not None:
            event["timestamp"] = at
        self.cdp.send("Input.dispatchTouchEvent", event)

    def pinch(self, centre, start, end, steps=10):
        """Two fingers ``start`` pixels apart about ``centre`` (x, y), moved to ``end`` apart."""
        x, y = centre

        def points(gap):
            return [{"x": x - gap / 2, "y": y, "id": 1}, {"x": x + gap / 2, "y": y, "id": 2}]

        self.send("touchStart", points(start))
        for step in range(1, steps + 1):
            self.send("touchMove", points(start + (end - start) * step / steps))
        self.send("touchEnd", [])

    def slide(self, start, end, steps=8):
        (x, y), (tx, ty) = start, end
        self.send("touchStart", [{"x": x, "y": y}])
        for step in range(1, steps + 1):
            self.send("touchMove", [{"x": x + (tx - x) * step / steps, "y": y + (ty - y) * step / steps}])
        self.send("touchEnd", [])

    def tap(self, point, at=None):
        self.send("touchStart", [{"x": point[0], "y": point[1]}], at)
        self.send("touchEnd", [], None if at is None else at + 0.03)

    def double_tap(self, point):
        """Two taps 150 ms apart as the finger made them, however long the page takes to
        handle the first."""
        at = time.time()
        self.tap(point, at)
        self.tap(point, at + 0.15)


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def width(locator) -> float:
    return locator.bounding_box()["width"]


def inside(locator, frame) -> bool:
    box, view = locator.bounding_box(), frame.bounding_box()
    return (
        box["x"] >= view["x"] - 1
        and box["y"] >= view["y"] - 1
        and box["x"] + box["width"] <= view["x"] + view["width"] + 1
        and box["y"] + box["height"] <= view["y"] + view["height"] + 1
    )


@pytest.fixture
def opening(make_user):
    """A started two-player Word Grid game, ann to play, and her best short play near the
    star that uses no blank (so every square of it fits a zoomed view)."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    play = deal_with_play(
        game,
        lambda p: not any(t[3] for t in p.placement) and all(5 <= r <= 9 and 5 <= c <= 9 for r, c, *_ in p.placement),
        name="zoom",
    )
    assert selectors.engine_state(game).to_move == 0
    return game, play


def test_a_pinch_zooms_the_board_a_finger_pans_it_and_a_tile_is_dragged_onto_it(phone_context, opening):
    """The whole board shows on arrival; a pinch enlarges the squares (the edges' letters
    stay beside them), one finger pans, and rack tiles dragged by touch onto the zoomed
    board make the play, after which the board stays zoomed."""
    game, play = opening
    page = phone_context()
    log_in(page, "ann")
    page.goto(f"/games/{game.pk}/")
    frame, board = page.locator("[data-frame]"), page.locator("[data-board]")
    star = page.locator('[data-square="7,7"]')
    box = board.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    before = width(star)
    assert before < 30  # about 23 px: too small for a finger
    expect(page.locator("[data-zoom-toggle]")).to_have_text("Zoom in")

    finger = Finger(page)
    finger.pinch(centre(star), 40, 110)
    expect(frame).to_have_class("cw-frame zoomed")
    assert width(star) > 2.2 * before
    assert inside(star, frame)  # the squares between the fingers stay under them
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page does not widen
    expect(page.locator("[data-zoom-toggle]")).to_have_text("Zoom out")
    # The column letter H stays above column H.
    letter = page.locator(".cw-cols span").nth(7)
    assert abs(centre(letter)[0] - centre(star)[0]) < 3

    left = frame.evaluate("f => f.scrollLeft")
    x, y = centre(star)
    finger.slide((x, y), (x + 60, y + 40))
    assert frame.evaluate("f => f.scrollLeft") < left  # the board followed the finger
    expect(page.locator("[data-square] .t.pending")).to_have_count(0)  # a pan is not a tap
    expect(page.locator(".sq.cursor")).to_have_count(0)

    for row, col, letter, _ in play.placement:
        square = page.locator(f'[data-square="{row},{col}"]')
        if not inside(square, frame):
            square.scroll_into_view_if_needed()
        assert inside(square, frame)
        tile = page.locator(f'[data-rack] .rt:not(.used)[data-letter="{letter}"]').first
        finger.slide(centre(tile), centre(square))
        expect(page.locator(f'[data-square="{row},{col}"] .t.pending')).to_be_visible()
    expect(page.locator("[data-submit]")).to_have_text(f"Submit {play.score}")
    page.locator("[data-submit]").click()
    expect(page.locator("[data-status-line]")).to_contain_text("bob to move")
    move = Move.objects.get(game=game)
    assert sorted(map(tuple, move.placement)) == sorted(tuple(t) for t in play.placement)
    # The new play area keeps the zoom.
    expect(page.locator("[data-frame]")).to_have_class("cw-frame zoomed")
    assert width(page.locator('[data-square="7,7"]')) > 2.2 * before

    page.locator("[data-zoom-toggle]").click()
    expect(page.locator("[data-frame]")).to_have_class("cw-frame")
    expect(page.locator("[data-zoom-toggle]")).to_have_text("Zoom in")
    assert abs(width(page.locator('[data-square="7,7"]')) - before) < 1


def test_a_double_tap_zooms_in_on_the_tapped_squares_and_out_again(phone_context, opening):
    """Two quick taps on a corner zoom in there (without leaving a typing cursor); two more
    zoom back out; with reduced motion the Zoom button jumps straight to its zoom."""
    game, _ = opening
    page = phone_context(reduced_motion="reduce")
    log_in(page, "ann")
    page.goto(f"/games/{game.pk}/")
    frame, corner = page.locator("[data-frame]"), page.locator('[data-square="13,13"]')
    before = width(corner)
    finger = Finger(page)
    point = centre(corner)
    finger.double_tap(point)
    expect(frame).to_have_class("cw-frame zoomed")
    assert width(corner) > 1.8 * before
    assert inside(corner, frame)
    expect(page.locator(".sq.cursor")).to_have_count(0)

    point = centre(corner)
    finger.double_tap(point)
    expect(frame).to_have_class("cw-frame")
    assert abs(width(corner) - before) < 1

    # Reduced motion: the button's zoom is there at once, with no glide through the sizes between.
    zoomed = page.evaluate(
        """() => { document.querySelector('[data-zoom-toggle]').click();
                   return getComputedStyle(document.querySelector('[data-frame]')).getPropertyValue('--zoom'); }"""
    )
    assert zoomed.strip() == "2"
    # Typing still works on the zoomed board, and the typing cursor is scrolled into view
    # clear of the row numbers.
    page.locator('[data-square="7,7"]').click()
    for _ in range(7):
        page.keyboard.press("ArrowLeft")
    a8 = page.locator('[data-square="7,0"]')
    expect(a8).to_have_class(re.compile(r"\bcursor\b"))
    assert inside(a8, frame)
    assert a8.bounding_box()["x"] >= page.locator(".cw-rows").bounding_box()["x"] + width(page.locator(".cw-rows")) - 1
    letter = page.locator("[data-rack] .rt").first.get_attribute("data-letter")
    page.keyboard.press("x" if letter == "?" else letter)
    expect(a8.locator(".t.pending")).to_be_visible()
