"""The bell: it counts one fewer as each notification is opened, and "Mark all read" clears it, on every open page."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from accounts import services
from accounts.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


async def receive_until(communicator, kind, timeout=5):
    while True:
        message = json.loads(await communicator.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message


@pytest.mark.asyncio
async def test_reading_sets_every_open_pages_bell(ws_connect, make_user):
    """Opening one of two notifications sends 1 to the user's pages; Mark all read sends 0."""
    ann = await sync_to_async(make_user)("ann")
    first = await sync_to_async(services.notify)(user=ann, kind="turn", text="Your move", url="/games/1/")
    await sync_to_async(services.notify)(user=ann, kind="turn", text="Your move again", url="/games/2/")
    ws = await ws_connect("/ws/presence/", ann)
    assert (await receive_until(ws, "notification.count"))["count"] == 2
    await sync_to_async(services.notification_open)(user=ann, notification_id=first.pk)
    assert (await receive_until(ws, "notification.count"))["count"] == 1
    assert await sync_to_async(services.notifications_mark_read)(user=ann) == 1
    assert (await receive_until(ws, "notification.count"))["count"] == 0


def test_a_notification_opens_only_for_its_owner_and_mark_all_read_clears_the_list(client, make_user):
    """Someone else's notification is a 404 and stays unread; the list's button marks all read."""
    ann, bob = make_user("ann"), make_user("bob")
    theirs = services.notify(user=bob, kind="turn", text="Bob's move", url="/games/3/")
    services.notify(user=ann, kind="turn", text="Ann's move", url="/games/4/")
    client.force_login(ann)
    assert client.get(reverse("notification_open", args=[theirs.pk])).status_code == 404
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    page = client.get(reverse("notifications")).content.decode()
    assert "Mark all read" in page and "Unread: </span>Ann&#x27;s move" in page
    assert client.post(reverse("notifications_read")).status_code == 302
    assert not Notification.objects.filter(user=ann, read_at__isnull=True).exists()
    assert "Mark all read" in client.get(reverse("notifications")).content.decode()
    assert "Unread:" not in client.get(reverse("notifications")).content.decode()
