"""A finished round's words, as a player reads them: a chosen word's path drawn on the
results board, and what the word means (also on the word check page)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts import services as hunt_services
from games.hunts.boards import path_from_text
from games.hunts.models import HuntRound
from lexicon.definitions import define
from lexicon.loading import get_lexicon
from tests.e2e.flows import log_in
from tests.e2e.test_lexicon import axe_violations, lexicons  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


def _finished_round(ann) -> tuple[HuntRound, hunt.Board, dict]:
    table = hunt_services.table_create(host=ann, game="classic", size=4, bots=("easy",))
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    board = hunt.Board.from_text(game_round.board)
    lex = get_lexicon(game_round.lexicon_code, game_round.lexicon_version)
    on_board = hunt.solve(board, lex, game_round.min_length)
    # Ann finds the longest word WordNet defines; the rest are missed.
    found = max((w for w in on_board if define(w)), key=lambda w: (len(w), w))
    hunt_services.round_submit(
        round_id=game_round.pk, user=ann, path=on_board[found], now=game_round.starts_at + timedelta(seconds=1)
    )
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    game_round.refresh_from_db()
    return game_round, board, on_board | {"_found": found}


def _squares(board: hunt.Board, path) -> list[str]:
    return [str(row * board.size + col) for row, col in path]


def test_a_chosen_word_shows_its_path_and_definition(page, make_user):
    """Choosing a found or a missed word numbers its squares on the board in the solver's
    order, says the path in letters, and shows WordNet's senses; axe finds nothing."""
    ann = make_user("ann")
    game_round, board, on_board = _finished_round(ann)
    found = on_board.pop("_found")
    missed = next(m for m in game_round.missed_words if define(m["word"]) and m["word"] != found)

    log_in(page, "ann")
    page.goto(f"/hunts/rounds/{game_round.pk}/")
    results = page.locator("[data-results-round]")
    tiles = results.locator("[data-results-board] [data-square]")

    anns = results.locator(".breakdown").filter(has_text="ann")
    missed_list = results.locator(".missed")
    chosen = ((anns, found, on_board[found]), (missed_list, missed["word"], path_from_text(board, missed["path"])))
    for where, word, path in chosen:
        button = where.get_by_role("button", name=word, exact=True)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        on_path = results.locator("[data-results-board] .on-path")
        expect(on_path).to_have_count(len(path))
        for step, square in enumerate(_squares(board, path), start=1):
            expect(tiles.nth(int(square))).to_have_attribute("data-step", str(step))
        expect(results.locator("[data-results-board] [data-path-line] polyline")).to_have_count(1)
        letters = " → ".join(board.faces[r][c].capitalize() for r, c in path)
        expect(results.locator("[data-word-detail-path]")).to_have_text(f"{word}: {letters}", ignore_case=True)
        entry = define(word)
        definition = results.locator(f'[data-definition="{word}"]')
        expect(definition).to_contain_text(entry.senses[0].text)
        expect(definition).to_contain_text("WordNet")

    # Only the chosen word is pressed.
    expect(results.locator('.word-link[aria-pressed="true"]')).to_have_count(1)
    assert axe_violations(page) == []

    # At the table, the results drawn after the round ended work alike.
    page.goto(game_round.table.get_absolute_url())
    results = page.locator("[data-results] [data-results-round]")
    results.locator(".missed").get_by_role("button", name=missed["word"], exact=True).click()
    expect(results.locator("[data-results-board] .on-path")).to_have_count(len(missed["path"].split(",")))
    expect(results.locator(f'[data-definition="{missed["word"]}"]')).to_contain_text(
        define(missed["word"]).senses[0].text
    )


@pytest.mark.usefixtures("lexicons")
def test_the_word_check_page_says_what_a_word_means(page):
    """The word check page shows a word's senses, an inflected word's by its base form."""
    page.goto("/words/?word=geese")
    definition = page.locator('[data-definition="geese"]')
    expect(definition).to_contain_text("a form of goose")
    expect(definition).to_contain_text(define("goose").senses[0].text)
    assert axe_violations(page) == []
