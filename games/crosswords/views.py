"""Crossword pages: thin views over ``selectors`` (reads) and ``services`` (actions).

Actions from the board answer the new play area (an htmx partial) when the board asks
with ``HX-Request``, so a move is one request; otherwise JSON ``{"ok": true,
"move_count": n}``. A refusal is always JSON ``{"ok": false, "reason": ...}``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET, require_POST

from . import selectors, services
from .forms import NewGameForm, PlacementError, PlayBotForm, parse_move_count, parse_placement
from .models import Game, Status
from .services import Refused, bots


def _refused(refused: Refused) -> JsonResponse:
    return JsonResponse({"ok": False, "reason": refused.reason}, status=refused.status)


def _bad(reason: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"ok": False, "reason": reason}, status=status)


@login_required
def new_game(request):
    form = NewGameForm(request.POST or None, player=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if form.bots:
                game = bots.game_create_with_bots(
                    creator=request.user,
                    variant=data["variant"],
                    seconds_per_move=data["seconds_per_move"],
                    bots=form.bots,
                    invitees=data["invitees"],
                    open_seats=data["open_seats"],
                )
            else:
                game = services.game_create(
                    creator=request.user,
                    variant=data["variant"],
                    seconds_per_move=data["seconds_per_move"],
                    invitees=data["invitees"],
                    open_seats=data["open_seats"],
                    ranked=data["ranked"],
                    rating_min=data["rating_min"],
                    rating_max=data["rating_max"],
                )
        except Refused as refused:
            form.add_error(None, refused.reason)
        else:
            return redirect(game)
    return render(request, "crosswords/new_game.html", {"form": form, "bot_form": PlayBotForm()})


@login_required
def play_bot(request):
    """Start a two-player game against one bot at once (the home page's quick start)."""
    form = PlayBotForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = bots.game_create_with_bots(
                creator=request.user,
                variant=data["variant"],
                seconds_per_move=data["seconds_per_move"],
                bots=[data["strength"]],
            )
        except Refused as refused:
            form.add_error(None, refused.reason)
        else:
            return redirect(game)
    return render(request, "crosswords/new_game.html", {"form": NewGameForm(player=request.user), "bot_form": form})


@login_required
@require_GET
def game(request, pk: int):
    return _page(request, get_object_or_404(Game, pk=pk))


def _page(request, game: Game) -> TemplateResponse:
    view = selectors.game_view(game=game, viewer=request.user)
    template = "crosswords/game.html"
    if request.htmx:
        template += "#play-area"
    return TemplateResponse(request, template, {"view": view, "game": game})


def _moved(request, move, **fields):
    """The board's own request gets the new play area at once; others get JSON."""
    if request.htmx:
        return _page(request, move.game)
    return JsonResponse({"ok": True, "move_count": move.number + 1, **fields})


def _move_count(request) -> int | None:
    return parse_move_count(request.POST.get("move_count"))


@login_required
@require_POST
def preview(request, pk: int):
    game = get_object_or_404(Game, pk=pk)
    raw = request.POST.get("placement") or "[]"
    try:
        placement = parse_placement(raw) if raw != "[]" else []
    except PlacementError as error:
        return JsonResponse({"legal": False, "reason": str(error), "offered": None})
    return JsonResponse(
        selectors.preview(game=game, player=request.user, placement=placement, move_count=_move_count(request))
    )


@login_required
@require_POST
def play(request, pk: int):
    move_count = _move_count(request)
    if move_count is None:
        return _bad("The page is out of date; reload it.", 409)
    try:
        placement = parse_placement(request.POST.get("placement"))
        move = services.game_play(game_id=pk, player=request.user, placement=placement, move_count=move_count)
    except PlacementError as error:
        return _bad(str(error))
    except Refused as refused:
        return _refused(refused)
    return _moved(request, move, score=move.score)


@login_required
@require_POST
def swap(request, pk: int):
    move_count = _move_count(request)
    if move_count is None:
        return _bad("The page is out of date; reload it.", 409)
    tiles = (request.POST.get("tiles") or "").lower()
    if not tiles or len(tiles) > 8 or any(t != "?" and not "a" <= t <= "z" for t in tiles):
        return _bad("Choose the tiles to swap.")
    try:
        move = services.game_swap(game_id=pk, player=request.user, tiles=tiles, move_count=move_count)
    except Refused as refused:
        return _refused(refused)
    return _moved(request, move)


@login_required
@require_POST
def pass_turn(request, pk: int):
    move_count = _move_count(request)
    if move_count is None:
        return _bad("The page is out of date; reload it.", 409)
    try:
        move = services.game_pass(game_id=pk, player=request.user, move_count=move_count)
    except Refused as refused:
        return _refused(refused)
    return _moved(request, move)


@login_required
@require_POST
def resign(request, pk: int):
    try:
        move = services.game_resign(game_id=pk, player=request.user)
    except Refused as refused:
        return _refused(refused)
    return _moved(request, move)


def _lobby_action(request, pk: int, action, done: str, started: str | None = None):
    try:
        result = action(game_id=pk, player=request.user)
    except Refused as refused:
        if refused.status == 404:
            raise Http404(refused.reason) from None
        messages.error(request, refused.reason)
        return redirect("crosswords:game", pk)
    messages.success(request, started if started and result.status == Status.ACTIVE else done)
    return redirect(result)


@login_required
@require_POST
def accept(request, pk: int):
    return _lobby_action(request, pk, services.game_accept, "You joined the game.")


@login_required
@require_POST
def decline(request, pk: int):
    return _lobby_action(request, pk, services.game_decline, "You declined the invitation.")


@login_required
@require_POST
def cancel(request, pk: int):
    return _lobby_action(request, pk, services.game_cancel, "The game was withdrawn.")


@login_required
@require_POST
def rematch(request, pk: int):
    return _lobby_action(request, pk, services.game_rematch, "Rematch offered.", started="The rematch has started.")


@login_required
@require_GET
def replay(request, pk: int):
    game = get_object_or_404(Game, pk=pk)
    if game.status not in (Status.ACTIVE, Status.FINISHED):
        raise Http404("The game has not started.")
    return JsonResponse({"frames": selectors.replay_frames(game=game, viewer=request.user)})
