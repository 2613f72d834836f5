"""What a TOW player sees: a bent word laid from the rack, traced, scored and submitted."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import tow as engine
from games.tow import selectors, services
from games.tow.models import Game
from lexicon.services import get_lexicon
from tests.conftest import session_cookie_for
from tests.e2e.flows import until

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
            bent = len(engine.directional_lines(play.path)) == 2
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
    services.game_play(game_id=game.pk, player=first, placement=opening.placement, path=opening.path, move_count=0)

    page = new_page()
    name, value = session_cookie_for(second).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    page.goto(f"/tow/{game.pk}/")
    expect(page.locator("[data-status]")).to_contain_text("Your turn")
    # The time left in the site's one short form (site.js Wordfall.timeLeft), like Word Grid.
    expect(page.locator("[data-status]")).to_contain_text(re.compile(r"· 23 h \d+ min left$"))
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


def test_house_vote_reaches_the_other_player_live(new_page, live_site, make_user):
    """On a house-vote table a word outside en shows up on the other player's page at once
    with Accept and Reject; the accepted play lands on both tables and in the history."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob], words="house")
    Game.objects.filter(pk=game.pk).update(seed="tow-vote-e2e")
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    mover, voter = (ann, bob) if game.to_move == 0 else (bob, ann)
    state = selectors.engine_state(game)
    rack = state.racks[state.to_move]
    letters = [t for t in rack if t not in engine.KIND_OF_TILE]
    pair = next(
        (
            a + b
            for i, a in enumerate(letters)
            for b in letters[i + 1 :]
            if a + b not in state.lexicon and b + a not in state.lexicon
        ),
        None,
    )
    assert pair is not None, f"the fixed seed no longer deals two letters outside the word list: {rack}"

    pages = {}
    for user in (mover, voter):
        page = new_page()
        name, value = session_cookie_for(user).split("=", 1)
        page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
        page.goto(f"/tow/{game.pk}/")
        pages[user.username] = page
    mine, theirs = pages[mover.username], pages[voter.username]
    expect(theirs.locator("[data-status]")).to_contain_text("to move")

    for col, letter in enumerate(pair):
        mine.locator(f'.rack-tile[data-tile="{letter}"]:not(.used)').first.click()
        mine.locator(f'[data-r="0"][data-c="{col}"]').click()
    mine.locator("[data-word]").fill(pair)
    expect(mine.locator(".tow-preview .tag")).to_have_text("to the vote")
    mine.locator("[data-submit]").click()
    expect(mine.locator("[data-vote]")).to_contain_text("Waiting for the others to vote")

    expect(theirs.locator("[data-vote]")).to_contain_text(pair.upper())
    theirs.get_by_role("button", name="Accept the word").click()
    expect(theirs.locator("[data-vote-card]")).to_be_hidden()
    for page in (mine, theirs):
        expect(page.locator(".cell.last")).to_have_count(2)
        expect(page.locator("[data-history]")).to_contain_text("voted to accept")


def test_tracing_ends_with_the_turn(new_page, live_site, make_user):
    """After a traced word is submitted, the player's next turn starts out of tracing: a
    rack tile tapped onto an empty cell lands there, and the Trace path button is off."""
    seed, opener, opening, reply = seed_with_a_bent_reply()
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    first, second = (ann, bob) if game.to_move == 0 else (bob, ann)
    services.game_play(game_id=game.pk, player=first, placement=opening.placement, path=opening.path, move_count=0)

    page = new_page()
    name, value = session_cookie_for(second).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    page.goto(f"/tow/{game.pk}/")
    expect(page.locator("[data-status]")).to_contain_text("Your turn")
    for row, col, letter, _ in reply.placement:
        page.locator(f'.rack-tile[data-tile="{letter}"]:not(.used)').first.click()
        page.locator(f'[data-r="{row}"][data-c="{col}"]').click()
    trace = page.get_by_role("button", name="Trace path")
    trace.click()
    for row, col in reply.path:
        page.locator(f'[data-r="{row}"][data-c="{col}"]').click()
    expect(page.locator("[data-total]")).to_have_text(str(reply.score))
    page.locator("[data-submit]").click()
    expect(page.locator("[data-status]")).to_contain_text("to move")

    services.game_pass(game_id=game.pk, player=first, move_count=2)
    expect(page.locator("[data-status]")).to_contain_text("Your turn")
    expect(trace).to_have_attribute("aria-pressed", "false")
    empty = page.locator(".cell:not(.tow-tile)").first
    page.locator(".rack-tile:not(.used)").first.click()
    empty.click()
    expect(page.locator(".cell.new")).to_have_count(1)


