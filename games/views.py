"""What the pages of the turn-based games share: answering a move, the lobby actions
(accept, decline, withdraw, rematch) and the replay.

A move answers JSON ``{"ok": false, "reason": ...}`` when refused; what a move that
went through answers is the game's own (``answer(move)``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

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


def counted_act(request, action: Callable, answer: Callable, *, read: Callable | None = None, **kwargs) -> JsonResponse:
    """``act`` for a move that names the move count its page showed; ``read(request)``
    gives the move's own fields, or raises ValueError saying what cannot be read."""
    count = move_count(request)
    if count is None:
        return bad(OUT_OF_DATE, 409)
    if read is not None:
        try:
            kwargs.update(read(request))
        except ValueError as error:
            return bad(str(error))
    return act(action, answer, move_count=count, **kwargs)


def created(request, form, create: Callable):
    """A posted new-game ``form`` that is valid makes the game (``create(cleaned_data)``)
    and answers the way to it; None means show the form again (with the refusal)."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        game = create(form.cleaned_data)
    except Refused as refused:
        form.add_error(None, refused.reason)
        return None
    return redirect(game)


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


def lobby_views(services, *, page: str, joined_and_started: str | None = None) -> tuple:
    """The views ``accept``, ``decline``, ``cancel`` and ``rematch`` of a game app over its
    ``services`` (``game_accept``, ...); ``joined_and_started`` is said when accepting
    started the game."""

    def view(action: str, done: str, started: str | None = None):
        @login_required
        @require_POST
        def lobby_view(request, pk: int):
            return lobby_action(request, pk, getattr(services, action), page=page, done=done, started=started)

        lobby_view.__name__ = action.removeprefix("game_")
        return lobby_view

    return (
        view("game_accept", "You joined the game.", joined_and_started),
        view("game_decline", "You declined the invitation."),
        view("game_cancel", "The game was withdrawn."),
        view("game_rematch", "Rematch offered.", "The rematch has started."),
    )


def download(text: str, filename: str, *, content_type: str) -> HttpResponse:
    """``text`` as a file the browser saves as ``filename``."""
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def replay(model, pk: int, frames: Callable) -> JsonResponse:
    """The frames of a game that has started (``frames(game)``)."""
    game = get_object_or_404(model, pk=pk)
    if game.status not in (Status.ACTIVE, Status.FINISHED):
        raise Http404("The game has not started.")
    return JsonResponse({"frames": frames(game)})
