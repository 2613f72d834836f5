"""Chat actions a page posts to (mute, unmute, report) and the muted-players page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from config.errors import Refused

from . import selectors, services


def _answer(request, ok: bool, text: str, status: int = 200):
    if request.headers.get("accept", "").startswith("application/json"):
        return JsonResponse({"ok": ok, ("message" if ok else "reason"): text}, status=status)
    (messages.success if ok else messages.error)(request, text)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "chat:muted"
    return redirect(target)


@require_POST
@login_required
def mute(request, username: str):
    try:
        services.mute(user=request.user, username=username)
    except Refused as refused:
        return _answer(request, False, refused.reason, refused.status)
    return _answer(request, True, f"You will not see {username}'s chat messages.")


@require_POST
@login_required
def unmute(request, username: str):
    try:
        services.unmute(user=request.user, username=username)
    except Refused as refused:
        return _answer(request, False, refused.reason, refused.status)
    return _answer(request, True, f"You see {username}'s chat messages again.")


@require_POST
@login_required
def report(request, message_id: int):
    try:
        services.report(user=request.user, message_id=message_id, reason=request.POST.get("reason", ""))
    except Refused as refused:
        return _answer(request, False, refused.reason, refused.status)
    return _answer(request, True, "Thank you: a moderator will look at this message.")


@login_required
def muted(request):
    return render(request, "chat/muted.html", {"players": selectors.muted_players(request.user)})
