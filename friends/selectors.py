"""Friends reads: the friends list with who is online and what they play."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from accounts.models import PRESENCE_STALE_AFTER, InvitationEmails, OnlineConnection
from games import registry

from .models import Follow, HuntInvitation, InvitationStatus


@dataclass
class Friend:
    user: object
    online: bool = False
    doing: tuple[registry.Playing, ...] = ()  # what they are in the middle of, kind by kind
    since: object = None

    @property
    def playing(self) -> str:
        return " · ".join(part.text for part in self.doing)

    @property
    def watch_url(self) -> str:
        """A page to watch them play (a live table), if any."""
        return next((part.watch_url for part in self.doing if part.watch_url), "")


def is_following(user, other) -> bool:
    return user.is_authenticated and Follow.objects.filter(follower=user, followed=other).exists()


def friends(user) -> list[Friend]:
    """The players ``user`` follows, online first, then by name, with what each is playing
    (each kind says: ``GameKind.playing``); two queries, and one a kind."""
    follows = list(Follow.objects.filter(follower=user).select_related("followed"))
    ids = [f.followed_id for f in follows]
    fresh = timezone.now() - PRESENCE_STALE_AFTER
    online = set(OnlineConnection.objects.filter(user_id__in=ids, seen_at__gte=fresh).values_list("user_id", flat=True))
    playing = [kind_playing(ids) for _, kind_playing in registry.hooks("playing")]
    listed = [
        Friend(
            user=f.followed,
            online=f.followed_id in online,
            doing=tuple(found[f.followed_id] for found in playing if f.followed_id in found),
            since=f.created_at,
        )
        for f in follows
    ]
    listed.sort(key=lambda f: (not f.online, f.user.username.lower()))
    return listed


def followers_count(user) -> int:
    return Follow.objects.filter(followed=user).count()


def pending_hunt_invitations(user) -> list[HuntInvitation]:
    return list(
        HuntInvitation.objects.filter(
            Q(invitee=user) | Q(sender=user), status=InvitationStatus.PENDING, expires_at__gt=timezone.now()
        ).select_related("sender", "invitee", "table")
    )


def invitation_email_allowed(*, invitee, sender) -> bool:
    """Whether ``invitee`` takes emailed invitations from ``sender`` (their setting)."""
    if invitee.invitation_emails == InvitationEmails.ANYONE:
        return True
    if invitee.invitation_emails == InvitationEmails.FOLLOWING:
        return Follow.objects.filter(follower=invitee, followed=sender).exists()
    return False
