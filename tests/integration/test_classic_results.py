"""Classic hunt results: words counted the same on every page, one comparison named once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.engine import hunt
from games.hunts import services as hunt_services
from games.hunts.models import HuntRound

pytestmark = pytest.mark.django_db


CLASSIC_BOARD = hunt.Board([["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["qu", "e", "e", "n"]])


def test_classic_results_count_words_the_same_everywhere_and_name_one_comparison_once(client, make_user):
    """The breakdown's word count is the standings' (crossed-off words told apart); the points column is "By points"."""
    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="classic", size=4, seat_count=2)
    hunt_services.table_join(table_id=table.pk, user=bob)
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(board=CLASSIC_BOARD.to_text())
    game_round.refresh_from_db()
    now = game_round.starts_at + timedelta(seconds=1)
    for user, words in ((ann, ["cat", "queen", "rate"]), (bob, ["cat", "rate", "ding"])):
        for word in words:
            assert (
                hunt_services.round_submit(round_id=game_round.pk, user=user, word=word, now=now).outcome == "accepted"
            )
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline)
    client.force_login(ann)
    html = client.get(game_round.get_absolute_url()).content.decode()
    assert "ann — 2 points, 1 word (and 2 crossed off)" in html
    assert "bob — 1 point, 1 word (and 2 crossed off)" in html
    assert "By length" not in html and html.count("By points") == 2
