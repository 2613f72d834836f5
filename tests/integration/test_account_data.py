"""A player downloads their data and deletes their account; the other players' games and ratings stay."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts import player_data as accounts
from accounts.models import User
from chat.models import Message
from friends import services as friends
from games.crosswords import services as crosswords
from games.crosswords.models import Game
from games.ratings import services as ratings
from games.ratings.models import RatedPlayer, Rating
from games.ratings.services import Finish
from lexicon import services as lexicon
from lexicon.models import DictionaryRequest
from tests.integration.test_lexicon_views import breadcrumbs
from tests.integration.test_ratings_views import ranked_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user, django_capture_on_commit_callbacks):
    """ann and bob: a rated Rampage round, a Word Grid game under way, a chat line, a request, a follow."""
    ann, bob = make_user("ann", email="ann.private@example.org"), make_user("bob")
    for user in (ann, bob):
        user.set_password("pw-for-tests-9")
        user.save()
    with django_capture_on_commit_callbacks(execute=True):
        game_round = ranked_round(ann, bob, ann_words=("cats",), bob_words=("ore",))
        ratings.ratings_apply(pool="rampage")
        game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
        crosswords.game_accept(game_id=game.pk, player=bob)
    Message.objects.create(
        room=f"hunt.{game_round.table_id}", author=ann, text="good game, bob", created_at=timezone.now()
    )
    lexicon.request_change(player=ann, lexicon_code="en-gb", word="zorbing", action="add", reason="my hobby since 2019")
    friends.follow(user=ann, username="bob")
    return ann, bob, game_round, Game.objects.get(pk=game.pk)


def test_the_download_holds_the_players_profile_games_ratings_chat_and_requests(client, played):
    """One JSON file: account, hunt rounds with words, crossword games, ratings history, chat lines, requests, follows."""
    ann, bob, game_round, game = played
    client.force_login(ann)
    response = client.get(reverse("account_data"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="wordfall-ann.json"'
    data = json.loads(response.content)
    assert data["account"]["email"] == "ann.private@example.org"
    assert [r["round"] for r in data["games"]["hunt"]["rounds"]] == [game_round.pk]
    assert data["games"]["hunt"]["rounds"][0]["words"][0]["word"] == "cats"
    assert [g["id"] for g in data["games"]["crossword"]["games"]] == [game.pk]
    assert data["ratings"]["results"][0]["pool"] == "rampage" and data["ratings"]["ratings"][0]["games"] == 1
    assert data["chat"]["lines"][0]["text"] == "good game, bob"
    assert data["dictionary_requests"][0]["word"] == "zorbing"
    assert data["friends"]["following"] == ["bob"]
    assert "bob" not in json.dumps(data["account"])
    client.logout()
    assert client.get(reverse("account_data")).status_code == 302  # signed-in players only


def test_a_wrong_password_deletes_nothing(client, played):
    """The confirmation needs the password: a wrong one is refused with the reason, and the account is as it was."""
    ann, *_ = played
    client.force_login(ann)
    response = client.post(reverse("account_delete"), {"password": "not-it"})
    assert response.status_code == 200 and "nothing was deleted" in response.content.decode()
    ann.refresh_from_db()
    assert ann.username == "ann" and ann.is_active and Message.objects.filter(author=ann).exists()


def test_deleting_keeps_the_others_games_and_ratings_and_removes_what_is_personal(client, played):
    """After deletion: signed out, no name, email, password, chat lines or follows; bob's results and history unchanged."""
    ann, bob, game_round, game = played
    bob_history = list(RatedPlayer.objects.filter(user=bob).values_list("rating_before", "rating_after"))
    bob_rating = Rating.objects.get(user=bob, pool="rampage").rating
    client.force_login(ann)
    response = client.post(reverse("account_delete"), {"password": "pw-for-tests-9"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert "_auth_user_id" not in client.session

    gone = User.objects.get(pk=ann.pk)
    assert gone.username == f"deleted-{ann.pk}" and gone.shown_name == "deleted player"
    assert "ann" not in gone.email and not gone.has_usable_password() and not gone.is_active
    assert not Message.objects.filter(author=gone).exists()
    assert not gone.following.exists() and not Rating.objects.filter(user=gone).exists()
    assert DictionaryRequest.objects.get(word="zorbing").reason == ""

    assert list(RatedPlayer.objects.filter(user=bob).values_list("rating_before", "rating_after")) == bob_history
    assert Rating.objects.get(user=bob, pool="rampage").rating == bob_rating
    assert RatedPlayer.objects.filter(user=gone).count() == 1, "the result stays, for bob's history"
    game.refresh_from_db()
    assert game.status == "finished", "the game under way ended as if ann left; bob does not wait"
    client.force_login(bob)
    results = client.get(reverse("hunts:round", args=[game_round.pk])).content.decode()
    assert "deleted player" in results and ">ann<" not in results
    assert client.get(reverse("profile", args=["ann"])).status_code == 404
    client.logout()
    signing_in = client.post(reverse("login"), {"username": "ann", "password": "pw-for-tests-9"})
    assert signing_in.status_code == 200 and "_auth_user_id" not in client.session


def test_an_admin_downloads_and_deletes_for_a_player(client, played, make_user):
    """The user admin's actions: one player's data as JSON; deleting the selected accounts
    as the player would, once a page has said what goes and the admin has said yes."""
    ann, *_ = played
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    url = reverse("admin:accounts_user_changelist")
    download = client.post(url, {"action": "download_data", "_selected_action": [ann.pk]})
    assert download.status_code == 200 and json.loads(download.content)["account"]["username"] == "ann"
    asked = client.post(url, {"action": "delete_accounts", "_selected_action": [ann.pk]})
    assert asked.status_code == 200 and "This cannot be undone" in asked.content.decode()
    assert f'data-user="{ann.pk}"' in asked.content.decode()
    crumbs = breadcrumbs(asked.content.decode())
    assert f'<a href="{url}">Users</a>' in crumbs and crumbs.endswith("› Delete accounts")
    assert User.objects.get(pk=ann.pk).username == "ann", "nothing is deleted before the admin says yes"
    client.post(url, {"action": "delete_accounts", "_selected_action": [ann.pk], "confirm": "1"})
    assert User.objects.get(pk=ann.pk).username == f"deleted-{ann.pk}"


def test_only_staff_allowed_to_delete_accounts_may_and_never_a_superuser_or_themselves(client, make_user):
    """Staff who may only look at accounts have neither action; a superuser's account and
    the admin's own are not deleted from the list, even when chosen."""
    from django.contrib.auth.models import Permission

    viewer = make_user("viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_user"))
    dee, root = make_user("dee"), make_user("root", is_staff=True, is_superuser=True)
    client.force_login(viewer)
    url = reverse("admin:accounts_user_changelist")
    for action in ("download_data", "delete_accounts"):
        answer = client.post(url, {"action": action, "_selected_action": [dee.pk], "confirm": "1"})
        assert answer.status_code in (200, 302) and answer.get("Content-Type", "").startswith("text/html")
    assert User.objects.get(pk=dee.pk).username == "dee"
    deleter = make_user("deleter", is_staff=True)
    deleter.user_permissions.add(*Permission.objects.filter(codename__in=["view_user", "delete_user"]))
    client.force_login(deleter)
    client.post(url, {"action": "delete_accounts", "_selected_action": [deleter.pk, dee.pk], "confirm": "1"})
    assert set(User.objects.filter(pk__in=[deleter.pk, dee.pk]).values_list("username", flat=True)) == {
        "deleter",
        f"deleted-{dee.pk}",
    }
    client.force_login(root)
    other_root = make_user("other", is_staff=True, is_superuser=True)
    client.post(url, {"action": "delete_accounts", "_selected_action": [root.pk, other_root.pk], "confirm": "1"})
    assert set(User.objects.filter(pk__in=[root.pk, other_root.pk]).values_list("username", flat=True)) == {
        "root",
        "other",
    }


def test_django_s_own_user_deletion_which_removes_the_row_is_not_offered(client, make_user):
    """Removing the row would take the others' games and results with it: neither the
    list's built-in action nor an account's delete page is there, even for a superuser."""
    root, dee = make_user("root", is_staff=True, is_superuser=True), make_user("dee")
    client.force_login(root)
    changelist = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "delete_accounts" in changelist and "delete_selected" not in changelist
    assert client.get(reverse("admin:accounts_user_delete", args=[dee.pk])).status_code == 403
    client.post(reverse("admin:accounts_user_delete", args=[dee.pk]), {"post": "yes"})
    assert User.objects.filter(pk=dee.pk, username="dee").exists()


@pytest.mark.parametrize("username", ["deleted-12", "Deleted-7"])
def test_a_name_kept_for_deleted_accounts_cannot_be_chosen(client, username):
    """``deleted-<n>`` is the name a deleted account takes: a player holding it would block
    that account's deletion and read as deleted."""
    from tests.integration.test_security import sign_up

    response = sign_up(client, username, "someone@example.com")
    assert not User.objects.filter(username__iexact=username).exists()
    assert "kept for deleted accounts" in " ".join(response.context["form"].errors["username"])


def _ratings(pool):
    return {(r.user_id, r.pool): (r.mu, r.sigma, r.rating, r.games, r.wins) for r in Rating.objects.filter(pool=pool)}


def test_a_deleted_players_ratings_stay_gone_after_a_rebuild(make_user, played):
    """ratings_rebuild replays the deleted player's results for the others' sake and stores no rating of theirs."""
    ann, bob, *_ = played
    accounts.account_delete(user=ann)
    before = _ratings("rampage")
    ratings.ratings_rebuild()
    assert not Rating.objects.filter(user=ann).exists()
    assert _ratings("rampage") == before
    assert RatedPlayer.objects.filter(user=ann).exists(), "their results stay, for bob's history"


def test_a_result_applied_after_its_players_deletion_rates_the_others_as_a_rebuild_does(make_user, played):
    """A game ann finished before deleting her account is applied later: bob's rating is the
    replay's, and no rating row of ann's comes back."""
    ann, bob, *_ = played
    cy = make_user("cy")
    with transaction.atomic():
        for object_id, finishes in (
            (900_001, [Finish(ann.pk, 1), Finish(bob.pk, 2)]),
            (900_002, [Finish(cy.pk, 1), Finish(ann.pk, 2)]),
        ):
            ratings.result_record(pool="rampage", kind="hunt", object_id=object_id, finishes=finishes)
    accounts.account_delete(user=ann)
    assert ratings.ratings_apply(pool="rampage") == 2
    assert not Rating.objects.filter(user=ann).exists()
    applied = _ratings("rampage")
    ratings.ratings_rebuild()
    assert _ratings("rampage") == applied
    assert set(applied) == {(bob.pk, "rampage"), (cy.pk, "rampage")}
