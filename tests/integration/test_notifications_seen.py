"""A page in front of its player reads the notifications about it."""

from __future__ import annotations

import pytest

from accounts import services
from accounts.models import Notification

pytestmark = pytest.mark.django_db


def unread(user) -> list[str]:
    return sorted(Notification.objects.filter(user=user, read_at=None).values_list("url", flat=True))


def test_the_page_shown_reads_its_own_notifications_only(client, make_user):
    """Seeing /games/4/ reads Ann's notifications about it, not those about other pages nor
    Bob's about the same game."""
    ann, bob = make_user("ann"), make_user("bob")
    for url in ("/games/4/", "/games/4/", "/games/5/"):
        services.notify(user=ann, kind="crossword.turn", text="Your turn.", url=url)
    services.notify(user=bob, kind="crossword.turn", text="Your turn.", url="/games/4/")
    client.force_login(ann)
    response = client.post("/notifications/seen/", {"url": "/games/4/"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert unread(ann) == ["/games/5/"]
    assert unread(bob) == ["/games/4/"]


def test_a_page_with_unread_notifications_about_it_says_so_to_its_script(client, make_user):
    ann = make_user("ann")
    client.force_login(ann)
    assert b"data-unread-here" not in client.get("/games/").content
    services.notify(user=ann, kind="crossword.invitation", text="Bob invites you.", url="/games/")
    assert b"data-unread-here" in client.get("/games/").content
    assert b"data-unread-here" not in client.get("/friends/").content


@pytest.mark.parametrize("url", ["", "https://example.org/games/4/", "//example.org/games/4/", "games/4/"])
def test_a_page_not_of_this_site_is_refused_and_nothing_is_read(client, make_user, url):
    ann = make_user("ann")
    services.notify(user=ann, kind="crossword.turn", text="Your turn.", url="/games/4/")
    client.force_login(ann)
    response = client.post("/notifications/seen/", {"url": url}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json() == {"ok": False, "reason": "A page of this site is needed."}
    assert unread(ann) == ["/games/4/"]


def test_seeing_needs_a_signed_in_player(client):
    response = client.post("/notifications/seen/", {"url": "/games/4/"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
