"""A finished crossword game read on its board: the replayed move's tiles marked, and each
alternative of the analysis drawn on the board when chosen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.crosswords import selectors, services
from games.crosswords.models import Analysis
from games.crosswords.services.analysis import game_analyse
from games.engine import movegen
from tests.e2e.test_crossword import seed_with_blank_opening, signed_in
from tests.e2e.test_lexicon import axe_violations

pytestmark = pytest.mark.e2e
DAY = 86400


def _play(game, player, n: int, pick: int):
    game.refresh_from_db()
    state = selectors.engine_state(game)
    plays = movegen.top(state.board, state.racks[state.to_move], state.variant, state.lexicon, pick + 1)
    play = plays[min(pick, len(plays) - 1)]
    services.game_play(game_id=game.pk, player=player, placement=play.placement, move_count=n)
    return play


def _squares(placement) -> set[str]:
    return {f"{r},{c}" for r, c, _, _ in placement}


def test_the_replay_marks_the_move_and_draws_a_chosen_alternative(new_page, live_site, make_user):
    """Stepping to a move marks its squares (and its line in the move list); choosing an
    alternative shows the position before the move with that play's tiles instead, and
    choosing it again brings the move played back; axe finds nothing."""
    ann, bob = make_user("ann"), make_user("bob")
    seed, _ = seed_with_blank_opening()
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    type(game).objects.filter(pk=game.pk).update(seed=seed)
    services.game_accept(game_id=game.pk, player=bob)
    opening = _play(game, ann, 0, pick=4)  # not the best: the analysis has better plays
    answer = _play(game, bob, 1, pick=0)
    services.game_resign(game_id=game.pk, player=ann)
    game_analyse(game_id=game.pk)
    alternatives = next(row for row in Analysis.objects.get(game=game).moves if row["number"] == 0)["best"]
    alternative = next(a for a in alternatives if _squares(a["placement"]) != _squares(opening.placement))

    page = signed_in(new_page, live_site, ann)
    page.goto(f"/games/{game.pk}/")
    board = page.locator("[data-board]")
    page.locator('[data-replay-step="first"]').click()
    expect(page.locator("[data-replay-text]")).to_contain_text("0/3")
    expect(board.locator(".sq.replayed")).to_have_count(0)

    page.locator('[data-replay-step="forward"]').click()
    expect(page.locator("[data-replay-text]")).to_contain_text("1/3")
    replayed = board.locator(".sq.replayed")
    expect(replayed).to_have_count(len(opening.placement))
    for r, c, letter, _ in opening.placement:
        square = board.locator(f'[data-square="{r},{c}"]')
        expect(square).to_have_class(re.compile(r"\breplayed\b"))
        expect(square).to_have_attribute("aria-label", re.compile(rf" {letter.upper()}.*played this move$"))
    expect(page.locator('[data-history] > li[aria-current="step"]')).to_have_count(1)
    expect(page.locator("[data-history] > li").nth(0)).to_have_attribute("aria-current", "step")

    # The move's alternatives, each a button that draws it on the board.
    choice = page.locator("[data-analysis-move] [data-alternative]").nth(alternatives.index(alternative))
    expect(choice).to_contain_text(alternative["word"])
    choice.click()
    expect(choice).to_have_attribute("aria-pressed", "true")
    shown = board.locator(".sq.alternative")
    expect(shown).to_have_count(len(alternative["placement"]))
    for r, c, letter, _ in alternative["placement"]:
        expect(board.locator(f'[data-square="{r},{c}"] .t')).to_have_text(re.compile(rf"^{letter.upper()}"))
    for square in _squares(opening.placement) - _squares(alternative["placement"]):
        expect(board.locator(f'[data-square="{square}"] .t')).to_have_count(0)
    expect(board.locator(".sq.replayed")).to_have_count(0)
    expect(page.locator("[data-alternative-shown]")).to_contain_text(
        f"{alternative['word']} at {alternative['square']}"
    )
    assert axe_violations(page) == []

    choice.click()
    expect(choice).to_have_attribute("aria-pressed", "false")
    expect(board.locator(".sq.alternative")).to_have_count(0)
    expect(board.locator(".sq.replayed")).to_have_count(len(opening.placement))

    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-replay-text]")).to_contain_text("2/3")
    expect(board.locator(".sq.replayed")).to_have_count(len(answer.placement))
    expect(page.locator("[data-history] > li").nth(1)).to_have_attribute("aria-current", "step")
