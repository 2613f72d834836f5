"""Hunt tables that say what they are: a ranked table seats people only, and a
challenge's table waits as long as its invitation does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import Refused
from friends import services as friends
from games.hunts import selectors
from games.hunts import services as hunts
from games.hunts.models import HuntSeat, HuntTable, TableStatus

pytestmark = pytest.mark.django_db


def test_a_ranked_table_with_a_bot_seat_is_refused_at_creation(make_user):
    """Bots never change ratings: a ranked table asked for with a bot is not opened."""
    ann = make_user("ann")
    with pytest.raises(Refused, match="A ranked table is for people only"):
        hunts.table_create(host=ann, ranked=True, bots=("easy",))
    assert not HuntTable.objects.exists()


def test_a_bot_cannot_join_a_ranked_table_later(make_user):
    """The host of a ranked table is refused a bot between rounds too."""
    ann = make_user("ann")
    table = hunts.table_create(host=ann, ranked=True, seat_count=3)
    with pytest.raises(Refused, match="A ranked table is for people only"):
        hunts.table_add_bot(table_id=table.pk, by=ann, strength="easy")
    assert not HuntSeat.objects.filter(table=table).exclude(bot_strength="").exists()


def test_a_challenge_table_stays_open_while_its_invitation_waits(make_user):
    """Nobody looks at the table for 20 minutes: the idle sweep leaves it open while the
    30-minute invitation waits, and the challenged player can still take the seat."""
    ann, bob = make_user("ann"), make_user("bob")
    invitation = friends.challenge(by=ann, username="bob", game="rampage").invitation
    later = timezone.now() + timedelta(minutes=20)
    assert hunts.tables_sweep(now=later) == []
    assert HuntTable.objects.get(pk=invitation.table_id).status == TableStatus.OPEN
    table = friends.hunt_invitation_accept(invitation_id=invitation.pk, user=bob)
    assert set(table.seats.filter(left_at__isnull=True).values_list("user__username", flat=True)) == {"ann", "bob"}


def test_a_challenge_table_left_idle_closes_once_its_invitation_has_lapsed(make_user):
    """When the invitation expires unanswered the table is an idle table like any other."""
    ann = make_user("ann")
    make_user("bob")
    invitation = friends.challenge(by=ann, username="bob", game="rampage").invitation
    after = invitation.expires_at + timedelta(seconds=1)
    friends.invitations_sweep(now=after)
    assert hunts.tables_sweep(now=after) == [invitation.table_id]


def test_one_host_opens_at_most_three_tables(client, make_user):
    """The lobby flood: 55 tables asked for, three opened; the rest refused with the reason,
    and the lobby still shows everyone else's table."""
    mallory, ann = make_user("mallory"), make_user("ann")
    hunts.table_create(host=ann)
    client.force_login(mallory)
    form = {"game": "rampage", "size": 4, "lexicon_code": "en", "round_seconds": 120, "seat_count": 2, "ranked": "0"}
    answers = [client.post("/hunts/new/", form) for _ in range(55)]
    assert HuntTable.objects.filter(host=mallory).count() == hunts.tables.OPEN_TABLES_PER_HOST == 3
    assert [answer.status_code for answer in answers].count(302) == 3
    assert "You host 3 open tables already" in answers[-1].content.decode()
    assert ann.hosted_hunt_tables.get() in selectors.open_tables()
    with pytest.raises(Refused, match="You host 3 open tables already") as refused:
        friends.challenge(by=mallory, username="ann", game="rampage")
    assert refused.value.status == 429


def test_a_closed_table_frees_its_place(make_user):
    """Leaving a table (which closes it) lets its host open another."""
    ann = make_user("ann")
    tables = [hunts.table_create(host=ann) for _ in range(3)]
    hunts.table_leave(table_id=tables[0].pk, user=ann)
    hunts.table_create(host=ann)
    assert HuntTable.objects.filter(host=ann).exclude(status=TableStatus.CLOSED).count() == 3
