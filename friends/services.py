"""Friends use cases: follow, challenge (a crossword invitation or a hunt table invite),
answer a hunt invitation, and the sweep that expires unanswered invitations and seeks.

The only code that writes friends rows; crossword games are created and cancelled
through ``games.crosswords`` and ``games.seating``, tables through ``games.hunts``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.services import notify
from config import durations
from config.errors import Refused
from games import seating
from games.crosswords import services as crosswords
from games.crosswords.models import Game, Status
from games.crosswords.services import notifications as crossword_notifications
from games.hunts import services as hunts
from games.hunts.models import HuntTable

from .models import Follow, HuntInvitation, InvitationStatus


def live_expiry() -> timedelta:
    """How long a live invitation or seek waits for its players (INVITATIONS_EXPIRE_LIVE_MINUTES)."""
    return getattr(settings, "INVITATIONS_EXPIRE_LIVE", timedelta(minutes=30))


def correspondence_expiry() -> timedelta:
    """How long a correspondence invitation or seek waits (INVITATIONS_EXPIRE_DAYS)."""
    return getattr(settings, "INVITATIONS_EXPIRE_CORRESPONDENCE", timedelta(days=7))


def _player(username: str):
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise Refused("No such player.", 404)
    return other


@transaction.atomic
def follow(*, user, username: str) -> Follow:
    """``user`` adds ``username`` to their friends; following twice is one follow."""
    other = _player(username)
    if other.pk == user.pk:
        raise Refused("You cannot follow yourself.")
    try:
        with transaction.atomic():
            return Follow.objects.create(follower=user, followed=other)
    except IntegrityError:
        return Follow.objects.get(follower=user, followed=other)


@transaction.atomic
def unfollow(*, user, username: str) -> bool:
    other = _player(username)
    deleted, _ = Follow.objects.filter(follower=user, followed=other).delete()
    return bool(deleted)


def _challengeable(by, username: str):
    other = _player(username)
    if other.pk == by.pk:
        raise Refused("You cannot challenge yourself.")
    if other.is_bot:
        raise Refused("Bots are played from the new-game page, not challenged.")
    # One open challenge per pair: the challenger's row lock makes two at once wait their turn,
    # so a friend cannot be flooded with invitations.
    get_user_model().objects.select_for_update().filter(pk=by.pk).first()
    if _open_challenge(by, other):
        raise Refused(f"You have challenged {other.shown_name} already; wait for their answer.", 409)
    return other


def _open_challenge(by, other) -> bool:
    now = timezone.now()
    if HuntInvitation.objects.filter(
        sender=by, invitee=other, status=InvitationStatus.PENDING, expires_at__gt=now
    ).exists():
        return True
    for model, _notifications in _game_kinds().values():
        if model.objects.filter(
            status=Status.WAITING, created_by=by, seats__user=other, seats__accepted=False
        ).exists():
            return True
    return False


@transaction.atomic
def challenge_crossword(*, by, username: str, variant: str, seconds_per_move: int, ranked: bool = False) -> Game:
    """Invite ``username`` to a two-player crossword game (they accept or decline it)."""
    other = _challengeable(by, username)
    return crosswords.game_create(
        creator=by, variant=variant, seconds_per_move=seconds_per_move, invitees=[other], ranked=ranked
    )


@transaction.atomic
def challenge_hunt(*, by, username: str, table_settings: dict) -> HuntInvitation:
    """Open a hunt table hosted by ``by`` and invite ``username`` to its second seat."""
    other = _challengeable(by, username)
    expires_at = timezone.now() + live_expiry()
    table = hunts.table_create(host=by, **{**table_settings, "bots": ()}, kept_for=other, kept_until=expires_at)
    invitation = HuntInvitation.objects.create(table=table, sender=by, invitee=other, expires_at=expires_at)
    notify(
        user=other,
        kind="hunt.invitation",
        text=f"{by.shown_name} invites you to a {table.get_game_display()} table.",
        url=invitation_url(invitation),
    )
    return invitation


def invitation_url(invitation: HuntInvitation) -> str:
    from django.urls import reverse

    return reverse("friends:invitation", args=[invitation.pk])


def _locked_invitation(invitation_id: int, user) -> HuntInvitation:
    invitation = HuntInvitation.objects.select_for_update().filter(pk=invitation_id).first()
    if invitation is None or invitation.invitee_id != user.pk:
        raise Refused("No such invitation.", 404)
    if invitation.status != InvitationStatus.PENDING:
        raise Refused(f"This invitation is {invitation.get_status_display().lower()} already.", 409)
    if invitation.expires_at <= timezone.now():
        raise Refused("This invitation has expired.", 409)
    return invitation


@transaction.atomic
def hunt_invitation_accept(*, invitation_id: int, user) -> HuntTable:
    """Take the seat the invitation offers; the host is told."""
    invitation = _locked_invitation(invitation_id, user)
    hunts.table_join(table_id=invitation.table_id, user=user)
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    notify(
        user=invitation.sender,
        kind="hunt.accepted",
        text=f"{user.shown_name} took the seat at your table.",
        url=invitation.table.get_absolute_url(),
    )
    return invitation.table


@transaction.atomic
def hunt_invitation_decline(*, invitation_id: int, user) -> HuntInvitation:
    invitation = _locked_invitation(invitation_id, user)
    invitation.status = InvitationStatus.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    hunts.table_free_kept_seat(table_id=invitation.table_id, kept_for=user)
    notify(
        user=invitation.sender,
        kind="hunt.declined",
        text=f"{user.shown_name} declined your invitation.",
        url=invitation.table.get_absolute_url(),
    )
    return invitation


# -- expiry ------------------------------------------------------------------------------------


def _game_kinds():
    """The games whose invitations and seeks wait for players: (model, their notifications)."""
    from games.tow.models import Game as TowGame
    from games.tow.services import notifications as tow_notifications

    return {"crossword": (Game, crossword_notifications), "tow": (TowGame, tow_notifications)}


def _expired_games(now, live_seconds: int) -> Q:
    live = Q(seconds_per_move__lte=live_seconds)
    return Q(status=Status.WAITING) & (
        Q(created_at__lte=now - correspondence_expiry()) | (live & Q(created_at__lte=now - live_expiry()))
    )


def _tell_expired(live_seconds: int):
    def tell(game, *, user, by) -> None:
        expiry = live_expiry() if game.seconds_per_move <= live_seconds else correspondence_expiry()
        what = "open seek" if game.is_open_seek else "invitation"
        notify(
            user=user,
            kind="game.expired",
            text=f"{game}: the {what} expired after {durations.spoken(expiry)} without every seat taken.",
            url=game.get_absolute_url(),
        )

    return tell


@transaction.atomic
def game_expire(*, kind: str, game_id: int, now) -> bool:
    """Cancel one waiting game if it is (still) past its expiry; False if there was nothing to do."""
    model, notifications = _game_kinds()[kind]
    live_seconds = notifications.LIVE_DEADLINE_SECONDS
    game = model.objects.select_for_update().filter(_expired_games(now, live_seconds), pk=game_id).first()
    if game is None:
        return False
    seating.cancel_waiting(game, by=None, tell=_tell_expired(live_seconds))
    notifications.game_changed(game)
    return True


@transaction.atomic
def hunt_invitation_expire(*, invitation_id: int, now) -> bool:
    invitation = (
        HuntInvitation.objects.select_for_update()
        .filter(pk=invitation_id, status=InvitationStatus.PENDING, expires_at__lte=now)
        .first()
    )
    if invitation is None:
        return False
    invitation.status = InvitationStatus.EXPIRED
    invitation.save(update_fields=["status"])
    # The kept seat lapsed with it (kept_until); this also tells the open pages.
    hunts.table_free_kept_seat(table_id=invitation.table_id, kept_for=invitation.invitee)
    notify(
        user=invitation.sender,
        kind="hunt.expired",
        text=f"Your invitation to {invitation.invitee.shown_name} expired unanswered.",
        url=invitation.table.get_absolute_url(),
    )
    return True


def invitations_sweep(*, now=None) -> dict:
    """Expire every invitation and seek past its time; each under its own row lock, so a
    doubled or overlapping sweep expires each one once."""
    now = now or timezone.now()
    games = [
        (kind, pk)
        for kind, (model, notifications) in _game_kinds().items()
        for pk in model.objects.filter(_expired_games(now, notifications.LIVE_DEADLINE_SECONDS)).values_list(
            "pk", flat=True
        )
    ]
    invitations = list(
        HuntInvitation.objects.filter(status=InvitationStatus.PENDING, expires_at__lte=now).values_list("pk", flat=True)
    )
    return {
        "games": sum(game_expire(kind=kind, game_id=pk, now=now) for kind, pk in games),
        "hunt_invitations": sum(hunt_invitation_expire(invitation_id=pk, now=now) for pk in invitations),
    }
