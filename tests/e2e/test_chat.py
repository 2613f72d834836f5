"""What two people see when they chat: at a hunt table and in a crossword game."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from chat.models import Report
from games.crosswords import services as crosswords
from games.hunts import services as hunts
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def chat_axe_violations(page) -> list[str]:
    """axe-core's violations inside the chat panel (the rest of each game page is checked
    with that game's pages)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"include": [["[data-chat]"]]})
    return [f"{v['id']}: {v['help']}" for v in results.response["violations"]]


def send(page, text: str) -> None:
    page.get_by_label("Message").fill(text)
    page.get_by_role("button", name="Send").click()


def test_two_players_chat_at_a_hunt_table_and_one_reports_a_message(page, new_page, make_user):
    """Ann's message reaches Bob live, shown as the text typed (markup included, never run);
    Bob reports it and is thanked."""
    ann, bob = make_user("ann"), make_user("bob")
    table = hunts.table_create(host=ann, seat_count=2)
    hunts.table_join(table_id=table.pk, user=bob)
    log_in(page, "ann")
    other = new_page()
    log_in(other, "bob")
    for p in (page, other):
        p.goto(f"/hunts/{table.pk}/")
        expect(p.locator("[data-chat]")).to_be_visible()
    send(page, "good luck <b>bob</b>")
    line = other.locator("[data-chat-log] li").filter(has_text="good luck")
    expect(line).to_contain_text("good luck <b>bob</b>")
    expect(other.locator("[data-chat-log] b")).to_have_count(0)
    expect(page.locator("[data-chat-log] li")).to_have_count(1)
    send(other, "thanks, you too")
    expect(page.locator("[data-chat-log] li").last).to_contain_text("thanks, you too")
    line.get_by_role("button", name="Report").click()
    expect(other.locator("[data-chat-note]")).to_contain_text("a moderator will look")
    assert Report.objects.filter(reporter=bob).count() == 1


def test_crossword_players_chat_on_the_game_page(page, new_page, make_user):
    """Both players of a crossword game see each other's messages; Ann mutes Bob and his lines go."""
    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    crosswords.game_accept(game_id=game.pk, player=bob)
    log_in(page, "ann")
    other = new_page()
    log_in(other, "bob")
    for p in (page, other):
        p.goto(f"/games/{game.pk}/")
        expect(p.locator("[data-chat]")).to_be_visible()
    send(other, "your move")
    line = page.locator("[data-chat-log] li").filter(has_text="your move")
    expect(line).to_be_visible()
    assert chat_axe_violations(page) == []
    line.get_by_role("button", name="Mute").click()
    expect(page.locator("[data-chat-log] li")).to_have_count(0)
    expect(page.locator("[data-chat-note]")).to_contain_text("You will not see bob")


def test_a_watcher_chats_with_the_table_or_with_the_other_watchers(page, new_page, make_user):
    """A watcher has a "To" choice (table or watchers); a line to the watchers reaches the
    other watcher, marked, and never the player; the panel passes axe with the choice shown."""
    ann, bob = make_user("ann"), make_user("bob")
    make_user("kim"), make_user("lee")
    table = hunts.table_create(host=ann, seat_count=2)
    hunts.table_join(table_id=table.pk, user=bob)
    log_in(page, "ann")
    kim, lee = new_page(), new_page()
    log_in(kim, "kim")
    log_in(lee, "lee")
    for p in (page, kim, lee):
        p.goto(f"/hunts/{table.pk}/")
        expect(p.locator("[data-chat]")).to_be_visible()
    expect(page.locator("[data-chat-to]")).to_be_hidden()  # a player has the table's chat only
    expect(kim.get_by_label("To")).to_be_visible()
    kim.get_by_label("To").select_option(label="Watchers")
    send(kim, "ann looks nervous")
    line = lee.locator("[data-chat-log] li").filter(has_text="ann looks nervous")
    expect(line).to_contain_text("watchers")
    kim.get_by_label("To").select_option(label="Table")
    send(kim, "good luck both")
    expect(page.locator("[data-chat-log] li").filter(has_text="good luck both")).to_be_visible()
    expect(page.locator("[data-chat-log] li")).to_have_count(1)
    assert chat_axe_violations(kim) == []
