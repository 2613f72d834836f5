"""Friends use cases: follow, challenge to a game of any kind, answer an invitation to a
kept seat, and the sweep that expires unanswered invitations and seeks.

The only code that writes friends rows. The games are the kinds' (``games.registry``):
a kind's ``Challenge`` makes the game's invitation or keeps a seat at a live table (a
``HuntInvitation`` offers it), takes and frees that seat; each kind's
``expire_waiting`` cancels its games that waited too long.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.services import notify
from config.errors import Refused
from games import registry

from .limits import check_allowance
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
    """The player ``by`` may challenge; how many invitations they may have out (one per
    player at a time, among others) is ``limits.check_allowance``'s to say."""
    other = _player(username)
    if other.pk == by.pk:
        raise Refused("You cannot challenge yourself.")
    if other.is_bot:
        raise Refused("Bots are played from the new-game page, not challenged.")
    return other


def _challenge_of(game: str) -> tuple[registry.GameKind, registry.Challenge]:
    for kind in registry.kinds():
        if kind.challenge is not None and game in dict(kind.challenge.games):
            return kind, kind.challenge
    raise Refused("There is no such game to challenge to.")


@dataclass(frozen=True)
class Sent:
    """What a challenge made: the page to go to, and the invitation to the seat it keeps
    (a live table's) if it kept one."""

    url: str
    invitation: HuntInvitation | None = None


@transaction.atomic
def challenge(*, by, username: str, game: str, settings: Mapping[str, object] | None = None) -> Sent:
    """Challenge ``username`` to ``game``, one of the games a kind offers
    (``registry.Challenge``), with the kind's own ``settings``: the kind makes a game's
    invitation (its seating counts it against ``by``'s allowance), or keeps a seat for
    them, which this invitation offers until it expires."""
    kind, offer = _challenge_of(game)
    other = _challengeable(by, username)
    if offer.keeps_seats:
        check_allowance(by, invitees=[other])
    expires_at = timezone.now() + live_expiry()
    made = offer.send(by=by, other=other, game=game, settings=dict(settings or {}), expires_at=expires_at)
    if made.seat is None:
        return Sent(made.url)
    invitation = HuntInvitation.objects.create(table_id=made.seat, sender=by, invitee=other, expires_at=expires_at)
    notify(
        user=other,
        kind=f"{kind.code}.invitation",
        text=f"{by.name_and_username} invites you to {made.what}.",
        url=invitation_url(invitation),
    )
    return Sent(made.url, invitation)


def _seat_keeper() -> registry.GameKind:
    """The kind whose seats an invitation keeps: the app of the invitation's table."""
    return registry.kind_of_app(HuntInvitation._meta.get_field("table").related_model._meta.app_label)


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
def hunt_invitation_accept(*, invitation_id: int, user):
    """Take the seat the invitation offers (its table is returned); the host is told."""
    invitation = _locked_invitation(invitation_id, user)
    keeper = _seat_keeper()
    keeper.challenge.take_seat(invitation.table_id, user)
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    notify(
        user=invitation.sender,
        kind=f"{keeper.code}.accepted",
        text=f"{user.name_and_username} took the seat at your table.",
        url=invitation.table.get_absolute_url(),
    )
    return invitation.table


@transaction.atomic
def hunt_invitation_decline(*, invitation_id: int, user) -> HuntInvitation:
    invitation = _locked_invitation(invitation_id, user)
    invitation.status = InvitationStatus.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    keeper = _seat_keeper()
    keeper.challenge.free_seat(invitation.table_id, user)
    notify(
        user=invitation.sender,
        kind=f"{keeper.code}.declined",
        text=f"{user.name_and_username} declined your invitation.",
        url=invitation.table.get_absolute_url(),
    )
    return invitation


# -- expiry ------------------------------------------------------------------------------------


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
    keeper = _seat_keeper()
    keeper.challenge.free_seat(invitation.table_id, invitation.invitee)
    notify(
        user=invitation.sender,
        kind=f"{keeper.code}.expired",
        text=f"Your invitation to {invitation.invitee.name_and_username} expired unanswered.",
        url=invitation.table.get_absolute_url(),
    )
    return True


def invitations_sweep(*, now=None) -> dict:
    """Expire every invitation and seek past its time: the games waiting for their players
    (each kind's ``expire_waiting``) and the invitations to kept seats, each under its own
    row lock, so a doubled or overlapping sweep expires each one once."""
    now = now or timezone.now()
    invitations = list(
        HuntInvitation.objects.filter(status=InvitationStatus.PENDING, expires_at__lte=now).values_list("pk", flat=True)
    )
    return {
        "games": sum(expire(now) for _, expire in registry.hooks("expire_waiting")),
        "hunt_invitations": sum(hunt_invitation_expire(invitation_id=pk, now=now) for pk in invitations),
    }
