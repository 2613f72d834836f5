"""A daily challenge's table takes no joiners."""

from __future__ import annotations

import pytest

from config.errors import Refused
from games.hunts import services
from games.hunts.models import HuntSeat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("finished", [False, True], ids=["playing", "finished"])
def test_a_daily_table_refuses_joiners(make_user, finished):
    """Nobody takes a seat at someone's daily challenge table, during the round or after it."""
    from tests.integration.test_daily import play

    ann, bob = make_user("ann"), make_user("bob")
    if finished:
        table = play(ann, "rampage").table
    else:
        table = services.daily_play(user=ann, pool="rampage")
    with pytest.raises(Refused, match="daily challenge"):
        services.table_join(table_id=table.pk, user=bob)
    assert not HuntSeat.objects.filter(table=table, user=bob).exists()
