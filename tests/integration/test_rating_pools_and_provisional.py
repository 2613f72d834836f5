"""Rating pools and the provisional badge: hunt pools carry their rounds' rules; the badge names the scale's number."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from games.hunts.pools import RULES, hunt_pool
from games.ratings import scale
from games.ratings.pools import pool_codes, pool_info

pytestmark = pytest.mark.django_db


def test_hunt_pools_carry_the_rules_of_their_rounds():
    """Each hunt pool names its rounds' rules, and those rules lead back to the pool."""
    hunts = [code for code in pool_codes() if pool_info(code).family == "hunt"]
    assert hunts == list(RULES)
    for code in hunts:
        rules = RULES[code]
        assert hunt_pool(rules.game, rules.size) == code


@pytest.mark.parametrize("settled", [scale.PROVISIONAL_GAMES, 7])
def test_provisional_badge_and_profile_name_the_scales_number(make_user, monkeypatch, settled):
    """ "Provisional: fewer than N rated games" shows scale.PROVISIONAL_GAMES, not a copy of it."""
    from games.ratings.models import Rating

    monkeypatch.setattr(scale, "PROVISIONAL_GAMES", settled)
    ann = make_user("ann")
    Rating.objects.create(user=ann, pool="rampage", games=1)
    badge = Template("{% load ratings %}{% pool_rating user 'rampage' %}").render(Context({"user": ann}))
    profile = Template("{% load ratings %}{% profile_statistics player %}").render(
        Context({"user": ann, "player": ann})
    )
    for html in (badge, profile):
        assert f"Provisional: fewer than {settled} rated games" in html
