"""How to play pages: one per game, examples scored by the engine, linked from the home page."""

import pytest

from games.engine import crossword, hunt

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["rampage", "classic", "wordgrid", "wordgame", "tow"])
def test_each_game_has_a_how_to_play_page_linked_from_home(client, game):
    """The page answers, names the game and is linked from the home page."""
    response = client.get(f"/how-to-play/{game}/")
    assert response.status_code == 200
    assert "How to play" in response.content.decode()
    assert f'href="/how-to-play/{game}/"' in client.get("/").content.decode()


def test_the_examples_are_scored_by_the_engine(client):
    """The Word Grid example's score and the Rampage word's points are the engine's."""
    html = client.get("/how-to-play/wordgrid/").content.decode()
    from lexicon.services import get_lexicon

    variant = crossword.VARIANTS["wordgrid"]
    play = crossword.evaluate(
        crossword.Board.empty(),
        [(7, 6 + i, ch, False) for i, ch in enumerate("word")],
        variant,
        get_lexicon(variant.default_lexicon),
    )
    assert f"{play.score} points" in html and f"adds {variant.all_tiles_bonus} points" in html
    assert html.count('class="howto-t"') == 4  # W O R D on the board
    from games.hunts.howto import _BONUSES, _GRID

    board = hunt.Board(_GRID, bonuses=_BONUSES)
    rampage = client.get("/how-to-play/rampage/").content.decode()
    assert f"here it scores {hunt.score_rampage(board, hunt.find_path(board, 'rose'))}." in rampage
    assert client.get("/how-to-play/chess/").status_code == 404
