"""Steps that several browser tests take, written once."""

import time

from playwright.sync_api import expect


def log_in(page, username: str, password: str = "correct-horse-9") -> None:
    """Log in through the form, as a person would, and wait for a signed-in page (on a
    phone its header's links are behind Menu)."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("body")).to_have_attribute("data-user", username)


def deal_with_play(game, wanted, *, name: str):
    """Give ``game`` (started, no move yet) a fixed deal whose first rack has a play that
    ``wanted`` accepts, and return the best such play.

    A random deal sometimes has none (a rack of vowels, a play that must fit a zoomed
    view); the first of the seeds ``name-0``, ``name-1``, … that has one is always the same.
    """
    from games.crosswords import selectors
    from games.crosswords.models import Game
    from games.engine import movegen

    for attempt in range(200):
        Game.objects.filter(pk=game.pk).update(seed=f"{name}-{attempt}")
        game.refresh_from_db()
        state = selectors.engine_state(game)
        assert not state.moves, "a deal is changed only before the first move"
        plays = movegen.generate(state.board, state.racks[state.to_move], state.variant, state.lexicon)
        plays = [p for p in plays if wanted(p)]
        if plays:
            return max(plays, key=lambda p: p.score)
    raise AssertionError(f"no deal among {name}-0…199 has the play wanted")


def until(page, condition, failure: str, seconds: float = 10) -> None:
    """Let the page run until ``condition()`` holds (routes and socket frames are handed
    to this test only while it waits on the page)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(20)
