"""What the pages of the turn-based games share: answering a move, the lobby actions
(accept, decline, withdraw, rematch) and the replay.

A move answers JSON ``{"ok": false, "reason": ...}`` when refused; what a move that
went through answers is the game's own (``answer(move)``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect

from config.errors import Refused
from games.forms import parse_move_count
from games.models import Status

OUT_OF_DATE = "The page is out of date; reload it."


def bad(reason: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"ok": False, "reason": reason}, status=status)


def move_count(request) -> int | None:
    """The move count the page showed, or None if it sent none that can be read."""
    return parse_move_count(request.POST.get("move_count"))


def act(action: Callable, answer: Callable, **kwargs) -> JsonResponse:
    """Make the move ``action(**kwargs)``; answer its refusal, or ``answer(move)``."""
    try:
        move = action(**kwargs)
    except Refused as refused:
        return bad(refused.reason, refused.status)
    return answer(move)


def counted_act(request, action: Callable, answer: Callable, **kwargs) -> JsonResponse:
    """``act`` for a move that names the move count its page showed."""
    count = move_count(request)
    if count is None:
        return bad(OUT_OF_DATE, 409)
    return act(action, answer, move_count=count, **kwargs)


def lobby_action(request, pk: int, action: Callable, *, page: str, done: str, started: str | None = None):
    """A lobby action on game ``pk``; back to its ``page`` with what happened."""
    try:
        result = action(game_id=pk, player=request.user)
    except Refused as refused:
        if refused.status == 404:
            raise Http404(refused.reason) from None
        messages.error(request, refused.reason)
        return redirect(page, pk)
    messages.success(request, started if started and result.status == Status.ACTIVE else done)
    return redirect(result)


def replay(model, pk: int, frames: Callable) -> JsonResponse:
    """The frames of a game that has started (``frames(game)``)."""
    game = get_object_or_404(model, pk=pk)
    if game.status not in (Status.ACTIVE, Status.FINISHED):
        raise Http404("The game has not started.")
    return JsonResponse({"frames": frames(game)})
