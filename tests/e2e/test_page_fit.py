"""Pages fit the screen they are read on: a phone, a laptop and a desktop see no page wider
than the window, with lists full of long names and open tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from friends import services as friends_services
from games.crosswords import services as crossword_services
from games.hunts import services as hunt_services
from games.tow import services as tow_services
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e

SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
    "desktop": {"viewport": {"width": 1920, "height": 1080}},
}

# The widest thing on the page past the window's right edge, to name in a failure.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return null;
  const wide = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > width + 0.5);
  const el = wide[wide.length - 1];
  return `${document.documentElement.scrollWidth} px wide: ${el.tagName.toLowerCase()}.${el.className}`;
}"""


def a_busy_site(make_user):
    """Players with long names, open hunt tables of each kind with bots, and crossword and
    TOW games in every state of ann's My games."""
    ann = make_user("ann", display_name="Annabel Featherstonehaugh")
    bob = make_user("bob", display_name="Bartholomew Cholmondeley")
    cy = make_user("cy", display_name="Cyprian Marjoribanks")
    friends_services.follow(user=ann, username="bob")
    hunt_services.table_create(host=bob, game="classic", size=5, bots=("hard",))
    hunt_services.table_create(host=cy, game="rampage", seat_count=4, bots=("easy", "medium"))
    hunt_services.table_create(host=ann, game="classic", size=4)
    hunt_services.table_create(host=bob, game="rampage", kept_for=cy, kept_until=timezone.now() + timedelta(hours=1))
    for variant in ("wordgrid", "wordgame"):
        game = crossword_services.game_create(
            creator=ann, variant=variant, seconds_per_move=86400, invitees=[bob] if variant == "wordgame" else [bob, cy]
        )
        crossword_services.game_accept(game_id=game.pk, player=bob)
        if variant == "wordgrid":
            crossword_services.game_accept(game_id=game.pk, player=cy)
    crossword_services.game_create(creator=bob, variant="wordgrid", seconds_per_move=86400, invitees=[ann])
    crossword_services.game_create(creator=cy, variant="wordgame", seconds_per_move=3 * 86400, open_seats=1)
    tow = tow_services.game_create(creator=ann, seconds_per_move=86400, invitees=[bob, cy])
    tow_services.game_accept(game_id=tow.pk, player=bob)
    tow_services.game_accept(game_id=tow.pk, player=cy)
    tow_services.game_create(creator=cy, seconds_per_move=86400, open_seats=1)
    return ann


@pytest.mark.parametrize("screen", SCREENS)
def test_no_page_is_wider_than_the_screen(new_page, make_user, screen):
    """The hunt lobby with open tables and My games full of games scroll only downwards."""
    a_busy_site(make_user)
    page = new_page(**SCREENS[screen])
    log_in(page, "ann")
    wider = {}
    for path in ("/hunts/", "/games/"):
        page.goto(path)
        wider[path] = page.evaluate(OVERFLOW)
    assert wider == {path: None for path in wider}
