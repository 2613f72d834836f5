"""Tournament pages: the lobby, an event, entering and leaving, and the directors' actions.

Thin: a form or a button becomes one service call; a refusal is answered by
``config.errors.RefusedMiddleware`` (the page again, with the reason).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from config.errors import Refused
from config.throttle import heavy_page

from . import selectors, services
from .forms import CorrectForm, EditForm, RemoveForm, TournamentForm
from .models import DirectorAction, Entry, Format, Pairing, Tournament


@require_GET
def lobby(request):
    return render(
        request,
        "tournaments/lobby.html",
        {**selectors.lobby(), "director": services.is_director(request.user)},
    )


@require_GET
def howto(request):
    return render(request, "tournaments/howto.html")


@require_GET
def event(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    director = services.is_director(request.user)
    live = selectors.live(tournament)
    entry = selectors.my_entry(tournament, request.user)
    context = {
        "tournament": tournament,
        "live": mark_safe(live["html"]),  # rendered by _live.html, escaped there
        "players": live["players"],
        "my_rank": live["ranks"].get(entry.pk) if entry else None,
        "entry": entry,
        "my_game": selectors.my_game(tournament, request.user),
        "director": director,
        "actions": DirectorAction.objects.filter(tournament=tournament).select_related("director")[:20]
        if director
        else (),
        "remove_form": RemoveForm(tournament=tournament) if director else None,
    }
    return render(request, "tournaments/event.html", context)


@require_GET
@heavy_page()
def full_standings(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(
        request,
        "tournaments/standings.html",
        {"tournament": tournament, "standings": selectors.standings(tournament), "full": True},
    )


@login_required
@require_POST
def join(request, tournament_id: int):
    services.entry_register(tournament_id=tournament_id, user=request.user)
    return redirect("tournaments:event", tournament_id)


@login_required
@require_POST
def leave(request, tournament_id: int):
    services.entry_withdraw(tournament_id=tournament_id, user=request.user)
    return redirect("tournaments:event", tournament_id)


@login_required
@require_POST
def check_in(request, tournament_id: int):
    services.entry_check_in(tournament_id=tournament_id, user=request.user)
    return redirect("tournaments:event", tournament_id)


_DIRECTING = {
    "start": lambda tournament_id, by, reason: services.tournament_start(tournament_id=tournament_id, by=by),
    "pause": lambda tournament_id, by, reason: services.tournament_pause(
        tournament_id=tournament_id, by=by, reason=reason
    ),
    "resume": lambda tournament_id, by, reason: services.tournament_resume(tournament_id=tournament_id, by=by),
    "pair": lambda tournament_id, by, reason: services.round_pair_next(tournament_id=tournament_id, by=by),
    "cancel": lambda tournament_id, by, reason: services.tournament_cancel(
        tournament_id=tournament_id, by=by, reason=reason
    ),
}


@login_required
@require_POST
def direct(request, tournament_id: int, action: str):
    if action not in _DIRECTING:
        raise Http404("No such action.")
    _DIRECTING[action](tournament_id, request.user, request.POST.get("reason", "")[:500])
    return redirect("tournaments:event", tournament_id)


@login_required
@require_POST
def remove(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = RemoveForm(request.POST, tournament=tournament)
    if not form.is_valid():
        raise Refused(" ".join(error for errors in form.errors.values() for error in errors))
    entry: Entry = form.cleaned_data["entry"]
    services.entry_withdraw(
        tournament_id=tournament_id, user=entry.user, by=request.user, reason=form.cleaned_data["reason"]
    )
    return redirect("tournaments:event", tournament_id)


@login_required
@require_POST
def correct(request, pairing_id: int):
    pairing = get_object_or_404(Pairing, pk=pairing_id)
    form = CorrectForm(request.POST, pairing=pairing)
    if not form.is_valid():
        raise Refused(" ".join(error for errors in form.errors.values() for error in errors))
    services.result_correct(
        pairing_id=pairing_id, by=request.user, points=form.points(), reason=form.cleaned_data["reason"]
    )
    return redirect("tournaments:event", pairing.tournament_id)


@login_required
def create(request):
    if not services.is_director(request.user):
        raise Refused("Only tournament directors can create events.", status=403)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = services.tournament_create(director=request.user, **form.service_arguments())
        messages.success(request, f"{tournament.name} is listed.")
        return redirect(tournament)
    return render(request, "tournaments/create.html", {"form": form, "formats": Format})


@login_required
def edit(request, tournament_id: int):
    """A director changes an event that has not started."""
    if not services.is_director(request.user):
        raise Refused("Only tournament directors can edit events.", status=403)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = EditForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        services.tournament_edit(tournament_id=tournament.pk, by=request.user, **form.changes())
        messages.success(request, f"{tournament.name} is changed.")
        return redirect("tournaments:event", tournament.pk)
    return render(request, "tournaments/edit.html", {"form": form, "tournament": tournament})
