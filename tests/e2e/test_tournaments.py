"""Tournaments as people see them: two browsers join an arena and watch its standings
live; a director pairs a round and both players see their game."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def test_two_players_join_an_arena_and_see_live_standings(new_page, make_user):
    """Ann and Bob each press "Join the arena"; each page's standings show the other join
    without a reload, and the server seats them at one hunt table."""
    director = make_user("director", is_staff=True)
    make_user("ann")
    make_user("bob")
    arena = services.tournament_create(
        director=director,
        name="Evening Rampage arena",
        format="arena",
        kind="hunt",
        pool="rampage",
        starts_at=timezone.now(),
        game_settings={"game": "rampage", "size": 4, "round_seconds": 60},
        minutes=30,
    )
    services.tournament_start(tournament_id=arena.pk, by=director)
    pages = {}
    for name in ("ann", "bob"):
        page = new_page()
        log_in(page, name)
        page.goto("/tournaments/")
        page.get_by_role("link", name="Evening Rampage arena").click()
        expect(page.locator("#tournament")).to_have_attribute("data-live", "open")
        pages[name] = page
    pages["ann"].get_by_role("button", name="Join the arena").click()
    expect(pages["bob"].locator('[data-standings] tr[data-player="ann"]')).to_be_visible()
    pages["bob"].get_by_role("button", name="Join the arena").click()
    expect(pages["ann"].locator('[data-standings] tr[data-player="bob"]')).to_be_visible()
    # The beat's arena pass seats a table of two after its fill time; both pages show it.
    for page in pages.values():
        expect(page.locator('[data-games] [data-pairing-status="playing"] a')).to_be_visible(timeout=30000)
    link = pages["ann"].locator('[data-games] [data-pairing-status="playing"] a').get_attribute("href")
    assert re.match(r"^/hunts/\d+/$", link)
    assert Entry.objects.filter(tournament=arena, waiting_since__isnull=True).count() == 2


def test_a_director_pairs_a_round_and_both_players_see_their_game(new_page, make_user):
    """A director presses "Start now" on a Swiss: round 1 is paired, and the two players'
    pages, open all along, show their game; each follows it to the same Word Grid game."""
    director = make_user("director")
    director.groups.add(Group.objects.get_or_create(name=services.DIRECTORS_GROUP)[0])
    swiss = services.tournament_create(
        director=director,
        name="Thursday Swiss",
        format="swiss",
        kind="crossword",
        pool="wordgrid",
        starts_at=timezone.now() + timedelta(hours=1),
        game_settings={"variant": "wordgrid", "seconds_per_move": 86400},
        rounds=2,
    )
    players = {}
    for name in ("ann", "bob"):
        services.entry_register(tournament_id=swiss.pk, user=make_user(name))
        page = new_page()
        log_in(page, name)
        page.goto(f"/tournaments/{swiss.pk}/")
        expect(page.locator("#tournament")).to_have_attribute("data-live", "open")
        players[name] = page
    boss = new_page()
    log_in(boss, "director")
    boss.goto(f"/tournaments/{swiss.pk}/")
    boss.get_by_role("button", name="Start now").click()
    expect(boss.locator('[data-director] [data-direct="pause"]')).to_be_visible()
    urls = set()
    for page in players.values():
        game = page.locator('[data-games] [data-pairing-status="playing"] a')
        expect(game).to_be_visible(timeout=30000)
        urls.add(game.get_attribute("href"))
    assert len(urls) == 1
    (url,) = urls
    for page in players.values():
        page.goto(url)
        expect(page.locator("#crossword")).to_be_visible()


def test_a_director_picks_the_games_settings_from_the_games_choices(new_page, make_user):
    """On the new-event form only the chosen game's settings and the formats it suits
    show; choosing Word Rampage shows its word lists and round lengths and makes the
    event an arena, and the event is created with those picked."""
    director = make_user("director")
    director.groups.add(Group.objects.get_or_create(name=services.DIRECTORS_GROUP)[0])
    page = new_page()
    log_in(page, "director")
    page.goto("/tournaments/new/")
    grid = page.locator('fieldset[data-game="crossword:wordgrid"]')
    rampage = page.locator('fieldset[data-game="hunt:rampage"]')
    page.locator("#id_game").select_option("crossword:wordgrid")
    expect(grid).to_be_visible()
    expect(rampage).to_be_hidden()
    page.get_by_label("Name").fill("Rampage hour")
    page.get_by_label("Format").select_option("swiss")
    expect(page.locator('#id_format option[value="arena"]')).to_be_disabled()
    page.locator("#id_game").select_option("hunt:rampage")
    expect(page.get_by_label("Format")).to_have_value("arena")
    expect(page.locator('#id_format option[value="swiss"]')).to_be_disabled()
    page.locator("#id_minutes").fill("60")
    expect(grid).to_be_hidden()
    expect(rampage).to_be_visible()
    rampage.get_by_label("Round").select_option("180")
    rampage.get_by_label("Word list").select_option("en-gb")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name="Rampage hour")).to_be_visible()
    tournament = Tournament.objects.get(name="Rampage hour")
    assert tournament.game_settings == {"game": "rampage", "size": 4, "lexicon_code": "en-gb", "round_seconds": 180}
