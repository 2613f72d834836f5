"""Hunt pages: the lobby, a table, a round's results. Thin: forms in, one service call."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.hunts import pools, selectors, services
from games.hunts.forms import BotForm, LeaveForm, TableForm
from games.hunts.models import HuntTable
from games.hunts.secrecy import daily_round_visible, daily_table_visible
from lexicon.services import offensive_words_shown


def lobby(request):
    form = TableForm()
    return render(request, "hunts/lobby.html", {"form": form, "tables": selectors.open_tables()})


@login_required
@require_POST
def table_create(request):
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "hunts/lobby.html", {"form": form, "tables": selectors.open_tables()}, status=400)
    try:
        table = services.table_create(host=request.user, **form.table_settings())
    except services.Refused as refused:
        form.add_error(None, refused.reason)
        return render(request, "hunts/lobby.html", {"form": form, "tables": selectors.open_tables()}, status=400)
    return redirect(table)


def table(request, table_id: int):
    table = get_object_or_404(HuntTable.objects.select_related("host"), pk=table_id)
    if not daily_table_visible(table, request.user):
        raise Http404("No such table.")
    pool = pools.hunt_pool(table.game, table.size)
    return render(request, "hunts/table.html", {"table": table, "bot_form": BotForm(pool=pool)})


def _act(request, table_id: int, action, **kwargs):
    # A refusal goes back to the page it came from with its reason (config.errors).
    action(table_id=table_id, **kwargs)
    return redirect("hunts:table", table_id)


@login_required
@require_POST
def table_join(request, table_id: int):
    return _act(request, table_id, services.table_join, user=request.user)


@login_required
@require_POST
def table_leave(request, table_id: int):
    form = LeaveForm(request.POST)
    if not form.is_valid():
        messages.error(request, "No such seat.")
        return redirect("hunts:table", table_id)
    position = form.cleaned_data["seat"]
    if position is not None:
        return _act(request, table_id, services.table_leave, user=request.user, seat_position=position)
    _act(request, table_id, services.table_leave, user=request.user)
    return redirect("hunts:lobby")


@login_required
@require_POST
def table_add_bot(request, table_id: int):
    form = BotForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a bot strength.")
        return redirect("hunts:table", table_id)
    return _act(request, table_id, services.table_add_bot, by=request.user, strength=form.cleaned_data["strength"])


@login_required
@require_POST
def round_start(request, table_id: int):
    return _act(request, table_id, services.round_start, by=request.user)


def round_detail(request, round_id: int):
    results = selectors.round_results(round_id, show_offensive=offensive_words_shown(request.user))
    if results is None or not daily_round_visible(results["round"], request.user):
        raise Http404("No such round.")
    template = "hunts/_results.html" if request.htmx or request.GET.get("partial") else "hunts/round.html"
    return render(request, template, results)
