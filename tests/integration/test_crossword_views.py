"""Crossword pages and actions through the test client: permissions and bad input."""

from __future__ import annotations

import json

import pytest

from games.crosswords import selectors, services
from games.crosswords.models import Game, Move, Status
from games.engine import movegen

pytestmark = pytest.mark.django_db
DAY = 86400


@pytest.fixture
def duel(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed="views-1")
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    state = selectors.engine_state(game)
    play = movegen.best(state.board, state.racks[0], state.variant, state.lexicon)
    return game, ann, bob, play


def as_json(play):
    return json.dumps([list(t) for t in play.placement])


def test_game_page_shows_my_rack_and_never_the_bag(client, duel):
    """The page shows my rack tiles and the unseen tiles, not the opponent's rack."""
    game, ann, bob, play = duel
    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/").content.decode()
    state = selectors.engine_state(game)
    assert page.count('class="rt') >= 7 and "Your turn" in page
    assert "data-rack" in page and "Unseen tiles (93)" in page
    rack_html = page.split("data-rack")[1].split("</div>")[0]
    assert "".join(sorted(tile[0] for tile in rack_html.split('data-letter="')[1:])) == state.racks[0]
    partial = client.get(f"/games/{game.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="play-area"') and "<html" not in partial


def test_playing_through_the_views(client, duel):
    """Preview then play: the move is stored and the other player's view moves on."""
    game, ann, bob, play = duel
    client.force_login(ann)
    preview = client.post(f"/games/{game.pk}/preview/", {"placement": as_json(play), "move_count": 0}).json()
    assert preview["legal"] and preview["score"] == play.score
    response = client.post(f"/games/{game.pk}/play/", {"placement": as_json(play), "move_count": 0})
    assert response.json() == {"ok": True, "move_count": 1, "score": play.score}
    again = client.post(f"/games/{game.pk}/play/", {"placement": as_json(play), "move_count": 0})
    assert again.status_code == 409 and "moved on" in again.json()["reason"]
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("not json", "could not be read"),
        ("[]", "between 1 and 8"),
        ('[[7, 7, "a"]]', "could not be read"),
        ('[[7, 15, "a", false]]', "off the board"),
        ('[[7, 7, "1", false]]', "no letter"),
        ('[[7, 7, "", true]]', "blank"),
        ('[[7, 7, "a", false], [7, 7, "b", false]]', "Two tiles"),
        ("[" * 5000, "could not be read"),  # deep nesting: refused, not a parser crash
        ('[[7, 7, "a", false]' + ', [7, 8, "b", false]' * 200 + "]", "could not be read"),
    ],
)
def test_malformed_placements_are_refused(client, duel, raw, reason):
    """A malformed placement is refused with a clear message and changes nothing."""
    game, ann, bob, play = duel
    client.force_login(ann)
    response = client.post(f"/games/{game.pk}/play/", {"placement": raw, "move_count": 0})
    assert response.status_code == 400 and reason in response.json()["reason"]
    preview = client.post(f"/games/{game.pk}/preview/", {"placement": raw, "move_count": 0})
    assert preview.status_code == 200 and not preview.json()["legal"]
    assert not Move.objects.filter(game=game).exists()


def test_forged_posts_on_someone_elses_game_are_refused(client, duel, make_user):
    """A player without a seat gets 403 for every action and nothing changes."""
    game, ann, bob, play = duel
    client.force_login(make_user("eve"))
    for url, data in (
        ("play", {"placement": as_json(play), "move_count": 0}),
        ("pass", {"move_count": 0}),
        ("swap", {"tiles": "a", "move_count": 0}),
        ("resign", {}),
    ):
        response = client.post(f"/games/{game.pk}/{url}/", data)
        assert response.status_code == 403, url
        assert "not playing" in response.json()["reason"]
    preview = client.post(f"/games/{game.pk}/preview/", {"placement": as_json(play), "move_count": 0}).json()
    assert not preview["legal"]
    game.refresh_from_db()
    assert game.move_count == 0


def test_out_of_turn_swap_too_large_and_missing_move_count(client, duel):
    """Out of turn is 409; a swap bigger than the rack is refused; no move count is stale."""
    game, ann, bob, play = duel
    client.force_login(bob)
    assert client.post(f"/games/{game.pk}/pass/", {"move_count": 0}).status_code == 409
    client.force_login(ann)
    assert client.post(f"/games/{game.pk}/pass/", {}).status_code == 409
    response = client.post(f"/games/{game.pk}/swap/", {"tiles": "zzzzzzzzz", "move_count": 0})
    assert response.status_code == 400
    assert not Move.objects.filter(game=game).exists()


