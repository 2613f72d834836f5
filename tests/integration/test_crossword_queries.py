"""Crossword requests cost the same early and late in a game: the kept engine state.

A preview, the page (whole and as the htmx play area) and a move make the same number of
database queries at move 2 and at move 40 or later, and the kept state equals a replay of
the stored moves from the seed.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.crosswords import selectors, services
from games.crosswords.models import Game, Move
from games.crosswords.services import Refused
from games.engine import crossword, movegen
from games.engine import crossword_game as engine

# Real commits: the kept states are kept only when the transaction that built them commits.
pytestmark = pytest.mark.django_db(transaction=True)
DAY = 86400


def started(users, seed):
    game = services.game_create(creator=users[0], variant="wordgrid", seconds_per_move=DAY, invitees=users[1:])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        services.game_accept(game_id=game.pk, player=user)
    game.refresh_from_db()
    return game


def to_move(game):
    return game.seats.get(index=game.to_move).user


def best_placement(game):
    state = selectors.engine_state(game)
    return movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)


def short_play(state):
    """The best-scoring play of the fewest tiles: a long game for the test."""
    plays = movegen.generate(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    return min(plays, key=lambda p: (len(p.placement), -p.score), default=None)


def play_until(game, moves):
    """Short plays (a swap or pass when there is none) until ``moves`` moves are stored."""
    while game.move_count < moves:
        game.refresh_from_db()
        state = selectors.engine_state(game)
        user, rack = to_move(game), state.racks[state.to_move]
        play = short_play(state)
        if play is not None:
            services.game_play(game_id=game.pk, player=user, placement=play.placement, move_count=game.move_count)
        elif len(state.bag) >= len(rack):
            services.game_swap(game_id=game.pk, player=user, tiles=rack, move_count=game.move_count)
        else:
            services.game_pass(game_id=game.pk, player=user, move_count=game.move_count)
        game.refresh_from_db()
        assert game.status == "active", "the game ended before the wanted length"
    return game


@pytest.fixture
def games(make_user):
    """One four-player game at move 2 and one at move 44 (a long game by any standard)."""
    users = [make_user(name) for name in ("ann", "bob", "cid", "dee")]
    short = play_until(started(users, "queries-short"), 2)
    long = play_until(started(users, "queries-long"), 44)
    return short, long


def queries(client, method, url, data=None, **headers) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, data, **headers)
    assert response.status_code == 200, response.content[:300]
    return len(captured), response


def placement_json(game):
    return json.dumps([list(tile) for tile in best_placement(game).placement])


def test_kept_state_equals_a_fresh_replay(games):
    """At every length, the kept state is the one a replay of the stored moves from the seed gives."""
    _, game = games
    moves = list(game.moves.order_by("number"))
    variant, lex = crossword.variant_named(game.variant), selectors.lexicon(game)
    for count in (44, 3, 17, 0, 30, 44):
        fresh = engine.replay(variant, game.players, game.seed, [selectors.engine_move(m) for m in moves[:count]], lex)
        assert selectors.engine_state(game, moves=moves[:count]) == fresh
    assert selectors.engine_state(game) == selectors.replay_state(game)
    # Only the moves since an older kept state are read and applied.
    selectors.STATES.remember(
        selectors._state_key(game), 30, moves[29].pk, selectors.engine_state(game, moves=moves[:30])
    )
    assert selectors.engine_state(game) == selectors.replay_state(game)
    selectors.STATES.clear()
    assert selectors.engine_state(game) == selectors.replay_state(game)


def test_a_state_from_a_move_rolled_back_is_never_used(games):
    """A move whose transaction rolls back leaves no kept state behind that a later request uses."""
    _, game = games
    user = to_move(game)
    placement = best_placement(game).placement
    with pytest.raises(RuntimeError), transaction.atomic():
        services.game_play(game_id=game.pk, player=user, placement=placement, move_count=game.move_count)
        raise RuntimeError("roll back")
    assert Move.objects.filter(game=game).count() == 44
    # Kept only on commit: SQLite gives the rolled-back move's key to the next move, so a
    # state kept under that key could later pass for the real move.
    assert selectors.STATES.kept_count(selectors._state_key(game)) != 45
    assert selectors.engine_state(game) == selectors.replay_state(game)
    assert len(selectors.engine_state(game).turns) == 44


def test_preview_page_and_move_make_as_many_queries_at_move_2_as_at_move_44(client, games):
    """Preview, page, play area and a move (answered with the new play area): the same
    query count early and late in a game."""
    counts = []
    for game in games:
        game.refresh_from_db()
        client.force_login(to_move(game))
        url = f"/games/{game.pk}/"
        data = {"placement": placement_json(game), "move_count": game.move_count}
        client.get(url)  # a first request in this process builds the kept state
        preview_queries, response = queries(client, "post", url + "preview/", data)
        assert response.json()["legal"] is True
        page_queries, _ = queries(client, "get", url)
        area_queries, _ = queries(client, "get", url, HTTP_HX_REQUEST="true")
        # The board's move answers with the new play area: one request, no reload after.
        move_queries, response = queries(client, "post", url + "play/", data, HTTP_HX_REQUEST="true")
        assert response["Content-Type"].startswith("text/html")
        assert f'data-move-count="{game.move_count + 1}"' in response.content.decode()
        counts.append((preview_queries, page_queries, area_queries, move_queries))
    print(counts)
    assert counts[0] == counts[1], counts


def test_the_play_area_asks_no_header_badge_counts(client, games):
    """An htmx play area renders no header, so no unread or awaiting count is queried."""
    _, game = games
    client.force_login(to_move(game))
    with CaptureQueriesContext(connection) as captured:
        client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    sql = " ".join(q["sql"] for q in captured.captured_queries)
    assert "accounts_notification" not in sql
    assert "COUNT(" not in sql.upper()


def test_a_refused_move_keeps_the_kept_state(games):
    """A stale move is refused and the next request still sees the stored game."""
    _, game = games
    with pytest.raises(Refused):
        services.game_pass(game_id=game.pk, player=to_move(game), move_count=game.move_count - 1)
    assert selectors.engine_state(game) == selectors.replay_state(game)


def page_parts(client, game):
    """The board's squares and the move list of the page as ``client``'s player sees it."""
    html = client.get(f"/games/{game.pk}/").content.decode()
    board = html[html.index('role="grid"') : html.index("</div>\n      </div>", html.index('role="grid"'))]
    history = html[html.index("<ol data-history>") : html.index("</ol>", html.index("<ol data-history>"))]
    return board, history


def test_a_page_drawn_during_a_rolled_back_move_never_shows_it_later(client, games):
    """A page drawn inside a move's transaction that rolls back leaves its board and move
    list behind in no cache: the next page shows the stored game."""
    _, game = games
    user = to_move(game)
    client.force_login(user)
    board, history = page_parts(client, game)
    placement = best_placement(game).placement
    with pytest.raises(RuntimeError), transaction.atomic():
        services.game_play(game_id=game.pk, player=user, placement=placement, move_count=game.move_count)
        during = page_parts(client, game)
        raise RuntimeError("roll back")
    assert selectors.HISTORY.kept_count(selectors._state_key(game)) != 45
    assert during != (board, history) and during[1].count("<li") == 45
    assert page_parts(client, game) == (board, history)
    assert history.count("<li") == 44
    row, col, letter, _ = placement[0]
    name = crossword.square_name(row, col)
    assert f'data-name="{name}" aria-label="{name} {letter.upper()}">' in during[0]
    assert f'data-name="{name}" aria-label="{name}"><span class="lbl">' in board


def test_the_page_from_kept_states_equals_the_page_from_the_seed(client, games):
    """Board, last play and move list are the same whether the engine state and the move
    list are kept at different lengths, at the same one, or rebuilt from the seed."""
    _, game = games
    client.force_login(to_move(game))
    key = selectors._state_key(game)
    moves = list(game.moves.order_by("number"))
    selectors.STATES.clear()
    selectors.HISTORY.clear()
    fresh = page_parts(client, game)
    view = selectors.game_view(game=game, viewer=to_move(game))
    assert len(view.history) == 44 and view.board == selectors.replay_state(game).board
    last_play = next(m for m in reversed(moves) if m.kind == "place")
    assert view.last_play == {(r, c) for r, c, _, _ in last_play.placement}
    assert sum(sq.last for row in view.rows for sq in row) == len(last_play.placement)
    # The move list kept at move 30, the engine state at move 44: both read in one query.
    selectors.HISTORY.clear()
    selectors.engine_state(game, moves=moves[:30])
    selectors._history(game, lambda number: moves[number:30])
    assert selectors.HISTORY.kept_count(key) == 30
    selectors.engine_state(game)
    assert page_parts(client, game) == fresh
    assert page_parts(client, game) == fresh


def test_a_game_served_before_reads_no_stored_move_and_a_move_writes_one_seat(client, games):
    """Once this process has served a game, preview, page and play area read no stored
    move (the kept state has seen as many as the game's row counts), and a play writes
    only the seat whose score it changed."""
    for game in games:
        game.refresh_from_db()
        client.force_login(to_move(game))
        url = f"/games/{game.pk}/"
        data = {"placement": placement_json(game), "move_count": game.move_count}
        client.get(url)
        for method, path, headers in (
            ("post", url + "preview/", {}),
            ("get", url, {}),
            ("get", url, {"HTTP_HX_REQUEST": "true"}),
        ):
            with CaptureQueriesContext(connection) as captured:
                assert getattr(client, method)(path, data if method == "post" else None, **headers).status_code == 200
            assert not [q for q in captured.captured_queries if 'FROM "crosswords_move"' in q["sql"]], path
        with CaptureQueriesContext(connection) as captured:
            client.post(url + "play/", data, HTTP_HX_REQUEST="true")
        updates = [q["sql"] for q in captured.captured_queries if q["sql"].startswith('UPDATE "crosswords_seat"')]
        assert len(updates) == 1, updates
