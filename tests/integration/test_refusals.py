"""One refusal type, answered the same way by every view and socket."""

from __future__ import annotations

import json

import pytest

from games.hunts import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_table(make_user):
    table = services.table_create(host=make_user("ann"), game="rampage", seat_count=2, bots=("easy",))
    return table


def test_a_person_is_sent_back_with_the_reason(client, make_user, full_table):
    """A refused form post returns to the page it came from and shows the reason there."""
    client.force_login(make_user("bob"))
    page = f"http://testserver/hunts/{full_table.pk}/"
    response = client.post(f"/hunts/{full_table.pk}/join/", HTTP_REFERER=page)
    assert (response.status_code, response.url) == (302, page)
    assert "The table is full." in client.get(response.url).content.decode()


def test_with_no_page_to_go_back_to_the_reason_is_shown_with_its_status(client, make_user, full_table):
    """No (or a foreign) Referer: the reason on a page of its own, with the refusal's status."""
    client.force_login(make_user("bob"))
    response = client.post(f"/hunts/{full_table.pk}/join/", HTTP_REFERER="https://evil.example/")
    assert response.status_code == 400
    assert "The table is full." in response.content.decode()


def test_a_script_gets_the_reason_as_json(client, make_user, full_table):
    """A fetch asking for JSON gets ``ok: false`` and the reason."""
    client.force_login(make_user("bob"))
    response = client.post(f"/hunts/{full_table.pk}/join/", HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert json.loads(response.content) == {"ok": False, "reason": "The table is full."}


def test_every_app_refuses_with_the_one_type():
    """Hunts, crosswords, TOW, lexicon, accounts and the sockets share config.errors.Refused."""
    from accounts import services as account_services
    from config.errors import Refused
    from games.crosswords import services as crossword_services
    from lexicon import services as lexicon_services

    assert services.Refused is crossword_services.Refused is Refused
    assert lexicon_services.Refused is account_services.Refused is Refused


def test_an_htmx_request_reloads_its_page_with_the_reason(client, make_user, full_table):
    """htmx is told to reload (no page swapped into a fragment); the reason waits as a message."""
    client.force_login(make_user("bob"))
    response = client.post(f"/hunts/{full_table.pk}/join/", HTTP_HX_REQUEST="true")
    assert (response.status_code, response.headers["HX-Refresh"]) == (204, "true")
    assert "The table is full." in client.get(f"/hunts/{full_table.pk}/").content.decode()
