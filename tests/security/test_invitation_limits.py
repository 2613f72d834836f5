"""Invitations and seeks have limits per sender, whatever the game, with a clear refusal;
invitation emails go only where the invitee allows and name the sender by username."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import InvitationEmails, Notification
from config.celery import app
from config.errors import Refused
from friends import limits
from friends import services as friends
from games.crosswords import services as crosswords
from games.crosswords.models import Game
from games.crosswords.services import bots
from games.hunts.models import HuntTable
from games.tow import services as tow
from games.tow.models import Game as TowGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def emails_sent_at_once():
    """Celery tasks (the emails) run where they are queued."""
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


DAY = 86400


def test_thirty_new_games_for_one_player_make_one_invitation(client, make_user):
    """The flood of the new-game pages: one invitation waits for walter, the rest are
    refused with the reason, and walter hears of one."""
    mallory, walter = make_user("mallory"), make_user("walter")
    client.force_login(mallory)
    answers = []
    for _ in range(15):
        answers.append(
            client.post(
                "/games/new/",
                {"variant": "wordgrid", "seconds_per_move": DAY, "invitees": "walter", "open_seats": 0},
            )
        )
        answers.append(
            client.post(
                "/tow/", {"seconds_per_move": DAY, "invitees": "walter", "open_seats": 0, "words": "en", "bots": 0}
            )
        )
    assert Game.objects.count() + TowGame.objects.count() == 1
    assert Notification.objects.filter(user=walter).count() == 1
    refused = [answer for answer in answers if answer.status_code == 200]
    assert len(refused) == 29
    assert "You have an invitation waiting for walter already; wait for their answer." in refused[0].content.decode()


def test_one_open_invitation_per_player_across_every_game(make_user):
    """A hunt challenge, a crossword and a TOW invitation to the same player: one at a time."""
    ann, bob = make_user("ann"), make_user("bob")
    friends.challenge(by=ann, username="bob", game="rampage")
    with pytest.raises(Refused, match="waiting for bob already") as refused:
        crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    assert refused.value.status == 429
    with pytest.raises(Refused, match="waiting for bob already"):
        tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    with pytest.raises(Refused, match="waiting for bob already"):
        friends.challenge(by=ann, username="bob", game="wordgrid", settings={"seconds_per_move": DAY})
    assert (Game.objects.count(), TowGame.objects.count(), HuntTable.objects.count()) == (0, 0, 1)


def test_open_invitations_in_all_are_limited(make_user):
    """Ten invitations may wait at once; the eleventh waits for an answer or a withdrawal."""
    ann = make_user("ann")
    others = [make_user(f"p{n}") for n in range(limits.OPEN_INVITATIONS + 1)]
    games = [
        crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[other])
        for other in others[:-1]
    ]
    with pytest.raises(Refused, match="At most 10 invitations can wait"):
        tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[others[-1]])
    crosswords.game_cancel(game_id=games[0].pk, player=ann)
    tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[others[-1]])


def test_open_seeks_are_limited(make_user):
    """Ten open seeks at once, over Word Grid, Wordgame and TOW."""
    ann = make_user("ann")
    for number in range(limits.OPEN_SEEKS):
        if number % 2:
            tow.game_create(creator=ann, seconds_per_move=DAY, open_seats=1)
        else:
            crosswords.game_create(creator=ann, variant="wordgame", seconds_per_move=DAY, open_seats=1)
    with pytest.raises(Refused, match="At most 10 of your open seeks"):
        crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, open_seats=1)
    bot_game = bots.game_create_with_bots(creator=ann, variant="wordgrid", seconds_per_move=DAY, bots=["casual"])
    assert not bot_game.is_open_seek  # a game against a bot is no seek


def test_invitations_an_hour_count_the_withdrawn_ones_too(make_user):
    """Withdrawing each invitation at once does not reset the hour's count."""
    ann = make_user("ann")
    bobs = [make_user(f"b{n}") for n in range(limits.SENT_PER_HOUR + 1)]
    for bob in bobs[:-1]:
        game = tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
        tow.game_cancel(game_id=game.pk, player=ann)
    with pytest.raises(Refused, match="At most 30 invitations and seeks an hour"):
        tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bobs[-1]])
    with pytest.raises(Refused, match="an hour"):
        tow.game_create(creator=ann, seconds_per_move=DAY, open_seats=1)
    later = timezone.now() + timedelta(hours=1, minutes=1)
    limits.check_allowance(ann, invitees=[bobs[-1]], now=later)


