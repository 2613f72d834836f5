"""Names that cannot pass for someone else: a display name follows the username rules,
holds nothing that is not drawn as itself, and cannot look like another player's name;
what the site says on a player's behalf names them by username too."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.forms import SettingsForm, SignUpForm
from accounts.models import NameClaim, NameTaken, User
from accounts.validators import name_keys
from config.errors import Refused
from tests.concurrency import run_threads, wait_for_a_blocked_session

pytestmark = pytest.mark.django_db


def settings_answer(client, user, display_name: str):
    client.force_login(user)
    return client.post("/settings/", {"display_name": display_name, "email": user.email, "preferred_lexicon": "en"})


@pytest.mark.parametrize(
    "name",
    [
        "alice",  # another player's username
        "ALICE",  # in capitals
        "aIice",  # a capital I for the l
        "a1ice",  # a one for the l
        "\u0430lice",  # a Cyrillic а
        "\uff41lice",  # a full-width a
    ],
)
def test_a_display_name_cannot_pass_for_another_players_username(client, make_user, name):
    """The settings page refuses it with the reason and keeps the old name."""
    make_user("alice")
    mallory = make_user("mallory", display_name="Mal")
    answer = settings_answer(client, mallory, name)
    assert answer.status_code == 200
    assert "looks like another player" in answer.content.decode() or "Latin" in answer.content.decode()
    mallory.refresh_from_db()
    assert mallory.display_name == "Mal"


def test_a_display_name_cannot_pass_for_another_players_display_name(make_user):
    """Bob shows as "Ann Lee": nobody else may show as "ANN LEE" or "Ann Lee" again."""
    make_user("bob", display_name="Ann Lee")
    mallory = make_user("mallory")
    for name in ("Ann Lee", "ANN LEE", "Ann Lee".replace("l", "I")):
        form = SettingsForm({"display_name": name, "email": mallory.email, "preferred_lexicon": "en"}, instance=mallory)
        assert not form.is_valid()
        assert "looks like another player" in str(form.errors["display_name"])


@pytest.mark.parametrize(
    "name, reason",
    [
        ("ann\u202eeil", "direction"),  # a right-to-left override
        ("an\u200bn", "invisible"),  # a zero-width space
        ("ann\nlee", "line-break"),
        ("ann\u2028lee", "line-break"),
        ("ann\u00a0lee", "single spaces"),  # a no-break space
        ("ann  lee", "single spaces"),
        ("\u0455\u0441\u043e\u0440\u0435", "Latin"),  # ѕсоре: all Cyrillic, reads as "scope"
        ("al\u0456ce", "mixes scripts"),
    ],
)
def test_a_display_name_holds_only_what_is_drawn_as_itself(make_user, name, reason):
    """Controls, direction and invisible characters, line breaks, odd spaces and
    look-alike letters are refused with a reason."""
    mallory = make_user("mallory")
    form = SettingsForm({"display_name": name, "email": mallory.email, "preferred_lexicon": "en"}, instance=mallory)
    assert not form.is_valid()
    assert reason in str(form.errors["display_name"])


def test_ones_own_username_and_honest_names_are_fine(make_user):
    """A display name may look like one's own username; names in other scripts pass."""
    alice = make_user("alice")
    for name in ("Alice", "ALICE", "Jürgen Groß", "山田 太郎", "Zoë"):
        form = SettingsForm({"display_name": name, "email": alice.email, "preferred_lexicon": "en"}, instance=alice)
        assert form.is_valid(), (name, form.errors)


def test_a_new_username_cannot_pass_for_a_display_name(make_user):
    """Sign-up refuses a username that looks like someone's display name."""
    make_user("bob", display_name="Walter")
    form = SignUpForm(
        {"username": "walter", "email": "w@example.com", "password1": "correct-horse-9", "password2": "correct-horse-9"}
    )
    assert not form.is_valid()
    assert "looks like another player" in str(form.errors["username"])


def test_a_name_given_up_is_free_for_others(make_user):
    """save() claims what each name looks like and gives the old name's claims back."""
    bob = make_user("bob", display_name="Ann Lee")
    assert set(NameClaim.objects.filter(user=bob).values_list("key", flat=True)) == {
        *name_keys("bob"),
        *name_keys("Ann Lee"),
    }
    bob.display_name = ""
    bob.save(update_fields=["display_name"])
    ann = make_user("ann", display_name="ANN LEE")
    assert NameClaim.objects.filter(user=ann, key__in=name_keys("Ann Lee")).count() == 2


def test_a_name_held_before_names_were_claimed_stays_with_its_player(make_user):
    """A display name that already passed for another player's (stored before the rule)
    stays, and its player can still save their settings; changing it to another name
    that passes for the other player's is refused."""
    make_user("alice")
    mallory = make_user("mallory", display_name="Mal")
    User.objects.filter(pk=mallory.pk).update(display_name="ALICE")  # as stored long ago
    NameClaim.objects.filter(user=mallory).exclude(key__in=name_keys("mallory")).delete()
    mallory.refresh_from_db()
    mallory.preferred_lexicon = "en-gb"
    mallory.save()
    mallory.display_name = "AIice"
    with pytest.raises(NameTaken):
        mallory.save()
    assert User.objects.get(pk=mallory.pk).display_name == "ALICE"


