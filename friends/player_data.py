"""A player's follows and hunt invitations, for their download and their account's deletion."""

from __future__ import annotations

from .models import Follow, HuntInvitation, InvitationStatus


def export_player(user) -> dict:
    return {
        "following": sorted(Follow.objects.filter(follower=user).values_list("followed__username", flat=True)),
        "invitations_sent": [
            {"table": i.table_id, "to": i.invitee.username, "status": i.status, "at": i.created_at.isoformat()}
            for i in HuntInvitation.objects.filter(sender=user).select_related("invitee")
        ],
    }


def forget_player(user) -> None:
    """Follows both ways go; invitations waiting for an answer, to or from the player, go."""
    Follow.objects.filter(follower=user).delete()
    Follow.objects.filter(followed=user).delete()
    HuntInvitation.objects.filter(sender=user, status=InvitationStatus.PENDING).delete()
    HuntInvitation.objects.filter(invitee=user, status=InvitationStatus.PENDING).delete()
