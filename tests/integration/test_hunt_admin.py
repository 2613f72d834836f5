"""The admin shows hunt rounds and finds but cannot change them: web processes judge
submissions on facts they keep per round, so rounds change only through the services."""

from __future__ import annotations

import pytest

from games.hunts import services
from games.hunts.models import HuntRound

pytestmark = pytest.mark.django_db


def test_a_round_is_shown_in_the_admin_and_cannot_be_changed(admin_client, make_user):
    ann = make_user("ann")
    table = services.table_create(host=ann, game="rampage", seat_count=2, bots=("easy",))
    game_round = services.round_start(table_id=table.pk, by=ann)
    url = f"/admin/hunts/huntround/{game_round.pk}/change/"

    page = admin_client.get(url)
    assert page.status_code == 200
    assert b'name="min_length"' not in page.content, "the round's facts are not form fields"

    before = HuntRound.objects.values().get(pk=game_round.pk)
    answer = admin_client.post(url, {"min_length": 9, "board": "zzzz" * 4, "status": before["status"]})
    assert answer.status_code == 403
    assert HuntRound.objects.values().get(pk=game_round.pk) == before
    assert admin_client.get("/admin/hunts/huntround/add/").status_code == 403
    assert admin_client.get(f"/admin/hunts/huntround/{game_round.pk}/delete/").status_code == 403
    assert admin_client.get("/admin/hunts/foundword/add/").status_code == 403
