"""A replay being stepped through survives a late answer to the player's own resign."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.crosswords import selectors, services
from games.engine import movegen
from tests.e2e.test_crossword import seed_with_blank_opening, two_pages_on_a_game

pytestmark = pytest.mark.e2e


def test_the_replay_keeps_its_step_when_the_resign_answer_comes_after_the_live_reload(new_page, live_site, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    seed, _ = seed_with_blank_opening()
    game, _, bob_page = two_pages_on_a_game(new_page, live_site, ann, bob, seed)
    game.refresh_from_db()
    state = selectors.engine_state(game)
    opening = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    services.game_play(game_id=game.pk, player=ann, placement=opening.placement, move_count=0)
    expect(bob_page.locator("#play-area")).to_have_attribute("data-move-count", "1")

    # Bob's resign is answered only after the socket has already drawn the finished game
    # and Bob has started stepping through its replay.
    held = []
    bob_page.route("**/resign/", lambda route: held.append((route, route.fetch())))
    bob_page.locator("[data-resign-open]").click()
    bob_page.locator("[data-resign-confirm]").click()
    expect(bob_page.locator("[data-status-line]")).to_contain_text("Finished: ann wins")
    assert len(held) == 1
    bob_page.locator('[data-replay-step="first"]').click()
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("0/2")
    with bob_page.expect_response(lambda r: "/resign/" in r.url):
        route, answer = held[0]
        route.fulfill(response=answer)
    bob_page.keyboard.press("ArrowRight")
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("1/2")


def test_a_finished_game_downloads_its_gcg_record_from_the_replay(new_page, live_site, make_user):
    """Beside the replay's steps: the game's GCG file, whose events add up to the scores shown."""
    from pathlib import Path

    from games.crosswords.models import Seat
    from games.engine import gcg

    ann, bob = make_user("ann"), make_user("bob")
    seed, _ = seed_with_blank_opening()
    game, ann_page, _ = two_pages_on_a_game(new_page, live_site, ann, bob, seed)
    game.refresh_from_db()
    state = selectors.engine_state(game)
    opening = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    services.game_play(game_id=game.pk, player=ann, placement=opening.placement, move_count=0)
    services.game_resign(game_id=game.pk, player=bob)
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Finished: ann wins")
    with ann_page.expect_download() as download:
        ann_page.get_by_role("link", name="Download GCG").click()
    assert download.value.suggested_filename == f"wordgrid-{game.pk}.gcg"
    record = gcg.read(Path(download.value.path()).read_text())
    assert record.totals() == {seat.user.username: seat.score for seat in Seat.objects.filter(game=game)}
    assert [event.word for event in record.events if isinstance(event, gcg.Event)] == [
        gcg.play_line(state.board.with_tiles(opening.placement), opening.placement, opening.across)[1]
    ]
