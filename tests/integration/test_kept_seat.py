"""A hunt challenge keeps its table's seat for the challenged player: anyone else is
refused with a reason, until the challenged player declines or the invitation lapses."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.errors import Refused
from friends import services as friends
from games.hunts import services as hunts
from games.hunts.models import HuntSeat, HuntTable

pytestmark = pytest.mark.django_db


def seated(table) -> set[str]:
    return set(HuntSeat.objects.filter(table=table, left_at__isnull=True).values_list("user__username", flat=True))


def test_the_kept_seat_takes_only_the_challenged_player(make_user):
    """A stranger is refused the kept seat with a reason; the challenged player takes it."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    invitation = friends.challenge(by=ann, username="bob", game="rampage").invitation
    table = invitation.table
    with pytest.raises(Refused, match="kept for the challenged player") as refused:
        hunts.table_join(table_id=table.pk, user=cat)
    assert refused.value.status == 403
    assert seated(table) == {"ann"}
    with pytest.raises(Refused, match="kept for the challenged player"):
        hunts.table_add_bot(table_id=table.pk, by=ann, strength="easy")
    friends.hunt_invitation_accept(invitation_id=invitation.pk, user=bob)
    assert seated(table) == {"ann", "bob"}
    table.refresh_from_db()
    assert table.kept_for is None and not table.seat_kept()


def test_other_free_seats_stay_open_beside_the_kept_one(make_user):
    """At a three-seat table one stranger may sit; the last seat stays kept."""
    ann, bob, cat, dan = (make_user(n) for n in ("ann", "bob", "cat", "dan"))
    table = hunts.table_create(host=ann, seat_count=3, kept_for=bob, kept_until=timezone.now() + timedelta(minutes=30))
    hunts.table_join(table_id=table.pk, user=cat)
    with pytest.raises(Refused, match="kept"):
        hunts.table_join(table_id=table.pk, user=dan)
    hunts.table_join(table_id=table.pk, user=bob)
    assert seated(table) == {"ann", "bob", "cat"}


def test_a_declined_or_lapsed_challenge_frees_the_seat(make_user):
    """Once the challenged player declines, or the kept time passes, anyone may sit down."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    invitation = friends.challenge(by=ann, username="bob", game="rampage").invitation
    friends.hunt_invitation_decline(invitation_id=invitation.pk, user=bob)
    hunts.table_join(table_id=invitation.table_id, user=cat)
    assert seated(invitation.table) == {"ann", "cat"}

    make_user("dan")
    later = friends.challenge(by=ann, username="dan", game="classic").invitation
    HuntTable.objects.filter(pk=later.table_id).update(kept_until=timezone.now() - timedelta(seconds=1))
    hunts.table_join(table_id=later.table_id, user=cat)
    assert seated(later.table) == {"ann", "cat"}


def test_a_table_cannot_keep_a_seat_for_its_host(make_user):
    ann = make_user("ann")
    with pytest.raises(Refused, match="yourself"):
        hunts.table_create(host=ann, kept_for=ann, kept_until=timezone.now() + timedelta(minutes=5))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("strangers", [1, 3])
def test_racing_joins_never_take_the_kept_seat(make_user, strangers):
    """Strangers and the challenged player joining at the same instant: the challenged
    player always gets the kept seat and every stranger is refused."""
    ann, bob = make_user("ann"), make_user("bob")
    others = [make_user(f"cat{n}") for n in range(strangers)]
    invitation = friends.challenge(by=ann, username="bob", game="rampage").invitation
    barrier = threading.Barrier(strangers + 1)
    outcomes = {}

    def join(user):
        try:
            barrier.wait()
            hunts.table_join(table_id=invitation.table_id, user=user)
            outcomes[user.username] = "seated"
        except Refused as refused:
            outcomes[user.username] = refused.reason
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(user,)) for user in [bob, *others]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes["bob"] == "seated"
    assert all(outcomes[o.username] != "seated" for o in others)
    assert seated(invitation.table) == {"ann", "bob"}
