"""Friends pages: follow, the friends list, challenges and hunt invitations."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from config import durations
from config.errors import Refused

from . import selectors, services
from .forms import ChallengeForm
from .models import HuntInvitation


@require_POST
@login_required
def follow(request, username: str):
    services.follow(user=request.user, username=username)
    messages.success(request, f"{username} is on your friends list.")
    return redirect("profile", username)


@require_POST
@login_required
def unfollow(request, username: str):
    services.unfollow(user=request.user, username=username)
    messages.info(request, f"{username} is no longer on your friends list.")
    return redirect("profile", username)


@login_required
def friends(request):
    return render(
        request,
        "friends/friends.html",
        {
            "friends": selectors.friends(request.user),
            "invitations": selectors.pending_hunt_invitations(request.user),
        },
    )


@login_required
def challenge(request, username: str):
    other = get_object_or_404(get_user_model(), username=username, is_active=True)
    form = ChallengeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            sent = services.challenge(
                by=request.user, username=username, game=form.cleaned_data["game"], settings=form.settings()
            )
        except Refused as refused:
            form.add_error(None, refused.reason)
        else:
            messages.success(request, f"{other.shown_name} is invited; you will be told when they answer.")
            return redirect(sent.url)
    return render(
        request,
        "friends/challenge.html",
        {
            "form": form,
            "other": other,
            "live_expiry": durations.spoken(services.live_expiry()),
            "correspondence_expiry": durations.spoken(services.correspondence_expiry()),
        },
    )


@login_required
def invitation(request, pk: int):
    invitation = get_object_or_404(HuntInvitation.objects.select_related("sender", "invitee", "table"), pk=pk)
    if request.user.pk not in (invitation.sender_id, invitation.invitee_id):
        raise Refused("No such invitation.", 404)
    return render(request, "friends/invitation.html", {"invitation": invitation})


@require_POST
@login_required
def invitation_accept(request, pk: int):
    table = services.hunt_invitation_accept(invitation_id=pk, user=request.user)
    return redirect(table)


@require_POST
@login_required
def invitation_decline(request, pk: int):
    services.hunt_invitation_decline(invitation_id=pk, user=request.user)
    messages.info(request, "Invitation declined.")
    return redirect("friends:list")