def test_the_admin_refuses_a_look_alike_display_name(make_user):
    """The model itself refuses it, so the admin does too."""
    make_user("alice")
    mallory = make_user("mallory")
    mallory.display_name = "ALICE"
    with pytest.raises(ValidationError):
        mallory.full_clean()


def test_notifications_name_the_sender_by_username(make_user):
    """A display name never speaks alone: "The Admins (mallory)"; bots keep their names."""
    mallory = make_user("mallory", display_name="The Admins")
    assert mallory.name_and_username == "The Admins (mallory)"
    assert make_user("ann").name_and_username == "ann"
    assert make_user("easy-bot-9", display_name="Easy bot 9", is_bot=True).name_and_username == "Easy bot 9"


@pytest.mark.django_db(transaction=True)
def test_two_players_taking_look_alike_names_at_once_cannot_both_have_them(client, make_user):
    """Bob's settings save "Ann Lee" and, while his transaction is still open, mallory's
    settings page asks for "ANN LEE": hers waits for his, then is refused with the reason."""
    bob, mallory = make_user("bob"), make_user("mallory")
    bob_saved, blocked, answers = threading.Event(), [], {}

    def bob_saves():
        with transaction.atomic():
            form = SettingsForm(
                {"display_name": "Ann Lee", "email": bob.email, "preferred_lexicon": "en"}, instance=bob
            )
            assert form.is_valid(), form.errors
            form.save()
            bob_saved.set()
            blocked.append(wait_for_a_blocked_session())

    def mallory_saves():
        assert bob_saved.wait(10)
        answers["mallory"] = settings_answer(client, mallory, "ANN LEE")

    run_threads(bob_saves, mallory_saves)
    assert blocked == [True]
    assert answers["mallory"].status_code == 200
    assert "looks like another player" in answers["mallory"].content.decode()
    assert (User.objects.get(pk=bob.pk).display_name, User.objects.get(pk=mallory.pk).display_name) == ("Ann Lee", "")


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_of_look_alike_usernames_at_once_make_one_account(make_user):
    """ "walter" and "WaIter" (a capital I) signing up together: one account, one refusal."""
    first_saved, blocked, outcomes = threading.Event(), [], {}

    def first():
        with transaction.atomic():
            accounts.sign_up(username="walter", email="w1@example.com", password="correct-horse-9")
            first_saved.set()
            blocked.append(wait_for_a_blocked_session())
        outcomes["walter"] = "signed up"

    def second():
        assert first_saved.wait(10)
        try:
            accounts.sign_up(username="WaIter", email="w2@example.com", password="correct-horse-9")
            outcomes["WaIter"] = "signed up"
        except Refused as refused:
            outcomes["WaIter"] = refused.reason

    run_threads(first, second)
    assert blocked == [True]
    assert outcomes == {"walter": "signed up", "WaIter": "That username was taken a moment ago; choose another."}
    assert list(User.objects.values_list("username", flat=True)) == ["walter"]


def test_a_player_named_like_a_bot_does_not_keep_the_bot_away(make_user):
    """Someone who shows as "TOW bot" before the TOW bot exists: the bot is still made."""
    from games.tow.services.bots import bot_user

    make_user("mallory", display_name="TOW bot")
    assert bot_user(1).display_name == "TOW bot"


def test_wherever_a_display_name_shows_the_username_is_beside_it(client, make_user):
    """Hunt seats and host (the state the page draws), the lobby, crossword and TOW seats:
    "The Admins (mallory)", never "The Admins" alone."""
    from games.crosswords import selectors as crossword_selectors
    from games.crosswords import services as crosswords
    from games.hunts import selectors as hunt_selectors
    from games.hunts import services as hunts
    from games.tow import selectors as tow_selectors
    from games.tow import services as tow

    mallory, bob = make_user("mallory", display_name="The Admins"), make_user("bob")
    shown = "The Admins (mallory)"
    table = hunts.table_create(host=mallory)
    state = hunt_selectors.table_state(table.pk, bob)
    assert state["table"]["host"] == shown and state["seats"][0]["name"] == shown
    client.force_login(bob)
    assert shown in client.get("/hunts/").content.decode()
    game = crosswords.game_create(creator=mallory, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    assert crossword_selectors.game_view(game=game, viewer=bob).seats[0].name == shown
    tow_game = tow.game_create(creator=mallory, seconds_per_move=86400, open_seats=1)
    assert tow_selectors.game_view(game=tow_game, viewer=bob)["seats"][0]["name"] == shown


def test_a_chat_line_carries_its_authors_username_for_the_profile_link(make_user):
    """Chat shows the display name as a link to the author's profile, by username."""
    from pathlib import Path

    from chat.models import Message
    from chat.selectors import message_payload

    mallory = make_user("mallory", display_name="The Admins")
    line = message_payload(Message.objects.create(room="lobby", author=mallory, text="hi", created_at=timezone.now()))
    assert (line["author"], line["name"]) == ("mallory", "The Admins")
    script = Path("chat/static/chat/chat.js").read_text()
    assert "who.href = `/u/${encodeURIComponent(m.author)}/`" in script
