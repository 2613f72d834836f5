"""What a TOW player sees: a bent word laid from the rack, traced, scored and submitted."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import tow as engine
from games.tow import services
from games.tow.models import Game
from lexicon.services import get_lexicon
from tests.conftest import session_cookie_for

pytestmark = pytest.mark.e2e
DAY = 86400


def seed_with_a_bent_reply():
    """A seed, the opener's straight play and the reply: a bent word of plain letters."""
    lex = get_lexicon("en")
    for n in range(200):
        seed = f"tow-e2e-{n}"
        game = engine.new_game(2, seed, lex)
        opening = engine.best_play(game.table, game.racks[game.to_move], lex, budget=3000)
        if opening is None:
            continue
        game = game.apply(engine.Move.place(game.to_move, opening.placement, opening.path))
        for play in engine.find_plays(game.table, game.racks[game.to_move], lex, budget=6000):
            bent = len(engine._directional_lines(play.path)) == 2
            if bent and all(kind == "letter" for *_, kind in play.placement) and len(play.placement) <= 4:
                return seed, game.turns[0].move.seat, opening, play
    raise AssertionError("no seed with a bent reply")


def test_a_bent_word_is_traced_and_scored(new_page, live_site, make_user):
    """The player lays a bent word tile by tile, traces it, sees the itemised score on
    Submit, submits, and the history and scores show it."""
    seed, opener, opening, reply = seed_with_a_bent_reply()
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    first, second = (ann, bob) if game.to_move == 0 else (bob, ann)
    assert game.to_move == opener
    services.game_play(game_id=game.pk, player=first, placement=opening.placement,
                       path=opening.path, move_count=0)

    page = new_page()
    name, value = session_cookie_for(second).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    page.goto(f"/tow/{game.pk}/")
    expect(page.locator("[data-status]")).to_contain_text("Your turn")
    submit = page.locator("[data-submit]")
    expect(submit).to_be_disabled()

    for row, col, letter, _ in reply.placement:
        page.locator(f'.rack-tile[data-tile="{letter}"]:not(.used)').first.click()
        page.locator(f'[data-r="{row}"][data-c="{col}"]').click()
    expect(page.locator(".cell.new")).to_have_count(len(reply.placement))
    expect(page.locator("[data-reason]")).to_contain_text("Type the word or trace its path")

    page.get_by_role("button", name="Trace path").click()
    for row, col in reply.path:
        page.locator(f'[data-r="{row}"][data-c="{col}"]').click()
    expect(page.locator("[data-total]")).to_have_text(str(reply.score))
    expect(page.locator(".tow-score .word").first).to_have_text(reply.main_word.upper())
    expect(submit).to_be_enabled()
    expect(submit).to_have_text(f"Submit · {reply.score}")

    submit.click()
    expect(page.locator("[data-history] li").first).to_contain_text(reply.main_word.upper())
    expect(page.locator(f'[data-seats] [data-seat="{1 - opener}"] [data-score]')).to_have_text(str(reply.score))
    expect(page.locator(".cell.last")).to_have_count(len(reply.placement))
