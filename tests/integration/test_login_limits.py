"""Log-in lock-outs: one account from one address, and one address across many usernames."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

SPRAYER = "203.0.113.50"


def log_in(client, username: str, password: str, address: str = SPRAYER) -> int:
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address).status_code


def test_wrong_passwords_spread_over_many_accounts_lock_the_address_out(client, make_user, settings):
    """A few guesses at each of many accounts from one address: the address is locked out,
    for every username, the right password too; another address is not."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 20
    accounts = [make_user(f"player{n}").username for n in range(6)]
    make_user("walter")
    answers = [
        log_in(client, username, "wrong-guess") for _ in range(settings.AXES_FAILURE_LIMIT - 1) for username in accounts
    ]
    assert len(answers) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT
    assert answers[: settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1] == [200] * (settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1)
    assert set(answers[settings.LOGIN_ADDRESS_FAILURE_LIMIT :]) == {429}
    assert log_in(client, "walter", "correct-horse-9") == 429
    assert log_in(client, "walter", "correct-horse-9", address="198.51.100.20") == 302


def test_below_the_address_limit_each_account_keeps_its_own_count(client, make_user, settings):
    """Failures on other accounts from the address do not lock out an account that has fewer of its own."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 20
    for n in range(3):
        make_user(f"player{n}")
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            assert log_in(client, f"player{n}", "wrong-guess") == 200
    make_user("ann")
    assert log_in(client, "ann", "correct-horse-9") == 302


def test_logging_in_to_an_account_of_ones_own_keeps_the_failures_on_the_others(client, make_user, settings):
    """A sprayer's success on an account of its own forgets that account's failures only."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    make_user("mine")
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1):
        make_user(f"player{n}")
        assert log_in(client, f"player{n}", "wrong-guess") == 200
    assert log_in(client, "mine", "correct-horse-9") == 302
    client.logout()
    assert log_in(client, "player0", "wrong-guess") == 429


def test_the_lock_out_page_says_why_for_an_address(client, make_user, settings):
    """The page of a locked-out address says that it is locked, not only the account."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    make_user("ann")
    for n in range(3):
        log_in(client, f"nobody{n}", "wrong-guess")
    response = client.post(reverse("login"), {"username": "ann", "password": "x"}, REMOTE_ADDR=SPRAYER)
    assert response.status_code == 429
    assert b"from this connection" in response.content