# Counts the answers of the game's state the page has read, once the reload that read one
# has done with it (drawn it or not): the count goes up in a task of its own, queued when
# the answer is read, so it runs after the code awaiting that answer.
STATE_ANSWERS_READ = """() => {
  window.stateAnswersRead = 0;
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const read = json.call(this);
    if (new URL(this.url).pathname.endsWith("/state/")) {
      const counted = () => setTimeout(() => { window.stateAnswersRead += 1; });
      read.then(counted, counted);
    }
    return read;
  };
}"""


# Marks the page once its socket's greeting has come: the greeting carries the game's
# move count, and a move made before it arrives is caught up by a reload of its own.
GREETING_SEEN = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (JSON.parse(e.data).type === "hello") window.greetingSeen = true;
      });
    }
  };
})();"""


def test_an_earlier_answer_arriving_late_does_not_undo_a_newer_one(new_page, live_site, make_user):
    """Two moves in quick succession: the page reloads the game for each. The first
    reload's answer, made before the second move, arrives after the second's: the page
    keeps showing the second move and does not go back to the first."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    mover, watcher = (ann, bob) if game.to_move == 0 else (bob, ann)
    page = new_page()
    name, value = session_cookie_for(watcher).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    asked, held, handed, kept_back = [], [], [], []

    def state(route):
        # The first reload is answered as the server has it now and handed to the page
        # later, as a slow answer would be; the ones before that go through. One asked
        # after it was handed (a socket greeted again on a busy machine) is kept back:
        # its newer answer would redraw whatever the late one drew.
        asked.append(route.request.url)
        if len(asked) == 1:
            held.append((route, route.fetch()))
        elif handed:
            kept_back.append(route)
        else:
            route.continue_()

    # Routed before the page loads (a route added to a drawn page can miss a request).
    page.route(f"**/tow/{game.pk}/state/", state)
    page.add_init_script(GREETING_SEEN)
    page.goto(f"/tow/{game.pk}/")
    status, history = page.locator("[data-status]"), page.locator("[data-history] li[data-move]")
    expect(status).to_contain_text(f"{mover.username} to move")
    page.evaluate(STATE_ANSWERS_READ)
    # Only the two moves' reloads: the socket has greeted the page before the first move.
    page.wait_for_function("() => window.greetingSeen === true")
    services.game_pass(game_id=game.pk, player=mover, move_count=0)
    until(page, lambda: held, "the first move's reload was not asked for")
    services.game_pass(game_id=game.pk, player=watcher, move_count=1)
    expect(history).to_have_count(2)
    expect(status).to_contain_text(f"{mover.username} to move")
    route, answer = held.pop()
    handed.append(route)
    # Every other reload's answer is drawn (or dropped) before the late one arrives.
    page.wait_for_function(f"() => window.stateAnswersRead >= {len(asked) - 1}")
    route.fulfill(response=answer)  # made after the first move only: the watcher's turn
    page.wait_for_function(f"() => window.stateAnswersRead >= {len(asked) - len(kept_back)}")
    expect(history).to_have_count(2)
    expect(status).to_contain_text(f"{mover.username} to move")
