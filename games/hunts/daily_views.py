"""Daily challenge pages: today's boards and leaderboards, one day's words, play. Thin."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.hunts import secrecy, services
from games.hunts.models import DailyChallenge
from games.hunts.services import daily
from games.hunts.services.matchmaking import pool_name


def _card(challenge: DailyChallenge, user) -> dict:
    return {
        "challenge": challenge,
        "pool": challenge.pool,
        "name": pool_name(challenge.pool),
        "place": daily.daily_place(challenge, user),
        "leaders": daily.daily_leaderboard(challenge, limit=10),
        "players": daily.daily_players(challenge),
    }


def daily_today(request):
    day = daily.today()
    cards = [_card(daily.daily_challenge(day=day, pool=pool), request.user) for pool in daily.DAILY_POOLS]
    return render(request, "hunts/daily.html", {"day": day, "cards": cards, "past": _past_days(day)})


def _past_days(day, count: int = 7) -> list[tuple]:
    """The ``count`` latest days before ``day`` with a challenge, each with its boards.

    The model's ordering names the pool too, which DISTINCT would count: ordered by the
    day alone, each day is listed once.
    """
    days = list(
        DailyChallenge.objects.filter(day__lt=day).order_by("-day").values_list("day", flat=True).distinct()[:count]
    )
    boards: dict = {when: [] for when in days}
    for challenge in DailyChallenge.objects.filter(day__in=days).order_by("-day", "pool"):
        boards[challenge.day].append((pool_name(challenge.pool), challenge.get_absolute_url()))
    return list(boards.items())


def daily_board(request, day: str, pool: str):
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise Http404("No such day.") from None
    challenge = DailyChallenge.objects.filter(day=when, pool=pool).first()
    if challenge is None:
        raise Http404("No challenge that day.")
    context = {
        **_card(challenge, request.user),
        "day": when,
        "leaders": daily.daily_leaderboard(challenge, limit=100),
        "visible": secrecy.board_visible(challenge, request.user),
        "today": when == daily.today(),
    }
    if context["visible"]:
        context.update(daily.daily_words(challenge))
    return render(request, "hunts/daily_board.html", context)


@login_required
@require_POST
def daily_play(request, pool: str):
    try:
        table = services.daily_play(user=request.user, pool=pool)
    except services.Refused as refused:
        messages.error(request, refused.reason)
        return redirect("hunts:daily")
    return redirect(table)
