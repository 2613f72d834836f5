"""A daily challenge's words stay secret from a viewer who has not played that board,
until its day is over, wherever a found word shows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.hunts import secrecy
from games.hunts.models import DailyChallenge
from games.hunts.services import daily
from games.ratings import stats
from tests.integration.test_daily import play, words_of

pytestmark = pytest.mark.django_db


def test_a_profile_hides_todays_daily_words_from_a_viewer_who_has_not_played(client, make_user):
    """Ann's best daily word is not on her profile for Bob, nor for a visitor, until Bob
    has played that board himself."""
    ann, bob = make_user("ann"), make_user("bob")
    challenge = daily.daily_challenge(day=daily.today(), pool="rampage")
    (secret,) = words_of(challenge, 1)
    play(ann, "rampage", [secret])
    profile = reverse("profile", args=["ann"])
    assert secret.upper() not in client.get(profile).content.decode()
    client.force_login(bob)
    assert secret.upper() not in client.get(profile).content.decode()
    assert stats.best_plays(ann, viewer=bob).best_hunt_word is None
    client.force_login(ann)
    assert secret.upper() in client.get(profile).content.decode()  # her own round: she played it
    play(bob, "rampage", now=timezone.now() + timedelta(minutes=5))
    client.force_login(bob)
    assert secret.upper() in client.get(profile).content.decode()
    assert stats.best_plays(ann, viewer=bob).best_hunt_word.word == secret


def test_a_daily_word_shows_to_everyone_once_its_day_is_over(client, make_user):
    """The day after, the board and its words are no secret any more."""
    ann = make_user("ann")
    challenge = daily.daily_challenge(day=daily.today(), pool="classic5")
    (secret,) = words_of(challenge, 1)
    play(ann, "classic5", [secret])
    assert stats.best_plays(ann).longest_hunt_word is None
    DailyChallenge.objects.filter(pk=challenge.pk).update(day=challenge.day - timedelta(days=1))
    assert stats.best_plays(ann).longest_hunt_word.word == secret
    assert secret.upper() in client.get(reverse("profile", args=["ann"])).content.decode()


def test_a_player_who_has_only_started_the_board_has_not_played_it(make_user):
    """A round still running is not a played board: the others' words stay hidden."""
    ann, bob = make_user("ann"), make_user("bob")
    challenge = daily.daily_challenge(day=daily.today(), pool="rampage")
    (secret,) = words_of(challenge, 1)
    play(ann, "rampage", [secret])
    daily.daily_play(user=bob, pool="rampage")
    assert challenge in secrecy.secret_challenges(bob)
    assert not secrecy.board_visible(challenge, bob)
    assert stats.best_plays(ann, viewer=bob).best_hunt_word is None


def test_a_kept_profile_keeps_todays_daily_words_from_a_viewer_who_has_not_played(
    client, make_user, django_capture_on_commit_callbacks
):
    """What the profile keeps of Ann's best plays is what a stranger may see: her own view
    (her words shown) leaves nothing for a visitor or Bob to read, and once Bob has played
    the board he sees her word on the kept profile too."""
    ann, bob = make_user("ann"), make_user("bob")
    challenge = daily.daily_challenge(day=daily.today(), pool="rampage")
    (secret,) = words_of(challenge, 1)
    with django_capture_on_commit_callbacks(execute=True):
        play(ann, "rampage", [secret])
    profile = reverse("profile", args=["ann"])
    client.force_login(ann)
    assert secret.upper() in client.get(profile).content.decode()
    client.logout()
    assert secret.upper() not in client.get(profile).content.decode()
    client.force_login(bob)
    assert secret.upper() not in client.get(profile).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        play(bob, "rampage", now=timezone.now() + timedelta(minutes=5))
    assert secret.upper() in client.get(profile).content.decode()
    client.logout()
    assert secret.upper() not in client.get(profile).content.decode()