@pytest.mark.parametrize(
    "setting, follows, emailed",
    [
        (InvitationEmails.ANYONE, False, True),
        (InvitationEmails.FOLLOWING, True, True),
        (InvitationEmails.FOLLOWING, False, False),
        (InvitationEmails.NOBODY, True, False),
    ],
)
def test_invitation_emails_go_where_the_invitee_allows(
    make_user, django_capture_on_commit_callbacks, emails_sent_at_once, setting, follows, emailed
):
    """Anyone, the players they follow, or nobody; the site notification comes either way."""
    ann = make_user("ann", display_name="The Admins")
    bob = make_user("bob", invitation_emails=setting)
    if follows:
        friends.follow(user=bob, username="ann")
    with django_capture_on_commit_callbacks(execute=True):
        game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    note = Notification.objects.get(user=bob, kind="crossword.invitation")
    assert note.text == f"The Admins (ann) invites you to a {game} game."
    sent = [message for message in mail.outbox if message.to == ["bob@example.com"]]
    assert len(sent) == int(emailed)
    if emailed:
        assert "The Admins (ann) invites you" in sent[0].body


def test_a_new_player_is_emailed_invitations_only_from_players_they_follow(make_user):
    """The default keeps strangers' invitations in the site."""
    assert make_user("bob").invitation_emails == InvitationEmails.FOLLOWING


def finished_wordgrid(ann, bob) -> Game:
    """A Word Grid game between ann and bob that bob resigned."""
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    crosswords.game_accept(game_id=game.pk, player=bob)
    crosswords.game_resign(game_id=game.pk, player=bob)
    return game


def test_a_rematch_offer_is_an_invitation_within_the_limits(make_user):
    """Offering rematches of finished games is inviting their players: one waits for bob
    at a time, and a refused offer writes nothing and tells nobody."""
    ann, bob = make_user("ann"), make_user("bob")
    first, second = finished_wordgrid(ann, bob), finished_wordgrid(ann, bob)
    rematch = crosswords.game_rematch(game_id=first.pk, player=ann)
    games, notes = Game.objects.count(), Notification.objects.filter(user=bob).count()
    with pytest.raises(Refused, match="You have an invitation waiting for bob already") as refused:
        crosswords.game_rematch(game_id=second.pk, player=ann)
    assert refused.value.status == 429
    assert (Game.objects.count(), Notification.objects.filter(user=bob).count()) == (games, notes)
    assert crosswords.game_rematch(game_id=first.pk, player=ann) == rematch  # asking twice: the same offer


def test_a_rematch_offer_counts_in_the_hour(make_user):
    """Rematch offers count among the invitations an hour, in TOW as in crosswords."""
    ann = make_user("ann")
    bobs = [make_user(f"b{n}") for n in range(limits.SENT_PER_HOUR // 2 + 1)]
    finished = []
    for bob in bobs:
        game = tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
        tow.game_accept(game_id=game.pk, player=bob)
        tow.game_resign(game_id=game.pk, player=bob)
        finished.append(game)
    offers = limits.SENT_PER_HOUR - len(finished)  # the hour's invitations left
    for game in finished[:offers]:
        rematch = tow.game_rematch(game_id=game.pk, player=ann)
        tow.game_cancel(game_id=rematch.pk, player=ann)
    with pytest.raises(Refused, match="At most 30 invitations and seeks an hour"):
        tow.game_rematch(game_id=finished[offers].pk, player=ann)


def test_a_rematch_with_a_player_who_cannot_play_is_refused(make_user):
    """A deleted or switched-off player is offered no rematch."""
    ann, bob = make_user("ann"), make_user("bob")
    game = finished_wordgrid(ann, bob)
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    with pytest.raises(Refused, match="bob cannot play"):
        crosswords.game_rematch(game_id=game.pk, player=ann)
    assert not Game.objects.filter(rematch_of=game).exists()


def test_a_taken_seek_counts_once_in_the_hour(make_user):
    """A seek counts one among the hour's invitations and seeks whoever takes it; its
    taker was not invited, so does not count again."""
    ann, bob, carol = make_user("ann"), make_user("bob"), make_user("carol")
    seek = crosswords.game_create(creator=ann, variant="wordgame", seconds_per_move=DAY, open_seats=1)
    assert limits.sent_within_hour(ann) == 1
    crosswords.game_accept(game_id=seek.pk, player=bob)
    assert limits.sent_within_hour(ann) == 1
    invitation = tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[carol])
    tow.game_accept(game_id=invitation.pk, player=carol)
    assert limits.sent_within_hour(ann) == 2  # an accepted invitation still counts
