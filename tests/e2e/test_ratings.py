"""Ratings in a browser: a ranked crossword game ends and both players see their change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.crosswords import selectors, services
from games.crosswords.models import Game
from games.engine import movegen
from tests.conftest import session_cookie_for

pytestmark = pytest.mark.e2e


def signed_in(new_page, live_site, user):
    page = new_page()
    name, value = session_cookie_for(user).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    return page


def test_a_ranked_game_shows_the_rating_change_profile_and_leaderboard(new_page, live_site, make_user):
    """Ann creates a ranked game for Bob; Bob accepts, each makes two plays, and the next
    to move resigns; both see +N/−N (a game resigned sooner is not rated)."""
    ann, bob = make_user("ann"), make_user("bob")
    ann_page = signed_in(new_page, live_site, ann)
    ann_page.goto("/games/new/")
    ann_page.get_by_label("Word Grid").check()
    ann_page.get_by_label("Invite players").fill("bob")
    ann_page.get_by_label("Ranked").check()
    ann_page.get_by_role("button", name="Create the game").click()
    expect(ann_page.get_by_role("heading", level=1)).to_contain_text("ranked")
    game = Game.objects.get()
    assert game.ranked

    bob_page = signed_in(new_page, live_site, bob)
    bob_page.goto("/games/")
    bob_page.locator("[data-action=accept]").click()
    for _ in range(4):
        game.refresh_from_db()
        state = selectors.engine_state(game)
        best = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
        services.game_play(
            game_id=game.pk,
            player=game.seats.get(index=game.to_move).user,
            placement=best.placement,
            move_count=game.move_count,
        )
    game.refresh_from_db()
    mover = game.seats.get(index=game.to_move).user
    resigner_page = bob_page if mover == bob else ann_page
    resigner_page.goto(f"/games/{game.pk}/")
    resigner_page.locator("[data-resign-open]").click()
    resigner_page.locator("[data-resign-confirm]").click()

    winner_page = ann_page if resigner_page is bob_page else bob_page
    winner_page.goto(f"/games/{game.pk}/")
    # The change may show as "rating…" for a moment, until the worker has applied it.
    expect(winner_page.locator(".cw-scores [data-rating-change].up")).to_have_text(
        re.compile(r"^\+\d+$"), timeout=20000
    )
    expect(winner_page.locator(".cw-scores [data-rating-change].down")).to_have_text(re.compile(r"^−\d+$"))
    winner_page.screenshot(path="var/test-logs/ratings-game-over.png")

    resigner = bob if resigner_page is bob_page else ann
    resigner_page.goto(f"/u/{resigner.username}/")
    row = resigner_page.locator("tr[data-pool=wordgrid]")
    expect(row).to_contain_text("Word Grid")
    expect(row.locator("[data-rating]")).to_have_text(re.compile(r"^1[34]\d\d\?$"))
    expect(resigner_page.locator("[data-chart-pool=wordgrid] svg polyline")).to_have_count(1)
    resigner_page.screenshot(path="var/test-logs/ratings-profile.png", full_page=True)

    resigner_page.goto("/ratings/wordgrid/")
    expect(resigner_page.get_by_text("You are not ranked here yet")).to_be_visible()


def rated_history(winner, loser, results: str, pool: str = "rampage") -> None:
    """``winner`` and ``loser`` play one rated hunt round per letter of ``results`` ("w": the
    first wins, "l": the second), applied at once."""
    from games.ratings import services as ratings
    from games.ratings.services import Finish

    for number, outcome in enumerate(results, 1):
        places = (1, 2) if outcome == "w" else (2, 1)
        ratings.result_record(
            pool=pool,
            kind="hunt",
            object_id=number,
            finishes=[Finish(winner.pk, places[0], 0, False), Finish(loser.pk, places[1], 0, False)],
        )
    ratings.ratings_apply(pool=pool)


def test_the_rating_chart_names_its_peak_and_low(page, make_user):
    """Under a player's chart: the highest and lowest rating they had, not the chart's bounds."""
    from games.ratings.models import RatedPlayer
    from tests.e2e.flows import log_in

    ann, bob = make_user("ann"), make_user("bob")
    rated_history(ann, bob, "wwwlll")
    ratings = list(
        RatedPlayer.objects.filter(user=ann).order_by("finished_at", "pk").values_list("rating_after", flat=True)
    )
    start = RatedPlayer.objects.filter(user=ann).order_by("finished_at", "pk").first().rating_before
    log_in(page, "ann")
    page.goto("/u/ann/")
    caption = page.locator("[data-chart-pool=rampage] figcaption")
    expect(caption).to_contain_text(f"Peak {max(ratings + [start])} · low {min(ratings + [start])}")