def test_actions_need_a_signed_in_player_and_post(client, duel):
    """Anonymous visitors are sent to log in; GET on an action is not allowed."""
    game, ann, bob, play = duel
    assert client.get(f"/games/{game.pk}/").status_code == 302
    assert client.post(f"/games/{game.pk}/pass/", {"move_count": 0}).status_code == 302
    client.force_login(ann)
    assert client.get(f"/games/{game.pk}/pass/").status_code == 405


def test_the_badge_counts_the_games_awaiting_my_move(client, duel):
    """The count follows the turn: ann's before her move, bob's after; none once it is over."""
    from accounts.my_games import awaiting_count

    game, ann, bob, play = duel
    assert (awaiting_count(ann), awaiting_count(bob)) == (1, 0)
    client.force_login(ann)
    client.post(f"/games/{game.pk}/play/", {"placement": as_json(play), "move_count": 0})
    assert (awaiting_count(ann), awaiting_count(bob)) == (0, 1)
    client.force_login(bob)
    client.post(f"/games/{game.pk}/resign/")
    assert (awaiting_count(ann), awaiting_count(bob)) == (0, 0)
    client.logout()
    assert client.get("/games/").status_code == 302


def test_new_game_form_invites_and_my_games_lists_it(client, make_user):
    """Creating a game invites by username; My games and the badge show it."""
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    response = client.post(
        "/games/new/", {"variant": "wordgrid", "seconds_per_move": 3 * DAY, "invitees": "bob", "open_seats": 0}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert game.seconds_per_move == 3 * DAY and game.status == Status.WAITING
    bad = client.post(
        "/games/new/", {"variant": "wordgame", "seconds_per_move": 3 * DAY, "invitees": "nobody", "open_seats": 0}
    )
    assert "There is no player called nobody" in bad.content.decode()
    too_many = client.post(
        "/games/new/", {"variant": "wordgame", "seconds_per_move": 3 * DAY, "invitees": "bob", "open_seats": 1}
    )
    assert "Wordgame takes 2–2 players" in too_many.content.decode()
    client.force_login(bob)
    page = client.get("/games/").content.decode()
    invitations = page.split('id="invitations"')[1].split("</section>")[0]
    assert f'action="/games/{game.pk}/accept/"' in invitations  # answered from the list
    assert f'action="/games/{game.pk}/decline/"' in invitations
    client.post(f"/games/{game.pk}/accept/")
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    client.force_login(ann)
    page = client.get("/games/").content.decode()
    assert "data-games-awaiting>1<" in page


def test_my_games_rows_say_who_moves_and_the_lobby_has_take_a_seat(client, duel, make_user):
    """Each game in progress lists every player's score and whose move it is; a seek in the
    lobby can be joined from the list."""
    game, ann, bob, play = duel
    services.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
    seek = services.game_create(creator=make_user("cy"), variant="wordgrid", seconds_per_move=DAY, open_seats=1)
    client.force_login(ann)
    page = client.get("/games/").content.decode()
    their_turn = page.split('id="their-turn"')[1].split("</section>")[0]
    assert f'ann <b class="num">{play.score}</b>' in their_turn
    assert 'bob <b class="num">0</b>' in their_turn and "bob to move" in their_turn
    client.force_login(bob)
    page = client.get("/games/").content.decode()
    assert "your move" in page.split('id="my-turn"')[1].split("</section>")[0]
    lobby = page.split('id="lobby"')[1].split("</section>")[0]
    assert f'action="/games/{seek.pk}/accept/"' in lobby and "Take a seat" in lobby
    client.post(f"/games/{seek.pk}/accept/")
    seek.refresh_from_db()
    assert seek.status == Status.ACTIVE


def test_finished_game_shows_result_replay_and_profile(client, duel):
    """A finished game shows the result, offers a replay, and is on both profiles."""
    game, ann, bob, play = duel
    services.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
    services.game_resign(game_id=game.pk, player=bob)
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Finished" in page and "ann wins" in page and "data-replay" in page
    frames = client.get(f"/games/{game.pk}/replay/").json()["frames"]
    assert len(frames) == 3 and len(frames[1]["tiles"]) == len(play.placement)
    for name in ("ann", "bob"):
        profile = client.get(f"/u/{name}/").content.decode()
        assert f"/games/{game.pk}/" in profile
