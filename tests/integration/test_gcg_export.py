"""A finished crossword game downloads as a GCG file, from its page and from the API, and
the file replays to the scores the game stored."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.crosswords import selectors, services
from games.crosswords.models import Game, Seat
from games.engine import crossword, gcg, movegen

pytestmark = pytest.mark.django_db
DAY = 86400


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def played_to_the_end(variant: str, users, *, swap_at: int = 2) -> Game:
    """A game between ``users`` played through the services to its end: best plays, a swap
    at move ``swap_at``, passes when there is no play."""
    game = services.game_create(creator=users[0], variant=variant, seconds_per_move=DAY, invitees=users[1:])
    for user in users[1:]:
        services.game_accept(game_id=game.pk, player=user)
    by_seat = {seat.index: seat.user for seat in Seat.objects.filter(game=game)}
    while True:
        game.refresh_from_db()
        if game.status != "active":
            return game
        state = selectors.engine_state(game)
        player, rack = by_seat[state.to_move], state.racks[state.to_move]
        best = movegen.best(state.board, rack, state.variant, state.lexicon)
        if game.move_count == swap_at and len(state.bag) >= 2:
            services.game_swap(game_id=game.pk, player=player, tiles=rack[:2], move_count=game.move_count)
        elif best is None:
            services.game_pass(game_id=game.pk, player=player, move_count=game.move_count)
        else:
            services.game_play(game_id=game.pk, player=player, placement=best.placement, move_count=game.move_count)


def replayed_scores(text: str, variant) -> dict[str, int]:
    """Each player's total from the file alone: every play is put down on a board built
    from the file's own plays and scored by the engine, which must agree with the line."""
    record = gcg.read(text)
    board = crossword.Board.empty()
    totals = {nick: 0 for nick, _ in record.players}
    for event in record.events:
        if not isinstance(event, gcg.Event):
            continue
        if event.kind == "play":
            tiles = gcg.placement(board, event.position, event.word)
            assert crossword.evaluate(board, tiles, variant, EVERY_WORD).score == event.score, event
            board = board.with_tiles(tiles)
        totals[event.player] += event.score
        assert totals[event.player] == event.total, event
    return totals


class _EveryWord:
    def __contains__(self, word):
        return True


EVERY_WORD = _EveryWord()


@pytest.mark.parametrize("variant, players", [("wordgrid", 3), ("wordgame", 2)])
def test_the_game_page_downloads_a_gcg_file_that_replays_to_the_stored_scores(client, make_user, variant, players):
    users = [make_user(name) for name in ("ann", "bob", "cy")[:players]]
    game = played_to_the_end(variant, users)
    client.force_login(users[0])
    response = client.get(f"/games/{game.pk}/gcg/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{variant}-{game.pk}.gcg"'
    text = response.content.decode()
    assert f"#id wordfall {game.pk}\n" in text
    stored = {seat.user.username: seat.score for seat in Seat.objects.filter(game=game).select_related("user")}
    assert replayed_scores(text, crossword.variant_named(variant)) == stored
    assert gcg.read(text).totals() == stored


def test_a_game_not_finished_has_no_record_its_racks_are_still_secret(client, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    client.force_login(ann)
    assert client.get(f"/games/{game.pk}/gcg/").status_code == 404
    assert client.get(f"/api/games/crossword/{game.pk}.gcg").json() == {
        "error": f"No finished crossword game {game.pk}."
    }
    assert client.get(f"/games/{game.pk + 100}/gcg/").status_code == 404


def test_the_api_serves_the_same_file_to_anyone_and_names_what_it_does_not_have(client, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = played_to_the_end("wordgrid", [ann, bob])
    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/gcg/").content
    client.logout()
    response = client.get(f"/api/games/crossword/{game.pk}.gcg")
    assert response.status_code == 200 and response.content == page
    assert response["Content-Disposition"] == f'attachment; filename="wordgrid-{game.pk}.gcg"'
    for address, error in (
        (f"/api/games/crossword/{game.pk}.pgn", "crossword games have no .pgn records."),
        (f"/api/games/hunt/{game.pk}.gcg", "hunt games have no .gcg records."),
        (f"/api/games/chess/{game.pk}.gcg", "No game kind 'chess'."),
    ):
        answer = client.get(address)
        assert (answer.status_code, answer.json()) == (404, {"error": error})


def test_a_rated_games_entry_in_the_api_names_its_gcg_file(client, make_user):
    """In a player's list of rated games, a crossword game links its record file."""
    from games.ratings import services as ratings
    from games.ratings.services import Finish

    ann, bob = make_user("ann"), make_user("bob")
    game = played_to_the_end("wordgrid", [ann, bob])
    ratings.result_record(
        pool="wordgrid",
        kind="crossword",
        object_id=game.pk,
        finishes=[Finish(ann.pk, 1, 0, False), Finish(bob.pk, 2, 0, False)],
    )
    (entry,) = client.get("/api/players/ann/games").json()["games"]
    assert entry["records"] == {"gcg": f"http://testserver/api/games/crossword/{game.pk}.gcg"}
    assert client.get(entry["records"]["gcg"]).status_code == 200
