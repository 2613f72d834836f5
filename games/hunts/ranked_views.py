"""Ranked queue actions from the lobby: join, cancel, take a bot. Thin: one service call each.

An htmx request gets the ranked panel back (with the refusal, if any); a plain form post
is redirected to the lobby, a refusal shown as a message.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.hunts import services
from games.hunts.services import matchmaking


def _panel(request, error: str = ""):
    return render(request, "hunts/_ranked.html", {**matchmaking.ranked_panel(request.user), "error": error})


def _act(request, action, **kwargs):
    try:
        action(user=request.user, **kwargs)
    except services.Refused as refused:
        if request.htmx:
            return _panel(request, refused.reason)
        messages.error(request, refused.reason)
    return _panel(request) if request.htmx else redirect("hunts:lobby")


@login_required
@require_POST
def queue_join(request, pool: str):
    return _act(request, services.queue_join, pool=pool)


@login_required
@require_POST
def queue_cancel(request):
    return _act(request, services.queue_cancel)


@login_required
@require_POST
def queue_bot(request):
    try:
        table = services.queue_play_bot(user=request.user)
    except services.Refused as refused:
        if request.htmx:
            return _panel(request, refused.reason)
        messages.error(request, refused.reason)
        return redirect("hunts:lobby")
    if request.htmx:
        return HttpResponseClientRedirect(table.get_absolute_url())
    return redirect(table)
