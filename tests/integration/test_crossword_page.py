"""The game page's board and move list, written by template tags (not template loops)."""

from __future__ import annotations

import pytest

from games.crosswords import selectors, services
from games.crosswords.models import Game
from games.engine import crossword, movegen

pytestmark = pytest.mark.django_db
DAY = 86400


@pytest.fixture
def game(make_user):
    ann = make_user("ann", display_name='<img src=x onerror="alert(1)">')
    bob = make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed="queries-short")
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    state = selectors.engine_state(game)
    play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    player = game.seats.get(index=state.to_move).user
    services.game_play(game_id=game.pk, player=player, placement=play.placement, move_count=0)
    game.refresh_from_db()
    return game, play


def test_a_players_name_in_the_move_list_is_escaped(client, game):
    """A display name with markup shows as text in the move list, never as markup."""
    game, _ = game
    client.force_login(game.seats.get(index=1).user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    moves = html[html.index("<ol data-history>") : html.index("</ol>", html.index("<ol data-history>"))]
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in moves or "&lt;img" in moves


def test_the_board_shows_each_tile_of_the_play_on_its_square(client, game):
    """Each tile of the play is drawn on its square with its letter and value, marked as the
    latest play; every other square shows its premium label."""
    game, play = game
    client.force_login(game.seats.get(index=1).user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    values = crossword.variant_named(game.variant).letter_values
    for row, col, letter, blank in play.placement:
        name = crossword.square_name(row, col)
        value = "" if blank else values[letter]
        assert f'data-name="{name}" aria-label="{name} {letter.upper()}">' in html
        assert f'data-letter="{letter}">{letter.upper()}<sub>{value}</sub>' in html
    assert html.count('role="gridcell"') == crossword.SIZE * crossword.SIZE
    assert html.count(' last" role="gridcell"') == len(play.placement)
    assert html.count('<span class="t') == len(play.placement)
