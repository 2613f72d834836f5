"""Tournament pages, the public API and the event socket."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.crosswords import services as crosswords
from games.tournaments import services
from games.tournaments.broadcasts import standings_send
from games.tournaments.models import DirectorAction, Entry, Round, Tournament

WORD_GRID = {"variant": "wordgrid", "seconds_per_move": 86400}


@pytest.fixture
def director(make_user):
    user = make_user("director")
    user.groups.add(Group.objects.get_or_create(name=services.DIRECTORS_GROUP)[0])
    return user


def new_event(director, **options):
    """A Word Grid event, a Swiss of three rounds starting in an hour unless ``options``
    (``tournament_create``'s) say otherwise."""
    fields = {
        "name": "Tuesday Swiss",
        "format": "swiss",
        "kind": "crossword",
        "pool": "wordgrid",
        "starts_at": timezone.now() + timedelta(hours=1),
        "game_settings": WORD_GRID,
        "rounds": 3,
    }
    return services.tournament_create(director=director, **(fields | options))


@pytest.mark.django_db
def test_the_lobby_lists_upcoming_running_and_finished(client, director):
    """The lobby has its three sections and lists an upcoming event under its own."""
    new_event(director, name="Friday Swiss")
    page = client.get(reverse("tournaments:lobby")).content.decode()
    assert page.index("Running") < page.index("Upcoming") < page.index("Finished")
    assert "Friday Swiss" in page


@pytest.mark.django_db
def test_entering_from_the_event_page(client, director, make_user):
    """A player enters with the page's button and the standings list them; entering again
    is refused with the reason on the page."""
    tournament = new_event(director)
    ann = make_user("ann")
    client.force_login(ann)
    response = client.post(reverse("tournaments:join", args=[tournament.pk]), follow=True)
    assert response.status_code == 200
    assert 'data-player="ann"' in response.content.decode()
    again = client.post(reverse("tournaments:join", args=[tournament.pk]), follow=True)
    assert "already entered" in again.content.decode()
    assert Entry.objects.filter(tournament=tournament, user=ann).count() == 1


@pytest.mark.django_db
def test_a_director_starts_and_pairs_from_the_page_and_players_cannot(client, director, make_user):
    """The director's buttons start the event; a player posting them is refused."""
    tournament = new_event(director)
    for name in ("ann", "bob"):
        services.entry_register(tournament_id=tournament.pk, user=make_user(name))
    client.force_login(Entry.objects.get(user__username="ann").user)
    refused = client.post(reverse("tournaments:direct", args=[tournament.pk, "start"]))
    assert refused.status_code in (302, 403)
    assert not Round.objects.filter(tournament=tournament).exists()
    client.force_login(director)
    page = client.get(reverse("tournaments:event", args=[tournament.pk])).content.decode()
    assert 'data-direct="start"' in page
    client.post(reverse("tournaments:direct", args=[tournament.pk, "start"]))
    assert Round.objects.filter(tournament=tournament, number=1).exists()
    assert DirectorAction.objects.filter(tournament=tournament, action="start", director=director).exists()


def _new_event(**fields) -> dict:
    """A new-event form's fields as the page posts them (every game's settings at their
    initial values), with ``fields`` changed."""
    data = {
        "name": "Club Swiss",
        "format": "swiss",
        "game": "crossword:wordgrid",
        "rated": "on",
        "starts_at": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d %H:%M"),
        "rounds": "3",
        "cycles": "1",
        "wordgrid-seconds_per_move": "86400",
        "wordgame-seconds_per_move": "86400",
        "rampage-lexicon_code": "en",
        "rampage-round_seconds": "120",
        "tow-words": "en",
        "tow-seconds_per_move": "86400",
    }
    return {**data, **fields}


@pytest.mark.django_db
def test_the_new_event_form_offers_each_games_own_settings(client, director):
    """A director picks the games' settings from the kinds' own choices, one set per game:
    the time per move of a crossword or TOW game, a Rampage round's word list and length,
    nothing for a Classic round; the house vote is not offered."""
    client.force_login(director)
    page = client.get(reverse("tournaments:create")).content.decode()
    assert "game_settings" not in page
    assert 'name="wordgrid-seconds_per_move"' in page and 'name="tow-seconds_per_move"' in page
    for seconds in (60, 120, 180, 240, 300):
        assert f'<option value="{seconds}"' in page
    assert 'name="rampage-lexicon_code"' in page
    assert "classic5-" not in page and 'data-game="hunt:classic5"' in page
    assert 'value="house"' not in page


@pytest.mark.django_db
def test_creating_an_event_stores_the_chosen_settings(client, director):
    """The chosen game's settings become its games' settings, with what the pool implies;
    the other games' fields are not read, even with nonsense in them."""
    client.force_login(director)
    response = client.post(
        reverse("tournaments:create"),
        _new_event(**{"wordgrid-seconds_per_move": str(2 * 86400), "rampage-round_seconds": "7"}),
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Club Swiss")
    assert (tournament.kind, tournament.pool) == ("crossword", "wordgrid")
    assert tournament.game_settings == {"variant": "wordgrid", "seconds_per_move": 2 * 86400}


@pytest.mark.django_db
def test_a_setting_outside_the_games_choices_is_refused_on_the_form(client, director):
    """A time per move the game does not offer is shown as the field's error, and no
    event is created."""
    client.force_login(director)
    response = client.post(reverse("tournaments:create"), _new_event(**{"wordgrid-seconds_per_move": "5"}))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Check the Word Grid settings below." in page and "Select a valid choice" in page
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_admin_refuses_a_schedule_whose_settings_the_game_does_not_offer():
    """An arena schedule is checked as a director's event would be: settings outside the
    game's choices, or a pool of no game, are refused with the reason."""
    from games.tournaments.admin import ArenaScheduleForm

    fields = {
        "name": "Hourly Rampage",
        "kind": "hunt",
        "pool": "rampage",
        "rated": "on",
        "first_start": "2030-01-01 10:00",
        "every_minutes": "60",
        "duration_minutes": "30",
        "ahead_minutes": "60",
        "active": "on",
    }
    assert ArenaScheduleForm({**fields, "game_settings": '{"round_seconds": 120}'}).is_valid()
    bad = ArenaScheduleForm({**fields, "game_settings": '{"round_seconds": 7}'})
    assert not bad.is_valid() and "Round: Select a valid choice" in str(bad.errors["game_settings"])
    assert not ArenaScheduleForm({**fields, "pool": "wordgrid", "game_settings": "{}"}).is_valid()


@pytest.mark.django_db
def test_the_profile_shows_tournament_history(client, director, make_user):
    """A player's profile lists the events they entered."""
    tournament = new_event(director, name="Spring Swiss")
    ann = make_user("ann")
    services.entry_register(tournament_id=tournament.pk, user=ann)
    page = client.get(reverse("profile", args=["ann"])).content.decode()
    assert "data-tournament-history" in page and "Spring Swiss" in page


@pytest.mark.django_db
def test_a_kept_tournament_history_shows_each_result_as_it_lands(
    client, director, make_user, django_capture_on_commit_callbacks
):
    """Where a player stands is kept with the event until it changes: a game's result and
    a director's correction each show at the next view of the players' profiles."""
    ann, bob = make_user("ann"), make_user("bob")

    def history(name: str) -> str:
        page = client.get(reverse("profile", args=[name])).content.decode()
        return page[page.index("data-tournament-history") :]

    with django_capture_on_commit_callbacks(execute=True):
        tournament = new_event(director, name="Spring Swiss", rounds=1)
        for player in (ann, bob):
            services.entry_register(tournament_id=tournament.pk, user=player)
        services.tournament_start(tournament_id=tournament.pk, by=director)
    assert "with 0 points" in history("ann") and "with 0 points" in history("bob")
    with CaptureQueriesContext(connection) as kept:
        history("ann")
    assert not [query for query in kept.captured_queries if "tournaments_pairingplayer" in query["sql"]]

    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_start(pairing_id=tournament.pairings.get().pk)
    pairing = tournament.pairings.get()
    second = pairing.players.get(seat=1).entry.user
    with django_capture_on_commit_callbacks(execute=True):
        crosswords.game_resign(game_id=pairing.game_id, player=second)
    first = ann if second == bob else bob
    assert "1st with 1 point<" in history(first.username) and "2nd with 0 points" in history(second.username)

    with django_capture_on_commit_callbacks(execute=True):
        services.result_correct(
            pairing_id=pairing.pk,
            by=director,
            points=dict.fromkeys(pairing.players.values_list("entry_id", flat=True), 1),
            reason="agreed draw",
        )
    assert "1st with ½ point" in history(first.username)


# --------------------------------------------------------------------------- API


@pytest.mark.django_db
def test_api_lists_tournaments_by_status_and_pages(client, director):
    """GET /api/tournaments pages events newest first and filters by status."""
    for number in range(25):
        new_event(director, name=f"Swiss {number}")
    first = client.get("/api/tournaments?status=upcoming").json()
    assert first["count"] == 25 and first["pages"] == 2 and len(first["tournaments"]) == 20
    assert first["next"].endswith("page=2")
    assert client.get("/api/tournaments?status=finished").json()["count"] == 0
    assert client.get("/api/tournaments?status=nonsense").status_code == 404
    assert client.get("/api/tournaments?page=9").status_code == 404


@pytest.mark.django_db
def test_api_tournament_has_standings_with_tiebreaks_and_games(client, director, make_user):
    """GET /api/tournaments/<id>: format, pool, status, standings with tie-breaks, games."""
    tournament = new_event(director)
    for name in ("ann", "bob", "cy"):
        services.entry_register(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, by=director)
    data = client.get(f"/api/tournaments/{tournament.pk}").json()
    assert (data["format"], data["pool"], data["status"], data["current_round"]) == ("swiss", "wordgrid", "running", 1)
    assert {line["username"] for line in data["standings"]} == {"ann", "bob", "cy"}
    assert set(data["standings"][0]["tiebreaks"]) >= {"spread", "buchholz", "sonneborn_berger"}
    assert len(data["games"]) == 2 and {g["status"] for g in data["games"]} == {"pending", "bye"}
    assert client.get("/api/tournaments/999999").status_code == 404


@pytest.mark.django_db
def test_api_gives_a_round_robins_rounds_once_its_field_is_set(client, director, make_user):
    """A round robin's rounds come from its field: 0 in the API until round 1 is paired
    (a number a director typed for it is not kept), then as many as the field plays."""
    tournament = new_event(director, name="Club round robin", format="roundrobin", rounds=7)
    assert tournament.rounds == 0
    for name in ("ann", "bob", "cy", "dee", "eve"):
        services.entry_register(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, by=director)
    data = client.get(f"/api/tournaments/{tournament.pk}").json()
    assert (data["format"], data["rounds"], data["current_round"]) == ("roundrobin", 5, 1)


# --------------------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_standings_and_each_change(ws_connect, make_user):
    """An event's socket sends the standings on connect, and again when a player enters."""
    director = await sync_to_async(make_user)("director", is_staff=True)
    tournament = await sync_to_async(new_event)(director)
    watcher = await ws_connect(f"/ws/tournaments/{tournament.pk}/")
    hello = await watcher.receive_json_from(timeout=5)
    assert hello["type"] == "tournament.standings" and "Nobody has entered" in hello["html"]
    ann = await sync_to_async(make_user)("ann")
    await sync_to_async(services.entry_register)(tournament_id=tournament.pk, user=ann)
    update = await watcher.receive_json_from(timeout=5)
    assert 'data-player="ann"' in update["html"]


@pytest.mark.django_db(transaction=True)
async def test_a_standings_update_costs_the_same_queries_for_many_watchers(ws_connect, make_user):
    """A change is rendered once and published once: with eight watchers it runs the same
    queries as with two, and every watcher gets it."""
    director = await sync_to_async(make_user)("director", is_staff=True)
    tournament = await sync_to_async(new_event)(director)
    for name in ("ann", "bob"):
        player = await sync_to_async(make_user)(name)
        await sync_to_async(services.entry_register)(tournament_id=tournament.pk, user=player)

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            standings_send(tournament.pk)
        return len(queries)

    watchers = []
    counts = []
    for size in (2, 8):
        while len(watchers) < size:
            socket = await ws_connect(f"/ws/tournaments/{tournament.pk}/")
            await socket.receive_json_from(timeout=5)
            watchers.append(socket)
        counts.append(await sync_to_async(counted)())
        for socket in watchers:
            message = await socket.receive_json_from(timeout=5)
            assert 'data-player="bob"' in message["html"]
    assert counts[0] == counts[1]


@pytest.mark.worker
async def test_a_burst_of_changes_sends_the_standings_twice_not_once_per_change(celery_worker, ws_connect, make_user):
    """Three players entered in one transaction are three changes at one moment: the
    watcher is sent the standings once at once and once more at the end of the spacing,
    not three times."""
    director = await sync_to_async(make_user)("director", is_staff=True)
    tournament = await sync_to_async(new_event)(director)
    players = [await sync_to_async(make_user)(name) for name in ("ann", "bob", "cy")]
    watcher = await ws_connect(f"/ws/tournaments/{tournament.pk}/")
    await watcher.receive_json_from(timeout=5)

    def enter_all():
        with transaction.atomic():
            for player in players:
                services.entry_register(tournament_id=tournament.pk, user=player)

    await sync_to_async(enter_all)()
    for _ in range(2):
        message = await watcher.receive_json_from(timeout=10)
        assert all(f'data-player="{name}"' in message["html"] for name in ("ann", "bob", "cy"))
    assert await watcher.receive_nothing(timeout=3)


@pytest.mark.django_db
def test_the_tournament_api_is_cached_and_rate_limited_like_the_rest(
    client, director, make_user, settings, rate_window_held
):
    """The tournament answers come from the API's cache within its time and count towards
    the address's limit, which answers 429 with a JSON error."""
    from django.core.cache import cache

    cache.clear()
    settings.API_CACHE_SECONDS = 30
    settings.API_RATE_LIMIT = "4/m"
    tournament = new_event(director)
    first = client.get(f"/api/tournaments/{tournament.pk}").json()
    assert first["standings"] == []
    services.entry_register(tournament_id=tournament.pk, user=make_user("ann"))
    assert client.get(f"/api/tournaments/{tournament.pk}").json() == first
    listed = client.get("/api/tournaments").json()
    assert client.get("/api/tournaments").json() == listed
    limited = client.get("/api/tournaments")
    assert limited.status_code == 429 and "error" in limited.json()
    cache.clear()
    assert [line["username"] for line in client.get(f"/api/tournaments/{tournament.pk}").json()["standings"]] == ["ann"]


@pytest.mark.django_db
def test_a_director_edits_an_upcoming_event_from_its_page(client, director, make_user):
    """The event page links a director to the edit form, which shows the format's fields
    with the event's values; saving changes the event and logs what changed (the start, shown to the second, did
    not). A player is refused."""
    tournament = new_event(director)
    client.force_login(director)
    page = client.get(reverse("tournaments:event", args=[tournament.pk])).content.decode()
    assert reverse("tournaments:edit", args=[tournament.pk]) in page
    form = client.get(reverse("tournaments:edit", args=[tournament.pk])).content.decode()
    assert 'name="rounds"' in form and 'value="3"' in form and 'name="minutes"' not in form
    starts_at = timezone.localtime(tournament.starts_at).strftime("%Y-%m-%d %H:%M:%S")
    services.tournament_remind(tournament_id=tournament.pk, now=tournament.starts_at - timedelta(minutes=5))
    response = client.post(
        reverse("tournaments:edit", args=[tournament.pk]),
        {"name": "Renamed Swiss", "rated": "on", "starts_at": starts_at, "rounds": 4},
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds) == ("Renamed Swiss", 4)
    assert tournament.reminded_at is not None  # the start shown to the second did not move
    action = DirectorAction.objects.get(tournament=tournament, action="edit")
    assert set(action.details["changes"]) == {"name", "rounds"}
    client.force_login(make_user("ann"))
    assert client.get(reverse("tournaments:edit", args=[tournament.pk])).status_code == 403


@pytest.mark.django_db
def test_a_director_sets_the_time_between_round_starts_on_the_forms(client, director):
    """The new-event form takes the minutes between round starts and stores them; the edit
    form shows them and changes them."""
    client.force_login(director)
    response = client.post(reverse("tournaments:create"), _new_event(round_interval_minutes="1440"))
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Club Swiss")
    assert tournament.round_interval == timedelta(days=1)
    form = client.get(reverse("tournaments:edit", args=[tournament.pk])).content.decode()
    assert 'name="round_interval_minutes"' in form and 'value="1440"' in form
    starts_at = timezone.localtime(tournament.starts_at).strftime("%Y-%m-%d %H:%M:%S")
    client.post(
        reverse("tournaments:edit", args=[tournament.pk]),
        {"name": "Club Swiss", "rated": "on", "starts_at": starts_at, "rounds": 3, "round_interval_minutes": 60},
    )
    tournament.refresh_from_db()
    assert tournament.round_interval == timedelta(hours=1)
